"""Sweeps: every measure with a parameter evaluated at many values of it (docs/reference.md
section 9.6).

A measure's parameters are those of its document measure, named as the reference names them
(section 6): ``k`` (``ChP@k``, ``ChR@k``), ``t`` (``T2IP(t)``, ``T2IR(t)``, ``T2IF(t,alpha)``),
``s`` (``LE(s)``, ``ES(s)``), ``d`` (``BEP(d)``), ``alpha`` (``T2IF``), ``beta`` (``F``). Sizes
are whole numbers in the offset unit (bytes or characters), from 1 to 2^40; ``alpha`` and
``beta`` finite numbers above 0 and at most 10^6 (:data:`readsim.core.measure.PARAMETER_RANGES`).

- :func:`parse_vary` reads ``NAME=V1,V2,...`` or ``NAME=START:STOP:N[:log]`` into a
  :class:`Vary`; :func:`with_parameter` sets a parameter of a measure (the measure objects of
  :mod:`readsim.core.measure`, never their names' text); :func:`swept` pairs each value with the
  measures at that value.
- :func:`article_sweep`: one article's document measure at every value, column-wise over the
  values (closed forms over the article's pieces, Arvola et al. 2010 sections 4.1 and 5.2;
  the set-based F of Kamps et al. 2007), equal to :meth:`DocMeasure.value` at each value;
  :func:`topic_sweep`: one topic's list measure at every value from its ranked articles'
  evaluations (the window's topic curve).

A run's sweep (its list measures or per-article scores at every value, in one evaluation) is
the API's: ``readsim.sweep`` and its pandas-free core ``readsim.operations.sweep.sweep_rows``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from readsim.core.doc_evaluation import DocumentEvaluation
from .listmeasures import Ranking
from .measure import (MAX_SIZE, MAX_WEIGHT, BadParameter, DocMeasure, ListMeasure, parameter_names, parse_count,
                      parse_real)
from .registry import DOC, WEIGHT, doc_kind, parameter_kinds

PARAMETERS = tuple(sorted(parameter_kinds(), key=lambda name: parameter_kinds()[name] == WEIGHT))
"""Every parameter a sweep can vary (every document measure's, :mod:`readsim.core.doc_kinds`): ``k``,
``t``, ``s``, ``d``, ``alpha``, ``beta``; ``alpha`` and ``beta`` are weights, the others sizes."""
WEIGHTS = tuple(name for name, kind in parameter_kinds().items() if kind == WEIGHT)
MAX_VALUES = 10_000
"""At most this many values in one sweep."""
FORMS = "NAME=V1,V2,... or NAME=START:STOP:N[:log]"


class VaryError(ValueError):
    """A ``--vary`` text that does not parse, or a sweep no measure can take; the message names
    what is wrong (without the ``--vary:`` the command line puts first)."""


@dataclass(frozen=True)
class Vary:
    """A parameter ``name`` (one of :data:`PARAMETERS`) and its ``values``, in order, distinct
    (ints for sizes, floats for weights)."""

    name: str
    values: tuple


# -- parameters of a measure -----------------------------------------------------------------
def _doc(m: DocMeasure | ListMeasure) -> DocMeasure | None:
    return m.doc if isinstance(m, ListMeasure) else m


def parameters_of(m: DocMeasure | ListMeasure) -> tuple[str, ...]:
    """The parameters of ``m`` (of its document measure for a list measure): ``("t",
    "alpha")`` for ``T2IF(300)`` and ``AgP/T2IF(300)``; ``()`` for ``aveChP`` and ``MAP``."""
    doc = _doc(m)
    return parameter_names(doc.kind) if doc is not None else ()


def parameter_value(m: DocMeasure | ListMeasure, name: str) -> int | float:
    """The value of parameter ``name`` of ``m``. Raises ``KeyError`` when ``m`` has none."""
    if name not in parameters_of(m):
        raise KeyError(f"{m.name} has no parameter {name}")
    doc = _doc(m)
    return doc.weight if name in WEIGHTS else doc.k


def with_parameter(m: DocMeasure | ListMeasure, name: str, value) -> DocMeasure | ListMeasure:
    """``m`` with parameter ``name`` set to ``value`` (``parse_any(result.name) == result``).
    Raises ``KeyError`` when ``m`` has no parameter ``name``."""
    if name not in parameters_of(m):
        raise KeyError(f"{m.name} has no parameter {name}")
    doc = _doc(m)
    new = replace(doc, weight=float(value)) if name in WEIGHTS else replace(doc, k=int(value))
    return replace(m, doc=new) if isinstance(m, ListMeasure) else new


def format_value(name: str, value) -> str:
    """A parameter value as measure names write it: ``300``, ``0.25``, ``1`` (a weight that is a
    whole number), never in exponent notation."""
    if name not in WEIGHTS or float(value).is_integer():
        return str(int(value))
    return np.format_float_positional(float(value), trim="-")


# -- --vary ------------------------------------------------------------------------------------
def _one(name: str, text: str):
    if name in WEIGHTS:
        return parse_real(text, name, 0.0, MAX_WEIGHT, low_inclusive=False)
    return parse_count(text, name, 1, MAX_SIZE)


def parse_vary(text: str) -> Vary:
    """``NAME=V1,V2,...`` (the values as given, duplicates dropped) or
    ``NAME=START:STOP:N[:log]`` (N values from START to STOP, evenly spaced, or evenly on a log
    scale with ``:log``; sizes rounded to whole numbers and weights to 6 significant digits,
    duplicates dropped). Raises :class:`VaryError` naming what is wrong: an unknown NAME, a
    value out of the parameter's range, N not a whole number from 1 to :data:`MAX_VALUES`."""
    head, eq, body = str(text).partition("=")
    name = head.strip()
    if not eq or not name or not body.strip():
        raise VaryError(f"expected {FORMS}, not {text!r}")
    if name not in PARAMETERS:
        raise VaryError(f"unknown parameter {name!r}; one of {', '.join(PARAMETERS)}")
    try:
        if ":" in body:
            values = _range(name, body)
        else:
            values = [_one(name, v) for v in body.split(",")]
    except BadParameter as exc:
        raise VaryError(str(exc)) from None
    values = list(dict.fromkeys(values))
    if len(values) > MAX_VALUES:
        raise VaryError(f"{name}: at most {MAX_VALUES} values, not {len(values)}")
    return Vary(name, tuple(values))


def _range(name: str, body: str) -> list:
    parts = body.split(":")
    log = len(parts) == 4 and parts[3].strip() == "log"
    if len(parts) not in (3, 4) or (len(parts) == 4 and not log):
        raise BadParameter(f"a range is START:STOP:N or START:STOP:N:log, not {body!r}")
    start, stop = _one(name, parts[0]), _one(name, parts[1])
    return grid(start, stop, parse_count(parts[2], "N", 1, MAX_VALUES), log, name not in WEIGHTS)


def grid(start: float, stop: float, n: int, log: bool, size: bool) -> list:
    """``n`` values from ``start`` to ``stop`` (both kept), evenly spaced or, with ``log``, evenly
    on a log scale (``start`` and ``stop`` above 0); ``size``: rounded to whole numbers (ints),
    else to 6 significant digits. Repeats are left in (:func:`parse_vary` drops them)."""
    if n == 1:
        return [int(start) if size else float(start)]
    values = np.geomspace(start, stop, n) if log else np.linspace(start, stop, n)
    values[0], values[-1] = start, stop
    if size:
        return [int(v) for v in np.rint(values).astype(np.int64).tolist()]
    return [float(f"{v:.6g}") for v in values.tolist()]


def swept(measures: Sequence[DocMeasure | ListMeasure], vary: Vary
          ) -> tuple[list[tuple[object, list]], list]:
    """``(pairs, left_out)``: per value of ``vary``, the measures of ``measures`` that have its
    parameter, set to that value (each concrete measure once per value); ``left_out``: the
    measures without the parameter. Raises :class:`VaryError` when none has it."""
    having = [m for m in measures if vary.name in parameters_of(m)]
    left_out = [m for m in measures if vary.name not in parameters_of(m)]
    if not having:
        names = ", ".join(m.name for m in measures)
        raise VaryError(f"no measure given has parameter {vary.name} ({names}); give one with -m, e.g. "
                        f"{_example(vary.name)}")
    pairs = [(v, list(dict.fromkeys(with_parameter(m, vary.name, v) for m in having))) for v in vary.values]
    return pairs, left_out


_EXAMPLES = {"k": "ChP@300", "t": "T2IF(300)", "s": "LE(300)", "d": "BEP(500)", "alpha": "T2IF(300,1)",
             "beta": "F(0.25)"}


def _example(name: str) -> str:
    if name == "s":
        return "-m ANCE@100/LE(300)"
    if name not in _EXAMPLES:  # a parameter of a measure declared since: its form
        return "-m AgP/" + next(d.forms[-1] for d in DOC.values() if name in (p.name for p in d.params))
    return f"-m AgP/{_EXAMPLES[name]}"


# -- one article, column-wise over the values ---------------------------------------------------
def article_sweep(doc: DocumentEvaluation, measure: DocMeasure, name: str, values: Sequence,
                  levels: int = 4) -> np.ndarray:
    """``with_parameter(measure, name, v).value(doc, levels)`` for every ``v`` of ``values``
    (float ``(len(values),)``): the null value for a non-relevant article, else the measure's
    declared closed form over the value array when it has one (:mod:`readsim.core.doc_kinds`: the
    article's pieces read once; ChP@k, ChR@k: relevant positions among the first k read; T2I(t):
    the stop after the t-th non-relevant position, Arvola et al. 2010, section 4.1; LE(s), ES(s):
    ceil(f / s) capped at L, NR = L + 1, section 5.2; F(beta) and T2IF's alpha: F_b = (1 + b^2)
    P R / (b^2 P + R)), else the measure at each value. Raises ``KeyError`` when ``measure`` has
    no parameter ``name`` and ``ValueError`` for a measure computed from the qrels (``BEP(d)``)."""
    if name not in parameters_of(measure):
        raise KeyError(f"{measure.name} has no parameter {name}")
    decl = doc_kind(measure.kind)
    if decl.needs_qrels:
        raise ValueError(f"{measure.name} needs the qrels' best entry point: sweep a run (readsim.sweep)")
    v = np.asarray(values, dtype=float if name in WEIGHTS else np.int64)
    if doc.nrc <= 0:
        return np.full(len(v), measure.null_value(levels))
    if decl.sweep is not None:
        return decl.sweep(measure, doc, name, v, levels)
    return np.array([with_parameter(measure, name, x).value(doc, levels) for x in v.tolist()], dtype=float)


# -- one topic's ranked list, from its articles' evaluations ------------------------------------
def topic_sweep(docs: Sequence[DocumentEvaluation | None], relevant: np.ndarray, rsize: np.ndarray, nrel: int,
                trel_size: int, measure: ListMeasure, name: str, values: Sequence, levels: int = 4,
                step: Callable[[float], None] | None = None) -> np.ndarray:
    """``measure`` (a list measure over a document measure, ``AgP/T2IF(300)``) of one topic's
    ranked list at every value of parameter ``name`` (float ``(len(values),)``), as
    :meth:`readsim.core.listmeasures.Ranking.value` gives it at each value: ``docs[k]`` is the
    evaluation of rank ``k + 1`` (in the reading mode wanted), ``relevant``/``rsize`` its
    relevance and relevant size from the qrels, ``nrel``/``trel_size`` the topic's totals.
    Non-relevant articles take the null value (policy 7 of :mod:`readsim.core.listmeasures`); each
    relevant one is swept once, column-wise (:func:`article_sweep`), and ``step(fraction)`` is
    called after each (it may raise to cancel). A measure without parameter ``name`` has the same
    value at every value."""
    relevant = np.asarray(relevant, dtype=bool)
    n = len(docs)
    if name not in parameters_of(measure):
        columns = [measure] * len(values)
        table = np.full((1, n), measure.doc.null_value(levels) if measure.doc is not None else 0.0)
        rows = [0] * len(values)
        swept_values = [None]
    else:
        columns = [with_parameter(measure, name, v) for v in values]
        table = np.full((len(values), n), measure.doc.null_value(levels))
        rows = list(range(len(values)))
        swept_values = list(values)
    at = np.flatnonzero(relevant)
    for i, k in enumerate(at.tolist()):
        if measure.doc is not None:
            if swept_values[0] is None:
                table[0, k] = measure.doc.value(docs[k], levels)
            else:
                table[:, k] = article_sweep(docs[k], measure.doc, name, swept_values, levels)
        if step is not None:
            step((i + 1) / len(at))
    articles = [""] * n
    out = np.empty(len(values))
    for j, (m, row) in enumerate(zip(columns, rows)):
        scores = {m.doc: table[row]} if m.doc is not None else {}
        out[j] = Ranking("", articles, relevant, np.asarray(rsize), scores, nrel, trel_size).value(m, levels)
    return out
