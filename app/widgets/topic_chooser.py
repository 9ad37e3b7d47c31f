"""The topic chooser's scores: each topic of the main window's combo shows the open run's list
score on it, and the combo can list the topics by that score, lowest first.

The score is the topic view's headline list measure (:func:`chooser_measure`: AgP over the
topic view's document measure S, reference section 5.4; for an effort S, ANCE@100/S), with the
reader's settings (reading order, S's parameters, LE levels): the numbers of
``readsim.evaluate(..., per="topic")`` for the open run, those ``readsim-eval -q`` prints (each
topic's value), from the Python API's core (:func:`readsim.operations.evaluate.evaluate_run`). They are
computed in a worker (:func:`readsim.app.background.run_in_background`) once the topic's own
ranked list is scored, never in the GUI thread; a newer request drops an older result (a
generation counter), and results are kept per (run, inputs, measure, settings, edits) so
switching back costs nothing. After an edit only the changed topics are evaluated again
(:func:`readsim.operations.evaluate.evaluate_again` over the last evaluation of the same run and
settings).

:func:`build_topic_scores` wires it to a main window: each item gets `` · 0.1234`` after its
topic id (``2009074 · 0.0259  web ranking ...``; the measure named in the combo's tooltip), :data:`SCORE_ROLE` holds each value, and the
View menu's (and the combo's context menu's) "Sort topics by the run's score" orders them.
See docs/architecture.md (a widget's background work)."""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QAction

from readsim.operations.evaluate import evaluate_again, evaluate_run
from readsim.core.measure import ListMeasure

from ..background import input_error_text, run_in_background
from ..topic_scores import EFFORT_KINDS, doc_measure
from readsim.app.baseline_scores import changed_part

SCORE_ROLE = Qt.ItemDataRole.UserRole + 20
"""A topic item's score (float), None before it is known or when the topic has no relevant article."""
ORDER_ROLE = Qt.ItemDataRole.UserRole + 21
"""A topic item's place in the run (the order without sorting)."""
SORT_KEY_ROLE = Qt.ItemDataRole.UserRole + 22
SORT_TEXT = "Sort topics by the run's score (lowest first)"
MEMO_SIZE = 32
"""Score lists kept (one per run, inputs, measure, settings and edits)."""


def chooser_measure(kind: str, settings) -> ListMeasure:
    """The list measure of the topic chooser for the topic view's document measure ``kind``
    (``aveChP``, ``T2IF``, ...) with the reader's ``settings``: AgP/S, or ANCE@100/S for an
    effort S (LE, ES: lower is better)."""
    doc = doc_measure(kind, settings)
    return ListMeasure("ANCE", 100, doc) if doc.kind in EFFORT_KINDS else ListMeasure("AgP", 0, doc)


def format_score(measure: ListMeasure, value: float | None) -> str:
    """A topic's score as the chooser shows it: 4 decimals (2 for an effort measure), ``–`` when none."""
    if value is None or value != value:
        return "–"
    return f"{value:.2f}" if measure.lower_is_better else f"{value:.4f}"


def as_evaluated(run):
    """``run`` as it is now, for a worker and for finding the topics an edit changes later: each
    topic's list copied (GUI thread: the editor changes an edited run's lists in place), except a
    topic still as the run file said (:meth:`readsim.core.formats.Run.columns`), kept as it is:
    the editor never changes the run it read, and such a topic is evaluated column-wise."""
    return dataclasses.replace(run, topics={t: entries if run.columns(t) is not None else list(entries)
                                            for t, entries in run.topics.items()})


class TopicChooserScores(QObject):
    """The scores of the main window ``window``'s topic chooser (``window.topic_combo``).

    State read by tests: :attr:`measure`, :attr:`scores` (topic -> value of the open run, empty
    until computed), :attr:`act_sort` (checkable), :meth:`busy`."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.combo = window.topic_combo
        self.measure: ListMeasure | None = None
        self.scores: dict[str, float] = {}
        self._memo: dict[tuple, dict[str, float]] = {}
        self._generation = 0
        self._running = False
        self._wanted: tuple | None = None  # the inputs of the scores to show
        self._suffix: dict[str, str] = {}  # topic -> the score inserted after its id in its item
        self._last: tuple | None = None  # (key less run and edits, qrels, collection, the run's lists evaluated, evaluation)
        self.act_sort = QAction(SORT_TEXT, window)
        self.act_sort.setCheckable(True)
        self.act_sort.setStatusTip("List the topics in the chooser by the open run's score on each, lowest first")
        self.act_sort.toggled.connect(lambda _on: self.sort())
        self.combo.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.combo.addAction(self.act_sort)
        s = window.session
        # connected after the main window's own slots (it fills and labels the combo first)
        s.files_changed.connect(self.refresh)
        s.coverage_changed.connect(lambda *_: self.relabel())
        s.settings_changed.connect(lambda *_: self.refresh())
        s.rows_changed.connect(self._start_if_wanted)
        window.topic_view.doc_combo.currentIndexChanged.connect(lambda _i: self.refresh())
        # after the edit is pushed: the stack's index (part of the key) moves after `edited`
        window.editing.editor.edited.connect(lambda _article: QTimer.singleShot(0, self, self.refresh))

    def busy(self) -> bool:
        """True while scores are wanted or being computed."""
        return self._running or self._wanted is not None

    def _kind(self) -> str:
        return self.window.topic_view.doc_kind()

    def _key(self) -> tuple | None:
        s = self.window.session
        if s.run is None or s.qrels is None:
            return None
        edits = self.window.editing.editor.stack.index()
        st = s.settings
        return (id(s.run), id(s.qrels), id(s.collection), chooser_measure(self._kind(), st).name, st.mode.value,
                st.levels, edits)

    def refresh(self) -> None:
        """The inputs may have changed: show the kept scores of the new inputs, or compute them
        once the topic's ranked list is scored (at once when it is)."""
        s = self.window.session
        key = self._key()
        self.measure = chooser_measure(self._kind(), s.settings) if key is not None else None
        self.scores = dict(self._memo.get(key, {})) if key is not None else {}
        self._wanted = key if key is not None and key not in self._memo else None
        self.relabel()
        self._start_if_wanted()

    def _start_if_wanted(self) -> None:
        s = self.window.session
        key = self._wanted
        if key is None or self._running or not s.rows_ready():
            return
        self._wanted = None
        self._running = True
        self._generation += 1
        generation = self._generation
        qrels, run, collection, st, measure = s.qrels, s.run, s.collection, s.settings, self.measure
        seen = as_evaluated(run)
        # the last evaluation with the same inputs and settings, of a run with the same topics (the
        # same run, or its editable copy after the first edit): only the changed topics are evaluated
        last = self._last
        if last is not None and not (last[0] == key[1:-1] and last[1] is qrels and last[2] is collection
                                     and last[3].topics.keys() == run.topics.keys()):
            last = None
        part = changed_part(run, last[3]) if last is not None else None

        def op():  # worker: plain engine data only
            if last is not None:
                return evaluate_again(qrels, last[4], part, reading=st.mode, collection=collection, levels=st.levels)
            return evaluate_run(qrels, seen, [measure], reading=st.mode, collection=collection, all_topics=False,
                                as_documents=False, levels=st.levels, check=False)[0]

        def success(evaluation) -> None:
            self._running = False
            self._last = (key[1:-1], qrels, collection, seen, evaluation)
            values = dict(evaluation.values[measure.name])
            self._memo[key] = values
            while len(self._memo) > MEMO_SIZE:  # the oldest first
                self._memo.pop(next(iter(self._memo)))
            if generation == self._generation and key == self._key():
                self.scores = dict(values)
                self.relabel()
            elif self._wanted is None and self._key() not in self._memo:
                self.refresh()  # the inputs moved on while this was computed and nothing asked again
            self._start_if_wanted()

        def failure(exc: BaseException) -> None:
            self._running = False
            text = input_error_text(exc)
            if text is None:
                raise exc  # a bug: the traceback dialog
            self.window.status.setText(f"Cannot score the topics: {text}")

        run_in_background(self, op, success, failure)

    def relabel(self) -> None:
        """Put each topic's score after its id in its item (replacing the previous one), then sort."""
        combo = self.combo
        m = self.measure
        for i in range(combo.count()):
            t = combo.itemData(i)
            text = combo.itemText(i)
            old = self._suffix.get(t)  # the score put after the topic id last time
            if old and text.startswith(t + old):
                text = t + text[len(t) + len(old):]
            value = self.scores.get(t)
            shown = f" · {format_score(m, value)}" if m is not None and self.scores else ""
            self._suffix[t] = shown
            combo.setItemText(i, t + shown + text[len(t):] if text.startswith(t) else text)
            combo.setItemData(i, value, SCORE_ROLE)
            if combo.itemData(i, ORDER_ROLE) is None:
                combo.setItemData(i, i, ORDER_ROLE)
        if m is not None:
            combo.setToolTip(f"The topics of the open run; after each, the run's {m.name} on it (the topic view's "
                             f"list measure; right-click to sort by it)" + ("" if self.scores else ": computing…"))
        self.sort()

    def sort(self) -> None:
        """Order the items by score, lowest first (topics without a score last), when
        :attr:`act_sort` is on; else in the run's order."""
        model = self.combo.model()
        if not hasattr(model, "setSortRole") or not self.combo.count():
            return
        on = self.act_sort.isChecked() and bool(self.scores)
        sign = -1.0 if self.measure is not None and self.measure.lower_is_better else 1.0
        for i in range(self.combo.count()):
            value = self.combo.itemData(i, SCORE_ROLE)
            if on:  # worst first, whatever the measure's direction; topics without a score last
                key = float("inf") if value is None else sign * float(value)
            else:
                key = float(self.combo.itemData(i, ORDER_ROLE) or 0)
            self.combo.setItemData(i, key, SORT_KEY_ROLE)
        model.setSortRole(SORT_KEY_ROLE)
        model.sort(0, Qt.SortOrder.AscendingOrder)

    def topics_shown(self) -> list[str]:
        """The topics in the combo's order."""
        return [self.combo.itemData(i) for i in range(self.combo.count())]



def build_topic_scores(window) -> TopicChooserScores:
    """``window``'s topic chooser given the open run's score per topic and the sort entry (in the
    View menu and the combo's context menu; the window's ``topic_scores``). Build after the topic
    view and the passage editor."""
    scores = TopicChooserScores(window)
    window.view_menu.addAction(scores.act_sort)
    scores.refresh()
    return scores
