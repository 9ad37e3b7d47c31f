"""``readsim.elements``: element retrieval evaluation with the INEX 2002 and 2003 metrics
(Gövert, Fuhr, Lalmas, Kazai, *Information Retrieval* 9, 2006; reference section 13), the numbers
of ``readsim-eval --elements`` (both: :func:`readsim.core.element_retrieval.evaluate_elements`).

- :func:`evaluate`: a long ``pandas.DataFrame`` as :func:`readsim.evaluate` gives;
- :func:`read_assessments` (an INEX 2006-2007 style assessments XML, with the collection),
  :func:`derive_assessments` (assessments derived from FOL highlighting: a teaching device, not
  INEX's assessments), :func:`read_element_run` (7-field XPath lines or XML ``<path>`` runs),
  :func:`parse_element_measure` (``AP_2003o/gen``, ``iP_2002[0.50]/strict``, ...).

Offsets and sizes are in the collection's unit (UTF-8 bytes by default).
"""

from __future__ import annotations

from readsim.core.element_retrieval import (DEFAULT_MEASURES, Cuts, ElementAssessments, ElementMeasure, ElementRun,
                                             evaluate_elements, parse_element_measure, read_assessments, read_element_run, simulated_element_run)
from readsim.core.element_retrieval import derive_assessments as _derive

from readsim.operations.checks import flag, options, topic_ids
from readsim.operations.evaluate import _collection
from readsim.operations.inputs import as_qrels, warn

__all__ = ["evaluate", "read_assessments", "derive_assessments", "read_element_run", "parse_element_measure",
           "simulated_element_run", "DEFAULT_MEASURES", "Cuts", "ElementAssessments", "ElementMeasure", "ElementRun"]


def derive_assessments(qrels, collection, topics=None, cuts: Cuts = Cuts(), *, unit: str | None = None
                       ) -> ElementAssessments:
    """Element assessments derived from FOL highlighting (reference section 13.2) for
    ``topics`` (default: every judged topic whose relevant articles ``collection`` holds).
    ``qrels``: as :func:`readsim.evaluate`; ``collection``: a folder or :class:`readsim.Collection`."""
    options(unit=unit)
    topics = topic_ids("topics", topics) if topics is not None else None
    result = _derive(as_qrels(qrels), _collection(collection, unit), topics, cuts)
    warn(result.diagnostics)
    return result


def evaluate(assessments: ElementAssessments, run: ElementRun, measures=(), *, per: str = "all",
             all_topics: bool = False):
    """Evaluate an element run (``readsim-eval --elements``): columns ``run``, ``measure``,
    ``topic`` (``"all"`` for the mean with ``per="all"``; one row per topic with
    ``per="topic"``), ``value``. ``measures``: names (default the six ``AP_*`` measures);
    ``all_topics``: every assessed topic, one the run lacks scoring 0. Warnings (topics not
    assessed, measures with nothing relevant) as :class:`readsim.InputWarning`; raises
    ``ValueError`` on an unknown measure or ``per``."""
    import pandas as pd

    options(per=per, pers=("all", "topic"))
    result = evaluate_elements(assessments, run, measures, flag("all_topics", all_topics))
    warn(result.diagnostics)
    rows = []
    for m in result.measures:
        if per == "topic":
            rows += [(result.run_id, m.name, t, float(v)) for t, v in result.values[m.name].items()]
        else:
            rows.append((result.run_id, m.name, "all", float(result.means[m.name])))
    return pd.DataFrame(rows, columns=["run", "measure", "topic", "value"])
