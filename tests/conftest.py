"""Shared fixtures: the real INEX data (``READSIM_DATA``, default ``../shared/data/inex``) and Chroma's
chunking-evaluation spans (``READSIM_CHROMA_DATA``, default ``../shared/data/chroma-chunking``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

# the GUI tests render offscreen unless the caller chose a platform (no windows flash by), on one
# 1,920 x 1,080 screen (offscreen-screen.json; Qt's own offscreen screen is 800 x 800): the main
# window opens at its default 1,600 x 1,000 there, as on a desktop (app/widgets/placement.py)
if os.environ.get("QT_QPA_PLATFORM", "offscreen") == "offscreen":
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={Path(__file__).resolve().parent / 'offscreen-screen.json'}"

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("READSIM_DATA", ROOT.parent / "shared" / "data" / "inex"))
CHROMA = Path(os.environ.get("READSIM_CHROMA_DATA", ROOT.parent / "shared" / "data" / "chroma-chunking"))

# Compiled bytecode is cached even where PYTHONDONTWRITEBYTECODE is set (as in this project's
# environment): without it, every run, and every readsim-eval the tests start, compiles the
# engine, the window and the tests again from source (about 18 s of the fast tier's collection
# alone), and numpy, scipy or lxml where pip left no .pyc. The .pyc files go where Python keeps
# them, __pycache__/ beside each module (ignored by git; the virtual environment's are pip's own:
# a separate cache folder, sys.pycache_prefix, made Python ignore those and compile all of
# site-packages again on a clean clone, in every process that started before it was filled);
# child processes are told the same.
if sys.dont_write_bytecode:
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


@pytest.fixture(scope="session")
def inex() -> Path:
    """The real INEX 2009/2010 data folder; tests using it skip only when it is absent, and
    under CI (``CI=true``, as .ci/run sets it) they fail instead: CI never passes by skipping."""
    if not (DATA / "qrels" / "inex2009-2010.qrels").is_file():
        message = f"real INEX data not found at {DATA} (set READSIM_DATA)"
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(f"{message}: CI runs the real-data tests, it does not skip them", pytrace=False)
        pytest.skip(message)
    return DATA


@pytest.fixture(scope="session")
def chroma() -> Path:
    """Chroma's chunking-evaluation data (questions, JSON Lines qrels and runs); skipped when
    absent, failed under CI, as :func:`inex`."""
    if not (CHROMA / "qrels.jsonl").is_file():
        message = f"chroma-chunking data not found at {CHROMA} (set READSIM_CHROMA_DATA)"
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(f"{message}: CI runs the real-data tests, it does not skip them", pytrace=False)
        pytest.skip(message)
    return CHROMA


# -- what every test that opens a window uses: tests/app/ and tests/hostile/ use both automatically
# (their conftest.py), tests/test_window_on_api.py by its pytestmark --------------------------------


@pytest.fixture
def gui_thread_gc():
    """No automatic garbage collection during a test: it could run in a worker thread and free
    an earlier test's Qt objects there (a deadlock; see readsim.app.background). Collect
    before and after, in this (the GUI) thread. What is alive when the test starts (modules, the
    session's data, the module's fixtures) is then frozen out of the collector's sight
    (``gc.freeze``, as the window does): a full collection walked it all, about 0.25 s twice a
    test, some 6 minutes of the gui tier. It stays frozen: reference counting still frees it,
    and a module's windows are closed and deleted (``deleteLater``) by their fixtures. Unfreezing
    everything at each module's end made the next module's first collection walk the whole
    heap again (0.2 to 0.3 s a module, a tenth of the window tests' CPU)."""
    import gc

    gc.collect()
    gc.freeze()
    gc.disable()
    yield
    gc.enable()
    _delete_later_now()
    gc.collect()
    _delete_later_now()  # what the collection freed may have asked deleteLater


def _delete_later_now() -> None:
    """Delete now what asked to be deleted later (``deleteLater``: pytest-qt's closed widgets,
    ``--screenshot``'s window). Qt does that only in an event loop started after the call, and
    none is: ``processEvents`` and pytest-qt's waits leave them, so every test's windows stayed
    alive to the end of the session (3 GB; each window's start walked all the earlier ones' widgets)."""
    from PySide6.QtCore import QCoreApplication, QEvent

    if QCoreApplication.instance() is not None:
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture
def fresh_settings(tmp_path, qapp):
    """Every test reads and writes QSettings in its own temporary folder."""
    from PySide6.QtCore import QSettings, QStandardPaths  # here: the engine's tests load no Qt

    QStandardPaths.setTestModeEnabled(True)
    folder = str(tmp_path / "settings")
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, folder)
    yield folder


# -- readsim-eval compare's hand-worked runs (tests/test_cli_compare.py, test_cli_compare_topics.py) --


@pytest.fixture
def files(tmp_path):
    """The hand-worked qrels and runs of :mod:`helpers.cli` written to files: name -> path."""
    from helpers.cli import BAD, GOOD, MID, PART, QRELS

    paths = {}
    for name, text in {"q.qrels": QRELS, "good.run": GOOD, "mid.run": MID, "bad.run": BAD, "part.run": PART}.items():
        (tmp_path / name).write_text(text)
        paths[name.split(".")[0]] = tmp_path / name
    return paths


# -- the test tiers (pyproject.toml's markers; README, "Tests") ----------------------------------


def _is_gui(item: pytest.Item) -> bool:
    """Builds Qt widgets or windows: tests/app/, the hostile suite's window rows, a test using
    ``qtbot`` (itself or through a fixture) or asking for ``qapp`` itself (not through the
    hostile suite's automatic fresh settings, which every hostile row gets)."""
    path = Path(str(item.path))
    parts = path.relative_to(ROOT / "tests").parts
    if parts[0] == "app" or (parts[0] == "hostile" and path.name.startswith("test_window_")):
        return True
    if "qtbot" in getattr(item, "fixturenames", ()):
        return True
    function = getattr(item, "function", None)
    return function is not None and "qapp" in function.__code__.co_varnames[:function.__code__.co_argcount]


#: the tests outside the gui tier that took more than about 2 s (``pytest --durations=0``, see
#: README's "Tests"), one node id or ``path::function`` (every row) a line; measure again and edit
#: this list when a test becomes fast or slow
SLOW_TESTS = Path(__file__).with_name("slow-tests.txt")


def _slow_ids() -> set[str]:
    lines = SLOW_TESTS.read_text(encoding="utf-8").splitlines()
    return {line.split("#")[0].strip() for line in lines} - {""}


def pytest_collection_modifyitems(config, items):
    slow = _slow_ids()
    for item in items:
        if _is_gui(item):
            item.add_marker(pytest.mark.gui)
        if item.nodeid in slow or item.nodeid.split("[")[0] in slow:
            item.add_marker(pytest.mark.slow)


def _freeze() -> None:
    """Collect, then move everything still alive out of the garbage collector's sight
    (:func:`gc.freeze`): reference counting still frees it, but a full collection, run by
    ``gui_thread_gc`` twice for every GUI and hostile test and by Python itself, no longer walks it."""
    import gc

    gc.collect()
    gc.freeze()


def pytest_collection_finish(session):
    """Everything alive once the tests are collected (the imported modules, numpy, scipy, Qt's
    bindings, every test function and its parameters) lives to the end of the session. Unfrozen,
    each full collection walked it all: a fifth of a second, over a thousand times in the fast
    tier (about 120 s of its CPU)."""
    _freeze()


_last_module: list[object] = [None]


def pytest_runtest_setup(item):
    """At the first window test of each module, the previous module's fixtures are gone: what is
    alive now (the engine's caches, session fixtures) stays, so it is frozen too, before
    :func:`gui_thread_gc`'s full collections around each test would walk it. Modules without
    windows leave collection to Python: a freeze at each walked all the previous module left,
    0.1 to 0.3 s a module, a tenth of the fast tier's CPU (205 -> 182 s)."""
    if item.module is not _last_module[0] and _is_gui(item):
        _last_module[0] = item.module
        _freeze()
