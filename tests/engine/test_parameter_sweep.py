"""Sweeps (reference 9.6): --vary parsing, measures' parameters, one article's sweep column-wise
(hand-worked values on a tiny article; equal to DocMeasure.value on the real data) and a run's
sweep (each row equal to plain evaluation of its measure's name, on the real run and the sample)."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest

import readsim
from readsim.operations.evaluate import evaluations
from readsim.operations.sweep import sweep_rows
from helpers.one_article import document
from readsim.core.doc_evaluation import evaluate_document
from readsim.core.formats import read_qrels, read_run
from readsim.core.measure import parse_any, parse_list_measure, parse_measure
from readsim.core.reading import Mode
from readsim.core.parameter_sweep import (VaryError, article_sweep, format_value, parameter_value, parameters_of,
                                  parse_vary, swept, with_parameter)

# -- --vary -----------------------------------------------------------------------------------


def test_vary_lists_and_ranges():
    assert parse_vary("t=50,100,50,300").values == (50, 100, 300)  # duplicates dropped, order kept
    assert parse_vary("beta=0.25,1").values == (0.25, 1.0)
    # 10, 100, 1000 evenly on a log scale; 1..9 in 5 evenly spaced steps of 2
    assert parse_vary("s=10:1000:3:log").values == (10, 100, 1000)
    assert parse_vary("k=1:9:5").values == (1, 3, 5, 7, 9)
    # rounded to 6 significant digits: 0.3, not 0.30000000000000004
    assert parse_vary("beta=0.1:0.5:5").values == (0.1, 0.2, 0.3, 0.4, 0.5)
    assert parse_vary("alpha=0.5:0.5:1").values == (0.5,)
    # 50 to 20000 on a log scale, 200 values: rounded to whole sizes, distinct, both ends kept
    v = parse_vary("s=50:20000:200:log")
    assert v.name == "s" and v.values[0] == 50 and v.values[-1] == 20000 and len(set(v.values)) == len(v.values)


@pytest.mark.parametrize("text, says", [
    ("t", "expected NAME=V1,V2,..."),
    ("=5", "expected NAME=V1,V2,..."),
    ("t=", "expected NAME=V1,V2,..."),
    ("q=1", "unknown parameter 'q'"),
    ("r=1", "unknown parameter 'r'"),
    ("t=1.5", "t must be a whole number"),
    ("t=0", "t must be a whole number from 1"),
    ("beta=0", "beta must be a finite number above 0"),
    ("beta=nan", "beta must be a finite number"),
    ("t=1:5", "a range is START:STOP:N"),
    ("t=1:5:2:lin", "a range is START:STOP:N"),
    ("t=1:5:0", "N must be a whole number from 1 to 10000"),
    ("t=1:5:x", "N must be a whole number"),
    ("t=1:20000:10001", "N must be a whole number from 1 to 10000"),
])
def test_bad_vary_names_what_is_wrong(text, says):
    with pytest.raises(VaryError, match=None) as info:
        parse_vary(text)
    assert says in str(info.value)


def test_parameters_of_measures_and_setting_them():
    assert parameters_of(parse_measure("T2IF(300)")) == ("t", "alpha")
    assert parameters_of(parse_list_measure("AgP/F(0.25)")) == ("beta",)
    assert parameters_of(parse_list_measure("ANCE@100/LE(300)")) == ("s",)
    assert parameters_of(parse_measure("aveChP")) == () and parameters_of(parse_list_measure("MAP")) == ()
    assert with_parameter(parse_measure("T2IF(300)"), "alpha", 0.5).name == "T2IF(300,0.5)"
    assert with_parameter(parse_list_measure("gP@10/ChP@300"), "k", 2000).name == "gP@10/ChP@2000"
    assert with_parameter(parse_list_measure("ANCE@100/LE(300)"), "s", 50).name == "ANCE@100/LE(50)"
    assert parameter_value(parse_measure("F(0.25)"), "beta") == 0.25
    for name in ("T2IF(300)", "AgP/F(0.25)", "BEP(500)", "CE@10/ES(300)"):
        m = parse_any(name)
        for p in parameters_of(m):
            moved = with_parameter(m, p, 7)
            assert parse_any(moved.name) == moved  # the canonical name parses back
    with pytest.raises(KeyError):
        with_parameter(parse_measure("aveChP"), "t", 5)
    assert format_value("beta", 0.25) == "0.25" and format_value("beta", 2.0) == "2" and format_value("t", 300) == "300"
    assert format_value("alpha", 0.00001) == "0.00001"


def test_swept_pairs_and_left_out():
    ms = [parse_list_measure(n) for n in ("AgP/T2IF(300)", "MAP", "gP@5/T2IP(300)")]
    pairs, left = swept(ms, parse_vary("t=50,100"))
    assert [m.name for m in left] == ["MAP"]
    assert [(v, [m.name for m in got]) for v, got in pairs] == [
        (50, ["AgP/T2IF(50)", "gP@5/T2IP(50)"]), (100, ["AgP/T2IF(100)", "gP@5/T2IP(100)"])]
    with pytest.raises(VaryError, match="no measure given has parameter s"):
        swept(ms, parse_vary("s=50"))


# -- one article, hand-worked -------------------------------------------------------------------
# R = [100, 300), T = [50, 150), doc_length 400, natural reading: the chain T first, N[50,100)
# R[100,150), then the rest in document order N[0,50) R[150,300) N[300,400): N50 R50 N50 R150 N100.
# |R| = 200, first relevant position f = 51; set-based |R n T| = 50, |T| = 100: P = 1/2, R = 1/4.
TINY = evaluate_document(np.array([[100, 300]]), np.array([[50, 150]]), 400, Mode.NATURAL)


def _sweep(name: str, parameter: str, values):
    return article_sweep(TINY, parse_measure(name), parameter, values).tolist()


def test_tiny_article_chp_and_chr():
    # ChP@k: relevant among the first min(k, 400) read / that; k=25: none; k=100: 50; k=150: 50;
    # k=300: 50 + 150; k=1000: all 200 of 400
    assert _sweep("ChP@300", "k", [25, 100, 150, 300, 1000]) == pytest.approx([0, 0.5, 1 / 3, 2 / 3, 0.5])
    # ChR@k: relevant read / 200; k=75: 25 (of R[100,150)); k=125: 50 (N25 follows); k=300: all
    assert _sweep("ChR@300", "k", [75, 125, 300]) == pytest.approx([0.125, 0.25, 1.0])


def test_tiny_article_t2i():
    # the reader stops at the t-th non-relevant position: t=50 at 50 (nothing relevant read);
    # t=60: 100 read (50 relevant), 10 more: m=110, rel=50; t=101: N50 R50 N50 R150 then 1: m=301,
    # rel=200; t=500: never, m=400
    assert _sweep("T2IP(300)", "t", [50, 60, 101, 500]) == pytest.approx([0, 5 / 11, 200 / 301, 0.5])
    assert _sweep("T2IR(300)", "t", [50, 60, 101, 500]) == pytest.approx([0, 0.25, 1.0, 1.0])
    # T2IF(60) with alpha 1: 2 (5/11)(1/4) / (5/11 + 1/4) = 10/31; alpha 2: 5 (5/44) / (20/11 + 1/4) = 25/91
    assert _sweep("T2IF(300)", "t", [60]) == pytest.approx([10 / 31])
    assert _sweep("T2IF(60)", "alpha", [1, 2]) == pytest.approx([10 / 31, 25 / 91])


def test_tiny_article_le_es_and_f():
    # LE(s) = ceil(51 / s) capped at L = 4: s=51 -> 1, 50 -> 2, 17 -> 3, 10 -> 6 -> 4
    assert _sweep("LE(300)", "s", [51, 50, 17, 10]) == [1, 2, 3, 4]
    assert _sweep("ES(300)", "s", [51, 10]) == [1, 4]
    # F_b = (1 + b^2) P R / (b^2 P + R), P = 1/2, R = 1/4: b=1: 1/3; b=0.5: 5/12; b=2: 5/18
    assert _sweep("F(0.25)", "beta", [1, 0.5, 2]) == pytest.approx([float(Fraction(1, 3)), 5 / 12, 5 / 18])


def test_non_relevant_article_takes_the_null_values():
    doc = evaluate_document(np.zeros((0, 2), dtype=np.int64), np.array([[0, 50]]), 400)
    assert article_sweep(doc, parse_measure("LE(300)"), "s", [10, 1000]).tolist() == [5, 5]  # NR = L + 1
    assert article_sweep(doc, parse_measure("T2IF(300)"), "t", [10, 1000]).tolist() == [0, 0]
    with pytest.raises(ValueError, match="BEP"):
        article_sweep(TINY, parse_measure("BEP(500)"), "d", [10])


@pytest.mark.parametrize("mode", ["natural", "document", "worst", "best"])
def test_tiny_article_sweep_equals_plain_value_everywhere(mode):
    doc = TINY.in_mode(mode)
    for name, parameter, values in [("ChP@1", "k", range(1, 420, 7)), ("ChR@1", "k", range(1, 420, 7)),
                                    ("T2IP(1)", "t", range(1, 260, 3)), ("T2IR(1)", "t", range(1, 260, 3)),
                                    ("T2IF(1,0.5)", "t", range(1, 260, 3)), ("LE(1)", "s", range(1, 120)),
                                    ("ES(1)", "s", range(1, 120)), ("F(1)", "beta", [0.01, 0.25, 1, 3.5, 10]),
                                    ("T2IF(60)", "alpha", [0.01, 0.25, 1, 3.5, 10])]:
        m = parse_measure(name)
        got = article_sweep(doc, m, parameter, list(values)).tolist()
        assert got == pytest.approx([with_parameter(m, parameter, v).value(doc) for v in values], abs=1e-12), name


# -- real data ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real(inex):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read_qrels(inex / "qrels" / "inex2009-2010.qrels"), read_run(inex / "runs" / "bert-passages.run")


def test_article_sweep_equals_plain_value_on_real_articles(real):
    """The ten relevant ranked articles with the most relevant text of the real run, in two
    modes, 200 screen sizes / tolerances / values of beta: each equal to DocMeasure.value."""
    qrels, run = real
    found = []
    for topic, entries in run.topics.items():
        judged = qrels.topics.get(topic, {})
        found += [(judged[e.article].rel_size, topic, e) for e in entries
                  if e.article in judged and judged[e.article].relevant]
    found.sort(key=lambda x: -x[0])
    sizes = list(parse_vary("s=50:20000:200:log").values)
    betas = list(parse_vary("beta=0.01:10:200:log").values)
    for _, topic, entry in found[:10]:
        for mode in ("natural", "document"):
            doc = document(qrels, run, topic, entry, mode)
            for name, parameter, values in [("ChP@1", "k", sizes), ("T2IF(1)", "t", sizes), ("LE(1)", "s", sizes),
                                            ("ES(1)", "s", sizes), ("F(1)", "beta", betas),
                                            ("T2IF(300)", "alpha", betas)]:
                m = parse_measure(name)
                got = article_sweep(doc, m, parameter, values)
                want = [with_parameter(m, parameter, v).value(doc) for v in values]
                assert got.tolist() == pytest.approx(want, abs=1e-12), (topic, entry.article, name)


def _plain(qrels, run, names, **kw) -> dict[tuple[str, str], float]:
    """Plain evaluation of each measure name alone: (name, topic) -> value."""
    out = {}
    for name in names:
        (_, result), = evaluations(qrels, [run], [parse_any(name)], **kw)
        out.update({(name, t): v for t, v in result.values[name].items()})
        out[(name, "all")] = result.means[name]
    return out


@pytest.mark.parametrize("vary, measures", [
    ("t=10,300,5000", ["AgP/T2IF(300)", "gP@10/T2IP(300)", "MAP"]),
    ("s=50:20000:3:log", ["ANCE@100/LE(300)", "AgP/ES(300)"]),
    ("beta=0.25,1", ["AgP/F(0.25)"]),
    ("k=300,2000", ["AgP/ChP@300"]),
])
def test_run_sweep_rows_equal_plain_evaluation_real(real, vary, measures):
    qrels, run = real
    plan = parse_vary(vary)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows = list(sweep_rows(qrels, run, [parse_any(m) for m in measures], plan, per_topic=True))
        names = sorted({r.measure.name for r in rows})
        want = _plain(qrels, run, names)
    having = [m for m in measures if plan.name in parameters_of(parse_any(m))]
    assert len(names) == len(having) * len(plan.values)
    assert len(rows) == len(want)  # every topic and the mean, nothing else
    for r in rows:
        assert r.parameter == plan.name and parameter_value(r.measure, plan.name) == r.parameter_value
        assert r.value == want[(r.measure.name, r.topic)], (r.measure.name, r.topic)


def test_run_sweep_per_article_equals_plain_per_article_sample():
    s = readsim.sample()
    plan = parse_vary("s=10:1000:4:log")
    rows = list(sweep_rows(s.qrels, s.runs[0], [parse_measure("LE(300)"), parse_measure("aveChP")], plan,
                           per_article=True))
    frame = readsim.evaluate(s.qrels, s.runs[0], [f"LE({v})" for v in plan.values], per="article")
    want = {(m, a): v for m, a, v in zip(frame["measure"], frame["article"], frame["value"])}
    assert len(rows) == len(want) == 4 * 4  # 4 values x 4 ranked articles; aveChP has no s
    for r in rows:
        assert r.value == want[(r.measure.name, r.article)]
    # a larger screen never takes more screens to reach the first relevant character
    for article in {r.article for r in rows}:
        les = [r.value for r in rows if r.article == article]
        assert les == sorted(les, reverse=True)


def test_api_sweep_frame_sample():
    s = readsim.sample()
    frame = readsim.sweep(s.qrels, s.runs[0], ["AgP/T2IF(300)", "MAP"], "t=50,2000")
    assert list(frame.columns) == ["measure", "parameter", "parameter_value", "topic", "value"]
    assert list(frame["measure"]) == ["AgP/T2IF(50)", "AgP/T2IF(2000)"]
    plain = readsim.evaluate(s.qrels, s.runs[0], ["AgP/T2IF(50)", "AgP/T2IF(2000)"])
    assert list(frame["value"]) == list(plain["value"])
    per_topic = readsim.sweep(s.qrels, s.runs[0], "AgP/F(0.25)", "beta=0.5", per="topic")
    assert list(per_topic["topic"]) == ["2026001"]
    with pytest.raises(ValueError, match="no measure given has parameter k"):
        readsim.sweep(s.qrels, s.runs[0], "MAP", "k=5")
    with pytest.raises(ValueError, match="vary is required"):
        readsim.sweep(s.qrels, s.runs[0], "AgP/F(0.25)")


@pytest.mark.parametrize("measure, vary", [("AgP/T2IF(300)", "t=10:20000:6:log"), ("AgP/F(0.25)", "beta=0.1,1,4"),
                                           ("ANCE@50/LE(300)", "s=50:20000:5:log"), ("AgP/aveChP", "t=10,100"),
                                           ("gP@5/ChP@300", "k=50,300,2000")])
def test_topic_sweep_equals_the_engine_evaluation_of_the_topic(real, measure, vary):
    """The window's topic curve: a topic's list measure from its articles' evaluations, at each
    value equal to readsim.core.listmeasures.evaluate of the run cut to that topic (topic 2009074)."""
    from readsim.core.formats import Run
    from readsim.core.listmeasures import evaluate
    from readsim.core.parameter_sweep import topic_sweep

    qrels, run = real
    topic = "2009074"
    entries = run.topics[topic]
    judged = qrels.topics[topic]
    docs = [document(qrels, run, topic, e) for e in entries]
    relevant = np.array([e.article in judged and judged[e.article].relevant for e in entries])
    rsize = np.array([judged[e.article].rel_size if r else 0 for e, r in zip(entries, relevant)])
    nrel, trel = qrels.totals(topic)
    plan = parse_vary(vary)
    m = parse_list_measure(measure)
    steps = []
    got = topic_sweep(docs, relevant, rsize, nrel, trel, m, plan.name, plan.values, step=steps.append)
    one = Run(run.path, run.run_id, {topic: entries})
    for value, g in zip(plan.values, got.tolist()):
        concrete = with_parameter(m, plan.name, value) if plan.name in parameters_of(m) else m
        want = evaluate(qrels, one, [concrete]).values[concrete.name][topic]
        assert g == pytest.approx(want, abs=1e-12), (concrete.name, value)
    assert steps[-1] == 1.0 and steps == sorted(steps)


@pytest.mark.parametrize("per_article", [False, True])
def test_passes_of_a_few_measures_give_the_same_rows(monkeypatch, per_article):
    """A long sweep is evaluated a few measures a pass (memory stays bounded); the rows are the
    same, in the same order, as in one pass."""
    import readsim.operations.sweep as core

    s = readsim.sample()
    plan = parse_vary("t=10:5000:7:log")
    ms = [parse_measure("T2IF(300)"), parse_measure("T2IP(300)")] if per_article else \
        [parse_list_measure("AgP/T2IF(300)"), parse_list_measure("gP@2/T2IP(300)")]
    one = list(sweep_rows(s.qrels, s.runs[1], ms, plan, per_topic=True, per_article=per_article))
    monkeypatch.setattr(core, "CHUNK", 3)  # 7 values x 2 measures: passes of 2, 2, 2, ..., 2 measures
    assert [len(g) for g in core._chunks(swept(ms, plan)[0])] == [1] * 7
    monkeypatch.setattr(core, "CHUNK", 4)
    assert [len(g) for g in core._chunks(swept(ms, plan)[0])] == [2, 2, 2, 1]
    assert list(sweep_rows(s.qrels, s.runs[1], ms, plan, per_topic=True, per_article=per_article)) == one
