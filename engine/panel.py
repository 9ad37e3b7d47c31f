"""The score panel: the document measures the window shows for the reader's settings, and their
values for one article (docs/reference.md section 4; also ``readsim.ArticleEvaluation.scores``).

Kept apart from :mod:`engine.document` (one article's reading order) and :mod:`engine.measure`
(measure names), which know nothing of the window's choice.
"""

from __future__ import annotations

from .document import DocumentEvaluation, Settings
from .measure import DocMeasure


def panel_measures(s: Settings) -> list[DocMeasure]:
    """The measures the window shows for settings ``s``, in display order: aveChP, ChP@screen,
    ChR@screen, T2IP/T2IR/T2IF at the tolerance (T2IF with ``s.alpha``), LE and ES at the
    screen, P_set, R_set, F(beta)."""
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


def panel_scores(doc: DocumentEvaluation, s: Settings) -> dict[str, float]:
    """The score panel of one article: canonical measure name -> value, for settings ``s``
    (LE and ES with ``s.levels``)."""
    return {m.name: m.value(doc, s.levels) for m in panel_measures(s)}
