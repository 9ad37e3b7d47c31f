"""Measure names (SPEC section 6): canonical names parse back to themselves."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readsim.engine.document import Settings
from readsim.engine.measure import DocMeasure, UnknownMeasure, panel_measures, parse_measure

CANONICAL = ["aveChP", "ChP@600", "ChR@600", "T2IP(300)", "T2IR(300)", "T2IF(300)", "T2IF(300,0.5)",
             "LE(300)", "ES(300)", "P_set", "R_set", "F(0.25)"]


@pytest.mark.parametrize("name", CANONICAL)
def test_canonical_names_round_trip(name):
    m = parse_measure(name)
    assert m.name == name == str(m)
    assert parse_measure(m.name) == m


def test_parsed_parameters():
    assert parse_measure("ChP@600") == DocMeasure("ChP", 600)
    assert parse_measure("T2IF(300,0.5)") == DocMeasure("T2IF", 300, 0.5)
    assert parse_measure("F(0.25)") == DocMeasure("F", 0, 0.25)
    assert parse_measure("LE(300)").lower_is_better and parse_measure("ES(300)").lower_is_better
    assert not parse_measure("aveChP").lower_is_better
    # T2IF with alpha 1 prints without it; spaces are tolerated on input
    assert parse_measure("T2IF(300,1)").name == "T2IF(300)"
    assert parse_measure(" T2IF( 300 , 0.5 ) ").name == "T2IF(300,0.5)"
    assert parse_measure("F(1)").name == "F(1)"


@pytest.mark.parametrize("bad", ["", "avechp", "ChP@", "ChP@0", "T2IP(0)", "LE(-3)", "F()", "T2IP(300",
                                 "AgP", "P@10", "ES(300,2)", "F(0.25)x"])
def test_unknown_names_raise(bad):
    with pytest.raises(UnknownMeasure):
        parse_measure(bad)
    assert issubclass(UnknownMeasure, ValueError)


def test_panel_names_round_trip():
    for s in (Settings(), Settings(screen=2000, tolerance=600, alpha=0.5, beta=1.0)):
        for m in panel_measures(s):
            assert parse_measure(m.name) == m


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["ChP", "ChR", "T2IP", "T2IR", "T2IF", "LE", "ES", "F"]), st.integers(1, 10**6),
       st.floats(0.01, 100, allow_nan=False))
def test_generated_measures_round_trip(kind, k, w):
    if kind == "F":
        m = DocMeasure("F", 0, w)
    elif kind == "T2IF":
        m = DocMeasure("T2IF", k, w)
    else:
        m = DocMeasure(kind, k, lower_is_better=kind in ("LE", "ES"))
    assert parse_measure(m.name) == m
    assert parse_measure(m.name).name == m.name
