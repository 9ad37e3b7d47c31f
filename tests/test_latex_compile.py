"""The LaTeX tables compile (reference 12.4): ``readsim-eval --format latex`` (plain and ``-q``),
``compare --format latex`` and every escaped character, in a document whose preamble loads only
booktabs, through pdflatex (or lualatex). Skipped where no LaTeX engine is installed, except
under CI (``CI=true``; .ci/run installs one), where its absence fails."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from helpers.cli import run_cli
from readsim.core.paper_tables import LATEX_ESCAPES, PaperTable, latex


@pytest.fixture(scope="module")
def engine() -> str:
    found = shutil.which("pdflatex") or shutil.which("lualatex")
    if found is None:
        message = "no LaTeX engine (pdflatex or lualatex) on PATH"
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(f"{message}: CI installs one (.ci/run) and compiles the tables", pytrace=False)
        pytest.skip(message)
    return found


def compile_tables(engine: str, folder, tables: list[str]) -> str:
    """The log of a document of ``tables``; fails the test when the engine reports an error."""
    preamble = "\\documentclass{article}\n\\usepackage{booktabs}\n\\tracinglostchars=1\n\\begin{document}\n"
    (folder / "t.tex").write_text(preamble + "\n".join(tables) + "\\end{document}\n", encoding="utf-8")
    done = subprocess.run([engine, "-interaction=nonstopmode", "-halt-on-error", "t.tex"], cwd=folder,
                          capture_output=True, text=True, timeout=300)
    log = (folder / "t.log").read_text(encoding="utf-8", errors="replace")
    assert done.returncode == 0, log[-3000:]
    assert (folder / "t.pdf").stat().st_size > 0
    return log


def test_the_command_lines_tables_compile(engine, files, tmp_path):
    run = tmp_path / "odd.run"
    run.write_text("".join(f"{t} Q0 a 1 1 my_run%1&#x~^$ 0 10\n" for t in (1, 2, 3)))
    tables = []
    for argv in ([files["q"], run, files["mid"], "-m", "AgP/F(0.25)", "-m", "iP[0.01]", "-m", "num_rel_ret"],
                 [files["q"], run, files["bad"], "-q"],
                 ["compare", files["q"], run, files["mid"], files["bad"], "--test", "t"]):
        code, out, err = run_cli(*argv, "--format", "latex")
        assert code == 0, err
        tables.append(out)
    log = compile_tables(engine, tmp_path, tables)
    assert "Misplaced" not in log and "Undefined control sequence" not in log


def test_every_escaped_character_compiles(engine, tmp_path):
    every = "".join(LATEX_ESCAPES)
    table = PaperTable(["run", "a & b", "c"], [[every, "0.5", "[0.1, 0.2]"], ["[first]", "-", "x"]], caption=every)
    log = compile_tables(engine, tmp_path, [latex(table)])
    assert "Missing character" not in log
