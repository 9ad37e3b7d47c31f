"""doc_length from the collection where the qrels do not give it (reference 2.11, 2.12): JSON
Lines qrels without ``doc_length`` and Chroma's questions CSV give only their spans, whose
largest end offset stands for a document's length (:attr:`readsim.core.formats.qrels.Qrels.implied`)
until a collection gives the document's real length in the unit."""

from __future__ import annotations

import dataclasses

import numpy as np

from .errors import Diagnostic
from .formats.qrels import JudgedTopic, Qrels


def with_collection_lengths(qrels: Qrels, collection) -> Qrels:
    """``qrels`` with the doc_length of each :attr:`~Qrels.implied` article that ``collection``
    (a :class:`readsim.core.collection.Collection`, or None: ``qrels`` as it is) holds replaced
    by the article's doc_length in the collection's unit (a document's whole text, reference
    2.13); a new :class:`Qrels` (``qrels`` is not changed), the replaced articles no longer
    implied. A relevant span that ends past the collection's length is a warning naming the
    judgement's line (``article A: a passage ends at E, past its length L in the collection``;
    the span is counted as 1.5 says). Raises :class:`InputError` for an unreadable article."""
    if collection is None or not qrels.implied:
        return qrels
    names = collection.listing()
    lengths = {a: collection.article(a).doc_length for a in sorted(qrels.implied) if a in names}
    if not lengths:
        return qrels
    diagnostics = list(qrels.diagnostics)
    columns: dict[int, object] = {}  # id(old columns) -> the new ones, shared by their topics
    topics: dict[str, dict] = {}
    for topic, judged in qrels.topics.items():
        at = qrels.columns(topic)
        if at is not None:
            old, tid = at
            new = columns.get(id(old))
            if new is None:
                new = columns[id(old)] = _columns(old, lengths)
            topics[topic] = JudgedTopic(new, tid)
        else:
            topics[topic] = {a: dataclasses.replace(j, doc_length=lengths[a]) if a in lengths else j
                             for a, j in judged.items()}
    for judged in topics.values():
        for a in lengths.keys() & judged.keys():
            j = judged[a]
            if len(j.passages) and int(j.passages[-1, 1]) > j.doc_length:
                diagnostics.append(Diagnostic(qrels.path, j.line, f"article {a}: a passage ends at "
                                              f"{int(j.passages[-1, 1])}, past its length {j.doc_length} in the collection"))
    return Qrels(qrels.path, topics, diagnostics, qrels.implied - lengths.keys())


def _columns(old, lengths: dict[str, int]):
    """``old`` (:class:`~readsim.core.formats.qrels.QrelsColumns`) with the doc_length of the
    articles of ``lengths`` replaced."""
    doc_length = np.array(old.doc_length, dtype=np.int64)
    names = old.names(old.key)
    for j, name in enumerate(names):
        if name in lengths:
            doc_length[j] = lengths[name]
    return dataclasses.replace(old, doc_length=doc_length)
