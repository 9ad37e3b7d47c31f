"""The Runs window's table models without a window: each fed by one ``set_rows`` gives the cells,
headers and roles worked out by hand on a comparison of three runs made by hand (no statistic
computed: the arrays are written down, as the engine would hand them over).

Runs A, B, C over 2 topics, two measures: M1 (higher is better; means A 0.5, B 0.3, C 0.4, so
A, C, B) and M2 (lower is better; means A 10, B 20, C 30, so A, B, C). One-tailed p of the
pairs, row run ranked above column run: M1 A>C 0.01, A>B 0.002, C>B 0.2 (α 0.05: the first two
significant); M2 A>B 0.3, A>C 0.04, B>C 0.5 (A>C significant). The fidelity tables' models
likewise on three simulated runs (:func:`fidelity`)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from PySide6.QtCore import Qt

from readsim.app import runs_model as rm
from readsim.app.runs_model import Compared
from readsim.app import appearance as look
from readsim.app.widgets.runs.cells import (CHOSEN, GREEN_TEXT, MEASURE_ROLE, NOT_SIGNIFICANT_MARK, RED_TEXT,
                                            SIGNIFICANT_MARK, CellsTable)
from readsim.app.widgets.runs.correlation import CorrelationModel
from readsim.app.widgets.runs.fidelity_tab import Table1Model, Table2Model
from readsim.app.widgets.runs.runs_tab import RunsTableModel
from readsim.app.widgets.runs.significance import PairsModel, SignificanceTab
from readsim.core.run_comparison import Comparison
from readsim.core.fidelity_tables import ON_AVERAGE, RESPECTED, REVERSED, Fidelity

NAN = float("nan")


def comparison() -> Comparison:
    m, n = 2, 3
    means = np.array([[0.5, 0.3, 0.4], [10.0, 20.0, 30.0]])
    order = np.array([[0, 2, 1], [0, 1, 2]])
    rank = np.array([[1, 3, 2], [1, 2, 3]])
    p = np.full((m, n, n), np.nan)
    p[0, 0, 2], p[0, 0, 1], p[0, 2, 1] = 0.01, 0.002, 0.2
    p[1, 0, 1], p[1, 0, 2], p[1, 1, 2] = 0.3, 0.04, 0.5
    significant = np.nan_to_num(p, nan=1.0) < 0.05
    wins = np.zeros((m, n, n), dtype=int)
    for k in range(m):
        for a in range(n):
            for b in range(a + 1, n):
                wins[k, order[k, a], order[k, b]] = 2  # the run ranked above wins both topics
    oriented = means * np.array([[1.0], [-1.0]])
    diff = oriented[:, :, None] - oriented[:, None, :]
    corr = np.array([[1.0, 0.333], [0.333, 1.0]])
    return Comparison(
        runs=["A", "B", "C"], measures=["M1", "M2"], lower_is_better=np.array([False, True]), topics=["1", "2"],
        scores=np.zeros((m, n, 2)), means=means, ci=np.zeros((m, n, 2)), order=order, rank=rank, diff=diff,
        diff_ci=np.stack([diff - 0.05, diff + 0.05], axis=-1),  # each pair's interval: its difference +- 0.05
        effect=np.zeros((m, n, n)), wins=wins, p=p, p_adjusted=p, significant=significant, tau=corr,
        tau_p=np.full((m, m), 0.6), r=np.array([[1.0, 0.5], [0.5, 1.0]]), r_p=np.full((m, m), 0.7),
        doc_means=np.full((m, n), np.nan), doc_tau=np.full(m, np.nan), doc_tau_p=np.full(m, np.nan),
        doc_r=np.full(m, np.nan), doc_r_p=np.full(m, np.nan), doc_gains=np.full(m, -1))


def compared() -> Compared:
    runs = [SimpleNamespace(path=f"/runs/{x}.txt", run_id=f"id{x}") for x in "ABC"]
    return Compared(comparison=comparison(), runs=runs, labels=["A", "B", "C"], options=None, cached=[])


def test_runs_table_model_ordered_by_the_chosen_measure(qapp):
    model = RunsTableModel()
    model.set_rows(compared(), 0)
    heads = [model.headerData(j, Qt.Orientation.Horizontal) for j in range(model.columnCount())]
    assert heads == ["Rank", "Run", "▼ M1", "vs next", "M2\n(lower is better)"]
    assert model.mark_column == 3 and model.measure_columns == {0: 2, 1: 4} and model.order == [0, 2, 1]
    assert model.headerData(4, Qt.Orientation.Horizontal, MEASURE_ROLE) == "M2"
    assert model.texts() == [
        ["1", "A", "0.5000", SIGNIFICANT_MARK, "10.0000 (1)"],   # A > C: p 0.01
        ["2", "C", "0.4000", NOT_SIGNIFICANT_MARK, "30.0000 (3)"],  # C > B: p 0.2
        ["3", "B", "0.3000", "", "20.0000 (2)"],
        ["", "significant pairs", "2 of 3", "", "1 of 3"]]
    a_m1 = model.index(0, 2)
    assert model.data(a_m1, Qt.ItemDataRole.FontRole).bold()  # the best mean of M1
    assert not model.data(model.index(1, 2), Qt.ItemDataRole.FontRole).bold()
    assert model.data(a_m1, Qt.ItemDataRole.BackgroundRole).color() == look.color(CHOSEN)  # the chosen measure's column
    tip = model.data(model.index(0, 3), Qt.ItemDataRole.ToolTipRole)
    assert "A (rank 1) vs C (rank 2, ranked next) under M1" in tip and "2 / 0 / 0" in tip and "p 0.010" in tip
    assert "/runs/A.txt" in model.data(model.index(0, 1), Qt.ItemDataRole.ToolTipRole)


def test_runs_table_model_under_a_lower_is_better_measure(qapp):
    model = RunsTableModel()
    model.set_rows(compared(), 1)
    assert [row[1] for row in model.texts()[:3]] == ["A", "B", "C"]  # the least effort first
    assert model.mark_column == 4 and model.measure_columns == {0: 2, 1: 3}
    # A > B (p 0.3) and B > C (p 0.5) are both not significant
    assert [row[4] for row in model.texts()[:3]] == [NOT_SIGNIFICANT_MARK, NOT_SIGNIFICANT_MARK, ""]
    assert model.texts()[0][2] == "0.5000 (1)" and model.texts()[1][2] == "0.3000 (3)"


def test_pairs_model_upper_triangle_by_rank(qapp):
    model = PairsModel()
    model.set_rows(comparison(), 0)
    assert model.order == [0, 2, 1]
    assert [model.headerData(a, Qt.Orientation.Vertical) for a in range(3)] == [
        "1  A   0.5000", "2  C   0.4000", "3  B   0.3000"]
    assert model.headerData(1, Qt.Orientation.Horizontal) == "2\nC"
    # A - C = 0.1, A - B = 0.2, C - B = 0.1 (M1's means 0.5, 0.3, 0.4), each with its interval below its p
    assert model.texts() == [["—", "0.010 *\n[+0.050, +0.150]", "0.002 *\n[+0.150, +0.250]"],
                             ["", "—", "0.200\n[+0.050, +0.150]"], ["", "", "—"]]
    np.testing.assert_array_equal(model.p, [[NAN, 0.01, 0.002], [NAN, NAN, 0.2], [NAN, NAN, NAN]])
    significant = model.data(model.index(0, 2), Qt.ItemDataRole.BackgroundRole).color()
    weaker = model.data(model.index(0, 1), Qt.ItemDataRole.BackgroundRole).color()
    assert significant.lightness() < weaker.lightness()  # the smaller p, the darker green


def test_correlation_model_without_document_baseline(qapp):
    model = CorrelationModel()
    model.set_rows(comparison())
    assert model.texts() == [["—", "τ 0.333\nr 0.500"], ["τ 0.333\nr 0.500", "—"]]  # no "as documents" row
    assert [model.headerData(k, Qt.Orientation.Vertical) for k in range(2)] == ["M1", "M2"]
    assert "Kendall's τ 0.333 (p 0.600)" in model.data(model.index(0, 1), Qt.ItemDataRole.ToolTipRole)


def test_cells_table_reads_back_what_it_shows(qapp):
    model = PairsModel()
    table = CellsTable(model)
    model.set_rows(comparison(), 1)
    assert (table.rowCount(), table.columnCount()) == (3, 3)
    # M2 is lower-is-better: A (10) - C (30) oriented is +20
    assert table.item(0, 2).text() == "0.040 *\n[+19.950, +20.050]"
    tip = table.item(0, 2).toolTip()
    assert "A (rank 1) vs C (rank 3)" in tip and "mean difference +20.0000, 95% bootstrap percentile interval [+19.9500, +20.0500]" in tip
    assert table.verticalHeaderItem(1).text() == "2  B   20.0000"
    model.clear()
    assert (table.rowCount(), table.columnCount()) == (0, 0)


def fidelity() -> Fidelity:
    """Three simulated runs, two expected orderings of Kamps et al. 2008's Table 2 (SR ≥ SLR,
    which the paper's AgP confirms on every topic, and SLR ≥ SLRS), two measures: M1 (higher is
    better) and M2 (lower is better), on 4 topics."""
    return Fidelity(
        runs=["SR", "SLR", "SSR"], measures=["M1", "M2"], lower_is_better=np.array([False, True]), topics=list("1234"),
        scores=np.zeros((2, 3, 4)), means=np.array([[1.0, 0.7, 0.9], [0.0, 2.0, 0.0]]),
        orderings=[("SR", "SLR"), ("SLR", "SLRS")], diff=np.array([[0.3, -0.02], [-2.0, 0.0]]),
        better=np.array([[4, 1], [0, 0]]), equal=np.array([[0, 0], [4, 4]]), worse=np.array([[0, 3], [0, 0]]),
        p=np.array([[0.004, 0.0004], [NAN, NAN]]), verdict=[[RESPECTED, REVERSED], [RESPECTED, ON_AVERAGE]])


def test_table2_model_in_percentage_points_and_as_is(qapp):
    model = Table2Model()
    model.set_rows(fidelity(), 0)
    assert model.headerData(1, Qt.Orientation.Horizontal) == "Diff (%)"
    assert model.texts() == [
        ["• SR ≥ SLR", "+30.00", "4", "0", "0", "0.0040", RESPECTED, "+20  112 2 0"],  # the paper's AgP row
        ["SLR ≥ SLRS", "−2.00", "1", "0", "3", "4.0e-04", REVERSED, "+0.07  52 13 49"]]
    verdict = model.index(1, 6)
    assert model.data(verdict, Qt.ItemDataRole.ForegroundRole).color() == look.color(RED_TEXT)
    assert model.data(verdict, Qt.ItemDataRole.FontRole).bold()
    model.set_rows(fidelity(), 1)  # lower is better: the engine's difference as is, 4 decimals
    assert model.headerData(1, Qt.Orientation.Horizontal) == "Diff"
    assert [row[1] for row in model.texts()] == ["−2.0000", "0.0000"] and model.texts()[0][5] == "–"


def test_table1_model_best_and_worst_runs(qapp):
    model = Table1Model()
    model.set_rows(fidelity(), 0)
    assert [model.headerData(j, Qt.Orientation.Horizontal) for j in range(4)] == ["Run", "M1", "M2", "Paper\nMAgP"]
    assert model.texts() == [["SR", "1.0000", "0.0000", "1.0000"], ["SLR", "0.7000", "2.0000", "0.7976"],
                             ["SSR", "0.9000", "0.0000", "0.8687"]]
    colour = lambda r, c: model.data(model.index(r, c), Qt.ItemDataRole.ForegroundRole)  # noqa: E731
    assert colour(0, 1).color() == look.color(GREEN_TEXT) and colour(1, 1).color() == look.color(RED_TEXT) and colour(2, 1) is None
    # M2 is lower-is-better: SR and SSR tie for the best (0), SLR is the worst
    assert colour(0, 2).color() == colour(2, 2).color() == look.color(GREEN_TEXT) and colour(1, 2).color() == look.color(RED_TEXT)
    assert model.data(model.index(0, 1), Qt.ItemDataRole.BackgroundRole).color() == look.color(CHOSEN)
    assert model.data(model.index(0, 2), Qt.ItemDataRole.BackgroundRole) is None


def test_the_randomised_tukey_hsd_reads_two_sided(qapp):
    c = comparison()
    c.test, c.correction = "tukey", "bh"
    assert rm.test_words("tukey") == "randomised Tukey HSD over all runs, two-sided"
    assert rm.test_words("bootstrap") == "paired bootstrap test, one-tailed"
    assert rm.test_words("t") == "paired t-test, one-tailed"
    tab = SignificanceTab()
    tab.show_result(c, 0)
    assert "randomised Tukey HSD over all runs, two-sided, α 0.05" in tab.title.text()
    assert "the two-sided randomised Tukey HSD bh-adjusted p of “the two runs differ”" in tab.legend.text()
    assert "over the 95% Student" in tab.legend.text() and "interval of the mean difference row minus column" in tab.legend.text()
