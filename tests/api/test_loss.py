"""``readsim.loss`` (reference section 5.11): the hand-worked topic of tests/test_cli_loss.py,
bad arguments, and the same numbers as ``readsim-eval loss`` on the real data."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

import readsim
from readsim.cli import main

QRELS = "1 Q0 a 10 100 0 0:10\n1 Q0 b 20 100 0 0:20\n"
RUN = "1 Q0 x 1 3 mine 0 10\n1 Q0 a 2 2 mine 0 10\n1 Q0 b 3 1 mine 0 10\n"
OTHER = "1 Q0 a 1 2 theirs 0 10\n1 Q0 b 2 1 theirs 0 20\n"


@pytest.fixture
def files(tmp_path):
    for name, text in {"q.qrels": QRELS, "mine.run": RUN, "theirs.run": OTHER}.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def test_by_hand(files):
    """S = 0, 1, 17/18 (x unjudged; b retrieves half its relevant text: F(0.25) = 17/18); AgP as
    is 31/54; b's browse cost 1/108; x to rank 3: +89/216; b to rank 1: +2/9 (worked in
    tests/test_cli_loss.py); against the competitor, a to rank 1: +1/4, b to rank 2: -1/72."""
    f = readsim.loss(files / "q.qrels", files / "mine.run", vs=files / "theirs.run")
    assert list(f.article) == ["x", "a", "b"] and list(f.ideal_rank) == [3, 2, 1]
    assert list(f.browse_cost) == pytest.approx([0, 0, 1 / 108])
    assert list(f.rank_cost) == pytest.approx([89 / 216, 0, 2 / 9])
    assert list(f.vs_rank) == [0, 1, 2] and np.isnan(f.vs_rank_cost[0])
    assert list(f.vs_rank_cost[1:]) == pytest.approx([1 / 4, -1 / 72])
    t = readsim.loss(files / "q.qrels", files / "mine.run", per="topic")
    assert t.as_is[0] == pytest.approx(31 / 54) and t.ideal_ranking[0] == pytest.approx(23 / 24)


def test_bad_arguments(files):
    with pytest.raises(ValueError, match="no per-article costs for MAP"):
        readsim.loss(files / "q.qrels", files / "mine.run", "MAP")
    with pytest.raises(ValueError, match="per must be"):
        readsim.loss(files / "q.qrels", files / "mine.run", per="run")
    with pytest.raises(readsim.InputError, match="topic 7"):
        readsim.loss(files / "q.qrels", files / "mine.run", topics=["7"])


def test_same_numbers_as_the_cli(inex):
    qrels, run = inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "indri-passages.run"
    out, err = io.StringIO(), io.StringIO()
    assert main(["loss", str(qrels), str(run), "--topic", "2009003", "--format", "jsonl"], out, err) == 0
    rows = [r for r in map(json.loads, out.getvalue().splitlines()) if r["kind"] == "article"]
    f = readsim.loss(qrels, run, topics=["2009003"])
    assert list(f.article) == [r["article"] for r in rows]
    assert list(f.browse_cost) == [r["browse_cost"] for r in rows]
    assert list(f.rank_cost) == [r["rank_cost"] for r in rows]
