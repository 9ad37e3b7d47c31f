"""The Runs tab of the Runs window: runs x measures (the mean; its interval, rank and baseline
in the tooltip), rows ordered by the chosen measure, the "vs next" column marking with ≫ each
run significantly better than the run on the next row, and "significant pairs: k of N" per
measure (docs/reference.md section 12.1). :class:`RunsTableModel` builds the cells without a
window; :class:`RunsTab` shows them. See docs/architecture.md."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QHeaderView, QVBoxLayout, QWidget

from ... import appearance as look
from ... import runs_model as rm
from ...plain import esc
from .cells import (CENTER, CHOSEN, GREEN_TEXT, LEFT, MEASURE_ROLE, MUTED, NOT_SIGNIFICANT_MARK, SECTION,
                    SIGNIFICANT_MARK, Cell, CellsModel, CellsTable, font_of, note, pair_tip, shown_p)

#: the kinds of column: the rank, the run's label, a measure's mean, the "vs next" mark
RANK, RUN, MEASURE, MARK = "rank", "run", "measure", "mark"


class RunsTableModel(CellsModel):
    """Runs x measures of a comparison, ordered by measure ``k``; the last row counts each
    measure's significant pairs. :attr:`kinds` names each column's kind and measure,
    :attr:`mark_column` and :attr:`measure_columns` (measure index -> column) locate them,
    :attr:`order` the runs' indexes by row."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.kinds: list[tuple[str, int | None]] = []
        self.mark_column = -1
        self.measure_columns: dict[int, int] = {}
        self.order: list[int] = []

    def set_rows(self, result: rm.Compared, k: int) -> None:
        """Fill from ``result`` (:class:`readsim.app.runs_model.Compared`) ordered by measure ``k``."""
        c = result.comparison
        n, m = len(c.runs), len(c.measures)
        below = [rm.neighbour_marks(c, q) for q in range(m)]  # once per measure: each builds every pair
        best = [set(c.best(q)) for q in range(m)]  # every run tied for the best mean is bold
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        bold = font_of(mono, bold=True)
        # columns: rank, run, then the measures, the "vs next" mark right after the chosen one
        kinds: list[tuple[str, int | None]] = [(RANK, None), (RUN, None)]
        for q in range(m):
            kinds.append((MEASURE, q))
            if q == k:
                kinds.append((MARK, q))
        self.kinds = kinds
        self.mark_column = next(j for j, (kind, _) in enumerate(kinds) if kind == MARK)
        self.measure_columns = {q: j for j, (kind, q) in enumerate(kinds) if kind == MEASURE}
        self.order = [int(i) for i in c.order[k]]
        heads = [self._head(c, k, kind, q) for kind, q in kinds]
        level = f"{(1 - c.alpha) * 100:g}%"
        rows = []
        for i in self.order:
            row = []
            for kind, q in kinds:
                if kind == RANK:
                    row.append(Cell(str(int(c.rank[k, i])), align=CENTER))
                elif kind == RUN:
                    row.append(Cell(c.runs[i], f"{result.paths[i]}\nrun id {result.runs[i].run_id}", LEFT))
                elif kind == MARK:
                    pair = below[k].get(i)
                    if pair is None:
                        row.append(Cell("", align=CENTER))
                    elif pair.significant:
                        row.append(Cell(SIGNIFICANT_MARK, pair_tip(c, k, pair, "ranked next"), CENTER, GREEN_TEXT,
                                        font=font_of(bold=True, grow=2)))
                    else:
                        row.append(Cell(NOT_SIGNIFICANT_MARK, pair_tip(c, k, pair, "ranked next"), CENTER, MUTED))
                else:
                    mean = float(c.means[q, i])
                    rank = int(c.rank[q, i])
                    tip = (f"{c.runs[i]} under {c.measures[q]}: mean {mean:.6f} over {len(c.topics)} topics\n"
                           f"{level} {c.ci_method} interval [{c.ci[q, i, 0]:.4f}, {c.ci[q, i, 1]:.4f}]\n"
                           f"rank {rank} of {n}")
                    if not math.isnan(c.doc_means[q, i]):
                        tip += f"\nas whole documents: {c.doc_means[q, i]:.4f}"
                    nxt = below[q].get(i)
                    if nxt is not None:
                        tip += (f"\n{'significantly' if nxt.significant else 'not significantly'} better than "
                                f"{c.runs[nxt.worse]} (rank {rank + 1}), p {rm.fmt_p(shown_p(c, nxt))}")
                    text = rm.fmt(mean) if q == k else f"{rm.fmt(mean)} ({rank})"
                    if i in result.before:  # a run with unsaved edits: the difference to its mean before them
                        was = float(c.means[q, result.before[i]])
                        text += f" ({rm.fmt_signed(mean - was)})"
                        tip += (f"\nbefore the unsaved edits ({c.runs[result.before[i]]}): {was:.6f}, "
                                f"difference {rm.fmt_signed(mean - was, 6)}")
                    row.append(Cell(text, tip,
                                    bg=CHOSEN if q == k else None, font=bold if i in best[q] else mono))
            rows.append(row)
        rows.append([self._footer(c, kind, q) for kind, q in kinds])
        self._set(rows, heads)

    @staticmethod
    def _head(c, k: int, kind: str, q: int | None) -> Cell:
        if kind == RANK:
            return Cell("Rank")
        if kind == RUN:
            return Cell("Run")
        if kind == MARK:
            return Cell("vs next", f"{SIGNIFICANT_MARK}: the run is significantly better than the run on the next "
                                   f"row under {c.measures[k]}")
        lower = bool(c.lower_is_better[q])
        return Cell(("▼ " if q == k else "") + c.measures[q] + ("\n(lower is better)" if lower else ""),
                    f"{c.measures[q]}: mean over the {len(c.topics)} paired topics"
                    + (", lower is better" if lower else "") + ". Click to order the runs by it.", data=c.measures[q])

    @staticmethod
    def _footer(c, kind: str, q: int | None) -> Cell:
        """The last row: significant pairs per measure."""
        if kind == RUN:
            return Cell("significant pairs", "pairs of runs whose difference is significant "
                        f"({rm.test_words(c.test)}, α {c.alpha:g}"
                        + (f", {c.correction} correction" if c.correction != "none" else "") + ")",
                        LEFT, bg=SECTION, font=font_of(italic=True))
        if kind == MEASURE:
            sig, total = c.significant_count(q)
            return Cell(f"{sig} of {total}", f"{sig} of the {total} pairs of runs differ significantly under "
                        f"{c.measures[q]}", bg=SECTION)
        return Cell("", bg=SECTION)


class RunsTab(QWidget):
    """The Runs tab: a title, the :class:`RunsTableModel` table, a legend. Clicking a measure's
    column emits :attr:`measure_clicked` with its name."""

    measure_clicked = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        self.title = note()
        self.model = RunsTableModel(self)
        self.table = CellsTable(self.model)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionsClickable(True)
        self.table.horizontalHeader().sectionClicked.connect(self._header_clicked)
        self.legend = note()
        lay.addWidget(self.title)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.legend)

    def _header_clicked(self, column: int) -> None:
        measure = self.model.headerData(column, Qt.Orientation.Horizontal, MEASURE_ROLE)
        if measure is not None:
            self.measure_clicked.emit(measure)

    def show_nothing(self, text: str) -> None:
        self.title.setText(text)
        self.model.clear()

    def show_result(self, result: rm.Compared, k: int) -> None:
        """Show ``result`` ordered by measure ``k``."""
        c = result.comparison
        self.model.set_rows(result, k)
        header = self.table.horizontalHeader()
        for j, (kind, _) in enumerate(self.model.kinds):
            header.setSectionResizeMode(j, QHeaderView.ResizeMode.Stretch if kind == MEASURE
                                        else QHeaderView.ResizeMode.ResizeToContents)
        self.table.resizeRowsToContents()
        sig, total = c.significant_count(k)
        left_out = ""
        if c.left_out:
            lo = c.left_out
            left_out = (f" · <span style='color:{look.css('amber')}'>{len(lo)} judged topic{'s' if len(lo) > 1 else ''} not in "
                        f"every run left out ({esc(', '.join(lo[:3]))}{', …' if len(lo) > 3 else ''}; tick "
                        f"“every judged topic” to keep {'them' if len(lo) > 1 else 'it'})</span>")
        self.title.setText(f"<b>{len(c.runs)} runs</b> ordered by <b>{esc(c.measures[k])}</b> "
                           f"({'lower' if c.lower_is_better[k] else 'higher'} is better) · "
                           f"{sig} of {total} pairs significant over {len(c.topics)} topics{left_out}")
        level = f"{(1 - c.alpha) * 100:g}%"
        self.legend.setText(
            f"<b style='color:{look.css('good')}'>{SIGNIFICANT_MARK}</b> in “vs next”: the run is significantly better than "
            f"the run on the next row under {esc(c.measures[k])} ({esc(rm.test_words(c.test))}, "
            f"α {c.alpha:g}{', ' + c.correction + ' correction' if c.correction != 'none' else ''}); "
            f"{NOT_SIGNIFICANT_MARK}: not significant. Means over the {len(c.topics)} paired topics; "
            f"<b>bold</b>: the best mean of a measure (every run tied for it); equal means are ordered by run "
            f"label; (n): the run's rank under that measure. Hover a mean for "
            f"its {level} interval; click a measure's column to order by it.")
