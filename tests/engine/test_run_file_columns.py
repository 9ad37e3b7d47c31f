"""Column-wise reading of runs and qrels (reference sections 2.2-2.3): the same runs, judgements, warnings and
``file:line`` errors as reading line by line.

The reference readers below are the line-by-line readers the project had before (one dict
entry per result line, policies applied article by article), kept here as the definition. The
column-wise readers are checked against them on generated files (hypothesis: interleaved
articles, split topics, overlaps, zero lengths, 6/7/8-field lines, several run ids, comments,
blank lines, CRLF, a byte-order mark, tabs, names longer than 8 bytes, bad lines) and, for the
run, with the file cut into chunks of a few bytes (:data:`readsim.core.formats.folrun.CHUNK`).
"""

from __future__ import annotations

import dataclasses
import os
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from readsim.core import intervals as iv
from readsim.core.errors import Diagnostic, InputError
from readsim.core.formats import read_qrels, read_run
from readsim.core.formats import folrun
from readsim.core.formats.lines import numbered_lines, scan_fields, to_int
from readsim.core.formats.run import XPATH_LINE, WHOLE_LINE, Run, TopicEntries

# -- the reference readers ------------------------------------------------------------------------


def reference_run(path: str, strict: bool = False, strict_error: list[str] | None = None):
    """``(run_id, {topic: [(article, rank, passages, xpaths, line, lines, line_spans)]}, diagnostics)``.

    ``strict`` changes only what ``problem`` does: it raises where the lenient read warns. A
    lenient read given ``strict_error`` (a list) appends to it the error its first problem would
    have raised under ``strict`` (see :func:`reference_outcomes`)."""
    spans, whole, xpaths, order, line_numbers, line_spans = {}, set(), {}, {}, {}, {}
    run_ids: Counter = Counter()
    diagnostics = []
    current = None
    closed, reappear, split = set(), {}, {}
    end_like, shorter = [], 0
    kinds, bad_xpath = [], []

    def problem(line, message, official=True):
        rejected = InputError(path, line, f"{message.split(';')[0]}; rejected (--strict)"
                              + (", as the official INEX tool does" if official else ""))
        if strict:
            raise rejected
        if strict_error is not None and not strict_error:
            strict_error.append(str(rejected))
        diagnostics.append(Diagnostic(path, line, message))

    for number, f in numbered_lines(path):
        if len(f) < 6:
            raise InputError(path, number, f"a run line needs 6 to 8 fields (topic Q0 file rank rsv run_id [offset length | xpath]), found {len(f)}")
        if len(f) > 8:
            raise InputError(path, number, f"a run line has at most 8 fields, found {len(f)}")
        topic, article = f[0], f[2]
        kinds.append((number, len(f)))
        if len(f) == 7 and not f[6].startswith("/"):
            bad_xpath.append((number, f[6]))
        run_ids[f[5]] += 1
        key = (topic, article)
        if current is None or current[0] != topic:
            if topic in closed and topic not in split:
                split[topic] = number
            if current is not None:
                closed.add(current[0])
        if key != current:
            if key in line_numbers:
                reappear.setdefault(topic, []).append(number)
            else:
                order.setdefault(topic, []).append((article, number))
            current = key
        line_numbers.setdefault(key, []).append(number)
        if len(f) == 8:
            offset, length = to_int(f[6], path, number, "offset"), to_int(f[7], path, number, "length")
            if offset < 0 or length < 0:
                raise InputError(path, number, f"negative offset or length ({offset} {length})")
            spans.setdefault(key, []).append((offset, offset + length))
            line_spans.setdefault(key, []).append((offset, offset + length))
            if offset > 0:
                if length >= offset:
                    end_like.append(number)
                else:
                    shorter += 1
        elif len(f) == 7:
            xpaths.setdefault(key, []).append(f[6])
            line_spans.setdefault(key, []).append(XPATH_LINE)
        else:
            whole.add(key)
            line_spans.setdefault(key, []).append(WHOLE_LINE)
    # lines cut short (reference 2.3), after every format error: a 7-field line without an
    # XPath is an error; a lone 6-field last line without a line end among 8-field lines too;
    # other 6-field lines among 8-field ones are one warning naming the first
    if bad_xpath:
        number, text = bad_xpath[0]
        raise InputError(path, number, f"column 7 is not an XPath ({text!r}; an XPath starts with /): "
                         "a passage line needs 8 fields, offset and length (was the line cut short?)")
    raw = open(path, "rb").read()
    six = [number for number, k in kinds if k == 6]
    eights = sum(1 for _, k in kinds if k == 8)
    if six and eights:
        if len(six) == 1 and eights == len(kinds) - 1 and not raw.endswith(b"\n") and six[0] == len(raw.split(b"\n")):
            raise InputError(path, six[0], "the file ends inside a line: its last line has 6 fields and no line end, "
                             "every other line 8 (offset length); the file looks cut short")
        what = "1 whole-article line (6 fields)" if len(six) == 1 else f"{len(six):,} whole-article lines (6 fields)"
        diagnostics.append(Diagnostic(path, six[0], f"{what} among {eights:,} passage lines (8 fields), the first "
                                      "here: each retrieves its article whole; a passage line cut short reads the same"))
    if len(end_like) >= folrun.END_LIKE_MIN and shorter == 0:
        diagnostics.append(Diagnostic(path, end_like[0], f"column 8 looks like an end offset rather than a length: it is "
                                      f"never smaller than column 7 on {len(end_like)} lines with a positive offset"))
    for topic, line in split.items():
        problem(line, f"topic {topic} appears in two blocks; merged into its first block", official=False)
    if reappear:
        first_topic, lines = next(iter(reappear.items()))
        count = sum(len(v) for v in reappear.values())
        problem(lines[0], f"{count} result lines in {len(reappear)} topics (first: topic {first_topic}) return to an "
                          f"article ranked earlier (interleaved articles); merged into the article's first rank")
    run_id = run_ids.most_common(1)[0][0] if run_ids else os.path.basename(path)
    if len(run_ids) > 1:
        diagnostics.append(Diagnostic(path, None, f"{len(run_ids)} run ids in one file; using {run_id!r}"))
    overlapping = 0
    topics = {}
    for topic, ranked in order.items():
        entries = []
        for rank, (article, line) in enumerate(ranked, 1):
            key = (topic, article)
            raw = spans.get(key)
            if raw and iv.overlaps(raw):
                overlapping += 1
                if overlapping == 1:
                    problem(line, f"overlapping passages of article {article} (topic {topic}) united")
            passages = None if key in whole or raw is None else iv.normalize(raw).tolist()
            entries.append((article, rank, passages, xpaths.get(key, []), line, tuple(line_numbers[key]),
                            [list(s) for s in line_spans[key]]))
        topics[topic] = entries
    if overlapping > 1:
        diagnostics.append(Diagnostic(path, None, f"{overlapping} articles in all have overlapping passages (united)"))
    return run_id, topics, [str(d) for d in diagnostics]


def reference_qrels(path: str):
    """``({topic: {article: (rel_size, doc_length, bep, passages, line)}}, diagnostics)``."""
    topics, diagnostics = {}, []
    for number, f in numbered_lines(path):
        if len(f) < 5:
            raise InputError(path, number, f"a qrels line needs at least 5 fields (topic Q0 file rel_size doc_length), found {len(f)}")
        topic, article = f[0], f[2]
        rel_size = to_int(f[3], path, number, "rel_size")
        doc_length = to_int(f[4], path, number, "doc_length")
        if rel_size < 0 or doc_length < 0:
            raise InputError(path, number, "rel_size and doc_length must not be negative")
        bep = to_int(f[5], path, number, "best entry point") if len(f) > 5 else None
        spans = []
        for token in f[6:]:
            offset, sep, length = token.partition(":")
            if not sep:
                raise InputError(path, number, f"a passage is offset:length, not {token!r}")
            o = to_int(offset, path, number, "passage offset")
            n = to_int(length, path, number, "passage length")
            if o < 0 or n < 0:
                raise InputError(path, number, f"passage {token} has a negative offset or length")
            spans.append((o, o + n))
        if rel_size > 0 and not spans:
            raise InputError(path, number, f"rel_size is {rel_size} but the line has no passages")
        passages = iv.normalize(spans)
        if iv.overlaps(spans):
            diagnostics.append(Diagnostic(path, number, "overlapping passages united"))
        size = iv.total(passages)
        if spans and size != rel_size:
            diagnostics.append(Diagnostic(path, number, f"rel_size {rel_size} differs from the passages' size {size}; using {size}"))
        if len(passages) and passages[-1, 1] > doc_length:
            diagnostics.append(Diagnostic(path, number, f"a passage ends at {passages[-1, 1]}, past doc_length {doc_length}"))
        by_topic = topics.setdefault(topic, {})
        if article in by_topic:
            raise InputError(path, number, f"duplicate judgement of article {article} for topic {topic} (first at line {by_topic[article][4]})")
        by_topic[article] = (size if spans else rel_size, doc_length, bep, passages.tolist(), number)
    return topics, [str(d) for d in diagnostics]


# -- what the readers give, in the reference's shape ----------------------------------------------


def as_reference_run(run: Run):
    topics = {}
    for topic, entries in run.topics.items():
        topics[topic] = [(e.article, e.rank, None if e.passages is None else e.passages.tolist(), e.xpaths, e.line,
                          e.lines, e.line_spans.tolist()) for e in entries]
    return run.run_id, topics, [str(d) for d in run.diagnostics]


def outcome(read, *args):
    try:
        return read(*args)
    except InputError as err:
        return ("error", str(err))


def reference_outcomes(path: str):
    """The reference's lenient and strict outcomes of one file, from one lenient pass: the
    strict read is the lenient one up to its first problem, where it raises (the error the
    lenient pass recorded there); without a problem it is the lenient outcome."""
    first: list[str] = []
    lenient = outcome(reference_run, path, False, first)
    return lenient, ("error", first[0]) if first else lenient


# -- generated files ----------------------------------------------------------------------------

NAMES = ["a1", "a2", "b", "7", "123456789", "x" * 12, "é1"]


@st.composite
def run_files(draw) -> bytes:
    topics = draw(st.lists(st.sampled_from(["1", "2", "101", "2009001", "topic-with-a-long-name"]), min_size=1, max_size=3))
    lines = []
    for _ in range(draw(st.integers(0, 30))):
        head = (f"{draw(st.sampled_from(topics))} Q0 {draw(st.sampled_from(NAMES[:5] if draw(st.booleans()) else NAMES))} "
                f"{draw(st.integers(1, 9))} 0.5 {draw(st.sampled_from(['r', 'r', 'r', 's', 'TREC2INEX']))}")
        kind = draw(st.sampled_from([8, 8, 8, 8, 7, 6]))
        if kind == 8:
            offset = draw(st.sampled_from([0, 5, 20, 2**40 - 1]) | st.integers(0, 60))
            length = draw(st.sampled_from([0, 10, 2**40 - 1]) | st.integers(0, 40))
            lines.append(f"{head} {offset} {length}")
        elif kind == 7:
            lines.append(f"{head} /article[1]/p[{draw(st.integers(1, 3))}]")
        else:
            lines.append(head)
    if lines and draw(st.integers(0, 9)) == 0:  # one unusual or bad line
        i = draw(st.integers(0, len(lines) - 1))
        lines[i] = draw(st.sampled_from([lines[i] + " 9", "1 Q0 a 1", lines[i].replace(" 0.5 ", " 0.5 +"),
                                         lines[i] + " -3", "# a comment", "", "  " + lines[i] + "  ",
                                         lines[i].replace(" ", "\t"), lines[i] + "\x0b", lines[i] + " 2" * 10,
                                         " ".join(lines[i].split()[:6]), " ".join(lines[i].split()[:7])]))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    text = end.join(lines) + draw(st.sampled_from(["", end, end + end]))
    return (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + text.encode("utf-8")


@st.composite
def qrels_files(draw) -> bytes:
    lines = []
    for _ in range(draw(st.integers(0, 12))):
        spans = draw(st.lists(st.tuples(st.integers(0, 220), st.integers(0, 40)), max_size=4))
        size = sum(n for _, n in spans) if draw(st.booleans()) else draw(st.integers(0, 50))
        if not spans and draw(st.booleans()):
            size = 0
        fields = [draw(st.sampled_from(["1", "2", "2009001"])), "Q0", draw(st.sampled_from(NAMES)), str(size),
                  str(draw(st.integers(0, 200)))]
        if spans or draw(st.booleans()):
            fields.append(str(draw(st.integers(0, 100))))
        lines.append(" ".join(fields + [f"{o}:{n}" for o, n in spans]))
    if lines and draw(st.integers(0, 6)) == 0:
        i = draw(st.integers(0, len(lines) - 1))
        lines[i] = draw(st.sampled_from([lines[i] + " 5", lines[i] + " -5:3", "1 Q0 x 3", lines[i] + " :3",
                                         lines[i] + " 1:2:3", "# c", "", lines[i].replace(" ", "\t"), lines[i]]))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    return (end.join(lines) + draw(st.sampled_from(["", end]))).encode("utf-8")


SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(data=run_files(), chunk=st.sampled_from([1, 40, 300, folrun.CHUNK]), strict=st.booleans())
def test_run_read_column_wise_is_the_reference(tmp_path, monkeypatch, data, chunk, strict):
    path = tmp_path / "r.run"
    path.write_bytes(data)
    monkeypatch.setattr(folrun, "CHUNK", chunk)
    expected = outcome(reference_run, str(path), strict)
    got = outcome(lambda: as_reference_run(read_run(path, strict)))
    assert got == expected
    assert reference_outcomes(str(path))[strict] == expected  # what the real files' check relies on


@SETTINGS
@given(data=qrels_files())
def test_qrels_read_column_wise_is_the_reference(tmp_path, data):
    path = tmp_path / "q.qrels"
    path.write_bytes(data)
    expected = outcome(reference_qrels, str(path))
    try:
        q = read_qrels(path)
    except InputError as err:
        assert expected == ("error", str(err))
        return
    topics = {t: {a: (j.rel_size, j.doc_length, j.bep, j.passages.tolist(), j.line) for a, j in by.items()}
              for t, by in q.topics.items()}
    assert (topics, [str(d) for d in q.diagnostics]) == expected
    for t, by in expected[0].items():
        nrel = sum(1 for v in by.values() if v[0] > 0)
        assert q.totals(t) == (nrel, sum(v[0] for v in by.values() if v[0] > 0))


def test_real_files_read_column_wise_are_the_reference(inex):
    for name in sorted(os.listdir(inex / "runs")):
        path = str(inex / "runs" / name)
        lenient, strict = reference_outcomes(path)  # one reference pass for both (each file is long)
        assert as_reference_run(read_run(path)) == lenient, name
        assert outcome(lambda: as_reference_run(read_run(path, True))) == strict, name
    q = read_qrels(inex / "qrels" / "inex2009-2010.qrels")
    topics, diagnostics = reference_qrels(str(inex / "qrels" / "inex2009-2010.qrels"))
    assert [str(d) for d in q.diagnostics] == diagnostics and list(q.topics) == list(topics)
    for t, by in topics.items():
        assert {a: (j.rel_size, j.doc_length, j.bep, j.passages.tolist(), j.line) for a, j in q.topics[t].items()} == by


def test_a_bad_line_deep_in_a_big_file_is_named(tmp_path):
    # column-wise reading gives up on the chunk holding it; the line-by-line reader names it
    lines = [f"{1 + k // 2000} Q0 d{k} 1 0.5 r {k} 10" for k in range(100_000)]
    lines[98_765] = lines[98_765].replace(" 10", " ten")
    path = tmp_path / "big.run"
    path.write_text("\n".join(lines) + "\n")
    assert path.stat().st_size > folrun.CHUNK
    with pytest.raises(InputError) as err:
        read_run(path)
    assert str(err.value).startswith(f"{path}:98766: length must be an integer")


def test_a_byte_order_mark_is_dropped_only_at_the_start_of_the_file(tmp_path, monkeypatch):
    # a chunk starting with U+FEFF is text there (part of the topic), as line by line
    monkeypatch.setattr(folrun, "CHUNK", 10)
    path = tmp_path / "r.run"
    path.write_bytes(b"\xef\xbb\xbf1 Q0 a 1 1 r 0 5\n\xef\xbb\xbf1 Q0 b 1 1 r 0 5\n")
    assert as_reference_run(read_run(path)) == reference_run(str(path))
    assert list(read_run(path).topics) == ["1", "\ufeff1"]


def test_scan_fields_answers_none_where_the_line_reader_must_judge():
    assert scan_fields("1 Q0 é 1 1 r 0 5\n".encode()) is None  # not ASCII
    assert scan_fields(b"1 Q0 a 1 1 r 0 5\r") is None  # a carriage return inside a line
    assert scan_fields(b"1 Q0 a\x00 1 1 r 0 5\n") is None
    assert scan_fields(b"1 Q0 a\x7f 1 1 r 0 5\n") is None
    sc = scan_fields(b"\xef\xbb\xbf1 Q0 a 1 1 r 0 5\r\n\n# note\n 2\tQ0  b 1 1 r 3 4  \n")
    assert sc.line.tolist() == [1, 4] and sc.count.tolist() == [8, 8]
    assert sc.text(*sc.field(2)) == ["a", "b"] and sc.text(*sc.field(7)) == ["5", "4"]


# -- the lazy ranked lists ------------------------------------------------------------------------


def small_run(tmp_path) -> Run:
    path = tmp_path / "r.run"
    path.write_text("101 Q0 a1 1 1 r 0 10\n101 Q0 a1 1 1 r 20 5\n101 Q0 a2 2 1 r\n102 Q0 b 1 1 r 7 3\n")
    return read_run(path)


def test_a_topic_is_built_on_first_use_and_behaves_as_a_list(tmp_path):
    run = small_run(tmp_path)
    entries = run.topics["101"]
    assert isinstance(entries, TopicEntries) and not entries.built
    assert len(entries) == 2 and entries and not entries.built  # length and truth without building
    assert run.columns("101") is not None
    assert [e.article for e in entries] == ["a1", "a2"] and entries.built
    assert entries[0].passages.tolist() == [[0, 10], [20, 25]] and entries[1].whole
    assert entries[0].lines == (1, 2) and entries[0].line_spans.tolist() == [[0, 10], [20, 25]]
    assert entries == list(entries) and entries[-1:] == [entries[1]]
    assert run.article("102", "b").passages.tolist() == [[7, 10]]
    with pytest.raises(ValueError):
        entries[0].passages[0, 0] = 3  # the columns are read-only: a view cannot be changed behind the run
    copy = dataclasses.replace(run, topics={t: list(es) for t, es in run.topics.items()})
    assert copy.columns("101") is None and [e.article for e in copy.topics["101"]] == ["a1", "a2"]


def test_changing_a_topic_takes_it_away_from_the_columns(tmp_path):
    run = small_run(tmp_path)
    entries = run.topics["101"]
    entries.append(dataclasses.replace(entries[0], article="a9", rank=3, lines=()))
    assert entries.changed and run.columns("101") is None and run.columns("102") is not None
    del entries[0]
    assert [e.article for e in entries] == ["a2", "a9"]
    run.topics["102"] = []
    assert run.columns("102") is None


def test_judged_topics_are_built_on_first_use(tmp_path):
    path = tmp_path / "q.qrels"
    path.write_text("1 Q0 a 10 100 0 0:10\n1 Q0 b 0 50\n2 Q0 a 5 60 3 3:5\n")
    q = read_qrels(path)
    judged = q.topics["1"]
    assert len(judged) == 2 and q.totals("1") == (1, 10) and q.columns("1") is not None
    assert judged["a"].passages.tolist() == [[0, 10]] and q.judgement("2", "a").bep == 3
    assert "b" in judged and not judged["b"].relevant and list(judged) == ["a", "b"]
    judged["c"] = dataclasses.replace(judged["a"], article="c")
    assert q.columns("1") is None and q.totals("1") == (2, 20)


def test_many_ranked_articles_are_united_slice_by_slice():
    # more groups than one sort key holds (2^21): united by slices, the same result
    n = (1 << 21) + 5
    gid = np.repeat(np.arange(n, dtype=np.int64), 1)
    starts = np.zeros(n, dtype=np.int64)
    ends = np.full(n, 3, dtype=np.int64)
    gid2 = np.concatenate([gid, [n - 1]])
    s2, e2 = np.concatenate([starts, [2]]), np.concatenate([ends, [9]])
    out_s, out_e, out_g, overlap = iv.normalize_groups(gid2, s2, e2, n)
    assert len(out_s) == n and out_e[-1] == 9 and out_g[-1] == n - 1 and overlap.tolist() == [n - 1]


def test_article_names_without_building_the_entries(tmp_path):
    """Run.article_names gives the ranked articles in rank order from the columns (the topic's
    RunArticle objects are not built), and from the entries once a topic was changed."""
    (tmp_path / "r.run").write_text("1 Q0 b 1 1 r 0 5\n1 Q0 a 2 1 r 0 5\n1 Q0 b 3 1 r 9 2\n2 Q0 c 1 1 r 0 1\n")
    run = read_run(tmp_path / "r.run")
    assert run.article_names("1") == ["b", "a"] and run.article_names("2") == ["c"] and run.article_names("3") == []
    assert not run.topics["1"].built
    del run.topics["1"][0]
    assert run.article_names("1") == ["a"]
