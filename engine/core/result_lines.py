"""Results read one by one: each (topic, article) of a run the columns do not speak for.

A run's evaluation has one path (:class:`~readsim.core.doc_evaluation.ArticleColumns` ->
:func:`~readsim.core.doc_evaluation.evaluate_documents`); its inputs come from the run's and the qrels'
columns for results read from files (:func:`readsim.core.run_columns.inputs_of`), and from
:func:`inputs` here, result by result, for the others: topics edited in memory, XML runs,
element XPaths and XPointers (resolved with the collection, an error naming the run's line).
:func:`columns_of` turns those into the same columns. Offsets are in the unit of the qrels and
the run (UTF-8 bytes for INEX 2009/2010); the collection, if any, is read in that unit.

- doc_length comes from the qrels (the authority, docs/reference.md section 1.5); for an article the qrels
  do not judge, from the collection when it has the article (otherwise the article is
  non-relevant and its extent is its last retrieved offset: it scores 0, ES = NR).
- With the collection, retrieved passages are clipped to the article's text, element XPaths
  (7-field lines) are converted to spans, and a computed doc_length that differs from the
  qrels' is reported (a :class:`Diagnostic` with both numbers), not "fixed".

Also here: where a run meets its qrels (:class:`Join`), the collection's facts about an article
(:func:`article_facts`) and the doc_length check of ``readsim-eval --check`` (:func:`check_lengths`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from . import intervals as iv
from readsim.core.doc_evaluation import ArticleColumns
from .errors import Diagnostic, InputError
from .formats import Qrels, Run, RunArticle, article_length
from .formats.run import XPATH_LINE

if TYPE_CHECKING:  # the XML model (lxml) is imported only where an article is read
    from .collection import Collection


@dataclass
class Join:
    """Where a run meets its qrels: the diagnostics found while joining them."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    checked: set[str] = field(default_factory=set)


def retrieved_passages(run: Run, topic: str, entry: RunArticle, collection: Collection | None) -> np.ndarray | None:
    """The retrieved spans of a ranked article (``None`` = whole article), XPaths resolved.

    Raises :class:`InputError` naming the run's line if an XPath cannot be resolved (no
    collection, article missing, or no such element).
    """
    if not entry.xpaths and not entry.pointers:
        return entry.passages
    article = _article_of(run, entry, collection, entry.line)
    spans = [] if entry.passages is None else entry.passages.tolist()
    xpath_lines, pointer_lines = resolution_lines(entry)  # each error names its own line (reference section 1.3)
    for xpath, line in zip(entry.xpaths, xpath_lines):
        spans.append(element_span(run, entry, collection, xpath, line, article))
    for (start, end), line in zip(entry.pointers, pointer_lines):
        try:
            spans.append((article.point(start), article.point(end)))
        except (KeyError, ValueError) as err:
            raise InputError(run.path, line, f"article {entry.article}: cannot resolve XPointer {err}") from None
    return iv.normalize(spans)


def resolution_lines(entry: RunArticle) -> tuple[list[int], list[int]]:
    """The file line of each of ``entry.xpaths`` and ``entry.pointers`` (an error resolving it
    names it, docs/reference.md section 1.3): a FOL run's 7-field line, an XML run's ``<path>``
    or ``<passage>``, else the article's first line (results not read from a file)."""
    xpaths = list(entry.xpath_lines)
    if entry.line_spans is not None and len(entry.lines) == len(entry.line_spans):
        xpaths = np.asarray(entry.lines)[np.all(entry.line_spans == XPATH_LINE, axis=1)].tolist()
    pointers = list(entry.pointer_lines)
    return (xpaths if len(xpaths) == len(entry.xpaths) else [entry.line] * len(entry.xpaths),
            pointers if len(pointers) == len(entry.pointers) else [entry.line] * len(entry.pointers))


def _article_of(run: Run, entry: RunArticle, collection: Collection | None, line: int):
    if collection is None:
        raise InputError(run.path, line, "element XPaths and XPointers in the run need the collection (--collection DIR)")
    try:
        return collection.article(entry.article)
    except KeyError:
        raise InputError(run.path, line, f"article {entry.article} is not in the collection {collection.root}") from None


def element_span(run: Run, entry: RunArticle, collection: Collection | None, xpath: str, line: int,
                 article=None) -> tuple[int, int]:
    """The ``[start, end)`` of the element ``xpath`` of ``entry``'s article, in the collection's
    unit. Raises :class:`InputError` naming the run's ``line`` (no collection, no such article or
    element)."""
    if article is None:
        article = _article_of(run, entry, collection, line)
    try:
        return article.span(xpath)
    except KeyError:
        raise InputError(run.path, line, f"article {entry.article} has no element {xpath}") from None


class Inputs(NamedTuple):
    """What one ranked article is evaluated from (:func:`inputs`): the qrels' ``relevant``
    passages (normalized, ``(k, 2)`` int64), the ``retrieved`` ones (normalized, clipped to the
    article's text when the collection has it; ``None`` for the whole article), ``doc_length``,
    the reader's ``entry`` point for the ``entry`` reading (:func:`entry_of`) and the Best in
    Context ``entry_point`` of BEP(d) (:func:`readsim.core.listmeasures.article_score`; ``None``: the
    first retrieved offset). Offsets in the unit of the qrels and the run."""

    relevant: np.ndarray
    retrieved: np.ndarray | None
    doc_length: int
    entry: int
    entry_point: int | None


def entry_of(entry: RunArticle, retrieved: np.ndarray | None) -> int:
    """Where the ``entry`` reading of a result starts (reference section 3): its Best in Context
    offset (:attr:`RunArticle.entry_point`), else the start of its first ``retrieved`` passage
    (XPaths or XPointers resolved), else 0."""
    if entry.entry_point is not None:
        return int(entry.entry_point)
    return int(retrieved[0, 0]) if retrieved is not None and len(retrieved) else 0


def inputs(qrels: Qrels, run: Run, topic: str, entry: RunArticle, collection: Collection | None = None,
           as_document: bool = False, join: Join | None = None,
           facts: dict[str, tuple[int, int, str] | None] | None = None) -> Inputs:
    """The :class:`Inputs` of one ranked article of ``run`` for ``topic``, a result the run's
    columns do not speak for (edited in memory, an XML run, element XPaths or XPointers: the
    rest are read column-wise, :func:`readsim.core.run_columns.inputs_of`, to the same inputs).

    doc_length from the qrels (the authority, docs/reference.md section 1.5); for an article the qrels do not
    judge, from the collection when it has the article (otherwise the article is non-relevant
    and its extent is its last retrieved offset). With the collection, XPaths and XPointers are
    resolved, retrieved passages clipped to the article's text, and a doc_length that differs
    from the qrels' reported (a :class:`Diagnostic` in ``join``). ``as_document`` replaces the
    passages with the whole article (the full-document baseline, Arvola et al. 2010 section 5;
    entry point 0). ``facts``: a memo of the collection's articles (name -> ``(length,
    doc_length, path)``, None when absent) shared by the calls of one pass. Raises
    :class:`InputError` (see :func:`retrieved_passages`)."""
    judgement = qrels.judgement(topic, entry.article)
    retrieved = None if as_document else retrieved_passages(run, topic, entry, collection)
    text_length = None
    found = article_facts(collection, entry.article, facts) if collection is not None else None
    doc_length = article_length(judgement, found[1] if found is not None else None)
    if found is not None:
        text_length, computed, path = found
        if judgement is not None and computed != doc_length and join is not None and entry.article not in join.checked:
            join.checked.add(entry.article)
            join.diagnostics.append(Diagnostic(
                qrels.path, judgement.line,
                f"article {entry.article}: doc_length {doc_length} in the qrels, {computed} computed from {path}"))
    if doc_length is None:  # unjudged and not at hand: non-relevant, extent = what was retrieved
        doc_length = int(retrieved[-1, 1]) if retrieved is not None and len(retrieved) else 0
    relevant = iv.clip(iv.normalize(judgement.passages), 0, doc_length) if judgement is not None else iv.EMPTY
    point = 0 if as_document else entry_of(entry, retrieved)
    ret = None if retrieved is None else iv.normalize(retrieved)
    if ret is not None and text_length is not None:
        ret = iv.clip(ret, 0, max(text_length, doc_length))
    return Inputs(relevant, ret, doc_length, point, None if as_document else entry.entry_point)


def columns_of(items: list[Inputs]) -> ArticleColumns:
    """The articles of ``items`` (:func:`inputs`) as the evaluation's columns."""
    return ArticleColumns.of([i.relevant for i in items], [i.retrieved for i in items],
                             [i.doc_length for i in items], [i.entry for i in items])


def article_facts(collection: Collection, name: str, memo: dict | None) -> tuple[int, int, str] | None:
    """``(length, doc_length, path)`` of article ``name`` of ``collection`` (None if absent;
    :meth:`Collection.facts`), through ``memo`` when given. Raises :class:`InputError` for an
    unreadable article."""
    if memo is not None and name in memo:
        return memo[name]
    found = collection.facts([name])[0]
    if memo is not None:
        memo[name] = found
    return found


@dataclass(frozen=True)
class LengthCheck:
    """One judged article present in the collection: the qrels' and the computed doc_length."""

    topic: str
    article: str
    qrels_length: int
    computed_length: int

    @property
    def agrees(self) -> bool:
        return self.qrels_length == self.computed_length


def check_lengths(qrels: Qrels, collection: Collection, progress: Callable[[int, int], None] | None = None) -> list[LengthCheck]:
    """Compare every qrels line whose article is in ``collection`` with the article's computed
    doc_length (docs/reference.md section 1.4), in the qrels' order; ``progress(done, total)``
    after every 100 lines. The articles are read by :meth:`Collection.facts` (those the
    collection lists, each once, 100 lines at a time). Raises :class:`InputError` for an
    unreadable article."""
    lines = [(t, a, j.doc_length) for t, by in qrels.topics.items() for a, j in by.items()]
    listing = collection.listing()
    out = []
    step = 100
    for i in range(0, len(lines), step):
        chunk = [line for line in lines[i:i + step] if line[1] in listing]
        names = list(dict.fromkeys(name for _, name, _ in chunk))
        facts = dict(zip(names, collection.facts(names)))
        out += [LengthCheck(topic, name, length, facts[name][1]) for topic, name, length in chunk
                if facts[name] is not None]
        if progress is not None and i + step <= len(lines):
            progress(i + step, len(lines))
    return out
