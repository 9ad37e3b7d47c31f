"""Explanations of document measures: a measure's formula with one article's numbers (reference §4).

:func:`explain` returns an :class:`Explanation` of any document measure of
:mod:`readsim.core.measure` for one article (a :class:`~readsim.core.doc_evaluation.DocumentEvaluation`): the
quantities of the measure's formula as :class:`Term` s (a label, a value, and the characters
the quantity counts as ``[start, end)`` offsets in the evaluation's unit: UTF-8 bytes for the
INEX data, characters with ``--unit chars``) and ``total``, the formula evaluated on the terms'
values, which equals :meth:`DocMeasure.value` (tests/engine/test_explain.py: on every relevant
article the real INEX runs rank, to 1e-12). One function per family, each computed from the
reading order's pieces (reference §4.8):

- ``aveChP`` (§4.1): one term per relevant piece read, ``Σ P(i)`` over its positions, and NRC;
- ``ChP@k``, ``ChR@k`` (§4.2): the positions read up to ``min(k, n)``, the relevant among them, NRC;
- ``T2IP(t)``, ``T2IR(t)``, ``T2IF(t,α)`` (§4.3): where the reader stops, what was read, P, R, F;
- ``LE(s)``, ``ES(s)`` (§4.4, §4.5): the first relevant position f, the screens read until it shows;
- ``P_set``, ``R_set``, ``F(β)`` (§4.6): |T|, |R ∩ T|, |R|, P, R, F;
- ``BEP(d)`` (§4.7): the assessor's and the run's entry points and their distance.

Sources: Arvola, Kekäläinen, Junkkari 2010 (sections 4.1, 4.2 and 5.2), Kamps et al. 2007
(set-based F), the official INEX tool (BEP). Pure: no Qt, no I/O.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

import numpy as np

from . import docmeasures as dm
from . import intervals as iv
from readsim.core.doc_evaluation import DocumentEvaluation
from .measure import DocMeasure, ListMeasure, UnknownMeasure, parse_any
from .reading import window
from .registry import DOC

SHOWN_TERMS = 8  # terms of a long sum written out in the substituted formula; the rest as "+ ... (N more)"


@dataclass(frozen=True)
class Term:
    """One quantity of a measure's formula for one article: ``label`` (its symbol and what it
    counts), ``value`` and ``spans``, the characters it counts: a ``(k, 2)`` int64 array of
    ``[start, end)`` offsets in the evaluation's unit (bytes or characters), in document order,
    empty for a parameter (the screen size s, the levels L, the weight β)."""

    label: str
    value: float
    spans: np.ndarray

    @property
    def symbol(self) -> str:
        """The label's symbol: its text before the first ``:``."""
        return self.label.split(":", 1)[0].strip()


@dataclass(frozen=True)
class Explanation:
    """A document measure for one article, as its formula with the article's numbers.

    ``measure``: canonical name (``T2IF(300)``); ``formula``: the formula as the reference writes
    it; ``reference``: its section (``"4.3"`` of docs/reference.md); ``terms``: the formula's
    quantities (:class:`Term`); ``substituted``: the formula with the terms' values written in
    and its result; ``total``: the formula evaluated on the terms' values (equal to the
    measure's score); ``unit``: the unit of the spans and counts (``bytes`` or ``characters``);
    ``note``: why the total is what it is when the formula does not apply (a non-relevant
    article, no best entry point), else empty."""

    measure: str
    formula: str
    reference: str
    terms: tuple[Term, ...]
    substituted: str
    total: float
    unit: str = "characters"
    note: str = ""

    def term(self, symbol: str) -> Term:
        """The term whose symbol (label before ``:``) is ``symbol``; ``KeyError`` if none."""
        for t in self.terms:
            if t.symbol == symbol:
                return t
        raise KeyError(symbol)

    def __str__(self) -> str:
        """:meth:`text`: ``print(explanation)`` shows the formula, not the dataclass."""
        return self.text()

    def text(self) -> str:
        """The explanation as plain text: formula, substituted formula, one line per term."""
        lines = [f"{self.measure}   (reference §{self.reference})", self.formula, self.substituted]
        if self.note:
            lines.append(self.note)
        lines += [f"  {t.label} = {number(t.value)}   ({_count(len(t.spans), 'spans')}, "
                  f"{_count(iv.total(t.spans), self.unit)})" for t in self.terms]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """The explanation as an HTML table (every text escaped)."""
        rows = "".join(f"<tr><td>{html.escape(t.label)}</td><td style='text-align:right'>{html.escape(number(t.value))}"
                       f"</td><td style='text-align:right'>{iv.total(t.spans):,}</td></tr>" for t in self.terms)
        note = f"<div><i>{html.escape(self.note)}</i></div>" if self.note else ""
        return (f"<div class='readsim-explanation'><b>{html.escape(self.measure)}</b> (reference "
                f"§{html.escape(self.reference)})<pre>{html.escape(self.formula)}\n{html.escape(self.substituted)}</pre>"
                f"{note}<table><thead><tr><th>term</th><th>value</th><th>{html.escape(self.unit)} counted</th></tr>"
                f"</thead><tbody>{rows}</tbody></table></div>")


def _count(n: int, plural: str) -> str:
    return f"{n:,} {plural[:-1] if n == 1 else plural}"


def number(x: float) -> str:
    """A term's value as the formula shows it: a whole number with thousands separators, else 4 decimals."""
    return f"{int(x):,}" if float(x).is_integer() else f"{x:,.4f}"


# -- the formulas, as reference §4 writes them ----------------------------------------------
FORMULAS = {kind: (d.section, d.formula) for kind, d in DOC.items()}
"""Each document measure's reference section and formula, from its declaration (:mod:`readsim.core.doc_kinds`)."""


def explain(measure: DocMeasure | str, doc: DocumentEvaluation, levels: int = 4, *, bep: int | None = None,
            entry: int | None = None, unit: str = "characters") -> Explanation:
    """The explanation of document measure ``measure`` (a :class:`DocMeasure` or its name) for
    the article ``doc``; ``levels``: LE's L; ``bep``, ``entry``: the qrels' best entry point and
    the run's entry point, for ``BEP(d)`` only (``entry`` default: the first retrieved offset, 0
    for a whole article, as :func:`readsim.core.listmeasures.article_score`); ``unit``: the offsets'
    unit, ``bytes`` or ``chars``/``characters`` (words only: the numbers do not depend on it). Raises ``ValueError`` naming ``measure`` when it is not a document
    measure (a list measure, an unknown name)."""
    m = as_document_measure(measure)
    unit = "characters" if unit.startswith("char") else "bytes"  # the offsets' unit: --unit chars or bytes
    decl = m.declaration
    reference, formula = decl.section, decl.formula
    if decl.needs_qrels:
        terms, substituted, total, note = _bep(m, doc, bep, entry, unit)
    elif not doc.is_relevant:
        terms, substituted, total, note = _not_relevant(m, doc, levels, unit)
    else:
        terms, substituted, total, note = _FAMILY.get(m.kind, _value_only)(m, doc, levels, unit)
    return Explanation(m.name, formula, reference, tuple(terms), f"{m.name} = {substituted}", float(total), unit, note)


def as_document_measure(measure: DocMeasure | str) -> DocMeasure:
    """``measure`` as a :class:`DocMeasure`; ``ValueError`` naming it for a list measure, an
    unknown name or anything else."""
    if isinstance(measure, DocMeasure):
        return measure
    if isinstance(measure, ListMeasure):
        raise ValueError(f"{measure.name} is a list measure: an explanation is of a document measure (reference §4)")
    if not isinstance(measure, str):
        raise ValueError(f"{measure!r} is not a measure: give a document measure or its name, e.g. 'aveChP'")
    try:
        parsed = parse_any(measure)
    except UnknownMeasure as exc:
        raise ValueError(str(exc)) from None
    if isinstance(parsed, ListMeasure):
        raise ValueError(f"{parsed.name} is a list measure: an explanation is of a document measure (reference §4)")
    return parsed


# -- helpers -----------------------------------------------------------------------------------
def _read(doc: DocumentEvaluation, first: int, last: int) -> np.ndarray:
    """The document spans read between reading positions ``first`` and ``last`` (0-based,
    half-open), normalized."""
    spans = window(doc.pieces, first, last)
    return iv.normalize(spans) if spans else iv.EMPTY


def _one(start: int) -> np.ndarray:
    """The one position at ``start``."""
    return iv.as_array([(start, start + 1)])


def _nrc(doc: DocumentEvaluation, unit: str) -> Term:
    return Term(f"NRC: relevant {unit} in the article (|R|)", doc.nrc, doc.relevant)


def _ratio(a: float, b: float) -> float:
    return a / b if b else 0.0


def _sum_text(values: list[float]) -> str:
    shown = " + ".join(number(v) for v in values[:SHOWN_TERMS])
    if len(values) > SHOWN_TERMS:
        shown += f" + … ({len(values) - SHOWN_TERMS} more)"
    return shown or "0"


def _f_text(p: float, r: float, w: float, total: float) -> str:
    w2 = f"{w:g}²"
    return f"(1 + {w2}) · {number(p)} · {number(r)} / ({w2} · {number(p)} + {number(r)}) = {total:.4f}"


def _not_relevant(m: DocMeasure, doc: DocumentEvaluation, levels: int, unit: str):
    """NRC = 0: 0 for every precision, recall and F measure, NR = L + 1 for LE and ES (§4)."""
    if m.declaration.null == "NR":
        lv = Term("L: levels", levels, iv.EMPTY)
        total = lv.value + 1
        return ([_nrc(doc, unit), lv], f"NR = L + 1 = {number(lv.value)} + 1 = {number(total)}", total,
                "NRC = 0: the article is not relevant, so it scores NR = L + 1")
    return [_nrc(doc, unit)], "0", 0.0, "NRC = 0: the article is not relevant, so it scores 0"


# -- the families ----------------------------------------------------------------------------
def _ave_chp(m: DocMeasure, doc: DocumentEvaluation, levels: int, unit: str):
    """§4.1: over a relevant piece of length L read after p positions of which r relevant,
    Σ_{j=1..L} (r+j)/(p+j) = L − (p − r)·(H(p+L) − H(p)) [Arvola 2010, section 4.1]."""
    terms = []
    pos = rel = 0
    for piece in doc.pieces:
        if piece.relevant:
            sums = piece.length - (pos - rel) * dm.harmonic_diff(pos, pos + piece.length)
            terms.append(Term(f"Σ P(i), piece {len(terms) + 1}: read {pos + 1:,}–{pos + piece.length:,}, "
                              f"{rel:,} of the {pos:,} before relevant", sums, iv.as_array([(piece.start, piece.end)])))
            rel += piece.length
        pos += piece.length
    nrc = _nrc(doc, unit)
    sums = [t.value for t in terms]
    total = math.fsum(sums) / nrc.value
    return terms + [nrc], f"(1 / {number(nrc.value)}) · ({_sum_text(sums)}) = {total:.4f}", total, ""


def _chp(m: DocMeasure, doc: DocumentEvaluation, levels: int, unit: str):
    """§4.2: the first min(k, n) positions read, the relevant among them, and NRC for ChR."""
    read = min(m.k, sum(p.length for p in doc.pieces))
    spans = _read(doc, 0, read)
    seen = Term(f"min(k, n): {unit} read, k = {m.k:,}", read, spans)
    hits = iv.intersect(spans, doc.relevant)
    rel = Term(f"relevant read: relevant among the first {read:,} read", iv.total(hits), hits)
    if m.kind == "ChP":
        total = _ratio(rel.value, seen.value)
        return [seen, rel], f"{number(rel.value)} / {number(seen.value)} = {total:.4f}", total, ""
    nrc = _nrc(doc, unit)
    total = rel.value / nrc.value
    return [seen, rel, nrc], f"{number(rel.value)} / {number(nrc.value)} = {total:.4f}", total, ""


def _t2i(m: DocMeasure, doc: DocumentEvaluation, levels: int, unit: str):
    """§4.3: the reader stops right after the t-th non-relevant position read (or at the end)."""
    stop, _ = dm.t2i_stop(doc.pieces, m.k)
    spans = _read(doc, 0, stop)
    hits = iv.intersect(spans, doc.relevant)
    misses = iv.subtract(spans, doc.relevant)
    read = Term(f"m: {unit} read up to the stop (t = {m.k:,})", stop, spans)
    rel = Term("relevant read: relevant among the m read", iv.total(hits), hits)
    non = Term(f"non-relevant read: the reader stops at the t-th ({m.k:,})", iv.total(misses), misses)
    nrc = _nrc(doc, unit)
    p = Term("T2IP: relevant read / m", _ratio(rel.value, read.value), hits)
    r = Term("T2IR: relevant read / NRC", rel.value / nrc.value, hits)
    how = (f"stops once it has read t = {m.k:,} non-relevant {unit}, at reading position {stop:,}" if non.value >= m.k
           else f"reads to the end: it meets only {number(non.value)} non-relevant {unit}, fewer than t = {m.k:,}")
    if m.kind == "T2IP":
        total = _ratio(rel.value, read.value)
        return [read, rel, non], f"{number(rel.value)} / {number(read.value)} = {total:.4f}", total, f"The reader {how}."
    if m.kind == "T2IR":
        total = rel.value / nrc.value
        return [read, rel, non, nrc], f"{number(rel.value)} / {number(nrc.value)} = {total:.4f}", total, f"The reader {how}."
    total = dm.f_score(p.value, r.value, m.weight)
    return [read, rel, non, nrc, p, r], _f_text(p.value, r.value, m.weight, total), total, f"The reader {how}."


def _effort(m: DocMeasure, doc: DocumentEvaluation, levels: int, unit: str):
    """§4.4-4.5: f, the reading position of the first relevant position; ⌈f / s⌉ screens of s."""
    pos, first = 0, None
    for piece in doc.pieces:
        if piece.relevant and piece.length:
            first = piece
            break
        pos += piece.length
    f = Term("f: reading position of the first relevant one", pos + 1, _one(first.start))
    before = Term(f"f − 1: {unit} read before it", pos, _read(doc, 0, pos))
    s = Term(f"s: screen size ({unit})", m.k, iv.EMPTY)
    screens = -(-int(f.value) // int(s.value))
    shown = Term("⌈f / s⌉: screens read until relevant text shows", screens, _read(doc, 0, screens * m.k))
    lv = Term("L: levels", levels, iv.EMPTY)
    total = min(int(shown.value), int(lv.value))
    text = f"min(⌈{number(f.value)} / {number(s.value)}⌉, {number(lv.value)}) = min({screens:,}, {levels}) = {total}"
    return [f, before, s, shown, lv], text, total, ""


def _set(m: DocMeasure, doc: DocumentEvaluation, levels: int, unit: str):
    """§4.6: the retrieved text T as a set, whatever the reading order."""
    ret = doc.retrieved_spans
    both = iv.intersect(doc.relevant, ret)
    t = Term(f"|T|: {unit} retrieved", iv.total(ret), ret)
    rt = Term("|R ∩ T|: relevant retrieved", iv.total(both), both)
    r = Term(f"|R|: relevant {unit} (NRC)", doc.nrc, doc.relevant)
    p_set = Term("P_set: |R ∩ T| / |T|", _ratio(rt.value, t.value), both)
    r_set = Term("R_set: |R ∩ T| / |R|", rt.value / r.value, both)
    if m.kind == "P_set":
        total = _ratio(rt.value, t.value)
        return [t, rt], f"{number(rt.value)} / {number(t.value)} = {total:.4f}", total, ""
    if m.kind == "R_set":
        total = rt.value / r.value
        return [rt, r], f"{number(rt.value)} / {number(r.value)} = {total:.4f}", total, ""
    total = dm.f_score(p_set.value, r_set.value, m.weight)
    return [t, rt, r, p_set, r_set], _f_text(p_set.value, r_set.value, m.weight, total), total, ""


def _bep(m: DocMeasure, doc: DocumentEvaluation, bep: int | None, entry: int | None, unit: str):
    """§4.7: the distance between the assessor's best entry point and the run's entry point."""
    if entry is None:
        ret = doc.retrieved
        entry = int(ret[0, 0]) if ret is not None and len(ret) else 0
    d = Term(f"d: the largest distance scored ({unit})", m.k, iv.EMPTY)
    run = Term("entry: the run's entry point", entry, _one(entry))
    if not doc.is_relevant or bep is None:
        why = "the article is not relevant" if not doc.is_relevant else "the qrels give no best entry point"
        return [run, d], "0", 0.0, f"{why[0].upper()}{why[1:]}, so it scores 0"
    best = Term("bep: the assessor's best entry point", bep, _one(bep))
    lo, hi = sorted((bep, entry))
    gap = Term("|bep − entry|: the distance", hi - lo, iv.as_array([(lo, hi)]) if hi > lo else iv.EMPTY)
    if gap.value > d.value:
        return [best, run, gap, d], f"0   ({number(gap.value)} > {number(d.value)})", 0.0, ""
    total = (d.value - gap.value) / d.value
    return [best, run, gap, d], f"({number(d.value)} − {number(gap.value)}) / {number(d.value)} = {total:.4f}", total, ""


def _value_only(m: DocMeasure, doc: DocumentEvaluation, levels: int, unit: str):
    """A measure without a family below: its value, no terms."""
    total = m.value(doc, levels)
    return [_nrc(doc, unit)], f"{total:.4f}", total, ""


_FAMILY = {"aveChP": _ave_chp, "ChP": _chp, "ChR": _chp, "T2IP": _t2i, "T2IR": _t2i, "T2IF": _t2i,
           "LE": _effort, "ES": _effort, "P_set": _set, "R_set": _set, "F": _set}
