"""The hostile suite keeps its promise: at least 80 rows, across every kind of input, each
with a stated outcome and a unique id."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from .cases import OUTCOMES, Case


def all_cases() -> dict[str, list[Case]]:
    out = {}
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if info.name.startswith("test_") and info.name != "test_suite_size":
            module = importlib.import_module(f".{info.name}", __package__)
            out[info.name] = list(getattr(module, "CASES", []))
    return out


def test_at_least_80_cases_with_stated_outcomes():
    cases = all_cases()
    rows = [c for module in cases.values() for c in module]
    assert len(rows) >= 80, {k: len(v) for k, v in cases.items()}
    assert all(c.outcome in OUTCOMES and c.input for c in rows)
    for module, module_cases in cases.items():
        ids = [c.id for c in module_cases]
        assert len(ids) == len(set(ids)), module
