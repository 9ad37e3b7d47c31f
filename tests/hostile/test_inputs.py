"""Hostile and unusual text inputs to the engine's readers: FOL runs, qrels, XML runs, topics.

Each row is one file as a user might hand it over, built from a clean file by ``make`` (a
function of the clean bytes), and what readsim must do with it (see :mod:`.cases`). The
numbers of a SAME row are compared with the clean file's on the measures below.
"""

from __future__ import annotations

import os

import pytest

from readsim.core import listmeasures as lm
from readsim.core.errors import InputError
from readsim.core.formats import read_any_run, read_qrels, read_topics
from readsim.core.measure import parse_list_measure

from .cases import ERROR, SAME, WARNING, Case

BOM = b"\xef\xbb\xbf"

QRELS = (b"1 Q0 A 27 55 0 0:27\n"
         b"1 Q0 B 27 55 10 0:27\n"
         b"2 Q0 A 20 100 0 0:20\n"
         b"2 Q0 C 0 50\n")
RUN = (b"1 Q0 A 1 1 r 23 22\n"
       b"1 Q0 B 2 0.5 r 32 23\n"
       b"2 Q0 A 1 1 r 0 10\n"
       b"2 Q0 C 2 1 r 0 10\n")
XML_RUN = (b'<?xml version="1.0"?>\n<inex-submission run-id="x" task="RelevantInContext">\n'
           b'<topic topic-id="1">\n<result><file>A</file><fol offset="23" length="22"/></result>\n'
           b'<result><file>B</file><fol offset="32" length="23"/></result>\n</topic>\n</inex-submission>\n')
TOPICS = (b'<?xml version="1.0"?>\n<inex-topic-file>\n<topic id="1"><title>web ranking</title></topic>\n'
          b'<topic id="2"><title>second</title></topic>\n</inex-topic-file>\n')
MEASURES = ["AgP/F(0.25)", "AgP/aveChP", "AgP/T2IF(300)", "ANCE@10/LE(300)", "MAP", "MAiP", "AgP/BEP(500)"]


def replace(old: bytes, new: bytes):
    return lambda clean: clean.replace(old, new, 1)


def line2(junk: bytes):
    """Put ``junk`` inside the second line (after its first field)."""
    def make(clean: bytes) -> bytes:
        lines = clean.split(b"\n")
        lines[1] = lines[1].replace(b" ", b" " + junk, 1)
        return b"\n".join(lines)
    return make


def crlf(clean: bytes) -> bytes:
    return clean.replace(b"\n", b"\r\n")


def bom(clean: bytes) -> bytes:
    return BOM + clean


RUN_CASES = [
    Case("run-bom", "a UTF-8 byte-order mark before the first line", SAME, data={"make": bom}),
    Case("run-crlf", "CRLF line ends", SAME, data={"make": crlf}),
    Case("run-bom-crlf", "a BOM and CRLF line ends", SAME, data={"make": lambda c: BOM + crlf(c)}),
    Case("run-tabs", "fields separated by tabs", SAME, data={"make": lambda c: c.replace(b" ", b"\t")}),
    Case("run-blank-comment", "blank lines, a # comment and trailing spaces", SAME,
         data={"make": lambda c: b"# made by hand\n\n" + c.replace(b"\n", b"  \n") + b"\n\n"}),
    Case("run-no-final-newline", "no newline after the last line", SAME, data={"make": lambda c: c.rstrip(b"\n")}),
    Case("run-nul", "a NUL byte inside line 2", ERROR, "U+0000", data={"make": line2(b"\x00"), "line": 2}),
    Case("run-vtab", "a vertical tab inside line 2 (str.split would take it as a separator)", ERROR, "U+000B",
         data={"make": line2(b"\x0b"), "line": 2}),
    Case("run-formfeed", "a form feed inside line 2", ERROR, "U+000C", data={"make": line2(b"\x0c"), "line": 2}),
    Case("run-lone-cr", "a carriage return not followed by LF inside line 2", ERROR, "U+000D",
         data={"make": line2(b"\r"), "line": 2}),
    Case("run-cr-only", "old Mac line ends (CR only)", ERROR, "U+000D",
         data={"make": lambda c: c.replace(b"\n", b"\r"), "line": 1}),
    Case("run-del", "a DEL character inside line 2", ERROR, "U+007F", data={"make": line2(b"\x7f"), "line": 2}),
    Case("run-c1", "a C1 control (NEL, U+0085) inside line 2", ERROR, "U+0085",
         data={"make": line2("\x85".encode()), "line": 2}),
    Case("run-escape", "an ANSI escape inside line 2", ERROR, "U+001B", data={"make": line2(b"\x1b[31m"), "line": 2}),
    Case("run-huge-offset", "an offset beyond 64 bits (99999999999999999999) on line 2", ERROR, "out of range",
         data={"make": replace(b"r 32 23", b"r 99999999999999999999 23"), "line": 2}),
    Case("run-2p40-length", "a length of 2^40 on line 2", ERROR, "out of range",
         data={"make": replace(b"r 32 23", b"r 32 1099511627776"), "line": 2}),
    Case("run-negative-length", "a negative length on line 2", ERROR, "negative",
         data={"make": replace(b"r 32 23", b"r 32 -23"), "line": 2}),
    Case("run-underscore", "an offset written 3_2 on line 2", ERROR, "integer",
         data={"make": replace(b"r 32 23", b"r 3_2 23"), "line": 2}),
    Case("run-arabic-digits", "an offset in Arabic-Indic digits on line 2", ERROR, "integer",
         data={"make": replace(b"r 32 23", "r ٣٢ 23".encode()), "line": 2}),
    Case("run-float-offset", "an offset 32.0 on line 2", ERROR, "integer",
         data={"make": replace(b"r 32 23", b"r 32.0 23"), "line": 2}),
    Case("run-5-fields", "a line of 5 fields", ERROR, "6 to 8 fields",
         data={"make": replace(b"1 Q0 B 2 0.5 r 32 23", b"1 Q0 B 2 0.5"), "line": 2}),
    Case("run-9-fields", "a line of 9 fields", ERROR, "at most 8",
         data={"make": replace(b"r 32 23", b"r 32 23 7"), "line": 2}),
    Case("run-latin1", "a Latin-1 byte (not UTF-8) on line 3", ERROR, "not UTF-8",
         data={"make": replace(b"2 Q0 A 1 1 r", b"2 Q0 A 1 1 r\xe9"), "line": 3}),
    Case("run-utf16", "the run saved as UTF-16 (with its BOM)", ERROR, "not UTF-8",
         data={"make": lambda c: c.decode().encode("utf-16"), "line": 1}),
    Case("run-binary", "binary junk (bytes 0-255; a newline at byte 10)", ERROR, "not UTF-8",
         data={"make": lambda c: bytes(range(256)) * 4, "line": 2}),
    Case("run-empty", "an empty file", WARNING, "no topic of the run is judged", data={"make": lambda c: b""}),
    Case("run-only-comments", "only comments and blank lines", WARNING, "no topic of the run is judged",
         data={"make": lambda c: b"# nothing\n\n   \n"}),
    Case("run-interleaved", "an article returning after another (interleaved)", WARNING, "interleaved",
         data={"make": lambda c: c + b"1 Q0 A 3 0.1 r 50 2\n"}),
    Case("run-split-topic", "topic 1 in two blocks", WARNING, "two blocks",
         data={"make": lambda c: c + b"1 Q0 D 3 0.1 r 0 2\n"}),
    Case("run-overlap", "overlapping passages of one article", WARNING, "overlapping",
         data={"make": lambda c: c.replace(b"1 Q0 B 2 0.5 r 32 23\n", b"1 Q0 B 2 0.5 r 32 23\n1 Q0 B 2 0.5 r 40 5\n")}),
    Case("run-topic-unjudged", "a topic the qrels do not judge", WARNING, "not in the qrels",
         data={"make": lambda c: c + b"9 Q0 A 1 1 r 0 10\n"}),
]

QRELS_CASES = [
    Case("qrels-bom", "a UTF-8 byte-order mark before the first line", SAME, data={"make": bom}),
    Case("qrels-crlf", "CRLF line ends", SAME, data={"make": crlf}),
    Case("qrels-bom-crlf", "a BOM and CRLF", SAME, data={"make": lambda c: BOM + crlf(c)}),
    Case("qrels-nul", "a NUL byte inside line 2", ERROR, "U+0000", data={"make": line2(b"\x00"), "line": 2}),
    Case("qrels-lone-cr", "a lone carriage return inside line 2", ERROR, "U+000D",
         data={"make": line2(b"\r"), "line": 2}),
    Case("qrels-huge-passage", "a passage offset beyond 64 bits on line 2", ERROR, "out of range",
         data={"make": replace(b"10 0:27", b"10 99999999999999999999:27"), "line": 2}),
    Case("qrels-huge-doclength", "a doc_length of 2^40 on line 3", ERROR, "out of range",
         data={"make": replace(b"20 100 0", b"20 1099511627776 0"), "line": 3}),
    Case("qrels-duplicate", "the same (topic, article) judged twice", ERROR, "duplicate",
         data={"make": lambda c: c + b"1 Q0 A 27 55 0 0:27\n", "line": 5}),
    Case("qrels-4-fields", "a line of 4 fields", ERROR, "at least 5",
         data={"make": replace(b"2 Q0 C 0 50", b"2 Q0 C 0"), "line": 4}),
    Case("qrels-no-colon", "a passage without offset:length", ERROR, "offset:length",
         data={"make": replace(b"10 0:27", b"10 0-27"), "line": 2}),
    Case("qrels-negative-passage", "a passage with a negative length", ERROR, "negative",
         data={"make": replace(b"10 0:27", b"10 0:-27"), "line": 2}),
    Case("qrels-no-passage", "rel_size 27 with no passage", ERROR, "no passages",
         data={"make": replace(b"1 Q0 B 27 55 10 0:27", b"1 Q0 B 27 55 10"), "line": 2}),
    Case("qrels-word-size", "rel_size written as a word", ERROR, "integer",
         data={"make": replace(b"1 Q0 B 27", b"1 Q0 B many"), "line": 2}),
    Case("qrels-not-utf8", "a byte that is not UTF-8 on line 4", ERROR, "not UTF-8",
         data={"make": replace(b"2 Q0 C", b"2 Q0 C\xff"), "line": 4}),
    Case("qrels-size-mismatch", "rel_size that disagrees with its passages", WARNING, "differs",
         data={"make": replace(b"1 Q0 B 27", b"1 Q0 B 30")}),
    Case("qrels-overlap", "overlapping passages on one line", WARNING, "overlapping",
         data={"make": replace(b"10 0:27", b"10 0:20 10:17")}),
    Case("qrels-past-end", "a passage past doc_length", WARNING, "past doc_length",
         data={"make": replace(b"20 100 0 0:20", b"20 100 0 90:20")}),
    Case("qrels-empty", "an empty qrels file", WARNING, "no topic of the run is judged", data={"make": lambda c: b""}),
]

XML_CASES = [
    Case("xmlrun-bom", "an XML run with a byte-order mark", SAME, data={"make": bom}),
    Case("xmlrun-crlf", "an XML run with CRLF line ends", SAME, data={"make": crlf}),
    Case("xmlrun-huge-offset", "a <fol> offset beyond 64 bits on line 4", ERROR, "out of range",
         data={"make": replace(b'offset="23"', b'offset="99999999999999999999"'), "line": 4}),
    Case("xmlrun-negative", "a negative <fol> length on line 5", ERROR, "negative",
         data={"make": replace(b'length="23"', b'length="-23"'), "line": 5}),
    Case("xmlrun-word-offset", "a <fol> offset that is a word on line 4", ERROR, "integer",
         data={"make": replace(b'offset="23"', b'offset="abc"'), "line": 4}),
    Case("xmlrun-truncated", "an XML run cut off in the middle", ERROR, "",
         data={"make": lambda c: c[: len(c) // 2], "line": None}),
    Case("xmlrun-nul", "a NUL byte inside the XML", ERROR, "", data={"make": replace(b"<file>B", b"<file>\x00B"), "line": 5}),
    Case("xmlrun-xxe", "an external entity naming /etc/passwd", ERROR, "",
         data={"make": lambda c: c.replace(b'<inex-submission', b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
                                              b'\n<inex-submission', 1).replace(b"<file>A", b"<file>&e;A"),
               "line": None}),
]

TOPIC_CASES = [
    Case("topics-bom", "a topic file with a byte-order mark", SAME, data={"make": bom}),
    Case("topics-crlf", "a topic file with CRLF line ends", SAME, data={"make": crlf}),
    Case("topics-truncated", "a topic file cut off in the middle", ERROR, "", data={"make": lambda c: c[:70], "line": None}),
    Case("topics-empty", "an empty topic file", ERROR, "", data={"make": lambda c: b"", "line": None}),
    Case("topics-a-run", "a FOL run given as topics", ERROR, "", data={"make": lambda c: RUN, "line": None}),
    Case("topics-xxe", "a topic title using an external entity", ERROR, "",
         data={"make": lambda c: c.replace(b"<inex-topic-file>", b'<!DOCTYPE x [<!ENTITY e SYSTEM "/etc/hostname">]>'
                                              b"\n<inex-topic-file>", 1).replace(b"web ranking", b"&e;"),
               "line": None}),
]

CASES = RUN_CASES + QRELS_CASES + XML_CASES + TOPIC_CASES


def _write(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _evaluate(qrels_path, run_path):
    ev = lm.evaluate(read_qrels(qrels_path), read_any_run(run_path), [parse_list_measure(m) for m in MEASURES])
    return ev


def _assert_error(case: Case, path, call) -> None:
    with pytest.raises(InputError) as info:
        call()
    message = str(info.value)
    line = case.data.get("line")
    where = f"{path}:{line}: " if line else f"{path}:"
    assert message.startswith(where), message
    assert case.expect in message


def _assert_warning(case: Case, diagnostics, path=None) -> None:
    texts = [str(d) for d in diagnostics]
    assert any(case.expect in t for t in texts), texts
    if path is not None:
        assert any(str(path) in t for t in texts if case.expect in t), texts


@pytest.mark.parametrize("case", RUN_CASES + QRELS_CASES, ids=Case.name)
def test_fol_inputs(case: Case, tmp_path):
    qrels_bytes, run_bytes = QRELS, RUN
    if case.id.startswith("run"):
        run_bytes = case.data["make"](RUN)
        target = "r.run"
    else:
        qrels_bytes = case.data["make"](QRELS)
        target = "q.qrels"
    q = _write(tmp_path, "q.qrels", qrels_bytes)
    r = _write(tmp_path, "r.run", run_bytes)
    path = tmp_path / target
    if case.outcome == ERROR:
        _assert_error(case, path, lambda: _evaluate(q, r))
        return
    ev = _evaluate(q, r)
    if case.outcome == SAME:
        clean = _evaluate(_write(tmp_path, "clean.qrels", QRELS), _write(tmp_path, "clean.run", RUN))
        assert ev.means == clean.means and ev.values == clean.values
        assert ev.means["AgP/F(0.25)"] > 0
        assert not ev.diagnostics and not read_any_run(r).diagnostics and not read_qrels(q).diagnostics
    else:
        diagnostics = ev.diagnostics + read_any_run(r).diagnostics + read_qrels(q).diagnostics
        _assert_warning(case, diagnostics)


@pytest.mark.parametrize("case", XML_CASES, ids=Case.name)
def test_xml_runs(case: Case, tmp_path):
    q = _write(tmp_path, "q.qrels", QRELS)
    r = _write(tmp_path, "r.xml", case.data["make"](XML_RUN))
    if case.outcome == ERROR:
        _assert_error(case, r, lambda: _evaluate(q, r))
        return
    clean = _evaluate(q, _write(tmp_path, "clean.xml", XML_RUN))
    assert _evaluate(q, r).means == clean.means and clean.means["AgP/F(0.25)"] > 0


@pytest.mark.parametrize("case", TOPIC_CASES, ids=Case.name)
def test_topic_files(case: Case, tmp_path):
    t = _write(tmp_path, "t.xml", case.data["make"](TOPICS))
    if case.outcome == ERROR:
        _assert_error(case, t, lambda: read_topics(t))
        return
    topics = read_topics(t)
    assert {k: v.title for k, v in topics.items()} == {"1": "web ranking", "2": "second"}


def test_a_real_run_and_qrels_with_bom_and_crlf_give_the_same_numbers(inex, tmp_path):
    qrels = inex / "qrels" / "inex2009-2010.qrels"
    run = inex / "runs" / "bert-passages.run"
    # the real qrels file already ends its lines with CRLF, the run with LF: swap them
    q = _write(tmp_path, "q.qrels", BOM + qrels.read_bytes().replace(b"\r\n", b"\n"))
    r = _write(tmp_path, "r.run", BOM + crlf(run.read_bytes()))
    names = [parse_list_measure(m) for m in ("AgP/F(0.25)", "MAiP", "ANCE@600/LE(300)")]
    clean = lm.evaluate(read_qrels(qrels), read_any_run(run), names)
    hostile = lm.evaluate(read_qrels(q), read_any_run(r), names)
    assert hostile.means == clean.means
    assert clean.means["AgP/F(0.25)"] == pytest.approx(0.111526, abs=5e-7)


def test_a_pipe_is_read_once(tmp_path):
    """``readsim-eval QRELS <(grep ... run)``: the run is a pipe, read once, XML or FOL."""
    q = _write(tmp_path, "q.qrels", QRELS)
    clean = _evaluate(q, _write(tmp_path, "clean.run", RUN))
    read_fd, write_fd = os.pipe()
    os.write(write_fd, RUN)
    os.close(write_fd)
    try:
        ev = _evaluate(q, f"/proc/self/fd/{read_fd}")
    finally:
        os.close(read_fd)
    assert ev.means == clean.means
