"""What the unsaved edits are worth, for the topic and the run: a box above the ranked list.

While the shown run has unsaved edits (passages or ranks), the box says, for a list measure
the user picks (by default INEX 2009-2010's official ``AgP/F(0.25)``; the choice is remembered
in QSettings under ``worth/list_measure``)::

    Topic 2009078: 0.2311 (before 0.2054, +0.0257)
    Mean over 120 topics: 0.1425 (before 0.1423, +0.0002)

Both from the Python API's core (``readsim.operations.evaluate.evaluate_run``, the numbers of
``readsim.evaluate``) of the baseline (the run as opened or last saved) and of the edited run
(``evaluate_again``: its changed topics only), in the current reading mode
(:func:`readsim.app.baseline_scores.worth_job`, in the background; the baseline is evaluated once). The
box hides when the edits are saved or all undone.
"""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QFrame, QHBoxLayout, QVBoxLayout

from readsim.core.measure import UnknownMeasure, parse_list_measure

from .. import appearance as look
from ..background import LatestJob
from readsim.app.input_files import app_settings
from ..plain import plain_label
from .. import settings_keys as keys
from ..runs_model import DEFAULT_MEASURES
from ..session import Session
from readsim.app.baseline_scores import DEFAULT_LIST_MEASURE, Worth, changed_part, list_evaluation, signed, worth_job


def worth_lines(w: Worth) -> list[str]:
    """The box's two lines for ``w``: the topic's value and the mean, each with its value before
    the edits and the difference."""
    def line(head: str, now: float | None, before: float | None) -> str:
        if now is None or before is None:
            return f"{head}: not judged in the qrels"
        return f"{head}: {now:.4f} (before {before:.4f}, {signed(now - before)})"

    return [line(f"Topic {w.topic}", w.topic_now, w.topic_before),
            line(f"Mean over {w.n} topics", w.mean_now, w.mean_before)]


class EditWorth(QFrame):
    """The before/after box (hidden while the shown run has no unsaved edits); :attr:`worth` is
    the last :class:`~readsim.app.baseline_scores.Worth` shown, :meth:`lines` its text (tests)."""

    def __init__(self, session: Session, parent=None) -> None:
        super().__init__(parent)
        self.session = session
        self.worth: Worth | None = None
        self._jobs = LatestJob(self)  # the latest edit's worth only
        self._key: tuple | None = None
        self._before: dict[tuple, object] = {}  # (baseline, measure, mode, levels, qrels, collection) -> Evaluation
        self.setObjectName("worth")
        self.setStyleSheet(f"#worth {{ background:{look.css('callout')}; border:1px solid {look.css('callout_edge')}; "
                           "border-radius:4px; }")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 3, 6, 4)
        lay.setSpacing(2)
        head = QHBoxLayout()
        head.addWidget(plain_label("Unsaved edits: before and now, by"))
        self.measure = QComboBox()
        self.measure.setEditable(True)
        self.measure.addItems(list(DEFAULT_MEASURES))
        self.measure.setToolTip("The list measure of the topic's value and of the run's mean over topics "
                                "(any list measure, e.g. AgP/F(0.25), MAP, gP@10/T2IP(300))")
        stored = keys.read(app_settings(), keys.WORTH_LIST_MEASURE)
        self.measure.setCurrentText(stored if isinstance(stored, str) and stored else DEFAULT_LIST_MEASURE)
        head.addWidget(self.measure, 1)
        lay.addLayout(head)
        self.text = plain_label("")
        lay.addWidget(self.text)
        self.measure.currentTextChanged.connect(self._measure_changed)
        for sig in (session.baselines_changed, session.rows_changed, session.settings_changed):
            sig.connect(self.refresh)
        self.hide()
        self.refresh()

    def lines(self) -> list[str]:
        return self.text.text().splitlines()

    def _measure_changed(self, text: str) -> None:
        try:
            parse_list_measure(text)
        except UnknownMeasure:
            self.text.setText(f"{text}: not a list measure (e.g. AgP/F(0.25))")
            return
        keys.write(app_settings(), keys.WORTH_LIST_MEASURE, text)
        self.refresh()

    def refresh(self, *_) -> None:
        """Compute the values again when the edits, the rows, the mode or the measure changed."""
        s = self.session
        base = s.baseline()
        if base is None or s.qrels is None or s.run is None:
            self._key, self.worth = None, None
            self.hide()
            return
        try:
            measure = parse_list_measure(self.measure.currentText())
        except UnknownMeasure:
            return
        mode, levels = s.settings.mode, s.settings.levels
        key = (id(base), id(s.run), id(s.rows), measure, mode, levels, id(s.qrels), id(s.collection))
        if key == self._key:
            return
        self._key, self.worth = key, None
        self.show()
        self.text.setText(f"{measure.name}: evaluating…")
        qrels, coll, topic = s.qrels, s.collection, s.topic
        part = changed_part(s.run, base)  # copied here: the editor changes the run's lists in place
        bkey = (id(base), measure, mode, levels, id(qrels), id(coll))
        known = self._before.get(bkey)

        def op():
            before = known if known is not None else list_evaluation(qrels, base, measure, mode, coll, levels)
            return before, worth_job(qrels, before, part, measure, mode, coll, levels, topic)

        def success(result) -> None:
            if len(self._before) > 8:
                self._before.clear()
            self._before[bkey] = result[0]
            self.worth = result[1]
            self.text.setText("\n".join(worth_lines(self.worth)))

        self._jobs.start(lambda _progress: op(), success, s.worker_failed)


def build_edit_worth(window) -> EditWorth:
    """The before/after box of the edits, above ``window``'s ranked list (the window's ``edit_worth``)."""
    box = EditWorth(window.session)
    layout = window.table.parentWidget().layout()
    layout.insertWidget(layout.indexOf(window.table), box)
    return box
