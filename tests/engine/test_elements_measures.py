"""Element measure names parse back to themselves (docs/reference.md section 13.7)."""

from __future__ import annotations

import pytest

from readsim.core.element_retrieval import DEFAULT_MEASURES, looks_like_element_measure, parse_element_measure
from readsim.core.measure import UnknownMeasure

NAMES = ["AP_2002/strict", "AP_2002/gen", "AP_2003s/strict", "AP_2003s/gen", "AP_2003o/strict", "AP_2003o/gen",
         "iP_2002[0.00]/gen", "iP_2003s[0.50]/strict", "iP_2003o[1.00]/gen"]


@pytest.mark.parametrize("name", NAMES)
def test_canonical_names_parse_back(name):
    m = parse_element_measure(name)
    assert m.name == name and parse_element_measure(m.name) == m and str(m) == name


def test_spellings_are_printed_canonically():
    assert parse_element_measure(" AP_2003o / gen ").name == "AP_2003o/gen"
    assert parse_element_measure("iP_2002[ 0.10 ]/strict").name == "iP_2002[0.10]/strict"
    assert parse_element_measure("iP_2003o[0.25]/gen").x == 0.25


@pytest.mark.parametrize("text, reason", [
    ("AP_2004/gen", "unknown element measure"),
    ("AP_2003o/generous", "unknown element measure"),
    ("AP_2003o", "unknown element measure"),
    ("AP_2002[0.50]/gen", "AP takes no recall point"),
    ("iP_2002/gen", "iP needs a recall point"),
    ("iP_2002[1.01]/gen", "two decimals from 0.00 to 1.00"),
    ("iP_2002[0.5]/gen", "two decimals from 0.00 to 1.00"),
    ("iP_2002[0.500]/gen", "two decimals from 0.00 to 1.00"),
])
def test_bad_names(text, reason):
    with pytest.raises(UnknownMeasure, match=reason.replace("[", r"\[").replace(".", r"\.")):
        parse_element_measure(text)


def test_what_the_command_line_sends_here():
    assert all(looks_like_element_measure(n) for n in NAMES + ["AP_2004/gen"])
    assert not any(looks_like_element_measure(n) for n in ["AgP/F(0.25)", "MAP", "iP[0.01]", "MAiP"])
    assert list(DEFAULT_MEASURES) == NAMES[:6]
