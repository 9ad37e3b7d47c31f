"""The house rules: engine/ never imports Qt or app/ (checked on the source and at run time); no
import circle among engine/'s modules, and the command line's modules never import their package."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from test_import_circles import cycles  # the app's check: one Tarjan for both halves

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


# -- no module imports back up, no import circle ----------------------------------------------------


def _module_name(path: Path) -> str:
    """The dotted name a file of engine/ is imported as (engine/api is the ``readsim`` package)."""
    rel = path.relative_to(ENGINE).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    if parts[:1] == ["api"]:
        return ".".join(["readsim", *parts[1:]])
    return ".".join(["readsim.engine", *parts])


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in ENGINE.rglob("*.py")}


def _imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that ``path`` imports anywhere (at the top or inside a
    function: an import on demand closes a circle as well); ``from P import x`` counts ``P.x``
    where ``x`` is a submodule, else ``P`` (whose ``__init__`` gives ``x``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            base = base[:len(base) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])]) if node.level else node.module
            targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in known else module for a in node.names]
        else:
            continue
        found |= {t for t in targets if t in known and t != name}
    return found


def _graph() -> dict[str, set[str]]:
    known = _modules()
    return {name: _imports(name, path, known) for name, path in known.items()}


def test_the_graph_sees_relative_and_on_demand_imports():
    graph = _graph()
    assert "readsim.engine.cli.common" in graph["readsim.engine.cli.evaluate"]  # from .common import ...
    assert "readsim.engine.streams" in graph["readsim.engine.cli"]  # from .. import streams
    assert "readsim.engine.cli.compare" in graph["readsim.engine.cli"]  # from .compare import main, in a function
    assert "readsim._evaluate" in graph["readsim.engine.cli.evaluate"]  # the API's core, imported on demand
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circle_in_the_engine():
    assert cycles(_graph()) == []


def test_command_line_modules_never_import_their_package():
    graph = _graph()
    subcommands = [n for n in graph if n.startswith("readsim.engine.cli.") and n != "readsim.engine.cli.__main__"]
    assert {"readsim.engine.cli.common", "readsim.engine.cli.evaluate", "readsim.engine.cli.compare",
            "readsim.engine.cli.fidelity", "readsim.engine.cli.elements"} <= set(subcommands)
    assert {n: "readsim.engine.cli" for n in subcommands if "readsim.engine.cli" in graph[n]} == {}
    # and the shared module imports none of the subcommands
    assert {m for m in graph["readsim.engine.cli.common"] if m.startswith("readsim.engine.cli.")} == set()
