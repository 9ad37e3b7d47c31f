"""Measures as values with canonical names that parse back to themselves (reference section 6).

A :class:`DocMeasure` is a document measure (reference section 4) with its parameters, a
:class:`ListMeasure` a list measure (section 5) over one, written ``LIST/DOC``. What each kind
of measure is (its grammar, parameters and ranges, computation, null value, direction, section
and help line) is declared once, in :mod:`readsim.core.doc_kinds` and :mod:`readsim.core.list_kinds` (the
tables of :mod:`readsim.core.registry`); this module reads them.

:func:`parse_measure` parses document measures only, :func:`parse_list_measure` list
measures only, :func:`parse_any` either; all raise :class:`UnknownMeasure` (a
``ValueError``) on anything else, and its subclass :class:`BadParameter`, naming the
parameter, for a known name whose parameter is out of range (:data:`PARAMETER_RANGES`:
sizes k, t, s, d from 1 to 2^40 characters; alpha, beta finite, above 0, at most 10^6;
rank cutoffs from 1 to 10^6; recall points on their grid). ``parse_any(m.name) == m`` for
every measure ``m``. The defaults (:data:`DEFAULT_LIST_MEASURE`, :data:`DEFAULT_DOC_MEASURE`)
are written here once; the reading modes are :data:`readsim.core.reading.READING_MODES`.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass

import numpy as np

from . import doc_kinds as _doc_kinds  # noqa: F401 (declares the document measures)
from . import list_kinds as _list_kinds  # noqa: F401 (declares the list measures)
from readsim.core.doc_evaluation import DocumentBatch, DocumentEvaluation, Settings
from .registry import (DOC, INCONTEXT_POINTS, LIST, SIZE, doc_grammar, doc_kind, effort_kinds,
                       list_grammar, list_kind)

DEFAULT_LIST_MEASURE = "AgP/F(0.25)"
"""MAgP's measure, INEX's official Relevant in Context one: readsim-eval's, the API's and the window's default."""
DEFAULT_DOC_MEASURE = "F(0.25)"
"""INEX's official document score: ``readsim-eval --per-article``'s default and the window's S."""


class UnknownMeasure(ValueError):
    """A measure name that does not parse."""


def _num(x: float) -> str:
    """Shortest round-tripping text of a parameter: ``300``, ``0.25``."""
    if float(x).is_integer():
        return str(int(x))
    text = repr(float(x))
    if "e" in text or "E" in text:  # 1e-05 would not parse back: write it positionally
        text = np.format_float_positional(float(x), trim="-")
    return text


@dataclass(frozen=True)
class DocMeasure:
    """A document measure: ``kind`` (``aveChP``, ``ChP``, ``ChR``, ``T2IP``, ``T2IR``, ``T2IF``,
    ``LE``, ``ES``, ``P_set``, ``R_set``, ``F``, ``BEP``) with its parameters."""

    kind: str
    k: int = 0  # ChP@k, ChR@k; T2I tolerance; LE/ES screen size; BEP d_max
    weight: float = 1.0  # T2IF alpha; F beta
    lower_is_better: bool = False

    @property
    def declaration(self):
        """The :class:`~readsim.core.registry.DocKind` declaring this measure's kind."""
        return doc_kind(self.kind)

    @property
    def name(self) -> str:
        decl = doc_kind(self.kind)
        if decl.grammar == "bare":
            return self.kind
        if decl.grammar == "at":
            return f"{self.kind}@{self.k}"
        args = [str(self.k) if p.kind == SIZE else _num(self.weight) for p in decl.params]
        while len(args) > 1 and decl.params[len(args) - 1].default == getattr(self, decl.params[len(args) - 1].field):
            args.pop()  # an optional parameter at its default is not written
        return f"{self.kind}({','.join(args)})"

    def __str__(self) -> str:
        return self.name

    def null_value(self, levels: int = 4) -> float:
        """The value for a non-relevant article, whatever was retrieved: NR = ``levels + 1``
        for LE and ES, 0 for every other measure (the declaration's ``null``, reference section 4)."""
        return doc_kind(self.kind).null_value(levels)

    def value(self, doc: DocumentEvaluation, levels: int = 4) -> float:
        """The measure's value for one article. Raises ``ValueError`` for a measure computed from
        the qrels (``BEP(d)``: see :func:`readsim.core.listmeasures.article_score`)."""
        return float(self.compute(doc, levels))

    def compute(self, doc, levels: int = 4):
        """The measure of ``doc``: one article (a :class:`DocumentEvaluation`: a number) or
        many at once (an :class:`readsim.core.docmeasures.DocumentBatch`: a float array), by the
        declaration's ``article`` or ``batch`` computation. Raises ``ValueError`` for ``BEP(d)``
        (it needs the qrels)."""
        decl = doc_kind(self.kind)
        if decl.needs_qrels:
            raise ValueError(f"{self.name} needs the qrels' best entry point: use readsim.core.listmeasures.article_score")
        return (decl.batch if isinstance(doc, DocumentBatch) else decl.article)(self, doc, levels)


# -- parameters ------------------------------------------------------------------------------
MAX_SIZE = 2**40  # characters (or bytes): ChP@k, T2I's t, LE/ES's s, BEP's d; docs/reference.md 2.1's bound
MAX_RANK = 1_000_000  # rank cutoffs r and i (CE/NCE/ANCE build arrays of that length per topic)
MAX_WEIGHT = 1e6  # F's beta and T2IF's alpha: above 0 and at most this (beta^2 stays a finite float)
MAX_LEVELS = 1000  # LE's levels L (NR = L + 1)
READER_KINDS = ("T2IP", "T2IR", "T2IF")  # the S of U@L and TBG@H: the reader's tolerance t (reference 5.16)


class BadParameter(UnknownMeasure):
    """A parameter out of its range or not a number: ``F(1e400)``, ``ChP@1.5``, ``--levels 0``.

    A subclass of :class:`UnknownMeasure` (so of ``ValueError``); the message names the
    parameter (``"F(nan): beta must be a finite number above 0 and at most 1000000, not 'nan'"``)."""


_DIGITS = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def parse_count(text: str, name: str, low: int, high: int) -> int:
    """A whole-number parameter written in decimal digits, ``low <= value <= high``.

    ``name`` starts the message (``"k"``, ``"--levels"``). Raises :class:`BadParameter` for
    anything else: ``1.5``, ``1e3``, ``nan``, ``-1``, a number past ``high``."""
    text = str(text).strip()
    rule = f"{name} must be a whole number from {low} to {'2^40' if high == MAX_SIZE else high}"
    if not _DIGITS.fullmatch(text):
        raise BadParameter(f"{rule}, not {_show(text)!r}")
    if len(text.lstrip("+-").lstrip("0")) > 30:  # past any range here (and int()'s digit limit)
        raise BadParameter(f"{rule}, not {_show(text)}")
    value = int(text)
    if not low <= value <= high:
        raise BadParameter(f"{rule}, not {text}")
    return value


def parse_real(text: str, name: str, low: float, high: float, low_inclusive: bool = True) -> float:
    """A finite decimal parameter (``0.25``, ``2e-1``) with ``low <= value <= high`` (``low <
    value`` when not ``low_inclusive``). Raises :class:`BadParameter` naming ``name`` for ``nan``,
    ``inf``, ``1e400`` (not finite as a float), anything not a number, or out of range."""
    text = str(text).strip()
    above = f"from {_num(low)}" if low_inclusive else f"above {_num(low)} and"
    to = "to" if low_inclusive else "at most"
    rule = f"{name} must be a finite number {above} {to} {_num(high)}"
    if not _DECIMAL.fullmatch(text):
        raise BadParameter(f"{rule}, not {_show(text)!r}")
    value = float(text)
    if not np.isfinite(value) or value > high or value < low or (value == low and not low_inclusive):
        raise BadParameter(f"{rule}, not {_show(text)}")
    return value


def _show(text: str, width: int = 60) -> str:
    """``text`` cut to ``width`` characters for a message."""
    return text if len(text) <= width else text[:width - 3] + "..."


def _size(text: str, name: str) -> int:
    return parse_count(text, name, 1, MAX_SIZE)


def _weight(text: str, name: str) -> float:
    return parse_real(text, name, 0.0, MAX_WEIGHT, low_inclusive=False)


_PARSERS = {"size": _size, "weight": _weight}  # a parameter's kind (readsim.core.registry.Param) -> its parser


def parameter_names(kind: str) -> tuple[str, ...]:
    """The parameters of the document measure ``kind`` as the reference names them (``("t",
    "alpha")`` for ``T2IF``; ``()`` for ``aveChP``, ``P_set``, ``R_set``)."""
    return tuple(p.name for p in DOC[kind].params) if kind in DOC else ()


_SHAPES: dict[tuple, re.Pattern] = {}


def _alternatives(kinds) -> str:
    return "|".join(re.escape(k) for k in sorted(kinds, key=len, reverse=True))


def _doc_shape() -> re.Pattern:
    """The regular expression of every declared document measure's name (built once per registry)."""
    key = tuple(DOC)
    if key not in _SHAPES:
        by = {g: [k for k, d in DOC.items() if d.grammar == g] for g in ("at", "call", "bare")}
        _SHAPES[key] = re.compile(rf"(?P<at>{_alternatives(by['at'])})@(?P<k>.*)"
                                  rf"|(?P<call>{_alternatives(by['call'])})\((?P<args>.*)\)"
                                  rf"|(?P<bare>{_alternatives(by['bare'])})", re.S)
    return _SHAPES[key]


def _doc_help() -> str:
    return "document measures are " + doc_grammar()


PARAMETER_RANGES = (f"k, t, s and d are sizes in the offset unit (--unit, bytes by default), whole numbers "
                    f"from 1 to 2^40; alpha and beta finite "
                    f"numbers above 0 and at most {_num(MAX_WEIGHT)}; rank cutoffs r and i whole numbers from 1 "
                    f"to {MAX_RANK}; recall points x written with two decimals on their grid (ircl_prn.0.00, 0.10, .., 1.00; "
                    f"iP[0.00], [0.01], .., [1.00])")


#: which of the reader's settings (:class:`~readsim.core.doc_evaluation.Settings`) gives each
#: parameter of a document measure in the window: screen sizes for ChP@k, ChR@k, LE(s), ES(s), the
#: T2I tolerance, T2IF's alpha and F's beta (``d`` of BEP(d) has none: BEP needs the qrels)
READER_SETTING = {"k": "screen", "s": "screen", "t": "tolerance", "alpha": "alpha", "beta": "beta"}


def at_settings(kind: str, s: Settings) -> DocMeasure:
    """The document measure ``kind`` with its parameters from the reader's settings ``s``
    (:data:`READER_SETTING`; an optional weight at its default when no setting gives it): what the
    window's score panel, topic view and Sensitivity dock show. Raises ``KeyError`` for an
    unknown kind and ``ValueError`` for one whose parameter no setting gives (``BEP``)."""
    decl = doc_kind(kind)
    values = {}
    for p in decl.params:
        if p.name not in READER_SETTING:
            raise ValueError(f"{kind}: no reader setting gives its parameter {p.name}")
        values[p.field] = getattr(s, READER_SETTING[p.name])
    return DocMeasure(kind, lower_is_better=decl.lower_is_better, **values)


def reader_measures(s: Settings) -> list[DocMeasure]:
    """Every document measure the reader's settings give, in the order they are declared
    (reference section 4: aveChP, ChP@screen, ChR@screen, T2IP, T2IR, T2IF at the tolerance, LE
    and ES at the screen, P_set, R_set, F(beta), and any measure declared after them)."""
    return [at_settings(kind, s) for kind, decl in DOC.items()
            if all(p.name in READER_SETTING for p in decl.params)]


def parse_measure(text: str) -> DocMeasure:
    """Parse a document measure name; ``parse_measure(m.name) == m`` for every measure.

    Raises :class:`UnknownMeasure` for an unknown name and its subclass :class:`BadParameter`
    for a known name whose parameter is not in range: k, t, s, d whole numbers of characters
    from 1 to :data:`MAX_SIZE`; alpha and beta finite, above 0, at most :data:`MAX_WEIGHT`."""
    text = text.strip()
    m = _doc_shape().fullmatch(text)
    if m is None:
        raise UnknownMeasure(f"unknown measure {_show(text)!r}; {_doc_help()}")
    if m.group("bare"):
        return DocMeasure(m.group("bare"))
    kind = m.group("at") or m.group("call")
    decl = DOC[kind]
    args = [m.group("k")] if m.group("at") else m.group("args").split(",")
    params = decl.params
    required = sum(p.default is None for p in params)
    if len(args) > len(params) or len(args) < required:
        names = ", ".join(p.name for p in params)
        count = f"{required} or {len(params)} parameters" if required < len(params) else \
            f"{len(params)} parameter{'s' if len(params) > 1 else ''}"
        raise BadParameter(f"{_show(text)}: {kind} takes {count} ({names}), not {len(args)}")
    try:
        values = [_PARSERS[p.kind](arg, p.name) for p, arg in zip(params, args)]
    except BadParameter as exc:
        raise BadParameter(f"{_show(text)}: {exc}") from None
    fields = {"k": 0, "weight": 1.0}
    fields.update({p.field: p.default for p in params[len(values):]})
    fields.update({p.field: v for p, v in zip(params, values)})
    return DocMeasure(kind, fields["k"], fields["weight"], lower_is_better=decl.lower_is_better)


# -- list measures ---------------------------------------------------------------------------
LIST_KINDS = tuple(LIST)
"""Every declared list measure's kind (:mod:`readsim.core.list_kinds`), in declaration order."""
FOCUSED = tuple(k for k, d in LIST.items() if d.focused)  # over the run's passages in line order


@dataclass(frozen=True)
class ListMeasure:
    """A list measure over a topic's ranking, with its document measure (reference section 5).

    ``kind`` is one of :data:`LIST_KINDS`; ``cutoff`` is the rank r (``gP``, ``gR``, ``CE``,
    ``NCE``, ``ANCE``) or the recall point's index (``ircl_prn``: 0..10 for 0.00..1.00;
    ``iP``: 0..100); ``doc`` the document measure S (``None`` for ``gR``, ``MAP``, ``iP``,
    ``MAiP`` and the counts); ``plain`` selects gP's plain sum / r past the end of the run
    instead of the official tool's last value.
    """

    kind: str
    cutoff: int = 0
    doc: DocMeasure | None = None
    plain: bool = False

    @property
    def declaration(self):
        """The :class:`~readsim.core.registry.ListKind` declaring this measure's kind."""
        return list_kind(self.kind)

    @property
    def name(self) -> str:
        decl = list_kind(self.kind)
        if decl.grammar == "rank":
            head = f"{self.kind}{'(plain)' if self.plain else ''}@{self.cutoff}"
        elif decl.grammar == "points":
            head = decl.point_form.format(x=f"{self.cutoff / (decl.points - 1):.2f}")
        else:
            head = self.kind
        return f"{head}/{self.doc.name}" if self.doc is not None else head

    def __str__(self) -> str:
        return self.name

    @property
    def lower_is_better(self) -> bool:
        """True for the effort measures CE, NCE and ANCE (the declaration's direction)."""
        return list_kind(self.kind).lower_is_better

    @property
    def is_count(self) -> bool:
        """True for ``num_q``, ``num_ret``, ``num_rel``, ``num_rel_ret``: integers, summed over topics."""
        return list_kind(self.kind).count

    @property
    def focused(self) -> bool:
        """True for the Focused task's ``iP[x]`` and ``MAiP`` (passages in line order)."""
        return list_kind(self.kind).focused


def _head() -> re.Pattern:
    """The regular expression of every declared list measure's head (the part before ``/DOC``)."""
    key = ("list", *LIST)
    if key not in _SHAPES:
        ranked = [k for k, d in LIST.items() if d.grammar == "rank"]
        ranked += [f"{k}(plain)" for k, d in LIST.items() if d.plain]
        points = [(i, d) for i, d in enumerate(LIST.values()) if d.grammar == "points"]
        parts = [rf"(?P<kind>{_alternatives(ranked)})@(?P<r>.*)"]
        for i, d in points:
            before, _, after = d.point_form.partition("{x}")
            parts.append(rf"{re.escape(before)}(?P<p{i}>.*){re.escape(after)}")
        parts.append(rf"(?P<bare>{_alternatives(k for k, d in LIST.items() if d.grammar == 'bare')})")
        _SHAPES[key] = re.compile("|".join(parts), re.S)
    return _SHAPES[key]


def _list_help() -> str:
    return f"list measures are {list_grammar()}; DOC is a document measure, e.g. {DEFAULT_LIST_MEASURE}"


def _point(text: str, points: int, full: str) -> int:
    """Index of recall point ``text`` (``0.10``, two decimals) on a grid of ``points`` points."""
    steps = points - 1
    text = text.strip()
    if re.fullmatch(r"[0-9]\.[0-9][0-9]", text):
        index = round(float(text) * steps)
        if 0 <= index <= steps and f"{index / steps:.2f}" == text:
            return index
    grid = f"0.00, {1 / steps:.2f}, ..., 1.00"
    raise BadParameter(f"{_show(full)}: the recall point x must be one of {grid} (two decimals), not {_show(text)!r}")


def parse_list_measure(text: str) -> ListMeasure:
    """Parse a list measure name (``AgP/F(0.25)``, ``gP@10/T2IP(300)``, ``ANCE@600/LE(300)``,
    ``MAP``, ``iP[0.01]``); ``parse_list_measure(m.name) == m``. Raises
    :class:`UnknownMeasure` on anything else, a document measure alone included, and its
    subclass :class:`BadParameter` for a parameter out of range: rank cutoffs r (gP, gR) and i
    (CE, NCE, ANCE) whole numbers from 1 to :data:`MAX_RANK`, recall points on their grid, the
    document measure's parameters as :func:`parse_measure` says."""
    full = text.strip()
    head, slash, tail = full.partition("/")
    m = _head().fullmatch(head.strip())
    if m is None:
        raise UnknownMeasure(f"unknown measure {_show(full)!r}; {_list_help()}")
    plain = False
    cutoff = 0
    if m.group("kind"):
        kind = m.group("kind")
        if kind.endswith("(plain)"):
            kind, plain = kind[:-len("(plain)")], True
        try:
            cutoff = parse_count(m.group("r"), "the rank cutoff " + LIST[kind].cutoff_name, 1, MAX_RANK)
        except BadParameter as exc:
            raise BadParameter(f"{_show(full)}: {exc}") from None
    elif m.group("bare"):
        kind = m.group("bare")
    else:
        i, decl = next((i, d) for i, d in enumerate(LIST.values()) if m.groupdict().get(f"p{i}") is not None)
        kind, cutoff = decl.kind, _point(m.group(f"p{i}"), decl.points, full)
    decl = LIST[kind]
    doc = None
    if decl.doc is not None:
        effort = decl.doc == "effort"
        if not slash:
            raise UnknownMeasure(f"{_show(full)}: {kind} needs a document measure, e.g. {head.strip()}/F(0.25)"
                                 if not effort else f"{_show(full)}: {kind} needs an effort score, e.g. {head.strip()}/LE(300)")
        try:
            doc = parse_measure(tail)
        except BadParameter as exc:
            raise BadParameter(f"{head.strip()}/{exc}") from None
        if effort and doc.kind not in effort_kinds():
            scores = " or ".join(DOC[k].forms[0] for k in effort_kinds())
            raise UnknownMeasure(f"{_show(full)}: {kind} cumulates an effort score: {scores}, not {doc.name}")
        if decl.doc == "reader" and doc.kind not in READER_KINDS:
            raise UnknownMeasure(f"{_show(full)}: {kind} reads each article up to the T2I stop: "
                                 f"write {head.strip()}/T2IP(t), not {doc.name}")
    elif slash:
        raise UnknownMeasure(f"{_show(full)}: {kind} takes no document measure (write {head.strip()})")
    return ListMeasure(kind, cutoff, doc, plain)


def parse_any(text: str) -> DocMeasure | ListMeasure:
    """A document measure (``F(0.25)``) or a list measure (``AgP/F(0.25)``), by its name.
    Raises :class:`UnknownMeasure`, or :class:`BadParameter` for a parameter out of range."""
    try:
        return parse_measure(text)
    except BadParameter:
        raise
    except UnknownMeasure:
        pass
    try:
        return parse_list_measure(text)
    except UnknownMeasure:
        if "/" in text or _head().fullmatch(text.strip().partition("/")[0].strip()):
            raise
        raise UnknownMeasure(f"unknown measure {_show(text.strip())!r}; {_doc_help()}; {_list_help()}") from None


def official_measures(doc: DocMeasure | None = None, points: bool = True) -> list[ListMeasure]:
    """What the official tool prints for the Relevant in Context task (``inex_eval -r``), in its
    order: the counts (``num_q`` .. ``num_rel_ret``), ``AgP`` (MAgP), ``gP@r``/``gR@r`` at r = 1, 2, 3, 5, 10, 25, 50, and the
    11-point ``ircl_prn`` curve, with document score ``doc`` (default ``F(0.25)``)."""
    doc = doc or parse_measure(DEFAULT_DOC_MEASURE)
    out = [ListMeasure(k) for k, d in LIST.items() if d.count] + [ListMeasure("AgP", 0, doc)]
    for r in (1, 2, 3, 5, 10, 25, 50):
        out += [ListMeasure("gP", r, doc), ListMeasure("gR", r)]
    if points:
        out += [ListMeasure("ircl_prn", i, doc) for i in range(INCONTEXT_POINTS)]
    return out


def option(parse):
    """An argparse ``type=`` from a parser raising :class:`~readsim.core.measure.BadParameter`:
    argparse then prints ``argument --levels: value must be ...`` and exits 2."""

    def convert(text: str):
        try:
            return parse(text)
        except BadParameter as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    convert.__name__ = getattr(parse, "__name__", "value")
    return convert
