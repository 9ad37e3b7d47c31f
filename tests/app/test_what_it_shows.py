"""What the window shows, acting as a user on the real data.

- Opened without a topic or an article, the window shows a topic whose ranked articles the
  collection has, and the best-ranked relevant one of them; the topic chooser says how many of
  each topic's ranked articles the collection holds; an article without text says why.
- An article the run does not rank is labelled "not retrieved by this run: contributes 0 to the
  list"; the panel shows what it would score if retrieved whole, marked as such.
- The entry reading mode: the entry point from a Best in Context run, moved by Alt+click.

Hand-worked facts (topic 2009074, article 23724 "PageRank"): doc_length 27,562; relevant
[159, 1326), [4996, 5005), [5008, 5869), [5913, 7778), [8138, 8400) (4,164 bytes).
From the entry point 5,200 the reader reads [5200, 27562) and then [0, 5200): relevant 669
([5200, 5869)), non-relevant 44, relevant 1,865, non-relevant 360, ... The first character read
is relevant, so LE(300) = 1; the T2I(300) reader stops at the 300th non-relevant character,
256 into [7778, 8138): 669 + 44 + 1,865 + 256 = 2,834 read, 669 + 1,865 = 2,534 relevant.

The tests load their inputs into one window for the module (``shared``), but the one that
checks what a window opened without a topic shows, in a window of its own.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from helpers.gui import keep_shot
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextCursor

from readsim.operations.article_reading import panel_measures, panel_scores
from readsim.app.background import activity
from readsim.app.help import shortcuts
from readsim.app.main import check_usage, parser
from readsim.app.session import Loaded
from readsim.app.widgets.ranked_list import format_score
from readsim.app import appearance as look
from readsim.app.widgets.score_panel import NOT_RETRIEVED, WHOLE_TITLE
from readsim.app.widgets.topic_chooser import format_score as topic_score
from readsim.core.collection import Collection
from readsim.core.doc_evaluation import Settings, evaluate_document
from readsim.core.formats import read_run
from readsim.core.reading import Mode

TOPIC = "2009074"
PAGERANK = "23724"
UNRANKED = "195196"  # judged relevant for 2009074 ([5148, 5389)), not ranked by the run
DOC_LENGTH = 27562
RELEVANT = [(159, 1326), (4996, 5005), (5008, 5869), (5913, 7778), (8138, 8400)]


def shot(w, path) -> None:
    """The window as it is, saved under the test's own folder (``keep_shot``: for a person)."""
    assert w.grab().save(str(path))
    keep_shot(path)


def wait_loaded(qtbot, session, article: str | None = None) -> None:
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None
                    and (article is None or session.current.name == article), timeout=20_000)


def present(real, article: str) -> bool:
    return (real["collection"] / f"{article}.xml").exists()


def load(qtbot, session, real, runs, topic=None, article=None) -> None:
    session.adopt(Loaded(collection=Collection(real["collection"]), qrels=real["qrels"], runs=runs,
                         topics=real["topics"]), topic, article)
    wait_loaded(qtbot, session, article)


def window(qtbot):
    """A window of its own, nothing open yet (for what a window opened without a topic shows)."""
    from readsim.app.mainwindow import MainWindow
    from readsim.app.session import Session

    w = MainWindow(Session(), show_dialogs=False, restore=False)
    qtbot.addWidget(w)
    w.show()
    return w


@pytest.fixture
def shared(qtbot, shared_empty_window):
    """The module's one window (``shared_empty_window``), as a fresh one before :func:`load`: no
    run (a window keeps every run it opened: the previous test's are dropped, so each test's runs
    are 0, 1, ... again), no entry point set, the default settings, no error shown. Each test
    loads its own inputs (qrels, collection, topics, runs), topic and article with :func:`load`."""
    w = shared_empty_window
    s = w.session
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)
    s.runs = []
    s.entries = {}
    s.set_settings(**{f.name: getattr(Settings(), f.name) for f in dataclasses.fields(Settings)})
    del w.errors_shown[:]
    yield w
    qtbot.waitUntil(lambda: activity().count == 0, timeout=20_000)


def per_character(entry: int, n: int = DOC_LENGTH, tolerance: int = 300) -> dict[str, float]:
    """aveChP and T2I(tolerance) from a per-character reading order: [entry, n), then [0, entry)."""
    rel = np.zeros(n, bool)
    for a, b in RELEVANT:
        rel[a:b] = True
    read = rel[np.r_[np.arange(entry, n), np.arange(0, entry)]]
    seen = np.cumsum(read)
    i = np.arange(1, n + 1)
    nrc = int(rel.sum())
    ave = float((seen[read] / i[read]).sum() / nrc)
    nonrel = np.cumsum(~read)
    m = int(np.argmax(nonrel >= tolerance)) + 1 if nonrel[-1] >= tolerance else n
    p, r = seen[m - 1] / m, seen[m - 1] / nrc
    first = int(np.argmax(read)) + 1
    return {"aveChP": ave, "T2IP(300)": p, "T2IR(300)": r, "T2IF(300)": 2 * p * r / (p + r),
            "LE(300)": min(4, -(-first // 300)), "read": m, "relevant read": int(seen[m - 1])}


def shown_as(name: str, value: float) -> str:
    m = next(m for m in panel_measures(Settings()) if m.name == name)
    return format_score(m, value)


# -- item 4: an article the collection has, counts in the chooser, why there is no text --------
def test_opened_without_topic_shows_an_article_with_text(qtbot, real):
    w = window(qtbot)  # its own: a window that showed a topic keeps showing it when files come without one
    s = w.session
    load(qtbot, s, real, [real["run"]])
    run, qrels = real["run"], real["qrels"]
    # by the run file and the folder: the first topic ranking a relevant article the folder has
    want = next(t for t, entries in run.topics.items()
                if any(present(real, e.article) and qrels.judgement(t, e.article) for e in entries))
    article = next(e.article for e in run.topics[want] if present(real, e.article) and qrels.judgement(want, e.article))
    assert next(iter(run.topics)) != want  # the run's first topic has no article in the folder
    assert s.topic == want and s.current.name == article
    assert s.current.article is not None and s.current.message == ""
    assert w.article.view.layout_ is not None and "not in the collection" not in w.article.view.toPlainText()


def test_topic_chooser_counts_the_articles_the_collection_holds(shared, qtbot, real):
    w = shared
    s = w.session
    load(qtbot, s, real, [real["run"]], TOPIC, PAGERANK)
    qtbot.waitUntil(lambda: s.in_collection(TOPIC) is not None, timeout=20_000)
    scores = w.topic_scores  # the open run's score on each topic follows the topic id
    qtbot.waitUntil(lambda: not scores.busy() and bool(scores.scores), timeout=60_000)
    combo = w.topic_combo
    for topic in (TOPIC, "2009001"):
        entries = real["run"].topics[topic]
        have = sum(present(real, e.article) for e in entries)
        i = combo.findData(topic)
        score = topic_score(scores.measure, scores.scores.get(topic))
        assert combo.itemText(i) == (f"{topic} · {score}  {s.topic_title(topic)} — {have} of {len(entries)} in the "
                                     f"collection")
        assert f"holds {have} of the {len(entries)} articles" in combo.itemData(i, Qt.ItemDataRole.ToolTipRole)
    assert 0 < sum(present(real, e.article) for e in real["run"].topics[TOPIC]) < 100
    assert combo.itemText(combo.findData("2009001")).endswith("— 0 of 100 in the collection")
    assert combo.itemData(combo.findData("2009001"), Qt.ItemDataRole.ForegroundRole) == look.color("disabled")
    assert combo.itemData(combo.findData(TOPIC), Qt.ItemDataRole.ForegroundRole) is None
    assert "ranked articles in the collection" in w.topic_label.text()


def test_an_article_without_text_says_why(shared, qtbot, real, tmp_path):
    w = shared
    s = w.session
    missing = next(e.article for e in real["run"].topics[TOPIC] if not present(real, e.article))
    load(qtbot, s, real, [real["run"]], TOPIC, missing)
    text = w.article.view.toPlainText()
    assert (f"Article {missing} is not in the collection (folder {real['collection']}): no text to show. "
            "Its scores come from the qrels and the run.") in text
    assert "articles the run ranks for topic 2009074" in text
    assert "no text" in w.article.header.text() and "not in the collection" in w.article.header.text()
    shot(w, tmp_path / "what-no-text.png")


# -- item 5: an article the run does not rank ---------------------------------------------------
def test_unranked_article_is_labelled_and_scored_as_if_whole(shared, qtbot, real):
    w = shared
    s = w.session
    load(qtbot, s, real, [real["run"]], TOPIC, PAGERANK)
    assert not w.scores.banner.isVisible() and not w.scores.hypothetical()
    s.open_article(UNRANKED)
    wait_loaded(qtbot, s, UNRANKED)
    assert s.current.row is None
    panel = w.scores
    assert panel.banner.isVisible() and panel.banner.text() == NOT_RETRIEVED
    assert panel.hypothetical() and panel.title() == WHOLE_TITLE
    j = real["qrels"].judgement(TOPIC, UNRANKED)
    # by hand: retrieved whole, T = [0, doc_length): P_set = 241 / doc_length, R_set = 1
    shown = panel.shown()
    assert (j.passages.tolist(), shown["R_set"]) == ([[5148, 5389]], "1.0000")
    assert shown["P_set"] == f"{241 / j.doc_length:.4f}"
    whole = evaluate_document(j.passages, None, j.doc_length)
    assert shown == {m.name: format_score(m, panel_scores(whole, s.settings)[m.name]) for m in panel_measures(s.settings)}
    value = panel._values[[m.name for m in panel_measures(s.settings)].index("aveChP")]
    assert "italic" in value.styleSheet() and "if retrieved whole" in value.toolTip()
    assert "not retrieved by this run" in panel.facts.text()
    # the session's own evaluation stays the truth: nothing retrieved
    assert s.current.evaluation.retrieved_size == 0
    # a ranked article again: plain scores
    s.open_article(PAGERANK)
    wait_loaded(qtbot, s, PAGERANK)
    assert not panel.banner.isVisible() and not panel.hypothetical() and value.styleSheet() == ""


# -- item 7: the entry reading mode -------------------------------------------------------------
@pytest.fixture
def bic(tmp_path, real):
    """A Best in Context run on real articles: entry 5,200 (length 0) for PageRank."""
    path = tmp_path / "bic.run"
    path.write_text(f"{TOPIC} Q0 {PAGERANK} 1 1.0 bic 5200 0\n{TOPIC} Q0 {UNRANKED} 2 0.5 bic 5000 0\n")
    return read_run(path)


def click_at_offset(qtbot, view, offset: int, modifier=Qt.KeyboardModifier.AltModifier) -> None:
    lay = view.layout_
    pos = lay.to_display(offset)
    view.scroll_to_position(pos)
    c = QTextCursor(view.document())
    c.setPosition(pos)
    r = view.cursorRect(c)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, modifier, QPoint(r.left() + 1, r.center().y()))


def assert_entry_scores(w, entry: int) -> None:
    want = per_character(entry)
    shown = w.scores.shown()
    for name in ("aveChP", "T2IP(300)", "T2IR(300)", "T2IF(300)", "LE(300)"):
        assert shown[name] == shown_as(name, want[name]), name


def test_entry_mode_reads_from_the_runs_entry_point(shared, qtbot, real, bic, tmp_path):
    w = shared
    s = w.session
    load(qtbot, s, real, [bic], TOPIC, PAGERANK)
    mode = w.controls.mode
    assert mode.findData("entry") >= 0
    mode.setCurrentIndex(mode.findData("entry"))  # the user picks the entry mode
    assert s.settings.mode is Mode.ENTRY and s.current.evaluation.entry == 5200
    # hand-worked (module docstring) and per character
    want = per_character(5200)
    assert (want["read"], want["relevant read"], want["LE(300)"]) == (2834, 2534, 1)
    assert want["T2IP(300)"] == 2534 / 2834 and want["T2IR(300)"] == 2534 / 4164
    assert_entry_scores(w, 5200)
    assert "entry point 5,200 bytes (the run's)" in w.scores.facts.text()
    assert w.controls.entry.value() == 5200 and not w.controls.entry_reset.isEnabled()
    view = w.article.view
    assert view.entry() == s.current.layout.to_display(5200) and view.entry_rect() is not None
    assert "entry mode: from 5,200 bytes (the run&#x27;s)" in w.article.chain.row.itemAt(0).widget().text()
    # the ranked list reads it the same way
    assert s.row_of(PAGERANK).evaluation.ave_chp() == pytest.approx(want["aveChP"], abs=1e-12)
    shot(w, tmp_path / "what-entry.png")  # looked at by a person

    # Alt+click at 5,913 (the start of a relevant passage): the entry point and the scores move
    click_at_offset(qtbot, view, 5913)
    assert s.current.evaluation.entry == 5913 and s.entry_of_current() == (5913, "you")
    assert_entry_scores(w, 5913)
    assert s.row_of(PAGERANK).evaluation.entry == 5913
    assert "(set by you" in w.scores.facts.text() and w.controls.entry.value() == 5913
    assert view.entry() == s.current.layout.to_display(5913)
    shot(w, tmp_path / "what-entry-clicked.png")
    # a plain click only moves the text cursor; Ctrl+Alt+E starts reading there
    click_at_offset(qtbot, view, 159, Qt.KeyboardModifier.NoModifier)
    assert s.current.evaluation.entry == 5913
    w.act_entry_here.trigger()
    assert s.current.evaluation.entry == 159
    assert_entry_scores(w, 159)
    # back to the run's entry point; the user's survives a mode change
    w.controls.entry_reset.click()
    assert s.entry_of_current() == (5200, "run")
    assert_entry_scores(w, 5200)
    click_at_offset(qtbot, view, 5913)
    mode.setCurrentIndex(mode.findData("natural"))
    mode.setCurrentIndex(mode.findData("entry"))
    assert s.current.evaluation.entry == 5913


def test_alt_click_in_another_mode_switches_to_entry(shared, qtbot, real, bic):
    w = shared
    s = w.session
    load(qtbot, s, real, [bic], TOPIC, PAGERANK)
    assert s.settings.mode is Mode.NATURAL
    click_at_offset(qtbot, w.article.view, 5200)
    assert s.settings.mode is Mode.ENTRY and w.controls.mode.currentData() == "entry"
    assert_entry_scores(w, 5200)


def test_entry_point_in_the_shortcuts_help_and_on_the_command_line(shared, qtbot):
    w = shared
    rows = {text: keys for _path, text, keys in shortcuts(w)}
    assert "Start reading here (entry point; Alt+click in the text)" in rows
    args = parser().parse_args(["--reading", "entry", "--entry", "5200"])
    assert (args.reading, args.entry, check_usage(args)) == ("entry", 5200, [])
    bad = parser().parse_args(["--reading", "worst", "--entry", "5200", "--run", "x"])
    assert any("--entry" in p for p in check_usage(bad))


def test_whole_article_line_reads_as_the_passage_0_to_doc_length(shared, qtbot, real, tmp_path):
    """Whole-article lines in the window (reference section 2.5): a 6-field line and the FOL line [0, doc_length)."""
    (tmp_path / "whole.run").write_text(f"{TOPIC} Q0 {PAGERANK} 1 1.0 whole\n")
    (tmp_path / "fol.run").write_text(f"{TOPIC} Q0 {PAGERANK} 1 1.0 fol 0 {DOC_LENGTH}\n")
    runs = [read_run(tmp_path / "whole.run"), read_run(tmp_path / "fol.run")]
    w = shared
    s = w.session
    load(qtbot, s, real, runs, TOPIC, PAGERANK)
    for mode in ("natural", "worst", "best", "document", "entry"):
        w.controls.mode.setCurrentIndex(w.controls.mode.findData(mode))
        shown = []
        for i in (0, 1):
            s.set_run(i)
            qtbot.waitUntil(lambda: activity().count == 0 and s.run is runs[i] and s.current is not None
                            and s.current.row is not None and s.current.name == PAGERANK, timeout=20_000)
            shown.append(w.scores.shown())
        assert shown[0] == shown[1], mode
        ev = evaluate_document(real["qrels"].judgement(TOPIC, PAGERANK).passages, [(0, DOC_LENGTH)], DOC_LENGTH, mode)
        assert shown[0] == {m.name: format_score(m, panel_scores(ev, s.settings)[m.name]) for m in panel_measures(s.settings)}
