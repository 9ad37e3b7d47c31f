"""The Significance tab of the Runs window: the pair matrix of the chosen measure as a coloured
table (runs by score on both axes; each cell the one-tailed p of "row better than column" (the
randomised Tukey HSD: its two-sided p), green when significant, over the interval of the pair's
mean difference; docs/reference.md section 12.1). :class:`PairsModel` builds the cells
without a window; :class:`SignificanceTab` shows them. See docs/architecture.md."""

from __future__ import annotations

import functools

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHeaderView, QWidget

from ... import appearance as look
from ... import runs_model as rm
from ...plain import esc
from .cells import (BLANK, CENTER, MUTED, NOT_SIGNIFICANT, Cell, CellsModel, CellsTable, font_of, on_colour,
                    p_colour, pair_tip, titled, wrap_label)

HEAT_STYLE = ("QTableView { font-size: 10pt; gridline-color: palette(base); } "
              "QHeaderView::section { font-weight: bold; padding: 4px; }")


class PairsModel(CellsModel):
    """The runs x runs matrix of measure ``k``, runs by score on both axes: above the diagonal
    the shown p of "row better than column" (``*`` when significant) over the interval of the
    mean difference row minus column, ``—`` on the diagonal, blank below.
    :attr:`order` is the runs' indexes by row, :attr:`p` the p of each cell (NaN off the upper
    triangle)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.order: list[int] = []
        self.p = np.zeros((0, 0))

    def set_rows(self, c, k: int) -> None:
        """Fill from comparison ``c`` (:class:`readsim.core.run_comparison.Comparison`), measure ``k``."""
        n = len(c.runs)
        order = [int(i) for i in c.order[k]]
        shown = c.p_adjusted if c.correction != "none" else c.p
        p_cells = np.full((n, n), np.nan)
        pairs = {(p.better, p.worse): p for p in c.pairs(k)}
        row_heads, columns = [], []
        for i in order:
            rank = int(c.rank[k, i])
            row_heads.append(Cell(f"{rank}  {c.runs[i]}   {rm.fmt(c.means[k, i])}"))
            columns.append(Cell(f"{rank}\n{wrap_label(c.runs[i])}", f"{c.runs[i]}: rank {rank}, mean "
                                                                    f"{rm.fmt(c.means[k, i])}"))
        rows = []
        for a, i in enumerate(order):
            row = []
            for b, j in enumerate(order):
                if a < b:
                    pair = pairs[(i, j)]
                    p = float(shown[k, i, j])
                    p_cells[a, b] = p
                    text = (f"{rm.fmt_p(p)}{' *' if pair.significant else ''}\n"
                            f"[{rm.fmt_signed(pair.ci_low, 3)}, {rm.fmt_signed(pair.ci_high, 3)}]")  # 4 in the tip
                    tip = pair_tip(c, k, pair)
                    if pair.significant:
                        colour = functools.partial(p_colour, p, c.alpha)  # the theme's when drawn
                        fg = functools.partial(lambda f: on_colour(f()), colour)
                        row.append(Cell(text, tip, CENTER, fg, colour, font_of(bold=True)))
                    else:
                        row.append(Cell(text, tip, CENTER, "muted", NOT_SIGNIFICANT))
                elif a == b:
                    row.append(Cell("—", align=CENTER, fg=MUTED, bg=BLANK))
                else:
                    row.append(Cell("", bg=BLANK))
            rows.append(row)
        self.order, self.p = order, p_cells
        self._set(rows, columns, row_heads)


class SignificanceTab(QWidget):
    """The Significance tab: a title, the :class:`PairsModel` table, a legend."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.model = PairsModel(self)
        self.table = CellsTable(self.model, HEAT_STYLE)
        self.table.horizontalHeader().setDefaultAlignment(Qt.AlignmentFlag.AlignCenter)
        self.table.verticalHeader().setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.title, self.legend = titled(self, self.table)

    def show_nothing(self, text: str) -> None:
        self.title.setText(text)
        self.model.clear()

    def show_result(self, c, k: int) -> None:
        """Show comparison ``c``'s pairs under measure ``k``."""
        self.model.set_rows(c, k)
        t = self.table
        h = t.horizontalHeader()
        h.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        h.setMinimumSectionSize(80)
        t.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        t.verticalHeader().setDefaultSectionSize(max(40, t.fontMetrics().height() * 2 + 10))
        sig, total = c.significant_count(k)
        pname = f"{c.correction}-adjusted p" if c.correction != "none" else "p"
        self.title.setText(f"<b>{esc(c.measures[k])}</b>: <b>{sig} of {total}</b> pairs significant "
                           f"({esc(rm.test_words(c.test))}, α {c.alpha:g}); runs "
                           f"ordered by their mean, best first")
        claim = ("the two-sided randomised Tukey HSD " + pname + " of “the two runs differ”" if c.test == "tukey"
                 else f"the one-tailed {pname} of “the row's run is better than the column's”")
        self.legend.setText(
            f"Row run ranked above column run; a cell is {claim}, over the {(1 - c.alpha) * 100:g}% "
            f"{esc(c.ci_method)} interval of the mean difference row minus column. <span style='background:{look.css('heat')}; color:{look.css('on_accent')}'>&nbsp;green&nbsp;</span> significant at "
            f"α {c.alpha:g} (*; darker: smaller p), <span style='background:{look.css(NOT_SIGNIFICANT)}'>&nbsp;grey&nbsp;</span> not "
            f"significant. Hover a cell for the mean difference, the effect size and the topics won.")
