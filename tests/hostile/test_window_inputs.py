"""Every input file type through the window's loading path, each spoiled the same ways: a
byte-order mark, CRLF line ends, a control character, cut short, empty, missing, a folder in
place of the file. The window's verdict must be readsim-eval's where both read the file.

Each row starts from a window showing the shipped sample (its qrels, its good run, its topics and
its collection; dialogs on), opens the row's file from the File menu (Open run, qrels, topics or
collection folder; the file chooser answers with the row's path) and checks:

- ``SAME``: the window takes the file (the session holds it: its path) and shows the same
  ranked list (every cell) and topic title as for the clean file; readsim-eval prints the same
  numbers for it as for the clean file;
- ``WARNING``: the window takes it and says ``expect`` in its log; readsim-eval exits 0;
- ``ERROR``: the window's message box holds exactly readsim-eval's message
  (``path:line: reason``; ``path: reason`` for a whole-file problem), naming the row's line,
  and the window keeps what it had (an XPath naming no element is found only when the topic is
  evaluated: the run is taken, its ranked list stays empty); for the kinds readsim-eval does not read (topics, an
  article) the message is the engine reader's, which both the window and readsim-eval's
  ``--collection`` use.

The kinds: qrels, a FOL run (8 fields), a whole-article run (6 fields), an XPath run (7 fields),
an XML run (INEX 2006-2008), a Best in Context run (one entry point per article, length 0), a
topics file in the INEX format and in the Indri query format, an article of the collection (the
one the window shows, its rank 1, once the collection folder holding it is opened) and the
collection folder itself.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from helpers.gui import assert_answers

from readsim.app.background import activity
from readsim.app.mainwindow import MainWindow
from readsim import cli
from readsim.core.collection import Collection
from readsim.core.errors import InputError
from readsim.core.formats import read_topics
from readsim.core.samples import sample

from helpers.hostile_window import open_via

from .cases import ERROR, SAME, WARNING, Case


@pytest.fixture
def window(sample_window_shared):
    """The module's window with dialogs on, showing the sample's qrels, good run and collection
    again for each row (conftest.py): a row reads errors and warnings only past its start."""
    return sample_window_shared


BOM = b"\xef\xbb\xbf"
TOPIC = "2026001"
GOOD_RUN = sample().runs[0].read_bytes() if sample().runs else b""

# -- the clean file of each kind (small, on the sample's articles) -----------------------------
CLEAN = {
    "qrels": ("sample.qrels", sample().qrels.read_bytes()),
    "fol-run": ("fol.run", b"2026001 Q0 900001 1 1.0 fol 1351 1520\n2026001 Q0 900003 2 0.9 fol 834 443\n"
                           b"2026001 Q0 900002 3 0.8 fol 769 446\n"),
    "six-run": ("six.run", b"2026001 Q0 900001 1 1.0 six\n2026001 Q0 900003 2 0.9 six\n2026001 Q0 900002 3 0.8 six\n"),
    "xpath-run": ("xpath.run", b"2026001 Q0 900001 1 1.0 xp /article[1]/bdy[1]\n"
                               b"2026001 Q0 900003 2 0.9 xp /article[1]/header[1]/title[1]\n"),
    "xml-run": ("run.xml", b'<?xml version="1.0" encoding="UTF-8"?>\n'
                           b'<inex-submission participant-id="1" run-id="xmlrun" task="RelevantInContext">\n'
                           b'<topic topic-id="2026001">\n'
                           b'<result><file>900001</file><rsv>1.0</rsv><fol offset="1351" length="1520"/></result>\n'
                           b'<result><file>900003</file><rsv>0.9</rsv><fol offset="834" length="443"/></result>\n'
                           b'</topic>\n</inex-submission>\n'),
    "bic-run": ("bic.run", b"2026001 Q0 900001 1 1.0 bic 1374 0\n2026001 Q0 900003 2 0.9 bic 836 0\n"
                           b"2026001 Q0 900002 3 0.8 bic 1025 0\n"),
    "topics": ("topics.xml", sample().topics.read_bytes()),
    "indri-topics": ("topics.indri.xml", b"<parameters>\n<query>\n<number>2026001</number>\n"
                                         b"<text>#combine( lighthouse lens )</text>\n</query>\n</parameters>\n"),
    "article": ("900001.xml", (sample().collection / "900001.xml").read_bytes()),
}
RUN_KINDS = ("fol-run", "six-run", "xpath-run", "xml-run", "bic-run")
WINDOW_KIND = {"qrels": "qrels", "topics": "topics", "indri-topics": "topics", "article": "collection",
               "collection": "collection", **{k: "run" for k in RUN_KINDS}}


# -- how a clean file is spoiled ----------------------------------------------------------------
def bom(clean: bytes) -> bytes:
    return BOM + clean


def crlf(clean: bytes) -> bytes:
    return clean.replace(b"\n", b"\r\n")


def control_in_line2(clean: bytes) -> bytes:
    """A vertical tab (U+000B) after the first space of line 2 (after its first tag in XML)."""
    lines = clean.split(b"\n")
    i = 1
    lines[i] = lines[i].replace(b" ", b" \x0b", 1) if b" " in lines[i] else lines[i] + b"\x0b"
    return b"\n".join(lines)


def cut(clean: bytes) -> bytes:
    """Cut in the middle of its second line (a run or qrels line half written, XML unclosed)."""
    second = clean.index(b"\n") + 1
    return clean[:second + (clean.index(b"\n", second) - second) // 2]


def empty(_clean: bytes) -> bytes:
    return b""


def row(kind: str, how: str, outcome: str, expect: str = "", line: int | None = None) -> Case:
    what = {"bom": "a UTF-8 byte-order mark", "crlf": "CRLF line ends", "control": "a vertical tab in line 2",
            "cut": "cut short in line 2", "empty": "an empty file", "missing": "a path that does not exist",
            "folder": "a folder in place of the file"}[how]
    return Case(f"{kind}-{how}", f"{kind}: {what}", outcome, expect, {"kind": kind, "how": how, "line": line})


MISSING = {"qrels": "qrels file not found", "topics": "topics file not found", "indri-topics": "topics file not found",
           **{k: "run file not found" for k in RUN_KINDS}}
FOLDER = {"qrels": "is a folder, not a qrels file", "topics": "is a folder, not a topics file",
          "indri-topics": "is a folder, not a topics file", **{k: "is a folder, not a run file" for k in RUN_KINDS}}

CASES = [
    # qrels
    row("qrels", "bom", SAME), row("qrels", "crlf", SAME),
    row("qrels", "control", ERROR, "control character U+000B", 2),
    row("qrels", "cut", ERROR, "", 2),
    row("qrels", "empty", WARNING, "no judgement (the qrels file is empty)"),
    row("qrels", "missing", ERROR, MISSING["qrels"]), row("qrels", "folder", ERROR, FOLDER["qrels"]),
    # runs
    *[r for k in RUN_KINDS for r in (
        row(k, "bom", SAME), row(k, "crlf", SAME),
        row(k, "control", ERROR, "U+000B" if k != "xml-run" else "", 2),
        # a line half written; in XML, an unclosed tag; an XPath cut to "/" reads as a line, and
        # naming no element it stops the topic's evaluation (the run is taken, no number shown)
        row(k, "cut", ERROR, "has no element /" if k == "xpath-run" else "", 2),
        # an empty file, even named *.xml, is an empty run (nothing says it is XML)
        row(k, "empty", WARNING, "no result line (the run is empty)"),
        row(k, "missing", ERROR, MISSING[k]), row(k, "folder", ERROR, FOLDER[k]))],
    # topics, both formats
    *[r for k in ("topics", "indri-topics") for r in (
        row(k, "bom", SAME), row(k, "crlf", SAME), row(k, "control", ERROR, "not well-formed XML", 2),
        row(k, "cut", ERROR, "not well-formed XML", 2), row(k, "empty", ERROR, "empty file, not XML", 1),
        row(k, "missing", ERROR, MISSING[k]), row(k, "folder", ERROR, FOLDER[k]))],
    # an article of the collection: the one the window shows once the collection is opened
    row("article", "bom", SAME), row("article", "crlf", SAME),
    row("article", "control", ERROR, "invalid xmlChar value 11", 2),
    row("article", "cut", ERROR, "not well-formed XML", 2), row("article", "empty", ERROR, "empty file", 1),
    row("article", "missing", WARNING, "(first: 900001) is not in the collection"),
    row("article", "folder", ERROR, "is a folder"),
    # the collection folder
    Case("collection-missing", "collection: a folder that does not exist", ERROR, "collection folder not found",
         {"kind": "collection", "how": "missing", "line": None}),
    Case("collection-file", "collection: a file in place of the folder", ERROR, "not a folder",
         {"kind": "collection", "how": "file", "line": None}),
    Case("collection-empty", "collection: a folder without any article", WARNING,
         "no article (no .xml, .txt, .md or .html file) in the collection folder", {"kind": "collection", "how": "empty", "line": None}),
]
SPOIL = {"bom": bom, "crlf": crlf, "control": control_in_line2, "cut": cut, "empty": empty}


# -- building the row's file ----------------------------------------------------------------------
def make(kind: str, how: str, folder: Path) -> Path:
    """The row's input in ``folder``: a file (or, for an article, a collection folder holding the
    sample's other articles and the spoiled one; for the collection, the folder itself)."""
    if kind == "collection":
        path = folder / "coll"
        if how == "file":
            path.write_text("not a folder\n")
        elif how == "empty":
            path.mkdir()
            (path / "README.csv").write_text("the articles were not copied\n")
        return path
    name, clean = CLEAN[kind]
    target = folder / name
    if kind == "article":
        coll = folder / "articles"
        shutil.copytree(sample().collection, coll)
        target = coll / name
        target.unlink()
        if how != "missing":
            _spoil(target, how, clean)
        return coll
    if how != "missing":
        _spoil(target, how, clean)
    return target


def _spoil(target: Path, how: str, clean: bytes) -> None:
    if how == "folder":
        target.mkdir()
    else:
        target.write_bytes(clean if how == "clean" else SPOIL[how](clean))


def article_file(kind: str, path: Path) -> Path:
    return path / CLEAN["article"][0] if kind == "article" else path


# -- readsim-eval's verdict ------------------------------------------------------------------------
def evaluate(qrels: Path, run: Path, collection: Path | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    argv = [str(qrels), str(run), "-q", "-m", "AgP/F(0.25)", "-m", "AgP/BEP(500)", "-m", "MAP"]
    if collection is not None:
        argv += ["--collection", str(collection)]
    code = cli.main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


def cli_verdict(kind: str, path: Path, tmp: Path) -> tuple[int, str, str] | None:
    """readsim-eval on the row's file: qrels with the sample's good run, a run with the sample's
    qrels (an XPath run with the sample's collection: its XPaths need the articles); None for
    what readsim-eval does not read (topics, an article, a collection folder)."""
    s = sample()
    if kind == "qrels":
        good = tmp / "good.run"
        good.write_bytes(GOOD_RUN)
        return evaluate(path, good)
    if kind in RUN_KINDS:
        return evaluate(s.qrels, path, s.collection if kind == "xpath-run" else None)
    return None


def reader_error(kind: str, path: Path) -> str | None:
    """The engine reader's message for a topics file or an article (what the window calls)."""
    try:
        if kind in ("topics", "indri-topics"):
            read_topics(path)
        elif kind == "article":
            Collection(path).article(CLEAN["article"][0][:-4])
    except InputError as exc:
        return str(exc)
    return None


# -- the window ------------------------------------------------------------------------------------
def cells(w: MainWindow) -> list[list[str]]:
    m = w.model
    return [[m.data(m.index(i, c)) for c in range(m.columnCount())] for i in range(m.rowCount())]


def load(qtbot, w: MainWindow, kind: str, path: Path, monkeypatch) -> None:
    """File > Open run / qrels / topics / collection folder, the file chooser answering ``path``;
    then wait for every load and evaluation (for an article: the new collection's article 900001
    is the one shown, read from it)."""
    menu = Case("menu", "File > Open", ERROR, data={"via": "menu", "kind": WINDOW_KIND[kind]})  # only data is read
    open_via(w, menu, path, monkeypatch, path.parent)
    qtbot.waitUntil(lambda: activity().count == 0 and not w.session.loading_article(), timeout=30_000)


def shown_state(w: MainWindow) -> tuple:
    s = w.session
    text = s.current.article.text if s.current is not None and s.current.article is not None else None
    return cells(w), s.topic_title(TOPIC), s.current.name if s.current is not None else None, text


def held_path(w: MainWindow, kind: str):
    s = w.session
    return {"qrels": lambda: s.qrels.path, "topics": lambda: None, "indri-topics": lambda: None,
            "article": lambda: s.collection.root, "collection": lambda: s.collection.root}.get(
        kind, lambda: s.run.path)()


@pytest.mark.parametrize("case", CASES, ids=Case.name)
def test_window_reads_every_input_as_readsim_eval(case: Case, window, qtbot, tmp_path, monkeypatch):
    kind, how = case.data["kind"], case.data["how"]
    spoiled = make(kind, how, tmp_path)
    errors_before = len(window.errors_shown)
    if case.outcome == SAME:
        clean_dir = tmp_path / "clean"
        clean_dir.mkdir()
        clean = make(kind, "clean", clean_dir)
        load(qtbot, window, kind, clean, monkeypatch)
        assert window.errors_shown[errors_before:] == []
        want, topics = shown_state(window), window.session.topics
        load(qtbot, window, kind, spoiled, monkeypatch)
        assert window.errors_shown[errors_before:] == [], window.errors_shown
        if held_path(window, kind) is not None:
            assert Path(held_path(window, kind)) == spoiled  # the window took the spoiled file
        assert shown_state(window) == want
        assert want[0] and want[1]  # a ranked list and the topic's title were shown
        if kind in ("topics", "indri-topics"):  # read again, with the same title
            assert window.session.topics is not topics and want[1] == "lighthouse lens"
        verdict = cli_verdict(kind, spoiled, tmp_path)
        if verdict is not None:
            code, out, err = verdict
            assert code == 0 and "error" not in err, err
            assert (code, out) == cli_verdict(kind, clean, tmp_path)[:2]
        return
    before = (window.session.run, window.session.qrels, window.session.collection, window.session.topics)
    load(qtbot, window, kind, spoiled, monkeypatch)
    if case.outcome == WARNING:
        qtbot.waitUntil(lambda: case.expect in window.warnings_text(), timeout=10_000)
        assert window.errors_shown[errors_before:] == [] and window.error_box is None
        verdict = cli_verdict(kind, spoiled, tmp_path)
        if verdict is not None:
            assert verdict[0] == 0 and "warning" in verdict[2], verdict
        assert_answers(qtbot)
        return
    assert case.outcome == ERROR
    qtbot.waitUntil(lambda: window.error_box is not None and window.error_box.isVisible(), timeout=10_000)
    shown = window.errors_shown[errors_before:]
    assert len(shown) == 1, shown
    message = shown[0]
    verdict = cli_verdict(kind, spoiled, tmp_path)
    if verdict is not None:
        code, _, err = verdict
        assert code == 1 and err == f"readsim-eval: {message}\n", (err, message)  # the same words
    elif kind in ("topics", "indri-topics", "article") and how not in ("missing", "folder"):
        assert message == reader_error(kind, spoiled)
    where = article_file(kind, spoiled)
    line = case.data["line"]
    assert message.startswith(f"{where}:{line}: " if line else f"{where}: "), message
    assert case.expect in message
    assert message in window.error_box.text() and "Traceback" not in window.error_box.text()
    if kind == "xpath-run" and how == "cut":  # found while evaluating: no row, no number, shown
        assert window.session.run.path == str(spoiled) and window.model.rowCount() == 0
    elif kind != "article":  # the window keeps what it had
        assert (window.session.run, window.session.qrels, window.session.collection,
                window.session.topics) == before
    else:
        assert window.session.current.name != CLEAN["article"][0][:-4]  # the article was not shown
    assert_answers(qtbot)
