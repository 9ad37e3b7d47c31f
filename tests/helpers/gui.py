"""What tests that open a window share: the freeze guards (:class:`Probe`, :func:`assert_answers`),
screenshots kept for a person (:func:`keep_shot`), big generated articles (:func:`write_article`),
the real data as the ``readsim`` command's arguments (:func:`real_args`) and a dialog accepted
with the test's choices (:func:`accept`). The fixtures every such test uses (``gui_thread_gc``,
``fresh_settings``) are in tests/conftest.py."""

from __future__ import annotations

import os
import random
import shutil
import threading
import time

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QDialog


# The no-stall aim (docs/reference.md, the window): the event loop turns at least every 100 ms.
# Tests never assert that aim (CI is a busy 2-core machine); bench/bench_loading.py and
# bench/bench_gui.py measure it. Tests guard only against a FREEZE, 10x the aim:
STALL_AIM_MS = 100.0
FREEZE_MS = 10 * STALL_AIM_MS


class Probe:
    """Freeze guard: ticks of a 10 ms timer in the GUI thread. ``gaps``: per turn between ticks,
    the GUI thread's own CPU time (ms, ``time.thread_time``: the work our code did without
    letting the event loop turn; what other processes took from a shared machine is not
    counted). The only clock the tests read, here and only for :meth:`assert_no_freeze`, whose
    bound :data:`FREEZE_MS` is 10x the aim."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self.last = time.thread_time()
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self.tick)
        self.timer.start()

    def tick(self) -> None:
        now = time.thread_time()
        self.gaps.append((now - self.last) * 1000.0)
        self.last = now

    def stop(self) -> float:
        """Stop ticking; the longest stall (ms of the GUI thread's CPU time in one turn)."""
        self.timer.stop()
        self.tick()
        return max(self.gaps)

    def assert_no_freeze(self) -> None:
        """Stop ticking; fail if one turn took :data:`FREEZE_MS` or more of the GUI thread's CPU."""
        longest = self.stop()
        worst = self.gaps.index(longest)
        assert longest < FREEZE_MS, (f"the GUI thread froze: {longest:.0f} ms of CPU in one turn "
                                     f"(turn {worst} of {len(self.gaps)}; guard {FREEZE_MS:.0f} ms)")


def assert_answers(qtbot, within_ms: float = FREEZE_MS) -> None:
    """Freeze guard, no clock read: a zero-delay timer posted now fires before a watchdog thread
    (``threading.Timer``) of ``within_ms`` wall time goes off (default 10x the 100 ms aim)."""
    fired, late = threading.Event(), threading.Event()
    watchdog = threading.Timer(within_ms / 1000.0, lambda: None if fired.is_set() else late.set())
    watchdog.start()
    QTimer.singleShot(0, fired.set)
    try:
        qtbot.waitUntil(lambda: fired.is_set() or late.is_set(), timeout=int(within_ms * 10))
    finally:
        watchdog.cancel()
    assert fired.is_set() and not late.is_set(), f"the window did not answer within {within_ms:.0f} ms"


def keep_shot(path) -> None:
    """A screenshot a test saved (under its own ``tmp_path``) is also copied, for a person to
    look at, into the folder ``READSIM_SHOTS`` names, when that variable is set; tests never
    write anywhere else."""
    folder = os.environ.get("READSIM_SHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        shutil.copyfile(path, os.path.join(folder, os.path.basename(path)))


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
            paras = "".join("<p>" + " ".join(rnd.choices(WORDS, k=rnd.randint(40, 160))) + "</p>\n"
                            for _ in range(200))
            chunk = f"<sec>\n<st>Section {sec}</st>\n{paras}</sec>\n"
            f.write(chunk)
            n += len(chunk)
        f.write("</bdy>\n</article>\n")


def real_args(inex) -> list[str]:
    """The real data as ``readsim``'s command line: collection, qrels, bert-passages.run, topics."""
    return ["--collection", str(inex / "articles"), "--qrels", str(inex / "qrels" / "inex2009-2010.qrels"),
            "--run", str(inex / "runs" / "bert-passages.run"), "--topics", str(inex / "topics" / "inex2009-topics.xml")]


def accept(monkeypatch, cls, setup) -> None:
    """``cls.exec`` (a dialog) calls ``setup(dialog)`` then returns Accepted, as if the user chose."""
    def exec_(self):
        setup(self)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(cls, "exec", exec_)
