"""The main window declares its parts (docs/architecture.md §3): only ``app/mainwindow.py`` sets
attributes of a window, and no module asks a window whether it has one (getattr/hasattr)."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"
WINDOW_NAMES = {"window", "win", "main_window"}


def _is_window(node: ast.AST) -> bool:
    """``window`` (or ``win``), or ``anything.window``."""
    return ((isinstance(node, ast.Name) and node.id in WINDOW_NAMES)
            or (isinstance(node, ast.Attribute) and node.attr in WINDOW_NAMES))


def offences(tree: ast.AST) -> list[str]:
    out = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
        for t in targets:
            for e in ast.walk(t):
                if isinstance(e, ast.Attribute) and isinstance(e.ctx, ast.Store) and _is_window(e.value):
                    out.append(f"line {node.lineno}: sets {ast.unparse(e)}")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr", "setattr") and node.args and _is_window(node.args[0])):
            out.append(f"line {node.lineno}: {ast.unparse(node)}")
    return out


def test_the_check_sees_the_three_ways():
    src = "window.a = 1\nself.window.b, c = 2, 3\ngetattr(window, 'd', None)\nhasattr(self.window, 'e')\nsetattr(win, 'f', 1)\n"
    assert len(offences(ast.parse(src))) == 5


def test_only_the_main_window_sets_its_parts_and_no_module_probes_for_them():
    found = {str(p.relative_to(APP)): offences(ast.parse(p.read_text(encoding="utf-8")))
             for p in APP.rglob("*.py") if p.name != "mainwindow.py"}
    assert {k: v for k, v in found.items() if v} == {}
