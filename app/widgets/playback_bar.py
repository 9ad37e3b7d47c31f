"""The playback bar under the article: to start, step back, play/pause, step forward, a slider
over the reading positions, the speed (characters per second) and the scores so far.

:func:`build_playback` builds a :class:`~readsim.app.playback.Playback` for a main window,
puts the bar under its article, makes the article view and the precision plot follow the
reader, and adds a Reader ▸ Playback menu. Keys (article view focused): Space play/pause,
``.`` / ``,`` one line forward / back, ``]`` / ``[`` faster / slower; anywhere in the window:
Ctrl+Space play/pause, Alt+Shift+Right / Alt+Shift+Left one line, Alt+Shift+Home to the start.
"""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QGridLayout, QHBoxLayout, QLabel, QSizePolicy, QSlider, QSpinBox, QStyle, QToolButton, QVBoxLayout,
                               QWidget)

from .. import appearance as look
from ..plain import amount, plain_label, rich_label
from ..playback import SPEED_RANGE, Playback, SoFar

SPEED_STEP = 1.5  # factor of one "faster" / "slower"


class PlaybackBar(QWidget):
    """Buttons, position slider, speed spin box and the scores-so-far row of a :class:`Playback`."""

    def __init__(self, playback: Playback, parent=None) -> None:
        super().__init__(parent)
        self.playback = pb = playback
        s = pb.session
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 0, 4, 2)
        outer.setSpacing(2)
        row = QHBoxLayout()
        row.setSpacing(3)
        style = self.style()
        SP = QStyle.StandardPixmap

        def button(icon, tip, slot) -> QToolButton:
            b = QToolButton()
            b.setIcon(style.standardIcon(icon))
            b.setToolTip(tip)
            b.setAutoRaise(True)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.clicked.connect(slot)
            row.addWidget(b)
            return b

        row.addWidget(plain_label("Reader:"))
        self.start_btn = button(SP.SP_MediaSkipBackward, "To the start (Alt+Shift+Home)", pb.to_start)
        self.back_btn = button(SP.SP_MediaSeekBackward, "One line back (, or Alt+Shift+Left)", pb.step_back)
        self.play_btn = button(SP.SP_MediaPlay, "Play / pause (Space in the article, Ctrl+Space)", pb.toggle)
        self.forward_btn = button(SP.SP_MediaSeekForward, "One line forward (. or Alt+Shift+Right)", pb.step_forward)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setToolTip("Reading position of the screen's top (drag to move the reader)")
        self.slider.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.slider.valueChanged.connect(self._slid)
        row.addWidget(self.slider, 1)
        self.speed = QSpinBox()
        self.speed.setRange(*SPEED_RANGE)
        self.speed.setSingleStep(100)
        self.speed.setValue(pb.speed)
        self.speed.valueChanged.connect(pb.set_speed)
        row.addWidget(plain_label("Speed"))
        row.addWidget(self.speed)
        outer.addLayout(row)

        scores = QGridLayout()
        scores.setHorizontalSpacing(6)
        scores.setVerticalSpacing(0)
        self.labels: dict[str, QLabel] = {}
        self._pairs: list[tuple[QLabel, QLabel]] = []
        for key, title in (("read", "read"), ("relevant", "relevant read"), ("t2i", "T2I stop"),
                           ("precision", "P so far"), ("recall", "R so far"), ("first", "first relevant")):
            name = rich_label(f"<span style='color:{look.css('subtle')}'>{title}</span>")
            value = plain_label()
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self._pairs.append((name, value))
            self.labels[key] = value
        self._scores = scores
        self._columns = 0
        # the row never widens the panel (a wider text would resize and re-lay out the article);
        # when the panel narrows (a dock opens) the counters wrap onto more rows, never overlap
        row_widget = QWidget()
        scores.setContentsMargins(0, 0, 0, 0)
        row_widget.setLayout(scores)
        row_widget.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        row_widget.setMinimumWidth(0)
        self._row_widget = row_widget
        self._reflow(3)
        outer.addWidget(row_widget)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

        self._state: tuple | None = None  # what refresh() showed last
        self.show_unit()
        s.files_changed.connect(self.show_unit)
        pb.position_changed.connect(lambda _: self.refresh())
        pb.playing_changed.connect(self._playing)
        pb.speed_changed.connect(self._speed_shown)
        s.article_changed.connect(self.refresh)
        s.article_changed.connect(self._fit)
        s.evaluation_changed.connect(self.refresh)
        s.settings_changed.connect(lambda _: self.refresh())
        self.refresh()

    # -- reactions ----------------------------------------------------------------------
    def show_unit(self) -> None:
        """The speed's suffix and the counters' tooltips in the session's unit (it follows the
        collection opened when no ``--unit`` is given, docs/reference.md section 2.13)."""
        unit = self.playback.session.unit
        self.speed.setSuffix(f" {unit}/s")  # at least 10 (SPEED_RANGE): always plural
        self.speed.setToolTip(f"Reading speed in {unit} per second (] faster, [ slower in the article)")
        tips = {"read": f"{unit} read so far (the screen included), of the reading order's length n",
                "relevant": f"relevant {unit} among those read",
                "precision": "relevant read / read", "recall": f"relevant read / NRC (relevant {unit} in the article)",
                "t2i": f"where the T2I reader stops (tolerance to irrelevance), in {unit} read",
                "first": f"first relevant {unit[:-1]} (what LE counts), in {unit} read"}
        for key, value in self.labels.items():
            tip = tips[key]
            value.setToolTip(tip)
            next(n for n, v in self._pairs if v is value).setToolTip(tip)

    def refresh(self) -> None:
        """Show the scores so far and the slider at the playback's position. A mode change asks
        three times (evaluation, settings, position) for one state: the last state shown is
        kept, and the same state again changes nothing."""
        pb = self.playback
        f = pb.so_far()
        enabled = f is not None and f.n > 0
        state = (f, pb.last_top() if enabled else 0, pb.line(), pb.screen, pb.top, pb.session.unit)
        if state == self._state:
            return
        self._state = state
        for w in (self.start_btn, self.back_btn, self.play_btn, self.forward_btn, self.slider):
            w.setEnabled(enabled)
        self.slider.blockSignals(True)
        self.slider.setRange(0, pb.last_top() if enabled else 0)
        self.slider.setSingleStep(pb.line())
        self.slider.setPageStep(pb.screen)
        self.slider.setValue(pb.top if enabled else 0)
        self.slider.blockSignals(False)
        widest = None
        for key, text in self.texts(f).items():
            label = self.labels[key]
            if label.text() == text and label.minimumWidth() == label.maximumWidth() > 0:
                continue
            label.setText(text)
            # a fixed-size label (the widest text the article can show, or more) does not
            # invalidate the window's layout when its text changes: a step or a setting change
            # repaints the counters only
            if widest is None:
                widest = self._widest()
            hint = label.sizeHint()
            w = max(hint.width(), label.fontMetrics().horizontalAdvance(widest[key]) + 2, label.minimumWidth())
            if (w, hint.height()) != (label.maximumWidth(), label.maximumHeight()) or (
                    w, hint.height()) != (label.minimumWidth(), label.minimumHeight()):
                label.setFixedSize(w, hint.height())

    def _needed(self, columns: int) -> int:
        """Width (pixels) the counters need in ``columns`` columns, with the widest texts
        an article of this length can show (so a refresh never overlaps them)."""
        fm = self.fontMetrics()
        widest = self._widest()
        pairs = [(fm.horizontalAdvance(name.text().split(">")[1].split("<")[0]),
                  fm.horizontalAdvance(widest[key])) for (name, _), key in zip(self._pairs, widest)]
        total = 0
        for c in range(columns):
            column = pairs[c::columns]
            total += max(a for a, _ in column) + max(b for _, b in column) + 3 * self._scores.horizontalSpacing()
        return total

    def _widest(self) -> dict[str, str]:
        """The widest text of each counter an article of this length can show."""
        f = self.playback.so_far()
        n = f.n if f is not None else 0
        digits = f"{max(n, 99_999):,}"
        return {"read": f"{digits} of {digits} {self.playback.session.unit}", "relevant": f"{digits} of {digits}",
                "t2i": f"✓ at {digits}", "precision": "0.0000", "recall": "0.0000", "first": f"✓ at {digits}"}

    def _reflow(self, columns: int) -> None:
        if columns == self._columns:
            return
        self._columns = columns
        grid = self._scores
        for name, value in self._pairs:
            grid.removeWidget(name)
            grid.removeWidget(value)
        for col in range(6):
            grid.setColumnStretch(col, 0)
        for i, (name, value) in enumerate(self._pairs):
            grid.addWidget(name, i // columns, 2 * (i % columns), Qt.AlignmentFlag.AlignRight)
            grid.addWidget(value, i // columns, 2 * (i % columns) + 1)
        for col in range(columns):
            grid.setColumnStretch(2 * col + 1, 1)

    def resizeEvent(self, event) -> None:  # Qt API
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        width = self.width()
        self._reflow(next((c for c in (3, 2) if self._needed(c) <= width), 1))

    def texts(self, f: SoFar | None) -> dict[str, str]:
        """The scores-so-far row's texts for ``f``."""
        if f is None:
            return {k: "–" for k in self.labels}
        unit = self.playback.session.unit
        t2i = f"{'✓' if f.t2i_reached else '·'} at {f.t2i_stop:,}"
        first = "none" if f.first_relevant is None else f"{'✓' if f.first_reached else '·'} at {f.first_relevant:,}"
        return {"read": f"{f.read:,} of {amount(f.n, unit)}", "relevant": f"{f.relevant:,} of {f.nrc:,}",
                "precision": f"{f.precision:.4f}", "recall": f"{f.recall:.4f}", "t2i": t2i, "first": first}

    def shown(self) -> dict[str, str]:
        """What the scores-so-far row shows (key -> text)."""
        return {k: w.text() for k, w in self.labels.items()}

    def _playing(self, playing: bool) -> None:
        sp = QStyle.StandardPixmap
        self.play_btn.setIcon(self.style().standardIcon(sp.SP_MediaPause if playing else sp.SP_MediaPlay))

    def _speed_shown(self, v: int) -> None:
        if self.speed.value() != v:
            self.speed.blockSignals(True)
            self.speed.setValue(v)
            self.speed.blockSignals(False)

    def _slid(self, value: int) -> None:
        self.playback.pause()
        self.playback.set_top(value)


class PlaybackParts(NamedTuple):
    """What :func:`build_playback` gives the main window (its attributes of the same names)."""
    playback: Playback
    playback_bar: PlaybackBar
    act_play_view: QAction
    act_play: QAction
    act_line_forward: QAction
    act_line_back: QAction
    act_to_start: QAction


def build_playback(window) -> PlaybackParts:
    """Reading playback for ``window`` (a ``MainWindow``): the controller, its bar under the
    article, the view and plot following the reader, keys and a Reader ▸ Playback menu."""
    s = window.session
    pb = Playback(s, window)
    bar = PlaybackBar(pb)
    panel = window.article
    panel.layout().addWidget(bar)
    panel.playback = pb
    pb.position_changed.connect(lambda _: panel.update_window(scroll=True))

    def follow(plot) -> None:  # the precision plot, when it is built (it may come after the first frame)
        plot.playback = pb
        pb.position_changed.connect(plot.refresh_position)
        plot.refresh_position()

    window.plot_slot.when_built(follow)

    view = panel.view

    def faster(factor: float) -> None:
        pb.set_speed(round(pb.speed * factor))

    def action(text, slot, keys, owner, context=Qt.ShortcutContext.WindowShortcut) -> QAction:
        a = QAction(text, owner)
        a.setShortcuts([QKeySequence(k) for k in keys])
        a.setShortcutContext(context)
        a.triggered.connect(slot)
        owner.addAction(a)
        return a

    local = Qt.ShortcutContext.WidgetWithChildrenShortcut
    play_view = action("Play / pause", pb.toggle, ["Space"], view, local)
    action("One line forward", pb.step_forward, ["."], view, local)
    action("One line back", pb.step_back, [","], view, local)
    action("Faster", lambda: faster(SPEED_STEP), ["]"], view, local)
    action("Slower", lambda: faster(1 / SPEED_STEP), ["["], view, local)

    acts = (action("Play / pause", pb.toggle, ["Ctrl+Space"], window),
            action("One line forward", pb.step_forward, ["Alt+Shift+Right"], window),
            action("One line back", pb.step_back, ["Alt+Shift+Left"], window),
            action("To the start", pb.to_start, ["Alt+Shift+Home"], window))
    menu = window.reader_menu
    menu.addSeparator()
    sub = menu.addMenu("&Playback")
    for a in acts:
        sub.addAction(a)
    pb.playing_changed.connect(lambda on: acts[0].setText("Pause" if on else "Play"))
    return PlaybackParts(pb, bar, play_view, *acts)
