"""Options given on the command line with a view (``readsim VIEW.readsim --topic T --reading
worst``, or ``--lesson NAME``) win over the view's own values (reference section 9.2): the rest of
the view is restored. Tested through ``readsim``'s argument path (:func:`readsim.app.main.main`
with ``--screenshot``), reading the window's state just before it is rendered."""

from __future__ import annotations

import pytest

from readsim.app import main as main_mod
from readsim.app.view_file import View, write_view
from readsim.core.samples import sample

VIEW_SETTINGS = {"mode": "worst", "screen": 500, "tolerance": 300, "alpha": 1.0, "beta": 0.25, "levels": 4}


@pytest.fixture
def shown(monkeypatch):
    """The window's state as ``main`` is about to render it (``screenshot`` wrapped)."""
    seen: dict = {}
    original = main_mod.screenshot

    def spy(app, window, args, interrupt):
        code = original(app, window, args, interrupt)
        s = window.session
        seen.update(topic=s.topic, article=s.current.name if s.current is not None else None, unit=s.unit,
                    mode=s.settings.mode.value, screen=s.settings.screen, tolerance=s.settings.tolerance,
                    beta=s.settings.beta, step=s.step, entries=dict(s.entries),
                    docks=sorted(d for d in ("passages", "topic") if not getattr(window, f"{d}_dock").isHidden()))
        return code

    monkeypatch.setattr(main_mod, "screenshot", spy)
    return seen


def _sample_view(tmp_path, **kw):
    s0 = sample()
    view = tmp_path / "v.readsim"
    fields = dict(runs=list(s0.runs), collection=s0.collection, qrels=s0.qrels, topics=s0.topics, run=0,
                  topic="2026001", article="900003", step=1, docks=["passages", "topic"], settings=dict(VIEW_SETTINGS))
    write_view(view, View(**{**fields, **kw}))
    return view


def _run(capsys, *argv) -> None:
    code = main_mod.main([str(a) for a in argv])
    assert code == 0, capsys.readouterr().err


def test_without_options_the_view_is_restored(tmp_path, capsys, shown):
    view = _sample_view(tmp_path)
    _run(capsys, view, "--screenshot", tmp_path / "x.png")
    assert (shown["topic"], shown["article"], shown["mode"], shown["screen"], shown["step"]) == (
        "2026001", "900003", "worst", 500, 1)


def test_reader_options_win_over_the_view(tmp_path, capsys, shown):
    view = _sample_view(tmp_path)
    _run(capsys, view, "--reading", "best", "--screen", "200", "--tolerance", "700", "--beta", "0.5",
         "--screenshot", tmp_path / "x.png")
    assert (shown["mode"], shown["screen"], shown["tolerance"], shown["beta"]) == ("best", 200, 700, 0.5)
    # the rest is the view's: its topic, article, step and docks
    assert (shown["topic"], shown["article"], shown["step"], shown["docks"]) == ("2026001", "900003", 1,
                                                                                 ["passages", "topic"])


def test_an_explicit_default_value_still_wins(tmp_path, capsys, shown):
    view = _sample_view(tmp_path)  # screen 500 in the view; 300 is the option's default
    _run(capsys, view, "--screen", "300", "--screenshot", tmp_path / "x.png")
    assert shown["screen"] == 300 and shown["mode"] == "worst"


def test_article_option_wins_and_starts_at_its_first_screen(tmp_path, capsys, shown):
    view = _sample_view(tmp_path)
    _run(capsys, view, "--article", "900002", "--screenshot", tmp_path / "x.png")
    assert (shown["topic"], shown["article"], shown["step"]) == ("2026001", "900002", 0)  # the view's step was 900003's
    assert shown["mode"] == "worst" and shown["screen"] == 500


def test_entry_option_wins_and_implies_the_entry_reading(tmp_path, capsys, shown):
    view = _sample_view(tmp_path, entries={("2026001", "900003"): 40})
    _run(capsys, view, "--entry", "120", "--screenshot", tmp_path / "x.png")
    assert shown["mode"] == "entry" and shown["entries"][("2026001", "900003")] == 120


def test_unit_option_that_differs_from_the_view_is_a_usage_error(tmp_path, capsys):
    view = _sample_view(tmp_path)  # offsets in bytes
    assert main_mod.main([str(view), "--unit", "chars", "--screenshot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert f"--unit chars: the view {view} has its offsets in bytes" in err and "Traceback" not in err
    assert not (tmp_path / "x.png").exists()


def test_topic_option_wins_on_the_real_data(inex, tmp_path, capsys, shown):
    view = tmp_path / "real.readsim"
    write_view(view, View(runs=[inex / "runs" / "bert-passages.run"], collection=inex / "articles",
                          qrels=inex / "qrels" / "inex2009-2010.qrels", topics=inex / "topics" / "inex2009-topics.xml",
                          topic="2009001", article=None, step=2, settings=dict(VIEW_SETTINGS), docks=["topic"]))
    _run(capsys, view, "--topic", "2009074", "--article", "23724", "--reading", "natural", "--screenshot",
         tmp_path / "x.png")
    assert (shown["topic"], shown["article"], shown["mode"], shown["screen"], shown["step"]) == (
        "2009074", "23724", "natural", 500, 0)


def test_options_win_over_a_lesson_s_view(tmp_path, capsys, shown):
    from readsim.app.lessons import find
    from readsim.app.view_file import read_view

    own = read_view(find("screen-size").view)
    screen = 1234 if own.settings["screen"] != 1234 else 4321
    _run(capsys, "--lesson", "screen-size", "--screen", screen, "--reading", "best", "--screenshot", tmp_path / "x.png")
    assert (shown["screen"], shown["mode"]) == (screen, "best")
    assert (shown["topic"], shown["article"]) == (own.topic, own.article)  # the rest is the lesson's
