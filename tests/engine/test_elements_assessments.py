"""Element assessments: derived from FOL highlighting (worked by hand) and read/written as XML."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from readsim.core.collection import Collection
from readsim.core.element_retrieval import (Cuts, assessments_xml, derive_article, derive_assessments, element_assessments,
                                     grade, parse_cuts, read_assessments, write_assessments, xpointer)
from readsim.core.errors import InputError
from readsim.core.formats import read_qrels
from readsim.core.text import Article

from helpers.engine_cases import ARTICLE, QRELS


@pytest.fixture
def coll(tmp_path: Path) -> Path:
    (tmp_path / "articles").mkdir()
    (tmp_path / "articles" / "A1.xml").write_bytes(ARTICLE)
    (tmp_path / "articles" / "C1.xml").write_bytes("<article><p>café</p><p>tea</p></article>".encode())
    (tmp_path / "q.qrels").write_text(QRELS + "T2 Q0 C1 5 8 0 0:5\nT2 Q0 GONE 3 10 0 0:3\n")
    return tmp_path


def rows(assessments):
    return [(r.topic, r.article, r.xpath, r.size, r.rsize, r.e, r.s) for r in assessments.rows()]


def test_derived_assessments_worked_by_hand(coll):
    q = read_qrels(coll / "q.qrels")
    ta = element_assessments(q, Collection(coll / "articles"), "T1")
    assert rows_of(ta) == [
        # element              size rsize  e: rsize/R           s: rsize/size
        ("/article[1]", 35, 10, 3, 1),            # 10/10 -> 3       10/35 = .29 -> 1
        ("/article[1]/bdy[1]", 30, 10, 3, 1),     # 10/10 -> 3       10/30 = 1/3 -> 1 (at most 1/3)
        ("/article[1]/bdy[1]/p[1]", 7, 7, 3, 3),  # 7/10 = .7 -> 3   7/7 -> 3
        ("/article[1]/bdy[1]/p[2]", 11, 3, 1, 1),  # 3/10 -> 1        3/11 = .27 -> 1
        ("/article[1]/bdy[1]/p[2]/b[1]", 3, 3, 1, 3),  # 3/10 -> 1    3/3 -> 3
    ]
    a = ta.articles["A1"]
    assert a.relevant_size == 10 and a.bep == 5
    # title and p3 hold no highlighted text: (0, 0), not listed
    assert a.values(1) == (0, 0) and a.values(6) == (0, 0)
    assert ta.complete


def rows_of(ta):
    return [(r.xpath, r.size, r.rsize, r.e, r.s) for r in ta.rows()]


def test_cut_points_are_options(coll):
    q = read_qrels(coll / "q.qrels")
    cuts = Cuts(exh=(Fraction(1, 2), Fraction(3, 4)), spec=parse_cuts("0.25,0.5"))
    got = {r.xpath: (r.e, r.s) for r in element_assessments(q, Collection(coll / "articles"), "T1", cuts).rows()}
    # bdy: s = 1/3 -> 2 (above .25, at most .5); p1: e = .7 -> 2 (above .5, at most .75)
    assert got["/article[1]/bdy[1]"] == (3, 2)
    assert got["/article[1]/bdy[1]/p[1]"] == (2, 3)
    assert got["/article[1]/bdy[1]/p[2]/b[1]"] == (1, 3)


@pytest.mark.parametrize("text", ["", "1/3", "0.5,0.5", "0.6,0.3", "0,0.5", "0.5,1", "a,b", "1/0,1/2", "1,2,3"])
def test_bad_cut_points(text):
    with pytest.raises(ValueError, match="0 < a < b < 1"):
        parse_cuts(text)


def test_grade_edges():
    # 0 when nothing is relevant; exactly at a cut point grades the lower value
    assert grade([0, 1, 2, 3, 4, 5], [6, 3, 3, 3, 6, 0], (Fraction(1, 3), Fraction(2, 3))).tolist() == [0, 1, 2, 3, 2, 0]


def test_sizes_count_bytes_or_characters(coll):
    q = read_qrels(coll / "q.qrels")
    b = {r.xpath: (r.size, r.rsize) for r in element_assessments(q, Collection(coll / "articles", "bytes"), "T2").rows()}
    c = {r.xpath: (r.size, r.rsize) for r in element_assessments(q, Collection(coll / "articles", "chars"), "T2").rows()}
    assert b["/article[1]/p[1]"] == (5, 5)  # "café": 5 UTF-8 bytes
    assert c["/article[1]/p[1]"] == (4, 4)  # 4 characters (the same 0:5 now also covers the "t" of p2)
    assert c["/article[1]/p[2]"] == (3, 1)


def test_missing_article_leaves_the_topic_incomplete(coll):
    q = read_qrels(coll / "q.qrels")
    a = derive_assessments(q, Collection(coll / "articles"))
    assert a.topics["T2"].missing == ["GONE"] and not a.topics["T2"].complete
    assert a.complete_topics() == ["T1"]
    assert len(a.diagnostics) == 1 and "Complete topics: T1" in a.diagnostics[0].message


def test_xpointers_give_every_offset_back(coll):
    art = Article.from_file(coll / "articles" / "A1.xml")
    for offset in range(art.length + 1):
        for side in ("start", "end"):
            p = xpointer(art, offset, side)
            assert (art.point(p) if p.startswith("/") else int(p)) == offset
    assert xpointer(art, 17) == "/article[1]/bdy[1]/p[2]/b[1]/text()[1].0"
    assert xpointer(art, 20, "end") == "/article[1]/bdy[1]/p[2]/b[1]/text()[1].3"
    assert xpointer(art, 20, "start") == "/article[1]/bdy[1]/p[2]/text()[2].0"


def test_xpointers_in_bytes_of_a_non_ascii_article(coll):
    art = Article.from_file(coll / "articles" / "C1.xml")  # "café" = 5 bytes, then "tea"
    assert xpointer(art, 5) == "/article[1]/p[2]/text()[1].0"
    assert xpointer(art, 5, "end") == "/article[1]/p[1]/text()[1].4"  # 4 characters into "café"
    assert xpointer(art, 4) == "4"  # inside the two bytes of "é": no text node gives it back


def test_write_and_read_back(coll, tmp_path):
    q = read_qrels(coll / "q.qrels")
    c = Collection(coll / "articles")
    a = derive_assessments(q, c, ["T1"])
    out = tmp_path / "assessments.xml"
    write_assessments(a, out, c)
    text = out.read_text()
    assert '<assessments topic="T1" unit="bytes" source="derived" exhaustivity-cuts="1/3,2/3"' in text
    assert "not INEX's assessments" in text
    assert '<passage start="/article[1]/bdy[1]/p[1]/text()[1].0" end="/article[1]/bdy[1]/p[1]/text()[1].7" size="7"/>' in text
    assert '<element path="/article[1]/bdy[1]/p[2]/b[1]" exhaustivity="1" specificity="3" size="3" rsize="3"/>' in text
    b = read_assessments(out, c)
    assert rows(b) == rows(a) and b.diagnostics == []
    ba, aa = b.topics["T1"].articles["A1"], a.topics["T1"].articles["A1"]
    assert np.array_equal(ba.passages, aa.passages) and ba.bep == aa.bep == 5


def test_several_topics_are_wrapped(coll):
    q = read_qrels(coll / "q.qrels")
    c = Collection(coll / "articles")
    data = assessments_xml(derive_assessments(q, c), c)
    assert b"<inex-assessments unit=\"bytes\"" in data and data.count(b"<assessments ") == 2
    back = read_assessments("x.xml", c, data=data)
    assert rows(back) == rows(derive_assessments(q, c))
    # the relevant article the collection lacked is written as such: T2 stays incomplete
    assert b'<file name="GONE" elements="unknown"/>' in data
    assert back.topics["T2"].missing == ["GONE"] and back.complete_topics() == ["T1"]


INEX_STYLE = """<?xml version="1.0" encoding="UTF-8"?>
<assessments topic="289">
  <file name="A1">
    <passage start="/article[1]/bdy[1]/p[1]/text()[1].0" end="12" size="7"/>
    <best-entry-point path="/article[1]/bdy[1]/p[1]/text()[1].4"/>
    <element path="/article/bdy/p" exhaustivity="2" size="7" rsize="7"/>
    <element path="/article[1]/bdy[1]" exhaustivity="?" size="30" rsize="10"/>
    <element path="/article[1]/bdy[1]/p[2]" exhaustivity="1" specificity="2" size="11" rsize="3"/>
  </file>
  <file name="NOT-HERE"><element path="/article[1]" exhaustivity="1" size="5" rsize="1"/></file>
</assessments>
"""


def test_read_an_inex_style_file(coll):
    c = Collection(coll / "articles")
    a = read_assessments("a.xml", c, data=INEX_STYLE.encode())
    assert [(r.xpath, r.size, r.rsize, r.e, r.s) for r in a.rows()] == [
        ("/article[1]/bdy[1]", 30, 10, 0, 1),          # '?' read as 0; s from 10/30 -> 1
        ("/article[1]/bdy[1]/p[1]", 7, 7, 2, 3),       # no specificity: 7/7 -> 3
        ("/article[1]/bdy[1]/p[2]", 11, 3, 1, 2),      # the file's specificity
    ]
    ta = a.topics["289"]
    assert ta.missing == ["NOT-HERE"] and ta.articles["A1"].passages.tolist() == [[5, 12]]
    assert ta.articles["A1"].bep == 9
    messages = " | ".join(str(d) for d in a.diagnostics)
    assert "a.xml:7: warning: 1 elements with exhaustivity '?'" in messages
    assert "not in the collection" in messages


@pytest.mark.parametrize("body, line, reason", [
    ('<element path="/article[1]" exhaustivity="4" size="35" rsize="1"/>', 3, "exhaustivity must be 0, 1, 2 or 3"),
    ('<element exhaustivity="1" size="35" rsize="1"/>', 3, "needs path="),
    ('<element path="/article[1]/p[9]" exhaustivity="1" size="35" rsize="1"/>', 3, "has no element /article[1]/p[9]"),
    ('<element path="/article[1]" exhaustivity="1" size="3" rsize="10"/>', 3, "rsize 10 is larger than size 3"),
    ('<element path="/article[1]" exhaustivity="1" size="x" rsize="1"/>', 3, "size must be a whole number"),
    ('<element path="/article[1]" exhaustivity="1" rsize="1"/>', 3, "needs size="),
    ('<element path="/article[1]" size="35" rsize="1"/>', 3, "needs exhaustivity="),
    ('<element path="/article[1]" exhaustivity="1" size="35" rsize="1"/>\n'
     '<element path="/article" exhaustivity="1" size="35" rsize="1"/>', 4, "assessed twice"),
    ('<passage start="/article[1]/zz[1]" end="3"/>', 3, "cannot resolve start"),
    ('<passage start="9" end="3"/>', 3, "ends (3) before it starts (9)"),
])
def test_bad_assessments_name_file_and_line(coll, body, line, reason):
    data = f'<assessments topic="1">\n<file name="A1">\n{body}\n</file></assessments>'.encode()
    with pytest.raises(InputError) as err:
        read_assessments("bad.xml", Collection(coll / "articles"), data=data)
    assert err.value.path == "bad.xml" and err.value.line == line and reason in err.value.reason


@pytest.mark.parametrize("data, reason", [
    (b"<runs/>", "expected <assessments topic=...>"),
    (b"<assessments><file name='A1'/></assessments>", "needs topic="),
    (b"<assessments topic='1' unit='chars'/>", "sizes in chars but the collection is read in bytes"),
    (b"<assessments topic='1' unit='words'/>", "unit must be bytes or chars"),
    (b"<x><assessments topic='1'/><assessments topic='1'/></x>", "topic 1 is assessed twice"),
    (b"<assessments topic='1'><file/></assessments>", "<file> needs name="),
    (b"<assessments topic='1'", "not well-formed XML"),
    (b'<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><assessments topic="&x;"/>', "external entities are never read"),
])
def test_bad_assessment_files(coll, data, reason):
    with pytest.raises(InputError) as err:
        read_assessments("bad.xml", Collection(coll / "articles"), data=data)
    assert reason in str(err.value) and str(err.value).startswith("bad.xml")


def test_a_size_that_differs_from_the_collection_is_a_warning(coll):
    data = b'<assessments topic="1"><file name="A1">\n<element path="/article[1]" exhaustivity="3" size="40" rsize="10"/>' \
           b"</file></assessments>"
    a = read_assessments("s.xml", Collection(coll / "articles"), data=data)
    assert str(a.diagnostics[0]) == "s.xml:2: warning: article A1 element /article[1]: size 40 in the file, 35 bytes in the collection"
    # s comes from the file's own numbers: 10/40 -> 1
    assert a.topics["1"].articles["A1"].values(0) == (3, 1)


def test_derive_article_directly():
    art = Article.from_bytes(ARTICLE, "A1")
    a = derive_article(art, np.array([[5, 12], [17, 20]]))
    assert a.e.tolist() == [3, 0, 3, 3, 1, 1, 0] and a.s.tolist() == [1, 0, 1, 3, 1, 3, 0]
