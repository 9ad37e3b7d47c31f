"""A slow, per-character reference of the reading orders and document measures.

Built straight from the definitions of docs/reference.md sections 3 and 4, one character at a time, with
plain Python sets and lists. It does NOT use the engine (no pieces, no intervals, no
``harmonic_diff``): it is what the engine's closed forms are checked against (property tests
in ``test_reading.py`` / ``test_docmeasures.py``) and timed against (``bench/bench_docmeasures.py``).

Conventions (the engine's documented contract, restated here from docs/reference.md):

- R = the union of the relevant passages, clipped to ``[0, doc_length)``.
- T = the union of the retrieved passages, or ``None`` for a whole-article result.
- n = ``doc_length``, or, in the modes that follow the chain (natural, worst, best), the end of
  the last retrieved passage if that is further: the chain reads retrieved text past
  doc_length as non-relevant (the official tool's rule, sections 1.5 and 7). The document and
  entry modes ignore T and read ``[0, doc_length)``.
- Reading order (section 3), as a list of 0-based positions:
  natural = sorted(T) + the rest in document order;
  worst = sorted(T) + the non-relevant rest + the relevant rest;
  best = sorted(T) + the relevant rest + the non-relevant rest;
  document (or T is None) = 0 .. n-1;
  entry e (clamped to [0, n]) = e .. n-1, then 0 .. e-1 (wrap-around; T ignored).
- Measures (section 4) with positions i = 1..n, rel(i), NRC = |R|, P(i) = relevant among
  the first i / i. A non-relevant article scores 0 everywhere; its LE and ES are NR = L + 1.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

MODES = ("natural", "worst", "best", "document", "entry")


def positions(passages: Iterable[tuple[int, int]], lo: int | None = None, hi: int | None = None) -> set[int]:
    """The set of positions covered by half-open passages, optionally restricted to [lo, hi)."""
    out: set[int] = set()
    for start, end in passages:
        a = start if lo is None else max(start, lo)
        b = end if hi is None else min(end, hi)
        out.update(range(a, b))
    return out


def f_beta(p: float, r: float, beta: float) -> float:
    """(1 + b^2) P R / (b^2 P + R), 0 when P + R = 0 (docs/reference.md sections 4.3, 4.6)."""
    if p + r == 0:
        return 0.0
    b2 = beta * beta
    return (1 + b2) * p * r / (b2 * p + r)


class ReferenceDoc:
    """One article read character by character."""

    def __init__(
        self,
        doc_length: int,
        relevant: Sequence[tuple[int, int]],
        retrieved: Sequence[tuple[int, int]] | None,
        mode: str = "natural",
        entry: int = 0,
    ):
        mode = str(getattr(mode, "value", mode))
        assert mode in MODES, mode
        self.R = positions(relevant, 0, doc_length)
        self.T = None if retrieved is None else positions(retrieved)
        n = doc_length
        if self.T and mode in ("natural", "worst", "best"):
            n = max(n, max(self.T) + 1)
        self.n = n
        self.nrc = len(self.R)
        everything = list(range(n))
        if mode == "document" or (self.T is None and mode != "entry"):
            order = everything
        elif mode == "entry":
            e = min(max(entry, 0), n)
            order = list(range(e, n)) + list(range(0, e))
        else:
            chain = sorted(self.T)
            rest = [p for p in everything if p not in self.T]
            if mode == "natural":
                order = chain + rest
            elif mode == "worst":
                order = chain + [p for p in rest if p not in self.R] + [p for p in rest if p in self.R]
            else:  # best
                order = chain + [p for p in rest if p in self.R] + [p for p in rest if p not in self.R]
        self.order: list[int] = order
        self.rel: list[bool] = [p in self.R for p in order]

    # -- helpers -----------------------------------------------------------------------
    def relevant_among_first(self, k: int) -> int:
        return sum(1 for flag in self.rel[: max(k, 0)] if flag)

    @property
    def retrieved_set(self) -> set[int]:
        """T, or every position of [0, n) for a whole-article result."""
        return set(range(self.n)) if self.T is None else self.T

    # -- docs/reference.md section 4 -----------------------------------------------------
    def ave_chp(self) -> float:
        if self.nrc == 0:
            return 0.0
        terms = []
        seen = 0
        for i, flag in enumerate(self.rel, 1):
            if flag:
                seen += 1
                terms.append(seen / i)  # P(i) at a relevant position
        return math.fsum(terms) / self.nrc

    def chp_at(self, k: int) -> float:
        m = min(k, self.n)
        if self.nrc == 0 or m <= 0:
            return 0.0
        return self.relevant_among_first(m) / m

    def chr_at(self, k: int) -> float:
        if self.nrc == 0:
            return 0.0
        return self.relevant_among_first(k) / self.nrc

    def t2i_stop(self, tolerance: int) -> tuple[int, int]:
        """(m, relevant read): stop right after the tolerance-th non-relevant character."""
        read = rel = nonrel = 0
        for flag in self.rel:
            read += 1
            if flag:
                rel += 1
            else:
                nonrel += 1
                if nonrel == tolerance:
                    break
        return read, rel

    def t2i(self, tolerance: int, alpha: float = 1.0) -> tuple[float, float, float]:
        if self.nrc == 0:
            return 0.0, 0.0, 0.0
        m, rel = self.t2i_stop(tolerance)
        p = rel / m if m else 0.0
        r = rel / self.nrc
        return p, r, f_beta(p, r, alpha)

    def first_relevant(self) -> int | None:
        for i, flag in enumerate(self.rel, 1):
            if flag:
                return i
        return None

    def le(self, screen: int, levels: int = 4) -> int:
        f = self.first_relevant()
        if f is None:
            return levels + 1
        for level in range(1, levels):
            if f <= level * screen:
                return level
        return levels

    def es(self, screen: int, levels: int = 4) -> int:
        return self.le(screen, levels) if self.nrc > 0 else levels + 1

    def set_scores(self, beta: float = 0.25) -> tuple[float, float, float]:
        if self.nrc == 0:
            return 0.0, 0.0, 0.0
        t = self.retrieved_set
        both = len(t & self.R)
        p = both / len(t) if t else 0.0
        r = both / self.nrc
        return p, r, f_beta(p, r, beta)

    def precision_recall_at(self, x: int) -> tuple[float, float]:
        """Precision and recall after reading x characters (1 <= x <= n)."""
        rel = self.relevant_among_first(x)
        return rel / x, (rel / self.nrc if self.nrc else 0.0)

    def window(self, first: int, last: int) -> list[int]:
        """Document positions read at reading positions [first, last)."""
        return self.order[max(first, 0) : max(last, 0)]

    # -- by measure name (docs/reference.md section 6) ---------------------------------
    def value(self, kind: str, k: int = 0, weight: float = 1.0, levels: int = 4) -> float:
        """A measure by kind: aveChP, ChP, ChR, T2IP, T2IR, T2IF, LE, ES, P_set, R_set, F."""
        if kind == "aveChP":
            return self.ave_chp()
        if kind == "ChP":
            return self.chp_at(k)
        if kind == "ChR":
            return self.chr_at(k)
        if kind in ("T2IP", "T2IR", "T2IF"):
            return self.t2i(k, weight)[("T2IP", "T2IR", "T2IF").index(kind)]
        if kind == "LE":
            return float(self.le(k, levels))
        if kind == "ES":
            return float(self.es(k, levels))
        if kind in ("P_set", "R_set", "F"):
            return self.set_scores(weight)[("P_set", "R_set", "F").index(kind)]
        raise ValueError(kind)
