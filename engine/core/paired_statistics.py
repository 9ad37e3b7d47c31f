"""The statistics of comparing runs (docs/reference.md section 12.1), scipy's (:mod:`scipy.stats`), on
oriented per-topic values ``(n, t)`` of ``n`` runs over ``t`` paired topics: the values rounded
(:func:`settle`), the bootstrap, randomization and t tests of pairs of runs, the randomised Tukey
HSD over all runs (:func:`tukey_hsd_test`), the intervals of the runs' means and of the pairs' mean
differences, the corrections for many pairs (:func:`adjust`), effect sizes and the correlation of
two measures over the runs (:func:`correlate`). The policies they follow
(pairing, orientation, ties, direction, intervals, corrections, effect sizes, correlations) are
stated once, with :func:`readsim.core.run_comparison.compare_runs` that calls them, in
:mod:`readsim.core.run_comparison`; "policy n" below is its policy n. Pure numpy; scipy is
imported when a statistic is first computed.
"""

from __future__ import annotations

import warnings
import zlib

import numpy as np

TESTS = ("bootstrap", "t", "randomization", "tukey")
CORRECTIONS = ("none", "holm", "bonferroni", "bh")
DECIMALS = 12
"""Per-topic values are rounded to this many decimal places before any comparison (policy 3)."""
TOLERANCE = 1e-10
"""A resampled mean difference within this (times the largest absolute value, at least 1) is 0."""
MAX_CELLS = 4_000_000
"""Resampled values held at once (runs x resamples x topics for scipy's ``batch``; pairs x
resamples for the pairs' differences; a quarter of it, trials x topics x runs, for the randomised
Tukey HSD, which holds three arrays of that size at once)."""
MIN_CORRELATED = 3
"""Fewest runs a correlation is computed over (policy 8): two points always lie on a line, so
over two runs Kendall's tau and Pearson's r are +-1 whatever the measures say."""


def settle(values: np.ndarray) -> np.ndarray:
    """``values`` rounded to :data:`DECIMALS` places (policy 3): float64, same shape."""
    out = np.round(np.asarray(values, dtype=float), DECIMALS)
    out[out == 0] = 0.0  # no -0.0
    return out


# -- the statistics --------------------------------------------------------------------------------


_RNG_KEY: list[str] = []


def _rng_argument(generator: np.random.Generator) -> dict:
    """scipy >= 1.15 takes ``rng``; older versions (``scipy>=1.11`` is required) ``random_state``."""
    if not _RNG_KEY:
        import inspect

        from scipy import stats

        _RNG_KEY.append("rng" if "rng" in inspect.signature(stats.bootstrap).parameters else "random_state")
    return {_RNG_KEY[0]: generator}


def measure_generator(seed: int, name: str) -> np.random.Generator:
    """The random generator of measure ``name``: from ``seed`` and the measure's name, so a
    measure's results do not depend on the other measures asked for."""
    return np.random.default_rng([int(seed), zlib.crc32(name.encode())])


def _batch(n: int, t: int) -> int:
    return max(1, MAX_CELLS // max(1, n * t))


def _mean(x, axis=-1):
    return np.mean(x, axis=axis)


def _mean_difference(x, y, axis=-1):
    return np.mean(x - y, axis=axis)


def bootstrap_test(values: np.ndarray, better: np.ndarray, worse: np.ndarray, resamples: int, alpha: float,
                   generator: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Paired bootstrap (policy 4) of oriented ``values`` ``(n, t)``.

    Returns ``(p, ci, pair_ci)``: ``p`` ``(pairs,)`` one-tailed p of ``better[q]`` better than
    ``worse[q]``; ``ci`` ``(n, 2)`` the percentile interval of each run's mean at level
    ``1 - alpha``; ``pair_ci`` ``(pairs, 2)`` the percentile interval of the pair's mean difference
    (``better`` minus ``worse``) from the same resamples, two-sided at ``1 - alpha`` (policy 5):
    what ``scipy.stats.bootstrap`` gives on the pair's per-topic differences with the same seed."""
    from scipy import stats

    n, t = values.shape
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = stats.bootstrap((values,), _mean, n_resamples=resamples, vectorized=True, axis=-1,
                              method="percentile", confidence_level=1 - alpha, batch=_batch(n, t),
                              **_rng_argument(generator))
    dist = res.bootstrap_distribution  # (n, resamples)
    tol = TOLERANCE * max(1.0, float(np.max(np.abs(values), initial=0.0)))
    p = np.empty(len(better))
    pair_ci = np.empty((len(better), 2))
    step = _batch(1, resamples)  # pairs at a time
    for s in range(0, len(better), step):
        d = dist[better[s:s + step]] - dist[worse[s:s + step]]
        p[s:s + step] = np.mean(d <= tol, axis=-1)
        pair_ci[s:s + step] = np.percentile(d, [alpha / 2 * 100, (1 - alpha / 2) * 100], axis=-1).T  # scipy's percentile
    ci = np.column_stack([res.confidence_interval.low, res.confidence_interval.high])
    return p, ci, settle(pair_ci)


def randomization_test(values: np.ndarray, better: np.ndarray, worse: np.ndarray, resamples: int,
                       generator: np.random.Generator) -> np.ndarray:
    """Paired randomization test (policy 4) of oriented ``values`` ``(n, t)``: ``(pairs,)``
    one-tailed p of ``better[q]`` better than ``worse[q]``."""
    from scipy import stats

    n, t = values.shape
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = stats.permutation_test((values, np.zeros_like(values)), _mean_difference, permutation_type="samples",
                                     vectorized=True, n_resamples=resamples, alternative="greater", axis=-1,
                                     batch=_batch(n, t), **_rng_argument(generator))
    null = res.null_distribution  # (resamples or 2**t, n): mean of the sign-flipped values
    observed = np.mean(values, axis=-1)
    obs = observed[better] - observed[worse]
    exact = t < 63 and 2 ** t <= resamples
    adjustment = 0 if exact else 1
    tol = TOLERANCE * max(1.0, float(np.max(np.abs(values), initial=0.0)))
    gamma = np.maximum(np.abs(np.finfo(float).eps * 100 * obs), tol)  # scipy's gamma, at least our tolerance
    count = np.empty(len(better), dtype=np.int64)
    step = _batch(1, null.shape[0])  # pairs at a time
    for s in range(0, len(better), step):
        null_pairs = null[:, better[s:s + step]] - null[:, worse[s:s + step]]
        count[s:s + step] = np.count_nonzero(null_pairs >= obs[s:s + step] - gamma[s:s + step], axis=0)
    return np.clip((count + adjustment) / (null.shape[0] + adjustment), 0.0, 1.0)


def tukey_hsd_test(values: np.ndarray, better: np.ndarray, worse: np.ndarray, trials: int,
                   generator: np.random.Generator) -> np.ndarray:
    """Randomised Tukey HSD (policy 4; [Carterette 2012], its randomized Tukey HSD test) of oriented
    ``values`` ``(n, t)``: ``(pairs,)`` p of ``better[q]`` and ``worse[q]`` differing, adjusted
    for all ``n (n - 1) / 2`` pairs by the test itself.

    On each of ``trials`` trials, every topic's ``n`` values are shuffled across the runs
    (independently per topic: one permutation per topic, ``argsort`` of ``n`` uniform numbers
    drawn from ``generator`` in the order trial, topic, run), and the range (largest minus
    smallest) of the runs' means is kept. ``p`` = (trials whose range reaches the pair's observed
    ``|mean difference|`` + 1) / (``trials`` + 1), the randomization test's count (the observed
    assignment is one of the permutations, so p is never 0). A pair whose every difference is 0
    gets 1. Vectorised in chunks of trials x topics x runs."""
    n, t = values.shape
    observed = np.mean(values, axis=-1)
    obs = np.abs(observed[better] - observed[worse])
    tol = TOLERANCE * max(1.0, float(np.max(np.abs(values), initial=0.0)))
    reach = obs - np.maximum(np.abs(np.finfo(float).eps * 100 * obs), tol)  # as the randomization test's gamma
    by_topic = np.ascontiguousarray(values.T)  # (t, n)
    count = np.zeros(len(better), dtype=np.int64)
    step = max(1, MAX_CELLS // 4 // max(1, n * t))  # trials at a time
    for s in range(0, trials, step):
        size = min(step, trials - s)
        shuffle = np.argsort(generator.random((size, t, n)), axis=-1)
        shuffled = np.take_along_axis(np.broadcast_to(by_topic, (size, t, n)), shuffle, axis=-1)
        spread = np.ptp(np.mean(shuffled, axis=1), axis=-1)  # (size,)
        count += np.count_nonzero(spread[:, None] >= reach[None, :], axis=0)
    return np.clip((count + 1) / (trials + 1), 0.0, 1.0)


def pair_t_intervals(values: np.ndarray, better: np.ndarray, worse: np.ndarray, alpha: float) -> np.ndarray:
    """Student's t interval of each pair's mean difference (``better`` minus ``worse``, oriented
    ``values`` ``(n, t)``), two-sided at ``1 - alpha`` (policy 5): ``(pairs, 2)``; [d, d] when
    every difference is d."""
    return settle(t_interval(values[better] - values[worse], alpha))


def t_test(values: np.ndarray, better: np.ndarray, worse: np.ndarray) -> np.ndarray:
    """Paired t-test (policy 4), ``scipy.stats.ttest_rel(alternative="greater")``, of
    oriented ``values`` ``(n, t)``: ``(pairs,)`` one-tailed p; 1 where every difference is 0."""
    from scipy import stats

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = stats.ttest_rel(values[better], values[worse], axis=-1, alternative="greater")
    p = np.asarray(result.pvalue, dtype=float)
    return np.where(np.isnan(p), 1.0, p)


def t_interval(values: np.ndarray, alpha: float) -> np.ndarray:
    """Student's t interval of each row's mean at level ``1 - alpha``: ``(n, 2)`` (policy 5)."""
    from scipy import stats

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ci = stats.ttest_1samp(values, 0.0, axis=-1).confidence_interval(1 - alpha)
    out = np.column_stack([ci.low, ci.high]).astype(float)
    mean = np.mean(values, axis=-1)
    flat = np.ptp(values, axis=-1) == 0
    out[flat] = mean[flat, None]
    return out


def adjust(p: np.ndarray, correction: str) -> np.ndarray:
    """p-values of one family (a measure's pairs) adjusted by ``correction`` (policy 6):
    ``none``, ``bonferroni``, ``holm`` or ``bh`` (Benjamini-Hochberg). Same shape; NaN stays NaN."""
    p = np.asarray(p, dtype=float)
    if correction == "none":
        return p.copy()
    if correction not in CORRECTIONS:
        raise ValueError(f"unknown correction {correction!r}; corrections are {', '.join(CORRECTIONS)}")
    out = np.full_like(p, np.nan)
    ok = ~np.isnan(p)
    q = p[ok]
    m = len(q)
    if correction == "bonferroni":
        out[ok] = np.minimum(1.0, q * m)
        return out
    order = np.argsort(q, kind="stable")
    if correction == "bh":  # the k-th smallest times m / k, then the smallest of it and every later one
        steps = q[order] * m / np.arange(1, m + 1)
        held = np.empty(m)
        held[order] = np.minimum(1.0, np.minimum.accumulate(steps[::-1])[::-1])
        out[ok] = held
        return out
    steps = np.minimum(1.0, (m - np.arange(m)) * q[order])
    held = np.empty(m)
    held[order] = np.maximum.accumulate(steps)
    out[ok] = held
    return out


def effect_sizes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For oriented ``values`` ``(n, t)``: ``(diff, d_z, wins)``, each ``(n, n)``: the mean
    per-topic difference of run i minus run j, Cohen's d_z of those differences (policy 7) and
    the topics where run i is better."""
    d = values[:, None, :] - values[None, :, :]  # (n, n, t)
    diff = settle(np.mean(d, axis=-1))
    wins = np.count_nonzero(d > 0, axis=-1)
    t = values.shape[1]
    with np.errstate(divide="ignore", invalid="ignore"):
        sd = np.std(d, axis=-1, ddof=1) if t > 1 else np.zeros(diff.shape)
        sd = settle(sd)
        dz = np.where(sd > 0, diff / np.where(sd > 0, sd, 1.0), np.where(diff == 0, 0.0, np.sign(diff) * np.inf))
    return diff, dz, wins


def correlate(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float, float]:
    """``(tau, tau p, r, r p)`` of two score vectors over runs (policy 8); NaN when undefined."""
    from scipy import stats

    a, b = settle(a), settle(b)
    if len(a) < MIN_CORRELATED or np.ptp(a) == 0 or np.ptp(b) == 0:
        return (np.nan,) * 4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        k = stats.kendalltau(a, b)
        r = stats.pearsonr(a, b)
    return float(k.statistic), float(k.pvalue), float(r.statistic), float(r.pvalue)
