"""The window's list-level numbers come from the Python API's core, the functions
``readsim.evaluate``, ``readsim.loss`` and ``readsim.compare`` are built on, so the topic view,
the loss panel, the before/after box, the topic chooser and the Runs window cannot diverge from
them (docs/architecture.md sections 3 and 4).

- (a) which modules the window may import is one import-linter contract ("window-on-api",
  pyproject.toml, run by tests/test_house_rules.py);
- (b) on the real INEX data, a real topic of a real run: the topic view's values as shown equal
  ``readsim.evaluate(..., per="topic")``, the loss panel's costs ``readsim.loss(...)``; after an
  edit the topic chooser's scores equal a fresh evaluation of the edited run;
- (c) one case worked by hand (numbers in the comments), through the window's own path (its
  ranked rows, the topic view's model, the loss panel's costs) and through the public API.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import readsim

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"

# -- (b) the real data ------------------------------------------------------------------------

TOPIC = "2009074"  # every relevant and retrieved article of this topic is in the real collection
PAGERANK = "23724"  # relevant; rank 10 in bert-passages.run


def quiet(call, *args, **kwargs):
    """``call`` with readsim's input warnings silenced (the real run has interleaved articles)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", readsim.InputWarning)
        return call(*args, **kwargs)


@pytest.fixture
def window(real_window):
    """A main window on TOPIC of the real bert-passages run (tests/app/conftest.py), PAGERANK open."""
    return real_window(PAGERANK)


def api_topic_values(inex, names: list[str], reading: str = "natural") -> dict[str, float]:
    frame = quiet(readsim.evaluate, inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "bert-passages.run",
                  names, per="topic", reading=reading, collection=inex / "articles")
    mine = frame[frame.topic == TOPIC]
    return dict(zip(mine.measure, mine.value))


def test_topic_view_equals_readsim_evaluate_per_topic(window, inex, qtbot):
    tv = window.topic_view
    tv.set_doc_kind("F")
    shown = tv.values()
    names = ["AgP/F(0.25)", "AgP'/F(0.25)", "MAP", "gP@1/F(0.25)", "gP@10/F(0.25)", "gP@50/F(0.25)", "gR@25"]
    assert set(names) <= set(shown)
    want = api_topic_values(inex, names)
    for name in names:
        assert shown[name] == pytest.approx(want[name], abs=1e-12), name
        assert tv.value_text(name) == f"{want[name]:.4f}", name  # as the user reads it
    assert 0 < want["AgP/F(0.25)"] < want["gP@1/F(0.25)"] + 1  # a real, non-trivial topic
    # the effort measures: LE(300) over the run's 100 ranks, in the document reading
    window.controls.mode.setCurrentIndex(window.controls.mode.findData("document"))
    tv.set_doc_kind("LE")
    qtbot.waitUntil(lambda: "ANCE@100/LE(300)" in tv.values() and "document reading" in tv.header.text())
    names = ["ANCE@100/LE(300)", "NCE@50/LE(300)", "CE@10/LE(300)"]
    want = api_topic_values(inex, names, "document")
    for name in names:
        assert tv.values()[name] == pytest.approx(want[name], abs=1e-12), name
        assert tv.value_text(name) == f"{want[name]:.2f}", name


def test_loss_panel_equals_readsim_loss(window, inex, qtbot):
    from readsim.app.widgets.loss_table import L_LOSS, L_RANK_COST

    tv = window.topic_view
    tv.set_doc_kind("F")
    panel = tv.loss_panel
    qtbot.waitUntil(lambda: panel.costs is not None, timeout=30_000)
    args = (inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "bert-passages.run", "AgP/F(0.25)")
    rows = quiet(readsim.loss, *args, topics=[TOPIC], collection=inex / "articles")
    split = quiet(readsim.loss, *args, per="topic", topics=[TOPIC], collection=inex / "articles").iloc[0]
    costs = panel.costs
    assert list(rows.article) == list(costs.loss.articles)
    assert costs.browse_cost == pytest.approx(rows.browse_cost.to_numpy(), abs=1e-12)
    assert costs.rank_cost == pytest.approx(rows.rank_cost.to_numpy(), abs=1e-12)
    assert list(costs.ideal_rank) == list(rows.ideal_rank)
    assert costs.rank_cost.max() > 0 and costs.browse_cost.max() > 0  # costs that say something
    # the square as shown
    for key, column in (("actual", "as_is"), ("ideal_passages", "ideal_passages"), ("ideal_ranking", "ideal_ranking"),
                        ("ideal", "ideal"), ("perfect", "perfect")):
        assert panel.text(key) == f"{split[column]:.4f}", key
    # the table's cells as shown: PageRank's row
    k = list(rows.article).index(PAGERANK)
    row = panel.model.view_row(k)  # the model sorts itself (biggest losses first)
    assert panel.model.index(row, L_LOSS).data() == f"{rows.browse_cost[k]:+.4f}"
    assert panel.model.index(row, L_RANK_COST).data() == f"{rows.rank_cost[k]:+.4f}"


def test_topic_chooser_after_an_edit_equals_a_fresh_evaluation(window, qtbot, monkeypatch):
    """After a rank move the chooser evaluates only the moved topic again
    (``readsim.operations.evaluate.evaluate_again``); every score equals ``readsim.evaluate`` of the
    edited run."""
    from readsim.app.rank_edits import move_to_rank
    from readsim.core.formats import Run

    import readsim.app.widgets.topic_chooser as chooser_module

    chooser = window.topic_scores
    qtbot.waitUntil(lambda: bool(chooser.scores) and not chooser.busy(), timeout=60_000)
    before = dict(chooser.scores)
    evaluated: list[list[str]] = []  # the topics of each evaluation the chooser asks for after the edit
    again, whole = chooser_module.evaluate_again, chooser_module.evaluate_run

    def spy_again(judged, last, part, **kwargs):
        evaluated.append(list(part.topics))
        return again(judged, last, part, **kwargs)

    def spy_whole(judged, run, *args, **kwargs):
        evaluated.append(list(run.topics))
        return whole(judged, run, *args, **kwargs)

    monkeypatch.setattr(chooser_module, "evaluate_again", spy_again)
    monkeypatch.setattr(chooser_module, "evaluate_run", spy_whole)
    s = window.session
    assert s.run.article_names(TOPIC).index(PAGERANK) == 9
    assert move_to_rank(window.editing.editor, PAGERANK, 1)  # relevant, from rank 10 to the top
    qtbot.waitUntil(lambda: not chooser.busy() and bool(chooser.scores) and chooser.scores != before, timeout=60_000)
    run = s.run
    assert run.article_names(TOPIC)[0] == PAGERANK
    fresh = Run(run.path, run.run_id, {t: list(v) for t, v in run.topics.items()})
    frame = quiet(readsim.evaluate, s.qrels, fresh, [chooser.measure.name], per="topic", collection=s.collection)
    want = dict(zip(frame.topic, frame.value))
    assert set(chooser.scores) == set(want) == set(before)
    for t, value in want.items():
        assert chooser.scores[t] == pytest.approx(value, abs=1e-12), t
    assert chooser.scores[TOPIC] > before[TOPIC]  # a relevant article moved up gains
    assert [t for t in want if chooser.scores[t] != before[t]] == [TOPIC]
    assert evaluated == [[TOPIC]]  # the other topics' values were reused, not computed again
    # undone: the topic's first score again (the chooser keys its scores by the edit history)
    moved = dict(chooser.scores)
    window.editing.act_undo.trigger()
    qtbot.waitUntil(lambda: not chooser.busy() and bool(chooser.scores) and chooser.scores != moved, timeout=60_000)
    assert chooser.scores == pytest.approx(before, abs=1e-12)


def test_the_chooser_keeps_the_run_files_topics_column_wise(inex):
    """What the chooser hands its worker keeps each topic still as the file said (evaluated
    column-wise, never built article by article in the GUI thread) and copies an edited one."""
    from readsim.app.widgets.topic_chooser import as_evaluated
    from readsim.core.formats import read_run

    run = read_run(inex / "runs" / "bert-passages.run")
    run.topics[TOPIC] = list(run.topics[TOPIC])  # as the editor leaves an edited topic
    seen = as_evaluated(run)
    assert [t for t in run.topics if seen.columns(t) is None] == [TOPIC]
    assert all(seen.topics[t] is run.topics[t] for t in run.topics if t != TOPIC)
    assert seen.topics[TOPIC] is not run.topics[TOPIC] and seen.topics[TOPIC] == run.topics[TOPIC]


# -- (c) by hand -------------------------------------------------------------------------------

HAND_QRELS = """\
1 Q0 101 50 100 0 0:50
1 Q0 103 50 100 50 50:50
"""
HAND_RUN = """\
1 Q0 101 1 3 hand 0 50
1 Q0 102 2 2 hand 0 80
1 Q0 103 3 1 hand 0 100
"""


def test_a_topic_worked_by_hand(qtbot, tmp_path):
    """Topic 1: articles 101 and 103 relevant (100 bytes each, 50 highlighted: [0, 50) and
    [50, 100)), 102 unjudged. The run ranks 101 (retrieving exactly [0, 50)), 102, then 103
    whole ([0, 100)). F(0.25) = (1 + b^2) P R / (b^2 P + R), b = 0.25:

    - S(101) = 1 (P = R = 1); S(102) = 0 (not relevant); S(103): P = 1/2, R = 1,
      F = 1.0625 * 0.5 / (0.03125 + 1) = 17/33.
    - gP[1] = 1, gP[2] = 1/2, gP[3] = (1 + 0 + 17/33) / 3 = 50/99; Nrel = 2:
      AgP = (gP[1] + gP[3]) / 2 = (1 + 50/99) / 2 = 149/198; MAP = (1/1 + 2/3) / 2 = 5/6;
      gP@5 past the run's end = gP[3] = 50/99 (policy 1); gR@1 = 1/2.
    - Where it loses: with 103's highlighted passage S = 1, AgP = (1 + 2/3) / 2 = 5/6 (browse
      +8/99); ideal ranking 101, 103 (equal relevant sizes: by id), gP = 1, 25/33, AgP = 29/33
      (fetch 29/33 - 149/198 = +25/198); both: 1.
    - Costs: browse cost 0, 0, 8/99 (only 103 reads more than its relevant text); the ideal
      ordering of the run's articles is 101, 103, 102, so moving 102 down to 3 or 103 up to 2
      both give 101, 103, 102: rank cost 0, 25/198, 25/198; ideal ranks 1, 3, 2.
    """
    from readsim.core.costs import article_costs
    from readsim.app.rows import evaluate_rows
    from readsim.app.topic_scores import doc_measure, topic_scores
    from readsim.app.widgets.loss_panel import LossPanel
    from readsim.core.doc_evaluation import Settings
    from readsim.core.formats import read_qrels, read_run

    (tmp_path / "hand.qrels").write_text(HAND_QRELS)
    (tmp_path / "hand.run").write_text(HAND_RUN)
    qrels, run = read_qrels(tmp_path / "hand.qrels"), read_run(tmp_path / "hand.run")
    settings = Settings()
    rows, _ = evaluate_rows(qrels, run, "1", run.topics["1"], None)  # the window's ranked rows
    ts = topic_scores(rows, qrels, "1", doc_measure("F", settings), settings)  # the topic view's model
    want = {"AgP/F(0.25)": 149 / 198, "MAP": 5 / 6, "gP@1/F(0.25)": 1.0, "gP@5/F(0.25)": 50 / 99, "gR@1": 0.5}
    api = readsim.evaluate(tmp_path / "hand.qrels", tmp_path / "hand.run", list(want), per="topic")
    api = dict(zip(api.measure, api.value))
    for name, value in want.items():
        assert ts.values[name] == pytest.approx(value, abs=1e-12), name
        assert api[name] == pytest.approx(value, abs=1e-12), name
    assert list(ts.scores) == pytest.approx([1, 0, 17 / 33], abs=1e-12)
    loss = ts.loss
    assert (loss.actual, loss.ideal_passages, loss.ideal_ranking, loss.ideal) == pytest.approx(
        (149 / 198, 5 / 6, 29 / 33, 1.0), abs=1e-12)
    assert (loss.browse, loss.fetch) == pytest.approx((8 / 99, 25 / 198), abs=1e-12)
    # the loss panel's costs, computed as it computes them (in a worker), and readsim.loss's
    panel = LossPanel()
    qtbot.addWidget(panel)
    panel.set_loss(loss)
    qtbot.waitUntil(lambda: panel.costs is not None)
    frame = readsim.loss(tmp_path / "hand.qrels", tmp_path / "hand.run", "AgP/F(0.25)")
    for costs in (panel.costs, article_costs(loss, panel.costs.measure)):
        assert list(costs.browse_cost) == pytest.approx([0, 0, 8 / 99], abs=1e-12)
        assert list(costs.rank_cost) == pytest.approx([0, 25 / 198, 25 / 198], abs=1e-12)
        assert list(costs.ideal_rank) == [1, 3, 2]
    assert list(frame.browse_cost) == pytest.approx([0, 0, 8 / 99], abs=1e-12)
    assert list(frame.rank_cost) == pytest.approx([0, 25 / 198, 25 / 198], abs=1e-12)
    assert list(frame.ideal_rank) == [1, 3, 2]
