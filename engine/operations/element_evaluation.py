"""The pandas-free core of ``readsim.elements`` (element retrieval with the INEX 2002 and 2003
metrics: Gövert, Fuhr, Lalmas, Kazai, *Information Retrieval* 9, 2006; reference section 13),
which ``readsim-eval --elements`` calls too.
"""

from __future__ import annotations

from collections.abc import Iterable

from readsim.core.element_retrieval import (ElementAssessments, ElementEvaluation, ElementMeasure, ElementRun,
                                     evaluate_elements)


def element_evaluation(assessments: ElementAssessments, run: ElementRun,
                       measures: Iterable[ElementMeasure | str] = (), all_topics: bool = False) -> ElementEvaluation:
    """``run`` evaluated against ``assessments`` (:func:`readsim.elements.evaluate`'s numbers,
    ``readsim-eval --elements``'): per measure (names or parsed; default the six ``AP_*``
    measures) each topic's value (``values[name][topic]``) and the mean over the topics
    (``means[name]``). Topics: the run's assessed ones, or with ``all_topics`` every assessed
    topic, one the run lacks scoring 0. Issues no warning: they are in ``.diagnostics`` (a run
    topic not assessed, a measure with nothing relevant). Raises ``ValueError``
    (:class:`readsim.core.measure.UnknownMeasure`) on an unknown measure."""
    return evaluate_elements(assessments, run, measures, all_topics)
