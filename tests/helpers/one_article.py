"""One ranked article evaluated on its own: the tests' reference for the column-wise inputs.

The article's inputs are read result by result (:func:`readsim.core.result_lines.inputs`: the
qrels' judgement, XPaths resolved, doc_length and clipping from the collection), then
evaluated alone (:func:`readsim.core.doc_evaluation.evaluate_document`), where readsim reads whole
topics from the run's and the qrels' columns (:func:`readsim.core.run_columns.inputs_of`). The
evaluation itself is checked against the per-character reference (tests/engine/reference.py).
"""

from __future__ import annotations

from readsim.core.doc_evaluation import DocumentEvaluation, evaluate_document
from readsim.core.reading import Mode
from readsim.core.result_lines import inputs


def document(qrels, run, topic, entry, mode=Mode.NATURAL, collection=None, as_document=False, join=None,
             facts=None) -> DocumentEvaluation:
    """Ranked article ``entry`` of ``topic`` read in ``mode``, on its own."""
    i = inputs(qrels, run, topic, entry, collection, as_document, join, facts)
    return evaluate_document(i.relevant, i.retrieved, i.doc_length, mode, i.entry)
