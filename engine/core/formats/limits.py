"""INEX 2010's restricted tasks and the Efficiency task: a FOL run's limits checked and its
result lines cut to them before the run is evaluated (docs/reference.md section 5.14).

Each task (:data:`TASKS`) limits one thing, counted over the result lines in file order:

- ``restricted-ric`` (Restricted Relevant in Context): at most 500 characters per article,
  counted over the (topic, article)'s lines;
- ``restricted-focused`` (Restricted Focused): at most 1,000 characters per topic;
- ``efficiency-15``, ``efficiency-150``, ``efficiency-1500`` (the Efficiency task's Thorough
  runs): at most 15, 150 or 1,500 result lines per topic.

Characters are units of the run's offsets (UTF-8 bytes for the real INEX 2009/2010 runs, code
points with ``--unit chars``): a line retrieves its length, text two lines share counted each
time. A run over its limit is evaluated as the official procedure did: only what comes first
counts. The line that crosses a character limit is cut at the limit, later lines of the same
article (topic) keep their rank but retrieve nothing (Restricted Relevant in Context), or are
dropped (Restricted Focused); lines past the Efficiency task's count are dropped. One warning
per run names the first line over the limit, its topic and article, and how many are over.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..errors import Diagnostic, InputError
from .run import RunLines


@dataclass(frozen=True)
class Limit:
    """A task's limit: ``per`` ``"article"`` or ``"topic"``; ``what`` ``"characters"`` (a size
    in the run's unit) or ``"results"`` (result lines); ``most``: the largest allowed count;
    ``title``: the task's name in INEX 2010's overview; ``measures``: the list measures its
    results were reported with (the default ``-m`` of ``readsim-eval --task``)."""

    per: str
    what: str
    most: int
    title: str
    measures: tuple[str, ...]


_RIC = tuple(f"gP@{r}/T2IP(300)" for r in (5, 10, 25, 50)) + ("AgP/T2IP(300)",)
_THOROUGH = ("iP[0.00]", "iP[0.01]", "iP[0.05]", "iP[0.10]", "MAiP")

TASKS: dict[str, Limit] = {
    "restricted-ric": Limit("article", "characters", 500, "Restricted Relevant in Context", _RIC),
    "restricted-focused": Limit("topic", "characters", 1000, "Restricted Focused", ("charP",)),
    "efficiency-15": Limit("topic", "results", 15, "Efficiency (15 results per topic)", _THOROUGH),
    "efficiency-150": Limit("topic", "results", 150, "Efficiency (150 results per topic)", _THOROUGH),
    "efficiency-1500": Limit("topic", "results", 1500, "Efficiency (1,500 results per topic)", _THOROUGH),
}
"""INEX 2010's restricted tasks and the Efficiency task's three run sizes (reference 5.14)."""


def task_limit(task: str) -> Limit:
    """The :class:`Limit` of ``task`` (a key of :data:`TASKS`); ``ValueError`` naming the known
    tasks for any other."""
    if not isinstance(task, str) or task not in TASKS:
        raise ValueError(f"unknown task {task!r}: give one of {', '.join(TASKS)}")
    return TASKS[task]


def restrict(path: str, cols: RunLines, task: str) -> tuple[RunLines, list[Diagnostic]]:
    """``cols`` (a run's result lines in file order) cut to ``task``'s limit, and the warning
    when the run goes over it (none when it keeps to it). Raises :class:`InputError` naming
    the line for a whole-article (6-field) or XPath (7-field) line under a character limit: its
    size is not known before the article is read. ``ValueError`` for an unknown ``task``."""
    limit = task_limit(task)
    n = len(cols.line)
    if limit.what == "characters":
        other = np.flatnonzero(cols.kind != 8)
        if len(other):
            raise InputError(path, int(cols.line[other[0]]), (
                f"{limit.title} limits characters: every result line needs an offset and a length "
                "(8 fields); a whole-article or XPath line's size is not known before the article is read"))
        size = cols.end - cols.start
    else:
        size = np.ones(n, dtype=np.int64)
    keys = (cols.topic,) if limit.per == "topic" else (cols.topic, cols.article)
    group = _groups(keys, n)
    before = _counted_before(group, size)
    allowed = np.clip(limit.most - before, 0, size)
    over = np.flatnonzero(allowed < size)
    if not len(over):
        return cols, []
    first = int(over[0])
    said = _warning(path, cols, limit, first, before, size, len(np.unique(group[over])),
                    len(np.unique(_groups((cols.topic,), n)[over])))
    if limit.per == "article":  # Restricted RiC: every article keeps its rank
        return replace(cols, end=cols.start + allowed), [said]
    keep = np.flatnonzero(allowed > 0)
    end = cols.start + allowed if limit.what == "characters" else cols.end
    kept = replace(cols, line=cols.line[keep], topic=cols.topic[keep], article=cols.article[keep],
                   kind=cols.kind[keep], start=cols.start[keep], end=end[keep],
                   run_id=cols.run_id[keep],
                   xpaths={k: cols.xpaths[int(r)] for k, r in enumerate(keep.tolist()) if int(r) in cols.xpaths})
    return kept, [said]


def _groups(keys: tuple[np.ndarray, ...], n: int) -> np.ndarray:
    """One id per line for each distinct key (or pair of keys)."""
    if not n:
        return np.zeros(0, dtype=np.int64)
    stacked = np.column_stack([np.asarray(k).astype(np.int64, copy=False) for k in keys])
    return np.unique(stacked, axis=0, return_inverse=True)[1].reshape(-1)


def _counted_before(group: np.ndarray, size: np.ndarray) -> np.ndarray:
    """For each line, the sizes of the earlier lines (file order) of its group, summed."""
    order = np.argsort(group, kind="stable")
    s = size[order]
    total = np.cumsum(s) - s  # before each line, over all groups
    g = group[order]
    start = np.ones(len(g), dtype=bool)
    start[1:] = g[1:] != g[:-1]
    firsts = np.flatnonzero(start)
    base = np.repeat(total[firsts], np.diff(np.append(firsts, len(g))))
    out = np.empty_like(total)
    out[order] = total - base
    return out


def _warning(path: str, cols: RunLines, limit: Limit, first: int, before: np.ndarray, size: np.ndarray,
             count: int, topics: int) -> Diagnostic:
    """The warning naming line ``first``, the first over the limit; ``count`` articles (topics)
    in ``topics`` topics are over it."""
    topic = cols.topic_names(cols.topic[first:first + 1])[0]
    article = cols.article_names(cols.article[first:first + 1])[0]
    unit = "characters" if limit.what == "characters" else "result lines"
    where = f"topic {topic}, article {article}"
    if limit.what == "characters":
        reached = int(before[first] + size[first])
        what = f"its {limit.per} reaches {reached:,} {unit} with this line"
    else:
        what = f"this is its topic's result {int(before[first]) + 1:,}"
    rest = _count(count, limit.per)
    if limit.per == "article":
        rest += " in " + _count(topics, "topic")
    rest += " over it in all"
    cut = {"article": f"each article's text past its first {limit.most:,} characters (file order) retrieves nothing",
           "topic": (f"each topic's text past its first {limit.most:,} characters (file order) is dropped"
                     if limit.what == "characters" else f"each topic's lines past its first {limit.most:,} are dropped")}
    return Diagnostic(path, int(cols.line[first]), (
        f"{limit.title} allows at most {limit.most:,} {unit} per {limit.per}; {where} goes over it ({what}; "
        f"{rest}): {cut[limit.per]}, as the official evaluation counted only the first {limit.most:,}"))


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")
