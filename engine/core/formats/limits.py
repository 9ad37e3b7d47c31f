"""INEX 2010's restricted tasks and the Efficiency task: a FOL run's limits checked and its
result lines cut to them before the run is evaluated (docs/reference.md section 5.14).

Each task (:data:`TASKS`) limits one thing:

- ``restricted-ric`` (Restricted Relevant in Context): at most 500 characters per article: the
  article's retrieved text (the union of its lines' passages) in document order, the order the
  reader reads it in;
- ``restricted-focused`` (Restricted Focused): at most 1,000 characters per topic, its lines'
  lengths counted in file order (the ranking);
- ``efficiency-15``, ``efficiency-150``, ``efficiency-1500`` (the Efficiency task's Thorough
  runs): at most 15, 150 or 1,500 result lines per topic, in file order.

Characters are units of the run's offsets (UTF-8 bytes for the real INEX 2009/2010 runs, code
points with ``--unit chars``). A run over its limit is evaluated on what comes first: an
article's text past its 500th character retrieves nothing (every line and article keeps its
place); the topic's line that crosses 1,000 characters is cut there and its later lines are
dropped; lines past the Efficiency task's count are dropped. One warning per run names the
first line over the limit, its topic and article, and how many are over.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .. import intervals as iv
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
    if limit.per == "article":
        return _cut_articles(path, cols, limit)
    group = _groups((cols.topic,), n)
    before = _counted_before(group, size)
    allowed = np.clip(limit.most - before, 0, size)
    over = np.flatnonzero(allowed < size)
    if not len(over):
        return cols, []
    first = int(over[0])
    reached = (f"its topic reaches {int(before[first] + size[first]):,} characters with this line"
               if limit.what == "characters" else f"this is its topic's result {int(before[first]) + 1:,}")
    said = _warning(path, cols, limit, first, reached, _count(len(np.unique(group[over])), "topic"))
    keep = np.flatnonzero(allowed > 0)
    end = cols.start + allowed if limit.what == "characters" else cols.end
    kept = replace(cols, line=cols.line[keep], topic=cols.topic[keep], article=cols.article[keep],
                   kind=cols.kind[keep], start=cols.start[keep], end=end[keep],
                   run_id=cols.run_id[keep],
                   xpaths={k: cols.xpaths[int(r)] for k, r in enumerate(keep.tolist()) if int(r) in cols.xpaths})
    return kept, [said]


def _cut_articles(path: str, cols: RunLines, limit: Limit) -> tuple[RunLines, list[Diagnostic]]:
    """Restricted Relevant in Context: each (topic, article)'s retrieved text, the union of its
    lines' passages, cut after its first ``limit.most`` characters in document order (the order
    the reader reads an article's passages in, reference section 3); every line keeps its place
    (a line wholly past the cut retrieves nothing, its article keeps its rank)."""
    n = len(cols.line)
    group = _groups((cols.topic, cols.article), n)
    G = int(group.max()) + 1 if n else 0
    spans = np.flatnonzero(cols.end > cols.start)
    o = spans[np.lexsort((cols.start[spans], group[spans]))]
    u_start, u_end, u_gid, _ = iv.normalize_groups(group[o], cols.start[o], cols.end[o], G)
    length = u_end - u_start
    total = np.bincount(u_gid, weights=length, minlength=G).astype(np.int64)
    before = np.cumsum(length) - length  # over all groups, then made per group
    firsts = np.flatnonzero(np.r_[True, u_gid[1:] != u_gid[:-1]]) if len(u_gid) else np.zeros(0, dtype=np.int64)
    before -= np.repeat(before[firsts], np.diff(np.append(firsts, len(u_gid))))
    crossing = (before < limit.most) & (before + length >= limit.most)
    cut = np.full(G, np.iinfo(np.int64).max, dtype=np.int64)  # the article's first position past the limit
    cut[u_gid[crossing]] = u_start[crossing] + (limit.most - before[crossing])
    over = np.flatnonzero(cols.end > cut[group])
    if not len(over):
        return cols, []
    first = int(over[0])
    articles = len(np.unique(group[over]))
    said = _warning(path, cols, limit, first,
                    f"its article retrieves {int(total[group[first]]):,} characters, this line some past the first "
                    f"{limit.most:,} in document order",
                    f"{_count(articles, 'article')} in {_count(len(np.unique(cols.topic[over])), 'topic')}")
    c = cut[group]
    return replace(cols, start=np.minimum(cols.start, c), end=np.minimum(cols.end, c)), [said]


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


def _warning(path: str, cols: RunLines, limit: Limit, first: int, reached: str, over: str) -> Diagnostic:
    """The warning naming line ``first``, the first over the limit (``reached`` says how);
    ``over``: how many articles or topics are over it."""
    topic = cols.topic_names(cols.topic[first:first + 1])[0]
    article = cols.article_names(cols.article[first:first + 1])[0]
    unit = "characters" if limit.what == "characters" else "result lines"
    cut = {"article": f"each article's text past its first {limit.most:,} characters (document order) retrieves nothing",
           "topic": (f"each topic's text past its first {limit.most:,} characters (file order) is dropped"
                     if limit.what == "characters" else f"each topic's lines past its first {limit.most:,} are dropped")}
    return Diagnostic(path, int(cols.line[first]), (
        f"{limit.title} allows at most {limit.most:,} {unit} per {limit.per}; topic {topic}, article {article} goes "
        f"over it ({reached}; {over} over it in all): {cut[limit.per]}, as the official evaluation counted only "
        f"the first {limit.most:,}"))


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")
