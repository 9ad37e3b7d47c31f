"""``readsim-eval compare --per-topic`` and what comparing two runs must say: the per-topic values
and differences (checked against ``readsim-eval -q`` run on each run alone), their order, the
jsonl and tsv rows; the topics paired against each run's own topics (120 vs 118 on the real
data), two runs and correlations, and a difference rounding to zero."""

from __future__ import annotations

import json

import pytest

from readsim.core.report_numbers import format_number, format_signed

from helpers.cli import records, run_cli  # the hand-worked runs: the files fixture (tests/conftest.py)


TOPIC_KEYS = ["kind", "measure", "topic", "run", "value", "reference", "diff", "position"]


# -- hand-worked: good AgP (1, 1, 1), mid (1/2, 1, 1/2), bad (0, 0, 0) on topics 1, 2, 3 ----------------------


def test_three_runs_against_the_best_run_and_the_best_against_the_runner_up(files):
    code, out, err = run_cli("compare", files["q"], files["bad"], files["mid"], files["good"], "--test", "t",
                             "--per-topic", "--format", "jsonl")
    assert code == 0, err
    rows = records(out, "topic")
    assert all(list(r) == TOPIC_KEYS for r in rows)
    got = {(r["topic"], r["run"]): (r["value"], r["reference"], r["diff"]) for r in rows}
    # mid - good = (-1/2, 0, -1/2), bad - good = (-1, -1, -1); good against mid (the runner-up): (1/2, 0, 1/2)
    assert got == {("1", "good"): (1.0, "mid", 0.5), ("1", "mid"): (0.5, "good", -0.5), ("1", "bad"): (0.0, "good", -1.0),
                   ("2", "good"): (1.0, "mid", 0.0), ("2", "mid"): (1.0, "good", 0.0), ("2", "bad"): (0.0, "good", -1.0),
                   ("3", "good"): (1.0, "mid", 0.5), ("3", "mid"): (0.5, "good", -0.5), ("3", "bad"): (0.0, "good", -1.0)}
    # the largest difference of any run to good: topic 2 (0, mid ties), then topics 1 and 3 (-1/2) by id
    assert [(r["position"], r["topic"]) for r in rows][::3] == [(1, "2"), (2, "1"), (3, "3")]
    assert [r["run"] for r in rows[:3]] == ["good", "mid", "bad"]  # rank order within a topic


def test_text_table_and_tsv_rows(files):
    code, out, _ = run_cli("compare", files["q"], files["mid"], files["bad"], "--test", "t", "--per-topic")
    assert code == 0
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("per topic (3 paired topics, where bad gains most"))
    assert lines[at + 1].split() == ["topic", "mid", "bad", "bad", "-", "mid"]
    # bad - mid = (-1/2, -1, -1/2): topics 1 and 3 (-1/2) before topic 2 (-1)
    assert [line.split() for line in lines[at + 2: at + 5]] == [["1", "0.5000", "0.0000", "-0.5000"],
                                                                ["3", "0.5000", "0.0000", "-0.5000"],
                                                                ["2", "1.0000", "0.0000", "-1.0000"]]
    code, out, _ = run_cli("compare", files["q"], files["mid"], files["bad"], "--per-topic", "--format", "tsv")
    rows = [r.split("\t") for r in out.splitlines()]
    headers = {r[0][1:]: r[1:] for r in rows if r[0].startswith("#")}
    assert headers["topic"] == TOPIC_KEYS[1:]
    assert all(len(r) == len(headers[r[0]]) + 1 for r in rows if not r[0].startswith("#"))  # machine-readable
    assert sum(r[0] == "topic" for r in rows) == 6  # 3 topics x 2 runs
    code, out, _ = run_cli("compare", files["q"], files["mid"], files["bad"], "--format", "jsonl")
    assert records(out, "topic") == []  # only with --per-topic


def test_two_runs_cannot_show_a_correlation(files):
    code, out, err = run_cli("compare", files["q"], files["good"], files["mid"], "-m", "AgP/F(0.25)", "-m", "MAP")
    assert code == 0, err
    assert "two runs cannot show a correlation" in out
    assert "1.000 / 1.000" not in out and "-1.000" not in out
    code, out, _ = run_cli("compare", files["q"], files["good"], files["mid"], "-m", "AgP/F(0.25)", "-m", "MAP",
                           "--format", "jsonl")
    corr = records(out, "correlation")
    assert corr and all(r["tau"] is None and r["r"] is None for r in corr)
    # three runs with different means do correlate: good > mid > bad under both measures
    code, out, _ = run_cli("compare", files["q"], files["good"], files["mid"], files["bad"], "-m", "AgP/F(0.25)",
                           "-m", "MAP", "--format", "jsonl")
    assert [r["tau"] for r in records(out, "correlation") if not r["other_as_documents"]] == [pytest.approx(1.0)]


def test_paired_topics_against_each_runs_own_topics(files):
    # part has topics 1 and 2; good has 1, 2, 3: readsim-eval averages good over 3, compare pairs 2
    code, out, err = run_cli("compare", files["q"], files["good"], files["part"])
    assert code == 0
    assert ("topics: the 2 paired are those every run has; 1 judged topic left out (3). readsim-eval averages each "
            "run over its own judged topics (good 3)") in out
    assert "readsim-eval's mean of a run is over its own judged topics (good 3)" in err
    code, out, err = run_cli(files["q"], files["good"], files["part"], "-j", "1")
    assert code == 0
    assert ("note: each run's mean (topic 'all') is over its own judged topics (good 3, part 2); readsim-eval "
            "compare pairs the 2 topics every run has") in err
    code, out, err = run_cli(files["q"], files["good"], files["mid"])
    assert code == 0 and "note:" not in err  # the same topics: nothing to say
    code, out, err = run_cli(files["q"], files["good"], files["part"], "-c")
    assert code == 0 and "note:" not in err  # -c: every run over every judged topic


@pytest.mark.parametrize(("value", "digits", "number", "signed"), [
    (-1e-7, 4, "0.0000", "0.0000"), (1e-7, 4, "0.0000", "0.0000"), (0.0, 4, "0.0000", "0.0000"),
    (-0.0, 2, "0.00", "0.00"), (-0.00005, 4, "-0.0001", "-0.0001"), (0.00004, 4, "0.0000", "0.0000"),
    (0.25, 4, "0.2500", "+0.2500"), (-0.004, 2, "0.00", "0.00"), (-0.005001, 2, "-0.01", "-0.01")])
def test_a_value_rounding_to_zero_prints_without_a_sign(value, digits, number, signed):
    assert format_number(value, digits) == number and format_signed(value, digits) == signed


# -- the real data: indri-passages against bert-passages-map199 -------------------------------------------------


def per_topic_q(inex, run: str, measure: str) -> dict[str, float]:
    """``readsim-eval -q`` of one run alone: topic -> value."""
    code, out, err = run_cli(inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / run, "-q", "-m", measure,
                             "--format", "jsonl")
    assert code == 0, err
    return {r["topic"]: r["value"] for r in map(json.loads, out.splitlines()) if r["topic"] != "all"}


@pytest.mark.parametrize("measure", ["AgP/F(0.25)", "MAP"])
def test_real_per_topic_rows_are_the_differences_of_two_q_outputs(inex, measure):
    indri = per_topic_q(inex, "indri-passages.run", measure)
    bert = per_topic_q(inex, "bert-passages-map199.run", measure)
    assert len(indri) == 120 and len(bert) == 118
    code, out, err = run_cli("compare", inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "indri-passages.run",
                             inex / "runs" / "bert-passages-map199.run", "-m", measure, "--per-topic", "--no-doc",
                             "--format", "jsonl")
    assert code == 0, err
    rows = records(out, "topic")
    assert all(list(r) == TOPIC_KEYS for r in rows)
    paired = set(indri) & set(bert)
    assert {r["topic"] for r in rows} == paired and len(rows) == 2 * 118
    label = {"indri-passages": indri, "TREC2INEX": bert}  # bert's run id is TREC2INEX
    for r in rows:
        other = "TREC2INEX" if r["run"] == "indri-passages" else "indri-passages"
        assert r["reference"] == other
        assert r["value"] == pytest.approx(label[r["run"]][r["topic"]], abs=1e-12)
        assert r["diff"] == pytest.approx(label[r["run"]][r["topic"]] - label[other][r["topic"]], abs=1e-11)
    # sorted: the lower-ranked run's difference to the other, largest first
    second = records(out, "mean")[1]["run"]
    gains = [r["diff"] for r in rows if r["run"] == second]
    assert gains == sorted(gains, reverse=True) and gains[0] > 0 > gains[-1]
    assert [r["position"] for r in rows] == [i // 2 + 1 for i in range(len(rows))]
    # the two topics indri has and bert lacks are named, with both counts
    assert "2010061, 2010107" in err and "indri-passages 120" in err


def test_real_plain_readsim_eval_says_its_means_are_over_other_topics(inex):
    code, out, err = run_cli(inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "indri-passages.run",
                             inex / "runs" / "bert-passages-map199.run")
    assert code == 0
    assert ("note: each run's mean (topic 'all') is over its own judged topics (indri-passages 120, TREC2INEX 118); "
            "readsim-eval compare pairs the 118 topics every run has") in err
    assert all(line.count("\t") == 2 for line in out.splitlines())  # the rows stay machine-readable
