"""Simulated runs from the assessments and the XML structure (docs/reference.md section 8; fidelity tests).

Kamps, Pehcevski, Kazai, Lalmas, Robertson, *INEX 2007 evaluation measures*, LNCS 4862
(2008), section 4 ("Fidelity tests"): an **S-R space** of runs built from the qrels alone,
whose expected orderings (their Figure 3 and Table 2: SR best; SLDRSI and SSTRSI worst) every
in-context measure should reproduce.

**Passage sets** of one article (:func:`strategy_passages`), from its highlighted passages
and :attr:`Article.elements` (offsets in the article's unit, bytes or characters):

``S``    the highlighted passages themselves;
``SL``   for each passage, the smallest element containing it;
``SLD``  the whole article: its counted text ``[0, doc_length)`` (section 1.4), exactly what a
         whole-article line or ``--as-documents`` retrieves, so SLD scores as the same ranking
         of whole articles (docs/reference.md section 8), not the root element's span, which
         runs a few bytes past doc_length;
``SS``   for each passage, the largest non-overlapping elements fully inside it;
``SST``  for each passage, the leaf elements (no element children) fully inside it.

Rules, edge cases and ties (each has a test in ``tests/engine/test_simulated.py``):

1. **Every element counts**: the root ``article``, the header and its parts (``title``,
   ``id``, ``revision``, ``categories`` ...) and inline elements (``link``, ``b``, ``ref``)
   alike. Elements of zero length (``<br/>``, an empty ``<p/>``) hold no text and are never
   chosen.
2. Passages are first clipped to the article's text ``[0, article.length)``; a passage empty
   after clipping is dropped. Every element strategy's result (SL, SLD, SS, SST; S is the
   passages themselves) is then clipped to the counted text
   ``[0, doc_length)`` (section 1.4; what SLD and a whole-article line retrieve), so no set
   retrieves the few bytes of trailing punctuation and whitespace after doc_length that the
   root element's span (and a last paragraph's) runs into, and SL, SS, SST lie inside SLD.
3. **SL**: the elements containing a passage are nested, so the smallest is unique up to
   elements with equal spans (``<b><link>x</link></b>``), which give the same span. The root
   contains every clipped passage, so SL is never empty for a non-empty S.
4. **SS**: elements form a tree, so the elements fully inside a passage are either nested or
   disjoint; the largest of them are the union of all of them. A passage that covers no whole
   element (a part of one paragraph without any inline element) contributes nothing.
5. **SST**: a leaf is an element with no element child (zero-length children count as
   children: ``<p>a<br/>b</p>`` is not a leaf). A passage containing no whole leaf contributes
   nothing; so SST of a relevant article may be empty.
6. The result is the union of the per-passage sets, normalized (sorted, disjoint, touching
   spans merged): a ``(k, 2)`` int64 array in the unit. Two passages in one paragraph give that
   paragraph once under SL.

**Rankings** of a topic's articles (:func:`rank_articles`):

``R``    the relevant articles by decreasing relevant size (qrels ``rel_size``); ties keep
         the qrels file order (a stable sort);
``RS``   R with the first two swapped (unchanged with fewer than two);
``RI``   R with a non-relevant article first;
``RSI``  RS with a non-relevant article first.

The **inserted non-relevant article** is, unless the caller names one, the first article the
qrels judge non-relevant for the topic (``rel_size`` 0, file order); when there is none (the
real INEX 2009/2010 qrels list relevant articles only) it is the placeholder id
:data:`NONRELEVANT_PLACEHOLDER`, an unjudged article that is non-relevant by policy 7 of
:mod:`readsim.core.listmeasures` and is never read from the collection. In a simulated run the
inserted article is always retrieved whole (``passages`` None, a 6-field line when written).

:func:`simulated_run` builds a whole :class:`~readsim.core.formats.Run` named like ``SLDRSI``
(strategy then ranking). A relevant article whose strategy yields no span (SS, SST) keeps its
rank with an empty passage set: it retrieves nothing (and disappears when written as FOL,
which has no line for "nothing").
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from . import intervals as iv
from .collection import Collection
from .errors import InputError
from .formats import Qrels, Run, RunArticle
from .text import Article

STRATEGIES = ("S", "SL", "SLD", "SS", "SST")
RANKINGS = ("R", "RS", "RI", "RSI")
NONRELEVANT_PLACEHOLDER = "readsim-nonrelevant"

STRATEGY_HELP = {
    "S": "the highlighted passages themselves",
    "SL": "for each passage, the smallest element containing it",
    "SLD": "the whole article (its counted text, [0, doc_length))",
    "SS": "for each passage, the largest elements fully inside it",
    "SST": "for each passage, the leaf elements fully inside it",
}
RANKING_HELP = {
    "R": "relevant articles by decreasing relevant size",
    "RS": "R with the first two articles swapped",
    "RI": "R with a non-relevant article first",
    "RSI": "RS with a non-relevant article first",
}


# -- the article's element table -------------------------------------------------------------


def element_table(article: Article) -> tuple[np.ndarray, np.ndarray]:
    """The article's element spans and leaf flags.

    Returns ``(spans, leaf)``: ``spans`` an int64 array ``(e, 2)`` of ``[start, end)`` in the
    article's unit, one row per element of :attr:`Article.elements` (document order, root
    first); ``leaf`` a bool array ``(e,)``, True for an element without element children.
    Cached on the article (it never changes).
    """
    cached = getattr(article, "_simulated_elements", None)
    if cached is not None:
        return cached
    els = article.elements
    spans = np.array([(e.start, e.end) for e in els], dtype=np.int64).reshape(-1, 2)
    depth = np.array([e.depth for e in els], dtype=np.int64)
    leaf = np.ones(len(els), dtype=bool)
    # preorder: an element has a child iff the next element is deeper
    leaf[:-1] = depth[1:] <= depth[:-1]
    article._simulated_elements = (spans, leaf)  # type: ignore[attr-defined]
    return spans, leaf


def _clipped(passages: np.ndarray | Iterable[tuple[int, int]], article: Article) -> np.ndarray:
    return iv.clip(iv.normalize(passages), 0, article.length)


# -- the five passage sets -------------------------------------------------------------------


def highlighted(passages, article: Article) -> np.ndarray:
    """S: the passages, clipped to the article's text. ``(k, 2)`` int64, normalized."""
    return _clipped(passages, article)


def smallest_containing(passages, article: Article) -> np.ndarray:
    """SL: for each passage the smallest element with ``start <= a`` and ``b <= end``
    (rule 3); their union, ``(k, 2)`` int64 normalized."""
    p = _clipped(passages, article)
    spans, _ = element_table(article)
    if not len(p) or not len(spans):
        return iv.EMPTY.copy()
    length = spans[:, 1] - spans[:, 0]
    out = []
    for a, b in p.tolist():
        inside = (spans[:, 0] <= a) & (spans[:, 1] >= b)
        if inside.any():
            candidates = np.flatnonzero(inside)
            out.append(spans[candidates[np.argmin(length[candidates])]])
    return iv.normalize(out)


def whole_article(article: Article, doc_length: int | None = None) -> np.ndarray:
    """SLD: the whole article, ``[[0, doc_length]]`` in the article's unit (``doc_length``: the
    qrels' number when given, else the article's own; no word character: no span), as a
    whole-article line retrieves it."""
    end = article.doc_length if doc_length is None else doc_length
    return iv.normalize([(0, end)])


def _inside(passages, article: Article, leaves_only: bool) -> np.ndarray:
    p = _clipped(passages, article)
    spans, leaf = element_table(article)
    if not len(p) or not len(spans):
        return iv.EMPTY.copy()
    keep = spans[:, 1] > spans[:, 0]
    if leaves_only:
        keep &= leaf
    spans = spans[keep]
    starts = p[:, 0]
    # the passage that could hold each element: the last one starting at or before it
    k = np.searchsorted(starts, spans[:, 0], side="right") - 1
    ok = k >= 0
    ok[ok] &= spans[ok, 1] <= p[k[ok], 1]
    return iv.normalize(spans[ok])


def largest_inside(passages, article: Article) -> np.ndarray:
    """SS: for each passage the largest non-overlapping elements fully inside it (rule 4);
    ``(k, 2)`` int64 normalized, empty when no passage covers a whole element."""
    return _inside(passages, article, leaves_only=False)


def leaves_inside(passages, article: Article) -> np.ndarray:
    """SST: for each passage the leaf elements fully inside it (rule 5); ``(k, 2)`` int64
    normalized, empty when no passage covers a whole leaf."""
    return _inside(passages, article, leaves_only=True)


def strategy_passages(name: str, passages, article: Article, doc_length: int | None = None) -> np.ndarray:
    """The passage set ``name`` (one of :data:`STRATEGIES`) of an article whose highlighted
    passages are ``passages`` (``(k, 2)``, the article's unit); the element strategies clipped to
    ``[0, doc_length)`` (rule 2; ``doc_length``: the qrels' number when given, else the article's). Returns a
    normalized ``(k, 2)`` int64 array. Raises ``ValueError`` for an unknown name."""
    if name == "S":
        return highlighted(passages, article)
    if name == "SL":
        out = smallest_containing(passages, article)
    elif name == "SLD":
        out = whole_article(article, doc_length)
    elif name == "SS":
        out = largest_inside(passages, article)
    elif name == "SST":
        out = leaves_inside(passages, article)
    else:
        raise ValueError(f"unknown passage strategy {name!r}; strategies are {', '.join(STRATEGIES)}")
    return iv.clip(out, 0, article.doc_length if doc_length is None else doc_length)


# -- rankings and whole runs -----------------------------------------------------------------


def nonrelevant_article(qrels: Qrels, topic: str) -> str:
    """The article inserted by RI and RSI: the first one the qrels judge non-relevant for
    ``topic`` (file order), else :data:`NONRELEVANT_PLACEHOLDER`."""
    for name, j in qrels.topics.get(topic, {}).items():
        if not j.relevant:
            return name
    return NONRELEVANT_PLACEHOLDER


def rank_articles(qrels: Qrels, topic: str, ranking: str = "R", nonrelevant: str | None = None) -> list[str]:
    """Article ids of ``topic`` in ranking ``ranking`` (one of :data:`RANKINGS`); see the module
    docstring. ``nonrelevant`` names the inserted article (default :func:`nonrelevant_article`).
    Raises ``ValueError`` for an unknown ranking name."""
    if ranking not in RANKINGS:
        raise ValueError(f"unknown ranking {ranking!r}; rankings are {', '.join(RANKINGS)}")
    judged = qrels.topics.get(topic, {})
    order = sorted((name for name, j in judged.items() if j.relevant), key=lambda n: -judged[n].rel_size)
    if "S" in ranking and len(order) >= 2:
        order[0], order[1] = order[1], order[0]
    if ranking.endswith("I"):
        order.insert(0, nonrelevant if nonrelevant is not None else nonrelevant_article(qrels, topic))
    return order


def parse_run_name(name: str) -> tuple[str, str]:
    """Split ``SLDRSI`` into ``("SLD", "RSI")``. Raises ``ValueError`` for a name outside the
    S-R space."""
    for strategy in sorted(STRATEGIES, key=len, reverse=True):
        if name.startswith(strategy) and name[len(strategy):] in RANKINGS:
            return strategy, name[len(strategy):]
    raise ValueError(f"{name!r} is not a simulated run: a strategy ({', '.join(STRATEGIES)}) "
                     f"then a ranking ({', '.join(RANKINGS)}), e.g. SLDRSI")


def run_names() -> list[str]:
    """The 20 runs of the S-R space, strategy-major (SR, SRS, SRI, SRSI, SLR, ...)."""
    return [s + r for s in STRATEGIES for r in RANKINGS]


def simulated_run(name: str, qrels: Qrels, collection: Collection, topics: str | Iterable[str],
                  nonrelevant: str | None = None) -> Run:
    """The simulated run ``name`` (e.g. ``SLDRSI``) for ``topics`` (one id or several).

    Each relevant article retrieves its :func:`strategy_passages`; the inserted non-relevant
    article (RI, RSI) is retrieved whole. Articles are read from ``collection`` in its unit
    (which must be the qrels' unit). SLD retrieves ``[0, doc_length)`` with the qrels'
    doc_length (the authority, docs/reference.md section 1.5), as a whole-article line does. Raises
    ``ValueError`` for a bad name and :class:`InputError` when a relevant article the strategy
    needs is not in the collection (S and SLD need none).
    """
    strategy, ranking = parse_run_name(name)
    topics = [topics] if isinstance(topics, str) else list(topics)
    run = Run(path="", run_id=name)
    for topic in topics:
        entries = []
        for rank, article in enumerate(rank_articles(qrels, topic, ranking, nonrelevant), 1):
            j = qrels.judgement(topic, article)
            if j is None or not j.relevant:
                passages = None
            elif strategy == "S":
                passages = iv.normalize(j.passages)
            elif strategy == "SLD":
                passages = iv.normalize([(0, j.doc_length)])
            else:
                if article not in collection:
                    raise InputError(str(collection.root), None,
                                     f"article {article} (topic {topic}) is not in the collection: "
                                     f"the simulated run {name} needs its XML")
                passages = strategy_passages(strategy, j.passages, collection.article(article), j.doc_length)
            entries.append(RunArticle(article, rank, passages, [], 0))
        run.topics[topic] = entries
    return run
