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
=================  ====================================================================

:func:`parse_measure` raises :class:`UnknownMeasure` (a ``ValueError``) on anything else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .document import DocumentEvaluation, Settings


class UnknownMeasure(ValueError):
    """A measure name that does not parse."""


def _num(x: float) -> str:
    """Shortest round-tripping text of a parameter: ``300``, ``0.25``."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


@dataclass(frozen=True)
class DocMeasure:
    """A document measure: ``kind`` (``aveChP``, ``ChP``, ``ChR``, ``T2IP``, ``T2IR``, ``T2IF``,
    ``LE``, ``ES``, ``P_set``, ``R_set``, ``F``) with its parameters."""

    kind: str
    k: int = 0  # ChP@k, ChR@k; T2I tolerance; LE/ES screen size
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
        if self.kind in ("T2IP", "T2IR", "T2IF", "LE", "ES"):
            return f"{self.kind}({self.k})"
        return f"F({_num(self.weight)})"

    def __str__(self) -> str:
        return self.name

    def value(self, doc: DocumentEvaluation, levels: int = 4) -> float:
        """The measure's value for one article."""
        kind = self.kind
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
            return float(doc.le(self.k, levels))
        if kind == "ES":
            return float(doc.es(self.k, levels))
        p, r, f = doc.set_scores(self.weight)
        return {"P_set": p, "R_set": r, "F": f}[kind]


_INT = r"(\d+)"
_NUM = r"(\d+(?:\.\d*)?|\.\d+)"
_PATTERNS = [
    (re.compile(r"aveChP|P_set|R_set"), lambda m: DocMeasure(m.group(0))),
    (re.compile(rf"(ChP|ChR)@{_INT}"), lambda m: DocMeasure(m.group(1), int(m.group(2)))),
    (re.compile(rf"(T2IP|T2IR|T2IF)\(\s*{_INT}\s*\)"), lambda m: DocMeasure(m.group(1), int(m.group(2)))),
    (re.compile(rf"T2IF\(\s*{_INT}\s*,\s*{_NUM}\s*\)"), lambda m: DocMeasure("T2IF", int(m.group(1)), float(m.group(2)))),
    (re.compile(rf"(LE|ES)\(\s*{_INT}\s*\)"), lambda m: DocMeasure(m.group(1), int(m.group(2)), lower_is_better=True)),
    (re.compile(rf"F\(\s*{_NUM}\s*\)"), lambda m: DocMeasure("F", 0, float(m.group(1)))),
]


def parse_measure(text: str) -> DocMeasure:
    """Parse a document measure name; ``parse_measure(m.name) == m`` for every measure."""
    text = text.strip()
    for pattern, build in _PATTERNS:
        m = pattern.fullmatch(text)
        if m:
            measure = build(m)
            if measure.kind in ("ChP", "ChR", "T2IP", "T2IR", "T2IF", "LE", "ES") and measure.k < 1:
                raise UnknownMeasure(f"{text}: the size must be at least 1 character")
            return measure
    raise UnknownMeasure(
        f"unknown measure {text!r}; document measures are aveChP, ChP@k, ChR@k, T2IP(t), T2IR(t), "
        f"T2IF(t), T2IF(t,alpha), LE(s), ES(s), P_set, R_set, F(beta)"
    )


def panel_measures(s: Settings) -> list[DocMeasure]:
    """The measures the window shows for settings ``s``, in display order."""
    return [
        DocMeasure("aveChP"),
        DocMeasure("ChP", s.screen),
        DocMeasure("ChR", s.screen),
        DocMeasure("T2IP", s.tolerance),
        DocMeasure("T2IR", s.tolerance),
        DocMeasure("T2IF", s.tolerance, s.alpha),
        DocMeasure("LE", s.screen, lower_is_better=True),
        DocMeasure("ES", s.screen, lower_is_better=True),
        DocMeasure("P_set"),
        DocMeasure("R_set"),
        DocMeasure("F", 0, s.beta),
    ]
