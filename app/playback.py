"""Reading playback (browse phase): a timer moves the simulated reader along the reading order.

The reader's state is one number, ``top``: the reading position (characters read before it,
0-based, in the unit) of the first character on the screen. The screen shows reading positions
``[top, top + screen)`` (:func:`readsim.core.reading.window` maps them to document spans, in
reading order); everything on the screen counts as read, so the reader has read
``read = min(top + screen, n)`` characters (what LE assumes: the first screen is read at once).

Granularity: one tick moves the screen by a *line*: :data:`LINE` characters (a line of a small
screen), or the whole screen when it is smaller. The speed is in characters per second; the
timer interval is ``1000 * line / speed`` ms, and above ``speed = 1000 * line / MIN_INTERVAL_MS``
the interval stays at :data:`MIN_INTERVAL_MS` and a tick moves several lines.

Screen stepping stays consistent: ``top`` lies on screen ``top // screen``, which is
:attr:`Session.step` ("screen k of K"). Moving ``top`` onto another screen calls
:meth:`Session.set_step`; a user step to screen ``k`` (Alt+Right, the Prev/Next buttons) moves
``top`` to ``k * screen``. Playback ends at the last screen's top, ``(K - 1) * screen``
(``read == n``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal

from readsim.operations.article_reading import relevant_read
from readsim.core.doc_evaluation import DocumentEvaluation
from readsim.core.reading import Piece

from .session import Session

LINE = 60                 # characters per line of a small screen: one tick's move
MIN_INTERVAL_MS = 16      # fastest timer (about 60 ticks per second)
DEFAULT_SPEED = 600       # characters per second (two mobile screens of 300 a second)
SPEED_RANGE = (10, 200_000)




def jumps(pieces: tuple[Piece, ...] | list[Piece]) -> list[tuple[int, int, int]]:
    """Where the reading order jumps: ``(r, end, start)`` for consecutive pieces that do not
    continue each other: after ``r`` characters read, the reader leaves document offset ``end``
    (end of one piece, exclusive) for offset ``start`` (start of the next). Unit offsets."""
    out = []
    r = 0
    for a, b in zip(pieces, pieces[1:]):
        r += a.length
        if b.start != a.end:
            out.append((r, a.end, b.start))
    return out


@dataclass(frozen=True)
class SoFar:
    """Scores of the reader so far, after ``read`` characters of the reading order (unit).

    ``relevant``: relevant characters among them (:func:`readsim.operations.article_reading.relevant_read`);
    ``precision = relevant / read`` (0 when nothing is read), ``recall = relevant / nrc``
    (0 when the article has no relevant text); ``t2i_stop``: characters read when the T2I
    reader stops (:func:`docmeasures.t2i_stop`), reached when ``read >= t2i_stop``;
    ``first_relevant``: 1-based reading position of the first relevant character (None if
    none), reached when ``read >= first_relevant``.
    """

    read: int
    n: int
    relevant: int
    nrc: int
    precision: float
    recall: float
    t2i_stop: int
    first_relevant: int | None

    @property
    def t2i_reached(self) -> bool:
        return self.read >= self.t2i_stop

    @property
    def first_reached(self) -> bool:
        return self.first_relevant is not None and self.read >= self.first_relevant


def so_far(ev: DocumentEvaluation, read: int, tolerance: int) -> SoFar:
    """:class:`SoFar` of ``ev`` after ``read`` characters (clipped to ``[0, ev.n]``)."""
    read = min(max(read, 0), ev.n)
    rel = relevant_read(ev, read)
    return SoFar(read, ev.n, rel, ev.nrc, rel / read if read else 0.0, rel / ev.nrc if ev.nrc else 0.0,
                 ev.t2i_stop(tolerance), ev.first_relevant())


class Playback(QObject):
    """The playback controller over a :class:`Session` (no widgets).

    Signals: ``position_changed(int)`` (the new ``top``, after ``Session.step_changed`` when
    the screen changed too); ``playing_changed(bool)``; ``speed_changed(int)`` (characters per
    second).
    """

    position_changed = Signal(int)
    playing_changed = Signal(bool)
    speed_changed = Signal(int)

    def __init__(self, session: Session, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._top = 0
        self._speed = DEFAULT_SPEED
        self.timer = QTimer(self)
        self.timer.timeout.connect(self._tick)
        self._apply_speed()
        session.article_changed.connect(self._reset)
        session.step_changed.connect(lambda _: self.position_changed.emit(self.top))
        session.settings_changed.connect(lambda _: self._apply_speed())

    # -- state ----------------------------------------------------------------------------
    @property
    def evaluation(self) -> DocumentEvaluation | None:
        cur = self.session.current
        return cur.evaluation if cur is not None else None

    @property
    def screen(self) -> int:
        return max(self.session.settings.screen, 1)

    @property
    def top(self) -> int:
        """Reading position of the screen's first character: the last one set if it lies on
        the session's screen, else that screen's start."""
        s, k = self.screen, self.session.step
        if self._top // s == k and self._top <= self.last_top():
            return self._top
        return k * s

    @property
    def read(self) -> int:
        """Characters read so far: ``min(top + screen, n)`` (0 with no article)."""
        ev = self.evaluation
        return min(self.top + self.screen, ev.n) if ev is not None else 0

    def last_top(self) -> int:
        """Top of the last screen, ``(K - 1) * screen``: where playback ends."""
        return max(self.session.screens() - 1, 0) * self.screen

    def line(self) -> int:
        """Characters of one line (a step): :data:`LINE`, or the screen if smaller."""
        return min(LINE, self.screen)

    def interval(self) -> int:
        """Timer interval in ms at the current speed."""
        return max(MIN_INTERVAL_MS, round(1000 * self.line() / self._speed))

    def stride(self) -> int:
        """Characters one tick moves: whole lines covering ``speed * interval``."""
        line = self.line()
        return line * max(1, math.ceil(self._speed * self.interval() / 1000 / line - 1e-9))

    @property
    def speed(self) -> int:
        return self._speed

    def is_playing(self) -> bool:
        return self.timer.isActive()

    def so_far(self) -> SoFar | None:
        ev = self.evaluation
        return so_far(ev, self.read, self.session.settings.tolerance) if ev is not None else None

    # -- commands -------------------------------------------------------------------------
    def set_top(self, top: int) -> None:
        """Move the screen's top to reading position ``top`` (clipped to ``[0, last_top]``)."""
        if self.evaluation is None:
            return
        top = min(max(int(top), 0), self.last_top())
        old = self.top
        self._top = top
        k = top // self.screen
        if k != self.session.step:
            self.session.set_step(k)  # emits step_changed -> position_changed
        elif top != old:
            self.position_changed.emit(top)

    def play(self) -> None:
        """Start the timer (from the start when at the end)."""
        if self.evaluation is None or self.evaluation.n == 0:
            return
        if self.top >= self.last_top():
            self.set_top(0)
        if not self.timer.isActive():
            self.timer.start()
            self.playing_changed.emit(True)

    def pause(self) -> None:
        if self.timer.isActive():
            self.timer.stop()
            self.playing_changed.emit(False)

    def toggle(self) -> None:
        self.pause() if self.is_playing() else self.play()

    def step_forward(self) -> None:
        """One line forward (pauses)."""
        self.pause()
        self.set_top(self.top + self.line())

    def step_back(self) -> None:
        """One line back (pauses)."""
        self.pause()
        self.set_top(self.top - self.line())

    def to_start(self) -> None:
        self.pause()
        self.set_top(0)

    def set_speed(self, chars_per_second: int) -> None:
        """Speed in characters per second (clipped to :data:`SPEED_RANGE`)."""
        v = min(max(int(chars_per_second), SPEED_RANGE[0]), SPEED_RANGE[1])
        if v != self._speed:
            self._speed = v
            self._apply_speed()
            self.speed_changed.emit(v)

    # -- internals ------------------------------------------------------------------------
    def _apply_speed(self) -> None:
        self.timer.setInterval(self.interval())

    def _tick(self) -> None:
        last = self.last_top()
        top = self.top
        if top >= last:
            self.pause()
            return
        self.set_top(min(top + self.stride(), last))
        if self.top >= last:
            self.pause()

    def _reset(self) -> None:
        self.pause()
        self._top = 0
