"""The engine and the app stay in pieces a reader can hold: no module of engine/ or app/ over 600
lines, no class over 400 (split a part by what it holds: docs/architecture.md §2 and §3); the README a
front door of at most 300 lines."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = (ROOT / "engine", ROOT / "app")
MODULE_LINES, CLASS_LINES = 600, 400


def test_no_module_over_600_lines_and_no_class_over_400():
    over = []
    for p in sorted(p for folder in FOLDERS for p in folder.rglob("*.py")):
        text = p.read_text(encoding="utf-8")
        if len(text.splitlines()) > MODULE_LINES:
            over.append(f"{p.relative_to(ROOT)}: {len(text.splitlines())} lines")
        over += [f"{p.relative_to(ROOT)}: class {c.name}: {c.end_lineno - c.lineno + 1} lines"
                 for c in ast.walk(ast.parse(text)) if isinstance(c, ast.ClassDef)
                 and c.end_lineno - c.lineno + 1 > CLASS_LINES]
    assert over == []


def test_the_readme_is_a_front_door_of_at_most_300_lines():
    """README.md: what readsim is, the two commands, a picture, each user's first steps, links;
    the manuals are in docs/, the figures in bench/README.md."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines: move a manual's part to docs/"
