"""A lesson's steps as a student takes them, under the lesson's text in the lesson dock.

**Next step** enters the next step (:mod:`readsim.app.lesson_text`): its ``set:`` changes the
reader's settings (reading mode, screen size, T2I tolerance) and opens its dock; its ``ask:``
hides the measure asked about in the Scores panel, the ranked list's columns and the Explain
dock (shown ``?``), and once
the window is idle (the step's settings applied) computes the answer from the window's state:
the open article's value of that measure as the Scores panel shows it, which is
``readsim.article(...)``'s ``scores`` (reference §4; other document measures: its
``explain(measure).total``). The answer is never read from the lesson file.

**Answer** shows the value, the student's answer and whether it was close (a ``number``
question: within its tolerance; a ``choice``: the choice nearest the value), shows the measure
again and opens the Explain dock on it. GUI thread only.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QComboBox, QDockWidget, QHBoxLayout, QLineEdit, QPushButton, QVBoxLayout, QWidget

from ..articles import shown_article
from ..background import activity
from ..lesson_text import LessonText, Question, Step
from ..plain import amount, plain_label
from ..view_state import ON_DEMAND

POLL_MS = 50  # how often the answer waits for the window to be idle


def computed_value(window, measure: str) -> float | None:
    """The open article's value of document ``measure`` (a canonical name) in ``window``'s
    current state, as its Scores panel and Explain dock show it; None without an article."""
    s = window.session
    cur = s.current
    if cur is None:
        return None
    shown = shown_article(cur, s.settings, s.topic, s.qrels, s.run, s.unit)
    if measure in shown.scores:
        return float(shown.scores[measure])
    return float(shown.explain(measure).total)


def _show(x: float) -> str:
    return f"{x:.4f}" if x != int(x) else f"{int(x)}"


class StepBox(QWidget):
    """The current step's title, its question with an answer field and the verdict, and the
    Previous/Next buttons. :attr:`value` is the computed answer (None until computed);
    :attr:`verdict` the last answer's ``(answer, value, close)``."""

    def __init__(self, window, parent=None) -> None:
        super().__init__(parent)
        self.window = window
        self.lesson: LessonText | None = None
        self.index = -1  # -1: before the first step (the intro)
        self.value: float | None = None
        self.verdict: tuple[float, float, bool] | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._compute_when_idle)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.heading = plain_label()
        self.heading.setWordWrap(True)
        self.heading.setStyleSheet("font-weight:bold;")
        self.question = plain_label()
        self.question.setWordWrap(True)
        self.number = QLineEdit()
        self.number.setPlaceholderText("your answer, a number")
        self.number.returnPressed.connect(self.answer)
        self.choices = QComboBox()
        self.submit = QPushButton("Answer")
        self.submit.clicked.connect(self.answer)
        row = QHBoxLayout()
        row.addWidget(self.number, 1)
        row.addWidget(self.choices, 1)
        row.addWidget(self.submit)
        self.result = plain_label()
        self.result.setWordWrap(True)
        nav = QHBoxLayout()
        self.prev = QPushButton("Previous step")
        self.next = QPushButton("Next step")
        self.prev.clicked.connect(lambda: self.go(self.index - 1))
        self.next.clicked.connect(lambda: self.go(self.index + 1))
        nav.addWidget(self.prev)
        nav.addWidget(self.next)
        nav.addStretch(1)
        lay.addWidget(self.heading)
        lay.addWidget(self.question)
        lay.addLayout(row)
        lay.addWidget(self.result)
        lay.addLayout(nav)
        self.set_lesson(None)

    # -- steps -----------------------------------------------------------------------------------
    def set_lesson(self, lesson: LessonText | None) -> None:
        """Show ``lesson``'s steps from before the first (None: no steps)."""
        self.lesson = lesson
        self.index = -1
        self._enter()

    def step(self) -> Step | None:
        if self.lesson is None or not 0 <= self.index < len(self.lesson.steps):
            return None
        return self.lesson.steps[self.index]

    def go(self, index: int) -> None:
        """Enter step ``index`` (0-based; -1: before the first): apply its settings and dock, ask
        its question."""
        if self.lesson is None or not -1 <= index < len(self.lesson.steps):
            return
        self.index = index
        step = self.step()
        if step is not None:
            if step.settings:
                self.window.session.set_settings(**step.settings)
            if step.dock:
                self._open_dock(step.dock)
        self._enter()

    def _open_dock(self, name: str) -> None:
        w = self.window
        dock = next((d for d in w.findChildren(QDockWidget) if d.objectName() == name), None)
        if dock is not None:
            dock.show()
            dock.raise_()
        elif name in ON_DEMAND:
            ON_DEMAND[name](w).setChecked(True)
        else:
            w.log.appendPlainText(f"lesson: no dock named {name!r} in this readsim (not opened)")

    def _enter(self) -> None:
        steps = self.lesson.steps if self.lesson is not None else ()
        step = self.step()
        self.setVisible(bool(steps))
        self.prev.setEnabled(self.index > -1)
        self.next.setEnabled(self.index + 1 < len(steps))
        self.value, self.verdict = None, None
        self.result.setText("")
        q = step.question if step is not None else None
        if step is None:
            self.heading.setText(f"{amount(len(steps), 'steps')} to take: Next step goes to the first" if steps else "")
        else:
            self.heading.setText(f"Step {self.index + 1} of {len(steps)}: {step.title}")
        for w in (self.question, self.number, self.choices, self.submit):
            w.setVisible(q is not None)
        self.number.setVisible(q is not None and q.kind == "number")
        self.choices.setVisible(q is not None and q.kind == "choice")
        self._hide([q.measure] if q is not None else [])
        if q is None:
            self._timer.stop()
            return
        self.number.clear()
        self.choices.clear()
        self.choices.addItems([_show(c) for c in q.choices])
        self.question.setText(self._asked(q))
        self.submit.setEnabled(True)
        self._timer.start()

    @staticmethod
    def _asked(q: Question) -> str:
        if q.kind == "choice":
            return f"What is {q.measure} of the open article now? Choose the nearest value."
        return f"What is {q.measure} of the open article now? (close: within {q.tolerance:g})"

    def _hide(self, names: list[str]) -> None:
        for part in (self.window.scores, self.window.explain, self.window.model):
            part.hide_measures(names)

    # -- the answer ------------------------------------------------------------------------------
    def _compute_when_idle(self) -> None:
        restore = self.window.view_restore
        if activity().count or (restore is not None and not restore.done):
            return
        self._timer.stop()
        self.compute()

    def compute(self) -> float | None:
        """The step's answer from the window's state now (:func:`computed_value`), kept as :attr:`value`."""
        step = self.step()
        if step is None or step.question is None:
            return None
        try:
            self.value = computed_value(self.window, step.question.measure)
        except ValueError as exc:
            self.value = None
            self.result.setText(f"The answer cannot be computed: {exc}")
        if self.value is None and not self.result.text():
            self.result.setText("No article is open: the answer cannot be computed; open one and answer.")
        return self.value

    def answer(self) -> bool | None:
        """Check the student's answer against the value computed when the step was reached (now,
        if it could not be then: no article open, the window busy); show the value, whether the
        answer was close, and the Explain dock on the measure. None when there is nothing to
        check (no question, no number given, no value)."""
        step = self.step()
        if step is None or step.question is None:
            return None
        q = step.question
        if q.kind == "choice":
            given = q.choices[self.choices.currentIndex()] if self.choices.currentIndex() >= 0 else None
        else:
            try:
                given = float(self.number.text().replace(",", "."))
            except ValueError:
                given = None
        if given is None or given != given:
            self.result.setText("Give a number first.")
            return None
        self._timer.stop()
        value = self.value if self.value is not None else self.compute()  # the value when the step was reached
        if value is None:
            return None
        close = q.close(given, value)
        self.verdict = (given, value, close)
        self._hide([])
        verdict = "close" if close else "not close"
        if q.kind == "choice":
            verdict += f" (the nearest choice is {_show(q.right_choice(value))})"
        else:
            verdict += f" (within {q.tolerance:g}: {_show(value - q.tolerance)} to {_show(value + q.tolerance)})"
        self.result.setText(f"{q.measure} = {value!r}. Your answer {_show(given)}: {verdict}. "
                            "The Explain dock shows how it is computed.")
        self.submit.setEnabled(False)
        w = self.window
        w.act_explain.setChecked(True)
        w.explain_dock.raise_()
        w.explain.choose(q.measure)
        return close
