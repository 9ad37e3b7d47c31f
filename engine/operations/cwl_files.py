"""A run's reader as C/W/L: per-topic gains and costs, readsim's expected values, and the files
``cwl-eval`` reads (``readsim-eval --cwl DIR``; docs/reference.md sections 5.15 and 5.16).

For each topic of the run that the qrels judge, each ranked article is read in its reading order
up to the T2I stop (tolerance ``t``): gain = relevant positions read, cost = positions read
(:mod:`readsim.core.cwl`). Written to ``DIR``, atomically, per run ``LABEL``:

- ``LABEL.run``: a TREC run, ``topic cCOST article rank score LABEL`` (the second column names
  the article's cost in ``LABEL.costs``);
- ``LABEL.gains``: ``topic 0 article gain`` (every ranked article, gain 0 included);
- ``LABEL.costs``: ``cCOST COST``, one line per cost that occurs;
- ``LABEL.tbgH-gains``: per TBG metric, each article's gain discounted within the article
  (:func:`readsim.core.cwl.tbg_gains`): with it in place of ``LABEL.gains``, cwl-eval's ETU of
  ``TBG-H@H`` is ``TBG@H/T2IP(t)``, readsim's TBG over characters;
- ``LABEL.expected``: readsim's values in cwl-eval's output (``Topic Metric EU ETU EC ETC ED``,
  4 decimals), to ``diff`` with cwl-eval's;
- ``metrics.txt``: the metrics file (``-m``); ``README``: the command for each run.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from readsim.core import cwl
from readsim.core.atomic import write_text
from readsim.core.formats import Qrels, Run
from readsim.core.reading import Mode, Pieces

if TYPE_CHECKING:
    from readsim.core.collection import Collection


@dataclass
class TopicTrail:
    """One topic's reader: ``articles`` in rank order, ``read[k]`` the pieces read of article k,
    ``gain`` and ``cost`` int64 ``(n,)`` in positions (characters or bytes)."""

    topic: str
    articles: list[str]
    read: list[Pieces]
    gain: np.ndarray
    cost: np.ndarray


def trails(qrels: Qrels, run: Run, tolerance: int = 300, mode: Mode | str = Mode.NATURAL,
           collection: Collection | None = None,
           progress: Callable[[int, int], None] | None = None) -> list[TopicTrail]:
    """Each judged topic of ``run`` (run order) as its reader's trail: every ranked article,
    judged or not, read up to the T2I stop with ``tolerance`` (>= 1) in reading ``mode``.
    Raises :class:`~readsim.core.errors.InputError` as the evaluation does, ``ValueError`` for a
    tolerance below 1."""
    if tolerance < 1:
        raise ValueError(f"the C/W/L reader's tolerance t must be >= 1, not {tolerance}")
    topics = [t for t in run.topics if t in qrels.topics]
    out = []
    for done, topic in enumerate(topics, 1):
        read = cwl.read_topic(qrels, run, topic, tolerance, mode, collection)
        gain, cost = cwl.gains_costs(read)
        out.append(TopicTrail(topic, list(run.article_names(topic)), read, gain, cost))
        if progress is not None:
            progress(done, len(topics))
    return out


def depth_of(all_trails: Sequence[TopicTrail]) -> int:
    """The depth of the projection: one more than the longest ranking (cwl-eval's ``--max_depth``;
    U's last item weighs 0)."""
    return max((len(t.articles) for t in all_trails), default=0) + 1


def expected_lines(all_trails: Sequence[TopicTrail], metrics: Sequence[cwl.CwlMetric], depth: int) -> str:
    """readsim's C/W/L values as cwl-eval prints them, topic by topic, metric by metric."""
    rows = []
    for t in all_trails:
        for m in metrics:
            v = cwl.view(m, t.gain, t.cost, depth)
            rows.append(f"{t.topic}\t{m.name}\t{v.EU:.4f}\t{v.ETU:.4f}\t{v.EC:.4f}\t{v.ETC:.4f}\t{v.ED:.4f}\n")
    return "".join(rows)


def write_cwl(folder: str | os.PathLike, label: str, all_trails: Sequence[TopicTrail],
              metrics: Sequence[cwl.CwlMetric]) -> str:
    """Write the run's files to ``folder`` (created if absent) and return the cwl-eval command
    that reads them (run from ``folder``). Raises ``OSError``."""
    os.makedirs(folder, exist_ok=True)
    depth = depth_of(all_trails)
    run_rows, gain_rows, costs = [], [], set()
    for t in all_trails:
        for rank, (name, g, c) in enumerate(zip(t.articles, t.gain.tolist(), t.cost.tolist()), 1):
            run_rows.append(f"{t.topic} c{c} {name} {rank} {-rank} {label}\n")
            gain_rows.append(f"{t.topic} 0 {name} {g}\n")
            costs.add(c)
    top = max((int(t.gain.max(initial=0)) for t in all_trails), default=0)
    write_text(os.path.join(folder, f"{label}.run"), "".join(run_rows))
    write_text(os.path.join(folder, f"{label}.gains"), "".join(gain_rows))
    for m in metrics:
        if m.kind == "TBG":
            rows = [f"{t.topic} 0 {name} {g!r}\n" for t in all_trails
                    for name, g in zip(t.articles, cwl.tbg_gains(t.read, m.param).tolist())]
            write_text(os.path.join(folder, f"{label}.tbg{m.param}-gains"), "".join(rows))
    write_text(os.path.join(folder, f"{label}.costs"), "".join(f"c{c} {c}\n" for c in sorted(costs)))
    write_text(os.path.join(folder, f"{label}.expected"), expected_lines(all_trails, metrics, depth))
    write_text(os.path.join(folder, "metrics.txt"), "".join(m.cwl_eval_line + "\n" for m in metrics))
    command = (f"cwl-eval {label}.gains {label}.run -c {label}.costs -m metrics.txt "
               f"--max_gain {max(top, 1)} --max_depth {depth}")
    readme = os.path.join(folder, "README")
    before = open(readme, encoding="utf-8").read() if os.path.isfile(readme) else ""
    lines = [ln for ln in before.splitlines(keepends=True) if f" {label}.gains " not in ln]
    write_text(readme, "".join(lines) + command + f" > {label}.cwl  # compare with {label}.expected\n")
    return command


@dataclass
class ReaderCurve:
    """One metric of :func:`reader_view`: the continuation per piece read (``position``, float
    ``(k,)``, positions read before the piece; ``probability``, ``D(p) / D(0)``), the measure over
    characters (``value``: U@L or TBG@H, section 5.16) and the document-level projection
    (``view``: EU, ETU, EC, ETC, ED at depth n + 1, section 5.15); ``end``: the positions read in all."""

    metric: cwl.CwlMetric
    position: np.ndarray
    probability: np.ndarray
    end: int
    value: float
    view: cwl.CwlView


def reader_view(pieces: Sequence[Pieces], tolerance: int, L: int, H: int) -> list[ReaderCurve]:
    """A topic's reader as C/W/L (the window's Sensitivity dock): ``pieces[k]`` the k-th ranked
    article's reading order, read up to the T2I stop with ``tolerance``; U-measure with ``L`` and
    TBG with ``H`` (positions, >= 1). Raises ``ValueError`` for a parameter below 1."""
    read = [cwl.read_part(ps, tolerance) for ps in pieces]
    gain, cost = cwl.gains_costs(read)
    out = []
    for metric in (cwl.CwlMetric("U", L), cwl.CwlMetric("TBG", H)):
        x, y = cwl.continuation(read, metric)
        value = cwl.u_chars(read, L) if metric.kind == "U" else cwl.tbg_chars(read, H)
        out.append(ReaderCurve(metric, x, y, int(cost.sum()), value, cwl.view(metric, gain, cost, len(read) + 1)))
    return out
