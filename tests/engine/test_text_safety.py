"""Safe, linear, bounded article parsing (reference sections 2.8 and 10): the built-in entity table against the
real DTD, the lazy element index, memory on a deep article, the DTD search path, the read-only
Element. The hostile inputs themselves are rows of tests/hostile/test_articles.py."""

from __future__ import annotations

import html.entities
import re
import shutil
import tracemalloc

import pytest

from readsim.core.collection import Collection
from readsim.core.errors import InputError
from readsim.core.safe_xml import BUILTIN_DTD, MAX_ARTICLE_BYTES, dtd_paths, read_file
from readsim.core.text import MAX_ELEMENTS, MAX_TEXT_CHARS, Article, Element, walk

SMALL = (b'<?xml version="1.0"?>\n<article><header><title>T</title></header>\n'
         b"<bdy><sec><p>one <b>two</b> three<!-- c --> four</p><p>five</p></sec><sec><p>six</p></sec></bdy></article>")


def test_builtin_table_is_the_collections_dtd(inex):
    """The packaged copy: the real article.dtd declares the 253 XHTML entities, with the same
    characters (its amp/lt are double-escaped, XML's own five are predefined anyway)."""
    dtd = re.sub(r"<!--.*?-->", "", (inex / "article.dtd").read_text(encoding="utf-8"), flags=re.S)
    real = dict(re.findall(r'<!ENTITY\s+(\w+)\s+"([^"]*)"', dtd))
    builtin = dict(re.findall(r'<!ENTITY (\w+) "([^"]*)"', BUILTIN_DTD))
    predefined = {"amp", "lt", "gt", "quot", "apos"}
    assert len(real) == 253
    assert {k: v for k, v in real.items() if k not in predefined} == builtin
    assert set(builtin) | predefined >= set(html.entities.name2codepoint)


def test_budgets_cover_the_real_collection(inex):
    files = list((inex / "articles").glob("*.xml"))
    biggest = max(files, key=lambda p: p.stat().st_size)
    assert biggest.stat().st_size < MAX_ARTICLE_BYTES / 20  # 612 KB
    a = Article.from_file(biggest)
    assert a.element_count < MAX_ELEMENTS / 20 and len(a.text) < MAX_TEXT_CHARS / 20


def test_text_without_the_index_and_index_on_demand():
    a = Article.from_bytes(SMALL, "s")
    assert a.text == "T\none two three fourfivesix" and a.element_count == 10
    assert "_index" not in a.__dict__ and "elements" not in a.__dict__  # text and doc_length only
    assert a.span("/article/bdy/sec[2]/p") == (len("T\none two three fourfive"), len(a.text))
    assert "_index" in a.__dict__ and "elements" not in a.__dict__  # a span needs no Element objects
    assert [e.xpath for e in a.elements][:3] == ["/article[1]", "/article[1]/header[1]", "/article[1]/header[1]/title[1]"]


@pytest.mark.parametrize("xpath", ["/article[2]", "/bdy[1]", "/article[1]/bdy[1]/sec[3]", "/article[1]/bdy[1]/sec[0]",
                                   "/article[1]/bdy[1]/sec[01]", "/article[1]/bdy[1]/*[1]", "/article[1]/bdy[1]/sec[@x]", "/"])
def test_span_of_a_missing_or_unsupported_path(xpath):
    with pytest.raises(KeyError):
        Article.from_bytes(SMALL, "s").span(xpath)


def test_point_counts_text_nodes_as_before():
    a = Article.from_bytes(SMALL, "s")
    p = "/article[1]/bdy[1]/sec[1]/p[1]"
    start = a.span(p)[0]
    assert a.point(p) == start and a.point(p + ".2") == start + 2
    assert a.point(p + "/text()[2].1") == start + len("one two") + 1  # the tail of <b>: " three"
    assert a.point(p + "/text()[2].99") == start + len("one two three")  # clamped to the node
    with pytest.raises(KeyError):
        a.point(p + "/text()[3]")  # the comment's tail is not counted, as before


def test_same_text_as_the_layout_walk(inex):
    """The layout walks the tree with walk(); its text is the article's (itertext) on real data."""
    for name in ("1164", "10025826"):
        a = Article.from_file(inex / "articles" / f"{name}.xml")
        walked = "".join(node for event, node, _ in walk(a.root) if event == "text")
        assert walked[a.drop:] == a.text


def test_deep_article_memory_stays_small():
    """2,000 nested sections with 20 leaves each: storing every XPath would take ~400 MB here
    (40,000 paths of ~1,000 steps); the index keeps parents and builds paths on demand."""
    levels = 2000
    data = (b"<article><bdy>" + b"".join([b"<sec>" + b"<p>w</p>" * 20 + b"\n"] * levels)
            + b"</sec>" * levels + b"</bdy></article>")
    tracemalloc.start()
    try:
        a = Article.from_bytes(data, "deep")
        deepest = a.elements[-1]  # the last leaf of the innermost section
        assert a.span(deepest.xpath) == (deepest.start, deepest.end) == (a.length - 2, a.length - 1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(a.elements) == 2 + levels * 21 and deepest.depth == levels + 2
    assert deepest.xpath.count("/sec[1]") == levels
    assert peak < 64 * 2**20, f"{peak / 2**20:.0f} MiB"


def test_dtd_search_path_of_a_nested_collection(tmp_path):
    """Wikipedia's layout nests articles in folders: the DTD may be beside them, above them up
    to the collection folder, or just above the collection folder; nowhere else."""
    pages = tmp_path / "wiki" / "pages"
    (pages / "00").mkdir(parents=True)
    (tmp_path / "wiki" / "article.dtd").write_text('<!ENTITY readsim "own">')
    (tmp_path / "article.dtd").write_text('<!ENTITY readsim "too far">')
    (pages / "00" / "7.xml").write_bytes(b'<!DOCTYPE article SYSTEM "../../article.dtd">\n<article>&readsim;</article>')
    assert dtd_paths(pages / "00" / "7.xml", pages) == [str(pages / "00" / "article.dtd"), str(pages / "article.dtd"),
                                                        str(tmp_path / "wiki" / "article.dtd")]
    assert Collection(pages).article("7").text == "own"
    (pages / "00" / "7.xml").write_bytes(b'<!DOCTYPE article SYSTEM "../../../article.dtd">\n<article>&readsim;</article>')
    with pytest.raises(InputError, match=r"7\.xml:2: undefined entity &readsim;"):
        Collection(pages).article("7")  # a DTD above the collection's parent is not the collection's


def test_own_dtd_through_a_symbolic_link(tmp_path, inex):
    (tmp_path / "articles").mkdir()
    (tmp_path / "article.dtd").symlink_to(inex / "article.dtd")
    shutil.copy(inex / "articles" / "10025826.xml", tmp_path / "articles")
    assert "\u00a0" in Collection(tmp_path / "articles").article("10025826").text


def test_read_file_refuses_what_is_not_a_regular_file(tmp_path):
    with pytest.raises(InputError, match="is a folder"):
        read_file(tmp_path)
    with pytest.raises(InputError, match="file not found"):
        read_file(tmp_path / "none")
    (tmp_path / "f").write_bytes(b"12345")
    assert read_file(tmp_path / "f", 5) == b"12345"
    with pytest.raises(InputError, match="5 bytes, over the budget of 4 bytes"):
        read_file(tmp_path / "f", 4)


def test_element_is_a_read_only_value():
    a = Article.from_bytes(SMALL, "s")
    e = a.elements[1]
    plain = Element("/article[1]/header[1]", "header", 1, e.start, e.end)
    assert e == plain and hash(e) == hash(plain) and e.length == e.end - e.start
    assert repr(plain) == f"Element(xpath='/article[1]/header[1]', tag='header', depth=1, start={e.start}, end={e.end})"
    with pytest.raises(AttributeError):
        e.start = 3
    assert e != a.elements[2]
