"""Tables exported with their provenance: which files, which edits, which settings.

A number in a paper or a bug report is only worth what its context says. Every table the window
exports (the ranked list, where the run loses, the per-article costs, the Runs window's tables)
goes through :func:`write_table`, which writes

- ``.csv``: first the provenance as comment lines (``# key: value``, one per line; read back with
  ``pandas.read_csv(path, comment="#")``), then a header row and one row per record; floats at
  full precision (``repr``);
- ``.json``: ``{"provenance": {...}, "columns": [...], "rows": [{column: value}, ...]}``.

:func:`provenance` builds the context from a main window: the readsim version, the input files
(qrels, every run, collection, topics), the open run's source (its file, or ``edited from FILE,
N edits``: :func:`readsim.app.export.run_source`), the topic and article, and the reader's
settings. Windows without a session (the Runs window) pass their own dict. Writes are atomic
(:mod:`readsim.core.atomic`): ``OSError`` naming the path, ``ValueError`` for another suffix.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from readsim import __version__
from readsim.core.atomic import write_text


def provenance(window, **extra) -> dict:
    """The context of the main window's numbers as a JSON-ready dict: ``readsim`` (version),
    ``files`` (``qrels``, ``runs``, ``collection``, ``topics``: paths or None), ``run`` (the open
    run's id), ``run_file`` (its source, edits included), ``topic``, ``article``, ``settings``
    (mode, screen, tolerance, alpha, beta, levels: sizes in ``unit``), ``unit``; then ``extra``."""
    from .export import run_source

    s = window.session
    st = s.settings
    cur = s.current
    topics = getattr(s, "topics_path", None)
    return {
        "readsim": __version__,
        "files": {
            "qrels": getattr(s.qrels, "path", None),
            "runs": [r.path for r in s.runs],
            "collection": str(s.collection.root) if s.collection is not None else None,
            "topics": str(topics) if topics else None,
        },
        "run": s.run.run_id if s.run is not None else None,
        "run_file": run_source(window, s.run),
        "topic": s.topic,
        "article": cur.name if cur is not None else None,
        "settings": {"mode": st.mode.value, "screen": st.screen, "tolerance": st.tolerance,
                     "alpha": st.alpha, "beta": st.beta, "levels": st.levels},
        "unit": s.unit,
        **extra,
    }


def _cell(value) -> object:
    if isinstance(value, float):
        return repr(value)
    if value is None:
        return ""
    return value


def _flat(prefix: str, value) -> Iterable[tuple[str, object]]:
    if isinstance(value, Mapping):
        for k, v in value.items():
            yield from _flat(f"{prefix}.{k}" if prefix else str(k), v)
    elif isinstance(value, (list, tuple)):
        yield prefix, "; ".join(str(v) for v in value)
    else:
        yield prefix, value


def table_text(columns: Sequence[str], rows: Iterable[Mapping], prov: Mapping, suffix: str) -> str:
    """The text :func:`write_table` writes for ``suffix`` (``.csv`` or ``.json``)."""
    rows = list(rows)
    if suffix == ".json":
        return json.dumps({"provenance": prov, "columns": list(columns),
                           "rows": [{c: r.get(c) for c in columns} for r in rows]}, indent=2) + "\n"
    if suffix != ".csv":
        raise ValueError(f"a table is written as .csv or .json, not {suffix or 'a file without suffix'}")
    f = io.StringIO(newline="")
    for key, value in _flat("", prov):
        # one physical line per entry: a newline inside a value would end the comment
        text = "" if value is None else str(value)
        f.write(f"# {key}: {' '.join(text.splitlines())}\n")
    w = csv.writer(f)
    w.writerow(columns)
    for r in rows:
        w.writerow([_cell(r.get(c)) for c in columns])
    return f.getvalue()


def write_table(path: str | Path, columns: Sequence[str], rows: Iterable[Mapping], prov: Mapping) -> Path:
    """Write ``rows`` (dicts keyed by ``columns``) to ``path`` (``.csv`` or ``.json``, see the
    module's docstring) with ``prov`` (:func:`provenance` or a window's own dict), atomically.
    Raises ``ValueError`` for another suffix, ``OSError`` naming the path when it cannot be
    written (nothing is written then)."""
    path = Path(path)
    text = table_text(columns, rows, prov, path.suffix.lower())
    write_text(path, text, newline="")
    return path
