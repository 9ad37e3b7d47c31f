"""Chroma's chunking data (tests/conftest.py's ``chroma``; its README) through readsim-eval with
its documents as the collection (characters by default, reference 2.13): the set-based scores
equal Chroma's own definitions computed here from the files; the questions CSV gives the numbers
of qrels.jsonl; compare and loss --vs between the two chunk runs agree with plain evaluation."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest

from helpers.cli import records, run_cli

RUNS = ("bm25-chunks250", "bm25-chunks1000")


def _lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _covered(spans) -> set[int]:
    out: set[int] = set()
    for start, end in spans:
        out.update(range(start, end))
    return out


def _eval(chroma, *args, qrels="qrels.jsonl"):
    code, out, err = run_cli(chroma / qrels, *args, "--collection", chroma / "corpora", "-j", "1")
    assert code == 0, err
    return out


def _per_article(out: str) -> dict[tuple[str, str, str], float]:
    rows = {}
    for row in out.splitlines():
        measure, topic, article, value = row.split("\t")
        rows[(measure, topic, article)] = float(value)
    return rows


def _per_topic(out: str) -> dict[str, dict[str, float]]:
    """``-q`` rows: run -> topic -> value (one measure)."""
    runs: dict[str, dict[str, float]] = {}
    current = None
    for row in out.splitlines():
        measure, topic, value = row.split("\t")
        if measure == "runid":
            current = runs.setdefault(value, {})
        else:
            current[topic] = float(value)
    return runs


@pytest.mark.parametrize("run", RUNS)
def test_set_scores_are_chromas_precision_and_recall(chroma, run):
    """Chroma's definitions (its README): recall = the share of the highlighted characters the
    retrieved chunks cover, precision = the share of the retrieved characters that are
    highlighted, here per (question, document): H the union of the question's references in
    the document, T the union of its retrieved chunks there."""
    highlighted: dict[tuple[str, str], list] = defaultdict(list)
    for q in _lines(chroma / "qrels.jsonl"):
        highlighted[(q["topic"], q["doc"])].append((q["start"], q["end"]))
    retrieved: dict[tuple[str, str], list] = defaultdict(list)
    for r in _lines(chroma / "runs" / f"{run}.jsonl"):
        retrieved[(r["topic"], r["doc"])].append((r["start"], r["end"]))
    got = _per_article(_eval(chroma, chroma / "runs" / f"{run}.jsonl", "--per-article", "-m", "P_set", "-m", "R_set"))
    assert {(t, a) for _, t, a in got} == set(retrieved)
    compared = 0
    for (topic, doc), spans in retrieved.items():
        h, t = _covered(highlighted.get((topic, doc), ())), _covered(spans)
        precision = len(h & t) / len(t)
        recall = len(h & t) / len(h) if h else 0.0
        assert got[("P_set", topic, doc)] == pytest.approx(precision, abs=1e-6), (topic, doc)  # 6 decimals
        assert got[("R_set", topic, doc)] == pytest.approx(recall, abs=1e-6), (topic, doc)
        compared += bool(h)
    assert compared > 300  # most questions' document is retrieved


def test_questions_csv_gives_the_numbers_of_qrels_jsonl_with_the_collection(chroma):
    args = [chroma / "runs" / f"{run}.jsonl" for run in RUNS] + [
        "-q", "-m", "AgP/F(0.25)", "-m", "AgP/aveChP", "-m", "AgP/T2IF(300)", "-m", "num_rel"]
    assert _eval(chroma, *args, qrels="questions_df.csv") == _eval(chroma, *args)


def test_the_default_unit_of_the_documents_is_characters(chroma):
    """Every ranked document read whole (``--as-documents``): P_set = |R| / n, n the document's
    length in the unit: state_of_the_union for question 1, R = [27346, 27425) ∪ [27866, 28023)
    (79 + 157 = 236 characters, qrels.jsonl's first two lines), n = 48,051 characters (the
    README), P_set = 236/48051 = 0.004911; in bytes n is larger."""
    args = [chroma / "runs" / "bm25-chunks250.jsonl", "--per-article", "--as-documents", "-m", "P_set"]
    chars = _per_article(_eval(chroma, *args))
    assert chars == _per_article(_eval(chroma, *args, "--unit", "chars"))
    assert chars[("P_set", "1", "state_of_the_union")] == pytest.approx(236 / 48051, abs=1e-6)
    assert _per_article(_eval(chroma, *args, "--unit", "bytes"))[("P_set", "1", "state_of_the_union")] < 236 / 48051


def test_compare_agrees_with_plain_evaluation(chroma):
    runs = [chroma / "runs" / f"{run}.jsonl" for run in RUNS]
    plain = _per_topic(_eval(chroma, *runs, "-q", "-m", "AgP/F(0.25)"))
    code, out, err = run_cli("compare", chroma / "qrels.jsonl", *runs, "--collection", chroma / "corpora",
                             "--format", "jsonl")
    assert code == 0, err
    means = {r["run"]: r["mean"] for r in records(out, "mean")}
    topics = set(plain[RUNS[0]]) - {"all"}
    assert topics == set(plain[RUNS[1]]) - {"all"} and len(topics) == 472  # both runs answer every question
    for run in RUNS:  # the same topics: compare's mean is readsim-eval's
        assert means[run] == pytest.approx(plain[run]["all"], abs=1e-6)
    (pair,) = records(out, "pair")
    a, b = plain[pair["better"]], plain[pair["worse"]]
    assert pair["diff"] == pytest.approx(a["all"] - b["all"], abs=1e-6)
    wins = sum(a[t] > b[t] for t in topics)
    losses = sum(a[t] < b[t] for t in topics)
    assert (pair["wins"], pair["losses"], pair["ties"]) == (wins, losses, len(topics) - wins - losses)


def test_loss_vs_agrees_with_plain_evaluation(chroma):
    runs = [chroma / "runs" / f"{run}.jsonl" for run in RUNS]
    code, out, err = run_cli("loss", chroma / "qrels.jsonl", runs[0], "--vs", runs[1], "--collection",
                             chroma / "corpora", "--format", "jsonl")
    assert code == 0, err
    plain = _per_topic(_eval(chroma, *runs, "-q", "-m", "AgP/F(0.25)"))
    topics = records(out, "topic")
    assert len(topics) == 472
    for row in topics:
        assert row["as_is"] == pytest.approx(plain[RUNS[0]][row["topic"]], abs=1e-6)
        assert row["vs_as_is"] == pytest.approx(plain[RUNS[1]][row["topic"]], abs=1e-6)
    scores = [_per_article(_eval(chroma, run, "--per-article", "-m", "F(0.25)")) for run in runs]
    articles = records(out, "article")
    assert articles
    for row in articles:
        key = ("F(0.25)", row["topic"], row["article"])
        assert row["score"] == pytest.approx(scores[0].get(key, 0.0), abs=1e-6)
        if row["vs_rank"] is not None:
            assert row["vs_score"] == pytest.approx(scores[1][key], abs=1e-6)
