"""FOL qrels (INEX 2008-2010): ``topic Q0 file rel_size doc_length [bep [offset:length]+]``.

A line with ``rel_size 0`` and 5 fields judges the article non-relevant; relevant means
``rel_size > 0``. Offsets are 0-based, half-open, in the qrels' unit (UTF-8 bytes in the
real 2009/2010 data). Policies (SPEC section 7): too few fields, a bad number, a negative
length or a duplicate (topic, file) line is an :class:`InputError` naming file and line (the
official tool silently double-counts duplicates); overlapping passages are united and a
``rel_size`` that disagrees with the passages is kept as the passages say, each with a
:class:`Diagnostic`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from .. import intervals as iv
from ..errors import Diagnostic, InputError
from .lines import numbered_lines, to_int


@dataclass(frozen=True)
class Judgement:
    """One qrels line: the assessor's passages of one article for one topic.

    ``passages`` is a normalized ``(k, 2)`` int64 array of ``[start, end)`` in the qrels'
    unit; ``rel_size`` is the size the passages cover (|R|); ``doc_length`` the article's
    length as the qrels give it; ``bep`` the best entry point (None when absent).
    """

    topic: str
    article: str
    rel_size: int
    doc_length: int
    bep: int | None
    passages: np.ndarray
    line: int

    @property
    def relevant(self) -> bool:
        return self.rel_size > 0


@dataclass
class Qrels:
    """FOL qrels: ``topics[topic][article]`` -> :class:`Judgement`, in file order."""

    path: str
    topics: dict[str, dict[str, Judgement]] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def judgement(self, topic: str, article: str) -> Judgement | None:
        return self.topics.get(topic, {}).get(article)

    def relevant(self, topic: str, article: str) -> np.ndarray:
        """The relevant passages of ``article`` for ``topic`` (empty if not relevant or unjudged)."""
        j = self.judgement(topic, article)
        return j.passages if j is not None else iv.EMPTY

    def relevant_articles(self, topic: str) -> list[str]:
        return [a for a, j in self.topics.get(topic, {}).items() if j.relevant]

    def nrel(self, topic: str) -> int:
        """Number of relevant articles of ``topic`` (Nrel, Trel)."""
        return sum(1 for j in self.topics.get(topic, {}).values() if j.relevant)


def read_qrels(path: str | os.PathLike) -> Qrels:
    """Read a FOL qrels file. Raises :class:`InputError` (``file:line: reason``) on bad lines."""
    qrels = Qrels(str(path))
    for number, f in numbered_lines(path):
        if len(f) < 5:
            raise InputError(path, number, f"a qrels line needs at least 5 fields (topic Q0 file rel_size doc_length), found {len(f)}")
        topic, _, article = f[0], f[1], f[2]
        rel_size = to_int(f[3], path, number, "rel_size")
        doc_length = to_int(f[4], path, number, "doc_length")
        if rel_size < 0 or doc_length < 0:
            raise InputError(path, number, "rel_size and doc_length must not be negative")
        bep = to_int(f[5], path, number, "best entry point") if len(f) > 5 else None
        spans = []
        for token in f[6:]:
            offset, sep, length = token.partition(":")
            if not sep:
                raise InputError(path, number, f"a passage is offset:length, not {token!r}")
            o = to_int(offset, path, number, "passage offset")
            n = to_int(length, path, number, "passage length")
            if o < 0 or n < 0:
                raise InputError(path, number, f"passage {token} has a negative offset or length")
            spans.append((o, o + n))
        if rel_size > 0 and not spans:
            raise InputError(path, number, f"rel_size is {rel_size} but the line has no passages")
        passages = iv.normalize(spans)
        if iv.overlaps(spans):
            qrels.diagnostics.append(Diagnostic(str(path), number, "overlapping passages united"))
        size = iv.total(passages)
        if spans and size != rel_size:
            qrels.diagnostics.append(
                Diagnostic(str(path), number, f"rel_size {rel_size} differs from the passages' size {size}; using {size}")
            )
        if len(passages) and passages[-1, 1] > doc_length:
            qrels.diagnostics.append(
                Diagnostic(str(path), number, f"a passage ends at {passages[-1, 1]}, past doc_length {doc_length}")
            )
        by_topic = qrels.topics.setdefault(topic, {})
        if article in by_topic:
            first = by_topic[article].line
            raise InputError(path, number, f"duplicate judgement of article {article} for topic {topic} (first at line {first})")
        by_topic[article] = Judgement(topic, article, size if spans else rel_size, doc_length, bep, passages, number)
    return qrels
