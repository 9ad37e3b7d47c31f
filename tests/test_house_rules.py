"""The house rules, declared once in pyproject.toml and checked here:

- ``ruff check`` finds nothing ([tool.ruff]);
- ``lint-imports`` keeps every contract ([tool.importlinter]): the layers (the window and the
  command line over the operations and the public API over the engine); the engine, the operations
  and the command line import no Qt and no window, directly or not; the command line's modules never
  import their package; the window scores articles through the operations, not the engine's
  scoring modules;
- no import circle among the modules of the engine and the API, nor among the window's (a module
  graph, which import-linter's contracts do not express: its acyclic_siblings contract squashes
  packages), on the graph import-linter builds (grimp).

import-linter reads the package from the file system, so it is given the package as installed:
engine/ as ``readsim``, app/ as ``readsim.app`` (copied into a temporary folder; the editable
install maps app/ into engine's package, which grimp cannot follow)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, f"ruff check (see [tool.ruff] in pyproject.toml):\n{done.stdout}{done.stderr}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A folder holding the ``readsim`` package laid out as installed (what PYTHONPATH gets)."""
    top = tmp_path_factory.mktemp("installed")
    skip = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "engine", top / "readsim", ignore=skip)
    shutil.copytree(ROOT / "app", top / "readsim" / "app", ignore=skip)
    return top


def _run(installed: Path, code: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(installed)}
    return subprocess.run([sys.executable, "-c", code, *args], cwd=installed, env=env, capture_output=True, text=True)


LINT = ("import sys\nfrom importlinter.cli import lint_imports\n"
        "sys.exit(lint_imports(config_filenames=(sys.argv[1],), no_cache=True, no_logo=True))\n")


def test_import_contracts_are_kept(installed):
    done = _run(installed, LINT, str(ROOT / "pyproject.toml"))
    assert done.returncode == 0, f"lint-imports ([tool.importlinter] in pyproject.toml):\n{done.stdout}{done.stderr}"


# -- no import circle -------------------------------------------------------------------------------

GRAPH = ("import json, grimp\n"
         "g = grimp.build_graph('readsim', cache_dir=None, exclude_type_checking_imports=True)\n"
         "print(json.dumps({m: sorted(g.find_modules_directly_imported_by(m)) for m in g.modules}))\n")


@pytest.fixture(scope="module")
def graph(installed) -> dict[str, set[str]]:
    """``readsim``'s module graph: every import run, at the top of a file or inside a function (an
    import on demand closes a circle as well); not those under ``if TYPE_CHECKING:``, never run."""
    done = _run(installed, GRAPH)
    assert done.returncode == 0, done.stderr
    return {m: set(imported) for m, imported in json.loads(done.stdout).items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_cycles_finds_a_circle_and_only_circles():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_relative_and_on_demand_imports(graph):
    assert "readsim.cli.common" in graph["readsim.cli.evaluate_command"]  # from .common import ...
    assert "readsim.core.streams" in graph["readsim.cli"]  # from readsim.core import streams
    assert "readsim.cli.compare_command" in graph["readsim.cli"]  # from .compare_command import main, in a function
    assert "readsim.operations.evaluate" in graph["readsim.cli.evaluate_command"]  # the API's core, imported on demand
    assert {"readsim.app.widgets.runs_window", "readsim.app.widgets.elements_view"} <= graph[
        "readsim.app.widgets.on_demand"]  # the View entries import the windows they open, on demand


def _half(graph: dict[str, set[str]], inside) -> dict[str, set[str]]:
    return {m: {n for n in imported if inside(n)} for m, imported in graph.items() if inside(m)}


def test_no_import_circle_in_the_engine_and_the_api(graph):
    assert cycles(_half(graph, lambda m: m.startswith("readsim") and not m.startswith("readsim.app"))) == []


def test_no_import_circle_in_the_app(graph):
    """docs/architecture.md, "What each module must never import": the on-demand View entries
    import the windows they open; the windows never import them back."""
    assert cycles(_half(graph, lambda m: m.startswith("readsim.app"))) == []


# -- cite the user's reference, never the internal spec ---------------------------------------------

# "SPEC" + " section" and the like, spelled so that this file does not match itself
INTERNAL_SPEC = re.compile("\\b" + "SPEC" + r"(?:'s)?\s*(?:sections?\b|§|\d)")


def test_no_line_cites_the_internal_spec():
    """Code and documents cite docs/reference.md, the specification users have, by its section
    numbers; the internal spec (numbered differently) is never cited."""
    found = []
    for top in ("engine", "app", "tests", "bench", "docs"):
        for path in sorted((ROOT / top).rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            data = path.read_bytes()
            if b"\0" in data[:4096]:
                continue  # binary
            for n, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
                if INTERNAL_SPEC.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert found == [], "cite docs/reference.md's section instead:\n" + "\n".join(found)


def test_the_spec_rule_catches_the_spellings():
    spec = "SPEC"
    for cited in (f"{spec} section 2", f"{spec} sections 4-5", f"{spec} §3", f"{spec} 7.2", f"{spec}'s section 6"):
        assert INTERNAL_SPEC.search(cited), cited
    for fine in ("RESPECTED", "SPEC_STRICT = EXH_STRICT", "docs/reference.md section 2"):
        assert not INTERNAL_SPEC.search(fine), fine


def test_each_package_docstring_names_every_module_it_holds():
    """The module maps a new engineer reads first (engine/core, engine/operations, engine/cli)
    name every module of their folder: a module added without its line fails here."""
    import ast

    for folder in ("engine/core", "engine/operations", "engine/cli"):
        doc = ast.get_docstring(ast.parse((ROOT / folder / "__init__.py").read_text(encoding="utf-8"))) or ""
        names = {p.stem for p in (ROOT / folder).glob("*.py") if not p.stem.startswith("__")}
        names |= {p.name for p in (ROOT / folder).iterdir() if (p / "__init__.py").exists()}
        missing = sorted(n for n in names if f":mod:`.{n}`" not in doc)
        assert missing == [], f"{folder}/__init__.py's module map lacks {missing}"
