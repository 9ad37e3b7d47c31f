"""On the five real INEX runs, every API result equals readsim-eval's (run in a subprocess,
--format jsonl: full precision), and a DataFrame round trip of each run gives the same numbers."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import readsim

pytestmark = pytest.mark.filterwarnings("ignore::readsim.InputWarning")  # the real runs' known warnings
EXE = Path(sys.executable).parent / "readsim-eval"
LIST = ["AgP/F(0.25)", "gP@10/F(0.25)", "AgP/T2IF(300)", "MAiP", "iP[0.01]", "ANCE@600/LE(300)", "MAP", "num_rel_ret"]
DOC = ["F(0.25)", "T2IF(300)", "aveChP", "LE(300)", "BEP(500)"]


def cli(*argv) -> list[dict]:
    done = subprocess.run([str(EXE), *map(str, argv), "--format", "jsonl"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def cli_frame(*argv) -> pd.DataFrame:
    """readsim-eval's JSON Lines as a frame: each line a row, its fields the columns in their
    order, every value as printed (strings stay strings; floats parsed exactly)."""
    done = subprocess.run([str(EXE), *map(str, argv), "--format", "jsonl"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return pd.read_json(io.StringIO(done.stdout), lines=True, dtype=False, precise_float=True)


def assert_same_rows(got: pd.DataFrame, expected: pd.DataFrame, keys: list[str] | None = None) -> None:
    """The API's frame holds readsim-eval's rows: the same columns in the same order, the same
    values exactly (``value`` as a float), in the same row order or, with ``keys``, sorted by them."""
    got = got.astype({"value": float})
    assert list(got.columns) == list(expected.columns)
    if keys:
        got, expected = got.sort_values(keys, kind="stable"), expected.sort_values(keys, kind="stable")
    pd.testing.assert_frame_equal(got.reset_index(drop=True), expected.reset_index(drop=True),
                                  check_dtype=False, check_exact=True)


@pytest.fixture(scope="module")
def real(inex):
    return inex / "qrels" / "inex2009-2010.qrels", sorted((inex / "runs").glob("*.run"))


@pytest.fixture(scope="module")
def qrels(real):
    return readsim.read_qrels(real[0])


@pytest.mark.parametrize("options", [{}, {"all_topics": True, "reading": "best"}])
def test_per_topic_and_means(real, qrels, options):
    path, runs = real
    flags = (["-c"] if options.get("all_topics") else []) + (["--reading", options["reading"]] if "reading" in options else [])
    expected = cli_frame(path, *runs, "-q", *[a for m in LIST for a in ("-m", m)], *flags)
    per_topic = readsim.evaluate(qrels, runs, LIST, per="topic", **options)
    means = readsim.evaluate(qrels, runs, LIST, **options)
    assert_same_rows(pd.concat([per_topic, means]), expected, ["run", "topic", "measure"])
    assert len(expected) > 2000


@pytest.mark.parametrize("reading", ["natural", "entry"])
def test_per_article(real, qrels, reading):
    path, runs = real
    expected = cli_frame(path, *runs, "--per-article", *[a for m in DOC for a in ("-m", m)], "--reading", reading)
    got = readsim.evaluate(qrels, runs, DOC, per="article", reading=reading)
    assert_same_rows(got, expected)  # same order: run, then run order, then the measures
    assert len(expected) > 100_000


def test_with_the_collection(real, qrels, inex):
    path, runs = real
    run = runs[-1]
    expected = cli_frame(path, run, "-q", "-m", "AgP/F(0.25)", "-m", "MAiP", "--collection", inex / "articles")
    got = [readsim.evaluate(qrels, run, ["AgP/F(0.25)", "MAiP"], per=per, collection=inex / "articles")
           for per in ("topic", "all")]
    assert_same_rows(pd.concat(got), expected, ["run", "topic", "measure"])


@pytest.mark.parametrize("test,correction", [("bootstrap", "none"), ("t", "holm"), ("tukey", "bh")])
def test_compare_means_intervals_and_p_values(real, qrels, test, correction):
    path, runs = real
    measures = ["AgP/F(0.25)", "MAiP", "ANCE@600/LE(300)"]
    rows = cli("compare", path, *runs, *[a for m in measures for a in ("-m", m)], "--no-doc", "--seed", "0",
               "--test", test, "--correction", correction)
    with pytest.warns(readsim.InputWarning, match="not in every run"):
        c = readsim.compare(qrels, runs, measures, test=test, correction=correction, seed=0)
    frame = c.to_frame()
    means = [r for r in rows if r["kind"] == "mean"]
    assert len(means) == 15
    for r in means:
        assert frame.loc[r["run"], (r["measure"], "mean")] == r["mean"]
        assert frame.loc[r["run"], (r["measure"], "low")] == r["ci_low"]
        assert frame.loc[r["run"], (r["measure"], "high")] == r["ci_high"]
        assert frame.loc[r["run"], (r["measure"], "rank")] == r["rank"]
    pairs = c.pairs().set_index(["measure", "better", "worse"])
    cli_pairs = [r for r in rows if r["kind"] == "pair"]
    assert len(cli_pairs) == len(pairs) == 30
    for r in cli_pairs:
        got = pairs.loc[(r["measure"], r["better"], r["worse"])]
        for field in ("diff", "ci_low", "ci_high", "effect", "wins", "ties", "losses", "p", "p_adjusted", "significant"):
            assert got[field] == r[field], field
    corr = c.correlations().set_index(["measure", "other"])
    for r in (r for r in rows if r["kind"] == "correlation"):
        got = corr.loc[(r["measure"], r["other"])]
        assert [got.tau, got.r] == [r["tau"], r["r"]]


def test_every_real_run_round_trips_through_a_frame(real, qrels):
    path, runs = real
    for run_path in runs:
        run = readsim.read_run(run_path)
        frame = run.to_frame()
        whole = run_path.name == "indri-documents.run"  # 6-field lines: whole articles, no offset
        assert frame["rank"].min() == 1 and (frame.offset.isna() if whole else frame.offset.notna()).all()
        direct = readsim.evaluate(qrels, run, LIST, per="topic")
        again = readsim.evaluate(qrels.to_frame(), frame, LIST, per="topic")
        pd.testing.assert_frame_equal(direct, again.assign(run=direct.run))
    articles = readsim.evaluate(qrels, frame, DOC, per="article")
    pd.testing.assert_frame_equal(articles.drop(columns="run"),
                                  readsim.evaluate(qrels, run, DOC, per="article").drop(columns="run"))
