"""The passages table (View ▸ Passages, a dock): why a run's passage won or lost points.

For the open article, one row per retrieved passage in chain order (its run line(s) as
``file:line``, which lines were merged into it or overlap each other, offset, length, the
relevant units inside, its precision, how far the reader had read when it started and on which
screen), one row per relevant passage of the qrels ("found by passage k" or "missed", the
units read before reaching it), and one row per run line that retrieves nothing (a zero length,
outside the article, an XPath the article lacks). The numbers are
:func:`readsim.core.passages.passage_table` of the session's evaluation of the open article,
so they follow the reading mode; the screen column follows the screen size. Units are the
session's (the qrels' unit: bytes or characters).

:class:`PassagesModel` holds a plain list of :class:`PassageRow` filled by one
:meth:`PassagesModel.set_rows` (named column constants, :data:`SORT_ROLE` a sortable raw value,
:data:`SPAN_ROLE` the row's ``(start, end)`` in the unit) and is usable without a window; a
header click sorts (the "Passage" column restores the table's own order). Selecting a row
selects its text in the article view (:class:`~readsim.app.widgets.article_view.ArticleView`)
and scrolls to it. :meth:`PassagesPanel.export_csv` writes the rows as shown (order included)
with :func:`readsim.core.atomic.write_text`.

Everything here runs in the GUI thread; the table is rebuilt (O(passages x pieces)) only while
the dock is visible (:class:`~readsim.app.widgets.tables.FollowingPanel`); the CSV goes through
the app's one export path (:mod:`readsim.app.export`). See docs/architecture.md.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QFont, QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QHeaderView, QPushButton, QVBoxLayout

from readsim.core.atomic import write_text
from readsim.core.formats import RunArticle
from readsim.core.passages import PassageTable, RunLine, passage_table, screen_of
from readsim.core.reading import Mode

from .. import appearance as look
from ..export import ask_save_path, write_export
from ..plain import amount, esc, plain_tip, rich_label
from ..session import Session
from .tables import BottomDock, FollowingPanel, build_bottom_dock, row_table, select_quietly

PASSAGE, OFFSET, LENGTH, OVERLAP, PRECISION, READ, SCREEN, FOUND, LINES = range(9)
COLUMN_COUNT = 9
SORT_ROLE = Qt.ItemDataRole.UserRole + 1  # raw value of a cell (None sorts last)
SPAN_ROLE = Qt.ItemDataRole.UserRole + 2  # the row's (start, end) in the unit
RETRIEVED, RELEVANT, LINE = "retrieved", "relevant", "line"
SHORTCUT = "Ctrl+Alt+P"
CSV_COLUMNS = ("kind", "number", "offset", "length", "relevant_retrieved", "precision", "read_before", "screen",
               "found", "run_lines", "topic", "article", "mode", "screen_size", "unit")

# roles of readsim.app.appearance
MISSED = "bad"
LINE_GREY = "faint"
RELEVANT_BG = "relevant_bg"  # the article view's yellow, lighter
RETRIEVED_FG = "accent"  # the article view's retrieved blue


def unit_name(unit: str) -> str:
    """``bytes`` or ``characters`` for the session's unit (``bytes``/``chars``)."""
    return "characters" if unit.startswith("char") else "bytes"


class PassageRow:
    """One row: ``kind`` (``retrieved``, ``relevant`` or ``line``), ``number`` (passage k or j,
    the line number for a line), ``start``/``end`` (unit; ``None`` for an unresolved XPath line),
    then the cells' raw values: ``overlap`` (relevant units of a retrieved passage, retrieved units
    of a relevant one), ``precision`` (retrieved rows), ``read_before`` and ``screen`` (1-based),
    ``found`` (text), ``lines`` (text) and ``lines_tip`` (one line per run line)."""

    __slots__ = ("kind", "number", "start", "end", "overlap", "precision", "read_before", "screen", "found",
                 "lines", "lines_tip", "order")

    def __init__(self, kind: str, number: int, start: int | None, end: int | None, overlap: int | None = None,
                 precision: float | None = None, read_before: int | None = None, screen: int | None = None,
                 found: str = "", lines: str = "", lines_tip: str = "", order: int = 0) -> None:
        self.kind, self.number, self.start, self.end = kind, number, start, end
        self.overlap, self.precision, self.read_before, self.screen = overlap, precision, read_before, screen
        self.found, self.lines, self.lines_tip, self.order = found, lines, lines_tip, order

    @property
    def length(self) -> int | None:
        return None if self.start is None or self.end is None else self.end - self.start

    @property
    def label(self) -> str:
        """The "Passage" cell: ``retrieved 2``, ``relevant 1``, ``run line``."""
        return "run line" if self.kind == LINE else f"{self.kind} {self.number}"

    def value(self, column: int):
        """The raw value of ``column`` (what sorts and what the CSV holds)."""
        return {PASSAGE: self.order, OFFSET: self.start, LENGTH: self.length, OVERLAP: self.overlap,
                PRECISION: self.precision, READ: self.read_before, SCREEN: self.screen, FOUND: self.found,
                LINES: self.lines}[column]


# -- rows from the engine's table (no widgets) --------------------------------------------------
def _line_ref(ln: RunLine, name: str, first: bool) -> str:
    return f"{name}:{ln.number}" if first else f":{ln.number}"


def _line_tip(ln: RunLine, name: str, unit: str) -> str:
    what = {"whole": "whole article", "xpath": ln.xpath}.get(ln.kind, "")
    span = f"[{ln.start:,}, {ln.end:,}) {amount(ln.length, unit)}" if ln.start >= 0 else "no span"
    bits = [f"{name}:{ln.number}", span]
    if what:
        bits.append(what)
    if ln.overlaps:
        bits.append("overlaps " + ", ".join(f":{n}" for n in ln.overlaps))
    if ln.reason:
        bits.append(ln.reason)
    return "  ".join(bits)


def lines_text(lines: tuple[RunLine, ...], name: str) -> str:
    """A retrieved passage's lines: ``run.txt:3 + :4 (merged; :3 and :4 overlap)``; a whole
    line or an XPath line says so."""
    if not lines:
        return ""
    refs = " + ".join(_line_ref(ln, name, i == 0) for i, ln in enumerate(lines))
    notes = []
    if len(lines) > 1:
        notes.append(f"{len(lines)} lines merged")
    pairs = sorted({(min(ln.number, o), max(ln.number, o)) for ln in lines for o in ln.overlaps
                    if any(x.number == o for x in lines)})
    notes += [f":{a} and :{b} overlap" for a, b in pairs]
    notes += ["whole article" for ln in lines if ln.kind == "whole"]
    notes += [ln.xpath for ln in lines if ln.kind == "xpath"]
    return refs + (f" ({'; '.join(notes)})" if notes else "")


def table_rows(table: PassageTable, run_name: str, screen: int, unit: str = "bytes",
               no_lines: str = "") -> list[PassageRow]:
    """The rows of ``table``: retrieved passages (chain order), relevant passages (document
    order), then the run lines that retrieve nothing. ``run_name`` names the run file in
    ``file:line``; ``screen`` is the screen size (unit) of the screen column; ``no_lines`` the
    lines cell of a retrieved passage without run lines (e.g. ``edited``)."""
    u = unit_name(unit)
    rows: list[PassageRow] = []
    for p in table.retrieved:
        found = ("holds relevant " + ", ".join(map(str, p.finds))) if p.finds else "no relevant text"
        rows.append(PassageRow(RETRIEVED, p.number, p.start, p.end, p.relevant, p.precision, p.read_before,
                               screen_of(p.read_before, screen), found,
                               lines_text(p.lines, run_name) or no_lines,
                               "\n".join(_line_tip(ln, run_name, u) for ln in p.lines), len(rows)))
    for r in table.relevant:
        found = "missed" if r.missed else f"found by passage {r.found_by}"
        if len(r.overlapped_by) > 1:
            found += " (also " + ", ".join(map(str, r.overlapped_by[1:])) + ")"
        rows.append(PassageRow(RELEVANT, r.number, r.start, r.end, r.retrieved, None, r.read_before,
                               screen_of(r.read_before, screen), found, order=len(rows)))
    for ln in table.unused:
        resolved = ln.start >= 0
        rows.append(PassageRow(LINE, ln.number, ln.start if resolved else None, ln.end if resolved else None,
                               found=ln.reason, lines=_line_ref(ln, run_name, True) + (f" {ln.xpath}" if ln.xpath else ""),
                               lines_tip=_line_tip(ln, run_name, u), order=len(rows)))
    return rows


# -- the model -------------------------------------------------------------------------------
class PassagesModel(QAbstractTableModel):
    """The passages table: a plain list of :class:`PassageRow` set by :meth:`set_rows`."""

    TIPS = {
        PASSAGE: "Retrieved passages in chain order (the run's lines united and clipped to the article), "
                 "then the assessor's relevant passages in document order, then run lines that retrieve nothing",
        OVERLAP: "Retrieved row: relevant {u} inside the passage. Relevant row: its {u} that are retrieved",
        PRECISION: "Relevant share of the retrieved passage (relevant inside / length)",
        READ: "{U} read, in the current reading order, before the first of the passage's {u} is read "
              "(a relevant passage is reached where a retrieved passage inside it starts, if that comes first)",
        SCREEN: "The screen ({s} {u} each) on which the passage starts being read; the first relevant "
                "passage's screen is LE({s})",
        FOUND: "Retrieved row: the relevant passages it holds. Relevant row: the first retrieved passage "
               "(chain order) that overlaps it, or missed",
        LINES: "The run file's lines (file:line) that made the passage: merged lines, overlapping lines",
    }

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list[PassageRow] = []
        self.unit = "bytes"
        self.screen = 300
        self._sort: tuple[int, Qt.SortOrder] = (PASSAGE, Qt.SortOrder.AscendingOrder)

    def set_rows(self, rows: list[PassageRow], unit: str = "bytes", screen: int = 300) -> None:
        """Replace every row (kept in the current sort order)."""
        self.beginResetModel()
        self.rows, self.unit, self.screen = list(rows), unit, screen
        self._sorted()
        self.endResetModel()
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, COLUMN_COUNT - 1)

    def rowCount(self, parent=QModelIndex()) -> int:  # Qt API
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else COLUMN_COUNT

    def header(self, column: int) -> str:
        u = unit_name(self.unit)
        return ("Passage", f"Offset ({u})", f"Length ({u})", f"Relevant ∩ retrieved ({u})", "Precision",
                f"Read before ({u})", f"Screen ({self.screen:,})", "Found by / holds", "Run lines")[column]

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.header(section)
        if role == Qt.ItemDataRole.ToolTipRole and section in self.TIPS:
            u = unit_name(self.unit)
            return self.TIPS[section].format(u=u, U=u.capitalize(), s=f"{self.screen:,}")
        return None

    def text(self, row: int, column: int) -> str:
        """The shown text of a cell."""
        r = self.rows[row]
        if column == PASSAGE:
            return r.label
        if column == FOUND:
            return r.found
        if column == LINES:
            return r.lines
        v = r.value(column)
        if v is None:
            return "–" if column in (OFFSET, LENGTH) else ""
        if column == PRECISION:
            return f"{v:.3f}"
        return f"{v:,}"

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        r, col = self.rows[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(index.row(), col)
        if role == SORT_ROLE:
            return r.value(col)
        if role == SPAN_ROLE:
            return (r.start, r.end)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == LINES and r.lines_tip:
                return plain_tip(r.lines_tip)
            if col == FOUND and r.found:
                return plain_tip(r.found)
            return None
        if role == Qt.ItemDataRole.TextAlignmentRole and col not in (PASSAGE, FOUND, LINES):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole:
            if r.kind == LINE:
                return look.brush(LINE_GREY)
            if col == FOUND and (r.found == "missed" or r.found == "no relevant text"):
                return look.brush(MISSED)
            if col == PASSAGE and r.kind == RETRIEVED:
                return look.brush(RETRIEVED_FG)
        if role == Qt.ItemDataRole.BackgroundRole and col == PASSAGE and r.kind == RELEVANT:
            return look.brush(RELEVANT_BG)
        if role == Qt.ItemDataRole.FontRole:
            if r.kind == LINE:
                f = QFont()
                f.setItalic(True)
                return f
            if col == FOUND and r.found == "missed":
                f = QFont()
                f.setBold(True)
                return f
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort by ``column``'s raw values (empty cells last in either order); the "Passage"
        column sorts in the table's own order (retrieved, relevant, lines)."""
        self.layoutAboutToBeChanged.emit()
        self._sort = (column, order)
        self._sorted()
        self.layoutChanged.emit()

    def _sorted(self) -> None:
        column, order = self._sort
        have = [r for r in self.rows if r.value(column) not in (None, "")]
        empty = [r for r in self.rows if r.value(column) in (None, "")]
        have.sort(key=lambda r: (r.value(column), r.order), reverse=order == Qt.SortOrder.DescendingOrder)
        self.rows = have + sorted(empty, key=lambda r: r.order)

    def row_of(self, kind: str, number: int) -> int:
        """The model row of passage ``kind`` ``number`` (``LookupError`` if absent)."""
        for i, r in enumerate(self.rows):
            if r.kind == kind and r.number == number:
                return i
        raise LookupError(f"no {kind} row {number}")

    def csv_text(self, context: dict[str, str]) -> str:
        """The rows as CSV, in the shown order: :data:`CSV_COLUMNS` (raw numbers; offsets and
        lengths in ``context["unit"]``), the context columns repeated on each row."""
        f = io.StringIO(newline="")
        w = csv.writer(f)
        w.writerow(CSV_COLUMNS)
        ctx = [context.get(c, "") for c in CSV_COLUMNS[10:]]
        for r in self.rows:
            w.writerow((r.kind, r.number, *("" if v is None else v for v in (r.start, r.length, r.overlap)),
                        "" if r.precision is None else repr(float(r.precision)),
                        *("" if v is None else v for v in (r.read_before, r.screen)), r.found, r.lines, *ctx))
        return f.getvalue()


# -- the panel --------------------------------------------------------------------------------
class PassagesPanel(FollowingPanel):
    """The table over a :class:`Session`, following the open article, the reading mode and the
    screen size. ``view``: the window's article view (optional), whose text a row selection
    selects. ``ask_path(suggested) -> str`` asks where to export (tests replace it);
    ``report_error(text)`` shows an export error (the window's message box when installed)."""

    def __init__(self, session: Session, view=None, parent=None) -> None:
        super().__init__(session, parent)
        self.view = view
        self.table_data: PassageTable | None = None
        self.ask_path: Callable[[str], str] = self._ask_path
        self.report_error: Callable[[str], None] = lambda text: session.message.emit(f"Error: {text}")

        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 2, 6, 2)
        lay.setSpacing(2)
        top = QHBoxLayout()
        self.header = rich_label()
        self.header.setWordWrap(True)
        self.export_btn = QPushButton("Export CSV…")
        self.export_btn.setToolTip("Write the table, as sorted, to a CSV file")
        self.export_btn.clicked.connect(self._export_clicked)
        top.addWidget(self.header, 1)
        top.addWidget(self.export_btn, 0, Qt.AlignmentFlag.AlignTop)
        self.model = PassagesModel(self)
        self.table = row_table(self.model)
        h = self.table.horizontalHeader()
        h.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        h.setStretchLastSection(True)
        h.setSortIndicator(PASSAGE, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 6)
        lay.addLayout(top)
        lay.addWidget(self.table, 1)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._selection())
        self.follow()

    def entry(self) -> RunArticle | None:
        """The run's ranked entry of the open article (None when the run does not rank it)."""
        s, cur = self.session, self.session.current
        if cur is None or s.run is None or s.topic is None:
            return None
        return s.run.article(s.topic, cur.name)

    def _xpath_spans(self, entry: RunArticle | None) -> list | None:
        art = self.session.current.article if self.session.current is not None else None
        if entry is None or not entry.xpaths or art is None:
            return None
        out = []
        for xp in entry.xpaths:
            try:
                out.append(art.span(xp))
            except (KeyError, ValueError):
                out.append(None)
        return out

    def rebuild(self) -> None:
        """Rebuild the rows for the open article and the current settings, keeping the selected
        passage selected (without moving the article view)."""
        s, cur = self.session, self.session.current
        entry = None
        selected = self.selected_row()
        key = (selected.kind, selected.number) if selected is not None else None
        if cur is None:
            self.table_data = None
            self.model.set_rows([], s.unit, s.settings.screen)
        else:
            entry = self.entry()
            self.table_data = passage_table(cur.evaluation, entry, self._xpath_spans(entry))
            no_lines = "" if entry is None else ("edited (no run line)" if not entry.lines else "(lines not mapped)")
            self.model.set_rows(table_rows(self.table_data, self.run_name(), s.settings.screen, s.unit, no_lines),
                                s.unit, s.settings.screen)
        self._rendered = s.settings
        self._show_header(entry)
        if key is not None:
            try:
                row = self.model.row_of(*key)
            except LookupError:
                return
            select_quietly(self.table, row)
            self.table.viewport().update()

    def run_name(self) -> str:
        run = self.session.run
        return os.path.basename(run.path) if run is not None else "run"

    def _show_header(self, entry: RunArticle | None) -> None:
        s, cur, t = self.session, self.session.current, self.table_data
        if cur is None or t is None:
            self.header.setText("<i>No article open.</i>")
            return
        u = unit_name(s.unit)
        mode = s.settings.mode
        ret = t.retrieved
        rel = t.relevant
        lines = sum(len(p.lines) for p in ret) + len(t.unused)
        parts = [f"Article <b>{esc(cur.name)}</b> · topic {esc(s.topic or '')}"]
        if entry is None:
            parts.append("not ranked by the run")
        else:
            what = f"{len(ret)} retrieved passage{'s' if len(ret) != 1 else ''} " \
                   f"({sum(p.length for p in ret):,} {u}, {sum(p.relevant for p in ret):,} relevant)"
            if entry.lines:
                what += f" from {len(entry.lines)} line{'s' if len(entry.lines) != 1 else ''} of " \
                        f"{esc(self.run_name())}"
                if lines < len(entry.lines) and not t.unused:
                    what += " (lines not mapped to passages)"
            parts.append(what)
        if rel:
            missed = sum(r.missed for r in rel)
            parts.append(f"{len(rel)} relevant passage{'s' if len(rel) != 1 else ''} "
                         f"({sum(r.length for r in rel):,} {u}): {len(rel) - missed} found, "
                         f"<span style='color:{look.css(MISSED)}'>{missed} missed</span>")
        else:
            parts.append("no relevant passage")
        chain = "the chain is not followed" if mode in (Mode.DOCUMENT, Mode.ENTRY) else "chain first"
        parts.append(f"reading <b>{mode.value}</b> ({chain}), screen {s.settings.screen:,} {u}")
        self.header.setText(" · ".join(parts))

    # -- selection -------------------------------------------------------------------------
    def selected_row(self) -> PassageRow | None:
        rows = self.table.selectionModel().selectedRows()
        return self.model.rows[rows[0].row()] if rows else None

    def select(self, kind: str, number: int) -> None:
        """Select row ``kind`` ``number`` as a click does (selects its text in the article view)."""
        self.table.selectRow(self.model.row_of(kind, number))

    def _selection(self) -> None:
        r = self.selected_row()
        if r is not None and r.start is not None:
            self.show_span(r.start, r.end)

    def show_span(self, start: int, end: int) -> tuple[int, int] | None:
        """Select the unit span ``[start, end)`` in the article view and scroll to it; returns
        the display span selected (``None`` when the view does not show the open article)."""
        cur = self.session.current
        v = self.view
        if v is None or cur is None or cur.layout is None or v.layout_ is not cur.layout:
            return None
        lay = cur.layout
        a = lay.to_display(int(start), "start")
        b = max(lay.to_display(int(end), "end"), a) if end > start else a
        last = max(v.document().characterCount() - 1, 0)
        a, b = min(a, last), min(b, last)
        c = QTextCursor(v.document())
        c.setPosition(a)
        c.setPosition(b, QTextCursor.MoveMode.KeepAnchor)
        v.setTextCursor(c)
        v.scroll_to_position(a)
        return a, b

    # -- export ------------------------------------------------------------------------------
    def context(self) -> dict[str, str]:
        s = self.session
        return {"topic": s.topic or "", "article": s.current.name if s.current else "", "mode": s.settings.mode.value,
                "screen_size": str(s.settings.screen), "unit": s.unit}

    def export_csv(self, path: str | os.PathLike) -> Path:
        """Write the table (rows as shown, sorted as shown) to ``path`` atomically. Raises
        ``OSError`` naming the path (the file already there is then unchanged)."""
        write_text(path, self.model.csv_text(self.context()), newline="")
        return Path(path)

    def _ask_path(self, suggested: str) -> str:
        return ask_save_path(self, "Export the passages table", "CSV table (*.csv)", suggested) or ""

    def _export_clicked(self) -> None:
        s = self.session
        stem = "-".join(p for p in ("passages", s.topic, s.current.name if s.current else None, s.settings.mode.value) if p)
        path = self.ask_path(stem + ".csv")
        if path:
            write_export(path, self.export_csv, self.report_error, s.message.emit)


def build_passages(window) -> BottomDock:
    """The "Passages" dock of ``window`` (bottom, hidden at first, tabbed with the other bottom
    docks when shown: a visible one first, the topic view or the strategies preferred) with View ▸
    Passages (Ctrl+Alt+P): the window keeps them as ``passages`` (the panel), ``passages_dock``
    and ``act_passages``."""
    panel = PassagesPanel(window.session, window.article.view)
    panel.report_error = window.show_error
    return build_bottom_dock(
        window, panel, "passages", "Passages", SHORTCUT,
        "The open article's retrieved and relevant passages, with their run lines and reading positions",
        lambda d: (not d.isVisible(), d.objectName() not in ("topic", "strategies")))
