"""Qrels and runs for the Python API: read from files, given as objects, or as DataFrames.

A DataFrame is turned into the file it stands for (FOL lines, ``docs/reference.md`` sections
2.2-2.5) and read by the same readers as a file, so a frame and its file give the same numbers
and the same errors: an :class:`InputError` from a frame names ``<DataFrame ...>`` and, as its
line, the row's position in the frame counted from 1.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np

from readsim.core.errors import Diagnostic, InputError, InputWarning
from readsim.core.formats import Qrels as _EngineQrels
from readsim.core.formats import Run as _EngineRun
from readsim.core.formats import is_jsonl, is_xml_run, read_bytes, read_jsonl_run, read_xml_run
from readsim.core.formats import read_qrels as _read_qrels
from readsim.core.formats import read_run as _read_run
from readsim.core.formats.run import WHOLE_LINE, XPATH_LINE

from readsim.operations.checks import flag

MAX_WARNINGS = 20  # as readsim-eval: the first 20 diagnostics of one input, then a count
RUN_COLUMNS = ("topic", "article", "rank", "rsv", "run_id", "offset", "length")
QRELS_COLUMNS = ("topic", "article", "rel_size", "doc_length", "bep", "offset", "length")


_SAID: set[str] = set()  # the messages issued in this process (Python's own registry is reset by any filter change)


def _caller_level() -> int:
    """The ``stacklevel`` of the first caller outside readsim, so a warning points at the
    user's line (a notebook cell), whatever path inside the package issued it."""
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_globals.get("__name__", "").split(".")[0] == "readsim":
        frame, level = frame.f_back, level + 1
    return level


def _action(text: str, stacklevel: int) -> str:
    """The :mod:`warnings` filter's action for an :class:`InputWarning` ``text`` issued at
    ``stacklevel`` (counted from :func:`warn`'s caller), found as ``warnings.warn_explicit``
    finds it: the first filter matching the message, the category, the caller's module and
    line, else the default action."""
    try:
        frame = sys._getframe(stacklevel)
    except ValueError:  # past the outermost frame: warnings.warn names the module "sys"
        frame = None
    module = frame.f_globals.get("__name__", "<string>") if frame is not None else "sys"
    lineno = frame.f_lineno if frame is not None else 0
    for action, message, category, mod, line in warnings.filters:
        if ((message is None or message.match(text)) and issubclass(InputWarning, category)
                and (mod is None or mod.match(module)) and (line == 0 or line == lineno)):
            return action
    return warnings.defaultaction


_SINK: ContextVar[Callable[[list[Diagnostic]], None] | None] = ContextVar("readsim_diagnostics", default=None)


@contextmanager
def diagnostics_to(sink: Callable[[list[Diagnostic]], None]) -> Iterator[None]:
    """Inside the ``with``, each batch of diagnostics :func:`warn` would issue (one input's, the
    coverage check's, one run's evaluation's) goes to ``sink`` as a list instead, every time
    and in full: how ``readsim-eval`` prints the API's warnings in its own words."""
    token = _SINK.set(sink)
    try:
        yield
    finally:
        _SINK.reset(token)


def warn(diagnostics: Iterable[Diagnostic]) -> None:
    """Issue each diagnostic as an :class:`InputWarning` (``"file:line: warning: ..."``), once
    per cause in the process: a message already issued (the same qrels read again) is not
    repeated, as Python's default filter intends (readsim keeps its own record because pandas
    resets :mod:`warnings`' registries whenever it changes a filter). The filters are obeyed:
    a message an ``"ignore"`` filter hides is not counted as issued (it is issued once shown),
    one an ``"always"`` (or ``"error"``) filter matches is issued every time. Past
    :data:`MAX_WARNINGS` new messages of one batch, one warning gives the count. Inside
    :func:`diagnostics_to`, the batch goes to its sink instead."""
    sink = _SINK.get()
    if sink is not None:
        sink(list(diagnostics))
        return
    stacklevel = _caller_level()
    said = []
    for text in dict.fromkeys(str(d) for d in diagnostics):
        action = _action(text, stacklevel)
        if action == "ignore" or (text in _SAID and action not in ("always", "error")):
            continue
        said.append(text)
    _SAID.update(said)
    for text in said[:MAX_WARNINGS]:
        warnings.warn(text, InputWarning, stacklevel=stacklevel)
    if len(said) > MAX_WARNINGS:
        warnings.warn(f"readsim: {len(said) - MAX_WARNINGS} more warnings not shown", InputWarning,
                      stacklevel=stacklevel)


class _Read:
    """What was read: ``path`` and ``topics`` (ids in file order) of the engine's object."""

    engine: _EngineQrels | _EngineRun

    def _columns(self):
        """The engine's columns (every line of the file, for all topics at once) while every
        topic is still what the file said, else None (then the per-topic objects say it)."""
        cols = [self.engine.columns(t) for t in self.engine.topics]
        if not cols or any(c is None or c[0] is not cols[0][0] for c in cols):
            return None
        shared = cols[0][0]
        return shared if sorted(c[1] for c in cols) == list(range(len(shared.topics))) else None

    @property
    def path(self) -> str:
        return self.engine.path

    @property
    def topics(self) -> list[str]:
        return list(self.engine.topics)


class Qrels(_Read):
    """FOL qrels, read once and evaluated against any number of runs.

    ``path``: the file (or ``<DataFrame>``); ``topics``: the judged topic ids in file order.
    Offsets and sizes are in the qrels' unit (UTF-8 bytes for the real INEX 2009-2010 qrels).
    :meth:`to_frame` gives one row per highlighted passage. ``engine`` is the internal reader's
    object (``readsim.core.formats.Qrels``, not part of the API)."""

    def __init__(self, engine: _EngineQrels):
        self.engine = engine

    def __repr__(self) -> str:
        return f"<readsim.Qrels {self.path!r}: {len(self.engine.topics)} topics>"

    def to_frame(self):
        """One row per highlighted passage (a judged non-relevant article: one row with no
        passage), columns ``topic``, ``article``, ``rel_size``, ``doc_length``, ``bep``
        (``<NA>`` when absent), ``offset``, ``length`` (``<NA>`` for no passage); sizes in the
        qrels' unit. Evaluating this frame gives the qrels' numbers."""
        import pandas as pd

        qc = self._columns()
        if qc is None:
            rows = [(topic, article, j.rel_size, j.doc_length, j.bep, start, None if end is None else end - start)
                    for topic, judged in self.engine.topics.items() for article, j in judged.items()
                    for start, end in (j.passages.tolist() if len(j.passages) else [(None, None)])]
            cols = dict(zip(QRELS_COLUMNS, map(list, zip(*rows)))) if rows else {c: [] for c in QRELS_COLUMNS}
        else:  # column-wise: a row per passage, one for a judgement without any, in file order
            count = np.diff(qc.pass_ptr)
            j = np.repeat(np.arange(len(qc.key)), np.maximum(count, 1))
            first = np.repeat(np.cumsum(np.maximum(count, 1)) - np.maximum(count, 1), np.maximum(count, 1))
            has = count[j] > 0
            at = np.where(has, qc.pass_ptr[j] + np.arange(len(j)) - first, 0)
            span = qc.passages[at] if len(qc.passages) else np.zeros((len(j), 2), dtype=np.int64)
            topics = np.asarray(qc.topics, dtype=object)
            cols = {"topic": topics[qc.tid[j]], "article": np.asarray(qc.names(qc.key), dtype=object)[j],
                    "rel_size": qc.rel_size[j], "doc_length": qc.doc_length[j],
                    "bep": pd.array(np.where(qc.has_bep[j], qc.bep[j], 0), dtype="Int64"),
                    "offset": pd.array(span[:, 0], dtype="Int64"), "length": pd.array(span[:, 1] - span[:, 0], dtype="Int64")}
            cols["bep"][~qc.has_bep[j]] = pd.NA
            cols["offset"][~has] = pd.NA
            cols["length"][~has] = pd.NA
        return pd.DataFrame({c: pd.array(cols[c], dtype="string" if c in ("topic", "article") else "Int64")
                             for c in QRELS_COLUMNS})


class Run(_Read):
    """A run (FOL or XML), read once. ``path``, ``run_id``, ``topics`` (topic ids in file
    order); :meth:`to_frame` gives its result lines. ``engine`` is the internal reader's object
    (``readsim.core.formats.Run``, not part of the API)."""

    def __init__(self, engine: _EngineRun, data: bytes | None = None):
        self.engine = engine
        self._data = data  # the FOL file's bytes, for the rsv column of to_frame

    @property
    def run_id(self) -> str:
        return self.engine.run_id

    def __repr__(self) -> str:
        return f"<readsim.Run {self.run_id!r} ({self.path}): {len(self.engine.topics)} topics>"

    def to_frame(self):
        """The run's result lines, one row each: ``topic``, ``article``, ``rank`` (the
        article's rank in its topic, from 1: the line order, as the run is read), ``rsv`` (the
        file's column 5, NaN where it is not a number or not in the file), ``run_id``,
        ``offset``, ``length`` (in the qrels' unit; ``<NA>`` for a whole-article line,
        reference section 2.5; a Best in Context line keeps its offset, the entry point, and
        its length, section 2.4), and ``xpath`` when some line names an element instead.
        Rows are in the file's line order (the Focused task's ranks, reference section 5.9; an
        interleaved article's later lines keep its first rank), topic by topic and article by
        article for a run not read from a FOL file. Evaluating the frame gives the run's
        numbers."""
        import pandas as pd

        rc = self._columns()
        cols = self._object_rows() if rc is None else self._column_rows(rc)
        lines = cols.pop("line")
        if all(n is not None for n in lines):  # read from a FOL file: its line order, which MAiP reads
            order = np.argsort(np.asarray(lines, dtype=np.int64), kind="stable")
            cols = {c: np.asarray(v, dtype=object)[order] for c, v in cols.items()}
            lines = np.asarray(lines, dtype=np.int64)[order]
        frame = pd.DataFrame({
            "topic": pd.array(cols["topic"], dtype="string"), "article": pd.array(cols["article"], dtype="string"),
            "rank": np.asarray(cols["rank"], dtype=np.int64), "rsv": self._rsv(lines),
            "run_id": pd.array([self.run_id] * len(lines), dtype="string"),
            "offset": pd.array(cols["offset"], dtype="Int64"), "length": pd.array(cols["length"], dtype="Int64"),
            "xpath": pd.array(cols["xpath"], dtype="string")})
        return frame if frame["xpath"].notna().any() else frame.drop(columns="xpath")

    def _column_rows(self, rc) -> dict[str, list]:
        """Every result line from the run's columns (no per-article object is built)."""
        per_group = np.diff(rc.line_ptr)
        tid = np.repeat(np.arange(len(rc.topics)), np.diff(rc.topic_ptr))
        rank = np.arange(len(rc.key)) - rc.topic_ptr[tid] + 1
        g = np.repeat(np.arange(len(rc.key)), per_group)
        whole = (rc.starts == WHOLE_LINE[0]) & (rc.ends == WHOLE_LINE[1])
        xpath_line = (rc.starts == XPATH_LINE[0]) & (rc.ends == XPATH_LINE[1])
        plain = ~(whole | xpath_line)
        xpath = np.full(len(g), None, dtype=object)
        taken: dict[int, int] = {}
        for k in np.flatnonzero(xpath_line).tolist():  # 7-field lines only: each its group's next XPath
            group = int(g[k])
            xpath[k] = rc.xpaths[group][taken.get(group, 0)]
            taken[group] = taken.get(group, 0) + 1
        names = np.asarray(rc.names(np.arange(len(rc.key))), dtype=object)
        return {"topic": np.asarray(rc.topics, dtype=object)[tid[g]], "article": names[g], "rank": rank[g],
                "offset": np.where(plain, rc.starts, None), "length": np.where(plain, rc.ends - rc.starts, None),
                "xpath": xpath, "line": rc.lines.tolist()}

    def _object_rows(self) -> dict[str, list]:
        """Every result line from the per-article objects (an XML, simulated or edited run)."""
        rows = []
        for topic, entries in self.engine.topics.items():
            for e in entries:
                spans = e.line_spans
                if spans is None:  # its passages, or the whole article
                    spans = e.passages if e.passages is not None else np.array([WHOLE_LINE])
                    lines = [None] * len(spans)
                else:
                    lines = list(e.lines) or [None] * len(spans)
                xpaths = iter(e.xpaths)
                for (start, end), line in zip(spans.tolist(), lines):
                    whole, xpath = (start, end) == WHOLE_LINE, (start, end) == XPATH_LINE
                    rows.append((topic, e.article, e.rank, None if whole or xpath else start,
                                 None if whole or xpath else end - start, next(xpaths, None) if xpath else None, line))
                rows += [(topic, e.article, e.rank, None, None, x, None) for x in xpaths]  # XML <path> results
                for a, b in e.pointers or ():
                    raise InputError(self.path, e.line, f"article {e.article}: an XPointer passage ({a} .. {b}) "
                                     "has no offsets without the collection; to_frame needs offsets")
        names = ("topic", "article", "rank", "offset", "length", "xpath", "line")
        return dict(zip(names, map(list, zip(*rows)))) if rows else {c: [] for c in names}

    def _rsv(self, lines) -> np.ndarray:
        """Column 5 of the file's ``lines`` (1-based), NaN where absent or not a number."""
        import io

        import pandas as pd

        if self._data is None or not len(lines) or any(n is None for n in lines):
            return np.full(len(lines), np.nan)
        text = self._data.split(b"\n")
        picked = b"\n".join(text[n - 1] for n in lines)
        column = pd.read_csv(io.BytesIO(picked), sep=r"\s+", header=None, names=range(8), dtype=str,
                             skip_blank_lines=False, engine="c")[4]
        return pd.to_numeric(column, errors="coerce").to_numpy(dtype=float)


def input_path(path, kind: str) -> str | os.PathLike:
    """``path`` checked before it is opened, as ``readsim-eval`` checks the files it is given
    (:func:`readsim.core.coverage.check_input_path`; ``kind``: ``qrels``, ``run``, ``topics``
    or ``collection``): an :class:`InputError` naming it when it is missing, a folder, a
    device (``/dev/zero`` would be read until memory runs out), a FIFO (opening one waits for
    a writer), a socket or unreadable. ``TypeError`` when it is not a ``str`` or
    ``os.PathLike`` (an int would be taken as a file descriptor)."""
    from readsim.core.coverage import check_input_path

    if not isinstance(path, (str, os.PathLike)) or isinstance(os.fspath(path), bytes):
        raise TypeError(f"{kind}: expected a path (str or os.PathLike), not {type(path).__name__}")
    check_input_path(path, kind)
    return path


def read_qrels(path: str | os.PathLike, *, min_grade: int = 1) -> Qrels:
    """Read a qrels file: FOL (reference section 2.2), or recognised by content, JSON Lines spans
    (2.11; spans of grade >= ``min_grade`` are relevant) or Chroma's questions CSV (2.12). Its warnings are issued as
    :class:`InputWarning`, and so is an empty file (no judgement: every mean is 0), as
    ``readsim-eval`` warns. Raises :class:`InputError` (``.path``, ``.line``) on a bad line or
    a file that is missing, unreadable or not a regular file (a folder, a device, a FIFO);
    ``TypeError`` when ``path`` is not a path."""
    from readsim.core.coverage import check_coverage

    if isinstance(min_grade, bool) or not isinstance(min_grade, int) or min_grade < 1:
        raise ValueError(f"min_grade must be a whole number of at least 1, not {min_grade!r}")
    qrels = Qrels(_read_qrels(input_path(path, "qrels"), min_grade=min_grade))
    empty = not any(qrels.engine.topics.values())
    warn(qrels.engine.diagnostics + (check_coverage(qrels.engine) if empty else []))  # the empty file's warning
    return qrels


def read_run(path: str | os.PathLike, *, strict: bool = False) -> Run:
    """Read a run: INEX 2006-2008 XML if the file starts with ``<``, JSON Lines spans if its
    first non-blank line starts with ``{`` (reference 2.11), else FOL (reference
    sections 2.3-2.6); ``strict`` (True or False): interleaved articles and split topics are
    errors, as the official tool has them. Warnings are issued as :class:`InputWarning`;
    raises :class:`InputError` (``.path``, ``.line``) on a bad line or a file that is missing,
    unreadable or not a regular file; ``TypeError`` when ``path`` is not a path,
    ``ValueError`` for a ``strict`` that is not a bool. An empty run is a warning, as in
    ``readsim-eval``."""
    from readsim.core.coverage import check_coverage

    strict = flag("strict", strict)
    data = read_bytes(input_path(path, "run"))
    if is_jsonl(data):
        run = Run(read_jsonl_run(path, strict, data))
    elif is_xml_run(path, data):
        run = Run(read_xml_run(path, strict, data))
    else:
        run = Run(_read_run(path, strict, data), data)
    empty = not any(run.engine.topics.values())
    warn(run.engine.diagnostics + (check_coverage(None, run.engine) if empty else []))  # the empty run's warning
    return run


# -- coercion: path, object or DataFrame -> the engine's objects ----------------------------------------


def _is_frame(obj) -> bool:
    return type(obj).__name__ == "DataFrame" and hasattr(obj, "columns")


def as_qrels(obj) -> _EngineQrels:
    """The engine's qrels for a path, a :class:`Qrels` (as it is: nothing is read or prepared
    again) or a DataFrame with :data:`QRELS_COLUMNS` (``rel_size``, ``bep``, ``offset``,
    ``length`` optional)."""
    if isinstance(obj, Qrels):
        return obj.engine
    if isinstance(obj, _EngineQrels):
        return obj
    if _is_frame(obj):
        return _qrels_from_frame(obj)
    if isinstance(obj, (str, os.PathLike)):
        return read_qrels(obj).engine
    raise TypeError(f"qrels: expected a path, a readsim.Qrels or a DataFrame, not {type(obj).__name__}")


def as_run(obj, strict: bool = False) -> _EngineRun:
    """The engine's run for a path, a :class:`Run` or a DataFrame with :data:`RUN_COLUMNS`
    (``topic`` and ``article`` required)."""
    if isinstance(obj, Run):
        return obj.engine
    if isinstance(obj, _EngineRun):
        return obj
    if _is_frame(obj):
        return _run_from_frame(obj, strict)
    if isinstance(obj, (str, os.PathLike)):
        return read_run(obj, strict=strict).engine
    raise TypeError(f"run: expected a path, a readsim.Run or a DataFrame, not {type(obj).__name__}"
                    + (" (one run here)" if isinstance(obj, (list, tuple, Mapping)) else ""))


def as_runs(runs, strict: bool = False) -> list[_EngineRun]:
    """One run or a list of them (paths, :class:`Run` objects, DataFrames)."""
    many = isinstance(runs, (list, tuple)) or (not _is_frame(runs) and hasattr(runs, "__iter__")
                                               and not isinstance(runs, (str, bytes, os.PathLike, Mapping)))
    return [as_run(r, strict) for r in (runs if many else [runs])]


def labelled_runs(runs, strict: bool = False) -> tuple[list[_EngineRun], list[str]]:
    """The engine's runs and their labels in results (``docs/api.md``, "Run labels"): for a
    dict ``{label: run}``, its keys (non-empty strings), in its order; else ``readsim-eval``'s
    one naming rule (:func:`run_label`)."""
    if isinstance(runs, Mapping):
        for label in runs:
            if not isinstance(label, str) or not label.strip():
                raise ValueError(f"runs: a dict's keys are the runs' labels, non-empty strings, not {label!r}")
        return [as_run(r, strict) for r in runs.values()], list(runs)
    engine_runs = as_runs(runs, strict)
    return engine_runs, run_label(engine_runs)


def _text(series, name: str, where: str):
    """A column as a string Series, every value one field (no white space, not missing)."""
    values = series.astype("string")
    bad = (values.isna() | values.str.contains(r"\s", regex=True).fillna(True)).to_numpy(dtype=bool)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise InputError(where, k + 1, f"{name} {_shown(series.iloc[k])!r} is not one field of text")
    return values.reset_index(drop=True)


INT64_MAX = 2**63 - 1


def _integers(series, name: str, where: str, required: bool = False):
    """A column of whole numbers as a string Series ('' where missing); a value that is not a
    whole number (a bool, a fraction, text, beyond a 64-bit integer), or a missing value in a
    ``required`` column, is an error at its row."""
    import pandas as pd

    series = series.reset_index(drop=True)
    missing = series.isna().to_numpy(dtype=bool)
    if required and missing.any():
        raise InputError(where, int(np.flatnonzero(missing)[0]) + 1, f"{name} is missing (every row needs one)")
    if pd.api.types.is_bool_dtype(series.dtype):
        bad = ~missing
    elif pd.api.types.is_integer_dtype(series.dtype):  # exact: an int64, Int64 or uint64 column
        big = pd.api.types.is_unsigned_integer_dtype(series.dtype) and len(series) and series.max() > INT64_MAX
        bad = (series > INT64_MAX).fillna(False).to_numpy(dtype=bool) if big else np.zeros(len(series), dtype=bool)
        if not bad.any():
            return series.astype("Int64").astype("string").fillna("")
    else:
        numbers = pd.to_numeric(series, errors="coerce")
        values = numbers.to_numpy(dtype=float, na_value=np.nan)
        with np.errstate(invalid="ignore"):
            bad = ~missing & (np.isnan(values) | (np.mod(values, 1) != 0) | (np.abs(values) > INT64_MAX)
                              | series.map(lambda v: isinstance(v, (bool, np.bool_))).to_numpy(dtype=bool))
        if not bad.any():
            return numbers.astype("Int64").astype("string").fillna("")
    k = int(np.flatnonzero(bad)[0])
    raise InputError(where, k + 1, f"{name} {_shown(series.iloc[k])!r} is not a whole number (below 2^63)")


def _shown(value):
    """A frame's value as Python writes it (``5``, not ``np.int64(5)``)."""
    return value.item() if isinstance(value, np.generic) else value


def _optional(frame, column: str, default: str):
    """A column the reader does not read (rank, rsv) as one field per row: its text, or ``default``."""
    import pandas as pd

    if column not in frame.columns:
        return pd.Series([default] * len(frame), dtype="string")
    values = frame[column].astype("string").reset_index(drop=True)
    return values.where(values.notna() & ~values.str.contains(r"\s", regex=True).fillna(True), default)


def _frame_name(frame, kind: str) -> str:
    name = frame.attrs.get("name") if hasattr(frame, "attrs") else None
    return f"<{kind} DataFrame{' ' + str(name) if name else ''}>"


def _need(frame, columns: Iterable[str], where: str) -> None:
    """Each of ``columns`` is in the frame, and no column readsim reads is there twice."""
    read = dict.fromkeys((*RUN_COLUMNS, *QRELS_COLUMNS, "xpath"))
    twice = [c for c in read if c in frame.columns and np.count_nonzero(frame.columns == c) > 1]
    if twice:
        raise InputError(where, None, f"two columns named {twice[0]} (columns: {', '.join(map(str, frame.columns))})")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise InputError(where, None, f"no column {', '.join(missing)} (columns: {', '.join(map(str, frame.columns))})")


def _spans(frame, where: str):
    """``offset`` and ``length`` as text ('' for both missing: no passage); one without the other
    is an error at its row."""
    import pandas as pd

    if "offset" not in frame.columns and "length" not in frame.columns:
        empty = pd.Series([""] * len(frame), dtype="string")
        return empty, empty
    _need(frame, ("offset", "length"), where)
    offset, length = _integers(frame["offset"], "offset", where), _integers(frame["length"], "length", where)
    half = ((offset == "") != (length == "")).to_numpy(dtype=bool)
    if half.any():
        raise InputError(where, int(np.flatnonzero(half)[0]) + 1,
                         "offset and length go together (both missing: the whole article)")
    return offset, length


def _read_rows(reader, where: str, data: bytes, rows: np.ndarray):
    """Read ``data`` (made from a frame) with ``reader``; line k of it is frame row ``rows[k - 1]``."""
    try:
        result = reader(where, data)
    except InputError as exc:
        line = int(rows[exc.line - 1]) + 1 if exc.line and exc.line <= len(rows) else exc.line
        raise InputError(where, line, exc.reason) from None
    result.diagnostics[:] = [Diagnostic(d.path, int(rows[d.line - 1]) + 1 if d.line and d.line <= len(rows) else d.line,
                                        d.message) for d in result.diagnostics]
    warn(result.diagnostics)
    return result


def _lines(*columns) -> bytes:
    """Rows of string Series joined by spaces (empty fields left out), one line each."""
    line = columns[0]
    for c in columns[1:]:
        line = line + (" " + c).where(c != "", "")
    return ("\n".join(line.tolist()) + "\n").encode() if len(line) else b""


def _run_from_frame(frame, strict: bool) -> _EngineRun:
    """The FOL run a frame stands for, one line per row in the frame's order: as in a file, the
    order of the rows is the ranking (reference section 2.3) and ``rank`` and ``rsv`` are not
    read (sort the frame first, e.g. ``frame.sort_values(["topic", "rsv"], ascending=[True,
    False], kind="stable")``)."""
    import pandas as pd

    where = _frame_name(frame, "run")
    _need(frame, ("topic", "article"), where)
    topic, article = _text(frame["topic"], "topic", where), _text(frame["article"], "article", where)
    n = len(frame)
    rank = _optional(frame, "rank", "0") if "rank" in frame.columns else pd.Series(np.arange(1, n + 1)).astype("string")
    run_id = _text(frame["run_id"], "run_id", where) if "run_id" in frame.columns else pd.Series(["run"] * n, dtype="string")
    offset, length = _spans(frame, where)
    xpath = frame["xpath"].astype("string").fillna("").reset_index(drop=True) if "xpath" in frame.columns else \
        pd.Series([""] * n, dtype="string")
    q0 = pd.Series(["Q0"] * n, dtype="string")
    data = _lines(topic, q0, article, rank, _optional(frame, "rsv", "0"), run_id, offset, length,
                  xpath.where(offset == "", ""))
    return _read_rows(lambda path, raw: _read_run(path, strict, raw), where, data, np.arange(n))


def _qrels_from_frame(frame) -> _EngineQrels:
    """The FOL qrels a frame stands for: one line per (topic, article), in order of first
    appearance, with the passages of its rows; ``doc_length``, ``rel_size`` and ``bep`` from its
    first row (``rel_size`` missing: the passages' summed length)."""
    import pandas as pd

    where = _frame_name(frame, "qrels")
    _need(frame, ("topic", "article", "doc_length"), where)
    n = len(frame)
    t = pd.DataFrame({"topic": _text(frame["topic"], "topic", where),
                      "article": _text(frame["article"], "article", where),
                      "doc_length": _integers(frame["doc_length"], "doc_length", where, required=True)})
    offset, length = _spans(frame, where)
    t["pair"] = (offset + ":" + length).where(offset != "", "")
    t["size"] = pd.to_numeric(length, errors="coerce").fillna(0).astype("int64")
    for c in ("rel_size", "bep"):
        t[c] = _integers(frame[c], c, where) if c in frame.columns else pd.Series([""] * n, dtype="string")
    t["row"] = np.arange(n)
    groups = t.groupby(["topic", "article"], sort=False)
    first = groups.first()
    first["row"] = groups["row"].min()
    first["passages"] = groups["pair"].agg(lambda p: " ".join(x for x in p if x))
    first["rel_size"] = first["rel_size"].where(first["rel_size"] != "", groups["size"].sum().astype("string"))
    missing_bep = ((first["passages"] != "") & (first["bep"] == "")).to_numpy(dtype=bool)
    if missing_bep.any():
        k = int(np.flatnonzero(missing_bep)[0])
        raise InputError(where, int(first["row"].iloc[k]) + 1, f"article {first.index[k][1]}: highlighted passages "
                         "need the bep column (the best entry point comes before the passages in a qrels line)")
    keys = first.index.to_frame(index=False)
    q0 = pd.Series(["Q0"] * len(first), dtype="string")
    first = first.reset_index(drop=True)
    data = _lines(keys["topic"].astype("string"), q0, keys["article"].astype("string"), first["rel_size"],
                  first["doc_length"], first["bep"], first["passages"].astype("string"))
    return _read_rows(lambda path, raw: _read_qrels(path, raw), where, data, first["row"].to_numpy())


def run_label(runs: list[_EngineRun]) -> list[str]:
    """The label of each run in results: ``readsim-eval``'s one naming rule
    (:func:`readsim.core.run_comparison.run_labels`: its run id; runs sharing an id are labelled by
    their file names, a name still shared gets `` (2)``, ...); one warning per shared id."""
    from readsim.core.run_comparison import run_labels

    labels, said = run_labels(runs)
    warn([Diagnostic("readsim", None, message) for message in said])
    return labels
