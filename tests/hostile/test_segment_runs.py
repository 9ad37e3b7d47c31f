"""Hostile and unusual segment runs and segment tables (reference section 2.14): the run's and the
table's rows, each built from a clean file by ``make`` (see :mod:`.cases`). A SAME row gives the
numbers of the FOL run whose lines the segments stand for."""

from __future__ import annotations

import pytest

from readsim.core import listmeasures as lm
from readsim.core.errors import InputError
from readsim.core.formats import read_any_run, read_qrels, read_segments
from readsim.core.measure import parse_list_measure

from .cases import ERROR, SAME, WARNING, Case

BOM = b"\xef\xbb\xbf"
QRELS = (b"1 Q0 A 27 55 0 0:27\n"
         b"1 Q0 B 27 55 10 0:27\n"
         b"2 Q0 A 20 100 0 0:20\n"
         b"2 Q0 C 0 50\n")
FOL = (b"1 Q0 A 1 1 r 23 22\n"
       b"1 Q0 B 2 0.5 r 32 23\n"
       b"2 Q0 A 1 1 r 0 10\n"
       b"2 Q0 C 2 1 r 0 10\n")
RUN = (b"1 Q0 A#1 1 1 r\n"
       b"1 Q0 B#1 2 0.5 r\n"
       b"2 Q0 A#2 1 1 r\n"
       b"2 Q0 C#1 2 1 r\n")
TABLE = (b'{"id": "A#1", "doc": "A", "start": 23, "end": 45}\n'
         b'{"id": "B#1", "doc": "B", "start": 32, "length": 23}\n'
         b'{"id": "A#2", "doc": "A", "start": 0, "end": 10}\n'
         b'{"id": "C#1", "doc": "C", "start": 0, "end": 10}\n'
         b'{"id": "B#2", "doc": "B", "start": 40, "end": 45}\n'
         b'{"id": "D#1", "doc": "D", "start": 0, "end": 2}\n'
         b'{"id": "A#3", "doc": "A", "start": 50, "end": 52}\n')
MEASURES = ["AgP/F(0.25)", "AgP/aveChP", "AgP/T2IF(300)", "ANCE@10/LE(300)", "MAP", "MAiP"]


def replace(old: bytes, new: bytes):
    return lambda clean: clean.replace(old, new, 1)


def crlf(clean: bytes) -> bytes:
    return clean.replace(b"\n", b"\r\n")


RUN_CASES = [
    Case("segrun-bom-crlf", "a UTF-8 byte-order mark and CRLF line ends", SAME, data={"make": lambda c: BOM + crlf(c)}),
    Case("segrun-tabs-comments", "tabs between fields, a # comment and blank lines", SAME,
         data={"make": lambda c: b"# segments\n\n" + c.replace(b" ", b"\t")}),
    Case("segrun-unknown", "a segment id the table lacks on line 2", ERROR, "not in the segment table",
         data={"make": replace(b"B#1", b"B#9"), "line": 2}),
    Case("segrun-case", "a segment id in other case (a#1) on line 1", ERROR, "not in the segment table",
         data={"make": replace(b"A#1", b"a#1"), "line": 1}),
    Case("segrun-fol-line", "a FOL passage line (8 fields) on line 3", ERROR, "6 fields",
         data={"make": replace(b"2 Q0 A#2 1 1 r", b"2 Q0 A 1 1 r 0 10"), "line": 3}),
    Case("segrun-5-fields", "a line of 5 fields on line 2", ERROR, "found 5",
         data={"make": replace(b"1 Q0 B#1 2 0.5 r", b"1 Q0 B#1 2 r"), "line": 2}),
    Case("segrun-nul", "a NUL byte inside line 2", ERROR, "U+0000",
         data={"make": replace(b"B#1 2", b"B#1\x00 2"), "line": 2}),
    Case("segrun-latin1", "a byte that is not UTF-8 on line 4", ERROR, "not UTF-8",
         data={"make": replace(b"C#1 2 1 r", b"C#1 2 1 r\xe9"), "line": 4}),
    Case("segrun-interleaved", "a segment of A coming back after B's (interleaved)", WARNING, "interleaved",
         data={"make": lambda c: c.replace(b"1 Q0 B#1 2 0.5 r\n", b"1 Q0 B#1 2 0.5 r\n1 Q0 A#3 3 0.1 r\n")}),
    Case("segrun-overlap", "two overlapping segments of B", WARNING, "overlapping",
         data={"make": lambda c: c.replace(b"1 Q0 B#1 2 0.5 r\n", b"1 Q0 B#1 2 0.5 r\n1 Q0 B#2 2 0.5 r\n")}),
    Case("segrun-split-topic", "topic 1 in two blocks", WARNING, "two blocks",
         data={"make": lambda c: c + b"1 Q0 D#1 3 0.1 r\n"}),
]

TABLE_CASES = [
    Case("segtable-bom-crlf", "the table with a byte-order mark and CRLF line ends", SAME,
         data={"make": lambda c: BOM + crlf(c)}),
    Case("segtable-blank-extra", "blank lines and fields the table does not read", SAME,
         data={"make": lambda c: b"\n" + c.replace(b'"doc": "A"', b'"doc": "A", "note": "x"')}),
    Case("segtable-duplicate", "a second line of the id A#1 (line 8)", ERROR, "a second segment of id 'A#1'",
         data={"make": lambda c: c + b'{"id": "A#1", "doc": "A", "start": 0, "end": 1}\n', "line": 8}),
    Case("segtable-no-end", "a segment without end or length on line 2", ERROR, "missing field 'end'",
         data={"make": replace(b', "length": 23', b""), "line": 2}),
    Case("segtable-backwards", "end before start on line 1", ERROR, "before start",
         data={"make": replace(b'"start": 23, "end": 45', b'"start": 45, "end": 23'), "line": 1}),
    Case("segtable-float", "a start written 23.0 on line 1", ERROR, "must be an integer",
         data={"make": replace(b'"start": 23,', b'"start": 23.0,'), "line": 1}),
    Case("segtable-huge", "an end of 2^40 on line 1", ERROR, "out of range",
         data={"make": replace(b'"end": 45', b'"end": 1099511627776'), "line": 1}),
    Case("segtable-not-json", "a line that is not JSON (line 3)", ERROR, "not a JSON object",
         data={"make": replace(b'{"id": "A#2"', b'{id: "A#2"'), "line": 3}),
    Case("segtable-space-id", "an id with a space in it on line 4", ERROR, "white space",
         data={"make": replace(b'"C#1"', b'"C #1"'), "line": 4}),
]

CASES = RUN_CASES + TABLE_CASES


def _evaluate(tmp_path, qrels: bytes, run: bytes, table: bytes | None):
    (tmp_path / "q.qrels").write_bytes(qrels)
    (tmp_path / "r.run").write_bytes(run)
    segments = None
    if table is not None:
        (tmp_path / "s.jsonl").write_bytes(table)
        segments = read_segments(tmp_path / "s.jsonl")
    read = read_any_run(tmp_path / "r.run", segments=segments)
    return lm.evaluate(read_qrels(tmp_path / "q.qrels"), read, [parse_list_measure(m) for m in MEASURES]), read


@pytest.mark.parametrize("case", CASES, ids=Case.name)
def test_segment_inputs(case: Case, tmp_path):
    run, table = RUN, TABLE
    if case.id.startswith("segrun"):
        run, target = case.data["make"](RUN), tmp_path / "r.run"
    else:
        table, target = case.data["make"](TABLE), tmp_path / "s.jsonl"
    if case.outcome == ERROR:
        with pytest.raises(InputError) as info:
            _evaluate(tmp_path, QRELS, run, table)
        assert str(info.value).startswith(f"{target}:{case.data['line']}: "), str(info.value)
        assert case.expect in str(info.value)
        return
    ev, read = _evaluate(tmp_path, QRELS, run, table)
    if case.outcome == SAME:
        (tmp_path / "fol").mkdir()
        clean, _ = _evaluate(tmp_path / "fol", QRELS, FOL, None)  # the FOL run of the same spans
        assert ev.means == clean.means and ev.values == clean.values and ev.means["AgP/F(0.25)"] > 0
        assert not read.diagnostics
    else:
        assert any(case.expect in str(d) and str(target) in str(d) for d in read.diagnostics), read.diagnostics
