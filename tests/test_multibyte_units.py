"""One tiny document whose characters and UTF-8 bytes differ (é, 日本, an emoji), its qrels and
run as JSON Lines in characters and the same spans in bytes, scored by readsim-eval with each
unit; every number worked by hand below (reference 1.2, 2.11, 2.13, 3, 4.1, 4.6)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from helpers.cli import run_cli

# The text, position by position (characters | UTF-8 bytes):
#   C 0|0   a 1|1   f 2|2   é 3|3-4   ' ' 4|5   日 5|6-8   本 6|9-11   ' ' 7|12
#   o 8|13  k 9|14  ' ' 10|15   😀 11|16-19   ' ' 12|20   f 13|21   i 14|22   n 15|23
# 16 characters, 24 bytes (é 2 bytes, 日 and 本 3 each, 😀 4).
TEXT = "Café 日本 ok 😀 fin"
# relevant: 'é 日本' and '😀'; retrieved: '日本 ok 😀'
SPANS = {"chars": {"relevant": [(3, 7), (11, 12)], "retrieved": (5, 12)},
         "bytes": {"relevant": [(3, 12), (16, 20)], "retrieved": (6, 20)}}

# Characters: R = {3,4,5,6,11}, |R| = 5; T = {5..11}, |T| = 7; R ∩ T = {5,6,11}, 3.
#   P_set = 3/7, R_set = 3/5.
#   F(0.25) = (1 + 1/16) P R / (P/16 + R) = (17/16)(9/35) / (3/112 + 3/5) = (153/560) / (351/560) = 17/39.
#   aveChP (natural: T in document order, then the rest from the start, n = 16 from the collection):
#   order 5 6 7 8 9 10 11 | 0 1 2 3 4 12 13 14 15; relevant at i = 1 (5), 2 (6), 7 (11), 11 (3), 12 (4):
#   (1/1 + 2/2 + 3/7 + 4/11 + 5/12) / 5.
# Bytes: R = [3,12) ∪ [16,20), |R| = 9 + 4 = 13; T = [6,20), |T| = 14; R ∩ T = [6,12) ∪ [16,20), 10.
#   P_set = 10/14 = 5/7, R_set = 10/13.
#   F(0.25) = (17/16)(5/7)(10/13) / ((5/7)/16 + 10/13) = (850/1456) / (65/1456 + 1120/1456) = 850/1185 = 170/237.
#   aveChP: order 6..19 | 0..5 | 20..23 (n = 24); relevant at i = 1..6 (bytes 6..11), i = 11..14
#   (16..19: 7/11, 8/12, 9/13, 10/14), then bytes 3, 4, 5 at i = 18, 19, 20 (11/18, 12/19, 13/20):
#   (6 + 7/11 + 8/12 + 9/13 + 10/14 + 11/18 + 12/19 + 13/20) / 13.
F = Fraction
HAND = {
    "chars": {"P_set": F(3, 7), "R_set": F(3, 5), "F(0.25)": F(17, 39),
              "aveChP": (1 + 1 + F(3, 7) + F(4, 11) + F(5, 12)) / 5},
    "bytes": {"P_set": F(5, 7), "R_set": F(10, 13), "F(0.25)": F(170, 237),
              "aveChP": (6 + F(7, 11) + F(8, 12) + F(9, 13) + F(10, 14) + F(11, 18) + F(12, 19) + F(13, 20)) / 13},
}


def _files(tmp_path, unit: str, collection: str):
    if collection == "txt":
        docs = tmp_path / "docs"
        docs.mkdir(exist_ok=True)
        (docs / "d.txt").write_text(TEXT, encoding="utf-8")
    else:
        docs = tmp_path / "docs.jsonl"
        docs.write_text(json.dumps({"id": "d", "text": TEXT}) + "\n", encoding="utf-8")
    spans = SPANS[unit]
    qrels = tmp_path / f"q-{unit}.jsonl"
    qrels.write_text("".join(json.dumps({"topic": "1", "doc": "d", "start": s, "end": e}) + "\n"
                             for s, e in spans["relevant"]))
    run = tmp_path / f"r-{unit}.jsonl"
    s, e = spans["retrieved"]
    run.write_text(json.dumps({"topic": "1", "doc": "d", "start": s, "end": e, "rank": 1, "run": "r"}) + "\n")
    return docs, qrels, run


def test_the_spans_are_the_same_text():
    data = TEXT.encode("utf-8")
    assert (len(TEXT), len(data)) == (16, 24)
    for (cs, ce), (bs, be) in zip(SPANS["chars"]["relevant"] + [SPANS["chars"]["retrieved"]],
                                  SPANS["bytes"]["relevant"] + [SPANS["bytes"]["retrieved"]]):
        assert TEXT[cs:ce] == data[bs:be].decode("utf-8")


@pytest.mark.parametrize("collection", ["txt", "jsonl"])
@pytest.mark.parametrize("unit", ["chars", "bytes"])
def test_both_units_give_the_hand_numbers(tmp_path, unit, collection):
    docs, qrels, run = _files(tmp_path, unit, collection)
    option = ["--unit", "bytes"] if unit == "bytes" else []  # characters: the collection's own unit
    code, out, err = run_cli(qrels, run, "--collection", docs, "--per-article", *option,
                             *[a for m in HAND[unit] for a in ("-m", m)])
    assert code == 0, err
    got = {row.split("\t")[0]: float(row.split("\t")[3]) for row in out.splitlines()}
    assert got == pytest.approx({m: float(v) for m, v in HAND[unit].items()}, abs=5e-7)
