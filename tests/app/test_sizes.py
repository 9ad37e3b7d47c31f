"""The app stays in pieces a reader can hold: no module of app/ over 600 lines, no class over 400
(split a part by what it holds: docs/architecture.md §3)."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"
MODULE_LINES, CLASS_LINES = 600, 400


def test_no_module_over_600_lines_and_no_class_over_400():
    over = []
    for p in sorted(APP.rglob("*.py")):
        text = p.read_text(encoding="utf-8")
        if len(text.splitlines()) > MODULE_LINES:
            over.append(f"{p.relative_to(APP)}: {len(text.splitlines())} lines")
        over += [f"{p.relative_to(APP)}: class {c.name}: {c.end_lineno - c.lineno + 1} lines"
                 for c in ast.walk(ast.parse(text)) if isinstance(c, ast.ClassDef)
                 and c.end_lineno - c.lineno + 1 > CLASS_LINES]
    assert over == []
