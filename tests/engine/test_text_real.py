"""The article text model (docs/reference.md section 1) on the real INEX 2009 articles, and on small
hand-written XML."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from readsim.core.errors import InputError
from readsim.core.formats import read_qrels
from readsim.core.safe_xml import parse_xml
from readsim.core.text import Article, content_end


@pytest.fixture(scope="module")
def articles(inex):
    cache: dict[str, Article] = {}

    def get(name: str, unit: str = "bytes") -> Article:
        key = f"{name}/{unit}"
        if key not in cache:
            cache[key] = Article.from_file(inex / "articles" / f"{name}.xml", unit)
        return cache[key]

    return get


def test_doc_length_agrees_with_every_qrels_line(inex, articles):
    qrels = read_qrels(inex / "qrels" / "inex2009-2010.qrels")
    present = {p.stem for p in (inex / "articles").glob("*.xml")}
    checked, wrong = 0, []
    for topic, judged in qrels.topics.items():
        for name, j in judged.items():
            if name not in present:
                continue
            checked += 1
            if articles(name).doc_length != j.doc_length:
                wrong.append((topic, name, j.doc_length, articles(name).doc_length))
    # the data README / docs/reference.md section 1.4: 419 qrels lines have their article here, all agree
    assert checked == 419
    assert wrong == []


def test_article_1164_title(inex, articles):
    a = articles("1164")
    assert a.name == "1164"
    assert a.title == "Artificial intelligence"
    assert a.substring(0, 23) == "Artificial intelligence"
    assert a.span("/article[1]/header[1]/title[1]") == (0, 23)
    assert a.span("/article/header/title") == (0, 23)  # positions [1] implied
    assert a.doc_length == 74827  # data README: doc_length 74827 is that byte length
    with pytest.raises(KeyError):
        a.span("/article[1]/header[7]")


def test_elements_in_document_order_and_nested(inex, articles):
    a = articles("1164")
    assert a.elements[0].xpath == "/article[1]" and a.elements[0].depth == 0
    assert (a.elements[0].start, a.elements[0].end) == (0, a.length)
    by_path = {e.xpath: e for e in a.elements}
    for e in a.elements:
        assert 0 <= e.start <= e.end <= a.length
        parent = e.xpath.rsplit("/", 1)[0]
        if parent:
            p = by_path[parent]
            assert p.start <= e.start and e.end <= p.end and p.depth == e.depth - 1
    starts = [e.start for e in a.elements]
    assert starts == sorted(starts)


def test_same_text_without_the_dtd(inex, articles, tmp_path):
    # 10025826 holds 79 &nbsp; entities; a lone copy has no ../article.dtd next to it
    name = "10025826"
    shutil.copy(inex / "articles" / f"{name}.xml", tmp_path / f"{name}.xml")
    assert not (tmp_path.parent / "article.dtd").exists()
    alone = Article.from_file(tmp_path / f"{name}.xml")
    with_dtd = articles(name)
    assert "\u00a0" in with_dtd.text
    assert alone.text == with_dtd.text
    assert alone.doc_length == with_dtd.doc_length
    assert [(e.xpath, e.start, e.end) for e in alone.elements] == [(e.xpath, e.start, e.end) for e in with_dtd.elements]


def test_bytes_and_chars_units_on_a_non_ascii_article(inex, articles):
    b, c = articles("10025826", "bytes"), articles("10025826", "chars")
    assert b.text == c.text and not b.text.isascii()
    assert c.length == len(c.text)
    assert b.length == len(b.text.encode("utf-8")) > c.length
    end = content_end(c.text)
    assert c.doc_length == end
    assert b.doc_length == len(b.text[:end].encode("utf-8"))
    # the same element, the same text, in either unit
    for eb, ec in zip(b.elements, c.elements):
        assert eb.xpath == ec.xpath
        assert b.substring(eb.start, eb.end) == c.substring(ec.start, ec.end)
        assert len(c.substring(ec.start, ec.end)) == ec.end - ec.start
        assert len(b.substring(eb.start, eb.end).encode("utf-8")) == eb.end - eb.start
    # to_index / from_index invert each other at character boundaries
    idx = np.arange(0, len(b.text) + 1, 7)
    assert np.array_equal(b.to_index(b.from_index(idx)), idx)


def test_offsets_inside_a_multibyte_character():
    # "aé€b": a=0, é=1..2 (2 bytes), €=3..5 (3 bytes), b=6
    a = Article.from_bytes("<article><p>aé€b</p></article>".encode(), "x")
    assert a.length == 7 and a.doc_length == 7
    assert a.substring(1, 3) == "é" and a.substring(3, 6) == "€"
    assert a.substring(2, 4) == "é€"  # a span keeps every character it touches
    assert a.to_index(4, "start") == 2 and a.to_index(4, "end") == 3
    assert a.from_index(3) == 6


def test_doc_length_rule_by_hand():
    # trailing non-word characters are not counted; stop before a no-break space
    assert content_end("one two.)\n\n") == 7
    assert content_end("it's'\n") == 5
    assert content_end("abc \u00a0 .\n") == 4
    assert content_end("...\n") == 0
    a = Article.from_bytes(b"<article>\n  <p>Hello world.</p>\n</article>", "x")
    assert a.text == "Hello world.\n"  # leading whitespace of the whole text dropped
    assert a.drop == 3 and a.doc_length == 11
    assert a.span("/article[1]/p[1]") == (0, 12)


def test_malformed_xml_names_file_and_line(tmp_path):
    path = tmp_path / "bad.xml"
    path.write_text("<article>\n<p>one</p>\n<p>two</article>\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        Article.from_file(path)
    assert err.value.path == str(path)
    assert err.value.line == 3
    assert str(err.value).startswith(f"{path}:3: ")
    with pytest.raises(InputError) as missing:
        parse_xml(tmp_path / "none.xml")
    assert str(missing.value).startswith(str(tmp_path / "none.xml"))


def test_entity_without_dtd_decodes_from_the_html_table():
    data = (b'<?xml version="1.0"?>\n<!DOCTYPE article SYSTEM "no-such-readsim-article.dtd">\n'
            b"<article><p>a&nbsp;b&eacute;&amp;</p></article>")
    a = Article.from_bytes(data, "x")
    assert a.text == "a\u00a0b\u00e9&"
    assert a.length == 1 + 2 + 1 + 2 + 1


def test_units_are_checked():
    with pytest.raises(ValueError):
        Article.from_bytes(b"<article/>", "x", unit="words")
