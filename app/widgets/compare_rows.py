"""The A/B panel's data, without widgets: one run's view of the open article (:class:`Side`,
:func:`evaluate_side`: the API's :func:`readsim.operations.article_reading.ranked_article` in the session's mode) and
one line of the score table (:class:`Row`), with the values' formats. The panel is
:mod:`readsim.app.widgets.ab_panel`."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from readsim.core.doc_evaluation import evaluate_document
from readsim.operations.article_reading import ranked_article
from readsim.core import intervals as iv
from readsim.core.doc_evaluation import DocumentEvaluation, Settings
from readsim.core.errors import InputError
from readsim.core.formats import Qrels, Run, RunArticle
from readsim.core.measure import DocMeasure

from ..session import Session

EPS = 1e-12


@dataclass(frozen=True)
class Side:
    """One run's view of the open article: the run, its ranked entry (None: not ranked for
    the topic), the evaluation in the current mode (relevance only when not ranked) and a
    note for the header (why a column is empty)."""

    run: Run
    entry: RunArticle | None
    evaluation: DocumentEvaluation | None
    note: str = ""

    @property
    def ranked(self) -> bool:
        return self.entry is not None and self.evaluation is not None


def evaluate_side(session: Session, run: Run, settings: Settings) -> Side:
    """Evaluate the session's open article under ``run`` (GUI thread; one article).

    Uses :func:`readsim.operations.article_reading.ranked_article` with the session's qrels and, when it has the
    article, its collection (clipping, XPaths). An XPath the article lacks is reported in the
    note and the whole article is scored, as the ranked list does."""
    cur, topic = session.current, session.topic
    if cur is None or topic is None:
        return Side(run, None, None, "no article open")
    entry = run.article(topic, cur.name)
    if entry is None:
        why = (f"run has no results for topic {topic}" if topic not in run.topics
               else f"not ranked by this run for topic {topic}")
        return Side(run, None, None, why)
    qrels = session.qrels or Qrels("")
    coll = session.collection if session.collection is not None and cur.name in session.collection else None
    note = ""
    try:
        ev = ranked_article(qrels, run, topic, entry, coll).in_mode(settings.mode)
    except InputError as err:
        note = str(err)
        whole = dataclasses.replace(entry, xpaths=[])
        ev = ranked_article(qrels, run, topic, whole, coll).in_mode(settings.mode)
    return Side(run, entry, ev, note)


def relevance_only(session: Session) -> DocumentEvaluation | None:
    """The open article with nothing retrieved (marks of a run that does not rank it)."""
    cur = session.current
    if cur is None:
        return None
    return evaluate_document(cur.evaluation.relevant, iv.EMPTY, cur.evaluation.n, session.settings.mode)


def run_label(run: Run) -> str:
    """``run_id · file name`` (runs of one system often share the run id)."""
    return f"{Path(run.path).stem} ({run.run_id})"


def format_value(measure: DocMeasure | None, value: float, integer: bool = False) -> str:
    if integer or (measure is not None and measure.kind in ("LE", "ES")):
        return str(int(round(value)))
    return f"{value:.4f}"


def format_diff(value: float, integer: bool) -> str:
    if abs(value) < EPS:
        return "0" if integer else "0.0000"
    sign = "+" if value > 0 else "−"
    return f"{sign}{abs(int(round(value)))}" if integer else f"{sign}{abs(value):.4f}"


@dataclass(frozen=True)
class Row:
    """One line of the score table: raw values (None: not available) and which is better."""

    name: str
    a: float | None
    b: float | None
    lower_is_better: bool = False
    integer: bool = False
    measure: DocMeasure | None = None
    tip: str = ""

    @property
    def diff(self) -> float | None:
        return None if self.a is None or self.b is None else self.b - self.a

    def better(self) -> str | None:
        """``"A"``, ``"B"`` or None (equal or not comparable)."""
        d = self.diff
        if d is None or abs(d) < EPS:
            return None
        return ("A" if d > 0 else "B") if self.lower_is_better else ("B" if d > 0 else "A")
