"""Saved views (.readsim): a view saved from a window reopens identically in a fresh window (on
the sample and on the real data); a view that cannot be read is one message naming the file
and the field, in the window and from the command line, never a traceback."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from readsim.app.background import activity
from readsim.app.main import main
from readsim.app.view_file import PLAIN_VERSION, VERSION, Edit, View, ViewError, read_view, write_view
from readsim.app.view_state import capture, open_docks, open_view_file, save_view
from readsim.core.samples import sample

from helpers.view_file import TOPIC, _good, _idle, _reopen, _window


@pytest.fixture
def empty_window(shared_empty_window):
    """The module's one window with nothing open (``shared_empty_window``), for the tests whose
    view or save the window refuses: nothing is ever opened in it. Here: no error shown yet. The
    tests that open something, or reopen a view as a fresh window does, have windows of their own."""
    assert shared_empty_window.session.run is None and shared_empty_window.session.runs == []
    del shared_empty_window.errors_shown[:]
    return shared_empty_window


def state(window) -> dict:
    """What a view must reproduce, read from the window itself (not from a View)."""
    s = window.session
    editor = window.editing.editor
    edited = {}
    for i in range(editor.stack.index()):
        c = editor.stack.command(i).change
        entry = next((e for e in c.run.topics.get(c.topic, []) if e.article == c.article), None)
        edited[os.path.realpath(c.run.path), c.topic, c.article] = (
            None if entry is None else [tuple(map(int, p)) for p in entry.passages])
    return {
        "runs": [os.path.realpath(r.path) for r in s.runs],
        "run": os.path.realpath(s.run.path),
        "qrels": os.path.realpath(s.qrels.path),
        "collection": os.path.realpath(s.collection.root),
        "topics": os.path.realpath(s.topics_path) if s.topics_path else None,
        "unit": s.unit, "topic": s.topic, "article": s.current.name,
        "settings": s.settings, "step": s.step, "entries": dict(s.entries),
        "edits": edited, "docks": sorted(open_docks(window)),
        "retrieved": s.current.evaluation.retrieved_spans.tolist(),
    }


def test_a_saved_view_reopens_identically_on_the_sample(qtbot, tmp_path):
    s0 = sample()
    w = _window(qtbot)
    s = w.session
    s.open_files(s0.collection, s0.qrels, s0.runs, s0.topics, TOPIC, "900001")
    _idle(qtbot, w, "900001")
    s.set_run(1)  # misses.run
    _idle(qtbot, w)
    s.open_article("900003")
    _idle(qtbot, w, "900003")
    s.set_settings(mode="worst", screen=200, tolerance=600, beta=0.5)
    s.entries[TOPIC, "900002"] = 120  # an entry point set on another article
    # an edit on the open article, one on an article of another run
    assert w.editing.editor.set_retrieved([(836, 1276)], "test")
    other = s.runs[0]
    w.editing.editor.put_passages(other, TOPIC, "900002", None, "test")
    w.passages_dock.show()
    w.editing.dock.show()
    s.set_step(3)
    before = state(w)
    assert before["step"] == 3 and before["article"] == "900003" and before["run"].endswith("misses.run")
    assert before["retrieved"] == [[836, 1276]] and {"outline", "passages", "topic"} <= set(before["docks"])

    path = tmp_path / "lesson" / "mine.readsim"
    path.parent.mkdir()
    save_view(w, path)
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert raw["version"] == PLAIN_VERSION and raw["format"] == "readsim-view"  # no lesson: version 1
    assert not os.path.isabs(raw["files"]["qrels"])  # relative to the view file
    assert Path(os.path.normpath(path.parent / raw["files"]["qrels"])).samefile(s0.qrels)

    w2 = _reopen(qtbot, path)
    assert state(w2) == before
    assert w2.session.settings.screen == 200 and w2.session.settings.mode.value == "worst"


def test_a_view_on_the_real_data_reopens_identically(qtbot, tmp_path, inex):
    w = _window(qtbot)
    s = w.session
    s.open_files(inex / "articles", inex / "qrels" / "inex2009-2010.qrels", [inex / "runs" / "bert-passages.run"],
                 inex / "topics" / "inex2009-topics.xml", "2009074", "23724")
    _idle(qtbot, w, "23724")
    s.set_settings(screen=2000, tolerance=1000)
    s.set_step(1)
    before = state(w)
    assert before["step"] == 1 and before["topic"] == "2009074"
    path = tmp_path / "real.readsim"
    save_view(w, path)
    w2 = _reopen(qtbot, path)
    assert state(w2) == before


def test_paths_are_relative_to_the_view_file(tmp_path):
    """A folder holding the data and the view moves as a whole: the view still opens."""
    src = sample()
    home = tmp_path / "a"
    shutil.copytree(src.collection.parent, home)
    view = View(runs=[home / "runs" / "misses.run"], collection=home / "articles", qrels=home / "sample.qrels",
                topic=TOPIC, article="900004", edits=[Edit(0, TOPIC, "900004", [(0, 40), (100, 120)])])
    write_view(home / "v.readsim", view)
    assert json.loads((home / "v.readsim").read_text())["files"]["runs"] == ["runs/misses.run"]
    home.rename(tmp_path / "b")
    back = read_view(tmp_path / "b" / "v.readsim")
    assert back.runs == [tmp_path / "b" / "runs" / "misses.run"]
    assert back.collection == tmp_path / "b" / "articles" and back.topics is None
    assert back.edits == [Edit(0, TOPIC, "900004", [(0, 40), (100, 120)])]


def _mutate(obj: dict, dotted: str, value) -> dict:
    *parents, last = dotted.split(".")
    node = obj
    for p in parents:
        node = node[p]
    if value is DELETE:
        del node[last]
    else:
        node[last] = value
    return obj


DELETE = object()
# (what is wrong, the field the message names, words of the reason)
CASES = [
    ("files", DELETE, "field files: missing"),
    ("files.runs", [], "field files.runs: must list at least one run file"),
    ("settings.screen", "big", 'field settings.screen: must be a whole number from 1 to 10,000,000, not "big"'),
    ("settings.screen", 0, "field settings.screen: must be a whole number from 1 to 10,000,000, not 0"),
    ("settings.mode", "sideways", "field settings.mode: must be one of natural, worst, best, document, entry"),
    ("step", True, "field step: must be a whole number"),
    ("topic", 2026001, "field topic: must be text, not 2026001"),
    ("files.qrels", "missing.qrels", "field files.qrels: "),
    ("version", 7, f"field version: format version 7 was written by a newer readsim; this one reads version {VERSION}"),
    ("format", "something-else", "field format: must be 'readsim-view'"),
    ("run", 9, "field run: must be a whole number from 0 to 2, not 9"),
    ("edits", [{"run": 0, "topic": TOPIC, "article": "900001", "passages": [[5, 2]]}],
     "field edits[0].passages[0]: must be [start, end] with 0 <= start < end <= 1,099,511,627,776 (offsets in "
     "the unit), not [5, 2]"),
    # the command line's bounds for the same values (--entry, --step), the measure grammar's for alpha and L
    ("edits", [{"run": 0, "topic": TOPIC, "article": "900001", "passages": [[0, 2**63]]}],
     "field edits[0].passages[0]: must be [start, end] with 0 <= start < end <= 1,099,511,627,776"),
    ("entries", [{"topic": TOPIC, "article": "900001", "offset": 2**40 + 1}],
     "field entries[0].offset: must be a whole number from 0 to 1,099,511,627,776, not 1099511627777"),
    ("step", 2**40 + 1, "field step: must be a whole number from 0 to 1,099,511,627,776"),
    ("settings.alpha", 0, "field settings.alpha: must be a number above 0 and at most 1e+06, not 0"),
    ("settings.alpha", 1e7, "field settings.alpha: must be a number above 0 and at most 1e+06, not 10000000.0"),
    ("settings.beta", 0.001, "field settings.beta: must be a number from 0.01 to 10, not 0.001"),
    ("settings.levels", 1001, "field settings.levels: must be a whole number from 1 to 1,000, not 1001"),
    ("settings.tolerance", 10_000_001, "field settings.tolerance: must be a whole number from 1 to 10,000,000"),
    ("docks", [3], "field docks[0]: must be a dock's name, not 3"),
]


@pytest.mark.parametrize("field,value,message", CASES, ids=[c[0] + ":" + str(c[1])[:12] for c in CASES])
def test_a_bad_field_is_named_with_the_file(tmp_path, field, value, message):
    path = tmp_path / "bad.readsim"
    path.write_text(json.dumps(_mutate(_good(tmp_path), field, value)), encoding="utf-8")
    with pytest.raises(ViewError) as err:
        read_view(path)
    assert str(err.value).startswith(f"{path}: {message}")


def test_a_missing_file_is_named_with_the_field(tmp_path):
    path = tmp_path / "bad.readsim"
    path.write_text(json.dumps(_mutate(_good(tmp_path), "files.qrels", "gone.qrels")), encoding="utf-8")
    with pytest.raises(ViewError) as err:
        read_view(path)
    assert str(err.value) == f"{path}: field files.qrels: {tmp_path / 'gone.qrels'}: qrels file not found"


def test_the_good_view_reads(tmp_path):
    path = tmp_path / "good.readsim"
    path.write_text(json.dumps(_good(tmp_path)), encoding="utf-8")
    view = read_view(path)
    assert view.topic == TOPIC and len(view.runs) == 3 and view.settings["tolerance"] == 300  # the default


@pytest.mark.parametrize("text,message", [
    ("{not json", "bad.readsim:1: not JSON (Expecting property name enclosed in double quotes, column 2): not a readsim view"),
    ("[1, 2]", "bad.readsim: a view is a JSON object, not list"),
    ("", "bad.readsim:1: not JSON (Expecting value, column 1): not a readsim view"),
])
def test_not_a_view(tmp_path, text, message):
    path = tmp_path / "bad.readsim"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ViewError) as err:
        read_view(path)
    assert str(err.value).endswith(message)


def test_a_view_is_written_only_over_a_regular_file(tmp_path):
    s = sample()
    folder = tmp_path / "x.readsim"
    folder.mkdir()
    with pytest.raises(IsADirectoryError):
        write_view(folder, View(runs=list(s.runs)))
    assert list(folder.iterdir()) == []


def test_the_command_line_names_file_and_field(tmp_path, capsys):
    bad = tmp_path / "bad.readsim"
    bad.write_text(json.dumps(_mutate(_good(tmp_path), "settings.screen", "big")), encoding="utf-8")
    shot = tmp_path / "x.png"
    assert main([str(bad), "--screenshot", str(shot)]) == 1
    err = capsys.readouterr().err
    assert f"readsim: error: {bad}: field settings.screen: must be a whole number" in err
    assert "Traceback" not in err and not shot.exists()
    assert main([str(tmp_path / "none.readsim"), "--screenshot", str(shot)]) == 1
    assert f"{tmp_path / 'none.readsim'}: view file not found" in capsys.readouterr().err


def test_a_view_with_files_is_a_usage_error(tmp_path, capsys):
    assert main([str(tmp_path / "v.readsim"), "--run", "x.run", "--screenshot", str(tmp_path / "x.png")]) == 2
    assert "give one of a view, --lesson, --sample or files, not a view and files" in capsys.readouterr().err


def test_the_window_tells_a_bad_view(empty_window, tmp_path):
    bad = tmp_path / "bad.readsim"
    bad.write_text(json.dumps(_mutate(_good(tmp_path), "version", 3)), encoding="utf-8")
    w = empty_window
    assert open_view_file(w, bad) is None
    assert w.errors_shown == [f"{bad}: field version: format version 3 was written by a newer readsim; this one "
                              f"reads version {VERSION} and earlier: update readsim to open it"]


def test_saving_without_a_run_is_refused(empty_window):
    w = empty_window
    with pytest.raises(ValueError, match="open a run first"):
        capture(w)


def test_a_screenshot_never_overwrites_what_the_view_reads(tmp_path, capsys):
    s = sample()
    home = tmp_path / "data"
    shutil.copytree(s.collection.parent, home)
    view = home / "v.readsim"
    write_view(view, View(runs=[home / "runs" / "misses.run"], collection=home / "articles", qrels=home / "sample.qrels"))
    before = (home / "sample.qrels").read_bytes()
    for target in (home / "sample.qrels", view):
        assert main([str(view), "--screenshot", str(target)]) == 2  # not .png: a usage error first
    link = tmp_path / "qrels.png"
    link.symlink_to(home / "sample.qrels")  # a .png that is the qrels file
    assert main([str(view), "--screenshot", str(link)]) == 1
    assert "is the qrels file this command reads" in capsys.readouterr().err
    assert (home / "sample.qrels").read_bytes() == before


def test_opening_a_view_asks_about_unsaved_edits(qtbot, tmp_path):
    s0 = sample()
    w = _window(qtbot)
    w.session.open_files(s0.collection, s0.qrels, s0.runs, s0.topics, TOPIC, "900001")
    _idle(qtbot, w, "900001")
    assert w.editing.editor.set_retrieved([(0, 50)], "test")
    path = tmp_path / "v.readsim"
    write_view(path, View(runs=[s0.runs[2]], collection=s0.collection, qrels=s0.qrels, topic=TOPIC, article="900002"))
    from readsim.app.editing import CANCEL, DISCARD

    asked = []
    w.editing.ask_unsaved = lambda: asked.append(1) or CANCEL
    assert open_view_file(w, path) is None  # cancelled: the edits and the article stay
    assert asked == [1] and w.session.current.name == "900001" and not w.editing.editor.stack.isClean()
    w.editing.ask_unsaved = lambda: DISCARD
    restore = open_view_file(w, path)
    qtbot.waitUntil(lambda: restore.done, timeout=60_000)
    assert w.session.current.name == "900002" and w.session.run.path.endswith("whole-articles.run")
    assert [r.path for r in w.session.runs] == [str(s0.runs[2])]


def test_file_menu_saves_a_view_or_tells_why_not(qtbot, tmp_path):
    from readsim.app.view_state import save_view_as

    s0 = sample()
    w = _window(qtbot)
    texts = [a.text() for a in w.menuBar().actions()[0].menu().actions()]
    assert texts.index("Open v&iew…") + 1 == texts.index("Save &view…")
    assert w.act_save_view.shortcut().toString() == "Ctrl+Alt+Shift+S"
    assert not save_view_as(w, str(tmp_path / "empty.readsim"))  # nothing open yet
    assert w.errors_shown[-1] == "Cannot save the view: nothing to save: open a run first"
    w.session.open_files(s0.collection, s0.qrels, s0.runs, s0.topics, TOPIC, "900002")
    _idle(qtbot, w, "900002")
    folder = tmp_path / "taken.readsim"
    folder.mkdir()
    assert not save_view_as(w, str(folder))
    assert w.errors_shown[-1].startswith(f"Cannot save the view to {folder}: Is a directory")
    assert save_view_as(w, str(tmp_path / "ok.readsim"))
    assert read_view(tmp_path / "ok.readsim").article == "900002"


def test_readsim_view_renders(tmp_path, capsys):
    s0 = sample()
    view = tmp_path / "v.readsim"
    write_view(view, View(runs=list(s0.runs), collection=s0.collection, qrels=s0.qrels, topics=s0.topics, run=2,
                          topic=TOPIC, article="900003", step=1, docks=["passages"],
                          settings={"mode": "worst", "screen": 500, "tolerance": 300, "alpha": 1.0, "beta": 0.25,
                                    "levels": 4}))
    out = tmp_path / "v.png"
    assert main([str(view), "--screenshot", str(out)]) == 0, capsys.readouterr().err
    from PySide6.QtGui import QImage

    img = QImage(str(out))
    assert not img.isNull() and img.width() >= 1000
    from helpers.gui import keep_shot

    keep_shot(out)


def test_a_dropped_view_opens(qtbot, tmp_path):
    s0 = sample()
    path = tmp_path / "drop.readsim"
    write_view(path, View(runs=[s0.runs[1]], collection=s0.collection, qrels=s0.qrels, topic=TOPIC, article="900002"))
    w = _window(qtbot)
    w.open_paths([str(path)])
    qtbot.waitUntil(lambda: w.view_restore is not None and w.view_restore.done, timeout=60_000)
    assert w.session.current.name == "900002" and w.session.run.path.endswith("misses.run")


def test_a_fifo_a_folder_or_binary_data_is_no_view(tmp_path):
    fifo = tmp_path / "pipe.readsim"
    os.mkfifo(fifo)  # never opened: reading it would wait for a writer
    folder = tmp_path / "dir.readsim"
    folder.mkdir()
    binary = tmp_path / "bin.readsim"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    expected = {fifo: "not a regular file, not a view file", folder: "is a folder, not a view file",
                binary: "not UTF-8 text (byte 0): not a readsim view"}
    for path, reason in expected.items():
        with pytest.raises(ViewError) as err:
            read_view(path)
        assert str(err.value) == f"{path}: {reason}"


def test_every_dock_of_the_window_is_recorded_and_reopened(qtbot, tmp_path):
    """Generic: whichever docks the window has (by objectName), open ones reopen open and the
    others closed."""
    from readsim.app.view_state import NOT_RECORDED, docks

    s0 = sample()
    w = _window(qtbot)
    w.session.open_files(s0.collection, s0.qrels, s0.runs, s0.topics, TOPIC, "900001")
    _idle(qtbot, w, "900001")
    names = sorted(d.objectName() for d in docks(w) if d.objectName() not in NOT_RECORDED)
    assert {"log", "outline", "passages", "strategies", "topic"} <= set(names)
    for d in docks(w):
        d.setVisible(d.objectName() not in NOT_RECORDED)
    qtbot.waitUntil(lambda: activity().count == 0, timeout=60_000)
    path = tmp_path / "all.readsim"
    save_view(w, path)
    assert sorted(read_view(path).docks) == names
    w2 = _reopen(qtbot, path)
    assert sorted(open_docks(w2)) == names
    for d in docks(w):
        d.setVisible(d.objectName() == "outline")
    save_view(w, path)
    restore = open_view_file(w2, path)  # the same window: the others close
    qtbot.waitUntil(lambda: restore.done, timeout=60_000)
    assert open_docks(w2) == ["outline"]


# JSON that Python's json module turns into another exception (RecursionError, the int-digits
# ValueError) or into text no file name holds: each is FILE: field NAME: reason, exit 1
def _raw_view(tmp_path, replace: tuple[str, str]) -> Path:
    text = json.dumps(_good(tmp_path))
    assert replace[0] in text
    path = tmp_path / "bad.readsim"
    path.write_text(text.replace(*replace, 1), encoding="utf-8")
    return path


DEEP = ": arrays or objects nested more than 32 deep: not a readsim view"
HOSTILE_JSON = [  # (text replaced, by, the message's start)
    ('"step": 0', '"step": ' + "[" * 100_000 + "]" * 100_000, "field step[0][0][0][0]"),  # the name is cut at 60
    ('"step": 0', '"step": 0, "junk": {"a": ' + "{\"b\": " * 40 + "1" + "}" * 41, "field junk.a.b.b."),
    ('"step": 0', '"step": ' + "9" * 5000, "field step: a whole number of 5,000 digits, past every range of a view"),
    ('"screen": 300', '"screen": 300, "junk": -' + "1" * 5000,
     "field settings.junk: a whole number of 5,000 digits, past every range of a view"),
    ('sample.qrels"', 'sample\\ud800.qrels"',
     "field files.qrels: not text: a lone UTF-16 surrogate (\\ud800)"),
    ('"topic": "2026001"', '"topic": "2026001\\udfff"', "field topic: not text: a lone UTF-16 surrogate (\\udfff)"),
    ('"step": 0', '"step": 0, "\\udc80": 1', "field \\udc80: a field name with a lone UTF-16 surrogate"),
]


@pytest.mark.parametrize("replace,message", [((a, b), m) for a, b, m in HOSTILE_JSON],
                         ids=["deep-array", "deep-object", "digits", "digits-unknown-field", "surrogate-path",
                              "surrogate-topic", "surrogate-key"])
def test_hostile_json_is_named_with_file_and_field(tmp_path, replace, message):
    path = _raw_view(tmp_path, replace)
    with pytest.raises(ViewError) as err:
        read_view(path)
    assert str(err.value).startswith(f"{path}: {message}")
    assert str(err.value).endswith(DEEP) == ("[0][0]" in message or "junk.a.b" in message)


def test_deep_nesting_is_refused_past_32_levels_only(tmp_path):
    """A view is 4 deep (edits[i].passages[k]); 32 levels are read, 33 are not."""
    for depth, ok in ((31, True), (32, False)):
        path = _raw_view(tmp_path, ('"step": 0', '"step": 0, "junk": ' + "[" * depth + "]" * depth))
        if ok:
            read_view(path)
        else:
            with pytest.raises(ViewError, match=r"field junk\[0\]\[0\].*: arrays or objects nested more than 32"):
                read_view(path)


def test_the_command_line_tells_hostile_json_in_one_line(tmp_path, capsys):
    shot = tmp_path / "x.png"
    for replace in (('"step": 0', '"step": ' + "[" * 100_000 + "]" * 100_000), ('"step": 0', '"step": ' + "9" * 5000),
                    ('sample.qrels"', 'sample\\ud800.qrels"')):
        path = _raw_view(tmp_path, replace)
        assert main([str(path), "--screenshot", str(shot)]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"readsim: error: {path}: field ") and err.count("\n") == 1, err
        assert not shot.exists()


def test_the_window_tells_hostile_json_in_a_message(empty_window, tmp_path):
    path = _raw_view(tmp_path, ('"step": 0', '"step": ' + "9" * 5000))
    w = empty_window
    assert open_view_file(w, path) is None
    assert w.errors_shown == [f"{path}: field step: a whole number of 5,000 digits, past every range of a view"]


def test_an_entry_point_past_the_article_is_its_end(tmp_path, capsys):
    """2^31 is within the command line's bound for --entry (2^40) but past any article and past
    a Qt spin box's 32 bits: held to the article's end, as --entry and Alt+click are."""
    obj = _good(tmp_path)
    obj["settings"]["mode"] = "entry"
    obj["entries"] = [{"topic": TOPIC, "article": "900001", "offset": 2**31}]
    path = tmp_path / "far.readsim"
    path.write_text(json.dumps(obj), encoding="utf-8")
    shot = tmp_path / "far.png"
    assert main([str(path), "--screenshot", str(shot)]) == 0, capsys.readouterr().err
    assert shot.is_file()


def test_a_failing_restore_stage_ends_the_restore(qtbot, tmp_path):
    """A bug in one stage of a view's restore (here: an edit the editor cannot take) does not
    leave the restore unfinished (--screenshot would wait 120 s for it): it finishes, and the
    error goes on to the exception hook."""
    from readsim.app.view_state import restore

    w = _window(qtbot)
    view = View(runs=list(sample().runs), collection=sample().collection, qrels=sample().qrels, topic=TOPIC,
                article="900001", edits=[Edit(0, TOPIC, "900001", [(0, 2**63)])])  # past int64: not from a file
    with qtbot.captureExceptions() as raised:
        r = restore(w, view)
        qtbot.waitUntil(lambda: r.done, timeout=60_000)
    assert [type(e[1]) for e in raised] == [OverflowError]
