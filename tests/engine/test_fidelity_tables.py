"""Fidelity tables (readsim.core.fidelity_tables; Kamps et al. 2008, Tables 1 and 2): the paper's table as
data, the verdicts on hand-made scores, and the real data's complete topics, where AgP/F(0.25)
must respect the 28 orderings the paper confirms on every topic."""

from __future__ import annotations

import math

import numpy as np
import pytest

from readsim.core.collection import Collection
from readsim.core.errors import InputError
from readsim.core.fidelity_tables import (ALWAYS, ON_AVERAGE, ORDERINGS, PAPER_TABLE1, PAPER_TABLE2, RESPECTED, REVERSED,
                                     check_topics, complete_topics, fidelity_from_scores, fidelity_tables)
from readsim.core.formats import read_qrels
from readsim.core.simulated import run_names

from helpers.engine_cases import COMPLETE, TABLE2_ALWAYS


def test_the_papers_table_2_as_data():
    assert len(ORDERINGS) == 36 and len(set(ORDERINGS)) == 36
    names = set(run_names())
    assert all(a in names and b in names for a, b in ORDERINGS)
    for agp, prime in PAPER_TABLE2.values():  # every row counts the 114 INEX 2006 topics
        assert agp.better + agp.equal + agp.worse == 114
        assert prime.better + prime.equal + prime.worse == 114
    # the 28 rows without a "<" topic under AgP are the list the simulated-run tests already use
    assert len(ALWAYS) == 28 and ALWAYS == [tuple(p) for p in TABLE2_ALWAYS]
    # AgP' reverses four orderings in the paper (negative Diff): the non-relevant article first
    assert [o for o, (_, p) in PAPER_TABLE2.items() if p.diff < 0] == [
        ("SRI", "SRSI"), ("SLRI", "SLRSI"), ("SSRI", "SSRSI"), ("SSTRI", "SSTRSI")]
    assert PAPER_TABLE1["SLDRSI"][0] == 0.4664 and len(PAPER_TABLE1) == 20


def scores_where(cells: dict[str, list[float]], t: int = 3, base: float = 0.5) -> np.ndarray:
    """One measure: every run scores ``base`` on every topic except those in ``cells``."""
    x = np.full((1, 20, t), base)
    for run, values in cells.items():
        x[0, run_names().index(run)] = values
    return x


def test_verdicts_on_hand_made_scores():
    # SR better than SLR on 2 topics, equal on 1: respected. SLR vs SLRS: SLRS better on one topic,
    # worse on two, by more: on average. SSR vs SSTR: SSTR better on average: reversed.
    x = scores_where({"SR": [0.9, 0.7, 0.6], "SLR": [0.6, 0.7, 0.3], "SLRS": [0.5, 0.75, 0.2],
                      "SSR": [0.5, 0.5, 0.5], "SSTR": [0.6, 0.6, 0.4]})
    f = fidelity_from_scores(x, ["AgP/F(0.25)"], ["1", "2", "3"])
    row = {o: i for i, o in enumerate(f.orderings)}
    i = row[("SR", "SLR")]
    assert (f.better[0, i], f.equal[0, i], f.worse[0, i], f.verdict[0][i]) == (2, 1, 0, RESPECTED)
    assert f.diff[0, i] == pytest.approx(0.2)  # (0.3 + 0 + 0.3) / 3
    i = row[("SLR", "SLRS")]
    assert (f.better[0, i], f.worse[0, i], f.verdict[0][i]) == (2, 1, ON_AVERAGE)
    assert f.diff[0, i] == pytest.approx(0.05)  # (0.1 - 0.05 + 0.1) / 3
    i = row[("SSR", "SSTR")]
    assert (f.better[0, i], f.worse[0, i], f.verdict[0][i]) == (1, 2, REVERSED)
    assert ("SSR", "SSTR") in f.with_verdict(0, REVERSED) and ("SR", "SLR") in f.with_verdict(0, RESPECTED)
    # runs scoring alike on every topic tie: respected, with no t-test (the paper's "-")
    i = row[("SRI", "SRSI")]
    assert f.verdict[0][i] == RESPECTED and ("SRI", "SRSI") in f.tied(0) and math.isnan(f.p[0, i])
    # means: SR 0.7333 is the best; SLRS 0.4833 the worst
    assert f.best(0) == ["SR"] and f.worst(0) == ["SLRS"]


def test_diff_and_two_sided_t_test_by_hand():
    # SR - SLR = (0.01, 0.02, 0.03): mean 0.02, sd 0.01, t = 0.02 / (0.01 / sqrt 3) = 2 sqrt 3 with 2 df;
    # two-sided p = 2 (1/2 - t / (2 sqrt(2 + t^2))) = 1 - t / sqrt(2 + t^2) = 1 - sqrt(12 / 14)
    x = scores_where({"SR": [0.51, 0.52, 0.53]})
    f = fidelity_from_scores(x, ["AgP/F(0.25)"], ["1", "2", "3"])
    i = f.orderings.index(("SR", "SLR"))
    assert f.diff[0, i] == pytest.approx(0.02)
    assert f.p[0, i] == pytest.approx(1 - math.sqrt(12 / 14), abs=1e-9)  # 0.0742
    assert math.isnan(f.p[0, f.orderings.index(("SLR", "SLDR"))])  # every difference 0


def test_lower_is_better_measures_are_oriented():
    # ANCE: SR with less effort than SLR on every topic respects "SR >= SLR"
    x = scores_where({"SR": [1.0, 2.0, 3.0], "SLR": [2.0, 2.5, 3.5]}, base=5.0)
    f = fidelity_from_scores(x, ["ANCE@600/LE(300)"], ["1", "2", "3"])
    i = f.orderings.index(("SR", "SLR"))
    assert f.verdict[0][i] == RESPECTED and f.better[0, i] == 3 and f.diff[0, i] == pytest.approx(2 / 3)
    assert f.means[0, 0] == 2.0  # Table 1 in the measure's own direction
    assert f.best(0) == ["SR"]


def test_wrong_shape():
    with pytest.raises(ValueError, match="shape"):
        fidelity_from_scores(np.zeros((1, 19, 2)), ["AgP/F(0.25)"], ["1", "2"])


# -- the real data ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real(inex):
    return read_qrels(inex / "qrels" / "inex2009-2010.qrels"), Collection(inex / "articles")


def test_complete_topics_are_those_of_the_data_readme(real):
    qrels, collection = real
    assert complete_topics(qrels, collection) == list(COMPLETE)


def test_topics_the_collection_cannot_simulate(real):
    qrels, collection = real
    with pytest.raises(InputError, match=r"topic 2009011: 1 of its \d+ relevant articles \(first: 18413531\)"):
        check_topics(qrels, collection, ["2009067", "2009011"])
    with pytest.raises(InputError, match="topic 1999001 is not judged"):
        check_topics(qrels, collection, ["1999001"])
    assert check_topics(qrels, collection, ["2009074", "2009067", "2009074"]) == ["2009074", "2009067"]


@pytest.fixture(scope="module")
def table(real):
    qrels, collection = real
    seen = []
    f = fidelity_tables(qrels, collection, ["AgP/F(0.25)", "AgP/aveChP"], progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (20, 20) and len(seen) == 20
    return f


def test_agp_f_respects_the_28_orderings_the_paper_always_confirms(table):
    assert table.topics == list(COMPLETE)
    respected = table.with_verdict(0, RESPECTED)
    assert [o for o in ALWAYS if o not in respected] == []
    assert table.best(0)[0] == "SR" and table.worst(0) == ["SLDRSI"]
    assert table.means[0, run_names().index("SR")] == 1.0  # perfect passages, F = 1 on every article


def test_the_table_counts_every_topic_once(table):
    assert (table.better + table.equal + table.worse == len(COMPLETE)).all()
    # the rest is reported as measured; each verdict is one of the three
    assert all(v in (RESPECTED, ON_AVERAGE, REVERSED) for row in table.verdict for v in row)
