"""Measures as values with canonical names that parse back to themselves (SPEC section 6).

Document measures (SPEC section 5), one article at a time:

=================  ====================================================================
``aveChP``         average character precision
``ChP@k``          precision of the first k characters read; ``ChR@k`` the recall
``T2IP(t)``        T2I precision with tolerance t; ``T2IR(t)``, ``T2IF(t)`` (alpha 1),
                   ``T2IF(t,a)`` with alpha a
``LE(s)``          localizing effort for screen size s; ``ES(s)`` effort score (NR for a
                   non-relevant article)
``P_set``          INEX set-based precision; ``R_set`` recall; ``F(b)`` F_beta (0.25 official)
``BEP(d)``         Best in Context: ``(d - |bep - entry|) / d`` within distance d (500
                   official), else 0; needs the qrels' BEP, so it is computed by
                   :mod:`engine.listmeasures`, not by :meth:`DocMeasure.value`
=================  ====================================================================

List measures (SPEC section 6), one ranked list of articles per topic, written
``LIST/DOC`` with ``DOC`` any document measure above (:class:`ListMeasure`):

=========================  ============================================================
``gP@r/DOC``               generalised precision at rank r (past the end of a short run:
                           the last rank's value, the official tool's quirk);
                           ``gP(plain)@r/DOC`` the plain sum / r
``gR@r``                   generalised recall at rank r (relevant articles / Nrel)
``AgP/DOC``                average generalised precision (mean: MAgP; ``AgP/F(0.25)``
                           is INEX's official Relevant in Context measure)
``AgP'/DOC``               AgP with each relevant rank weighted by its relevant size
``MAP``                    AgP with S = isrel (average precision over articles)
``ircl_prn.x/DOC``         gP interpolated at gR = x, x in 0.00, 0.10, ..., 1.00
``CE@i/E``                 cumulated effort; ``NCE@i/E`` normalized; ``ANCE@i/E`` its
                           average over ranks 1..i; E is ``LE(s)`` or ``ES(s)``
``iP[x]``                  Focused task: interpolated precision at recall x (0.00 .. 1.00
                           by 0.01); ``MAiP`` the mean over the 101 points (AiP per topic)
``num_q``, ``num_ret``,    topics, articles ranked, relevant articles judged, relevant
``num_rel``,               articles ranked (summed, not averaged, over topics for ``all``)
``num_rel_ret``
=========================  ============================================================

:func:`parse_measure` parses document measures only, :func:`parse_list_measure` list
measures only, :func:`parse_any` either; all raise :class:`UnknownMeasure` (a
``ValueError``) on anything else, and its subclass :class:`BadParameter`, naming the
parameter, for a known name whose parameter is out of range (:data:`PARAMETER_RANGES`:
sizes k, t, s, d from 1 to 2^40 characters; alpha, beta finite, above 0, at most 10^6;
rank cutoffs from 1 to 10^6; recall points on their grid). ``parse_any(m.name) == m`` for
every measure ``m``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .document import DocumentEvaluation


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
    def name(self) -> str:
        if self.kind in ("aveChP", "P_set", "R_set"):
            return self.kind
        if self.kind in ("ChP", "ChR"):
            return f"{self.kind}@{self.k}"
        if self.kind == "T2IF" and self.weight != 1.0:
            return f"T2IF({self.k},{_num(self.weight)})"
        if self.kind in ("T2IP", "T2IR", "T2IF", "LE", "ES", "BEP"):
            return f"{self.kind}({self.k})"
        return f"F({_num(self.weight)})"

    def __str__(self) -> str:
        return self.name

    def null_value(self, levels: int = 4) -> float:
        """The value for a non-relevant article, whatever was retrieved: NR = ``levels + 1``
        for LE and ES, 0 for every other measure (SPEC section 5)."""
        return float(levels + 1) if self.kind in ("LE", "ES") else 0.0

    def value(self, doc: DocumentEvaluation, levels: int = 4) -> float:
        """The measure's value for one article. Raises ``ValueError`` for ``BEP(d)``, which
        needs the qrels' best entry point (see :func:`engine.listmeasures.bep_score`)."""
        out = self.compute(doc, levels)
        return float(out) if self.kind in ("LE", "ES") else out

    def compute(self, doc, levels: int = 4):
        """The measure of ``doc``: one article (a :class:`DocumentEvaluation`: a number) or
        many at once (an :class:`engine.docmeasures.DocumentBatch`, which has the same methods:
        a float array). Raises ``ValueError`` for ``BEP(d)`` (it needs the qrels)."""
        kind = self.kind
        if kind == "BEP":
            raise ValueError("BEP(d) needs the qrels' best entry point: use engine.listmeasures.article_score")
        if kind == "aveChP":
            return doc.ave_chp()
        if kind == "ChP":
            return doc.chp_at(self.k)
        if kind == "ChR":
            return doc.chr_at(self.k)
        if kind.startswith("T2I"):
            p, r, f = doc.t2i(self.k, self.weight)
            return {"T2IP": p, "T2IR": r, "T2IF": f}[kind]
        if kind == "LE":
            return doc.le(self.k, levels)
        if kind == "ES":
            return doc.es(self.k, levels)
        p, r, f = doc.set_scores(self.weight)
        return {"P_set": p, "R_set": r, "F": f}[kind]


# -- parameters ------------------------------------------------------------------------------
MAX_SIZE = 2**40  # characters (or bytes): ChP@k, T2I's t, LE/ES's s, BEP's d; SPEC section 3's offset bound
MAX_RANK = 1_000_000  # rank cutoffs r and i (CE/NCE/ANCE build arrays of that length per topic)
MAX_WEIGHT = 1e6  # F's beta and T2IF's alpha: above 0 and at most this (beta^2 stays a finite float)
MAX_LEVELS = 1000  # LE's levels L (NR = L + 1)


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


# parameters of each document measure: (name, parser); the parser's name is the parameter's
_DOC_PARAMS = {
    "ChP": [("k", _size)], "ChR": [("k", _size)],
    "T2IP": [("t", _size)], "T2IR": [("t", _size)], "T2IF": [("t", _size), ("alpha", _weight)],
    "LE": [("s", _size)], "ES": [("s", _size)], "F": [("beta", _weight)], "BEP": [("d", _size)],
}


def parameter_names(kind: str) -> tuple[str, ...]:
    """The parameters of the document measure ``kind`` as the reference names them (``("t",
    "alpha")`` for ``T2IF``; ``()`` for ``aveChP``, ``P_set``, ``R_set``)."""
    return tuple(name for name, _ in _DOC_PARAMS.get(kind, ()))


_DOC_SHAPE = re.compile(r"(?P<at>ChP|ChR)@(?P<k>.*)|(?P<call>T2IP|T2IR|T2IF|LE|ES|F|BEP)\((?P<args>.*)\)"
                        r"|(?P<bare>aveChP|P_set|R_set)", re.S)
_DOC_HELP = ("document measures are aveChP, ChP@k, ChR@k, T2IP(t), T2IR(t), T2IF(t), T2IF(t,alpha), LE(s), "
             "ES(s), P_set, R_set, F(beta), BEP(d)")
PARAMETER_RANGES = (f"k, t, s and d are sizes in the offset unit (--unit, bytes by default), whole numbers "
                    f"from 1 to 2^40; alpha and beta finite "
                    f"numbers above 0 and at most {_num(MAX_WEIGHT)}; rank cutoffs r and i whole numbers from 1 "
                    f"to {MAX_RANK}; recall points x written with two decimals on their grid (ircl_prn.0.00, 0.10, .., 1.00; "
                    f"iP[0.00], [0.01], .., [1.00])")


def parse_measure(text: str) -> DocMeasure:
    """Parse a document measure name; ``parse_measure(m.name) == m`` for every measure.

    Raises :class:`UnknownMeasure` for an unknown name and its subclass :class:`BadParameter`
    for a known name whose parameter is not in range: k, t, s, d whole numbers of characters
    from 1 to :data:`MAX_SIZE`; alpha and beta finite, above 0, at most :data:`MAX_WEIGHT`."""
    text = text.strip()
    m = _DOC_SHAPE.fullmatch(text)
    if m is None:
        raise UnknownMeasure(f"unknown measure {_show(text)!r}; {_DOC_HELP}")
    if m.group("bare"):
        return DocMeasure(m.group("bare"))
    kind = m.group("at") or m.group("call")
    args = [m.group("k")] if m.group("at") else m.group("args").split(",")
    params = _DOC_PARAMS[kind]
    if len(args) > len(params) or (len(args) < len(params) and kind != "T2IF"):
        names = ", ".join(name for name, _ in params)
        count = "1 or 2 parameters" if kind == "T2IF" else "1 parameter"
        raise BadParameter(f"{_show(text)}: {kind} takes {count} ({names}), not {len(args)}")
    try:
        values = [parse(arg, name) for (name, parse), arg in zip(params, args)]
    except BadParameter as exc:
        raise BadParameter(f"{_show(text)}: {exc}") from None
    if kind == "F":
        return DocMeasure("F", 0, values[0])
    weight = values[1] if len(values) > 1 else 1.0
    return DocMeasure(kind, values[0], weight, lower_is_better=kind in ("LE", "ES"))


# -- list measures ---------------------------------------------------------------------------
LIST_KINDS = ("gP", "gR", "AgP", "AgP'", "MAP", "ircl_prn", "CE", "NCE", "ANCE", "iP", "MAiP", "num_q",
              "num_ret", "num_rel", "num_rel_ret")
_RANKED = ("gP", "gR", "CE", "NCE", "ANCE")  # with a rank cutoff @r
_WITH_DOC = ("gP", "AgP", "AgP'", "ircl_prn", "CE", "NCE", "ANCE")  # LIST/DOC
_EFFORT = ("CE", "NCE", "ANCE")  # DOC must be an effort score (LE or ES)
_COUNTS = ("num_q", "num_ret", "num_rel", "num_rel_ret")
FOCUSED = ("iP", "MAiP")  # over the run's passages in line order, no document measure
INCONTEXT_POINTS = 11  # ircl_prn.0.00 .. 1.00 of the official tool's -r and -b tasks
FOCUSED_POINTS = 101  # iP[0.00] .. iP[1.00] of its -f task


@dataclass(frozen=True)
class ListMeasure:
    """A list measure over a topic's ranking, with its document measure (SPEC section 6).

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
    def name(self) -> str:
        kind = self.kind
        if kind == "gP" and self.plain:
            head = f"gP(plain)@{self.cutoff}"
        elif kind in _RANKED:
            head = f"{kind}@{self.cutoff}"
        elif kind == "ircl_prn":
            head = f"ircl_prn.{self.cutoff / (INCONTEXT_POINTS - 1):.2f}"
        elif kind == "iP":
            head = f"iP[{self.cutoff / (FOCUSED_POINTS - 1):.2f}]"
        else:
            head = kind
        return f"{head}/{self.doc.name}" if self.doc is not None else head

    def __str__(self) -> str:
        return self.name

    @property
    def lower_is_better(self) -> bool:
        """True for the effort measures CE, NCE and ANCE."""
        return self.kind in _EFFORT

    @property
    def is_count(self) -> bool:
        """True for ``num_ret``, ``num_rel``, ``num_rel_ret``: integers, summed over topics."""
        return self.kind in _COUNTS

    @property
    def focused(self) -> bool:
        """True for the Focused task's ``iP[x]`` and ``MAiP`` (passages in line order)."""
        return self.kind in FOCUSED


_HEAD = re.compile(
    r"(?P<kind>gP\(plain\)|gP|gR|CE|NCE|ANCE)@(?P<r>.*)"
    r"|ircl_prn\.(?P<curve>.*)"
    r"|iP\[(?P<ip>.*)\]"
    r"|(?P<bare>AgP'|AgP|MAP|MAiP|num_q|num_ret|num_rel_ret|num_rel)", re.S
)
_LIST_HELP = ("list measures are gP@r/DOC, gP(plain)@r/DOC, gR@r, AgP/DOC, AgP'/DOC, MAP, "
              "ircl_prn.0.00/DOC .. ircl_prn.1.00/DOC, CE@i/LE(s), NCE@i/LE(s), ANCE@i/LE(s), "
              "iP[0.00] .. iP[1.00], MAiP, num_q, num_ret, num_rel, num_rel_ret; DOC is a document measure, "
              "e.g. AgP/F(0.25)")


def _point(text: str, points: int, full: str) -> int:
    """Index of recall point ``text`` (``0.10``, two decimals) on a grid of ``points`` points."""
    steps = points - 1
    text = text.strip()
    if re.fullmatch(r"[0-9]\.[0-9][0-9]", text):
        index = round(float(text) * steps)
        if 0 <= index <= steps and f"{index / steps:.2f}" == text:
            return index
    grid = "0.00, 0.10, ..., 1.00" if steps == 10 else "0.00, 0.01, ..., 1.00"
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
    m = _HEAD.fullmatch(head.strip())
    if m is None:
        raise UnknownMeasure(f"unknown measure {_show(full)!r}; {_LIST_HELP}")
    plain = False
    cutoff = 0
    if m.group("kind"):
        kind = m.group("kind")
        if kind == "gP(plain)":
            kind, plain = "gP", True
        try:
            cutoff = parse_count(m.group("r"), "the rank cutoff " + ("i" if kind in _EFFORT else "r"), 1, MAX_RANK)
        except BadParameter as exc:
            raise BadParameter(f"{_show(full)}: {exc}") from None
    elif m.group("curve") is not None:
        kind, cutoff = "ircl_prn", _point(m.group("curve"), INCONTEXT_POINTS, full)
    elif m.group("ip") is not None:
        kind, cutoff = "iP", _point(m.group("ip"), FOCUSED_POINTS, full)
    else:
        kind = m.group("bare")
    doc = None
    if kind in _WITH_DOC:
        if not slash:
            raise UnknownMeasure(f"{_show(full)}: {kind} needs a document measure, e.g. {head.strip()}/F(0.25)"
                                 if kind not in _EFFORT else f"{_show(full)}: {kind} needs an effort score, e.g. {head.strip()}/LE(300)")
        try:
            doc = parse_measure(tail)
        except BadParameter as exc:
            raise BadParameter(f"{head.strip()}/{exc}") from None
        if kind in _EFFORT and doc.kind not in ("LE", "ES"):
            raise UnknownMeasure(f"{_show(full)}: {kind} cumulates an effort score: LE(s) or ES(s), not {doc.name}")
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
        if "/" in text or _HEAD.fullmatch(text.strip().partition("/")[0].strip()):
            raise
        raise UnknownMeasure(f"unknown measure {_show(text.strip())!r}; document measures are aveChP, ChP@k, ChR@k, "
                             f"T2IP(t), T2IR(t), T2IF(t), T2IF(t,alpha), LE(s), ES(s), P_set, R_set, F(beta), "
                             f"BEP(d); {_LIST_HELP}") from None


def official_measures(doc: DocMeasure | None = None, points: bool = True) -> list[ListMeasure]:
    """What the official tool prints for the Relevant in Context task (``inex_eval -r``), in its
    order: the counts (``num_q`` .. ``num_rel_ret``), ``AgP`` (MAgP), ``gP@r``/``gR@r`` at r = 1, 2, 3, 5, 10, 25, 50, and the
    11-point ``ircl_prn`` curve, with document score ``doc`` (default ``F(0.25)``)."""
    doc = doc or DocMeasure("F", 0, 0.25)
    out = [ListMeasure(k) for k in _COUNTS] + [ListMeasure("AgP", 0, doc)]
    for r in (1, 2, 3, 5, 10, 25, 50):
        out += [ListMeasure("gP", r, doc), ListMeasure("gR", r)]
    if points:
        out += [ListMeasure("ircl_prn", i, doc) for i in range(INCONTEXT_POINTS)]
    return out
