"""The open article: :class:`ArticleState`, reading one (:func:`read_article`), the cache of
the last ones laid out (:class:`ArticleCache`), and the open article as the score panel and the
Explain dock show it (:func:`shown_article`: a :class:`readsim.operations.article.ArticleEvaluation`,
``readsim.article``'s object, whose scores and explanations are the API's).

No Qt. Threading contract: :func:`read_article` runs in a worker thread (through
:func:`readsim.app.background.run_in_background`) and reads plain engine data only (a
:class:`~readsim.core.collection.Collection` is thread-safe); an :class:`ArticleCache` is used
in the GUI thread only (:class:`readsim.app.session.Session` looks a hit up before it starts the
worker and keeps what the worker returns); :func:`shown_article` runs in the GUI thread.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from dataclasses import dataclass

from readsim.operations.article import ArticleEvaluation
from readsim.core.doc_evaluation import evaluate_document
from readsim.core import intervals as iv
from readsim.core.collection import Collection
from readsim.core.doc_evaluation import DocumentEvaluation, Settings
from readsim.core.formats import Qrels, Run, RunArticle, article_length
from readsim.core.layout import Layout, layout
from readsim.core.reading import Mode
from readsim.core.result_lines import Join
from readsim.core.text import Article

from . import rows as rw

#: parsed and laid-out articles kept (the last opened ones): re-opening one skips its layout in
#: the worker (70 ms for the largest real article), and the article panel finds the view's
#: document it built from the same Layout object
ARTICLE_CACHE_SIZE = 4


@dataclass(frozen=True)
class ArticleState:
    """The open article: its id, the parsed article and its layout (None when the collection
    lacks it; ``message`` then says why), its ranked row (None if the run does not rank it) and
    its evaluation in the current mode."""

    name: str
    article: Article | None
    layout: Layout | None
    row: rw.RankedRow | None
    evaluation: DocumentEvaluation
    message: str = ""


class ArticleCache:
    """Article name -> ``(article, layout)`` of the last :data:`ARTICLE_CACHE_SIZE` articles laid
    out from one :class:`Collection` object, most recent last (an entry of another collection
    object is a miss). :attr:`hits` counts the re-opens served (tests, the bench)."""

    def __init__(self, size: int = ARTICLE_CACHE_SIZE) -> None:
        self.size = size
        self.hits = 0
        self._kept: OrderedDict[str, tuple[Collection, Article, Layout]] = OrderedDict()

    def names(self) -> list[str]:
        """The articles kept, least recently opened first."""
        return list(self._kept)

    def get(self, coll: Collection | None, name: str) -> tuple[Article, Layout] | None:
        """``(article, layout)`` of ``name`` in ``coll`` if opened lately (a hit), else None."""
        hit = self._kept.get(name)
        if hit is None or coll is None or hit[0] is not coll:
            return None
        self._kept.move_to_end(name)
        self.hits += 1
        return hit[1], hit[2]

    def keep(self, coll: Collection, name: str, article: Article, lay: Layout) -> None:
        self._kept[name] = (coll, article, lay)
        self._kept.move_to_end(name)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)


def read_article(name: str, topic: str, mode: Mode, coll: Collection | None, qrels: Qrels | None,
                 run: Run | None, row: rw.RankedRow | None, entry: RunArticle | None,
                 point: int | None, cached: tuple[Article, Layout] | None) -> ArticleState:
    """Article ``name`` of ``topic`` in reading ``mode`` (worker thread): parsed and laid out
    (``cached``: already done), with its ranked ``row``. While the topic's rows are still being
    evaluated the row is None and ``entry`` (the run's line for it, if it ranks it) is scored
    here on its own. ``point``: the entry point the user set for it (units), or None. Without
    text (no collection, or it lacks the article) ``message`` says so and the scores come from
    the qrels and the run alone."""
    if entry is not None:
        own = rw.ranked_row(qrels or Qrels(""), run, topic, entry, coll, Join(), qrels is not None, [])
        row = rw.with_user_entry(own, point).in_mode(mode)
    article = lay = None
    message = ""
    if cached is not None:
        article, lay = cached
    elif coll is not None and name in coll:
        article = coll.article(name)
        lay = layout(article)
    else:
        where = (f"No collection is open: article {name} has no text to show" if coll is None
                 else f"Article {name} is not in the collection (folder {coll.root}): no text to show")
        whence = "the qrels and the run" if row is not None else "the qrels (the run does not rank it)"
        message = f"{where}. Its scores come from {whence}."
    if row is not None:
        ev = row.evaluation
    else:  # not ranked by the run for this topic: nothing retrieved
        j = qrels.judgement(topic, name) if qrels is not None else None
        length = length_of(qrels, topic, name, article) or 0
        rel = j.passages if j is not None else iv.EMPTY
        ev = evaluate_document(rel, iv.EMPTY, length, mode, rw.held_entry(point or 0, length))
    return ArticleState(name, article, lay, row, ev, message)


def length_of(qrels: Qrels | None, topic: str | None, name: str, article: Article | None) -> int | None:
    """Article ``name``'s length for ``topic`` as the reference defines it (1.5,
    :func:`readsim.core.formats.article_length`): the qrels' doc_length, else the one computed
    from the collection's ``article``; None with neither. What the window, its figures and its
    element window say an article's length is."""
    j = qrels.judgement(topic, name) if qrels is not None and topic else None
    return article_length(j, article.doc_length if article is not None else None)


def if_retrieved_whole(ev: DocumentEvaluation) -> DocumentEvaluation:
    """``ev``'s article as if the run retrieved it whole (``[0, n)``), in the same mode and
    entry point."""
    return evaluate_document(ev.relevant, None, ev.n, ev.mode, ev.entry)


def shown_article(state: ArticleState, settings: Settings, topic: str, qrels: Qrels | None, run: Run | None,
                  unit: str) -> ArticleEvaluation:
    """The open article ``state`` as the score panel and the Explain dock show it, for the
    reader's ``settings``: its evaluation in the current mode, or, when the run does not rank it
    (``state.row`` None), as if retrieved whole (:func:`if_retrieved_whole`). The qrels' best
    entry point and the run's entry point serve BEP(d) (reference §4.7); ``unit``: the offsets'
    unit. GUI thread; O(1) until a score or an explanation is asked."""
    ev = if_retrieved_whole(state.evaluation) if state.row is None else state.evaluation
    judged = qrels.judgement(topic, state.name) if qrels is not None and topic else None
    ranked = run.article(topic, state.name) if run is not None and topic else None
    return ArticleEvaluation(ev, dataclasses.replace(settings, entry=ev.entry), topic or "", state.name, run.run_id if run is not None else "",
                             state.article, {"unit": unit}, judged.bep if judged is not None else None,
                             ranked.entry_point if ranked is not None else None)
