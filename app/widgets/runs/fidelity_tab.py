"""The Fidelity tab of the Runs window: Kamps et al.'s Tables 2 and 1 on the 20 simulated runs
of the loaded qrels and collection (the complete topics), computed in the background on demand
(docs/reference.md sections 8 and 12.2; Kamps et al. 2008). :class:`Table1Model` and
:class:`Table2Model` build the cells without a window; :class:`FidelityTab` shows them. See
docs/architecture.md."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QHeaderView, QPushButton, QSplitter, QVBoxLayout, QWidget

from ... import appearance as look
from ... import runs_model as rm
from ...plain import esc
from .cells import (AMBER_TEXT, CHOSEN, GREEN_TEXT, LEFT, MUTED, RED_TEXT, Cell, CellsModel, CellsTable, font_of,
                    note, wrap_label)

#: Table 2's columns
ORDERING, DIFF, BETTER, EQUAL, WORSE, P, VERDICT, PAPER = range(8)


def missing_inputs(session) -> str | None:
    """What the fidelity tables still need from ``session`` (a qrels file, a collection folder),
    as a sentence; None when it has both."""
    missing = [what for what, have in (("a qrels file", session.qrels), ("a collection folder", session.collection))
               if have is None]
    if missing:
        return (f"Open {' and '.join(missing)} (File menu of the main window): the simulated runs are built from "
                f"the qrels' highlighted passages and the articles' XML.")
    return None


class Table2Model(CellsModel):
    """Kamps et al. 2008's Table 2 for measure ``k``: each expected ordering "first ≥ second",
    the mean difference (percentage points, or negated for a lower-is-better measure), the topics
    where the first is better, equal, worse, the paired t-test's p, the verdict, the paper's AgP row."""

    def set_rows(self, f, k: int) -> None:
        """Fill from ``f`` (:class:`readsim.core.fidelity_tables.Fidelity`), measure ``k``."""
        from readsim.core.fidelity_tables import ALWAYS, ON_AVERAGE, PAPER_TABLE2, RESPECTED, REVERSED

        percent = rm.in_percent(f, k)
        names = ("Expected ordering", "Diff (%)" if percent else "Diff", ">", "=", "<", "p", "Verdict",
                 "Paper AgP\nDiff (%) > = <")
        columns = [Cell(name) for name in names]
        columns[PAPER] = Cell(names[PAPER], "The paper's AgP row (Kamps et al. 2008, Table 2, 114 INEX 2006 "
                                            "topics): Diff (%), then topics >, =, <")
        colours = {RESPECTED: GREEN_TEXT, ON_AVERAGE: AMBER_TEXT, REVERSED: RED_TEXT}
        rows = []
        for o, (first, second) in enumerate(f.orderings):
            d = f.diff[k, o] * (100 if percent else 1)
            paper = PAPER_TABLE2[(first, second)][0]
            verdict = f.verdict[k][o]
            p = f.p[k, o]
            rows.append([
                Cell(f"{'• ' if (first, second) in ALWAYS else ''}{first} ≥ {second}", align=LEFT),
                Cell(rm.fmt_signed(d, 2 if percent else 4)),
                Cell(str(int(f.better[k, o]))), Cell(str(int(f.equal[k, o]))), Cell(str(int(f.worse[k, o]))),
                Cell("–" if math.isnan(p) else (f"{p:.1e}" if p < 0.001 else f"{p:.4f}")),
                Cell(verdict, align=LEFT, fg=colours[verdict], font=font_of(bold=verdict != RESPECTED)),
                Cell(f"{'0' if paper.diff == 0 else f'{paper.diff:+g}'}  {paper.better} {paper.equal} {paper.worse}",
                     fg=MUTED)])
        self._set(rows, columns)


class Table1Model(CellsModel):
    """Kamps et al. 2008's Table 1: each simulated run's mean under every measure (the best
    green, the worst red, measure ``k``'s column shaded), then the paper's MAgP."""

    def set_rows(self, f, k: int) -> None:
        """Fill from ``f`` (:class:`readsim.core.fidelity_tables.Fidelity`), measure ``k`` chosen."""
        from readsim.core.fidelity_tables import PAPER_TABLE1

        columns = [Cell("Run"), *(Cell(wrap_label(m, 12)) for m in f.measures), Cell("Paper\nMAgP")]
        best = [set(f.best(q)) for q in range(len(f.measures))]
        worst = [set(f.worst(q)) for q in range(len(f.measures))]
        rows = []
        for i, run in enumerate(f.runs):
            row = [Cell(run, align=LEFT)]
            for q in range(len(f.measures)):
                fg = GREEN_TEXT if run in best[q] else RED_TEXT if run in worst[q] else None
                row.append(Cell(rm.fmt(f.means[q, i]), f"{run} under {f.measures[q]}: {f.means[q, i]:.6f}", fg=fg,
                                bg=CHOSEN if q == k else None))
            row.append(Cell(f"{PAPER_TABLE1[run][0]:.4f}", fg=MUTED))
            rows.append(row)
        self._set(rows, columns)


class FidelityTab(QWidget):
    """The Fidelity tab: the compute button (:attr:`button`), a status line, the verdict of the
    chosen measure, Table 2 and Table 1."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        bar = QHBoxLayout()
        self.button = QPushButton("Compute the fidelity tables")
        self.button.setToolTip("Build Kamps et al.'s 20 simulated runs (S, SL, SLD, SS, SST passages x "
                               "R, RS, RI, RSI rankings) from the qrels and the articles, on the topics "
                               "whose relevant articles the collection all holds, and score them with "
                               "the measures")
        bar.addWidget(self.button)
        self.status = note()
        bar.addWidget(self.status, 1)
        lay.addLayout(bar)
        self.verdict = note("", "text")
        self.verdict.setStyleSheet(f"QLabel {{ color:{look.css('text')}; background:{look.css('callout')}; "
                                   f"border:1px solid {look.css('callout_edge')}; padding:6px; }}")
        lay.addWidget(self.verdict)
        split = QSplitter(Qt.Orientation.Horizontal)
        box = QWidget()
        bl = QVBoxLayout(box)
        bl.setContentsMargins(0, 0, 0, 0)
        self.table2_title = note()
        self.model2 = Table2Model(self)
        self.table2 = CellsTable(self.model2)
        self.table2.verticalHeader().hide()
        bl.addWidget(self.table2_title)
        bl.addWidget(self.table2, 1)
        split.addWidget(box)
        box = QWidget()
        bl = QVBoxLayout(box)
        bl.setContentsMargins(0, 0, 0, 0)
        bl.addWidget(note("<b>Table 1</b>: mean score of each simulated run (paper: MAgP on the 114 INEX 2006 "
                          "topics)"))
        self.model1 = Table1Model(self)
        self.table1 = CellsTable(self.model1)
        self.table1.verticalHeader().hide()
        bl.addWidget(self.table1, 1)
        split.addWidget(box)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        self.split = split
        self._split_by_hand = False  # the user dragged the splitter: their widths are kept
        split.splitterMoved.connect(self._split_moved)
        lay.addWidget(split, 1)
        self.k = 0
        self._missing: str | None = None  # what the tables need, as show_nothing was told

    def _split_moved(self, *_args) -> None:
        self._split_by_hand = True

    def table_width(self, table) -> int:
        """The width ``table`` needs to show every column whole, its scroll bar and frame."""
        bar = table.verticalScrollBar().sizeHint().width()
        return table.horizontalHeader().length() + bar + 2 * table.frameWidth() + 2

    def _fit_split(self) -> None:
        """Give Table 2 the width its columns need (its last, the paper's row, is not elided),
        Table 1 the rest, unless the user has dragged the splitter."""
        total = sum(self.split.sizes())
        if self._split_by_hand or total <= 0:
            return
        need2, need1 = self.table_width(self.table2), self.table_width(self.table1)
        if need2 + need1 <= total:
            left = need2 + (total - need2 - need1) // 2  # the room left over shared
        else:  # too narrow for both: in proportion (the tables scroll sideways)
            left = total * need2 // (need1 + need2)
        self.split.setSizes([left, total - left])

    def tell(self, text: str, error: bool = False) -> None:
        """The status line: ``text`` (rich text of our words, or, ``error``, plain text in red)."""
        self.status.setText(f"<span style='color:{look.css('bad')}'>{esc(text)}</span>" if error else text)

    def show_nothing(self, missing: str | None, computing: bool) -> None:
        """No tables: say what is ``missing`` (None: nothing), unless they are being computed;
        each empty table says what to do (or that it is being computed)."""
        self.model1.clear()
        self.model2.clear()
        self._missing = missing
        self.set_computing(computing)
        self.verdict.hide()
        self.table2_title.setText("")
        if not computing:
            if missing is not None:
                self.tell(missing, error=True)
            else:
                self.tell("Kamps et al.'s fidelity test of the measures: do they order the 20 simulated runs as "
                          "expected? On the topics whose relevant articles the collection all holds.")
        self.button.setEnabled(missing is None)

    def set_computing(self, computing: bool) -> None:
        """Each empty table says what to do: press the button, open what is missing, or wait
        while the tables are computed (``computing``)."""
        press = f"Press “{self.button.text()}” (above)"
        if computing:
            t2 = t1 = "Computing the fidelity tables: building and scoring the 20 simulated runs…"
        elif self._missing is not None:
            t2 = t1 = self._missing
        else:
            t2 = (f"{press} to run the fidelity tests of the 20 simulated runs: Table 2, whether the measure "
                  f"orders them as expected, will show here.")
            t1 = f"{press} to score the 20 simulated runs: Table 1, each run's mean under every measure, will show here."
        self.table2.set_placeholder(t2)
        self.table1.set_placeholder(t1)

    def show_tables(self, f, chosen: str) -> None:
        """The tables of ``f`` (:class:`readsim.core.fidelity_tables.Fidelity`) for the measure named
        ``chosen`` (the first when ``f`` lacks it: said in the title)."""
        self.button.setEnabled(True)
        topics = ", ".join(f.topics) if len(f.topics) <= 8 else f"{', '.join(f.topics[:8])}, …"
        self.tell(f"The 20 simulated runs on the <b>{len(f.topics)}</b> complete "
                  f"topic{'s' if len(f.topics) != 1 else ''} ({esc(topics)})")
        k = self.k = f.measures.index(chosen) if chosen in f.measures else 0
        self.verdict.setText(esc(rm.verdict_text(f, k)))
        self.verdict.show()
        percent = rm.in_percent(f, k)
        self.table2_title.setText(
            f"<b>Table 2</b>: <b>{esc(f.measures[k])}</b> on each expected ordering “first ≥ second”: "
            f"mean of first − second{' in percentage points' if percent else ' (lower is better: negated)'}, topics "
            f"where the first is better (&gt;), equal (=), worse (&lt;), paired t-test p (two-sided); • the paper's "
            f"AgP confirms it on every topic" + ("" if chosen in f.measures or not chosen else
                                                   f" <span style='color:{look.css('bad')}'>({esc(chosen)} was not "
                                                   f"computed: compute the tables again)</span>"))
        for model, table in ((self.model2, self.table2), (self.model1, self.table1)):
            model.set_rows(f, k)
            table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
            table.resizeRowsToContents()
        self._fit_split()
