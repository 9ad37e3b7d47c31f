"""A LaTeX engine for the tables' compile tests (tests/test_latex_compile.py, tests/app/test_table_copy.py):
:func:`latex_engine` finds pdflatex or lualatex (skips the test without one, fails it under CI),
:func:`compile_tables` compiles tables in a document whose preamble loads only booktabs and longtable."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest


def latex_engine() -> str:
    """The path of pdflatex (or lualatex); the test is skipped without one, except under CI
    (``CI=true``; .ci/run installs one), where it fails."""
    found = shutil.which("pdflatex") or shutil.which("lualatex")
    if found is None:
        message = "no LaTeX engine (pdflatex or lualatex) on PATH"
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(f"{message}: CI installs one (.ci/run) and compiles the tables", pytrace=False)
        pytest.skip(message)
    return found


def compile_tables(engine: str, folder: Path, tables: list[str]) -> str:
    """The log of a document of ``tables`` compiled in ``folder``; fails the test when the engine
    reports an error or writes no PDF."""
    preamble = "\\documentclass{article}\n\\usepackage{booktabs}\n\\usepackage{longtable}\n\\tracinglostchars=1\n\\begin{document}\n"
    (folder / "t.tex").write_text(preamble + "\n".join(tables) + "\\end{document}\n", encoding="utf-8")
    done = subprocess.run([engine, "-interaction=nonstopmode", "-halt-on-error", "t.tex"], cwd=folder,
                          capture_output=True, text=True, timeout=300)
    log = (folder / "t.log").read_text(encoding="utf-8", errors="replace")
    assert done.returncode == 0, log[-3000:]
    assert (folder / "t.pdf").stat().st_size > 0
    return log
