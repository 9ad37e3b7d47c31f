"""Start-up: the article shows first, the rows and plots follow.

- The window's modules do not import pyqtgraph: the plots (:class:`Deferred`) are built once
  the loading is done, or when asked for; calls made before are replayed.
- A topic's article opens at once, scored on its own, while the topic's other work (the ranked
  list's rows, the coverage check) waits for it; then everything agrees with a window that
  evaluated the rows first: the same row, the list selects it, the curves mark its rank.
- ``--screenshot`` still renders everything, plots included.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from PySide6.QtWidgets import QLabel, QWidget

from readsim.operations.article_reading import panel_scores
import readsim.app.rows as rows_module
from readsim.app import export as export_module
from readsim.app.background import activity
from readsim.app.main import main
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Session
from readsim.app.widgets.deferred import Deferred

TOPIC = "2009074"
ARTICLE = "23724"  # rank 10 of topic 2009074 in the real run, relevant


class Recorder(QLabel):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple] = []

    def show_scores(self, *args) -> None:
        self.calls.append(("show_scores", *args))

    def mark_rank(self, *args) -> None:
        self.calls.append(("mark_rank", *args))


def test_deferred_replays_the_last_call_of_each_method_in_order(qtbot):
    built: list[Recorder] = []
    d = Deferred(lambda: built.append(Recorder()) or built[-1], eager=False)
    qtbot.addWidget(d)
    hooked: list[QWidget] = []
    d.call("show_scores", 1)
    d.call("mark_rank", 5)
    d.call("show_scores", 2)  # the last call of a method counts, in the order of the last calls
    d.call("mark_rank", 7, "x")
    d.when_built(hooked.append)
    assert not built and not d.built()
    w = d.widget()
    assert built == [w] and hooked == [w] and d.built()
    assert w.calls == [("show_scores", 2), ("mark_rank", 7, "x")]
    d.call("mark_rank", 8)  # built: at once
    assert w.calls[-1] == ("mark_rank", 8)
    assert d.widget() is w and len(built) == 1
    late: list[QWidget] = []
    d.when_built(late.append)
    assert late == [w]


def test_the_window_starts_without_pyqtgraph(tmp_path):
    code = ("import sys\n"
            "from PySide6.QtWidgets import QApplication\n"
            "app = QApplication([])\n"
            "from readsim.app.mainwindow import MainWindow\n"
            "w = MainWindow(defer_plots=True, restore=False)\n"
            "assert 'pyqtgraph' not in sys.modules, 'pyqtgraph imported at start-up'\n"
            "w.plot  # asked for: built now\n"
            "assert 'pyqtgraph' in sys.modules and w.plot_slot.built()\n"
            "assert not w.topic_view.curves_slot.built()\n"
            "print('ok')\n")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


@pytest.fixture
def counted_rows(monkeypatch):
    """Count the ranked articles evaluated: one by one (``ranked_article``) or a topic's in one
    batch (``ranked_articles``)."""
    calls: list[str] = []
    one, many = rows_module.ranked_article, rows_module.ranked_articles

    def counting_one(qrels, run, topic, entry, *args):
        calls.append(entry.article)
        return one(qrels, run, topic, entry, *args)

    def counting_many(*args):
        out = many(*args)
        calls.extend(ev for ev in out)
        return out

    monkeypatch.setattr(rows_module, "ranked_article", counting_one)
    monkeypatch.setattr(rows_module, "ranked_articles", counting_many)
    return calls


def wait_loaded(qtbot, session: Session, article: str | None = None) -> None:
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None
                    and (article is None or session.current.name == article), timeout=20_000)


def _window(qtbot, show: bool = True) -> MainWindow:
    w = MainWindow(Session(), show_dialogs=False, restore=False, defer_plots=True)
    qtbot.addWidget(w)
    if show:
        w.show()
    return w


def _open(w: MainWindow, real, article: str | None) -> None:
    p = real["paths"]
    w.session.open_files(p / "articles", p / "qrels" / "inex2009-2010.qrels", [p / "runs" / "bert-passages.run"],
                         p / "topics" / "inex2009-topics.xml", TOPIC, article)


def test_the_article_shows_before_the_rows_and_then_agrees_with_them(qtbot, real, counted_rows):
    w = _window(qtbot, show=False)  # shown after the loading starts, as readsim does
    s = w.session
    seen: list[tuple] = []

    def shown() -> None:
        if s.current is not None:
            seen.append((s.current.name, s.rows_ready(), len(counted_rows), activity().count > 0,
                         w.plot_slot.built(), s.current.row, w.table.placeholder(), w.table.proxy.rowCount(),
                         w.act_export_ranked.isEnabled()))

    s.article_changed.connect(shown)
    _open(w, real, ARTICLE)
    w.show()
    wait_loaded(qtbot, s, ARTICLE)
    qtbot.waitUntil(lambda: w.plot_slot.built() and w.topic_view.curves_slot.built(), timeout=10_000)

    assert len(seen) == 1  # opened once, not again when the rows came
    name, ready, evaluated, busy, plotted, early_row, placeholder, listed, exportable = seen[0]
    assert not exportable and w.act_export_ranked.isEnabled()  # no ranked list to export until it comes
    assert name == ARTICLE and not ready  # shown before the topic's rows
    assert evaluated == 1 and busy and not plotted  # only its own row yet; the rest waited
    assert listed == 0 and placeholder == f"Evaluating topic {TOPIC}: 100 ranked articles…"
    assert w.table.placeholder() == "" and w.table.proxy.rowCount() == 100
    assert s.rows_ready() and s.topic == TOPIC and len(counted_rows) == 1 + len(s.rows) == 101
    row = s.row_of(ARTICLE)
    assert early_row.rank == row.rank == 10 and early_row.relevant and row.relevant
    assert panel_scores(early_row.evaluation, s.settings) == panel_scores(row.evaluation, s.settings)
    assert s.current.row is row  # the rows' own object once they came
    assert w.table.selected_article() == ARTICLE
    assert w.topic_view.curves.marked_rank() == 10
    markers = w.plot.markers()
    assert markers["first_relevant"] == 160 and markers["reader"] == 300  # as the scores panel says


def test_without_an_article_the_default_opens_early_and_once(qtbot, real):
    w = _window(qtbot)
    s = w.session
    opened: list[tuple[str, str | None]] = []
    s.article_changed.connect(lambda: opened.append((s.current.name, s.rows_ready())) if s.current else None)
    _open(w, real, None)
    wait_loaded(qtbot, s)
    assert opened == [(rows_module.default_article(s.rows), False)]  # the rows' pick, found before them


def test_switching_topics_keeps_the_article_first(qtbot, real, counted_rows):
    w = _window(qtbot)
    s = w.session
    _open(w, real, ARTICLE)
    wait_loaded(qtbot, s, ARTICLE)
    other = next(t for t in s.run.topics if t != TOPIC and s.run.topics[t])
    before = len(counted_rows)
    state: list[tuple] = []
    s.article_changed.connect(lambda: state.append((s.rows_ready(), len(counted_rows) - before,
                                                    w.topic_view.article_line.text())) if s.current else None)
    assert w.act_export_ranked.isEnabled()
    s.set_topic(other)
    assert not w.act_export_ranked.isEnabled() and s.rows == []  # not the previous topic's rows
    wait_loaded(qtbot, s)
    assert state and state[0][:2] == (False, 1)  # the old topic's rows are not used for it
    assert state[0][2] == ""  # the topic view says nothing of it until its rows come
    assert s.rows_ready() and s.topic == other and s.current.row is s.row_of(s.current.name)
    assert w.table.selected_article() == s.current.name


def test_screenshot_renders_the_plots(inex, tmp_path, monkeypatch, capsys):
    seen: list[tuple] = []
    real_export = export_module.export_widget

    def export(window, path, *args):
        curves = window.topic_view.curves
        seen.append((window.plot_slot.built(), window.topic_view.curves_slot.built(),
                     _n(window.plot.precision.getData()[0]), curves.marked_rank()))
        return real_export(window, path, *args)

    monkeypatch.setattr(export_module, "export_widget", export)
    out = tmp_path / "shot.png"
    code = main(["--collection", str(inex / "articles"), "--qrels", str(inex / "qrels" / "inex2009-2010.qrels"),
                 "--run", str(inex / "runs" / "bert-passages.run"), "--topic", TOPIC, "--article", ARTICLE,
                 "--screenshot", str(out)])
    assert code == 0, capsys.readouterr().err
    assert seen and seen[0][:2] == (True, True) and seen[0][2] > 2 and seen[0][3] == 10


def _n(xs) -> int:
    return 0 if xs is None else len(xs)


def _while_rows_come(w: MainWindow, act) -> list:
    """Run ``act()`` on the first article shown while the topic's rows are still evaluated;
    returns what it saw: [rows ready?, rows_changed emitted during act?]."""
    s = w.session
    seen: list = []

    def shown() -> None:
        if s.current is not None and not seen:
            emitted: list[int] = []
            s.rows_changed.connect(lambda: emitted.append(1))
            ready = s.rows_ready()
            act()
            seen.extend([ready, bool(emitted), s.rows == []])

    s.article_changed.connect(shown)
    return seen


def test_a_mode_change_while_the_rows_come(qtbot, real):
    w = _window(qtbot)
    s = w.session
    seen = _while_rows_come(w, lambda: s.set_settings(mode="worst"))
    _open(w, real, ARTICLE)
    wait_loaded(qtbot, s, ARTICLE)
    assert seen == [False, False, True]  # no empty list announced as the topic's
    assert s.current.row.evaluation.mode.value == "worst" == s.current.evaluation.mode.value
    row = s.row_of(ARTICLE)
    assert row.evaluation.mode.value == "worst" and s.current.row is row
    assert panel_scores(s.current.evaluation, s.settings) == panel_scores(row.evaluation, s.settings)
    assert w.table.proxy.rowCount() == 100


def test_an_entry_point_set_while_the_rows_come(qtbot, real):
    w = _window(qtbot)
    s = w.session
    seen = _while_rows_come(w, lambda: s.set_entry(1000))
    _open(w, real, ARTICLE)
    wait_loaded(qtbot, s, ARTICLE)
    assert seen == [False, False, True]
    assert s.entry_of_current() == (1000, "you")
    row = s.row_of(ARTICLE)
    assert (row.natural or row.evaluation).entry == 1000  # the rows took it over
    assert panel_scores(s.current.evaluation, s.settings) == panel_scores(row.evaluation, s.settings)


def test_an_edit_while_the_rows_come_is_in_the_rows(qtbot, real):
    w = _window(qtbot)
    s = w.session
    seen = _while_rows_come(w, lambda: w.editing.editor.set_retrieved(np.array([[0, 500]])))
    _open(w, real, ARTICLE)
    wait_loaded(qtbot, s, ARTICLE)
    qtbot.waitUntil(lambda: s.rows_ready() and activity().count == 0, timeout=20_000)
    assert seen[:2] == [False, False]
    row = s.row_of(ARTICLE)
    assert row.evaluation.retrieved.tolist() == [[0, 500]]  # evaluated again with the edit
    assert s.current.name == ARTICLE and s.current.evaluation.retrieved.tolist() == [[0, 500]]
    assert panel_scores(s.current.evaluation, s.settings) == panel_scores(row.evaluation, s.settings)


def test_the_export_menu_builds_the_plots_it_lists(qtbot, real):
    w = _window(qtbot, show=False)
    assert export_module.plots(w, build=False) == []  # nothing built: nothing listed, nothing imported
    w.show()
    names = [name for name, _ in export_module.plots(w)]  # opening the menu: built, then listed
    assert w.plot_slot.built() and w.topic_view.curves_slot.built()
    assert names[0] == "Precision plot" and len(names) == 3
