"""The part of :class:`~readsim.app.session.Session` that moves the reader: the reader's
settings (mode, screen, tolerance, beta, levels), the entry points the user set, and the reading
position (a screen index). Same threading contract as the session: GUI thread only."""

from __future__ import annotations

import dataclasses

from readsim.core.reading import Mode

from . import marks as mk
from . import rows as rw
from .plain import amount
from .rows import MODES


class ReaderPosition:
    """The session's reader methods (a part of the ``Session`` QObject: they read and set its
    fields and emit its signals)."""

    def set_settings(self, **changes) -> None:
        """Change reader settings (``mode``, ``screen``, ``tolerance``, ``beta``, ...).

        A mode change re-derives every evaluation's pieces; other changes only rescore."""
        if "mode" in changes:
            changes["mode"] = Mode(changes["mode"])
        new = dataclasses.replace(self.settings, **changes)
        if new == self.settings:
            return
        old, self.settings = self.settings, new
        if new.mode is not old.mode:
            if self.rows_ready():
                self.rows = self._by_mode.rows(self.rows, old.mode, new.mode)
                self.rows_changed.emit()
            if self.current is not None:
                row = self.current.row and (self.row_of(self.current.name) if self.rows_ready()
                                            else self.current.row.in_mode(new.mode))
                # the row's evaluation in the new mode (kept per mode with the rows: the same
                # object when the mode comes back), else the article read again in it
                ev = row.evaluation if row else self.current.evaluation.in_mode(new.mode)
                self.current = dataclasses.replace(self.current, evaluation=ev, row=row)
                self.evaluation_changed.emit()
        self.settings_changed.emit(new)
        self._clamp_step()

    def cycle_mode(self) -> None:
        i = MODES.index(self.settings.mode) if self.settings.mode in MODES else -1
        self.set_settings(mode=MODES[(i + 1) % len(MODES)])

    # -- the entry point (the ``entry`` reading mode) ---------------------------------------
    def run_entry(self, name: str) -> int:
        """The run's entry point of article ``name`` in the current topic (the Best in Context
        line's offset, else the first retrieved passage's start, 0 for a whole article); 0 when
        the run does not rank it."""
        entry = self.run.article(self.topic, name) if self.run is not None and self.topic is not None else None
        return rw.run_entry_point(entry, self.row_of(name))

    def entry_of_current(self) -> tuple[int, str] | None:
        """The open article's entry point and where it comes from: ``"you"`` (set in the
        window), ``"run"`` (the run's), ``"start"`` (the run does not rank the article)."""
        cur = self.current
        if cur is None:
            return None
        if (self.topic, cur.name) in self.entries:
            source = "you"
        else:
            source = "run" if cur.row is not None else "start"
        return cur.evaluation.entry, source

    def set_entry(self, offset: int | None) -> None:
        """Start reading the open article at unit ``offset`` (its entry point, kept for this
        topic and article until reset), and switch to the ``entry`` reading mode; ``None``: back
        to the run's entry point (the mode stays)."""
        cur = self.current
        if cur is None or self.topic is None:
            return
        key = (self.topic, cur.name)
        if offset is None:
            self.entries.pop(key, None)
            point = self.run_entry(cur.name)
        else:
            point = rw.held_entry(offset, cur.evaluation.n)
            self.entries[key] = point
        mode = self.settings.mode
        row = self.row_of(cur.name) if self.rows_ready() else cur.row  # its own while the rows come
        row, ev = rw.moved_entry(row, cur.evaluation, point, mode)
        if row is not None:
            self.rows = [row if r.article == cur.name else r for r in self.rows]
        self.current = dataclasses.replace(cur, row=row, evaluation=ev)
        if mode is Mode.ENTRY:
            if row is not None and self.rows_ready():
                self.rows_changed.emit()
            self.evaluation_changed.emit()
            self._clamp_step()
        elif offset is not None:
            self.set_settings(mode=Mode.ENTRY)
        else:
            self.evaluation_changed.emit()
        where = "set by you" if offset is not None else ("the run's" if row is not None else "the article's start")
        self.message.emit(f"Article {cur.name}: reading starts at {amount(point, self.unit)} ({where})")

    # -- the reading position ------------------------------------------------------------
    def screens(self) -> int:
        """K: screens needed to read the open article's whole reading order (0 if none open)."""
        return mk.screens(self.current.evaluation, self.settings.screen) if self.current else 0

    def screen_spans(self) -> list[tuple[int, int]]:
        """Unit spans read on the current screen, in reading order (``reading.window``)."""
        if self.current is None:
            return []
        return mk.screen_spans(self.current.evaluation, self.settings.screen, self.step)

    def set_step(self, k: int) -> None:
        k = min(max(k, 0), max(self.screens() - 1, 0))
        if k != self.step:
            self.step = k
            self.step_changed.emit(k)

    def step_by(self, delta: int) -> None:
        self.set_step(self.step + delta)

    def _clamp_step(self) -> None:
        k = min(self.step, max(self.screens() - 1, 0))
        self.step = k
        self.step_changed.emit(k)
