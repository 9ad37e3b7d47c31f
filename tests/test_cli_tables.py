"""``readsim-eval --format latex|markdown`` and ``readsim-eval compare --format latex|markdown``
(tables for papers, reference 12.4): hand-worked runs, escaped run ids, usage errors, and on the
real data every number of the tables parsed back and compared with the tsv output's."""

from __future__ import annotations

import re
import warnings

import pytest

from helpers.cli import records, run_cli

_UNESCAPE = {r"\_": "_", r"\%": "%", r"\&": "&", r"\#": "#", r"\$": "$"}


def latex_rows(text: str) -> list[list[list[str]]]:
    """Each tabular's or longtable's rows (the header first), each cell's text unescaped, bold and marks kept
    apart: a cell is ``[text, 'bold' or '', marks]``."""
    tables, rows, header_next, repeated = [], None, False, False
    for line in text.splitlines():
        if line in (r"\endfirsthead", r"\endfoot"):  # a longtable's repeated header and its foot
            repeated = line == r"\endfirsthead"
        elif repeated:
            continue
        elif line == r"\toprule":
            rows, header_next = [], True
        elif line in (r"\bottomrule", r"\end{longtable}") and rows is not None:
            tables.append(rows)
            rows = None
        elif rows is not None and line.endswith(r" \\"):
            rows.append([_latex_cell(c) for c in line[:-3].split(" & ")])
            header_next = False
    assert not header_next
    return tables


def _latex_cell(cell: str) -> list[str]:
    marks = re.search(r"\$\^\{\\mathrm\{(\w+)\}\}\$$", cell)
    cell = cell[:marks.start()] if marks else cell
    bold = re.fullmatch(r"\\textbf\{(.*)\}", cell)
    cell = bold.group(1) if bold else cell
    for escaped, ch in _UNESCAPE.items():
        cell = cell.replace(escaped, ch)
    return [cell, "bold" if bold else "", marks.group(1) if marks else ""]


def markdown_rows(text: str) -> list[list[list[str]]]:
    """Each pipe table's rows (the header first), cells as :func:`latex_rows`."""
    tables, rows = [], None
    for line in text.splitlines():
        if line.startswith("| ") and rows is None:
            rows = []
        if rows is not None and not line.startswith("| "):
            tables.append(rows)
            rows = None
        if rows is not None and not set(line) <= set("|-: "):
            rows.append([_markdown_cell(c) for c in line[2:-2].split(" | ")])
    if rows is not None:
        tables.append(rows)
    return tables


def _markdown_cell(cell: str) -> list[str]:
    marks = re.search(r"<sup>(\w+)</sup>$", cell)
    cell = cell[:marks.start()] if marks else cell
    bold = re.fullmatch(r"\*\*(.*)\*\*", cell)
    cell = bold.group(1) if bold else cell
    return [cell.replace("\\_", "_"), "bold" if bold else "", marks.group(1) if marks else ""]


def texts(table: list[list[list[str]]]) -> list[list[str]]:
    return [[c[0] for c in row] for row in table]


def tsv_values(out: str) -> dict[tuple[str, str, str], str]:
    """``readsim-eval``'s tsv rows: (run, topic, measure) -> the value as printed."""
    values, run = {}, None
    for line in out.splitlines():
        measure, topic, value = line.split("\t")
        if measure == "runid":
            run = value
        else:
            values[(run, topic, measure)] = value
    return values


# -- hand-worked: three topics, 'a' relevant [0, 10) of 100 (tests/helpers/cli.py) -----------------
# AgP: good 1, 1, 1 (mean 1); mid 1/2, 1, 1/2 (mean 2/3); bad 0, 0, 0


def test_runs_by_measures_in_latex_and_markdown(files):
    code, out, err = run_cli(files["q"], files["bad"], files["mid"], files["good"], "-m", "AgP/F(0.25)", "-m",
                             "num_rel_ret", "--format", "latex")
    assert code == 0, err
    assert out == "\n".join([
        r"\begin{table}", r"\centering",
        r"\caption{Each run's mean over its judged topics (3 topics; readsim-eval)}",
        r"\begin{tabular}{lrr}", r"\toprule", r"Run & AgP/F(0.25) & num\_rel\_ret \\", r"\midrule",
        r"bad & 0.000000 & 0 \\", r"mid & 0.666667 & 3 \\", r"good & 1.000000 & 3 \\",
        r"\bottomrule", r"\end{tabular}", r"\end{table}", ""])
    code, out, _ = run_cli(files["q"], files["bad"], files["mid"], files["good"], "--format", "markdown")
    assert out.splitlines()[:5] == ["| Run | AgP/F(0.25) |", "| --- | ---: |", "| bad | 0.000000 |",
                                    "| mid | 0.666667 |", "| good | 1.000000 |"]


def test_per_topic_one_table_per_run_with_the_mean_under_a_rule(files):
    code, out, err = run_cli(files["q"], files["mid"], files["good"], "-q", "--format", "latex")
    assert code == 0, err
    first, second = out.split("\n\n")
    assert r"\caption{Run mid: each topic's value and ('all') the mean over the run's 3 judged topics " \
           r"(readsim-eval -q)}" in first
    assert first.splitlines()[6:13] == [r"\midrule", r"1 & 0.500000 \\", r"2 & 1.000000 \\", r"3 & 0.500000 \\",
                                        r"\midrule", r"all & 0.666667 \\", r"\bottomrule"]
    assert texts(latex_rows(second)[0])[1:] == [["1", "1.000000"], ["2", "1.000000"], ["3", "1.000000"],
                                                ["all", "1.000000"]]
    code, out, _ = run_cli(files["q"], files["mid"], "-q", "--format", "markdown")
    assert texts(markdown_rows(out)[0]) == [["Topic", "AgP/F(0.25)"], ["1", "0.500000"], ["2", "1.000000"],
                                            ["3", "0.500000"], ["all", "0.666667"]]


def test_compare_table_bold_best_and_the_letters_of_significance(files):
    # paired t-test (tests/test_cli_compare.py): good > bad p = 0, mid > bad t = 4, p = 0.0286,
    # good > mid t = 2, p = 0.0918: a = bad, b = mid, c = good; c beats a, b beats a
    code, out, err = run_cli("compare", files["q"], files["bad"], files["mid"], files["good"], "--test", "t",
                             "--format", "markdown")
    assert code == 0, err
    assert out == "\n".join([
        "|  | Run | AgP/F(0.25) |", "| --- | --- | ---: |", "| a | bad | 0.000000 |",
        "| b | mid | 0.666667<sup>a</sup> |", "| c | good | **1.000000**<sup>a</sup> |", "",
        "Table: Mean of each measure; bold: the best mean of a measure; superscript letters: the runs whose mean "
        "this one is significantly better than (3 runs on 3 paired topics; one-tailed paired t-test, alpha 0.05)",
        ""])
    code, out, _ = run_cli("compare", files["q"], files["bad"], files["mid"], files["good"], "--test", "t",
                           "--format", "latex")
    assert latex_rows(out)[0][1:] == [[["a", "", ""], ["bad", "", ""], ["0.000000", "", ""]],
                                      [["b", "", ""], ["mid", "", ""], ["0.666667", "", "a"]],
                                      [["c", "", ""], ["good", "", ""], ["1.000000", "bold", "a"]]]


def test_the_caption_says_what_was_not_the_default(files):
    # -c: 'part' lacks topic 3, an empty ranking there: AgP 1, 1, 0, mean 2/3; good 1
    code, out, err = run_cli("compare", files["q"], files["good"], files["part"], "--test", "t", "-c", "--condensed",
                             "--reading", "worst", "--format", "markdown")
    assert code == 0, err
    assert "| b | part | 0.666667 |" in out.splitlines()
    assert out.splitlines()[-1].endswith("(2 runs on 3 paired topics; one-tailed paired t-test, alpha 0.05; every "
                                         "judged topic paired, a missing one as an empty ranking; condensed lists "
                                         "(unjudged articles removed); worst reading order)")


def test_run_ids_are_escaped(tmp_path, files):
    run = tmp_path / "odd.run"
    run.write_text("".join(f"{t} Q0 a 1 1 my_run%1&#x 0 10\n" for t in (1, 2, 3)))
    code, out, _ = run_cli(files["q"], run, "--format", "latex")
    assert r"my\_run\%1\&\#x & 1.000000 \\" in out
    code, out, _ = run_cli("compare", files["q"], run, files["bad"], "--test", "t", "--format", "latex")
    assert r"a & my\_run\%1\&\#x & \textbf{1.000000}$^{\mathrm{b}}$ \\" in out
    code, out, _ = run_cli(files["q"], run, "--format", "markdown")
    assert r"| my\_run%1&#x | 1.000000 |" in out


def test_topic_ids_are_escaped(tmp_path):
    # JSON Lines spans (reference 2.11): topic "q_1%&#" with 'd' relevant [0, 10) of 100, retrieved exactly:
    # gP[1] = F_0.25 = 1, AgP = 1; topic "q2" retrieves nothing relevant: AgP 0; mean 1/2
    qrels, run = tmp_path / "q.jsonl", tmp_path / "r.jsonl"
    qrels.write_text('{"topic": "q_1%&#", "doc": "d", "start": 0, "end": 10, "doc_length": 100}\n'
                     '{"topic": "q2", "doc": "d", "start": 0, "end": 10, "doc_length": 100}\n')
    run.write_text('{"topic": "q_1%&#", "doc": "d", "start": 0, "end": 10, "run": "r"}\n'
                   '{"topic": "q2", "doc": "e", "start": 0, "end": 10, "run": "r"}\n')
    code, out, err = run_cli(qrels, run, "-q", "--format", "latex")
    assert code == 0, err
    assert out.splitlines()[6:11] == [r"\midrule", r"q2 & 0.000000 \\", r"q\_1\%\&\# & 1.000000 \\", r"\midrule",
                                      r"all & 0.500000 \\"]  # the topics in the tsv's order
    code, out, _ = run_cli(qrels, run, "-q", "--format", "markdown")
    assert r"| q\_1%&# | 1.000000 |" in out.splitlines()


@pytest.mark.parametrize("argv, message", [
    (["--per-article"], "--per-article prints tsv or jsonl"),
    (["--elements", "--collection", "."], "--elements prints tsv or jsonl"),
])
def test_tables_of_what_has_none_are_usage_errors(files, argv, message):
    code, out, err = run_cli(files["q"], files["good"], "--format", "latex", *argv)
    assert (code, out) == (2, "") and message in err


def test_compare_per_topic_has_no_table(files):
    code, out, err = run_cli("compare", files["q"], files["good"], files["bad"], "--per-topic", "--format", "markdown")
    assert (code, out) == (2, "") and "--per-topic has no table in --format markdown" in err


# -- the real data: the tables' numbers are the tsv output's ------------------------------------------

MEASURES = ["AgP/F(0.25)", "MAP", "gP@10/F(0.25)", "ANCE@600/LE(300)", "num_rel_ret"]


def _measures():
    return [a for m in MEASURES for a in ("-m", m)]


def test_real_evaluation_tables_equal_the_tsv_output(inex):
    qrels, runs = inex / "qrels/inex2009-2010.qrels", sorted((inex / "runs").glob("*.run"))
    code, out, err = run_cli(qrels, *runs, *_measures(), "-j", "1")
    assert code == 0, err
    tsv = tsv_values(out)
    labels = list(dict.fromkeys(run for run, _, _ in tsv))
    assert len(labels) == 5
    for fmt, parse in (("latex", latex_rows), ("markdown", markdown_rows)):
        code, out, _ = run_cli(qrels, *runs, *_measures(), "--format", fmt, "-j", "1")
        (table,) = parse(out)
        assert texts(table)[0] == ["Run", *MEASURES]
        assert [row[0][0] for row in table[1:]] == labels
        for row in table[1:]:
            assert [c[0] for c in row[1:]] == [tsv[(row[0][0], "all", m)] for m in MEASURES], (fmt, row)
        assert "num_rel_ret" in MEASURES and all(re.fullmatch(r"\d+", row[-1][0]) for row in table[1:])


def test_real_per_topic_tables_equal_the_tsv_output(inex):
    qrels = inex / "qrels/inex2009-2010.qrels"
    runs = [inex / "runs/bert-passages.run", inex / "runs/indri-passages.run"]
    code, out, err = run_cli(qrels, *runs, *_measures(), "-q", "-j", "1")
    assert code == 0, err
    tsv = tsv_values(out)
    for fmt, parse in (("latex", latex_rows), ("markdown", markdown_rows)):
        code, out, _ = run_cli(qrels, *runs, *_measures(), "-q", "--format", fmt, "-j", "1")
        tables = parse(out)
        assert len(tables) == 2
        for table, run in zip(tables, ("TREC2INEX", "indri-passages")):
            topics = [row[0][0] for row in table[1:]]
            assert topics == [t for (r, t, m) in tsv if r == run and m == "MAP"]  # the topics, 'all' last
            assert len(topics) in (119, 121)  # 118 and 120 judged topics, then 'all'
            for row in table[1:]:
                topic = row[0][0]
                assert [c[0] for c in row[1:]] == [tsv.get((run, topic, m), "") for m in MEASURES], (fmt, run, topic)


def test_real_compare_tables_equal_the_tsv_output_and_the_api(inex):
    import readsim

    qrels, runs = inex / "qrels/inex2009-2010.qrels", sorted((inex / "runs").glob("*.run"))
    measures = ["-m", "AgP/F(0.25)", "-m", "MAiP"]
    code, out, err = run_cli("compare", qrels, *runs, *measures, "--no-doc", "--format", "jsonl")
    assert code == 0, err
    means = {(r["run"], r["measure"]): r for r in records(out, "mean")}
    beats = {}
    for p in records(out, "pair"):
        if p["significant"]:
            beats.setdefault((p["better"], p["measure"]), set()).add(p["worse"])
    code, tsv, _ = run_cli("compare", qrels, *runs, *measures, "--no-doc", "--format", "tsv")
    tsv_means = {(f[2], f[1]): f[4] for f in (line.split("\t") for line in tsv.splitlines()) if f[0] == "mean"}
    latex_out = None
    for fmt, parse in (("latex", latex_rows), ("markdown", markdown_rows)):
        code, out, _ = run_cli("compare", qrels, *runs, *measures, "--format", fmt)
        latex_out = out if fmt == "latex" else latex_out
        (table,) = parse(out)
        assert texts(table)[0] == ["", "Run", "AgP/F(0.25)", "MAiP"]
        letters = {row[1][0]: row[0][0] for row in table[1:]}
        assert list(letters.values()) == ["a", "b", "c", "d", "e"]
        for row in table[1:]:
            run = row[1][0]
            for (text, bold, marks), m in zip(row[2:], ("AgP/F(0.25)", "MAiP")):
                assert text == tsv_means[(run, m)]  # the tsv's digits
                assert float(text) == pytest.approx(means[(run, m)]["mean"], abs=5e-7)
                assert (bold == "bold") == (means[(run, m)]["rank"] == 1)
                assert marks == "".join(sorted(letters[w] for w in beats.get((run, m), ())))
    # 118 paired topics; the best AgP is bert-passages-map199.run's, 0.145957, MAiP indri's, 0.311601
    assert tsv_means[("bert-passages-map199.run", "AgP/F(0.25)")] == "0.145957"
    assert r"d & indri & 0.138727$^{\mathrm{c}}$ & \textbf{0.311601}$^{\mathrm{abce}}$ \\" in latex_out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", readsim.InputWarning)
        c = readsim.compare(qrels, runs, ["AgP/F(0.25)", "MAiP"], seed=0)
    assert c.to_latex() == latex_out
