"""readsim.core.paper_tables: tables for papers (reference 12.4), each output written out by hand."""

from __future__ import annotations

import pytest

from readsim.core.paper_tables import (Entry, PaperTable, escape_latex, escape_markdown, latex, markdown, write_table,
                                       write_tables)

TABLE = PaperTable(["", "Run", "AgP/F(0.25)", "MAP"],
                   [["a", "my_run 50% & #2", Entry("0.500000", bold=True, marks="b"), "n/a"],
                    ["b", "x|y*z", "0.250000", Entry("0.125000", bold=True)]],
                   "Means; bold: the best")


def test_latex_escapes_every_special_character_and_the_windows_symbols():
    assert escape_latex("my_run 50% & #2") == r"my\_run 50\% \& \#2"
    assert escape_latex(r"a\b{c}$~^") == r"a\textbackslash{}b\{c\}\$\textasciitilde{}\textasciicircum{}"
    assert escape_latex("iP[0.01] <x> |") == r"iP{[}0.01{]} \textless{}x\textgreater{} \textbar{}"
    assert escape_latex("a ≫ b, α 0.05, −0.1, τ ≤ 1") == r"a $\gg$ b, $\alpha$ 0.05, $-$0.1, $\tau$ $\leq$ 1"
    assert escape_latex("two\nlines") == "two lines"


def test_markdown_escapes_pipes_and_emphasis():
    assert escape_markdown("x|y*z") == r"x\|y\*z"
    assert escape_markdown("my_run <b> `c` [d]\\") == r"my\_run \<b\> \`c\` \[d\]\\"
    assert escape_markdown("two\nlines") == "two lines"


def test_latex_table_with_caption_rules_bold_and_marks():
    assert latex(TABLE) == "\n".join([
        r"\begin{table}",
        r"\centering",
        r"\caption{Means; bold: the best}",
        r"\begin{tabular}{llrr}",  # the letters and run names left, the numbers (n/a too) right
        r"\toprule",
        r" & Run & AgP/F(0.25) & MAP \\",
        r"\midrule",
        r"a & my\_run 50\% \& \#2 & \textbf{0.500000}$^{\mathrm{b}}$ & n/a \\",
        r"b & x\textbar{}y*z & 0.250000 & \textbf{0.125000} \\",
        r"\bottomrule",
        r"\end{tabular}",
        r"\end{table}", ""])


def test_markdown_table_with_caption_line():
    assert markdown(TABLE) == "\n".join([
        "|  | Run | AgP/F(0.25) | MAP |",
        "| --- | --- | ---: | ---: |",
        r"| a | my\_run 50% & #2 | **0.500000**<sup>b</sup> | n/a |",
        r"| b | x\|y\*z | 0.250000 | **0.125000** |",
        "",
        "Table: Means; bold: the best", ""])


def test_without_caption_a_bare_tabular_and_a_rule_above_the_mean_row():
    t = PaperTable(["Topic", "MAP"], [["1", "0.5"], ["2", "1"], ["all", "0.75"]], rules=(2,))
    assert latex(t) == "\n".join([r"\begin{tabular}{lr}", r"\toprule", r"Topic & MAP \\", r"\midrule",
                                  r"1 & 0.5 \\", r"2 & 1 \\", r"\midrule", r"all & 0.75 \\", r"\bottomrule",
                                  r"\end{tabular}", ""])
    assert markdown(t) == "| Topic | MAP |\n| --- | ---: |\n| 1 | 0.5 |\n| 2 | 1 |\n| all | 0.75 |\n"
    assert write_table(t, "markdown") == markdown(t)
    assert write_tables([t, t], "latex") == latex(t) + "\n" + latex(t)


def test_a_column_of_text_or_empty_cells_is_left_aligned():
    t = PaperTable(["a", "b", "c"], [["1e-05", "", "x"], ["-inf", "", "1"]])
    assert t.numeric() == [True, False, False]


def test_bad_tables_and_formats_are_errors():
    with pytest.raises(ValueError, match="row 2 has 1 cells, the header 2"):
        PaperTable(["a", "b"], [["1", "2"], ["3"]])
    with pytest.raises(ValueError, match="latex or markdown, not 'html'"):
        write_table(TABLE, "html")
