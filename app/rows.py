"""The topic's ranked list: one :class:`RankedRow` per ranked article, and how it is scored.

A ranked article's evaluation is the API's (:func:`readsim.operations.article_reading.ranked_articles` for the
topic's list, in one batch through the columns ``readsim-eval`` reads;
:func:`readsim.operations.article_reading.ranked_article` for one, as ``readsim.article``: doc_length from the
qrels, else from the article; retrieved passages clipped to the article when it is at hand),
computed once per topic in the natural mode and
re-derived for another mode from its pieces' inputs (``DocumentEvaluation.in_mode``, :class:`RowsByMode`:
:func:`readsim.core.doc_evaluation.in_mode_many`, one batch), so a control change never re-reads or re-lays
out anything. The ``entry`` mode reads each article from its entry point, which the natural
evaluation carries (``DocumentEvaluation.entry``): the run's (``RunArticle.entry_point``: a Best
in Context line's offset, else the first passage's start, docs/reference.md section 3), or
one the user set for the (topic, article) (:func:`with_user_entry`).

No Qt. Threading contract: :func:`evaluate_rows`, :func:`ranked_row`, :func:`first_article`
and :func:`choose_topic` run in a worker thread (through
:func:`readsim.app.background.run_in_background`) and read plain engine data only; everything
else is called in the GUI thread by :class:`readsim.app.session.Session`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Container
from dataclasses import dataclass, field

from readsim.core.doc_evaluation import evaluate_document, in_mode_many
from readsim.operations.article_reading import ranked_article, ranked_articles, with_entry
from readsim.core.collection import Collection
from readsim.core.doc_evaluation import DocumentEvaluation
from readsim.core.errors import InputError
from readsim.core.formats import Qrels, Run, RunArticle
from readsim.core.reading import READING_MODES, Mode
from readsim.core.result_lines import Join

MODES = READING_MODES



@dataclass(frozen=True)
class RankedRow:
    """One ranked article of the topic: rank (1-based, run order), article id, title (the
    article's, or its id when the collection lacks it), whether the collection has it,
    relevance from the qrels (None without qrels), and its evaluation in the current mode."""

    rank: int
    article: str
    title: str
    in_collection: bool
    relevant: bool | None
    evaluation: DocumentEvaluation
    natural: DocumentEvaluation = field(repr=False, compare=False, default=None)  # type: ignore[assignment]

    def in_mode(self, mode: Mode) -> RankedRow:
        return dataclasses.replace(self, evaluation=(self.natural or self.evaluation).in_mode(mode))


def held_entry(point: int, n: int) -> int:
    """An entry point set by the user (Alt+click, ``--entry``, a view's ``entries``) held to an
    article of ``n`` units: 0 to ``n`` (a point past the end is the end)."""
    return min(max(int(point), 0), max(int(n), 0))


def with_user_entry(row: RankedRow, point: int | None) -> RankedRow:
    """``row`` whose natural evaluation starts the entry mode at ``point`` (None: unchanged),
    held to the article (:func:`held_entry`)."""
    base = row.natural or row.evaluation
    if point is not None:
        point = held_entry(point, base.n)
    if point is None or point == base.entry:
        return row
    return dataclasses.replace(row, natural=dataclasses.replace(base, entry=point))


def run_entry_point(entry: RunArticle | None, row: RankedRow | None) -> int:
    """The run's entry point of a ranked article (units): ``entry``'s (its line in the run: a
    Best in Context line's offset), else its ``row``'s first retrieved passage (XPaths or
    XPointers only), else 0; 0 when the run does not rank the article (``entry`` None)."""
    if entry is not None and entry.entry_point is None and row is not None:
        return with_entry(row.natural or row.evaluation, entry).entry
    return int(entry.entry_point or 0) if entry is not None else 0


def moved_entry(row: RankedRow | None, ev: DocumentEvaluation, point: int,
                mode: Mode) -> tuple[RankedRow | None, DocumentEvaluation]:
    """``(row, evaluation)`` of an article whose entry point moved to ``point`` (units), read in
    ``mode``: its ranked ``row`` (None when the run does not rank it; then ``ev``, its
    evaluation with nothing retrieved, is read again)."""
    if row is not None:
        row = with_user_entry(row, point).in_mode(mode)
        return row, row.evaluation
    if mode is Mode.ENTRY:
        return None, evaluate_document(ev.relevant, ev.retrieved, ev.n, mode, point)
    return None, dataclasses.replace(ev, entry=point)


def _article_facts(coll: Collection | None, entry: RunArticle, facts: dict, notes: list[str]) -> tuple[bool, str]:
    """``(in_collection, title)`` of a ranked article (worker thread), its length recorded in
    ``facts`` for the evaluation (:func:`readsim.operations.article_reading.ranked_articles`). A bad article file
    is read as absent, with a note, unless the run's lines need its elements (then the
    evaluation names the error)."""
    name = entry.article
    if coll is None or name not in coll:
        facts[name] = None
        return False, name
    try:
        article = coll.article(name)  # type: ignore[union-attr]
    except InputError as err:
        if entry.xpaths or entry.pointers:
            raise
        notes.append(str(err))
        facts[name] = None
        return False, name
    facts[name] = (article.length, article.doc_length, article.path)
    return True, article.title


def _row(qrels: Qrels, topic: str, entry: RunArticle, in_coll: bool, title: str, ev: DocumentEvaluation,
         judged: bool) -> RankedRow:
    relevant = (qrels.judgement(topic, entry.article) is not None and ev.is_relevant) if judged else None
    return RankedRow(entry.rank, entry.article, title, in_coll, relevant, ev, ev)


def ranked_row(qrels: Qrels, run: Run, topic: str, entry: RunArticle, coll: Collection | None,
               join: Join, judged: bool, notes: list[str]) -> RankedRow:
    """Evaluate one ranked article (worker thread) as ``readsim-eval`` does
    (:func:`readsim.operations.article_reading.ranked_article`): an unresolvable XPath is an :class:`InputError`
    naming its line (docs/reference.md section 1.3). A bad article file falls back to the
    qrels and the run alone, with a note, unless the run's lines need its elements."""
    facts: dict = {}
    in_coll, title = _article_facts(coll, entry, facts, notes)
    ev = ranked_article(qrels, run, topic, entry, coll, join, facts)
    return _row(qrels, topic, entry, in_coll, title, ev, judged)


def evaluate_rows(qrels: Qrels | None, run: Run, topic: str, entries: list[RunArticle],
                  coll: Collection | None) -> tuple[list[RankedRow], list[str]]:
    """The natural-mode rows of ``entries`` (worker thread; the topic's ranked articles, which
    :func:`readsim.operations.article_reading.ranked_articles` evaluates in one batch, through the run's and the
    qrels' columns when the files speak for the topic), and the notes to show (bad article files,
    passages joined across elements). Without ``qrels`` no row is judged. Each article of the
    collection is read once, for its title and its length. (When the run was edited meanwhile
    the caller evaluates the topic again.)"""
    join = Join()
    notes: list[str] = []
    facts: dict = {}
    seen = [_article_facts(coll, entry, facts, notes) for entry in entries]
    q = qrels or Qrels("")
    evs = ranked_articles(q, run, topic, coll, join, facts)
    rows = [_row(q, topic, entry, in_coll, title, ev, qrels is not None)
            for entry, (in_coll, title), ev in zip(entries, seen, evs)]
    return rows, notes + [str(d) for d in join.diagnostics]


def default_article(rows: list[RankedRow]) -> str | None:
    """The best-ranked relevant article the collection has, else the best-ranked article it
    has, else the run's first (None for no rows)."""
    for pick in (lambda r: r.relevant and r.in_collection, lambda r: r.in_collection, lambda r: True):
        for row in rows:
            if pick(row):
                return row.article
    return None


def first_article(qrels: Qrels | None, run: Run, topic: str, coll: Collection | None) -> str | None:
    """What :func:`default_article` will pick, found from the qrels, the run and the
    collection's file names alone (worker thread: a name the collection lacks lists its
    folder). The rows may still pick another (a relevant passage that lies past the article's
    end)."""
    names = run.article_names(topic)
    have = [coll is not None and a in coll for a in names]
    judged = qrels.topics.get(topic, {}) if qrels is not None else {}
    for i, a in enumerate(names):
        j = judged.get(a)
        if have[i] and j is not None and j.relevant:
            return a
    return next((a for a, h in zip(names, have) if h), names[0] if names else None)


def choose_topic(run: Run, names: Container[str], qrels: Qrels | None, fallback: str) -> str:
    """The run's first topic that ranks an article in ``names`` (the collection's) that the
    qrels judge, else the first that ranks one the collection has, else ``fallback`` (worker
    thread)."""
    some = None
    for t, entries in run.topics.items():
        for e in entries:
            if e.article in names:
                if qrels is None or qrels.judgement(t, e.article) is not None:
                    return t
                some = some or t
    return some or fallback


def rows_in_mode(rows: list[RankedRow], mode: Mode) -> list[RankedRow]:
    """``rows`` read in ``mode`` (each as :meth:`RankedRow.in_mode` reads it), the reading orders
    built in one batch (:func:`readsim.core.doc_evaluation.in_mode_many`)."""
    evs = in_mode_many([r.natural or r.evaluation for r in rows], mode)
    return [dataclasses.replace(r, evaluation=ev) for r, ev in zip(rows, evs)]


class RowsByMode:
    """The ranked lists of the modes already seen for one list of rows (GUI thread). The same
    list object comes back for a mode seen before, so the views' memos keyed by it hit; rows
    replaced by anything else (a topic, an edit) start the memo again."""

    def __init__(self) -> None:
        self._lists: dict[Mode, list[RankedRow]] = {}

    def rows(self, rows: list[RankedRow], old: Mode, new: Mode) -> list[RankedRow]:
        """``rows`` (read in mode ``old``) read in mode ``new``."""
        memo = self._lists
        if not any(seen is rows for seen in memo.values()):
            memo.clear()
            memo[old] = rows
        out = memo.get(new)
        if out is None:
            out = memo[new] = rows_in_mode(rows, new)  # one batch
        return out
