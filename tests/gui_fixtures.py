"""Fixtures every test that opens a window uses (tests/app and tests/hostile import them):
fresh QSettings per test, garbage collected in the GUI thread only."""

from __future__ import annotations

import gc
import random
import time

import pytest
from PySide6.QtCore import QSettings, QStandardPaths, QTimer


@pytest.fixture(autouse=True)
def gui_thread_gc():
    """No automatic garbage collection during a test: it could run in a worker thread and free
    an earlier test's Qt objects there (a deadlock; see readsim.app.background). Collect
    before and after, in this (the GUI) thread."""
    gc.collect()
    gc.disable()
    yield
    gc.enable()
    gc.collect()


@pytest.fixture(autouse=True)
def fresh_settings(tmp_path, qapp):
    """Every test reads and writes QSettings in its own temporary folder."""
    QStandardPaths.setTestModeEnabled(True)
    folder = str(tmp_path / "settings")
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, folder)
    yield folder


class Probe:
    """Ticks of a 10 ms timer in the GUI thread. Per turn between ticks: ``gaps`` the GUI
    thread's own CPU time (ms, ``time.thread_time``: the work our code did without letting the
    event loop turn), ``walls`` the wall time (ms; it also counts the time the machine gave to
    other processes, so it is reported, not judged, on a shared machine). The longest CPU gap
    is the longest stall."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self.walls: list[float] = []
        self.last = (time.thread_time(), time.perf_counter())
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self.tick)
        self.timer.start()

    def tick(self) -> None:
        now = (time.thread_time(), time.perf_counter())
        self.gaps.append((now[0] - self.last[0]) * 1000.0)
        self.walls.append((now[1] - self.last[1]) * 1000.0)
        self.last = now

    def stop(self) -> float:
        """Stop ticking; the longest stall (ms of the GUI thread's CPU time in one turn)."""
        self.timer.stop()
        self.tick()
        return max(self.gaps)

    def describe(self) -> str:
        worst = self.gaps.index(max(self.gaps))
        return (f"the GUI thread stalled {self.gaps[worst]:.0f} ms (turn {worst} of {len(self.gaps)}; "
                f"{self.walls[worst]:.0f} ms of wall time; longest wall turn {max(self.walls):.0f} ms)")


WORDS = "the page rank algorithm computes a probability distribution used to represent likelihood &amp; surfer".split()


def write_article(path, name: str, mb: float, seed: int = 1) -> None:
    """An INEX-shaped article of about ``mb`` MB: a header, sections of 200 paragraphs."""
    rnd = random.Random(seed)
    with open(path, "w", encoding="utf-8") as f:
        f.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<article>\n<header>\n<title>Article {name}</title>\n'
                f'<id>{name}</id>\n</header>\n<bdy>\n')
        n, sec = 0, 0
        while n < mb * 1e6:
            sec += 1
            paras = "".join("<p>" + " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(40, 160))) + "</p>\n"
                            for _ in range(200))
            chunk = f"<sec>\n<st>Section {sec}</st>\n{paras}</sec>\n"
            f.write(chunk)
            n += len(chunk)
        f.write("</bdy>\n</article>\n")
