"""A readable display of an article, and the map from text offsets to display positions.

The article's text (docs/reference.md section 1.1) keeps the XML file's line breaks and indentation, which
read badly. A :class:`Layout` re-flows it the way the XML structures it: a title, meta lines
(ids, revision, categories), section headings with their level, paragraphs, list items and
table rows, each a :class:`Block` whose runs of whitespace are collapsed to one space. Block
separators and cell separators are display-only.

Display positions are what Qt's ``QTextDocument`` counts: UTF-16 code units, one extra
position between blocks. :meth:`Layout.to_display` maps unit offsets (bytes or characters
of the :class:`~readsim.core.text.Article`) to display positions in O(log segments) each, so the
view can paint relevant and retrieved spans; :meth:`Layout.from_display` maps back.
No Qt here: the view builds its document from :attr:`Layout.blocks`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
from lxml import etree

from .text import XML_SPACE, Article, walk

HEADINGS = {"st"}
PARAGRAPHS = {"p", "caption", "indent", "blockquote", "image", "reflist", "template", "math_block"}
ITEMS = {"entry", "item", "li", "dt", "dd"}
ROWS = {"row", "tr"}
META = {"header", "categories"}
CONTAINERS = {"article", "bdy", "body", "sec", "ss", "ss1", "ss2", "ss3", "ss4", "ss5", "list", "normallist",
              "numberedlist", "definitionlist", "table", "gallery", "revision_history"}
SECTIONS = {"sec", "ss", "ss1", "ss2", "ss3", "ss4", "ss5"}
#: inline elements that get a visible separator before them when their block already has text
SEPARATED = {"id": " \u00b7 ", "timestamp": " \u00b7 ", "username": " \u00b7 ", "category": " \u00b7 ", "col": " | ", "cell": " | "}
_SPACE_RUN = re.compile(f"[{XML_SPACE}]+")


@dataclass
class Block:
    """One display paragraph. ``kind``: ``title``, ``meta``, ``heading``, ``paragraph``,
    ``item`` or ``row``; ``level``: section depth of a heading (1 = top); ``text``: display
    text; ``start``: display position (UTF-16) of the block's first character."""

    kind: str
    level: int
    text: str = ""
    start: int = 0
    element: str = ""


@dataclass
class Layout:
    """Blocks plus the segment map (string index of the article text -> display position)."""

    blocks: list[Block]
    src: np.ndarray  # segment starts, string indices into article.text (sorted)
    dst: np.ndarray  # display position of each segment start (UTF-16)
    length: np.ndarray  # segment lengths (characters; mapped 1:1)
    article: Article = field(repr=False)
    _utf16: np.ndarray | None = field(default=None, repr=False)

    @property
    def display_length(self) -> int:
        if not self.blocks:
            return 0
        last = self.blocks[-1]
        return last.start + _utf16_len(last.text)

    def to_display(self, offsets, side: str = "start"):
        """Display positions of unit offsets (int or int array).

        ``side="start"``: the first display character at or after the offset;
        ``side="end"``: just after the last display character before the offset. So a span
        ``[a, b)`` displays as ``[to_display(a), to_display(b, "end"))`` (empty if it covers
        only collapsed whitespace).
        """
        scalar = not isinstance(offsets, np.ndarray)
        idx = np.atleast_1d(np.asarray(self.article.to_index(np.asarray(offsets, dtype=np.int64), side)))
        if not len(self.src):
            out = np.zeros_like(idx)
        elif side == "start":
            k = np.searchsorted(self.src, idx, side="right") - 1
            inside = (k >= 0) & (idx < self.src[np.maximum(k, 0)] + self.length[np.maximum(k, 0)])
            nxt = np.minimum(k + 1, len(self.src) - 1)
            out = np.where(inside, self.dst[np.maximum(k, 0)] + idx - self.src[np.maximum(k, 0)],
                           np.where(k + 1 < len(self.src), self.dst[nxt], self.display_length))
        else:
            k = np.searchsorted(self.src, idx, side="left") - 1  # last segment starting before idx
            kk = np.maximum(k, 0)
            out = np.where(k >= 0, self.dst[kk] + np.minimum(idx - self.src[kk], self.length[kk]), 0)
        out = out.astype(np.int64)
        return int(out[0]) if scalar else out

    def from_display(self, position: int) -> int:
        """Unit offset of the display position (the next mapped character's offset)."""
        if not len(self.dst):
            return 0
        k = int(np.searchsorted(self.dst, position, side="right") - 1)
        if k < 0:
            return self.article.from_index(int(self.src[0]))
        delta = position - int(self.dst[k])
        if delta < self.length[k]:
            return self.article.from_index(int(self.src[k]) + delta)
        nxt = min(k + 1, len(self.src) - 1)
        return self.article.from_index(int(self.src[nxt]) if k + 1 < len(self.src) else int(self.src[k] + self.length[k]))

    def spans_to_display(self, spans: np.ndarray) -> np.ndarray:
        """``(k, 2)`` unit spans -> ``(k, 2)`` display spans (empty ones dropped)."""
        if not len(spans):
            return np.zeros((0, 2), dtype=np.int64)
        starts = self.to_display(spans[:, 0].astype(np.int64), "start")
        ends = self.to_display(spans[:, 1].astype(np.int64), "end")
        out = np.column_stack([starts, ends])
        return out[out[:, 1] > out[:, 0]]


def _utf16_len(s: str) -> int:
    return len(s) + sum(1 for ch in s if ord(ch) > 0xFFFF) if not s.isascii() else len(s)


def _kind(el: etree._Element) -> str | None:
    tag = etree.QName(el).localname
    parent = el.getparent()
    if tag == "title" and parent is not None and etree.QName(parent).localname == "header":
        return "title"
    if tag in HEADINGS:
        return "heading"
    if tag in PARAGRAPHS:
        return "paragraph"
    if tag in ITEMS:
        return "item"
    if tag in ROWS:
        return "row"
    if tag in META:
        return "meta"
    if tag in CONTAINERS:
        return "container"
    return None


class _Builder:
    """Accumulates blocks and their segments while walking the article."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.segments: list[list[int]] = []  # [src index, block index, local UTF-16 pos, length]
        self.stack: list[tuple[str, int, str]] = []
        self.block: Block | None = None
        self.parts: list[str] = []
        self.local = 0
        self.pending: int | None = None  # string index of a collapsed whitespace run

    def close(self) -> None:
        if self.block is not None and self.parts:
            self.block.text = "".join(self.parts)
            self.blocks.append(self.block)
        self.block, self.parts, self.local, self.pending = None, [], 0, None

    def emit(self, text: str, index: int | None) -> None:
        if self.block is None:
            kind, level, tag = self.stack[-1] if self.stack else ("paragraph", 0, "")
            self.block = Block("paragraph" if kind == "container" else kind, level, element=tag)
        if index is not None:
            if text.isascii() or all(ord(c) <= 0xFFFF for c in text):
                self._segment(index, len(text))
            else:  # astral characters take two UTF-16 units: one segment each
                local = self.local
                for i, ch in enumerate(text):
                    self._segment(index + i, 1)
                    self.local += _utf16_len(ch)
                self.local = local
        self.parts.append(text)
        self.local += _utf16_len(text)

    def _segment(self, index: int, length: int) -> None:
        b = len(self.blocks)
        seg = self.segments[-1] if self.segments else None
        local = self.local
        if seg and seg[1] == b and seg[0] + seg[3] == index and seg[2] + seg[3] == local:
            seg[3] += length
        else:
            self.segments.append([index, b, local, length])

    def text(self, text: str, base: int) -> None:
        for m in _RUNS.finditer(text):
            index = base + m.start()
            if index < 0:
                continue
            if m.group()[0] in XML_SPACE:
                if self.parts:
                    self.pending = index
                continue
            if self.pending is not None and self.parts and not self.parts[-1].endswith(" "):
                self.emit(" ", self.pending)
            self.pending = None
            self.emit(m.group(), index)


_RUNS = re.compile(f"[{XML_SPACE}]+|[^{XML_SPACE}]+")


def layout(article: Article) -> Layout:
    """Lay out ``article`` for reading; O(text length), once per article."""
    b = _Builder()
    level = 0
    for event, node, pos in walk(article.display_root):
        if event == "text":
            b.text(node, pos - article.drop)  # type: ignore[arg-type]
            continue
        tag = etree.QName(node).localname  # type: ignore[arg-type]
        kind = _kind(node)  # type: ignore[arg-type]
        if event == "start":
            if tag in SECTIONS:
                level += 1
            if kind is not None:
                b.close()
                b.stack.append((kind, level, tag))
            elif tag in SEPARATED and b.parts:
                b.pending = None
                sep = SEPARATED[tag]
                b.emit(sep.lstrip() if b.parts[-1].endswith(" ") else sep, None)
        else:
            if kind is not None:
                b.close()
                b.stack.pop()
            if tag in SECTIONS:
                level -= 1
    b.close()
    starts = []
    pos = 0
    for block in b.blocks:
        block.start = pos
        starts.append(pos)
        pos += _utf16_len(block.text) + 1
    seg = np.asarray(b.segments, dtype=np.int64).reshape(-1, 4)
    dst = np.asarray(starts, dtype=np.int64)[seg[:, 1]] + seg[:, 2] if len(seg) else np.zeros(0, np.int64)
    return Layout(b.blocks, seg[:, 0].copy(), dst, seg[:, 3].copy(), article)
