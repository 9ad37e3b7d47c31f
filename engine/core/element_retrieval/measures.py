"""Names of the element measures ([Gövert 2006]; docs/reference.md section 13.7), parsed here, apart from
:mod:`readsim.core.measure` (whose list measures rank articles, not elements).

=============================  ===============================================================
``AP_2002/strict``, ``/gen``   INEX 2002 (precall, eqs 6-9): average precision per topic,
                               the mean over topics at ``all``
``AP_2003s/strict``, ``/gen``  INEX 2003 with size, recall_s/precision_s (eqs 2-5, 12-13)
``AP_2003o/strict``, ``/gen``  INEX 2003 with size and overlap, recall_o/precision_o (eqs 14-19)
``iP_2002[x]/q`` ...           precision at recall point x (two decimals, 0.00 .. 1.00): eq. 7
                               at x for 2002, Salton-interpolated for 2003s and 2003o
=============================  ===============================================================

Every name parses back to itself (``parse_element_measure(m.name) == m``); spaces around the
parts are allowed and dropped. :class:`~readsim.core.measure.UnknownMeasure` (a ``ValueError``) for
anything else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..measure import UnknownMeasure

METRICS = ("2002", "2003s", "2003o")
KINDS = ("AP", "iP")
DEFAULT_MEASURES = ("AP_2002/strict", "AP_2002/gen", "AP_2003s/strict", "AP_2003s/gen", "AP_2003o/strict", "AP_2003o/gen")

_NAME = re.compile(r"(AP|iP)_(2002|2003s|2003o)\s*(?:\[\s*([0-9]+\.[0-9]+)\s*\])?\s*/\s*(strict|gen)")
_LOOKS = re.compile(r"\s*(?:AP|iP)_20")


@dataclass(frozen=True)
class ElementMeasure:
    """``kind`` (``AP`` or ``iP``), ``metric`` (``2002``, ``2003s``, ``2003o``), ``quantisation``
    (``strict``, ``gen``) and, for ``iP``, the recall point in hundredths ``x100`` (0..100)."""

    kind: str
    metric: str
    quantisation: str
    x100: int = -1

    @property
    def x(self) -> float:
        return self.x100 / 100

    @property
    def name(self) -> str:
        if self.kind == "AP":
            return f"AP_{self.metric}/{self.quantisation}"
        return f"iP_{self.metric}[{self.x100 / 100:.2f}]/{self.quantisation}"

    def __str__(self) -> str:
        return self.name


def looks_like_element_measure(text: str) -> bool:
    """True for a name that starts like an element measure (``AP_20..``, ``iP_20..``): the
    command line sends it here, so that a misspelt one is told about by this parser."""
    return bool(_LOOKS.match(str(text)))


def parse_element_measure(text: str) -> ElementMeasure:
    """``AP_2003o/gen`` -> :class:`ElementMeasure`. Raises :class:`UnknownMeasure` naming what
    is wrong."""
    raw = str(text).strip()
    m = _NAME.fullmatch(raw)
    if m is None:
        raise UnknownMeasure(f"unknown element measure {raw!r}: element measures are AP_2002/q, AP_2003s/q, "
                             "AP_2003o/q and iP_2002[x]/q, iP_2003s[x]/q, iP_2003o[x]/q, with q strict or gen and "
                             "x a recall point 0.00 .. 1.00")
    kind, metric, x, q = m.groups()
    if kind == "AP":
        if x is not None:
            raise UnknownMeasure(f"{raw}: AP takes no recall point (iP_{metric}[{x}]/{q} is precision at {x})")
        return ElementMeasure(kind, metric, q)
    if x is None:
        raise UnknownMeasure(f"{raw}: iP needs a recall point, e.g. iP_{metric}[0.50]/{q}")
    if not re.fullmatch(r"[01]\.[0-9]{2}", x) or float(x) > 1:
        raise UnknownMeasure(f"{raw}: the recall point must have two decimals from 0.00 to 1.00, not {x}")
    return ElementMeasure(kind, metric, q, int(round(float(x) * 100)))
