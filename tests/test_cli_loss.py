"""``readsim-eval loss`` used as a person would: a hand-worked topic (AgP/F(0.25), every cost
worked by hand), a competitor, every output format, bad usage and bad input with their exit
statuses, and the real data (indri-passages against bert-passages-map199 on 2009078)."""

from __future__ import annotations

import io
import json

import pytest

from readsim.cli import main

# Topic 1: a relevant [0, 10), b relevant [0, 20) of 100 characters (Nrel 2); x unjudged.
QRELS = "1 Q0 a 10 100 0 0:10\n1 Q0 b 20 100 0 0:20\n"
# the run: x, a (exactly its relevant text: F = 1), b ([0, 10): P = 1, R = 1/2,
# F(0.25) = 1.0625 * 0.5 / (0.0625 + 0.5) = 17/18). S = 0, 1, 17/18.
RUN = "1 Q0 x 1 3 mine 0 10\n1 Q0 a 2 2 mine 0 10\n1 Q0 b 3 1 mine 0 10\n"
# the competitor: a (F = 1), b whole relevant text (F = 1); AgP = 1
OTHER = "1 Q0 a 1 2 theirs 0 10\n1 Q0 b 2 1 theirs 0 20\n"


def run_cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["loss", *map(str, argv)], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def files(tmp_path):
    for name, text in {"q.qrels": QRELS, "mine.run": RUN, "theirs.run": OTHER}.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def records(text: str, kind: str) -> list[dict]:
    return [r for r in map(json.loads, text.splitlines()) if r["kind"] == kind]


def test_costs_by_hand(files):
    code, out, err = run_cli(files / "q.qrels", files / "mine.run", "--format", "jsonl")
    assert code == 0, err
    [topic] = records(out, "topic")
    # as is: gP[2] = 1/2, gP[3] = (1 + 17/18) / 3 = 35/54: AgP = 31/54; ideal passages (S 0, 1, 1): 7/12;
    # ideal order b, a, x: gP[1] = 17/18, gP[2] = 35/36: 23/24; both 1
    assert topic["measure"] == "AgP/F(0.25)" and topic["nrel"] == 2 and topic["ranked"] == 3
    assert [topic[k] for k in ("as_is", "ideal_passages", "ideal_ranking", "ideal", "perfect")] == pytest.approx(
        [31 / 54, 7 / 12, 23 / 24, 1, 1])
    assert topic["browse"] == pytest.approx(7 / 12 - 31 / 54) and topic["fetch"] == pytest.approx(23 / 24 - 31 / 54)
    rows = {r["article"]: r for r in records(out, "article")}
    assert [rows[a]["rank"] for a in "xab"] == [1, 2, 3] and [rows[a]["ideal_rank"] for a in "xab"] == [3, 2, 1]
    # browse: b with S 1: gP[3] = 2/3, AgP = 63/108: +1/108; a is already ideal; x has no relevant text
    assert [rows[a]["browse_cost"] for a in "xab"] == pytest.approx([0, 0, 1 / 108])
    # rank: x to rank 3 (a, b, x): AgP 71/72, +89/216; a stays; b to rank 1 (b, x, a): AgP 43/54, +2/9
    assert [rows[a]["rank_cost"] for a in "xab"] == pytest.approx([89 / 216, 0, 2 / 9])
    assert rows["b"]["score"] == pytest.approx(17 / 18) and rows["b"]["ideal_score"] == pytest.approx(1)
    assert "vs_rank" not in rows["a"]


def test_against_a_competitor_by_hand(files):
    code, out, err = run_cli(files / "q.qrels", files / "mine.run", "--vs", files / "theirs.run", "--format", "jsonl")
    assert code == 0, err
    [topic] = records(out, "topic")
    assert topic["vs_run"] == "theirs" and topic["vs_file"] == "theirs.run" and topic["vs_as_is"] == pytest.approx(1)
    rows = {r["article"]: r for r in records(out, "article")}
    assert rows["x"]["vs_rank"] is None and rows["x"]["vs_rank_cost"] is None and rows["x"]["vs_score"] is None
    assert [rows[a]["vs_rank"] for a in "ab"] == [1, 2] and rows["b"]["vs_score"] == pytest.approx(1)
    # a to rank 1 (a, x, b): gP[1] = 1, gP[3] = 35/54: AgP 89/108, +27/108; b to rank 2 (x, b, a):
    # gP[2] = 17/36, gP[3] = 35/54: AgP 121/216, -3/216
    assert [rows[a]["vs_rank_cost"] for a in "ab"] == pytest.approx([1 / 4, -1 / 72])
    assert [rows[a]["vs_browse_cost"] for a in "ab"] == pytest.approx([0, 1 / 108])  # b's passages: F 1


def test_text_and_tsv(files):
    code, out, _ = run_cli(files / "q.qrels", files / "mine.run", "--vs", files / "theirs.run")
    assert code == 0
    assert "as is 0.5741" in out and "ideal ranking 0.9583 (fetch +0.3843)" in out  # 31/54, 23/24
    lines = out.splitlines()
    head = next(k for k, s in enumerate(lines) if "browse cost" in s)
    assert lines[head + 1].split()[:2] == ["1", "x"]  # rank cost 89/216 = 0.412 is the largest cost
    assert "+0.4120" in lines[head + 1]
    code, out, _ = run_cli(files / "q.qrels", files / "mine.run", "--format", "tsv")
    assert out.splitlines()[0].startswith("#topic\trun\ttopic\tmeasure")
    assert sum(s.startswith("article\t") for s in out.splitlines()) == 3


def test_other_measures(files):
    # gP@1/F(0.25): as is S(x) = 0; x moved to rank 3 puts a first: gP@1 = 1
    code, out, _ = run_cli(files / "q.qrels", files / "mine.run", "-m", "gP@1/F(0.25)", "--format", "jsonl")
    assert code == 0
    rows = {r["article"]: r for r in records(out, "article")}
    assert rows["x"]["rank_cost"] == pytest.approx(1) and rows["b"]["rank_cost"] == pytest.approx(17 / 18)


@pytest.mark.parametrize("argv, status, said", [
    (["-m", "MAP"], 2, "no per-article costs for MAP"),
    (["-m", "AgP/F(0.25)", "-m", "gP@5/F(0.25)"], 2, "one -m at a time"),
    (["-m", "F(0.25)"], 2, "document measure"),
    (["--topic", "9"], 1, "q.qrels: the qrels do not judge topic 9"),
    (["--top", "-1"], 2, "--top"),
])
def test_bad_usage_and_input(files, argv, status, said):
    code, out, err = run_cli(files / "q.qrels", files / "mine.run", *argv)
    assert code == status and said in err and "Traceback" not in err and out == ""


@pytest.mark.parametrize("text, unjudged", [("", False), ("# nothing but a comment\n", False),
                                             ("9 Q0 a 1 1 mine 0 10\n", True)])
def test_a_run_with_no_judged_topic_warns_as_evaluate_does(files, text, unjudged):
    # an empty run, or one whose only topic (9) the qrels do not judge: the warning plain
    # evaluation, sweep and compare give, then the header alone
    run = files / "none.run"
    run.write_text(text)
    code, out, err = run_cli(files / "q.qrels", run)
    assert code == 0 and "Traceback" not in err
    assert f"{run}: warning: no topic of the run is judged in the qrels" in err
    assert (f"{run}: warning: topic 9 of the run is not in the qrels; ignored" in err) == unjudged
    assert out.startswith("readsim-eval loss: ") and "topic " not in out
    code, out, err = main_eval(files / "q.qrels", run)
    assert code == 0 and f"{run}: warning: no topic of the run is judged in the qrels" in err
    # the API's loss says the same
    import warnings

    import readsim
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        frame = readsim.loss(files / "q.qrels", run)
    assert frame.empty and any("no topic of the run is judged in the qrels" in str(w.message) for w in said)


def main_eval(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([*map(str, argv)], out, err)
    return code, out.getvalue(), err.getvalue()


def test_missing_competitor_file(files):
    code, _, err = run_cli(files / "q.qrels", files / "mine.run", "--vs", files / "nothing.run")
    assert code == 1 and "nothing.run" in err and "Traceback" not in err


def test_real_topic_2009078(inex):
    """indri-passages against bert-passages-map199: on 2009078 the ranking is where the run loses
    (fetch +0.465 against browse +0.027 under AgP/F(0.25), as the issue reports), and Support
    vector machine (65309), with a browse loss of 0.377 on its F(0.25), costs the topic 0.006."""
    code, out, err = run_cli(inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "indri-passages.run",
                             "--vs", inex / "runs" / "bert-passages-map199.run", "--topic", "2009078",
                             "--format", "jsonl")
    assert code == 0, err
    [topic] = records(out, "topic")
    assert topic["fetch"] == pytest.approx(0.465, abs=5e-4) and topic["browse"] == pytest.approx(0.027, abs=5e-4)
    rows = {r["article"]: r for r in records(out, "article")}
    assert len(rows) == topic["ranked"] == 100
    svm = rows["65309"]
    assert svm["ideal_score"] - svm["score"] == pytest.approx(0.377, abs=5e-4)
    assert svm["browse_cost"] == pytest.approx(0.006, abs=5e-4)
    assert all(r["vs_rank"] is None or 1 <= r["vs_rank"] for r in rows.values())


def test_a_bad_run_line_is_named(files):
    (files / "bad.run").write_text(RUN + "1 Q0 y 4 0 mine -5 10\n")
    code, out, err = run_cli(files / "q.qrels", files / "bad.run")
    assert code == 1 and f"{files / 'bad.run'}:4:" in err and "Traceback" not in err and out == ""


def test_a_topic_the_run_does_not_rank(files):
    """Topic 2 is judged (one relevant article) but not ranked: everything is 0 but the
    perfect run (1) and what the unranked article costs (unretrieved 1)."""
    (files / "q2.qrels").write_text(QRELS + "2 Q0 c 5 100 0 0:5\n")
    code, out, err = run_cli(files / "q2.qrels", files / "mine.run", "--topic", "2", "--format", "jsonl")
    assert code == 0, err
    [topic] = records(out, "topic")
    assert topic["ranked"] == 0 and topic["as_is"] == 0 and topic["perfect"] == 1 and topic["unretrieved"] == 1
    assert records(out, "article") == []
    code, out, _ = run_cli(files / "q2.qrels", files / "mine.run", "--topic", "2")
    assert code == 0 and "topic 2: 0 ranked" in out
