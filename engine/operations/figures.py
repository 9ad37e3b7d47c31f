"""Figures for a paper (docs/reference.md section 12.5), drawn with matplotlib, the optional extra
``plots`` (``pip install 'readsim[plots]'``): the per-topic difference plot of two compared runs
(:func:`draw_topic_differences`, ``Comparison.plot_topics``, ``readsim-eval figure topics``) and the
curves of several runs (:func:`curves_of`, :func:`draw_curves`, ``readsim.plot_curves``,
``readsim-eval figure curve``): interpolated generalized precision at the 11 recall points
(section 5.7) or gP at ranks 1 .. N (section 5.1), each point the mean over the topics, the number
``readsim-eval -m`` prints on its ``all`` line.

matplotlib is imported on first use, never by ``import readsim`` nor a plain ``readsim-eval``;
figures are built on ``matplotlib.figure.Figure`` (no pyplot, no window, no global state). A file
is written atomically (:mod:`readsim.core.atomic`) in the format of its suffix: ``.svg``, ``.pdf``
or ``.png``.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from readsim.core.report_numbers import plural
from readsim.core.topic_differences import TopicDifferences

FORMATS = ("svg", "pdf", "png")
CURVES = ("ircl", "gP")
BETTER, WORSE, EQUAL = "#2e7d32", "#c62828", "#9e9e9e"
"""Bar colours: the run does better than its reference on the topic, worse, the same."""
INTERVAL = "#1565c0"
EXTRA = "figures need matplotlib, the optional extra 'plots': pip install 'readsim[plots]'"


class PlotsMissing(ImportError):
    """matplotlib is not installed; the message names the extra that brings it."""


def _figure_class():
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotsMissing(EXTRA) from None
    return Figure


def figure_format(path: str | os.PathLike) -> str:
    """The format of a figure file from its suffix: ``svg``, ``pdf`` or ``png``. Raises
    ``ValueError`` naming the file for any other suffix."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise ValueError(f"{os.fspath(path)}: a figure is written as .svg, .pdf or .png (its suffix says which), "
                         f"not {('.' + suffix) if suffix else 'a name without a suffix'}")
    return suffix


def new_axes(size: tuple[float, float] = (8.0, 4.0)):
    """A new figure (``size`` in inches) with one axes: ``(figure, axes)``. Raises
    :class:`PlotsMissing` without matplotlib."""
    fig = _figure_class()(figsize=size, layout="constrained")
    return fig, fig.add_subplot()


def figure_bytes(fig, fmt: str) -> bytes:
    """``fig`` rendered as ``fmt`` (``svg``, ``pdf``, ``png`` at 150 dpi). SVG text is kept as
    text (fonts not turned into paths), so a report's figure can be searched."""
    import matplotlib

    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "readsim"}):
        fig.savefig(buffer, format=fmt, dpi=150, metadata={"Date": None} if fmt == "svg" else None)
    return buffer.getvalue()


def save_figure(fig, path: str | os.PathLike) -> None:
    """Write ``fig`` to ``path`` atomically in the format of its suffix (:func:`figure_format`).
    Raises ``ValueError`` for an unknown suffix, ``OSError`` naming the path."""
    from readsim.core.atomic import write_bytes

    fmt = figure_format(path)
    write_bytes(path, figure_bytes(fig, fmt))


def _target(path_or_ax, size: tuple[float, float]):
    """``(figure, axes, path)`` for a path (a new figure), an axes (its figure) or None."""
    if path_or_ax is not None and hasattr(path_or_ax, "bar"):
        return path_or_ax.figure, path_or_ax, None
    if path_or_ax is not None:
        figure_format(path_or_ax)  # a bad suffix is said before anything is drawn
    fig, ax = new_axes(size)
    return fig, ax, path_or_ax


def draw_topic_differences(d: TopicDifferences, path_or_ax=None):
    """The per-topic difference plot of ``d`` (:func:`readsim.core.topic_differences.topic_differences`):
    one bar per topic (its height the difference, in the measure's unit), the topics in ``d``'s
    order, green where the run does better than its reference, red where worse, grey where they
    tie; the mean difference a line and its paired t interval a band. ``path_or_ax``: a matplotlib
    axes to draw on, a file to write (:func:`save_figure`) or None. Returns the figure. Raises
    :class:`PlotsMissing`, ``ValueError`` (suffix), ``OSError``."""
    t = len(d.topics)
    fig, ax, path = _target(path_or_ax, (max(6.0, min(16.0, 3.0 + 0.09 * t)), 4.0))
    gain = d.gain
    colours = [BETTER if g > 0 else WORSE if g < 0 else EQUAL for g in gain]
    ax.bar(np.arange(t), d.diff, width=0.8, color=colours, label="_bars")
    ax.axhline(0.0, color="#424242", linewidth=0.8)
    ax.axhspan(d.low, d.high, color=INTERVAL, alpha=0.15, linewidth=0,
               label=f"{d.level * 100:g}% paired t interval [{d.low:.4f}, {d.high:.4f}]")
    ax.axhline(d.mean, color=INTERVAL, linewidth=1.2, linestyle="--", label=f"mean difference {d.mean:+.4f}")
    ax.set_xlim(-0.7, t - 0.3)
    step = max(1, int(np.ceil(t / 60)))
    ax.set_xticks(np.arange(0, t, step), [d.topics[i] for i in range(0, t, step)], rotation=90,
                  fontsize=7 if t <= 40 else 5)
    ax.set_xlabel(f"topic ({t}, sorted by difference: where {d.run} gains most first)")
    ax.set_ylabel(f"{d.measure}: {d.run} − {d.reference}")
    better, worse = int(np.count_nonzero(gain > 0)), int(np.count_nonzero(gain < 0))
    ax.set_title(f"{d.run} against {d.reference} under {d.measure} "
                 f"({'lower' if d.lower_is_better else 'higher'} is better): better on {better}, "
                 f"worse on {worse}, equal on {plural(t - better - worse, 'topic')}", fontsize=9)
    ax.legend(loc="upper right", fontsize=7, frameon=False)
    ax.grid(axis="y", color="#e0e0e0", linewidth=0.5)
    ax.set_axisbelow(True)
    if path is not None:
        save_figure(fig, path)
    return fig


@dataclass(frozen=True)
class Curves:
    """Several runs' curves: ``runs`` (``n`` labels), ``measures`` (``p`` canonical names, one per
    point), ``x`` ``(p,)`` (recall points 0.0 .. 1.0, or ranks 1 .. N), ``y`` ``(n, p)`` (each run's
    mean over its topics, the ``all`` line of ``readsim-eval -m NAME``), ``kind`` (``ircl`` or
    ``gP``), ``doc`` (the document measure), ``topics`` ``(n,)`` (topics averaged per run)."""

    runs: list[str]
    measures: list[str]
    x: np.ndarray
    y: np.ndarray
    kind: str
    doc: str
    topics: list[int]


def curve_measures(kind: str, doc: str, ranks: int = 50) -> tuple[list, np.ndarray]:
    """The parsed list measures of a curve and its x values: ``ircl``: ``ircl_prn.0.00/DOC`` ..
    ``ircl_prn.1.00/DOC`` (x the 11 recall points); ``gP``: ``gP@1/DOC`` .. ``gP@RANKS/DOC`` (x
    the ranks). Raises ``ValueError`` for another kind or ranks outside 1 .. 1,000, and
    :class:`readsim.core.measure.UnknownMeasure` for a bad ``doc``."""
    from readsim.core.measure import parse_list_measure

    if kind not in CURVES:
        raise ValueError(f"a curve is {' or '.join(CURVES)}, not {kind!r}")
    if kind == "ircl":
        x = np.round(np.arange(11) / 10, 2)
        names = [f"ircl_prn.{v:.2f}/{doc}" for v in x]
    else:
        if isinstance(ranks, bool) or not isinstance(ranks, (int, np.integer)) or not 1 <= ranks <= 1000:
            raise ValueError(f"ranks must be a whole number from 1 to 1000, not {ranks!r}")
        x = np.arange(1, int(ranks) + 1, dtype=float)
        names = [f"gP@{r}/{doc}" for r in range(1, int(ranks) + 1)]
    return [parse_list_measure(n) for n in names], x


def curves_of(qrels, runs, kind: str = "ircl", doc: str = "F(0.25)", ranks: int = 50, **options) -> Curves:
    """The curves of ``runs`` (:func:`curve_measures`), each run evaluated once with every point's
    measure (:func:`readsim.operations.evaluate.evaluations`; ``options``: its ``reading``,
    ``collection``, ``unit``, ``all_topics``, ``levels``, ``condensed``). Raises
    :class:`readsim.InputError` on bad input and ``ValueError`` as :func:`curve_measures`."""
    from readsim.operations.evaluate import evaluations

    measures, x = curve_measures(kind, doc, ranks)
    labels, rows, topics = [], [], []
    for label, result in evaluations(qrels, runs, measures, **options):
        labels.append(label)
        rows.append([result.means[m.name] for m in measures])
        topics.append(len(result.topics))
    doc_name = measures[0].doc.name if measures[0].doc is not None else doc
    return Curves(labels, [m.name for m in measures], x, np.array(rows, dtype=float).reshape(len(labels), len(x)),
                  kind, doc_name, topics)


def draw_curves(curves: Curves, path_or_ax=None):
    """One line per run of ``curves`` (markers on the 11 recall points; lines alone over ranks),
    the legend naming each run and its mean's topics. ``path_or_ax`` as
    :func:`draw_topic_differences`; returns the figure."""
    fig, ax, path = _target(path_or_ax, (6.5, 4.5))
    marker = "o" if curves.kind == "ircl" else None
    for run, y, t in zip(curves.runs, curves.y, curves.topics):
        ax.plot(curves.x, y, marker=marker, markersize=3, linewidth=1.3, label=f"{run} ({t} topics)")
    if curves.kind == "ircl":
        ax.set_xlabel("generalized recall gR (11 points)")
        ax.set_ylabel(f"interpolated gP, mean over topics (/{curves.doc})")
        ax.set_xlim(0, 1)
        ax.set_title(f"Interpolated generalized precision at 11 recall points, S = {curves.doc}", fontsize=9)
    else:
        ax.set_xlabel("rank r")
        ax.set_ylabel(f"gP[r], mean over topics (/{curves.doc})")
        ax.set_xlim(1, curves.x[-1])
        ax.set_title(f"Generalized precision gP[r] at ranks 1 to {int(curves.x[-1])}, S = {curves.doc}", fontsize=9)
    ax.set_ylim(bottom=0)
    ax.grid(color="#e0e0e0", linewidth=0.5)
    ax.legend(fontsize=7, frameon=False)
    if path is not None:
        save_figure(fig, path)
    return fig


def plot_curves(qrels, runs: Sequence, path_or_ax=None, *, curve: str = "ircl", doc: str = "F(0.25)",
                ranks: int = 50, reading: str = "natural", collection=None, unit: str | None = None,
                all_topics: bool = False, condensed: bool = False):
    """``readsim.plot_curves``: several runs' curves in one figure (reference section 12.5).

    ``qrels``, ``runs``, ``reading``, ``collection``, ``unit``, ``all_topics``, ``condensed``: as
    :func:`readsim.evaluate`. ``curve``: ``"ircl"`` (interpolated gP at the 11 generalized recall
    points, ``ircl_prn.x/DOC``, section 5.7) or ``"gP"`` (gP[r] at ranks 1 .. ``ranks``, section
    5.1), over document measure ``doc`` (default ``F(0.25)``); each point is the run's mean over
    its topics, ``readsim-eval -m NAME``'s ``all`` value. ``path_or_ax``: a file (``.svg``,
    ``.pdf``, ``.png``; written atomically), a matplotlib axes, or None. Returns the matplotlib
    figure; the numbers are on its lines (``fig.axes[0].lines[i].get_ydata()``). Raises
    :class:`readsim.InputError` on bad input, ``ValueError`` for a bad option or suffix,
    ``ImportError`` naming the extra ``plots`` without matplotlib, ``OSError`` when the file
    cannot be written."""
    from readsim.operations.evaluate import _check

    _check("all", reading, unit)
    _figure_class()
    if path_or_ax is not None and not hasattr(path_or_ax, "bar"):
        figure_format(path_or_ax)
    found = curves_of(qrels, runs, curve, doc, ranks, reading=reading, collection=collection, unit=unit,
                      all_topics=all_topics, condensed=condensed)
    return draw_curves(found, path_or_ax)
