"""The element mode's data (docs/reference.md section 13), without widgets: what the "Element retrieval" view
shows for one topic, built in a worker thread from :mod:`readsim.core.element_retrieval`.

- :func:`topic_choices` lists the qrels topics with relevant articles and how many of those
  the collection holds (a topic is *complete* when it holds them all: only then are the
  metrics' denominators whole).
- :func:`prepare_topic` derives the topic's element assessments
  (:func:`~readsim.core.element_retrieval.element_assessments`) and evaluates the simulated
  ``perfect`` and ``ancestors`` runs and every element run read from a file
  (:class:`RunView`: the ranked elements, :func:`~readsim.core.element_retrieval.rank_values`,
  :func:`~readsim.core.element_retrieval.topic_curves`). Inputs that cannot give a view (no
  collection, no qrels, a topic without relevant articles in the collection) raise
  :class:`Unavailable` with a plain sentence for the view.
- :func:`brackets` is what the article pane draws: every retrieved element of one article with
  its nesting level among the retrieved elements of that article (the number of retrieved
  elements that are its proper ancestors in the XML tree), so nesting and overlap are visible.
  The engine has no such call; it is built here on :class:`~readsim.core.element_retrieval.ElementTree`.
- The text already seen before rank position k is the engine's
  :func:`~readsim.core.element_retrieval.seen_before`.

Threading: every function here is plain Python on engine data and may run in a worker. See
docs/architecture.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from readsim.core.collection import Collection
from readsim.core.element_retrieval import (SIMULATED, Curve, ElementRun, RankedElement, RankValues, TopicAssessments,
                                     element_assessments, rank_values, seen_before, simulated_ranking, topic_curves)
from readsim.core.element_retrieval.measures import METRICS
from readsim.core.element_retrieval.quantise import QUANTISATIONS
from readsim.core.formats import Qrels

COMBOS = tuple((m, q) for m in METRICS for q in QUANTISATIONS)
"""The six (metric, quantisation) pairs of the scores grid, row by row: 2002, 2003s, 2003o."""
METRIC_NAMES = {"2002": "INEX 2002", "2003s": "INEX 2003 s\n(size)", "2003o": "INEX 2003 o\n(overlap)"}


class Unavailable(Exception):
    """The element view cannot show the topic; ``str()`` is a plain sentence saying why."""


@dataclass(frozen=True)
class TopicChoice:
    """A qrels topic with relevant articles: how many (``relevant``) and how many of them the
    collection holds (``have``)."""

    topic: str
    relevant: int
    have: int

    @property
    def complete(self) -> bool:
        return self.have == self.relevant > 0

    def label(self) -> str:
        if self.complete:
            return f"{self.topic} — complete ({self.relevant} relevant articles)"
        return f"{self.topic} — {self.have} of {self.relevant} relevant articles in the collection"


def topic_choices(qrels: Qrels, collection: Collection) -> list[TopicChoice]:
    """Every qrels topic with at least one relevant article, in qrels order."""
    have = collection.listing()
    out = []
    for t in qrels.topics:
        rel = qrels.relevant_articles(t)
        if rel:
            out.append(TopicChoice(t, len(rel), sum(a in have for a in rel)))
    return out


@dataclass(eq=False)
class RunView:
    """One element run on one topic: ``entries`` (the ranked elements, in order), their
    ``values`` and the six ``curves``; ``name`` (``perfect``, ``ancestors`` or the file's
    label), ``path`` ("" for a simulated run) and ``note`` (why it has no elements, if so)."""

    name: str
    path: str
    entries: list[RankedElement]
    values: RankValues
    curves: dict[tuple[str, str], Curve]
    note: str = ""
    _by_article: dict[str, list[int]] | None = field(default=None, repr=False)

    @property
    def simulated(self) -> bool:
        return not self.path

    def positions(self, article: str) -> list[int]:
        """Positions (0-based, run order) of the entries of ``article``."""
        if self._by_article is None:
            by: dict[str, list[int]] = {}
            for k, r in enumerate(self.entries):
                by.setdefault(r.article, []).append(k)
            self._by_article = by
        return self._by_article.get(article, [])

    def articles(self) -> list[str]:
        """The run's articles in the order of their first ranked element."""
        self.positions("")
        return list(self._by_article)  # type: ignore[arg-type]

    def ap(self) -> dict[tuple[str, str], float]:
        return {c: self.curves[c].ap for c in COMBOS}


def evaluate_run(ta: TopicAssessments, name: str, path: str, entries: list[RankedElement], note: str = "") -> RunView:
    return RunView(name, path, list(entries), rank_values(ta, entries), topic_curves(ta, entries, COMBOS), note)


@dataclass(eq=False)
class TopicView:
    """A topic ready to show: its assessments, the two simulated runs and the file runs
    (``runs``, in chooser order: perfect, ancestors, then the files), and ``note`` (a warning
    for an incomplete topic)."""

    topic: str
    assessments: TopicAssessments
    runs: list[RunView]
    note: str = ""

    def run(self, name_or_path: str) -> RunView | None:
        for r in self.runs:
            if r.path == name_or_path or (r.simulated and r.name == name_or_path):
                return r
        return None


def run_label(run: ElementRun) -> str:
    return f"{Path(run.path).name} ({run.run_id})" if run.run_id != Path(run.path).name else Path(run.path).name


def file_run_view(ta: TopicAssessments, run: ElementRun) -> RunView:
    entries = run.topics.get(ta.topic, [])
    note = "" if entries else f"run {run.run_id} ({Path(run.path).name}) ranks no element for topic {ta.topic}"
    return evaluate_run(ta, run_label(run), run.path, entries, note)


def prepare_topic(qrels: Qrels | None, collection: Collection | None, topic: str | None,
                  file_runs: list[ElementRun] = ()) -> TopicView:
    """Derive ``topic``'s element assessments and evaluate the simulated and file runs
    (worker thread). Raises :class:`Unavailable` when nothing can be shown, an
    :class:`~readsim.core.errors.InputError` for an unreadable article."""
    if collection is None:
        raise Unavailable("No collection is open (File ▸ Open collection folder…): the element view needs the "
                          "articles, which give every element's span.")
    if qrels is None:
        raise Unavailable("No qrels are open (File ▸ Open qrels…): the element assessments (e, s) are derived "
                          "from their highlighting.")
    if topic is None:
        raise Unavailable("No topic: choose one above.")
    rel = qrels.relevant_articles(topic)
    if not rel:
        raise Unavailable(f"Topic {topic} has no relevant articles in the qrels ({Path(qrels.path).name}): "
                          "nothing is assessed, so no element can score.")
    ta = element_assessments(qrels, collection, topic)
    if not ta.articles:
        raise Unavailable(f"None of the {len(rel)} relevant articles of topic {topic} is in the collection "
                          f"({collection.root}): their elements are unknown. Choose a complete topic.")
    note = ""
    if ta.missing:
        verb = "is" if len(ta.missing) == 1 else "are"
        note = (f"Topic {topic} is incomplete: {len(ta.missing)} of its {len(rel)} relevant articles {verb} not in "
                f"the collection (first: {ta.missing[0]}); the totals (n, Σexh, rel^U) leave them out.")
    runs = [evaluate_run(ta, name, "", simulated_ranking(name, ta)) for name in SIMULATED]
    runs += [file_run_view(ta, r) for r in file_runs]
    return TopicView(topic, ta, runs, note)


# -- what the article pane draws ----------------------------------------------------------------


@dataclass(frozen=True)
class Bracket:
    """One retrieved element of the shown article: ``position`` in the run (0-based), its
    ``rank``, span ``[start, end)`` in the unit, ``level`` (how many retrieved elements of the
    article contain it: 0 outermost), ``index`` (element number) and ``xpath``."""

    position: int
    rank: int
    start: int
    end: int
    level: int
    index: int
    xpath: str


def nesting_levels(parent: np.ndarray, indices: list[int]) -> list[int]:
    """For each element number in ``indices``: how many of the other retrieved ``indices`` are
    its proper ancestors (``parent`` of the tree, -1 at the root)."""
    retrieved = set(int(i) for i in indices)
    out = []
    for i in indices:
        level = 0
        p = int(parent[int(i)])
        while p >= 0:
            level += p in retrieved
            p = int(parent[p])
        out.append(level)
    return out


def brackets(view: RunView, ta: TopicAssessments, article: str, parent: np.ndarray | None = None) -> list[Bracket]:
    """The retrieved elements of ``article`` in ``view``, run order, with their nesting level.
    ``parent`` is the article's tree's parent array (taken from the assessments when it is
    relevant; pass it for another article)."""
    ks = view.positions(article)
    if not ks:
        return []
    if parent is None:
        a = ta.get(article)
        if a is None:
            raise KeyError(article)
        parent = a.tree.parent
    entries = [view.entries[k] for k in ks]
    levels = nesting_levels(parent, [r.index for r in entries])
    return [Bracket(k, r.rank, r.start, r.end, lv, r.index, r.xpath) for k, r, lv in zip(ks, entries, levels)]


def seen(view: RunView, position: int) -> np.ndarray:
    """The text of ``view.entries[position]``'s article shown by the elements before it (unit
    spans; :func:`~readsim.core.element_retrieval.seen_before`)."""
    return seen_before(view.entries, position)
