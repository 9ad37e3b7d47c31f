"""The house rule: engine/ never imports Qt or app/ (checked on the source and at run time)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "engine"
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "pyqtgraph", "readsim.app", "app")


def test_engine_sources_import_no_qt_and_no_app():
    offenders = []
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.ImportFrom) and node.level >= 2 and (node.module or "").startswith("app"):
                names = ["app"]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN or n.startswith("readsim.app")]
    assert offenders == []


def test_importing_the_whole_engine_loads_no_qt():
    code = (
        "import pkgutil, importlib, sys, readsim, readsim.engine as e\n"
        # engine/api is the readsim package (the public API), imported as readsim only
        "names = [m.name for m in pkgutil.walk_packages(e.__path__, 'readsim.engine.') if not m.name.startswith('readsim.engine.api')]\n"
        "names += [m.name for m in pkgutil.iter_modules(readsim.__path__, 'readsim.')]\n"
        "for name in names: importlib.import_module(name)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph') or m.startswith('readsim.app')]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
