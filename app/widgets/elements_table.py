"""The ranked elements of the element mode (docs/reference.md section 13.4): one table model,
:class:`ElementTableModel`, filled by one :meth:`~ElementTableModel.set_view` and usable without
a window, with named column constants and a custom role. See docs/architecture.md."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QBrush

from readsim.core.element_retrieval import quantise

from .. import appearance as look
from .. import elements_model as em
from ..plain import amount, plain_tip
from .element_article import REL_BRACKET, SEEN


def fmt_f(value: float) -> str:
    """A quantised f value (Gövert et al. 2006, eqs 8-9) as shown: two decimals."""
    return f"{value:.2f}"


def element_values(view: em.RunView, k: int, unit: str) -> str:
    """What the ranked element at run position ``k`` (0-based) is worth, in words: e, s, f strict,
    f gen, its size in ``unit`` and its unseen part (the table's tooltip and the bracket's)."""
    v = view.values
    e, s = int(v.e[k]), int(v.s[k])  # this pair only: called for every bracket and tooltip
    return (f"e {e}, s {s} · f strict {fmt_f(quantise.f(e, s, 'strict'))}, f gen {fmt_f(quantise.f(e, s, 'gen'))}\n"
            f"size {amount(int(v.size[k]), unit)}, unseen {int(v.unseen[k]):,}")


POS, RANK, ARTICLE, XPATH, E, S, F_STRICT, F_GEN, SIZE, UNSEEN, OVERLAP = range(11)
HEADERS = ("#", "Rank", "Article", "XPath", "e", "s", "f strict", "f gen", "Size", "Unseen", "Overlap")
HEADER_TIPS = (
    "position in the run (line order)", "rank (consecutive lines with the same rsv share one: a tie)",
    "article (file name)", "the element's XPath", "exhaustiveness 0..3 (derived: rsize / the article's relevant text)",
    "specificity 0..3 (derived: rsize / size)", "f_strict(e, s), eq. 8: 1 for (3, 3), else 0",
    "f_gen(e, s), eq. 9", "the element's size |c| in the unit",
    "|c − ∪ earlier c|: its text no earlier element showed (INEX 2003 o counts only this)",
    "how much of the element earlier elements already showed")
POSITION_ROLE = Qt.ItemDataRole.UserRole + 1
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_CENTER = int(Qt.AlignmentFlag.AlignCenter)


class ElementTableModel(QAbstractTableModel):
    """The ranked elements of one :class:`~readsim.app.elements_model.RunView` (plain lists
    filled by :meth:`set_view`; usable without a window)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.view: em.RunView | None = None
        self.unit = "bytes"
        self._texts: list[tuple[str, ...]] = []
        self._fgen = np.zeros(0)
        self._seen = np.zeros(0, dtype=np.int64)
        self._size = np.zeros(0, dtype=np.int64)

    def set_view(self, view: em.RunView | None, unit: str = "bytes") -> None:
        self.beginResetModel()
        self.view, self.unit = view, unit
        self._texts = []
        if view is not None:
            v = view.values
            fs, fg = v.f("strict"), v.f("gen")
            self._fgen, self._seen, self._size = fg, v.seen, v.size
            for k, r in enumerate(view.entries):
                size, unseen = int(v.size[k]), int(v.unseen[k])
                seen = size - unseen
                overlap = "—" if seen <= 0 else ("all seen" if unseen == 0 else f"{seen / size:.0%} seen")
                self._texts.append((str(k + 1), str(int(v.rank[k])), r.article, r.xpath, str(int(v.e[k])),
                                    str(int(v.s[k])), fmt_f(fs[k]), fmt_f(fg[k]), f"{size:,}", f"{unseen:,}",
                                    overlap))
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._texts)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal:
            if role == Qt.ItemDataRole.DisplayRole:
                return HEADERS[section]
            if role == Qt.ItemDataRole.ToolTipRole:
                return HEADER_TIPS[section]
        return None

    def text(self, row: int, column: int) -> str:
        return self._texts[row][column]

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        k, c = index.row(), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._texts[k][c]
        if role == POSITION_ROLE:
            return k
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _CENTER if c in (E, S) else (_RIGHT if c not in (ARTICLE, XPATH, OVERLAP) else None)
        if role == Qt.ItemDataRole.ForegroundRole:
            if c in (F_STRICT, F_GEN, E, S) and self._fgen[k] == 0:
                return look.brush("disabled")
            if c == OVERLAP and self._seen[k] > 0:
                return look.brush("note")
        if role == Qt.ItemDataRole.BackgroundRole:
            if c == F_GEN and self._fgen[k] > 0:
                return QBrush(look.color(REL_BRACKET, int(30 + 90 * self._fgen[k])))
            if c == OVERLAP and self._seen[k] > 0:
                return QBrush(look.tint(SEEN, int(25 + 70 * self._seen[k] / max(int(self._size[k]), 1))))
        if role == Qt.ItemDataRole.ToolTipRole and self.view is not None:
            r = self.view.entries[k]
            line = f" · line {r.line}" if r.line else ""
            return plain_tip(f"{r.article} {r.xpath}\nrank {r.rank} · rsv {r.rsv:g}{line}\n"
                             + element_values(self.view, k, self.unit)
                             + f", already shown {int(self.view.values.seen[k]):,}")
        return None


# -- the article with its brackets --------------------------------------------------------------
