"""The window's article-level numbers come from the Python API's core, not from beside it.

- The window reads a ranked article, a topic's ranked list and the score panel's values through
  the operations (``readsim.operations.article_reading``), as ``readsim.article`` does, so they
  cannot diverge; the import-linter contract "window-on-api" (pyproject.toml, run by
  tests/test_house_rules.py) forbids the window the engine's scoring modules.
- The score panel, as a user sees it (each value's tooltip holds the float in full), equals
  ``readsim.article(...).scores`` and ``readsim.evaluate(..., per="article")`` for the same
  article of a real run (the ``inex`` data), to 1e-12, and a small case worked by hand.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"

# every test: GC in the GUI thread only, its own QSettings (tests/conftest.py), as in tests/app
pytestmark = pytest.mark.usefixtures("gui_thread_gc", "fresh_settings")

# -- the numbers, as a user sees them ----------------------------------------------------------
def window_on(qtbot, loaded, topic: str, article: str):
    from readsim.app.background import activity
    from readsim.app.mainwindow import MainWindow
    from readsim.app.session import Session

    session = Session()
    window = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(window)
    window.show()
    session.adopt(loaded, topic, article)
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None
                    and session.current.name == article, timeout=20_000)
    return window


def idle(qtbot) -> None:
    from readsim.app.background import activity

    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)


TOPIC, ARTICLE = "2009074", "23724"  # PageRank: relevant (4 passages) and retrieved at rank 10 by bert-passages


@pytest.mark.filterwarnings("ignore::readsim.InputWarning")  # the real runs' overlapping passages
def test_the_score_panel_shows_readsim_articles_numbers_on_a_real_run(inex, qtbot):
    import readsim
    from readsim.app.loading import Loaded
    from readsim.core.collection import Collection
    from readsim.core.formats import read_qrels, read_run
    from readsim.core.reading import Mode

    qrels_path, run_path = inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "bert-passages.run"
    run = read_run(run_path)
    loaded = Loaded(collection=Collection(inex / "articles"), qrels=read_qrels(qrels_path), runs=[run])
    w = window_on(qtbot, loaded, TOPIC, ARTICLE)
    one_topic = dataclasses.replace(run, topics={TOPIC: run.topics[TOPIC]})
    for reading, screen in (("natural", 300), ("entry", 300), ("best", 2000)):
        w.session.set_settings(mode=Mode(reading), screen=screen)
        idle(qtbot)
        s = w.session.settings
        panel = w.scores.exact()
        a = readsim.article(qrels_path, run_path, topic=TOPIC, article=ARTICLE, collection=inex / "articles",
                            reading=reading, screen=s.screen, tolerance=s.tolerance, beta=s.beta)
        frame = readsim.evaluate(qrels_path, one_topic, list(a.scores), per="article", reading=reading,
                                 collection=inex / "articles")
        frame = frame[frame["article"] == ARTICLE]
        per_article = dict(zip(frame["measure"], frame["value"]))
        assert len(panel) == 11 and set(panel) == set(a.scores) == set(per_article)
        for name, value in panel.items():
            assert math.isclose(value, a.scores[name], rel_tol=0, abs_tol=1e-12), (reading, name)
            assert math.isclose(value, per_article[name], rel_tol=0, abs_tol=1e-12), (reading, name)
        # the panel holds readsim.article's object for this article; the Explain dock explains it
        assert isinstance(w.scores.article, readsim.ArticleEvaluation) and w.scores.article.reading == reading
    # by hand (qrels and run lines of 23724 for 2009074): T = [0, 25686) holds all of R (4,164 bytes)
    assert math.isclose(panel["P_set"], 4164 / 25686, abs_tol=1e-12) and panel["R_set"] == 1.0


def test_the_score_panel_and_readsim_article_on_a_case_worked_by_hand(tmp_path, qtbot):
    import readsim
    from readsim.app.loading import Loaded
    from readsim.core.formats import read_qrels, read_run

    # article 100 of topic 1: 1,000 bytes, relevant R = [200, 400) (200 bytes); the run retrieves
    # T = [300, 600) (300 bytes), so |R ∩ T| = [300, 400) = 100 bytes.
    qrels, run = tmp_path / "hand.qrels", tmp_path / "hand.run"
    qrels.write_text("1 Q0 100 200 1000 200 200:200\n")
    run.write_text("1 Q0 100 1 1.0 hand 300 300\n")
    w = window_on(qtbot, Loaded(qrels=read_qrels(qrels), runs=[read_run(run)]), "1", "100")
    panel = w.scores.exact()
    # P_set = |R∩T| / |T| = 100/300; R_set = |R∩T| / |R| = 100/200;
    # F(0.25) = (1 + 1/16) P R / (P/16 + R) = (17/16)(1/6) / (1/48 + 1/2) = (17/96)(48/25) = 17/50;
    # the natural reading reads the chain T first: the first screen [300, 600) holds 100 relevant
    # bytes, ChP@300 = 100/300 and ChR@300 = 100/200; the first byte read is relevant (f = 1),
    # so LE(300) = ES(300) = ceil(1/300) = 1 (reference section 4)
    hand = {"P_set": 1 / 3, "R_set": 1 / 2, "F(0.25)": 17 / 50, "ChP@300": 1 / 3, "ChR@300": 1 / 2,
            "LE(300)": 1.0, "ES(300)": 1.0}
    a = readsim.article(qrels, run, topic="1", article="100")
    frame = readsim.evaluate(qrels, run, list(hand), per="article")
    per_article = dict(zip(frame["measure"], frame["value"]))
    for name, value in hand.items():
        assert math.isclose(panel[name], value, rel_tol=0, abs_tol=1e-12), name
        assert math.isclose(a.scores[name], value, rel_tol=0, abs_tol=1e-12), name
        assert math.isclose(per_article[name], value, rel_tol=0, abs_tol=1e-12), name
    assert panel == pytest.approx(a.scores, rel=0, abs=1e-12)
