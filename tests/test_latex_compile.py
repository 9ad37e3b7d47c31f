"""The LaTeX tables compile (reference 12.4): ``readsim-eval --format latex`` (plain and ``-q``),
``compare --format latex`` and every escaped character, in a document whose preamble loads only
booktabs, through pdflatex (or lualatex). Skipped where no LaTeX engine is installed, except
under CI (``CI=true``; .ci/run installs one), where its absence fails."""

from __future__ import annotations

import pytest

from helpers.cli import run_cli
from helpers.latex import compile_tables, latex_engine
from readsim.core.paper_tables import LATEX_ESCAPES, PaperTable, latex


@pytest.fixture(scope="module")
def engine() -> str:
    return latex_engine()


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


def test_a_long_topic_table_breaks_across_pages(engine, tmp_path):
    # 118 topics do not fit a page: a float of them is "Float too large" and runs off the page; a
    # longtable breaks, its header repeated on each page (reference 12.4)
    rows = [[f"2009{k:03d}", f"0.{k:06d}"] for k in range(1, 119)] + [["all", "0.500000"]]
    table = PaperTable(["topic", "AgP/F(0.25)"], rows, caption="one run's topics", rules=(118,))
    text = latex(table)
    assert text.startswith("\\begin{longtable}{lr}") and text.count("topic & AgP/F(0.25)") == 2
    log = compile_tables(engine, tmp_path, [text])
    assert "Float too large" not in log and "Overfull \\vbox" not in log
    assert "Output written on t.pdf (3 pages" in log.replace("\n", "")


def test_a_short_table_stays_a_float(engine, tmp_path):
    table = PaperTable(["run", "MAP"], [["a", "0.1"], ["b", "0.2"]], caption="two runs")
    assert latex(table).startswith("\\begin{table}\n\\centering\n\\caption{two runs}\n\\begin{tabular}{lr}")
