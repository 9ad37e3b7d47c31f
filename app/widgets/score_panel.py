"""Live scores of the open article: ``readsim.article``'s (the open article as a
:class:`readsim.operations.article.ArticleEvaluation`, :func:`readsim.app.articles.shown_article`; its
``scores`` are :func:`readsim.operations.article_reading.panel_scores`) under the measures' canonical names
(aveChP, ChP@s, ChR@s, T2IP(t), T2IR(t), T2IF(t), LE(s), ES(s), P_set, R_set, F(b)), plus the
article's sizes (and its entry point in the ``entry`` mode). Recomputed from the cached
evaluation on every change.

An article the run does not rank (opened from the qrels, the outline, the A/B or the strategies
views) contributes 0 to the list: the panel says so above the grid, and the grid shows what it
*would* score if the run retrieved it whole (:func:`readsim.app.articles.if_retrieved_whole`),
marked as such: the values in italics and colour, the box's title and each value's tooltip
saying "if retrieved whole" (:meth:`ScoresPanel.hypothetical`).

While the run has unsaved edits (passages or ranks), each value shows under it its value before
the first edit and the difference (``was 0.3000, +0.1567``; :func:`readsim.app.baseline_scores.before_evaluation`),
until the edits are saved or all undone.

A lesson's question hides the measure it asks about (:meth:`ScoresPanel.hide_measures`): its
value shows as ``?`` until the student answers (:mod:`readsim.app.widgets.lesson_steps`)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel, QVBoxLayout

from readsim.operations.article_reading import panel_measures, panel_scores
from readsim.core.reading import Mode

from .. import appearance as look
from ..articles import shown_article
from ..plain import amount, plain_label
from ..session import Session
from readsim.app.baseline_scores import NOT_RANKED, before_evaluation, signed
from .fixed_labels import WrappedLabel, fit_text
from .ranked_list import format_score

HELP = {
    "aveChP": "average character precision along the reading order (Arvola et al. 2010)",
    "ChP": "precision of the first screen read", "ChR": "recall of the first screen read",
    "T2IP": "T2I precision: relevant read / read, up to the tolerance stop",
    "T2IR": "T2I recall: relevant read / relevant, up to the tolerance stop",
    "T2IF": "F of T2IP and T2IR", "LE": "localizing effort: screens until the first relevant character (lower is better)",
    "ES": "effort score: LE, or NR = 5 for a non-relevant article (lower is better)",
    "P_set": "INEX set-based precision |R∩T|/|T|", "R_set": "INEX set-based recall |R∩T|/|R|",
    "F": "INEX set-based F(beta) (official: beta 0.25)",
}
ROWS = 6  # measures per column
TITLE = "Scores of the open article"
WHOLE_TITLE = "Scores of the open article, if retrieved whole"
NOT_RETRIEVED = "not retrieved by this run: contributes 0 to the list; if retrieved whole it would score:"
WHOLE_STYLE = f"color: {look.ROLES['warning'][0]}; font-style: italic;"  # values of the article as if retrieved whole
WAS_STYLE = f"color: {look.ROLES['note'][0]}; font-size: 8pt;"  # the value before the unsaved edits, under each value
HIDDEN = "?"  # a value hidden until a lesson's question is answered
HIDDEN_TIP = "hidden until you answer the lesson's question"
ENTRY_SOURCE = {"you": "set by you", "run": "the run's", "start": "the article's start"}




class ScoresPanel(QGroupBox):
    """A grid of measure name -> value labels; :meth:`value_text` reads one back (tests).
    :attr:`article` is the :class:`~readsim.operations.article.ArticleEvaluation` shown (None: no article)."""

    def __init__(self, session: Session, parent=None) -> None:
        super().__init__(TITLE, parent)
        self.session = session
        self.grid = QGridLayout(self)
        self.grid.setHorizontalSpacing(14)
        self.grid.setVerticalSpacing(3)
        self.banner = plain_label(NOT_RETRIEVED)
        self.banner.setWordWrap(True)
        look.follow(self.banner, f"color: {look.css('warning')}; font-weight: bold;")
        self.banner.setToolTip("The run does not rank this article for the topic: it adds nothing to the list "
                               "scores. The values below are what it would score if the run retrieved it whole "
                               "(the passage [0, doc_length)), in the current reading mode.")
        self.banner.hide()
        self.grid.addWidget(self.banner, 0, 0, 1, 4)
        self._whole = False
        self.article = None
        self._key: tuple | None = None  # what the shown scores are of (see refresh)
        self.hidden: frozenset[str] = frozenset()  # measure names shown as HIDDEN (a lesson's question)
        self._names: list[QLabel] = []
        self._values: list[QLabel] = []
        self._was: list[QLabel] = []  # under each value: its value before the unsaved edits
        self._shown: list[tuple] = []  # per measure: (name, its tooltip, value, its tooltip, whole) last set
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        for i, _ in enumerate(panel_measures(session.settings)):
            name, value = plain_label(), plain_label("–")
            value.setFont(mono)
            value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            col = (i // ROWS) * 2
            self.grid.addWidget(name, 1 + i % ROWS, col, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            was = plain_label()
            look.follow(was, WAS_STYLE)
            was.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            was.hide()
            cell = QVBoxLayout()
            cell.setSpacing(0)
            cell.addWidget(value, 0, Qt.AlignmentFlag.AlignRight)
            cell.addWidget(was, 0, Qt.AlignmentFlag.AlignRight)
            self.grid.addLayout(cell, 1 + i % ROWS, col + 1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self._was.append(was)
            self._names.append(name)
            self._values.append(value)
            self._shown.append((None, None, None, None, False))
        self.facts = WrappedLabel()
        look.follow(self.facts, f"color: {look.css('muted')};")
        self.grid.addWidget(self.facts, 1 + ROWS, 0, 1, 4)
        self.grid.setColumnStretch(1, 1)
        self.grid.setColumnStretch(3, 1)
        for sig in (session.settings_changed, session.evaluation_changed, session.article_changed,
                    session.baselines_changed):
            sig.connect(self.refresh)
        self.refresh()

    def refresh(self, *_) -> None:
        s = self.session.settings
        cur = self.session.current
        # a mode change emits evaluation_changed and settings_changed: score once
        # (the same objects: the article state and its evaluation are compared by identity)
        key = (id(cur), id(cur.evaluation) if cur is not None else 0, s, self.session.unit,
               self.session.entry_of_current(), id(self.session.baseline()), self.hidden, cur)
        last, self._key = self._key, key
        if last is not None and last[7] is cur and last[:7] == key[:7]:
            return
        measures = panel_measures(s)
        whole = cur is not None and cur.row is None  # not ranked by the run: what it would score whole
        se = self.session
        self.article = shown = shown_article(cur, s, se.topic, se.qrels, se.run, se.unit) if cur is not None else None
        values = shown.scores if shown is not None else {}
        before = before_evaluation(self.session, cur.name) if cur is not None and not whole else None
        was = panel_scores(before.evaluation, s) if before is not None and before.evaluation is not None else {}
        if whole != self._whole:
            self.banner.setVisible(whole)
            self.setTitle(WHOLE_TITLE if whole else TITLE)
        self._whole = whole
        for i, (m, name, value) in enumerate(zip(measures, self._names, self._values)):
            text = format_score(m, values[m.name]) if m.name in values else "–"
            if m.name in self.hidden and m.name in values:
                text, tip = HIDDEN, HIDDEN_TIP
            elif m.name not in values:
                tip = ""
            elif whole:
                tip = (f"{m.name} = {values[m.name]!r} if retrieved whole; not retrieved by this run, "
                       "it contributes 0 to the list")
            else:
                tip = f"{m.name} = {values[m.name]!r}"
                if m.name in was:
                    tip += f"\nbefore the unsaved edits: {was[m.name]!r}"
            new = (m.name, HELP.get(m.kind, ""), text, tip, whole)
            old = self._shown[i]
            if new == old:
                continue
            self._shown[i] = new
            if new[0] != old[0]:
                fit_text(name, m.name)
            if new[1] != old[1]:
                name.setToolTip(new[1])
            if new[2] != old[2]:
                fit_text(value, text)
            if new[3] != old[3]:
                value.setToolTip(tip)
            if new[4] != old[4]:
                look.follow(value, WHOLE_STYLE if whole else "")
                fit_text(value, text)
        self._show_before(measures, values, was if before is not None else None)
        if cur is None:
            self.facts.setText("")
            return
        ev = cur.evaluation
        unit = self.session.unit
        retrieved = ("not retrieved by this run" if whole else
                     f"retrieved {ev.retrieved_size:,} in {amount(len(ev.retrieved_spans), 'passages')}")
        facts = f"relevant {ev.nrc:,} of {amount(ev.n, unit)} · {retrieved} · {amount(len(shown.evaluation.pieces), 'reading pieces')}"
        entry = self.session.entry_of_current() if ev.mode is Mode.ENTRY else None
        if entry is not None:
            facts += f" · entry point {amount(entry[0], unit)} ({ENTRY_SOURCE[entry[1]]})"
        self.facts.setText(facts)

    def _show_before(self, measures, values: dict, was: dict | None) -> None:
        """Under each value, its value before the unsaved edits and the difference (``was``:
        the values before; None: no unsaved edits, the lines hidden)."""
        for m, label in zip(measures, self._was):
            if was is None or m.name not in values or m.name in self.hidden:
                label.setVisible(False)
                continue
            text = (f"was {format_score(m, was[m.name])}, {signed(values[m.name] - was[m.name], m.kind in ('LE', 'ES'))}"
                    if m.name in was else f"was {NOT_RANKED}")
            if label.text() != text:
                label.setText(text)
            label.setVisible(True)

    def hide_measures(self, names) -> None:
        """Show the measures ``names`` (canonical names) as ``?`` until called again without them."""
        self.hidden = frozenset(names)
        self.refresh()

    def before_text(self, name: str) -> str:
        """The "was" line under measure ``name`` ("" when hidden: no unsaved edits), or KeyError."""
        for n, w in zip(self._names, self._was):
            if n.text() == name:
                return w.text() if not w.isHidden() else ""
        raise KeyError(name)

    def hypothetical(self) -> bool:
        """True when the values are the article's as if retrieved whole (the run does not rank it)."""
        return self._whole

    def value_text(self, name: str) -> str:
        """The shown text of measure ``name`` (canonical name), or KeyError."""
        for n, v in zip(self._names, self._values):
            if n.text() == name:
                return v.text()
        raise KeyError(name)

    def shown(self) -> dict[str, str]:
        return {n.text(): v.text() for n, v in zip(self._names, self._values)}

    def exact(self) -> dict[str, float]:
        """Measure name -> the value its tooltip shows in full (``name = value``, the float's
        repr: to the bit); measures without a value are left out."""
        return {n.text(): float(v.toolTip().split(" = ", 1)[1].split()[0])
                for n, v in zip(self._names, self._values) if v.toolTip() and v.toolTip() != HIDDEN_TIP}
