"""Element retrieval evaluation of INEX 2002-2005 ([Gövert 2006]: Gövert, Fuhr, Lalmas, Kazai).

The engine of ``readsim-eval --elements`` and of the window's element mode. Offsets, sizes and
rsizes are in the unit of the collection and the qrels (UTF-8 bytes by default, Unicode
characters with ``unit="chars"``).

- :mod:`.assessments` element assessments (e, s on 0..3): read from an INEX 2006-2007 style
  assessments XML, or derived from FOL highlighting (a teaching device, not INEX's assessments),
  written back as XML;
- :mod:`.quantise` strict and generalised quantisations (eqs 2-5, 8-9) and the values of the
  pairs equation 9 leaves out;
- :mod:`.runs` element runs (7-field XPath lines, XML ``<path>``; overlap kept, ties = equal rsv
  on consecutive lines) and the simulated "perfect" and "ancestors" runs (section 4.1);
- :mod:`.metrics` INEX 2002 precall with expected search length (eqs 6-7) and INEX 2003
  recall_s/precision_s, recall_o/precision_o with rel^U (eqs 12-19), Salton interpolation, AP;
- :mod:`.measures` measure names (``AP_2003o/gen``, ``iP_2002[0.50]/strict``).

**For the window** (one topic at a time)::

    ta = element_assessments(qrels, collection, topic)          # TopicAssessments
    ta.articles[name].e / .s / .rsize / .tree.sizes             # per element (outline)
    entries = simulated_ranking("ancestors", ta)                # or "perfect"; a file run:
    # read_element_run(path, collection).topics[topic]          # [RankedElement]
    values = rank_values(ta, entries)                           # e, s, f(q), unseen, overlaps
    seen_before(entries, k)                                     # text to shade for rank k
    topic_curves(ta, entries)                                   # {(metric, q): Curve}: ap, precision
                                                                #   at 0.00 .. 1.00, the run's points
"""

from .assessments import (AssessedElement, ArticleAssessment, Cuts, ElementAssessments, TopicAssessments,
                          assessments_xml, complete_topics, derive_article, derive_assessments, element_assessments,
                          grade, parse_cuts, read_assessments, write_assessments, xpointer)
from .measures import DEFAULT_MEASURES, METRICS, ElementMeasure, looks_like_element_measure, parse_element_measure
from .metrics import (RECALL_POINTS, Curve, ElementEvaluation, RankValues, Totals, curve, evaluate_elements,
                      evaluate_topic, precall, rank_values, rel_u_values, salton, seen_before, topic_curves,
                      topic_totals, unseen_sizes)
from .quantise import QUANTISATIONS
from .runs import (SIMULATED, ElementRun, RankedElement, ancestors_run, element_run_lines, perfect_run,
                   read_element_run, simulated_element_run, simulated_ranking, write_element_run)
from .tree import ElementTree, element_tree, tree_from_spans

__all__ = [
    "AssessedElement", "ArticleAssessment", "Cuts", "ElementAssessments", "TopicAssessments", "assessments_xml",
    "complete_topics", "derive_article", "derive_assessments", "element_assessments", "grade", "parse_cuts",
    "read_assessments", "write_assessments", "xpointer", "DEFAULT_MEASURES", "METRICS", "ElementMeasure",
    "looks_like_element_measure", "parse_element_measure", "RECALL_POINTS", "Curve", "ElementEvaluation",
    "RankValues", "Totals", "curve", "evaluate_elements", "evaluate_topic", "precall", "rank_values",
    "rel_u_values", "salton", "seen_before", "topic_curves", "topic_totals", "unseen_sizes", "QUANTISATIONS", "SIMULATED",
    "ElementRun", "RankedElement", "ancestors_run", "element_run_lines", "perfect_run", "read_element_run",
    "simulated_element_run", "simulated_ranking", "write_element_run", "ElementTree", "element_tree", "tree_from_spans",
]
