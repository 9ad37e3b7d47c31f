"""Unjudged articles: ``Judged@k`` and condensed lists (docs/reference.md sections 5.12, 5.13;
section 7, policy 16), by hand on a small topic, against the run file with the unjudged lines
deleted (hypothesis), through the API and the CLI, and on the real INEX data."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import readsim
from readsim.cli import main
from readsim.core import listmeasures as lm
from readsim.core.formats import read_qrels, read_run
from readsim.core.measure import parse_list_measure
from readsim.operations.evaluate import topic_ranking, topic_values

# topic 1: A and B relevant (0:27 of 55), N judged non-relevant; U is not in the qrels
QRELS = "1 Q0 A 27 55 0 0:27\n1 Q0 B 27 55 0 0:27\n1 Q0 N 0 40\n"
# U unjudged at rank 1; A and B read whole (F(0.25) = 1), N reads 10 non-relevant characters
RUN = "1 Q0 U 1 0.9 r 0 10\n1 Q0 A 2 0.8 r 0 27\n1 Q0 N 3 0.7 r 0 10\n1 Q0 B 4 0.6 r 0 27\n"
NAMES = ["gP@1/F(0.25)", "AgP/F(0.25)", "MAP", "Judged@1", "Judged@2", "Judged@4", "Judged@10", "num_ret"]


def _files(tmp_path: Path, qrels: str, run: str, name: str = "t.run") -> tuple[Path, Path]:
    q, r = tmp_path / "t.qrels", tmp_path / name
    q.write_text(qrels)
    r.write_text(run)
    return q, r


def _means(tmp_path, qrels, run, names, **kw) -> dict[str, float]:
    q, r = _files(tmp_path, qrels, run)
    return lm.evaluate(read_qrels(q), read_run(r), [parse_list_measure(n) for n in names], **kw).means


def test_judged_and_condensed_by_hand(tmp_path):
    plain = _means(tmp_path, QRELS, RUN, NAMES)
    # U A N B, S = 0 1 0 1, Nrel = 2
    assert plain["gP@1/F(0.25)"] == 0.0
    assert plain["AgP/F(0.25)"] == pytest.approx((1 / 2 + 2 / 4) / 2)  # 0.5
    assert plain["MAP"] == pytest.approx(0.5)
    assert plain["Judged@1"] == 0.0 and plain["Judged@2"] == 0.5 and plain["Judged@4"] == 0.75
    assert plain["Judged@10"] == pytest.approx(0.3)  # ranks 5..10 past the end of the run: not judged
    assert plain["num_ret"] == 4
    condensed = _means(tmp_path, QRELS, RUN, NAMES, condensed=True)
    # A N B, S = 1 0 1
    assert condensed["gP@1/F(0.25)"] == 1.0
    assert condensed["AgP/F(0.25)"] == pytest.approx((1 / 1 + 2 / 3) / 2)  # 5/6
    assert condensed["MAP"] == pytest.approx(5 / 6)
    assert condensed["Judged@1"] == 1.0 and condensed["Judged@2"] == 1.0 and condensed["Judged@4"] == 0.75
    assert condensed["num_ret"] == 3


def test_judged_topic_by_topic_and_in_the_window_s_ranking(tmp_path):
    """The fast path (RankingTable) and Ranking.value agree; so does the window's topic ranking
    (``topic_ranking``: judged from the qrels it is given)."""
    q, r = _files(tmp_path, QRELS, RUN)
    qrels, run = read_qrels(q), read_run(r)
    ranked = lm.rank_topics(qrels, run, [])
    assert ranked["1"].judged.tolist() == [False, True, True, True]
    m = parse_list_measure("Judged@2")
    assert ranked["1"].value(m) == 0.5 and lm.RankingTable([ranked["1"]]).values(m).tolist() == [0.5]
    window = topic_ranking("1", qrels.topics["1"], ["U", "A", "N", "B"], [None] * 4, [])
    assert topic_values(window, [m, parse_list_measure("Judged@3")]) == {"Judged@2": 0.5, "Judged@3": 2 / 3}
    assert topic_values(window.condensed(), [m]) == {"Judged@2": 1.0}
    empty = lm.Ranking.empty("1", qrels, [])
    assert empty.value(m) == 0.0 and empty.condensed() is empty


def test_judged_takes_no_document_measure():
    with pytest.raises(ValueError):
        parse_list_measure("Judged@10/F(0.25)")
    with pytest.raises(ValueError):
        parse_list_measure("Judged")
    assert parse_list_measure("Judged@10").name == "Judged@10"


def test_condensed_focused_task_drops_the_unjudged_lines(tmp_path):
    # iP over lines: U retrieves 10 non-relevant characters first; condensed, A's 27 relevant come first
    plain = _means(tmp_path, QRELS, RUN, ["iP[0.00]", "MAiP"])
    condensed = _means(tmp_path, QRELS, RUN, ["iP[0.00]", "MAiP"], condensed=True)
    assert plain["iP[0.00]"] == pytest.approx(27 / 37)
    assert condensed["iP[0.00]"] == 1.0
    assert condensed["MAiP"] > plain["MAiP"]


# -- condensed == the run file without its unjudged lines ----------------------------------------

MEASURES = ["AgP/F(0.25)", "AgP/aveChP", "gP@1/F(0.25)", "gP@3/T2IF(20)", "gP(plain)@8/F(0.25)", "gR@2", "MAP",
            "AgP'/F(0.25)", "ircl_prn.0.50/F(0.25)", "NCE@5/LE(20)", "CE@3/ES(20)", "iP[0.10]", "MAiP", "Judged@3",
            "num_ret", "num_rel_ret"]


@st.composite
def collections(draw, unjudged: bool = True):
    """Qrels and a run over 1..3 topics: each topic has 1..4 relevant articles (passages within a
    60-character article), 0..2 judged non-relevant ones and, with ``unjudged``, unjudged ones;
    the run ranks a shuffle of some of them (at least one line per topic), one passage each."""
    qrels, run, unjudged_lines = [], [], []
    for t in range(1, draw(st.integers(1, 3)) + 1):
        pool = []
        for a in range(draw(st.integers(1, 4))):
            start = draw(st.integers(0, 50))
            length = draw(st.integers(1, 60 - start))
            qrels.append(f"{t} Q0 R{a} {length} 60 0 {start}:{length}")
            pool.append((f"R{a}", True))
        for a in range(draw(st.integers(0, 2))):
            qrels.append(f"{t} Q0 N{a} 0 60")
            pool.append((f"N{a}", True))
        for a in range(draw(st.integers(0, 4)) if unjudged else 0):
            pool.append((f"U{a}", False))
        ranked = draw(st.permutations(pool))
        ranked = ranked[:draw(st.integers(1, len(ranked)))]
        for rank, (name, judged) in enumerate(ranked, 1):
            start = draw(st.integers(0, 55))
            line = f"{t} Q0 {name} {rank} {1 / rank:.4f} r {start} {draw(st.integers(0, 60 - start))}"
            run.append(line)
            if not judged:
                unjudged_lines.append(line)
    return "\n".join(qrels) + "\n", run, unjudged_lines


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(collections(), st.booleans())
def test_condensed_is_the_run_without_its_unjudged_lines(tmp_path, case, complete):
    qrels, lines, unjudged = case
    q, full = _files(tmp_path, qrels, "\n".join(lines) + "\n")
    kept = tmp_path / "kept.run"  # the same run file, its unjudged articles' lines deleted
    kept.write_text("".join(f"{line}\n" for line in lines if line not in unjudged))
    judged, measures = read_qrels(q), [parse_list_measure(n) for n in MEASURES]
    condensed = lm.evaluate(judged, read_run(full), measures, complete=True, condensed=True)
    deleted = lm.evaluate(judged, read_run(kept), measures, complete=True)
    assert condensed.topics == deleted.topics
    for name in MEASURES:
        assert condensed.values[name] == pytest.approx(deleted.values[name], rel=0, abs=1e-12), name
    if not complete:  # the run's own topics: a topic with only unjudged lines stays, its ranking empty
        own = lm.evaluate(judged, read_run(full), measures, condensed=True)
        assert set(own.topics) == {line.split()[0] for line in lines}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(collections(unjudged=False))
def test_without_unjudged_articles_condensed_changes_nothing(tmp_path, case):
    qrels, lines, unjudged = case
    assert not unjudged
    q, r = _files(tmp_path, qrels, "\n".join(lines) + "\n")
    judged, run, measures = read_qrels(q), read_run(r), [parse_list_measure(n) for n in MEASURES]
    plain = lm.evaluate(judged, run, measures)
    condensed = lm.evaluate(judged, run, measures, condensed=True)
    assert condensed.values == plain.values and condensed.means == plain.means
    assert plain.means["Judged@3"] == condensed.means["Judged@3"]


# -- the API and the command line ----------------------------------------------------------------


def _two_topics(tmp_path) -> tuple[Path, Path, Path]:
    """QRELS and RUN for topics 1 and 2; a second run "o" ranks U last (A N B U): the same
    condensed list."""
    both = lambda text: text + text.replace("1 Q0", "2 Q0")  # noqa: E731
    q, r = _files(tmp_path, both(QRELS), both(RUN))
    last = "1 Q0 A 1 0.9 o 0 27\n1 Q0 N 2 0.8 o 0 10\n1 Q0 B 3 0.7 o 0 27\n1 Q0 U 4 0.6 o 0 10\n"
    other = tmp_path / "other.run"
    other.write_text(both(last))
    return q, r, other


def test_the_api_evaluate_and_compare_take_condensed(tmp_path):
    q, r, other = _two_topics(tmp_path)
    frame = readsim.evaluate(q, r, ["gP@1/F(0.25)", "AgP/F(0.25)"], condensed=True)
    assert dict(zip(frame.measure, frame.value)) == pytest.approx({"gP@1/F(0.25)": 1.0, "AgP/F(0.25)": 5 / 6})
    frame = readsim.evaluate(q, r, ["gP@1/F(0.25)"], per="topic")
    assert frame.value.tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match="condensed"):
        readsim.evaluate(q, r, condensed="yes")
    plain = readsim.compare(q, [r, other], ["gP@1/F(0.25)"], resamples=50).to_frame()
    condensed = readsim.compare(q, [r, other], ["gP@1/F(0.25)"], resamples=50, condensed=True).to_frame()
    column = ("gP@1/F(0.25)", "mean")
    assert plain[column].to_dict() == {"r": 0.0, "o": 1.0} and condensed[column].to_dict() == {"r": 1.0, "o": 1.0}


def _cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def test_the_command_line(tmp_path):
    q, r = _files(tmp_path, QRELS, RUN)
    code, out, _ = _cli(q, r, "-m", "gP@1/F(0.25)", "-m", "Judged@2")
    assert code == 0 and out.splitlines()[1:] == ["gP@1/F(0.25)\tall\t0.000000", "Judged@2\tall\t0.500000"]
    code, out, _ = _cli(q, r, "-m", "gP@1/F(0.25)", "-m", "Judged@2", "--condensed")
    assert code == 0 and out.splitlines()[1:] == ["gP@1/F(0.25)\tall\t1.000000", "Judged@2\tall\t1.000000"]
    code, out, _ = _cli("--help")
    assert "Judged@k" in out and "--condensed" in out
    code, _, err = _cli(q, r, "-m", "Judged")
    assert code == 2 and "Judged@k" in err


def test_compare_on_the_command_line(tmp_path):
    q, r, other = _two_topics(tmp_path)
    code, out, _ = _cli("compare", q, r, other, "-m", "gP@1/F(0.25)", "--format", "tsv", "--condensed",
                        "--resamples", "50")
    assert code == 0
    means = [row.split("\t") for row in out.splitlines() if row.startswith("mean\t")]
    assert sorted(row[2] for row in means) == ["o", "r"] and [float(row[4]) for row in means] == [1.0, 1.0]
    code, out, _ = _cli("compare", q, r, other, "-m", "gP@1/F(0.25)", "--no-doc", "--condensed", "--resamples", "50")
    assert code == 0 and "condensed lists" in out.splitlines()[0]


# -- the real INEX data ---------------------------------------------------------------------------


def test_judged_at_10_on_the_real_data(inex):
    """Topic 2009001 of indri-documents.run, by hand from the files: its first 10 ranked articles
    (file order, each article once), those with a line in the qrels for the topic, over 10."""
    qrels_path, run_path = inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "indri-documents.run"
    topic = "2009001"
    judged = {line.split()[2] for line in qrels_path.read_text().splitlines() if line.split()[:1] == [topic]}
    ranked: list[str] = []
    for line in run_path.read_text().splitlines():
        fields = line.split()
        if fields[:1] == [topic] and fields[2] not in ranked:
            ranked.append(fields[2])
    by_hand = sum(name in judged for name in ranked[:10]) / 10
    code, out, _ = _cli(qrels_path, run_path, "-m", "Judged@10", "-q")
    assert code == 0
    values = {row.split("\t")[1]: float(row.split("\t")[2]) for row in out.splitlines()[1:]}
    assert values[topic] == pytest.approx(by_hand, abs=5e-7) and by_hand == 0.7
    engine = lm.evaluate(read_qrels(qrels_path), read_run(run_path), [parse_list_measure("Judged@10")])
    assert engine.values["Judged@10"][topic] == by_hand
    assert np.mean(list(engine.values["Judged@10"].values())) == pytest.approx(values["all"], abs=5e-7)
