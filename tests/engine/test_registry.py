"""The measures' registry (engine/core/registry.py, engine/core/doc_kinds.py, engine/core/list_kinds.py): every
measure declared once and read from there; a declaration without a batch computation refused at
registration; every declared document measure's batch computation equal to its per-article one."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readsim.core import intervals as iv
from readsim.core import listmeasures as lm
from readsim.core import registry
from readsim.core.doc_evaluation import ArticleColumns
from readsim.core.costs import COST_KINDS
from readsim.core.measure import (DEFAULT_DOC_MEASURE, DEFAULT_LIST_MEASURE, LIST_KINDS, DocMeasure, ListMeasure,
                                    parse_any, parse_list_measure, parse_measure)
from readsim.core.registry import DOC, LIST, WEIGHT, Param, RegistrationError, document_measure
from readsim.core.parameter_sweep import PARAMETERS, WEIGHTS

from .strategies import passages


def _example(decl, size=300, weight=0.5) -> DocMeasure:
    """A measure of kind ``decl`` with every parameter set (sizes to ``size``, weights to ``weight``)."""
    fields = {p.field: size if p.kind != WEIGHT else weight for p in decl.params}
    return DocMeasure(decl.kind, **fields, lower_is_better=decl.lower_is_better)


def test_every_document_measure_parses_back_from_its_name():
    for decl in DOC.values():
        m = _example(decl)
        assert parse_measure(m.name) == m, decl.kind
        assert parse_any(m.name) == m
        assert m.null_value(4) == (5.0 if decl.null == "NR" else 0.0)
        assert decl.article is not None and decl.batch is not None
        assert decl.section.startswith("4.") and decl.help and decl.formula


def test_every_list_measure_parses_back_from_its_name():
    assert LIST_KINDS == tuple(LIST)
    for decl in LIST.values():
        doc = {None: None, "any": DocMeasure("F", 0, 0.25), "effort": DocMeasure("LE", 300, lower_is_better=True),
               "reader": DocMeasure("T2IP", 300)}
        m = ListMeasure(decl.kind, 3 if decl.grammar != "bare" else 0, doc[decl.doc])
        assert parse_list_measure(m.name) == m
        assert m.lower_is_better == decl.lower_is_better and m.is_count == decl.count
        assert decl.section.startswith("5.") and decl.help


def test_what_reads_the_registry():
    assert set(PARAMETERS) == {p.name for d in DOC.values() for p in d.params}
    assert set(WEIGHTS) == {p.name for d in DOC.values() for p in d.params if p.kind == WEIGHT}
    assert set(COST_KINDS) == {k for k, d in LIST.items() if d.costs} == {"AgP", "gP", "CE", "NCE", "ANCE"}
    assert {k for k, d in LIST.items() if d.replaced and d.moved} == {"AgP", "gP"}
    assert parse_list_measure(DEFAULT_LIST_MEASURE).doc == parse_measure(DEFAULT_DOC_MEASURE)
    for decl in DOC.values():
        for form in decl.forms:
            assert form in registry.doc_grammar()


def test_a_measure_without_a_batch_computation_is_refused_at_registration():
    with pytest.raises(RegistrationError, match="no batch computation"):
        document_measure("NoBatch", "call", (Param("k"),), article=lambda m, doc, levels: 0.0,
                         section="4.9", formula="", help="")
    with pytest.raises(RegistrationError, match="declared twice"):
        document_measure("aveChP", "bare", (), both=lambda m, doc, levels: 0.0, section="4.1", formula="", help="")
    with pytest.raises(RegistrationError, match="grammar"):
        document_measure("Bad", "at", (), both=lambda m, doc, levels: 0.0, section="4.9", formula="", help="")
    with pytest.raises(RegistrationError, match="costs need"):
        registry.list_measure("NoTable", "bare", "any", lambda r, m, levels: 0.0, costs=True, section="5.4", help="")
    assert "NoBatch" not in DOC and "Bad" not in DOC and "NoTable" not in LIST


def test_a_measure_declared_once_is_parsed_computed_and_listed(monkeypatch):
    """One declaration block makes a document measure: parsed, named, in the help, computed per
    article and column-wise (the declaration is removed again after the test)."""
    monkeypatch.setattr(registry, "DOC", dict(DOC))
    monkeypatch.setattr("readsim.core.measure.DOC", registry.DOC)
    document_measure("Half", "call", (Param("k"),),
                     article=lambda m, doc, levels: doc.chp_at(m.k) / 2, batch=lambda m, b, levels: b.chp_at(m.k) / 2,
                     section="4.9", formula="Half(k) = ChP@k / 2", help="half of ChP@k")
    m = parse_measure("Half(10)")
    assert m == DocMeasure("Half", 10) and m.name == "Half(10)" and "Half(k)" in registry.doc_grammar()
    assert parse_list_measure("AgP/Half(10)").doc == m
    cols = ArticleColumns.of([iv.as_array([(0, 20)])], [iv.as_array([(10, 40)])], [50], [0])
    (doc,) = cols.evaluations("natural")
    assert m.value(doc) == pytest.approx(0.5 * DocMeasure("ChP", 10).value(doc))
    assert lm.batch_scores(m, cols.evaluate("natural")).tolist() == [m.value(doc)]


@st.composite
def _articles(draw):
    out = []
    for _ in range(draw(st.integers(1, 6))):
        doc_length = draw(st.integers(1, 300))
        out.append((doc_length, draw(passages(doc_length + 10)), draw(st.none() | passages(doc_length + 40)),
                    draw(st.integers(0, doc_length))))
    return out


@settings(max_examples=150, deadline=None)
@given(arts=_articles(), mode=st.sampled_from(["natural", "worst", "best", "document", "entry"]),
       size=st.integers(1, 400), weight=st.floats(0.05, 4.0), levels=st.integers(1, 6))
def test_every_declared_batch_computation_is_its_article_computation(arts, mode, size, weight, levels):
    rel = [iv.normalize(r) if r else iv.EMPTY for _, r, _, _ in arts]
    ret = [None if t is None else (iv.normalize(t) if t else iv.EMPTY) for _, _, t, _ in arts]
    cols = ArticleColumns.of(rel, ret, [d for d, _, _, _ in arts], [e for _, _, _, e in arts])
    batch, docs = cols.evaluate(mode), cols.evaluations(mode)
    for decl in DOC.values():
        if decl.needs_qrels:
            continue
        m = _example(decl, size, weight)
        got = m.compute(batch, levels)
        expected = [m.value(doc, levels) for doc in docs]
        assert np.allclose(got, expected, rtol=0, atol=1e-9), (m.name, got, expected)
