"""The table model every tab of the Runs window builds on: :class:`CellsModel`, a
``QAbstractTableModel`` over plain :class:`Cell` values (text, tooltip, alignment, colours,
font), filled at once by a subclass's ``set_rows(...)``, readable without a window
(:meth:`CellsModel.text`, :meth:`CellsModel.cell`). :class:`CellsTable` is its read-only view;
its :meth:`~CellsTable.item` reads a cell back as shown (tests, exports). The helpers shared by
the tabs (colours, :func:`wrap_label`, :func:`pair_tip`) live here too.

Statistics are the engine's (:mod:`readsim.core.run_comparison`, docs/reference.md section 12); this
module only lays them out. See docs/architecture.md."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QLabel, QTableView, QVBoxLayout, QWidget

from ... import appearance as look
from ... import runs_model as rm
from ...plain import plain_label, plain_tip, rich_label
from ..table_copy import add_copy_actions

SIGNIFICANT_MARK = "≫"
NOT_SIGNIFICANT_MARK = "n.s."

# a cell's colours: roles of readsim.app.appearance, resolved when the view draws (the theme's)
SECTION = "header"
CHOSEN = "chosen_bg"
GREEN_TEXT = "good"
RED_TEXT = "bad"
AMBER_TEXT = "amber"
MUTED = "faint"
NOT_SIGNIFICANT = "quiet_bg"
BLANK = "blank_bg"

LEFT = Qt.AlignmentFlag.AlignLeft
RIGHT = Qt.AlignmentFlag.AlignRight
CENTER = Qt.AlignmentFlag.AlignCenter
#: a header's data: the measure a column shows (the Runs tab orders by it when clicked)
MEASURE_ROLE = Qt.ItemDataRole.UserRole
TABLE_STYLE = "QTableView { font-size: 11pt; } QHeaderView::section { font-weight: bold; padding: 4px; }"


@dataclass(frozen=True)
class Cell:
    """One cell (or header) as shown: plain ``text``, a plain ``tip``, its alignment, colours
    (a role of :data:`readsim.app.appearance.ROLES`, or a function giving a QColor in the current
    theme; None: the view's), ``font`` (None: the view's) and ``data`` (:data:`MEASURE_ROLE`)."""

    text: str = ""
    tip: str = ""
    align: Qt.AlignmentFlag = RIGHT
    fg: str | Callable[[], QColor] | None = None
    bg: str | Callable[[], QColor] | None = None
    font: QFont | None = None
    data: object = None


def font_of(base: QFont | None = None, bold: bool = False, italic: bool = False, grow: float = 0.0) -> QFont:
    """A copy of ``base`` (the application's font when None), bold, italic, or ``grow`` points
    larger (at least 11 + ``grow`` points)."""
    f = QFont(base) if base is not None else QFont()
    f.setBold(bold)
    f.setItalic(italic)
    if grow:
        f.setPointSizeF(max(f.pointSizeF(), 11) + grow)
    return f


class CellsModel(QAbstractTableModel):
    """Rows of :class:`Cell`, with horizontal and vertical header cells. Subclasses compute the
    cells in their ``set_rows(...)`` and hand them to :meth:`_set`."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list[list[Cell]] = []
        self.columns: list[Cell] = []
        self.row_heads: list[Cell] = []

    def _set(self, rows: list[list[Cell]], columns: list[Cell], row_heads: list[Cell] | None = None) -> None:
        self.beginResetModel()
        self.rows, self.columns, self.row_heads = rows, columns, row_heads or []
        self.endResetModel()

    def clear(self) -> None:
        """No rows, no columns."""
        self._set([], [])

    def cell(self, row: int, column: int) -> Cell:
        return self.rows[row][column]

    def text(self, row: int, column: int) -> str:
        return self.rows[row][column].text

    def texts(self) -> list[list[str]]:
        """Every cell's text, row by row."""
        return [[c.text for c in row] for row in self.rows]

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        return _role(self.rows[index.row()][index.column()], role)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        heads = self.columns if orientation == Qt.Orientation.Horizontal else self.row_heads
        if not 0 <= section < len(heads) or role == Qt.ItemDataRole.TextAlignmentRole:
            return None  # no vertical header cells: the view numbers the rows; alignment: the header's
        return _role(heads[section], role)


def _role(c: Cell, role):
    if role == Qt.ItemDataRole.DisplayRole:
        return c.text
    if role == Qt.ItemDataRole.ToolTipRole:
        return plain_tip(c.tip) if c.tip else None
    if role == Qt.ItemDataRole.TextAlignmentRole:
        return int(c.align | Qt.AlignmentFlag.AlignVCenter)
    if role == Qt.ItemDataRole.ForegroundRole:
        return _brush(c.fg)
    if role == Qt.ItemDataRole.BackgroundRole:
        return _brush(c.bg)
    if role == Qt.ItemDataRole.FontRole:
        return c.font
    if role == MEASURE_ROLE:
        return c.data
    return None


def _brush(colour) -> QBrush | None:
    """A cell colour in the current theme (:class:`Cell`)."""
    if colour is None:
        return None
    return look.brush(colour) if isinstance(colour, str) else QBrush(colour())


class _Shown:
    """A cell of a :class:`CellsTable` read back as the view shows it (``text()``,
    ``toolTip()``, ``data(role)``)."""

    def __init__(self, value) -> None:
        self._value = value

    def text(self) -> str:
        return self._value(Qt.ItemDataRole.DisplayRole) or ""

    def toolTip(self) -> str:
        return self._value(Qt.ItemDataRole.ToolTipRole) or ""

    def data(self, role):
        return self._value(role)

    def font(self) -> QFont:
        """The cell's font as drawn (bold for the best mean of a measure)."""
        font = self._value(Qt.ItemDataRole.FontRole)
        return font if isinstance(font, QFont) else QFont()


class CellsTable(QTableView):
    """A read-only view of a :class:`CellsModel`: cells selected, no word wrap; the context
    menu's Copy as LaTeX and Copy as Markdown (:mod:`readsim.app.widgets.table_copy`)."""

    def __init__(self, model: CellsModel, style: str = TABLE_STYLE) -> None:
        super().__init__()
        self.setModel(model)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.setWordWrap(False)
        self.setStyleSheet(style)
        add_copy_actions(self)
        #: says what to do while the table has no rows (:meth:`set_placeholder`); hidden otherwise
        self.placeholder = plain_label("", self.viewport())
        self.placeholder.setWordWrap(True)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setStyleSheet(f"QLabel {{ color:{look.css('subtle')}; font-style:italic; padding:16px; }}")
        self.placeholder.hide()
        for signal in (model.modelReset, model.rowsInserted, model.rowsRemoved):
            signal.connect(self._place_placeholder)

    def set_placeholder(self, text: str) -> None:
        """Show plain ``text`` in the empty table (what to press, what is missing); "" for none."""
        self.placeholder.setText(text)
        self._place_placeholder()

    def _place_placeholder(self, *_args) -> None:
        self.placeholder.setGeometry(self.viewport().rect())
        self.placeholder.setVisible(bool(self.placeholder.text()) and self.model().rowCount() == 0)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._place_placeholder()

    def rowCount(self) -> int:
        return self.model().rowCount()

    def columnCount(self) -> int:
        return self.model().columnCount()

    def item(self, row: int, column: int) -> _Shown:
        index = self.model().index(row, column)
        return _Shown(lambda role: self.model().data(index, role))

    def horizontalHeaderItem(self, column: int) -> _Shown:
        return _Shown(lambda role: self.model().headerData(column, Qt.Orientation.Horizontal, role))

    def verticalHeaderItem(self, row: int) -> _Shown:
        return _Shown(lambda role: self.model().headerData(row, Qt.Orientation.Vertical, role))


def texts(table: CellsTable) -> list[list[str]]:
    """A table's cell texts, row by row (empty string for an empty cell)."""
    return table.model().texts()


def note(text: str = "", colour: str = "muted", rich: bool = True) -> QLabel:
    """A word-wrapped note in role ``colour``: rich text (our words, values through ``esc``) or,
    ``rich=False``, plain."""
    label = rich_label(text) if rich else plain_label(text)
    label.setWordWrap(True)
    label.setStyleSheet(f"color:{look.css(colour)};")
    return label


def titled(page: QWidget, table: QWidget) -> tuple[QLabel, QLabel]:
    """Lay ``page`` (a tab) out as a title note over ``table`` over a legend note; returns
    ``(title, legend)``."""
    lay = QVBoxLayout(page)
    title, legend = note(), note()
    lay.addWidget(title)
    lay.addWidget(table, 1)
    lay.addWidget(legend)
    return title, legend


def wrap_label(text: str, width: int = 14) -> str:
    """``text`` broken into lines of about ``width`` characters after ``-``, ``_``, ``/``, a
    space, or a ``.`` not inside a number (column headers of run and measure names):
    ``bert-passages-map199`` -> ``bert-passages-\\nmap199``, ``AgP/F(0.25)`` -> ``AgP/\\nF(0.25)``
    with ``width`` 9. A piece longer than ``width`` stays whole."""
    pieces, piece = [], ""
    for i, ch in enumerate(text):
        piece += ch
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if ch in "-_/ " or (ch == "." and not nxt.isdigit()):
            pieces.append(piece)
            piece = ""
    if piece:
        pieces.append(piece)
    lines, line = [], ""
    for piece in pieces:
        if line and len(line) + len(piece) > width:
            lines.append(line)
            line = ""
        line += piece
    lines.append(line)
    return "\n".join(s.rstrip() for s in lines if s.strip())


def p_colour(p: float, alpha: float) -> QColor:
    """A significant cell's colour in the current theme: pale green at p = α, deep green at
    p <= 0.001 (log scale); light and dark ends are the theme's tints ``heat_low``, ``heat_high``."""
    if p is None or math.isnan(p):
        return look.color(NOT_SIGNIFICANT)
    floor = min(0.001, alpha / 10)
    s = 1.0 if p <= floor else math.log(alpha / p) / math.log(alpha / floor)
    s = min(max(s, 0.0), 1.0)
    low, high = np.array(look.tint("heat_low").getRgb()[:3]), np.array(look.tint("heat_high").getRgb()[:3])
    rgb = low + (high - low) * s
    return QColor(*(int(round(v)) for v in rgb))


def on_colour(background: QColor) -> QColor:
    """Text on ``background``: the ``on_accent`` white on a deep colour, ``on_pale`` on a pale one."""
    return look.color("on_accent" if background.lightness() < 140 else "on_pale")


def shown_p(c, pair) -> float:
    """The p a pair is judged by: adjusted when the comparison has a correction."""
    return pair.p_adjusted if c.correction != "none" else pair.p


def pair_tip(c, k: int, pair, relation: str = "") -> str:
    """The tooltip of a pair of runs under measure ``k`` of comparison ``c``: both ranks, the
    mean difference with its interval, Cohen's d_z, the topics won, p (and adjusted p), the verdict."""
    a, b = c.runs[pair.better], c.runs[pair.worse]
    p = f"p {rm.fmt_p(pair.p)}" + (f", adjusted ({c.correction}) {rm.fmt_p(pair.p_adjusted)}"
                                   if c.correction != "none" else "")
    verdict = "significant" if pair.significant else "not significant"
    return (f"{a} (rank {c.rank[k, pair.better]}) vs {b} (rank {c.rank[k, pair.worse]}"
            f"{', ' + relation if relation else ''}) under {c.measures[k]}\n"
            f"mean difference {rm.fmt_signed(pair.diff)}, {(1 - c.alpha) * 100:g}% {c.ci_method} interval "
            f"[{rm.fmt_signed(pair.ci_low)}, {rm.fmt_signed(pair.ci_high)}], Cohen's d_z {rm.fmt_signed(pair.effect, 2)}\n"
            f"topics where {a} is better / equal / worse: {pair.wins} / {pair.ties} / {pair.losses}\n"
            f"{p}: {verdict} at α {c.alpha:g}")
