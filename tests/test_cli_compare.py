"""``readsim-eval compare`` and ``readsim-eval fidelity`` used as a person would: hand-worked
runs whose per-topic AgP is known, every output format, the missing-topic policy, seeds, bad
input with its exit status, and the real data (five runs, perturbed copies, the fidelity table)."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest


from helpers.cli import BAD, GOOD, MID, records, run_cli


def t2_one_tailed(t: float) -> float:
    """P(T > t), Student's t with 2 degrees of freedom: 1/2 - t / (2 sqrt(2 + t^2))."""
    return 0.5 - t / (2 * math.sqrt(2 + t * t))


def test_t_test_numbers_and_the_count_of_significant_pairs(files):
    code, out, err = run_cli("compare", files["q"], files["bad"], files["mid"], files["good"], "--test", "t",
                             "--format", "jsonl")
    assert code == 0, err
    means = {r["run"]: (r["rank"], r["mean"]) for r in records(out, "mean")}
    assert means == {"good": (1, 1.0), "mid": (2, pytest.approx(2 / 3)), "bad": (3, 0.0)}
    pairs = {(r["better"], r["worse"]): r for r in records(out, "pair")}
    assert list(pairs) == [("good", "mid"), ("good", "bad"), ("mid", "bad")]  # in rank order
    # good - mid = (1/2, 0, 1/2) on topics 1, 2, 3: mean 1/3, sd 1/sqrt(12), d_z = sqrt(12)/3, t = 2
    gm = pairs[("good", "mid")]
    assert (gm["wins"], gm["ties"], gm["losses"]) == (2, 1, 0)
    assert gm["diff"] == pytest.approx(1 / 3) and gm["effect"] == pytest.approx((1 / 3) * math.sqrt(12))
    assert gm["p"] == pytest.approx(t2_one_tailed(2.0), abs=1e-12) and not gm["significant"]  # t = 2: 0.0918
    # mid - bad = (1/2, 1, 1/2): t = 4: 0.0286; good - bad = (1, 1, 1): p = 0
    assert pairs[("mid", "bad")]["p"] == pytest.approx(t2_one_tailed(4.0), abs=1e-12)
    assert pairs[("good", "bad")]["p"] == 0.0 and pairs[("good", "bad")]["effect"] is None  # +inf: null in JSON
    # as documents 'a' retrieves [0, 100): P = 1/10, R = 1, F_0.25 = (17/16)(1/10) / (1/160 + 1) = 17/161 < 1:
    # good and mid gain over their baseline, bad (0 either way) does not
    assert records(out, "summary") == [{"kind": "summary", "measure": "AgP/F(0.25)", "significant": 2, "pairs": 3,
                                        "doc_gains": 2}]
    baseline = {r["run"]: r["doc_mean"] for r in records(out, "mean")}
    assert baseline == {"good": pytest.approx(17 / 161), "mid": pytest.approx(2 / 3 * 17 / 161), "bad": 0.0}


def test_corrections_change_the_count(files):
    runs = (files["good"], files["mid"], files["bad"])
    for correction, significant in (("none", 2), ("bonferroni", 1), ("holm", 1)):
        code, out, _ = run_cli("compare", files["q"], *runs, "--test", "t", "--correction", correction,
                               "--format", "jsonl")
        assert code == 0 and records(out, "summary")[0]["significant"] == significant, correction
    # Holm: mid > bad is the second smallest p: 2 x 0.0286 = 0.0572
    pairs = {(r["better"], r["worse"]): r for r in records(out, "pair")}
    assert pairs[("mid", "bad")]["p_adjusted"] == pytest.approx(2 * t2_one_tailed(4.0), abs=1e-12)


def test_randomization_test_is_exact_on_three_topics(files):
    code, out, _ = run_cli("compare", files["q"], files["good"], files["mid"], files["bad"], "--test", "randomization",
                           "--format", "jsonl")
    assert code == 0
    p = {(r["better"], r["worse"]): r["p"] for r in records(out, "pair")}
    # 2^3 = 8 sign patterns: (1/2, 0, 1/2) reaches its mean with 2 of them, (1/2, 1, 1/2) and (1, 1, 1) with 1
    assert p == {("good", "mid"): 2 / 8, ("good", "bad"): 1 / 8, ("mid", "bad"): 1 / 8}


def test_text_report(files):
    code, out, err = run_cli("compare", files["q"], files["bad"], files["mid"], files["good"], "--test", "t",
                             "-m", "AgP/F(0.25)", "-m", "MAP")
    assert code == 0 and err == ""
    assert "3 runs, 3 topics paired (the topics every run has); paired t-test (one-tailed)" in out
    assert "== AgP/F(0.25) (higher is better) ==" in out and "== MAP (higher is better) ==" in out
    assert "significant pairs: 2 of 3 (p < 0.05" in out
    lines = out.splitlines()
    ranked = [line.split()[1] for line in lines[lines.index("== AgP/F(0.25) (higher is better) ==") + 2:][:3]]
    assert ranked == ["good", "mid", "bad"]
    # the matrix: row 1 (good) against 2 (mid) not significant, against 3 (bad) significant
    at = lines.index("== AgP/F(0.25) (higher is better) ==")
    matrix = lines[at + 7: at + 10]
    assert matrix[0].split() == ["2", "3"] and matrix[1].split() == ["1", ".", "*"] and matrix[2].split() == ["2", "*"]
    assert "Kendall's tau / Pearson's r" in out
    assert "as whole documents" in out  # the baseline of AgP/F(0.25) (MAP has none)


def test_tsv_rows_have_a_header_per_kind(files):
    code, out, _ = run_cli("compare", files["q"], files["good"], files["mid"], "--format", "tsv", "--seed", "3")
    assert code == 0
    rows = [r.split("\t") for r in out.splitlines()]
    headers = {r[0][1:]: r[1:] for r in rows if r[0].startswith("#")}
    assert list(headers) == ["setting", "mean", "pair", "summary", "correlation"]
    assert headers["pair"] == ["measure", "better", "worse", "rank_better", "rank_worse", "diff", "ci_low", "ci_high",
                               "effect", "wins", "ties", "losses", "p", "p_adjusted", "significant"]
    for r in rows:
        if not r[0].startswith("#"):
            assert len(r) == len(headers[r[0]]) + 1
    setting = dict(zip(headers["setting"], next(r for r in rows if r[0] == "setting")[1:]))
    assert setting["test"] == "bootstrap" and setting["resamples"] == "1000" and setting["seed"] == "3"


def test_a_run_missing_a_topic(files):
    code, out, err = run_cli("compare", files["q"], files["good"], files["part"], "--test", "t", "--format", "jsonl")
    assert code == 0
    assert "1 judged topic is not in every run (first: 3); compared on the 2 topics every run has" in err
    assert {r["run"]: r["mean"] for r in records(out, "mean")} == {"good": 1.0, "part": 1.0}
    code, out, err = run_cli("compare", files["q"], files["good"], files["part"], "--test", "t", "--format", "jsonl",
                             "-c")
    assert code == 0 and "not in every run" not in err
    assert {r["run"]: r["mean"] for r in records(out, "mean")} == {"good": 1.0, "part": pytest.approx(2 / 3)}
    (pair,) = records(out, "pair")
    assert (pair["better"], pair["wins"], pair["ties"]) == ("good", 1, 2)


def test_the_same_seed_gives_the_same_report(files):
    argv = ("compare", files["q"], files["good"], files["mid"], files["bad"], "--resamples", "200", "--format", "tsv")
    one = run_cli(*argv, "--seed", "1")
    assert one == run_cli(*argv, "--seed", "1")
    # good vs mid: a resample's mean difference is <= 0 only when all three draws are topic 2 (1/27)
    others = {run_cli(*argv, "--seed", str(s))[1] for s in range(2, 6)}
    assert len(others | {one[1]}) > 1


def test_runs_from_a_folder_and_files_together(files, tmp_path):
    folder = tmp_path / "more"
    folder.mkdir()
    (folder / "b.run").write_text(BAD)
    (folder / "a.run").write_text(MID)
    (folder / ".hidden").write_text("not a run")
    code, out, err = run_cli("compare", files["q"], files["good"], "--runs", folder, "--test", "t", "--format", "jsonl")
    assert code == 0, err
    assert [r["run"] for r in records(out, "mean")] == ["good", "mid", "bad"]
    assert records(out, "setting")[0]["runs"] == 3


@pytest.mark.parametrize("argv, status, message", [
    (("{good}",), 2, "give at least 2 runs (RUN RUN ... or --runs DIR), not 1"),
    (("{good}", "{mid}", "--alpha", "0"), 2, "argument --alpha: alpha must be a number above 0 and below 1, not '0'"),
    (("{good}", "{mid}", "--alpha", "1"), 2, "argument --alpha: alpha must be"),
    (("{good}", "{mid}", "--alpha", "nan"), 2, "argument --alpha: alpha must be"),
    (("{good}", "{mid}", "--resamples", "0"), 2, "argument --resamples: the number of resamples must be a whole "
                                                 "number from 1 to 100000, not 0"),
    (("{good}", "{mid}", "--resamples", "1.5"), 2, "argument --resamples"),
    (("{good}", "{mid}", "--seed", "-1"), 2, "argument --seed: the seed must be a whole number from 0"),
    (("{good}", "{mid}", "--test", "wilcoxon"), 2, "argument --test: invalid choice"),
    (("{good}", "{mid}", "--correction", "fdr"), 2, "argument --correction: invalid choice"),
    (("{good}", "{mid}", "-m", "AgP/nope"), 2, "readsim-eval: "),
    (("{good}", "{mid}", "-m", "F(0.25)"), 2, "F(0.25) is a document measure"),
    (("{good}", "{dir}/missing.run"), 1, "missing.run: run file not found"),
    (("{good}", "--runs", "{dir}/empty"), 1, "empty: no run file in the folder"),
    (("{good}", "--runs", "{dir}/nowhere"), 1, "nowhere: run folder not found"),
    (("{good}", "{dir}/broken.run"), 1, "broken.run:2:"),
    (("{good}", "{dir}/other.run"), 1, "0 judged topics shared by every run; a comparison needs at least 2 "
                                       "(-c pairs over every judged topic)"),
])
def test_bad_input(files, tmp_path, argv, status, message):
    (tmp_path / "empty").mkdir()
    (tmp_path / "broken.run").write_text(GOOD.splitlines()[0] + "\n1 Q0 b 2 1 good 0 ten\n")
    (tmp_path / "other.run").write_text("7 Q0 a 1 1 other 0 10\n")
    names = {k: str(v) for k, v in files.items()} | {"dir": str(tmp_path)}
    code, out, err = run_cli("compare", files["q"], *(a.format(**names) for a in argv))
    assert code == status, err
    assert message in err and "Traceback" not in err
    assert len([x for x in err.splitlines() if "error" in x or "readsim-eval" in x]) >= 1


def test_a_correction_resampling_cannot_reach_is_warned(files):
    # 3 topics: the exact test's smallest p is 1/8; Holm over 3 pairs needs 0.05 / 3
    code, _, err = run_cli("compare", files["q"], files["good"], files["mid"], files["bad"], "--correction", "holm",
                           "--test", "randomization")
    assert code == 0 and "smallest p here is 0.12: no pair can be significant" in err
    # the randomised Tukey HSD's smallest p is 1 / (trials + 1) = 1/11 > 0.05 / 3, whatever the topics
    code, _, err = run_cli("compare", files["q"], files["good"], files["mid"], files["bad"], "--correction", "bh",
                           "--test", "tukey", "--resamples", "10")
    assert code == 0 and "the randomised Tukey HSD's smallest p here is 0.091: no pair can be significant" in err
    code, _, err = run_cli("compare", files["q"], files["good"], files["mid"], files["bad"], "--correction", "holm")
    assert code == 0 and "smallest p" not in err  # the bootstrap's p can be 0


def test_help_and_plain_evaluation_stays_without_scipy(files):
    code, out, _ = run_cli("compare", "--help")
    assert code == 0 and "--resamples" in out and "Kendall's tau" in out
    code = (
        "import sys; from readsim.cli import main\n"
        f"main([{str(files['q'])!r}, {str(files['good'])!r}])\n"
        "sys.exit(3 if 'scipy' in sys.modules else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


# -- fidelity -----------------------------------------------------------------------------------------


def test_fidelity_usage_errors(files, tmp_path):
    code, _, err = run_cli("fidelity", files["q"])
    assert code == 2 and "--collection" in err
    code, _, err = run_cli("fidelity", files["q"], "--collection", tmp_path, "--topics", "1,,2")
    assert code == 2 and "argument --topics: topics must be 'complete' or topic ids" in err
    code, _, err = run_cli("fidelity", files["q"], "--collection", tmp_path / "nowhere")
    assert code == 1 and "nowhere: collection folder not found" in err
    code, _, err = run_cli("fidelity", files["q"], "--collection", tmp_path)  # no article of the qrels
    assert code == 1 and "no judged topic has all its relevant articles in the collection" in err


@pytest.fixture(scope="module")
def real(inex):
    return inex / "qrels" / "inex2009-2010.qrels", inex / "articles", inex / "runs"


def test_fidelity_on_one_complete_topic(real):
    qrels, articles, _ = real
    code, out, err = run_cli("fidelity", qrels, "--collection", articles, "--topics", "2009067")
    assert code == 0, err
    assert "on 1 topic (2009067)" in out and "Table 1: mean score per run" in out
    assert "Table 2: AgP/F(0.25) (Diff (%)" in out
    verdict = out.splitlines()[-1]
    assert verdict.startswith("AgP/F(0.25)  respects") and "(28 of the paper's 28;" in verdict
    code, out, _ = run_cli("fidelity", qrels, "--collection", articles, "--topics", "2009067", "--format", "jsonl")
    rows = [json.loads(x) for x in out.splitlines()]
    assert [r["kind"] for r in rows].count("score") == 20 and [r["kind"] for r in rows].count("ordering") == 36
    assert rows[-1]["kind"] == "verdict" and rows[-1]["always_respected"] == 28


def test_fidelity_names_the_article_a_topic_lacks(real):
    qrels, articles, _ = real
    code, _, err = run_cli("fidelity", qrels, "--collection", articles, "--topics", "2009011")
    assert code == 1 and "topic 2009011: 1 of its" in err and "18413531" in err


def test_the_five_real_runs(real):
    qrels, _, runs = real
    code, out, err = run_cli("compare", qrels, "--runs", runs, "-m", "AgP/F(0.25)", "-m", "ANCE@600/LE(300)",
                             "--format", "jsonl")
    assert code == 0, err
    assert "2 judged topics are not in every run (first: 2010061, 2010107)" in err  # the BERT runs have 118
    means = {(r["measure"], r["run"]): r["mean"] for r in records(out, "mean")}
    assert len(means) == 10
    # the BERT runs answer all 118 paired topics: their mean is readsim-eval's own
    code, plain, _ = run_cli(qrels, runs / "bert-passages.run", "--format", "jsonl")
    assert means[("AgP/F(0.25)", "bert-passages.run")] == pytest.approx(json.loads(plain)["value"], abs=1e-12)
    summary = records(out, "summary")
    assert [s["pairs"] for s in summary] == [10, 10]
    (corr,) = [r for r in records(out, "correlation") if not r["other_as_documents"]]
    assert -1 <= corr["tau"] <= 1 and -1 <= corr["r"] <= 1


def test_perturbed_copies_of_a_real_run(real, tmp_path):
    qrels, _, runs = real
    lines = (runs / "indri-documents.run").read_text().splitlines()
    by_topic: dict[str, list[str]] = {}
    for x in lines:
        by_topic.setdefault(x.split()[0], []).append(x)
    # the same run under another name, and its ranking reversed within every topic
    (tmp_path / "copy.run").write_text("\n".join(x.replace(" indri", " copy") for x in lines) + "\n")
    (tmp_path / "reversed.run").write_text("\n".join(x.replace(" indri", " reversed") for t in by_topic
                                                     for x in reversed(by_topic[t])) + "\n")
    code, out, err = run_cli("compare", qrels, runs / "indri-documents.run", tmp_path / "copy.run",
                             tmp_path / "reversed.run", "--format", "jsonl", "--seed", "5")
    assert code == 0, err
    pairs = {frozenset((r["better"], r["worse"])): r for r in records(out, "pair")}
    same = pairs[frozenset(("indri", "copy"))]
    assert (same["diff"], same["wins"], same["losses"], same["p"], same["significant"]) == (0, 0, 0, 1.0, False)
    worse = pairs[frozenset(("indri", "reversed"))]
    assert worse["worse"] == "reversed" and worse["significant"] and worse["p"] < 0.01
    # as documents the run is itself: its baseline is equal, so no run gains
    assert records(out, "summary")[0]["doc_gains"] == 0


def test_tukey_hsd_with_bh_on_the_five_real_runs(real):
    """``--test tukey --correction bh`` on the five real runs: the HSD's p-values are those of
    ``compare_runs`` on the same per-topic values (the API's), BH adjusts them as statsmodels'
    ``multipletests(method="fdr_bh")``, and every pair row carries the t interval of its difference,
    which holds the difference and is ``scipy.stats.ttest_rel``'s."""
    from scipy import stats
    from statsmodels.stats.multitest import multipletests

    qrels, _, runs = real
    code, out, err = run_cli("compare", qrels, "--runs", runs, "--test", "tukey", "--correction", "bh", "--no-doc",
                             "--format", "jsonl", "--per-topic")
    assert code == 0, err
    (setting,) = records(out, "setting")
    assert (setting["test"], setting["correction"], setting["interval"]) == ("tukey", "bh", "Student's t")
    pairs = records(out, "pair")
    assert len(pairs) == 10
    want = multipletests([r["p"] for r in pairs], method="fdr_bh")[1]
    assert [r["p_adjusted"] for r in pairs] == pytest.approx(want, abs=1e-12)
    assert all(r["significant"] == (r["p_adjusted"] < 0.05) for r in pairs)
    assert all(0 < r["p"] <= 1 and r["p"] * 1001 == pytest.approx(round(r["p"] * 1001)) for r in pairs)  # (b + 1) / 1001
    values: dict[str, dict[str, float]] = {}
    for r in records(out, "topic"):
        values.setdefault(r["run"], {})[r["topic"]] = r["value"]
    for r in pairs:
        topics = sorted(values[r["better"]])
        d = [values[r["better"]][t] - values[r["worse"]][t] for t in topics]
        ci = stats.ttest_1samp(d, 0.0).confidence_interval(0.95)
        assert (r["ci_low"], r["ci_high"]) == pytest.approx((ci.low, ci.high), abs=1e-9)
        assert r["ci_low"] <= r["diff"] <= r["ci_high"]
    # the bootstrap's intervals are percentile intervals of the same resamples as its p-values
    code, out, err = run_cli("compare", qrels, "--runs", runs, "--no-doc", "--format", "jsonl", "--seed", "2")
    assert code == 0, err
    for r in records(out, "pair"):
        assert r["ci_low"] <= r["ci_high"] and (r["ci_low"] > 0) <= (r["p"] <= 0.025)
    code, out, _ = run_cli("compare", qrels, "--runs", runs, "--no-doc", "--test", "tukey", "--correction", "bh")
    assert "randomised Tukey HSD over all runs (two-sided, 1000 trials, seed 0)" in out
    assert "neighbours in the ranking: mean difference with its 95% interval" in out
