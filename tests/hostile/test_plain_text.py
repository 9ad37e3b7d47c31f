"""Text from input files reaches the screen as plain text, never HTML (docs/reference.md §10).

Each row puts markup into one input (a topic's title, an article's title, a run id, an article id,
a file's path, an XPath, the path of an error) and opens the window on it, with every view that
shows it: the ranked list, the topic chooser and line, the status bar, the article header, the
topic view (its list plots and the loss panel), the A/B compare dock, the passages and strategies
docks, the Runs window (View > Compare all runs) and element mode. It checks, for the row's
``places``, that the literal text is what is shown (a label's text in its format, a tooltip, a
table cell, a plot's title, label or marker), and everywhere that:

- no label guesses its format (``Qt.AutoText``): each is plain, or rich with its values escaped;
- no rich text on screen holds the row's markup unescaped;
- nothing on screen asked for a resource (an ``<img>``): the FIFO the markup names is never
  opened (a watchdog opens its writing end once a reader waits, so a mistake fails the row
  instead of hanging the window), and ``/dev/zero`` is never read.

The rows share one window (:func:`window`; building one cost most of a row's time): before
each row it shows the shipped sample again, its message boxes and Runs window closed, and holds
none of the rows' markup anywhere (checked), so what a row finds on screen is its own.

The outcome of every row is ``SAME``: the window works as with the clean input, and shows the
text as written. The hang guard is the waits' 20 s timeout against a load of well under 1 s on
the sample (more than 10x).
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import threading
from pathlib import Path

import pyqtgraph as pg
import pytest
from lxml import etree
from PySide6.QtCore import QAbstractListModel, Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QAbstractItemView, QComboBox, QLabel, QMessageBox, QPlainTextEdit, QWidget

from readsim.app.background import activity
from readsim.app.export import export_ranked_list, export_widget
from readsim.app.mainwindow import MainWindow
from readsim.core.samples import sample

from .cases import SAME, Case

WAIT_MS = 20_000  # a hang guard: the sample loads in well under a second here
BOLD = "<b>bold</b>"
ZERO = '<img src="/dev/zero">'
FIFO = '<img src="{fifo}">'  # the FIFO made in the test's folder
AMP = "a &amp; b &lt;i&gt; c"
FIELD = "&amp;<u>x<i>y"  # markup without white space or slash: a run's field, a file's name

# where each source's text must be seen (see PLACES)
TOPIC_PLACES = ("topic line", "topic chooser", "topic view")
ARTICLE_PLACES = ("ranked list", "article header", "loss panel", "compare", "elements")
RUN_ID_PLACES = ("run chooser", "topic view", "compare", "runs window", "export")
FILE_NAME_PLACES = ("run chooser", "topic view", "passages", "runs window")
ARTICLE_ID_PLACES = ("ranked list", "loss panel", "plots", "status bar")
PATH_PLACES = ("run chooser", "compare", "runs window")
ERROR_PLACES = ("error box", "status bar")


def _case(source: str, text: str, places: tuple[str, ...], what: str) -> Case:
    name = {BOLD: "bold", ZERO: "dev-zero", FIFO: "fifo", AMP: "entities", FIELD: "field"}[text]
    return Case(f"{source}-{name}", what.format(text=text), SAME, text, {"source": source, "places": places})


CASES = [
    *(_case("topic-title", t, TOPIC_PLACES, "a topic whose title and description are {text}")
      for t in (BOLD, ZERO, FIFO, AMP)),
    *(_case("article-title", t, ARTICLE_PLACES, "an article whose <title> is {text} (escaped in its XML)")
      for t in (BOLD, ZERO, FIFO, AMP)),
    _case("run-id", FIELD, RUN_ID_PLACES, "a run whose run id is {text}"),
    _case("run-id", BOLD, RUN_ID_PLACES, "a run whose run id is {text}"),
    _case("run-file-name", FIELD, FILE_NAME_PLACES, "a run file named {text}.run"),
    _case("article-id", FIELD, ARTICLE_ID_PLACES, "a run ranking an article whose id is {text} (not in the collection)"),
    *(_case("run-path", t, PATH_PLACES, "a run file in a folder whose path holds {text}") for t in (BOLD, ZERO, FIFO)),
    *(_case("missing-path", t, ERROR_PLACES, "a missing run file whose path holds {text}: the error names it")
      for t in (BOLD, ZERO, FIFO, AMP)),
    _case("xpath", FIELD, ("log",), "a run line whose XPath holds {text}: the warning names it"),
]


# -- the inputs --------------------------------------------------------------------------------
def _topics(tmp: Path, text: str) -> Path:
    tree = etree.parse(str(sample().topics), etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=False))
    for tag in ("title", "description"):
        tree.find(f".//topic/{tag}").text = text
    out = tmp / "topics.xml"
    tree.write(str(out), encoding="UTF-8", xml_declaration=True)
    return out


def _collection(tmp: Path, title: str | None) -> Path:
    """The sample's articles, 900001's title replaced by ``title`` (escaped as XML text)."""
    out = tmp / "articles"
    shutil.copytree(sample().collection, out)
    if title is not None:
        path = out / "900001.xml"
        data = path.read_text(encoding="utf-8")
        escaped = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        path.write_text(data.replace("<title>Fresnel lens</title>", f"<title>{escaped}</title>", 1), encoding="utf-8")
    return out


def _run(tmp: Path, run_id: str = "hostile", article: str = "900001", xpath: str | None = None,
         folder: str | None = None, name: str = "hostile") -> Path:
    tail = xpath if xpath is not None else "1351 1520"
    lines = [f"2026001 Q0 {article} 1 1.0 {run_id} {tail}",
             f"2026001 Q0 900003 2 0.9 {run_id} 834 443", f"2026001 Q0 900002 3 0.8 {run_id} 769 446"]
    where = tmp if folder is None else Path(f"{tmp}/{folder}")
    where.mkdir(parents=True, exist_ok=True)
    out = where / f"{name}.run"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


# -- what is on screen -------------------------------------------------------------------------
class _Recording(QTextDocument):
    """Renders HTML as Qt does, recording (never loading) every resource it asks for."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def loadResource(self, kind, url):
        self.asked.append(url.toString())
        return None


class Screen:
    """Every text shown under some widgets: (raw, rich, shown) triples; resources asked for."""

    def __init__(self) -> None:
        self.items: list[tuple[str, bool, str]] = []
        self.where: list[object] = []  # what showed each item (a widget), for the messages
        self.asked: list[str] = []

    def add(self, raw, fmt=Qt.TextFormat.AutoText, where: object = None) -> None:
        raw = "" if raw is None else str(raw)
        if not raw:
            return
        rich = fmt == Qt.TextFormat.RichText or (fmt == Qt.TextFormat.AutoText and GuiQt.mightBeRichText(raw))
        if rich:
            doc = _Recording()
            doc.setHtml(raw)
            self.asked += doc.asked
            self.items.append((raw, True, doc.toPlainText().replace("\u00a0", " ")))
        else:
            self.items.append((raw, False, raw))
        self.where.append(where)

    def shows(self, text: str) -> bool:
        return any(text in shown for _, _, shown in self.items)


def _walk(root, screen: Screen, labels: list[QLabel]) -> None:
    """Add every label, tooltip, item view cell, combo item and plot text under ``root``."""
    widgets = [root, *root.findChildren(QWidget)] if isinstance(root, QWidget) else []
    for w in widgets:
        screen.add(w.toolTip(), where=w)
        if isinstance(w, QLabel):
            labels.append(w)
            screen.add(w.text(), w.textFormat(), w)
        elif isinstance(w, QComboBox):
            for i in range(w.count()):
                screen.add(w.itemText(i), Qt.TextFormat.PlainText, w)
                screen.add(w.itemData(i, Qt.ItemDataRole.ToolTipRole), where=w)
        elif isinstance(w, QAbstractItemView) and w.model() is not None:
            m = w.model()
            for r in range(min(m.rowCount(), 60)):
                for c in range(1 if isinstance(m, QAbstractListModel) else m.columnCount()):
                    idx = m.index(r, c)
                    screen.add(m.data(idx, Qt.ItemDataRole.DisplayRole), Qt.TextFormat.PlainText, w)
                    screen.add(m.data(idx, Qt.ItemDataRole.ToolTipRole), where=w)
        elif isinstance(w, QPlainTextEdit):
            screen.add(w.toPlainText(), Qt.TextFormat.PlainText, w)
        elif isinstance(w, QMessageBox):
            screen.add(w.text(), w.textFormat())
        elif isinstance(w, pg.PlotWidget):
            item = w.getPlotItem()
            screen.add(item.titleLabel.item.toPlainText(), Qt.TextFormat.PlainText)
            for axis in item.axes.values():
                screen.add(axis["item"].label.toPlainText(), Qt.TextFormat.PlainText)
            for it in item.getViewBox().addedItems:
                if isinstance(it, pg.TextItem):
                    screen.add(it.textItem.toPlainText(), Qt.TextFormat.PlainText)
                label = getattr(it, "label", None)
                if isinstance(label, pg.TextItem):
                    screen.add(label.textItem.toPlainText(), Qt.TextFormat.PlainText)


PLACES = {
    "topic line": lambda w: w.topic_label,
    "topic chooser": lambda w: w.topic_combo,
    "run chooser": lambda w: w.run_combo,
    "status bar": lambda w: w.statusBar(),
    "ranked list": lambda w: w.table,
    "article header": lambda w: w.article.header,
    "topic view": lambda w: w.topic_view,
    "loss panel": lambda w: w.topic_view.loss_panel,
    "plots": lambda w: w.topic_view,
    "compare": lambda w: w.compare,
    "passages": lambda w: w.passages,
    "strategies": lambda w: w.strategies,
    "runs window": lambda w: w.runs_window,
    "elements": lambda w: w.elements,
    "error box": lambda w: w.error_box,
    "log": lambda w: w.log,
}


# -- the FIFO watchdog -------------------------------------------------------------------------
class FifoWatch:
    """A FIFO nobody may open: a thread polls for a reader (opening the writing end without
    blocking succeeds only while one waits), records it and lets it go (end of file)."""

    def __init__(self, path: Path) -> None:
        os.mkfifo(path)
        self.path, self.opened, self._stop = path, 0, threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._stop.wait(0.02):
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                if exc.errno != errno.ENXIO:  # ENXIO: no reader, as it must be
                    raise
                continue
            self.opened += 1
            os.close(fd)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join(5)
        return self.opened


@pytest.fixture
def fifo(tmp_path):
    watch = FifoWatch(tmp_path / "pipe")
    yield watch
    assert watch.stop() == 0, "the window opened the FIFO named in the markup"


# -- the window --------------------------------------------------------------------------------
def _view_action(window, text: str):
    view = next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "View")
    return next(a for a in view.actions() if a.text() == text)


def _idle(qtbot, cond=lambda: True) -> None:
    qtbot.waitUntil(lambda: activity().count == 0 and cond(), timeout=WAIT_MS)


def open_window(qtbot, window: MainWindow, tmp: Path, source: str, text: str) -> MainWindow:
    """Open the row's inputs in ``window`` (showing the sample, :func:`window`) as a fresh window
    would take them: the collection, qrels, the sample's other run and topics in one load, then
    the row's run; every dock, element mode and the Runs window shown."""
    s = sample()
    topics = _topics(tmp, text) if source == "topic-title" else s.topics
    collection = _collection(tmp, text if source == "article-title" else None)
    run = {"run-id": lambda: _run(tmp, run_id=text), "article-id": lambda: _run(tmp, article=text),
           "run-path": lambda: _run(tmp, folder=text),
           "run-file-name": lambda: _run(tmp, name=text), "xpath": lambda: _run(tmp, xpath=f"/article[1]/{text}")
           }.get(source, lambda: _run(tmp))()
    other = next(r for r in s.runs if r.name == "whole-articles.run")
    session = window.session
    before = session.current  # the sample's article: replaced once the row's files are taken over
    session.runs = []  # the runs a fresh window holds: the row's only (the sample's good run dropped)
    session.open_files(collection=collection, qrels=s.qrels, runs=[other], topics=topics)
    _idle(qtbot, lambda: session.current is not None and session.current is not before
          and session.collection is not None and Path(session.collection.root) == collection)
    # then the row's run, as File > Open run (its XPaths resolve in the open collection)
    session.load("run", f"{tmp}/{text}/gone.run" if source == "missing-path" else run)
    if source == "missing-path":
        _idle(qtbot, lambda: window.error_box is not None and window.error_box.isVisible())
    else:
        _idle(qtbot, lambda: session.run is not None and session.run.path == str(run))
    for dock in ("compare_dock", "passages_dock", "strategies_dock", "topic_dock"):
        getattr(window, dock).show()
    window.act_elements.setChecked(True)  # View > Element retrieval: built on first use
    _idle(qtbot, lambda: window.elements.topic_view is not None)
    if session.run is not None and len(session.runs) > 1:
        _view_action(window, "Compare all runs").trigger()
        # the sample has one topic: the Runs window lists the runs and says a comparison needs two
        _idle(qtbot, lambda: window.runs_window.isVisible() and not window.runs_window.busy())
    return window


MARKUP = (BOLD, ZERO, AMP, FIELD, "<img src=")  # every row's markup (a FIFO's path differs by row)


def _parents(w) -> list:
    """``w``'s parents, nearest first (where stale text was left, in a failure's message)."""
    out = []
    while w is not None and hasattr(w, "parent"):
        w = w.parent()
        out.append(w)
    return out


def _markup_anywhere(window) -> list:
    """The rows' markup wherever the window (its Runs window and message boxes too) holds it, raw
    or as shown: (text, the widget's parents) pairs, and the log's lines."""
    screen = Screen()
    for root in (window, window.runs_window, window.error_box):
        if root is not None:
            _walk(root, screen, [])
    found = [(raw[:80], [type(p).__name__ for p in _parents(w)]) for (raw, _, shown), w in zip(screen.items, screen.where)
             if any(m in raw or m in shown for m in MARKUP)]
    return found + [line for line in window.log.toPlainText().splitlines() if any(m in line for m in MARKUP)]


def _back_to_sample(qtbot, window, sample_reset) -> None:
    """Undo what a row did: (``sample_reset``, conftest.py) its error box closed, the sample's
    files shown again (its good run the only one), the log and ``errors_shown`` emptied; the Runs
    window, if a row opened it, shown on them (it says why one run cannot be compared: its message
    and status line no longer hold the row's error) and closed, with its message box. Element
    mode stays on once a row turned it on: it shows the sample then (off, its hidden panel would
    keep the row's article until shown again)."""
    runs = window.runs_window
    if runs is not None:
        runs.close()
    sample_reset(window)
    if runs is not None:
        runs.show()
        _idle(qtbot, lambda: not runs.busy())
        if runs.error_box is not None:
            runs.error_box.close()
        runs.close()
        del runs.errors_shown[:]
    _idle(qtbot, lambda: window.elements is None or window.elements.topic_view is not None)


@pytest.fixture
def window(qtbot, shared_sample_window, sample_reset, fifo):
    """The module's window (``shared_sample_window``: dialogs on, as the rows want), showing the
    sample and holding none of the rows' markup (checked: a row's text on screen is then its own,
    not an earlier row's left behind). A fresh window per row cost most of a row's time; what a
    row changes is undone after it (while its FIFO is still watched: nothing the window does then
    may open it), and again before a row if that undoing did not finish (an earlier row failed)."""
    w = shared_sample_window
    if not getattr(w, "plain_text_reset", False):
        _back_to_sample(qtbot, w, sample_reset)
    w.plain_text_reset = False
    assert _markup_anywhere(w) == []  # a clean slate: an earlier row's markup is nowhere on screen
    assert w.windowTitle() == "readsim — reading-order simulator"
    yield w
    _back_to_sample(qtbot, w, sample_reset)
    w.plain_text_reset = True


@pytest.mark.parametrize("case", CASES, ids=Case.name)
def test_file_text_is_shown_as_written(qtbot, case, tmp_path, fifo, window):
    text = case.expect.format(fifo=fifo.path)
    window = open_window(qtbot, window, tmp_path, case.data["source"], text)
    try:
        labels: list[QLabel] = []
        everything = Screen()
        for root in (window, getattr(window, "runs_window", None), window.error_box):
            if root is not None:
                _walk(root, everything, labels)
        for place in (p for p in case.data["places"] if p != "export"):
            screen = Screen()
            _walk(PLACES[place](window), screen, [])
            assert screen.shows(text), (place, [shown for _, _, shown in screen.items][:40])
        guessed = [(lb.objectName() or type(lb.parent()).__name__, lb.text()[:60]) for lb in labels
                   if lb.textFormat() == Qt.TextFormat.AutoText and not isinstance(lb.window(), QMessageBox)]
        assert guessed == [], guessed
        unescaped = [(type(w).__name__, w.objectName(), type(w.parent()).__name__, type(w.window()).__name__, raw == w.toolTip(), raw[:80])
                     for (raw, rich, _), w in zip(everything.items, everything.where) if rich and text in raw]
        assert unescaped == []
        assert everything.asked == []
        assert window.windowTitle() == "readsim — reading-order simulator"
        if "export" in case.data["places"]:
            out = export_ranked_list(window, tmp_path / "ranked.csv")
            assert text in out.read_text(encoding="utf-8")
    finally:
        if window.error_box is not None:
            window.error_box.close()
        if getattr(window, "runs_window", None) is not None:
            window.runs_window.close()
        _idle(qtbot)


def test_svg_export_writes_markup_as_text(qtbot, tmp_path):
    """An SVG holds a label's text as XML text: ``<b>`` and ``&`` escaped, read back literally."""
    from readsim.app.plain import plain_label

    label = plain_label(f"{BOLD} {AMP}")
    qtbot.addWidget(label)
    label.resize(400, 40)
    out = export_widget(label, tmp_path / "label.svg", title=f"title {BOLD}")
    root = etree.parse(str(out), etree.XMLParser(no_network=True, resolve_entities=False)).getroot()
    svg = "{http://www.w3.org/2000/svg}"
    assert root.findtext(f"{svg}title") == f"title {BOLD}"
    assert any(t.text and f"{BOLD} {AMP}" in t.text for t in root.iter(f"{svg}text"))
    assert not root.findall(".//{http://www.w3.org/2000/svg}b")


def test_every_label_is_made_plain_or_rich():
    """The rule in the source: a label is made by ``plain_label`` or ``rich_label`` (readsim.app.plain),
    never by ``QLabel(...)`` guessing its format; no label is switched back to ``Qt.AutoText``."""
    app = Path(__file__).resolve().parents[2] / "app"
    offenders = []
    for path in sorted(app.rglob("*.py")):
        if path.name == "plain.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"(?<![\w.])QLabel\(|TextFormat\.AutoText", line):
                offenders.append(f"{path.relative_to(app)}:{number}: {line.strip()}")
    assert offenders == []
