"""The engine never loads Qt or the window at run time: importing every module of the engine and of
the Python API, in a fresh interpreter, loads no PySide6, shiboken6, pyqtgraph or readsim.app.
The static rules (no such import in the source, the command line's modules, the window on the API's
core) are import-linter contracts in pyproject.toml; they and the import circles are checked by
tests/test_house_rules.py."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_whole_engine_loads_no_qt():
    code = (
        "import pkgutil, importlib, sys, readsim\n"
        # engine/ is the readsim package: every module below it (readsim.app is app/, not walked)
        "names = [m.name for m in pkgutil.walk_packages(readsim.__path__, 'readsim.')]\n"
        "assert {'readsim.core.reading', 'readsim.operations.evaluate', 'readsim.cli.common', 'readsim.elements'} <= set(names)\n"
        "for name in names: importlib.import_module(name)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph') or m.startswith('readsim.app')]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
