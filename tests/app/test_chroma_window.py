"""The window on Chroma's chunking data (JSON Lines qrels and run, a folder of Markdown
documents as the collection): characters by default (reference 2.13), each document's length
from the collection (2.11), and the score panel's numbers equal ``readsim-eval --per-article``'s."""

from __future__ import annotations

import json
import math

import pytest

from helpers.cli import run_cli
from readsim.app.background import activity
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Session

TOPIC, ARTICLE = "1", "state_of_the_union"


@pytest.mark.filterwarnings("ignore::readsim.InputWarning")
def test_the_score_panel_equals_readsim_eval_per_article_on_chroma(chroma, qtbot):
    run = chroma / "runs" / "bm25-chunks250.jsonl"
    session = Session()  # no --unit: the collection's
    window = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    session.open_files(chroma / "corpora", chroma / "qrels.jsonl", [run], chroma / "topics.jsonl", TOPIC, ARTICLE)
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None
                    and session.current.name == ARTICLE, timeout=30_000)
    assert session.unit == "chars"
    assert session.qrels.judgement(TOPIC, ARTICLE).doc_length == 48051  # the document's, not the last span's end
    assert session.current.article.length == 48051
    # the reader's amounts say the unit the collection chose
    assert [b.suffix() for b in (window.controls.screen, window.controls.tolerance)] == [" chars", " chars"]
    assert window.playback_bar.speed.suffix() == " chars/s"
    panel = window.scores.exact()
    assert len(panel) >= 10
    measures = [a for name in panel for a in ("-m", name)]
    code, out, err = run_cli(chroma / "qrels.jsonl", run, "--collection", chroma / "corpora", "--per-article",
                             "--format", "jsonl", *measures)
    assert code == 0, err
    cli = {r["measure"]: r["value"] for r in map(json.loads, out.splitlines())
           if r["topic"] == TOPIC and r["article"] == ARTICLE}
    assert set(cli) == set(panel)
    for name, value in panel.items():
        assert math.isclose(value, cli[name], rel_tol=0, abs_tol=1e-12), name
    assert 0 < panel["P_set"] < 1 and 0 < panel["R_set"] <= 1  # a chunk of the answer, with other text
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)
