"""The ``.readsim`` view file: what the window shows, saved so that it reopens the same.

A view is a JSON object (UTF-8) with a format version::

    {"format": "readsim-view", "version": 1,
     "files": {"collection": "articles", "qrels": "sample.qrels",
               "runs": ["runs/good-passages.run", "runs/misses.run"], "topics": "topics.xml"},
     "unit": "bytes", "run": 0, "topic": "2026001", "article": "900001",
     "settings": {"mode": "natural", "screen": 300, "tolerance": 300, "alpha": 1.0, "beta": 0.25, "levels": 4},
     "step": 0,
     "entries": [{"topic": "2026001", "article": "900002", "offset": 120}],
     "edits": [{"run": 0, "topic": "2026001", "article": "900001", "passages": [[0, 80], [200, 260]]}],
     "docks": ["outline"], "element_run": null, "document_measure": "F"}

Version 2 adds ``"lesson": {"source": TEXT}``: a lesson's text and steps in the syntax of
:mod:`readsim.app.lesson_text` (File ▸ Save as lesson); a view without it is written as version 1,
and every version-1 file still opens.

- ``files``: the inputs, each path relative to the view file's folder (an absolute path where
  no relative one exists, another drive on Windows); ``runs`` at least one, ``run`` the index of
  the run shown;
- ``unit`` (``bytes`` or ``chars``) the offsets' unit; ``settings`` the reader's
  (docs/reference.md section 3 for the modes, section 4 for the measures' parameters), within
  the ranges the command line takes for them (``--screen``, ``--tolerance``, ``--beta``: the
  Reader controls'), ``alpha`` and ``levels`` within the measure grammar's (alpha above 0);
  ``step`` the screen shown (0-based, the playback's "screen k"), 0 to 2^40 as ``--step``;
- ``entries``: entry points set by the user (Alt+click), in the unit, 0 to 2^40 as ``--entry``
  (one past the article's end is its end); the edits' offsets within the same bounds;
- ``edits``: the retrieved passages of each edited (run, topic, article) after the passage
  editor's edits (``[[start, end), ...]`` in the unit; ``null``: no longer retrieved);
- ``docks``: the ``objectName`` of every open dock, whichever module built it;
- ``element_run``: the element mode's simulated run shown (``perfect``, ``ancestors``) or null;
- ``document_measure``: the topic view's document measure S (``aveChP``, ``T2IF``, ``T2IP``,
  ``F``, ``LE``, ``ES``; its parameters are the reader's settings), the measure of its list scores
  and of "where the run loses"; absent or null (views written before it): the window's own.

:func:`read_view` checks everything before anything is opened and raises :class:`ViewError`
(an :class:`~readsim.core.errors.InputError`): ``FILE: field NAME: reason``, e.g.
``lesson.readsim: field settings.screen: must be a whole number from 1 to 10,000,000, not "big"``;
a file a view names that is missing is ``FILE: field files.qrels: PATH: qrels file not found``;
JSON that is no view's (nested past 32 levels, an integer past 30 digits, a lone surrogate) is
refused the same way (:mod:`readsim.app.view_json`); a
view of a newer format version says which version it is and which this readsim reads.
:func:`write_view` writes atomically (:mod:`readsim.core.atomic`), only over a regular file.
Pure Python: no Qt (the window's side is :mod:`readsim.app.view_state`).
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from readsim.core.atomic import write_text
from readsim.core.coverage import check_input_path
from readsim.core.errors import InputError
from readsim.core.reading import READING_MODES

from .lesson_text import LessonError
from .lesson_text import parse as parse_lesson
from .view_args import ALPHA_RANGE, BETA_RANGE, LEVELS_RANGE, OFFSET_RANGE, SCREEN_RANGE, STEP_RANGE
from .view_json import ViewError, load

FORMAT = "readsim-view"
VERSION = 2  # 2: the optional ``lesson``
PLAIN_VERSION = 1  # a view with no lesson is still written as version 1 (older readsims open it)
SUFFIX = ".readsim"
MAX_BYTES = 16 * 1024 * 1024  # a view is a few kilobytes; refuse to read a huge file into memory
MODES = tuple(m.value for m in READING_MODES)
UNITS = ("bytes", "chars")


@dataclass
class Edit:
    """The retrieved passages of one (run, topic, article) after the user's edits: ``run`` an
    index into :attr:`View.runs`; ``passages`` ``(start, end)`` pairs in the unit, or None (the
    article is no longer retrieved)."""

    run: int
    topic: str
    article: str
    passages: list[tuple[int, int]] | None


@dataclass
class View:
    """What a ``.readsim`` file holds, paths absolute (see the module)."""

    runs: list[Path]
    collection: Path | None = None
    qrels: Path | None = None
    topics: Path | None = None
    unit: str = "bytes"
    run: int = 0
    topic: str | None = None
    article: str | None = None
    settings: dict = field(default_factory=lambda: {"mode": "natural", "screen": 300, "tolerance": 300,
                                                    "alpha": 1.0, "beta": 0.25, "levels": 4})
    step: int = 0
    entries: dict[tuple[str, str], int] = field(default_factory=dict)
    edits: list[Edit] = field(default_factory=list)
    docks: list[str] = field(default_factory=list)
    element_run: str | None = None
    document_measure: str | None = None
    lesson: str | None = None  # a lesson's text and steps (readsim.app.lesson_text), version 2


# -- reading ---------------------------------------------------------------------------------
class _Fields:
    """Typed access to a JSON object's fields, each error naming the file and the field."""

    def __init__(self, path: Path, obj: dict, prefix: str = "") -> None:
        self.path, self.obj, self.prefix = path, obj, prefix

    def fail(self, name: str, reason: str) -> ViewError:
        return ViewError(self.path, None, f"field {self.prefix}{name}: {reason}")

    def get(self, name: str, kinds: tuple, what: str, required: bool = False, default=None):
        if name not in self.obj:
            if required:
                raise self.fail(name, "missing")
            return default
        value = self.obj[name]
        if value is None and not required:
            return default
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            raise self.fail(name, f"must be {what}, not {_shown(value)}")
        return value

    def text(self, name: str, required: bool = False) -> str | None:
        value = self.get(name, (str,), "text", required)
        if value is not None and not value.strip():
            raise self.fail(name, "must not be empty")
        return value

    def count(self, name: str, low: int, high: int, default: int | None = None) -> int:
        value = self.get(name, (int,), f"a whole number from {low:,} to {high:,}", default is None, default)
        if not low <= value <= high:
            raise self.fail(name, f"must be a whole number from {low:,} to {high:,}, not {value}")
        return value

    def real(self, name: str, low: float, high: float, default: float, low_inclusive: bool = True) -> float:
        rule = f"a number from {low:g} to {high:g}" if low_inclusive else f"a number above {low:g} and at most {high:g}"
        value = self.get(name, (int, float), rule, False, default)
        if not (low <= value <= high and (low_inclusive or value > low)):  # NaN fails too
            raise self.fail(name, f"must be {rule}, not {_shown(value)}")
        return float(value)

    def choice(self, name: str, choices: tuple, default: str) -> str:
        value = self.get(name, (str,), "one of " + ", ".join(choices), False, default)
        if value not in choices:
            raise self.fail(name, f"must be one of {', '.join(choices)}, not {_shown(value)}")
        return value

    def sub(self, name: str, required: bool = False) -> _Fields:
        return _Fields(self.path, self.get(name, (dict,), "an object", required, {}), f"{self.prefix}{name}.")

    def items(self, name: str) -> list:
        return self.get(name, (list,), "a list", False, [])


def _shown(value) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def read_view(path: str | os.PathLike) -> View:
    """Read and check the view file ``path`` (see the module); every file it names must be there
    (:func:`readsim.core.coverage.check_input_path`). Paths come back absolute. Raises
    :class:`ViewError` (``FILE: field NAME: reason``), never another exception for bad input."""
    path = Path(path)
    try:
        mode = path.stat().st_mode
        if stat.S_ISDIR(mode):
            raise ViewError(path, None, "is a folder, not a view file")
        if not stat.S_ISREG(mode):  # a FIFO would block the reader: never opened
            raise ViewError(path, None, "not a regular file, not a view file")
        with open(path, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except FileNotFoundError as exc:
        raise ViewError(path, None, "view file not found") from exc
    except OSError as exc:
        raise ViewError(path, None, exc.strerror or str(exc)) from exc
    if len(raw) > MAX_BYTES:
        raise ViewError(path, None, f"larger than {MAX_BYTES // (1024 * 1024)} MiB: not a readsim view")
    obj = load(path, raw)
    if not isinstance(obj, dict):
        raise ViewError(path, None, f"a view is a JSON object, not {type(obj).__name__}")
    return _parse(path, _Fields(path, obj))


def _parse(path: Path, f: _Fields) -> View:
    if f.get("format", (str,), "text", True) != FORMAT:
        raise f.fail("format", f"must be {FORMAT!r}: not a readsim view")
    version = f.get("version", (int,), "a whole number", True)
    if version > VERSION:
        raise f.fail("version", f"format version {version} was written by a newer readsim; this one reads "
                     f"version {VERSION} and earlier: update readsim to open it")
    if version < 1:
        raise f.fail("version", f"must be 1 or more, not {version}")
    files = f.sub("files", required=True)
    folder = path.parent

    def file(name: str, kind: str, value: str | None) -> Path | None:
        if value is None:
            return None
        where = Path(os.path.normpath(folder / value))
        try:
            check_input_path(where, kind)
        except InputError as exc:
            raise files.fail(name, str(exc)) from exc
        return where

    runs_raw = files.items("runs")
    if not runs_raw:
        raise files.fail("runs", "must list at least one run file")
    runs = []
    for i, item in enumerate(runs_raw):
        if not isinstance(item, str) or not item.strip():
            raise files.fail(f"runs[{i}]", f"must be a path, not {_shown(item)}")
        runs.append(file(f"runs[{i}]", "run", item))
    view = View(runs=runs, collection=file("collection", "collection", files.text("collection")),
                qrels=file("qrels", "qrels", files.text("qrels")), topics=file("topics", "topics", files.text("topics")))
    view.unit = f.choice("unit", UNITS, "bytes")
    view.run = f.count("run", 0, len(runs) - 1, 0)
    view.topic = f.text("topic")
    view.article = f.text("article")
    st = f.sub("settings")
    # the command line's bounds for the same values (readsim.app.view_args), the measure grammar's for alpha
    view.settings = {"mode": st.choice("mode", MODES, "natural"), "screen": st.count("screen", *SCREEN_RANGE, 300),
                     "tolerance": st.count("tolerance", *SCREEN_RANGE, 300),
                     "alpha": st.real("alpha", *ALPHA_RANGE, 1.0, low_inclusive=False),
                     "beta": st.real("beta", *BETA_RANGE, 0.25), "levels": st.count("levels", *LEVELS_RANGE, 4)}
    view.step = f.count("step", *STEP_RANGE, 0)
    for i, item in enumerate(f.items("entries")):
        e = _Fields(path, _object(f, f"entries[{i}]", item), f"entries[{i}].")
        view.entries[e.text("topic", True), e.text("article", True)] = e.count("offset", *OFFSET_RANGE)
    for i, item in enumerate(f.items("edits")):
        view.edits.append(_edit(f, i, item, len(runs)))
    for i, item in enumerate(f.items("docks")):
        if not isinstance(item, str):
            raise f.fail(f"docks[{i}]", f"must be a dock's name, not {_shown(item)}")
        view.docks.append(item)
    view.element_run = f.choice("element_run", ("perfect", "ancestors"), None) if f.obj.get("element_run") else None
    if f.obj.get("document_measure") is not None:
        from .topic_scores import DOC_KINDS  # on demand: the list measures are not needed to read a view

        view.document_measure = f.choice("document_measure", DOC_KINDS, "F")
    if f.obj.get("lesson") is not None:
        view.lesson = _lesson(f.sub("lesson"))
    return view


def _lesson(f: _Fields) -> str:
    """The lesson's ``source``, checked by :func:`readsim.app.lesson_text.parse`."""
    source = f.text("source", True)
    try:
        parse_lesson(source, "lesson")
    except LessonError as exc:
        raise f.fail("source", f"line {exc.line}: {exc.reason}" if exc.line else exc.reason) from None
    return source


def _object(f: _Fields, name: str, item) -> dict:
    if not isinstance(item, dict):
        raise f.fail(name, f"must be an object, not {_shown(item)}")
    return item


def _edit(f: _Fields, i: int, item, nruns: int) -> Edit:
    e = _Fields(f.path, _object(f, f"edits[{i}]", item), f"edits[{i}].")
    run, topic, article = e.count("run", 0, nruns - 1, 0), e.text("topic", True), e.text("article", True)
    if "passages" not in e.obj:
        raise e.fail("passages", "missing (null: the article is no longer retrieved)")
    raw = e.obj["passages"]
    if raw is None:
        return Edit(run, topic, article, None)
    if not isinstance(raw, list):
        raise e.fail("passages", f"must be a list of [start, end] pairs, not {_shown(raw)}")
    spans = []
    low, high = OFFSET_RANGE
    for k, pair in enumerate(raw):
        ok = (isinstance(pair, list) and len(pair) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                 for v in pair) and low <= pair[0] < pair[1] <= high)
        if not ok:
            raise e.fail(f"passages[{k}]", f"must be [start, end] with {low} <= start < end <= {high:,} (offsets in "
                         f"the unit), not {_shown(pair)}")
        spans.append((pair[0], pair[1]))
    return Edit(run, topic, article, spans)


# -- writing ---------------------------------------------------------------------------------
def relative(target: str | os.PathLike, folder: str | os.PathLike) -> str:
    """``target`` relative to ``folder`` (both made absolute), with ``/`` separators; the
    absolute path where there is no relative one (another drive on Windows)."""
    target, folder = os.path.abspath(target), os.path.abspath(folder)
    try:
        return Path(os.path.relpath(target, folder)).as_posix()
    except ValueError:
        return Path(target).as_posix()


def view_json(view: View, path: str | os.PathLike) -> dict:
    """``view`` as the JSON object of a view file at ``path`` (paths made relative to its folder)."""
    folder = Path(os.path.abspath(path)).parent

    def rel(p):
        return relative(p, folder) if p is not None else None

    return {
        "format": FORMAT, "version": VERSION,
        "files": {"collection": rel(view.collection), "qrels": rel(view.qrels),
                  "runs": [rel(r) for r in view.runs], "topics": rel(view.topics)},
        "unit": view.unit, "run": view.run, "topic": view.topic, "article": view.article,
        "settings": dict(view.settings), "step": view.step,
        "entries": [{"topic": t, "article": a, "offset": int(o)} for (t, a), o in view.entries.items()],
        "edits": [{"run": e.run, "topic": e.topic, "article": e.article,
                   "passages": None if e.passages is None else [[int(a), int(b)] for a, b in e.passages]}
                  for e in view.edits],
        "docks": list(view.docks), "element_run": view.element_run, "document_measure": view.document_measure,
    } | ({"version": VERSION, "lesson": {"source": view.lesson}} if view.lesson is not None else {"version": PLAIN_VERSION})


def write_view(path: str | os.PathLike, view: View) -> Path:
    """Write ``view`` to ``path`` (JSON, see the module), atomically and only over a regular
    file (:func:`readsim.core.atomic.write_text`). Raises ``OSError`` naming ``path``; nothing
    is written then."""
    text = json.dumps(view_json(view, path), indent=2, ensure_ascii=False) + "\n"
    write_text(path, text)
    return Path(path)
