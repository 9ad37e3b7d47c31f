"""Property tests: the engine's list measures against the slow reference in list_reference.py.

Two checks: (1) the numpy arithmetic of readsim.core.listmeasures against the definitions, on
random score vectors; (2) whole runs (random qrels and runs written as files, read by the
engine's readers) against a rank-by-rank restatement of the official INEX tool, for its
Relevant in Context, Best in Context and Focused tasks, with and without -c.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from readsim.core import listmeasures as lm
from readsim.core.formats import read_qrels, read_run
from readsim.core.measure import parse_list_measure

from . import list_reference as ref

TOL = 1e-12


@st.composite
def rankings(draw):
    n = draw(st.integers(0, 12))
    rel = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    scores = [draw(st.floats(0, 1)) if r else draw(st.sampled_from([0.0, 0.0, 0.3])) for r in rel]
    rsize = [draw(st.integers(1, 500)) if r else 0 for r in rel]
    nrel = sum(rel) + draw(st.integers(0 if any(rel) else 1, 3))
    return scores, rel, rsize, nrel


@given(rankings(), st.integers(1, 20), st.booleans())
def test_list_arithmetic_matches_the_definitions(ranking, r, plain):
    scores, rel, rsize, nrel = ranking
    s, b = np.asarray(scores), np.asarray(rel, dtype=bool)
    assert lm.gp_at(s, r, plain) == pytest.approx(ref.gp(scores, r, plain), abs=TOL)
    if scores:
        assert lm.gr_at(b, nrel, r) == pytest.approx(ref.gr(rel, nrel, r), abs=TOL)
    assert lm.agp(s, b, nrel) == pytest.approx(ref.agp(scores, rel, nrel), abs=TOL)
    assert lm.average_precision(b, nrel) == pytest.approx(ref.average_precision(rel, nrel), abs=TOL)
    if any(rel):
        trel = sum(x for x, ok in zip(rsize, rel) if ok)
        assert lm.agp_prime(s, b, np.asarray(rsize), trel) == pytest.approx(ref.agp_prime(scores, rel, rsize), abs=TOL)
    curve = lm.interpolated_curve(lm.generalised_precision(s), lm.generalised_recall(b, nrel))
    assert curve.tolist() == pytest.approx(ref.curve(scores, rel, nrel), abs=TOL)


@given(st.lists(st.integers(1, 5), max_size=12), st.integers(0, 8), st.integers(1, 20))
def test_effort_arithmetic_matches_the_definitions(es, nrel, i):
    e = np.asarray(es, dtype=float)
    assert lm.cumulated_effort(e, i, 5)[-1] == pytest.approx(ref.ce(es, i, 5), abs=1e-9)
    assert lm.normalized_cumulated_effort(e, nrel, i, 5)[-1] == pytest.approx(ref.nce(es, nrel, i, 5), abs=1e-9)
    assert lm.average_nce(e, nrel, i, 5) == pytest.approx(ref.ance(es, nrel, i, 5), abs=1e-9)


# -- whole runs against the official tool ------------------------------------------------------


def _spans(draw, length: int, most: int) -> list[tuple[int, int]]:
    """Up to ``most`` disjoint non-empty spans inside [0, length), in document order."""
    cuts = sorted(set(draw(st.lists(st.integers(0, length), min_size=2, max_size=2 * most))))
    spans = [(cuts[k], cuts[k + 1]) for k in range(0, len(cuts) - 1, 2) if cuts[k + 1] > cuts[k]]
    return spans


@st.composite
def collections(draw, best_in_context: bool = False):
    """Random qrels lines and a well-formed run (what the official tool accepts)."""
    articles = [f"a{k}" for k in range(8)]
    lengths = {a: draw(st.integers(20, 400)) for a in articles}
    qrels, run = [], []
    topics = [f"20{k}" for k in range(draw(st.integers(1, 4)))]
    for t in topics:
        judged = draw(st.lists(st.sampled_from(articles), min_size=1, max_size=6, unique=True))
        relevant_any = False
        for k, a in enumerate(judged):
            spans = _spans(draw, lengths[a] - 1, 3)
            if k == 0 and not spans:
                spans = [(0, lengths[a] // 2)]
            if spans:
                relevant_any = True
                bep = draw(st.integers(0, lengths[a]))
                passages = " ".join(f"{s}:{e - s}" for s, e in spans)
                qrels.append(f"{t} Q0 {a} {sum(e - s for s, e in spans)} {lengths[a]} {bep} {passages}")
            else:
                qrels.append(f"{t} Q0 {a} 0 {lengths[a]}")
        assert relevant_any
    run_topics = [t for t in topics if draw(st.booleans())] + (["299"] if draw(st.booleans()) else [])
    for t in run_topics:
        for rank, a in enumerate(draw(st.lists(st.sampled_from(articles), max_size=8, unique=True)), 1):
            if best_in_context:
                spans = [(draw(st.integers(0, lengths[a])), 0)]
                spans = [(spans[0][0], spans[0][0] + 1)]
            else:
                spans = _spans(draw, lengths[a] + 30, 3) or [(0, lengths[a])]
                spans = draw(st.permutations(spans))
            for s, e in spans:
                run.append(f"{t} Q0 {a} {rank} {1 / rank:.4f} r {s} {e - s}")
    return qrels, run


def _engine(qrels_lines, run_lines, names, complete):
    with tempfile.TemporaryDirectory() as d:
        q, r = Path(d, "q.qrels"), Path(d, "r.run")
        q.write_text("\n".join(qrels_lines) + "\n")
        r.write_text("\n".join(run_lines) + "\n")
        return lm.evaluate(read_qrels(q), read_run(r), [parse_list_measure(n) for n in names], complete=complete)


def _compare(result, official, names_by_official):
    expected_topics = [t for t in official if t != "all"]
    assert result.topics == expected_topics
    for topic in expected_topics + ["all"]:
        got = result.means if topic == "all" else {n: result.values[n][topic] for n in result.values}
        for theirs, ours in names_by_official.items():
            if theirs in official[topic]:
                assert got[ours] == pytest.approx(official[topic][theirs], abs=TOL), (topic, ours)


def _in_context_names(doc: str) -> dict[str, str]:
    names = {"AgP": f"AgP/{doc}", "num_q": "num_q"}
    for c in ref.IN_CONTEXT_CUTOFFS:
        names[f"gP[{c}]"] = f"gP@{c}/{doc}"
        names[f"gR[{c}]"] = f"gR@{c}"
    for k in range(11):
        names[f"ircl_prn.{k / 10:.2f}"] = f"ircl_prn.{k / 10:.2f}/{doc}"
    return names


SLOW = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(collections(), st.booleans())
def test_relevant_in_context_matches_the_official_tool(data, complete):
    qrels, run = data
    names = _in_context_names("F(0.25)")
    _compare(_engine(qrels, run, list(names.values()), complete), ref.official(qrels, run, "r", complete), names)


@SLOW
@given(collections(best_in_context=True), st.booleans())
def test_best_in_context_matches_the_official_tool(data, complete):
    qrels, run = data
    names = _in_context_names("BEP(500)")
    _compare(_engine(qrels, run, list(names.values()), complete), ref.official(qrels, run, "b", complete), names)


@SLOW
@given(collections(), st.booleans())
def test_focused_matches_the_official_tool(data, complete):
    qrels, run = data
    names = {f"iP[{k / 100:.2f}]": f"iP[{k / 100:.2f}]" for k in ref.FOCUSED_CUTOFFS}
    names.update({"AiP": "MAiP", "MAiP": "MAiP", "num_q": "num_q"})
    _compare(_engine(qrels, run, list(dict.fromkeys(names.values())), complete), ref.official(qrels, run, "f", complete), names)
