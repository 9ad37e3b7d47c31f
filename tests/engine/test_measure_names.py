"""Measure names (docs/reference.md section 6): canonical names parse back to themselves."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readsim.operations.article_reading import panel_measures
from readsim.core.doc_evaluation import Settings
from readsim.core.measure import (MAX_WEIGHT, BadParameter, DocMeasure, UnknownMeasure, parse_count,
                                   parse_measure, parse_real)

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


# -- reference section 6: parameters out of range are errors naming the parameter ----------------------------

BAD_PARAMETERS = [
    ("F(nan)", "beta"), ("F(inf)", "beta"), ("F(-inf)", "beta"), ("F(1e400)", "beta"), ("F(-0.25)", "beta"),
    ("F(0)", "beta"), ("F(0.0)", "beta"), ("F(1000001)", "beta"), ("F(x)", "beta"), ("F()", "beta"),
    ("F(0x10)", "beta"), ("F(１)", "beta"),
    ("T2IP(nan)", "t"), ("T2IP(0)", "t"), ("T2IR(-1)", "t"), ("T2IP(1.5)", "t"), ("T2IP(1e3)", "t"),
    ("T2IF(1099511627777)", "t"), ("T2IF(300,nan)", "alpha"), ("T2IF(300,inf)", "alpha"),
    ("T2IF(300,0)", "alpha"), ("T2IF(300,-1)", "alpha"), ("T2IF(300,1e400)", "alpha"), ("T2IF(,1)", "t"),
    ("LE(0)", "s"), ("LE(-300)", "s"), ("LE(300.0)", "s"), ("ES(nan)", "s"), ("ES(" + "9" * 5000 + ")", "s"),
    ("ChP@0", "k"), ("ChP@-1", "k"), ("ChR@1.5", "k"), ("ChR@inf", "k"), ("ChP@", "k"),
    ("BEP(0)", "d"), ("BEP(nan)", "d"), ("BEP(-500)", "d"),
]


@pytest.mark.parametrize("name, parameter", BAD_PARAMETERS)
def test_bad_parameters_name_the_parameter(name, parameter):
    with pytest.raises(BadParameter) as info:
        parse_measure(name)
    text = str(info.value)
    assert f": {parameter} must be " in text and len(text) < 300
    assert issubclass(BadParameter, UnknownMeasure)


@pytest.mark.parametrize("name", ["ES(300,2)", "T2IF(300,1,2)", "LE(1,)", "F(0.25,1)"])
def test_wrong_number_of_parameters(name):
    with pytest.raises(BadParameter, match="takes"):
        parse_measure(name)


def test_edges_of_the_ranges_parse_and_round_trip():
    for name in ["ChP@1", "ChP@1099511627776", "T2IF(1,1000000)", "T2IF(300,0.000001)", "F(1000000)",
                 "LE(1099511627776)", "BEP(1)", "F(0.001)"]:
        m = parse_measure(name)
        assert m.name == name and parse_measure(m.name) == m
    assert parse_measure("F(2.5e-1)") == parse_measure("F(0.25)")  # exponents are read, names print positionally
    assert parse_measure("ChP@0300").name == "ChP@300"


def test_option_parameters():
    assert parse_count("4", "--levels", 1, 1000) == 4
    for bad in ["0", "-1", "1001", "1.5", "nan", "", "4 4", "1e3", "９"]:
        with pytest.raises(BadParameter, match="^--levels must be a whole number from 1 to 1000"):
            parse_count(bad, "--levels", 1, 1000)
    assert parse_real("0.01", "B", 0.01, 10) == 0.01 and parse_real("1e1", "B", 0.01, 10) == 10
    for bad in ["nan", "inf", "-inf", "1e400", "0", "10.5", "", "1/4"]:
        with pytest.raises(BadParameter, match="^B must be a finite number from 0.01 to 10"):
            parse_real(bad, "B", 0.01, 10)
    with pytest.raises(BadParameter, match="above 0 and at most 1"):
        parse_real("0", "w", 0.0, 1.0, low_inclusive=False)


@settings(max_examples=200, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True))
def test_any_float_beta_is_accepted_or_a_bad_parameter(w):
    try:
        m = parse_measure(f"F({w!r})")
    except BadParameter:
        assert not (0 < w <= MAX_WEIGHT)
    else:
        assert 0 < m.weight <= MAX_WEIGHT and parse_measure(m.name) == m


def test_the_reader_settings_give_every_measure_without_qrels_in_declaration_order():
    from readsim.core.doc_evaluation import Settings
    from readsim.core.measure import at_settings, reader_measures

    s = Settings(screen=500, tolerance=200, alpha=2.0, beta=0.5)
    assert [m.name for m in reader_measures(s)] == [
        "aveChP", "ChP@500", "ChR@500", "T2IP(200)", "T2IR(200)", "T2IF(200,2)", "LE(500)", "ES(500)",
        "P_set", "R_set", "F(0.5)"]
    assert [m.name for m in reader_measures(s) if m.lower_is_better] == ["LE(500)", "ES(500)"]
    assert at_settings("T2IF", Settings()).name == "T2IF(300)"  # alpha 1: its default, not written
    with pytest.raises(ValueError, match="BEP"):
        at_settings("BEP", s)  # d: no reader setting (BEP needs the qrels)
