"""The per-topic difference of two compared runs, as the difference plot draws it (docs/reference.md
section 12.5): one run's value minus another's on every paired topic, the topics sorted by that
difference (the run's largest gain first), the mean difference and its paired t interval.

The numbers are :class:`readsim.core.run_comparison.Comparison`'s: the same rounded per-topic values
(policy 3) and the same differences as its per-topic table (:meth:`Comparison.per_topic`,
``readsim-eval compare --per-topic``). Pure numpy; scipy computes the interval.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .paired_statistics import settle, t_interval


@dataclass(frozen=True)
class TopicDifferences:
    """Run ``run`` against run ``reference`` under ``measure`` on ``t`` paired topics.

    ``topics`` ``(t,)`` ids, the run's largest gain first (for an effort measure, the most negative
    difference first), ties by topic id; ``diff`` ``(t,)`` float: the run's value minus the
    reference's on each topic, in the measure's unit and direction; ``gain`` ``(t,)``: ``diff``
    oriented, > 0 where the run does better; ``mean`` the mean of ``diff``; ``low``, ``high`` the
    two-sided paired t interval of that mean at ``level`` (Student's t on the ``t - 1`` degrees of
    freedom of the differences, ``scipy.stats``; [mean, mean] when every difference is the same)."""

    measure: str
    run: str
    reference: str
    lower_is_better: bool
    topics: list[str]
    diff: np.ndarray
    mean: float
    low: float
    high: float
    level: float

    @property
    def gain(self) -> np.ndarray:
        return -self.diff if self.lower_is_better else self.diff


def topic_differences(c, k: int, run: int | None = None, reference: int | None = None,
                      level: float = 0.95) -> TopicDifferences:
    """The per-topic differences of comparison ``c`` (a :class:`~readsim.core.run_comparison.Comparison`)
    under measure index ``k``: run index ``run`` (default: the runner-up under ``k``) minus run index
    ``reference`` (default: the run's reference in the per-topic table, the best-ranked run, or
    for the best-ranked run the runner-up). ``level`` in (0, 1). Raises ``ValueError`` for a
    run index out of range, a run against itself or a level outside (0, 1)."""
    n = len(c.runs)
    run = int(c.order[k][1]) if run is None else int(run)
    reference = int(c.references(k)[run]) if reference is None and 0 <= run < n else reference
    if not (0 <= run < n and reference is not None and 0 <= int(reference) < n):
        raise ValueError(f"run indices are 0 to {n - 1}, not {run} and {reference}")
    reference = int(reference)
    if run == reference:
        raise ValueError(f"a run cannot be set against itself ({c.runs[run]})")
    if not 0 < level < 1:
        raise ValueError(f"the interval's level must be above 0 and below 1, not {level!r}")
    lower = bool(c.lower_is_better[k])
    diff = settle(c.scores[k, run] - c.scores[k, reference])
    gain = -diff if lower else diff
    by_id = np.argsort(np.argsort(np.array(c.topics, dtype=object), kind="stable"), kind="stable")
    order = np.lexsort((by_id, -gain))
    mean = float(settle(np.mean(diff, keepdims=True))[0])
    low, high = (float(v) for v in settle(t_interval(diff[None, :], 1 - level)[0]))
    return TopicDifferences(c.measures[k], c.runs[run], c.runs[reference], lower, [c.topics[t] for t in order],
                            diff[order], mean, low, high, level)
