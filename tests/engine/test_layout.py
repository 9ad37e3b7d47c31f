"""The display layout (readsim.core.layout): blocks, and the map between text offsets and display
positions (UTF-16 units, one position per block separator, as QTextDocument counts)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readsim.core.layout import layout
from readsim.core.text import XML_SPACE, Article

REAL = ["1164", "10025826", "10793"]  # ASCII; non-ASCII with &nbsp;; a large one
WORD = re.compile(f"[^{XML_SPACE}]+")
SPACE = {ord(c): " " for c in XML_SPACE}


class Display:
    """The display text as the view builds it: blocks joined by one separator, UTF-16."""

    def __init__(self, lay):
        self.units = "\n".join(b.text for b in lay.blocks).encode("utf-16-le")

    def __len__(self) -> int:
        return len(self.units) // 2

    def __getitem__(self, s: slice) -> str:
        return self.units[2 * s.start : 2 * s.stop].decode("utf-16-le")


def utf16(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


@pytest.fixture(scope="module", params=REAL)
def laid_out(request, inex):
    a = Article.from_file(inex / "articles" / f"{request.param}.xml")
    return a, layout(a)


def test_blocks_and_display_length(laid_out):
    a, lay = laid_out
    d = Display(lay)
    assert lay.display_length == len(d)
    pos = 0
    for b in lay.blocks:
        assert b.start == pos and b.text
        assert b.kind in {"title", "meta", "heading", "paragraph", "item", "row"}
        assert not re.search(f"[{XML_SPACE}]{{2,}}|[\t\r\n]", b.text)  # whitespace collapsed
        pos += utf16(b.text) + 1
    assert lay.blocks[0].kind == "title" and lay.blocks[0].text == a.title
    assert all(b.level >= 1 for b in lay.blocks if b.kind == "heading")


def test_every_segment_shows_the_article_text(laid_out):
    a, lay = laid_out
    d = Display(lay)
    assert len(lay.src) == len(lay.dst) == len(lay.length) > 0
    for src, dst, n in zip(lay.src.tolist(), lay.dst.tolist(), lay.length.tolist()):
        text = a.text[src : src + n]
        assert d[dst : dst + utf16(text)] == text.translate(SPACE)


def test_every_word_of_the_text_is_shown_once_in_order(laid_out):
    a, lay = laid_out
    d = Display(lay)
    word_starts = np.array([m.start() for m in WORD.finditer(a.text)], dtype=np.int64)
    units = a.from_index(word_starts)
    shown = lay.to_display(units, "start")
    assert np.all(np.diff(shown) > 0)  # strictly increasing: no word lost or reordered
    for i, u, pos in zip(word_starts[:2000].tolist(), units[:2000].tolist(), shown[:2000].tolist()):
        assert d[pos : pos + 1] == a.text[i]
        assert lay.from_display(pos) == u  # round trip on word starts
        assert lay.to_display(u) == pos  # scalar form agrees with the array form


def test_element_spans_show_the_same_words(laid_out):
    a, lay = laid_out
    d = Display(lay)
    elements = [e for e in a.elements if e.tag in ("p", "st", "title", "item", "caption")][:60]
    assert elements
    spans = np.array([(e.start, e.end) for e in elements], dtype=np.int64)
    starts, ends = lay.to_display(spans[:, 0], "start"), lay.to_display(spans[:, 1], "end")
    # spans_to_display keeps the non-empty ones (an element of whitespace only shows nothing)
    keep = ends > starts
    assert lay.spans_to_display(spans).tolist() == np.column_stack([starts, ends])[keep].tolist()
    for e, s, t in zip(elements, starts.tolist(), ends.tolist()):
        words = a.substring(e.start, e.end).split()
        if t <= s:
            assert words == [], e.xpath
            continue
        # the display adds " · " and " | " between fields and cells; the text may hold them too
        separators = ("\u00b7", "|")
        display_words = [w for w in d[s:t].split() if w not in separators]
        assert display_words == [w for w in words if w not in separators], e.xpath


def test_astral_character_takes_two_display_units():
    # "a𝔸b c" then "d": 𝔸 (U+1D538) is 4 UTF-8 bytes, 1 code point, 2 UTF-16 units
    xml = "<article><p>a\U0001d538b c</p>\n<p>d</p></article>".encode()
    for unit, b_off, d_off in (("bytes", 5, 9), ("chars", 2, 6)):
        a = Article.from_bytes(xml, "x", unit)
        lay = layout(a)
        assert [blk.text for blk in lay.blocks] == ["a\U0001d538b c", "d"]
        assert lay.display_length == 6 + 1 + 1
        assert lay.to_display(0) == 0  # a
        assert lay.to_display(1) == 1  # 𝔸 starts at 1 ...
        assert lay.to_display(b_off) == 3  # ... and b is shifted by its 2 UTF-16 units
        assert lay.to_display(d_off) == 7  # d: second block, after "a𝔸b c" (6 units) + separator
        assert lay.from_display(3) == b_off and lay.from_display(7) == d_off
        span = np.array([[0, b_off + 1]], dtype=np.int64)  # "a𝔸b"
        assert lay.spans_to_display(span).tolist() == [[0, 4]]


def test_whitespace_only_span_displays_empty():
    a = Article.from_bytes(b"<article><p>one   two</p></article>", "x", "chars")
    lay = layout(a)
    assert lay.blocks[0].text == "one two"
    # [4, 5) is the second of three spaces: collapsed away, nothing to paint
    assert lay.spans_to_display(np.array([[4, 5]], dtype=np.int64)).shape == (0, 2)
    assert lay.to_display(6) == 4 and lay.from_display(4) == 6  # "two"


# -- properties on generated articles ------------------------------------------------------
_text = st.text(alphabet="ab Z\n\t  é€\u00a0\U0001d538\U0001f600.", max_size=12)


@st.composite
def xml_articles(draw) -> str:
    def node(depth: int) -> str:
        tag = draw(st.sampled_from(["p", "sec", "st", "item", "row", "cell", "b", "link", "id", "list"]))
        if depth >= 3:
            return f"<{tag}>{draw(_text)}</{tag}>{draw(_text)}"
        children = "".join(node(depth + 1) for _ in range(draw(st.integers(0, 3))))
        return f"<{tag}>{draw(_text)}{children}</{tag}>{draw(_text)}"

    body = "".join(node(0) for _ in range(draw(st.integers(0, 4))))
    return f"<article>{draw(_text)}<header><title>{draw(_text)}</title></header><bdy>{body}</bdy></article>"


@settings(max_examples=200, deadline=None)
@given(xml_articles(), st.sampled_from(["bytes", "chars"]))
def test_layout_properties_on_generated_articles(xml, unit):
    a = Article.from_bytes(xml.encode("utf-8"), "gen", unit)
    lay = layout(a)
    d = Display(lay)
    assert lay.display_length == (len(d) if lay.blocks else 0)
    for b in lay.blocks:
        assert not re.search(f"[{XML_SPACE}]{{2,}}|[\t\r\n]", b.text)
    for src, dst, n in zip(lay.src.tolist(), lay.dst.tolist(), lay.length.tolist()):
        text = a.text[src : src + n]
        assert d[dst : dst + utf16(text)] == text.translate(SPACE)
    starts = [m.start() for m in WORD.finditer(a.text)]
    if not starts:
        return
    units = a.from_index(np.array(starts, dtype=np.int64))
    shown = lay.to_display(units, "start")
    assert np.all(np.diff(shown) > 0)
    for i, u, pos in zip(starts, units.tolist(), shown.tolist()):
        assert d[pos : pos + utf16(a.text[i])] == a.text[i]
        assert lay.from_display(pos) == u
