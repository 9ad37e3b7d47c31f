"""The article text model (docs/reference.md section 1): an article's text, offsets in a unit, elements.

An article's **text** is the concatenation of all its text nodes in document order (the header
too), whitespace-only nodes included, entities decoded, with the leading XML whitespace of the
whole text dropped. Offsets into it are counted in a **unit**: ``"bytes"`` (UTF-8 bytes, the
real INEX 2009/2010 qrels) or ``"chars"`` (Unicode code points, the older convention). An
:class:`Article` keeps one offset space, the unit's, and converts to Python string indices (and
so to any display) at the edges.

**Line ends and byte-order marks** follow XML, as lxml gives them: a UTF-8 BOM is not text, and
a CRLF (or a lone CR) in the file is one LF in the parsed text, so offsets follow the parsed
text (a CRLF counts 1 byte, not 2) and an article saved with CRLF has the same offsets as the
LF original.

Parsing (what is read, and within which budgets) is :mod:`readsim.core.safe_xml`'s; the text's
own budgets, :data:`MAX_ELEMENTS` and :data:`MAX_TEXT_CHARS`, are checked here.

**Cost.** Building an :class:`Article` costs the parse and one C-level pass for the text and
doc_length. The element index (spans, depths, parents) is built on first use of
:attr:`Article.elements`, :meth:`Article.span` or :meth:`Article.point`, in one pass linear in
the number of elements (depth from the parent, never a walk over ancestors); the first XPath
adds a table from ``(parent, name, position)`` to the child, one more pass. An XPath is then
resolved in O(depth) table look-ups, whatever the number of siblings (docs/reference.md section
1.3), so a run of ``n`` XPath lines into one article costs those passes plus ``n`` look-ups; an
XPointer's text nodes are listed once per element it names. An element's XPath is built on demand from the index
(O(depth)), never stored for every element.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from functools import cached_property
from pathlib import Path

import numpy as np
from lxml import etree

from .errors import InputError
from .safe_xml import MAX_ARTICLE_BYTES, dtd_paths, parse_xml
from .units import UNITS

XML_SPACE = " \t\r\n"

# -- the text's budgets (those of reading and parsing: readsim.core.safe_xml) ---------------

MAX_ELEMENTS = 1_000_000
"""Most elements in one article (counted right after parsing, in C): about 90 times the real
maximum, 5 times the 200,000-leaf hostile case."""

MAX_TEXT_CHARS = 16_000_000
"""Longest article text, in characters (Unicode code points), entities expanded: about 150
times the longest real text. libxml2 also refuses entity expansion beyond 5 times the input."""


def is_word_char(ch: str) -> bool:
    """A letter, a digit or an apostrophe: where the doc_length rule of docs/reference.md section 1.4 stops."""
    return ch.isalnum() or ch == "'"


def content_end(text: str) -> int:
    """String index where the article's counted text ends (docs/reference.md section 1.4, doc_length).

    Scan back from the end over characters that are not letters, digits or ``'``; stop just
    after the first such word character, or just before a no-break space (U+00A0) if one
    comes first. Returns 0 for a text without word characters.
    """
    i = len(text)
    while i > 0:
        ch = text[i - 1]
        if ch == "\u00a0":
            return i - 1
        if is_word_char(ch):
            return i
        i -= 1
    return 0


def utf8_lengths(text: str) -> np.ndarray:
    """UTF-8 byte length of each character of ``text``: an int64 array of ``len(text)``."""
    if not text:
        return np.zeros(0, dtype=np.int64)
    cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    return 1 + (cps >= 0x80).astype(np.int64) + (cps >= 0x800) + (cps >= 0x10000)


class Element:
    """One element of an article: its XPath, tag, depth and span ``[start, end)`` in the unit.

    Read-only. The elements of :attr:`Article.elements` build ``xpath`` on demand from the
    article's element index (O(depth) per call), so a deep article never holds every path.
    Equal elements have equal ``(xpath, tag, depth, start, end)``.
    """

    __slots__ = ("tag", "depth", "start", "end", "_xpath", "_index", "_number")

    def __init__(self, xpath: str | None, tag: str, depth: int, start: int, end: int):
        for slot, value in zip(self.__slots__, (tag, depth, start, end, xpath, None, -1)):
            object.__setattr__(self, slot, value)

    @classmethod
    def _indexed(cls, index: _ElementIndex, number: int, start: int, end: int) -> Element:
        el = cls(None, index.names[number], index.depth[number], start, end)
        object.__setattr__(el, "_index", index)
        object.__setattr__(el, "_number", number)
        return el

    def __setattr__(self, name, value):
        raise AttributeError(f"Element is read-only (cannot set {name!r})")

    @property
    def xpath(self) -> str:
        """Absolute XPath with positions, ``/article[1]/bdy[1]/p[3]``."""
        if self._xpath is not None:
            return self._xpath
        return self._index.xpath(self._number)

    @property
    def length(self) -> int:
        return self.end - self.start

    def _key(self) -> tuple:
        return (self.xpath, self.tag, self.depth, self.start, self.end)

    def __eq__(self, other) -> bool:
        return isinstance(other, Element) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Element(xpath={self.xpath!r}, tag={self.tag!r}, depth={self.depth}, start={self.start}, end={self.end})"


_STEP = re.compile(r"([^\[\]/]+)\[([1-9][0-9]*)\]")


class _ElementIndex:
    """The elements of an article in document order, built in one linear pass.

    Per element number ``i`` (0 = the root): the lxml node, its local name, its position among
    same-named siblings (XPath ``[k]``), its parent's number (-1 for the root), its depth, the
    number of elements in its subtree (itself included: its next sibling is ``i + size[i]``)
    and its span ``[sstart, send)`` in string indices of the article's text (after the leading
    whitespace is dropped, clamped at 0). Text positions follow ``itertext`` (the article's text).
    :attr:`child` (built on the first :meth:`find`) maps ``(parent, name, k)`` to the number of
    element ``parent``'s ``k``-th child named ``name`` (the root's parent is -1).
    """

    def __init__(self, root: etree._Element, drop: int):
        nodes: list = []
        names: list[str] = []
        position: list[int] = []
        parent: list[int] = []
        depth: list[int] = []
        size: list[int] = []
        sstart: list[int] = []
        send: list[int] = []
        stack: list[int] = []
        seen: list[dict[str, int]] = [{}]  # per open element (and the document): same-named children so far
        local: dict[str, str] = {}  # tag -> local name, shared strings
        pos = 0
        for event, node in etree.iterwalk(root, events=("start", "end", "comment", "pi")):
            tag = node.tag
            if event == "start":
                if isinstance(tag, str):
                    i = len(nodes)
                    name = local.get(tag)
                    if name is None:
                        name = local[tag] = tag.rpartition("}")[2]
                    counts = seen[-1]
                    k = counts[name] = counts.get(name, 0) + 1
                    nodes.append(node)
                    names.append(name)
                    position.append(k)
                    parent.append(stack[-1] if stack else -1)
                    depth.append(len(stack))
                    size.append(1)
                    sstart.append(pos)
                    send.append(pos)
                    stack.append(i)
                    seen.append({})
                text = node.text  # an entity reference (built by hand) counts as itertext gives it
                if text:
                    pos += len(text)
            elif event == "end":
                if isinstance(tag, str):
                    i = stack.pop()
                    seen.pop()
                    send[i] = pos
                    size[i] = len(nodes) - i
                    if not stack:
                        continue  # the root's tail is not the article's
                tail = node.tail
                if tail:
                    pos += len(tail)
            else:  # a comment or processing instruction: no text, its tail is
                tail = node.tail
                if tail:
                    pos += len(tail)
        self.nodes = nodes
        self.names = names
        self.position = position
        self.parent = parent
        self.depth = depth
        self.size = size
        self._texts: dict[int, list[tuple[str, int]]] = {}
        spans = np.array([sstart, send], dtype=np.int64).T.reshape(-1, 2) - drop
        self.spans = np.maximum(spans, 0)  # string indices, shape (n, 2)

    def __len__(self) -> int:
        return len(self.nodes)

    def xpath(self, i: int) -> str:
        """XPath of element ``i``, ``/article[1]/bdy[1]/p[3]`` (O(depth))."""
        steps = []
        while i >= 0:
            steps.append(f"{self.names[i]}[{self.position[i]}]")
            i = self.parent[i]
        return "/" + "/".join(reversed(steps))

    def children(self, i: int) -> Iterator[int]:
        """Numbers of the element children of ``i``, in document order."""
        j, stop = i + 1, i + self.size[i]
        while j < stop:
            yield j
            j += self.size[j]

    @cached_property
    def child(self) -> dict[tuple[int, str, int], int]:
        """``(parent, name, position)`` -> element number, for every element: one pass."""
        return {key: i for i, key in enumerate(zip(self.parent, self.names, self.position))}

    def find(self, xpath: str) -> int | None:
        """Number of the element at a normalized XPath (``/article[1]/p[3]``), or None.

        One look-up in :attr:`child` per step: O(depth), whatever the number of siblings."""
        i, child = -1, self.child
        steps = xpath.split("/")
        if steps[0] or len(steps) < 2:
            return None
        for step in steps[1:]:
            m = _STEP.fullmatch(step)
            if m is None:
                return None
            i = child.get((i, m.group(1), int(m.group(2))))
            if i is None:
                return None
        return i

    def text_nodes(self, i: int) -> list[tuple[str, int]]:
        """The non-empty text nodes of element ``i`` as XPath's ``text()`` numbers them (its own
        text, then the tails of its children), each with its start (a string index of the article's
        text, as :attr:`spans`). Listed once per element, then kept."""
        out = self._texts.get(i)
        if out is None:
            el = self.nodes[i]
            out = ([(el.text, int(self.spans[i, 0]))] if el.text else []) + [
                (self.nodes[j].tail, int(self.spans[j, 1])) for j in self.children(i) if self.nodes[j].tail]
            self._texts[i] = out
        return out


class Article:
    """One article of the collection: text, offsets in a unit, element spans.

    Build with :meth:`from_file` or :meth:`from_bytes`. Offsets (``length``, ``doc_length``,
    element spans, passages) are in :attr:`unit` (``"bytes"`` or ``"chars"``). The text and
    doc_length are computed at once (one pass in C); the element index on first use (see the
    module docstring, "Cost"). Raises :class:`InputError` naming the file for an article over
    :data:`MAX_ELEMENTS` elements or :data:`MAX_TEXT_CHARS` characters of text.
    """

    def __init__(self, name: str, root: etree._Element, unit: str = "bytes", path: str = ""):
        if unit not in UNITS:
            raise ValueError(f"unit must be one of {UNITS}, not {unit!r}")
        self.name = name
        self.path = path
        self.unit = unit
        self._root = root
        label = path or name
        count = int(root.xpath("count(descendant-or-self::*)"))
        if count > MAX_ELEMENTS:
            raise InputError(label, None, f"{count:,} elements, over the budget of {MAX_ELEMENTS:,} (readsim.core.text.MAX_ELEMENTS)")
        full = "".join(root.itertext())
        if len(full) > MAX_TEXT_CHARS:
            raise InputError(label, None, f"{len(full):,} characters of text, over the budget of {MAX_TEXT_CHARS:,} (readsim.core.text.MAX_TEXT_CHARS)")
        self.element_count: int = count
        drop = self.drop = len(full) - len(full.lstrip(XML_SPACE))
        self.text: str = full[drop:]
        text = self.text
        end = content_end(text)
        self._plain = unit != "bytes" or text.isascii()  # unit offsets equal string indices
        if self._plain:
            self.length: int = len(text)
            self.doc_length: int = end
        else:  # UTF-8 lengths without the offset table (built on first use, see _starts)
            self.length = len(text.encode("utf-8", "surrogatepass"))
            self.doc_length = self.length - len(text[end:].encode("utf-8", "surrogatepass"))

    @cached_property
    def _starts(self) -> np.ndarray | None:
        """Unit offset of every string index (``len(text) + 1``), or None when they are equal."""
        if self._plain:
            return None
        return np.concatenate([[0], np.cumsum(utf8_lengths(self.text))])

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_file(cls, path: str | os.PathLike, unit: str = "bytes", collection: str | os.PathLike | None = None,
                  dtds: Iterable[str] | None = None) -> Article:
        """Read an article file (a regular file within :data:`MAX_ARTICLE_BYTES`).

        ``collection``: the collection folder the file belongs to (default: the file's folder);
        a DOCTYPE loads only the ``article.dtd`` of :func:`dtd_paths`. Raises
        :class:`InputError` naming the file (and the line for bad XML): no such file, a
        folder, a FIFO or device, a broken link, not XML, over a budget. ``dtds``: the result of
        :func:`dtd_paths` for this file when the caller already has it (a collection computes it
        once per folder).
        """
        path = Path(path)
        if dtds is None:
            dtds = dtd_paths(path, collection)
        tree = parse_xml(path, dtds=dtds, max_bytes=MAX_ARTICLE_BYTES)
        return cls(path.stem, tree.getroot(), unit, str(path))

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "article", unit: str = "bytes") -> Article:
        """Parse an article from an XML document in memory (tests, samples); no DTD is read."""
        return cls(name, parse_xml(data, name, max_bytes=MAX_ARTICLE_BYTES).getroot(), unit, name)

    # -- the element index, on demand -----------------------------------------------------
    @cached_property
    def _index(self) -> _ElementIndex:
        return _ElementIndex(self._root, self.drop)

    @cached_property
    def _unit_spans(self) -> np.ndarray:
        spans = self._index.spans
        return self.from_index(spans) if len(spans) else spans

    @cached_property
    def elements(self) -> list[Element]:
        """Every element in document order (the root first), with its span in the unit."""
        index = self._index
        return [Element._indexed(index, i, s, e) for i, (s, e) in enumerate(self._unit_spans.tolist())]

    # -- facts --------------------------------------------------------------------------
    @cached_property
    def title(self) -> str:
        """The article's title (``header/title``), or its name when it has none."""
        node = self._root.find("header/title")
        if node is None:
            node = self._root.find(".//title")
        text = "".join(node.itertext()).strip() if node is not None else ""
        return text or self.name

    @property
    def root(self) -> etree._Element:
        """The parsed XML root (read-only use: layouts, outlines, simulated runs)."""
        return self._root

    @property
    def display_root(self) -> etree._Element:
        """The tree the layout reads (:mod:`readsim.core.layout`): the XML root; a document
        that is not XML has its own (:class:`readsim.core.documents.TextArticle`)."""
        return self._root

    def span(self, xpath: str) -> tuple[int, int]:
        """Span ``(start, end)`` in the unit of the element at ``xpath``.

        ``xpath`` is an absolute path with positions, ``/article[1]/bdy[1]/sec[2]/p[3]``;
        a step without a position means ``[1]``. Raises ``KeyError`` if there is no such element.
        """
        i = self._index.find(normalize_xpath(xpath))
        if i is None:
            raise KeyError(xpath)
        start, end = self._unit_spans[i].tolist()
        return start, end

    def point(self, xpointer: str) -> int:
        """Unit offset of an INEX XPointer (2007 passage runs).

        ``/article[1]/bdy[1]/p[3]/text()[2].15`` is 15 characters into the second text node
        of that element (its own text first, then the tails of its children, counting only
        non-empty ones, as XPath's ``text()`` does); ``/article[1]/bdy[1]/p[3]`` alone is the
        element's start and ``/article[1]/bdy[1]/p[3].15`` 15 characters past it. Character
        offsets are clamped to the text node. Raises ``KeyError`` for an element or text node
        the article does not have, ``ValueError`` for a malformed pointer.
        """
        m = _XPOINTER.fullmatch(xpointer.strip())
        if m is None:
            raise ValueError(f"malformed XPointer {xpointer!r}")
        index = self._index
        i = index.find(normalize_xpath(m.group(1)))
        if i is None:
            raise KeyError(m.group(1))
        start = int(index.spans[i, 0])
        chars = int(m.group(3) or 0)
        if m.group(2) is None:
            return self.from_index(start + chars)
        nodes = index.text_nodes(i)
        k = int(m.group(2))
        if not 1 <= k <= len(nodes):
            raise KeyError(f"{m.group(1)}/text()[{k}]")
        text, at = nodes[k - 1]
        return self.from_index(at + min(chars, len(text)))

    # -- conversions --------------------------------------------------------------------
    def from_index(self, index):
        """Unit offset of string index ``index`` (int or int array)."""
        if self._starts is None:
            return index
        if isinstance(index, np.ndarray):
            return self._starts[np.clip(index, 0, len(self.text))]
        return int(self._starts[min(max(index, 0), len(self.text))])

    def to_index(self, offset, side: str = "start"):
        """String index of unit ``offset`` (int or int array), clamped to the text.

        An offset inside a multi-byte character maps to that character's start for
        ``side="start"`` and past its end for ``side="end"``, so a span always keeps the
        characters it touches.
        """
        n = len(self.text)
        if self._starts is None:
            return np.clip(offset, 0, n) if isinstance(offset, np.ndarray) else min(max(offset, 0), n)
        how = "right" if side == "start" else "left"
        idx = np.searchsorted(self._starts, offset, side=how)
        idx = idx - 1 if side == "start" else idx
        idx = np.clip(idx, 0, n)
        return idx if isinstance(offset, np.ndarray) else int(idx)

    def substring(self, start: int, end: int) -> str:
        """The text of the unit span ``[start, end)``."""
        return self.text[self.to_index(start, "start") : self.to_index(end, "end")]


def walk(root: etree._Element) -> Iterator[tuple[str, object, int]]:
    """The text nodes and element boundaries of ``root`` in document order, without recursion.

    Yields ``("start", element, pos)``, ``("text", string, pos)`` and ``("end", element, pos)``,
    where ``pos`` is the string index in the concatenated text (before the leading whitespace
    is dropped) at which the event happens. Comments and processing instructions contribute no
    text; their tails do.
    """
    pos = 0
    stack: list[tuple[str, object]] = [("node", root)]
    while stack:
        what, node = stack.pop()
        if what == "end":
            yield "end", node, pos
        elif what == "text":
            yield "text", node, pos
            pos += len(node)  # type: ignore[arg-type]
        elif isinstance(node.tag, str):  # type: ignore[union-attr]
            yield "start", node, pos
            if node.text:  # type: ignore[union-attr]
                yield "text", node.text, pos  # type: ignore[union-attr]
                pos += len(node.text)  # type: ignore[union-attr]
            stack.append(("end", node))
            for child in reversed(node):  # type: ignore[call-overload]
                if child.tail:
                    stack.append(("text", child.tail))
                stack.append(("node", child))


_XPOINTER = re.compile(r"(/[^.]*?)(?:/text\(\)\[(\d+)\])?(?:\.(\d+))?")


def normalize_xpath(xpath: str) -> str:
    """``/article/bdy[1]/p[3]/`` -> ``/article[1]/bdy[1]/p[3]`` (positions made explicit)."""
    steps = [s for s in xpath.strip().split("/") if s]
    out = []
    for step in steps:
        out.append(step if step.endswith("]") else f"{step}[1]")
    return "/" + "/".join(out)
