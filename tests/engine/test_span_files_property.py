"""Property: random span files on disk, read through the public readers, score as the slow
per-position reference of tests/engine/reference.py says (reference 2.11, 2.13, 3, 4.1, 4.6).

Random texts (ASCII, é, 日本, emoji, line ends) as a folder of ``.txt`` files or a JSON Lines
file of documents; random qrels spans (without doc_length: the collection gives it) and a
ranked run's spans in the unit (characters, the collection's default, or UTF-8 bytes),
written as JSON Lines; ``readsim.evaluate(..., per="article")``'s P_set, R_set, F(0.25) and
aveChP for every ranked document against :class:`ReferenceDoc` over positions 0 .. n - 1,
n the document's length in the unit."""

from __future__ import annotations

import json
import tempfile
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import readsim

from .reference import ReferenceDoc

ALPHABET = "ab \né日本😀"
MEASURES = ["P_set", "R_set", "F(0.25)", "aveChP"]


def _length(text: str, unit: str) -> int:
    return len(text.encode("utf-8")) if unit == "bytes" else len(text)


@st.composite
def spans(draw, n: int, least: int, most: int) -> list[tuple[int, int]]:
    """``least`` to ``most`` non-empty spans inside [0, n) (overlapping, touching, in any order)."""
    out = []
    for _ in range(draw(st.integers(least, most))):
        start = draw(st.integers(0, n - 1))
        out.append((start, draw(st.integers(start + 1, n))))
    return out


@st.composite
def cases(draw) -> dict:
    unit = draw(st.sampled_from(["chars", "bytes"]))
    texts = draw(st.lists(st.text(ALPHABET, min_size=1, max_size=30), min_size=1, max_size=3))
    docs = {f"d{i}": t for i, t in enumerate(texts)}
    qrels = {d: draw(spans(_length(t, unit), 0, 3)) for d, t in docs.items() if draw(st.booleans())}
    ranked = draw(st.permutations(sorted(docs)))[:draw(st.integers(1, len(docs)))]
    run = {d: draw(spans(_length(docs[d], unit), 1, 2)) for d in ranked}
    return {"unit": unit, "docs": docs, "qrels": qrels, "ranked": ranked, "run": run,
            "collection": draw(st.sampled_from(["txt", "jsonl"]))}


def _write(folder: Path, case: dict) -> tuple[Path, Path, Path]:
    if case["collection"] == "txt":
        collection = folder / "docs"
        collection.mkdir()
        for d, text in case["docs"].items():
            (collection / f"{d}.txt").write_bytes(text.encode("utf-8"))  # no line end translated
    else:
        collection = folder / "docs.jsonl"
        collection.write_text("".join(json.dumps({"id": d, "text": t}) + "\n" for d, t in case["docs"].items()))
    qrels = folder / "qrels.jsonl"
    rows = [{"topic": "1", "doc": d, "start": s, "end": e} for d, sp in case["qrels"].items() for s, e in sp]
    rows = rows or [{"topic": "1", "doc": "other", "start": 0, "end": 1}]  # qrels judging none of the documents
    qrels.write_text("".join(json.dumps(r) + "\n" for r in rows))
    run = folder / "run.jsonl"
    rank = 0
    lines = []
    for d in case["ranked"]:
        for s, e in case["run"][d]:
            rank += 1
            lines.append({"topic": "1", "doc": d, "start": s, "end": e, "rank": rank, "run": "r"})
    run.write_text("".join(json.dumps(r) + "\n" for r in lines))
    return collection, qrels, run


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_span_files_score_as_the_per_position_reference(case):
    with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # overlapping spans united, an empty topic: warnings, not the point
        collection, qrels, run = _write(Path(tmp), case)
        unit = None if case["unit"] == "chars" else "bytes"  # characters: the collection's default
        frame = readsim.evaluate(qrels, run, MEASURES, per="article", collection=collection, unit=unit)
    got = {(r.article, r.measure): r.value for r in frame.itertuples()}
    assert sorted({a for a, _ in got}) == sorted(case["ranked"])
    for d in case["ranked"]:
        n = _length(case["docs"][d], case["unit"])
        ref = ReferenceDoc(n, case["qrels"].get(d, []), case["run"][d], "natural")
        p, r, f = ref.set_scores(0.25)
        want = {"P_set": p, "R_set": r, "F(0.25)": f, "aveChP": ref.ave_chp()}
        assert {m: got[(d, m)] for m in MEASURES} == pytest.approx(want, abs=1e-9), (d, case)
