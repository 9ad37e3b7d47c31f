"""The article text model (SPEC section 2).

An article's **text** is the concatenation of all its text nodes in document order (the header
too), whitespace-only nodes included, entities decoded, with the leading XML whitespace of the
whole text dropped. Offsets into it are counted in a **unit**: ``"bytes"`` (UTF-8 bytes, the
real INEX 2009/2010 qrels) or ``"chars"`` (Unicode code points, the older convention). An
:class:`Article` keeps one offset space, the unit's, and converts to Python string indices (and
so to any display) at the edges.

XML is parsed with lxml without network access or external entities. The collection's DTD
(``../article.dtd`` next to the articles) supplies the XHTML entity sets; when it is missing,
the HTML entity table of :mod:`html.entities` stands in for it, so ``&nbsp;`` still decodes.
"""

from __future__ import annotations

import html.entities
import os
import re
from dataclasses import dataclass
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path

import numpy as np
from lxml import etree

from .errors import InputError

UNITS = ("bytes", "chars")
XML_SPACE = " \t\r\n"

_FALLBACK_DTD = "".join(
    f'<!ENTITY {name} "&#{code};">\n'
    for name, code in sorted(html.entities.name2codepoint.items())
    if name not in ("amp", "lt", "gt", "quot", "apos")
)


class _LocalDTDResolver(etree.Resolver):
    """Serve a missing local DTD from the HTML entity table; never touch the network."""

    def resolve(self, url, pubid, context):  # noqa: D102 (lxml API)
        if url and "://" not in url and os.path.exists(url):
            return None  # lxml reads the local file itself
        return self.resolve_string(_FALLBACK_DTD, context)


def xml_parser() -> etree.XMLParser:
    """A new safe parser: no network, internal entities only, DTD entity sets available."""
    parser = etree.XMLParser(
        no_network=True, resolve_entities="internal", load_dtd=True, huge_tree=True
    )
    parser.resolvers.add(_LocalDTDResolver())
    return parser


def parse_xml(source: str | os.PathLike | bytes, name: str | None = None) -> etree._ElementTree:
    """Parse an XML file (path) or document (bytes) safely.

    Raises :class:`InputError` naming the file and line on malformed XML or a missing file.
    """
    label = name or (str(source) if not isinstance(source, bytes) else "<bytes>")
    try:
        if isinstance(source, bytes):
            return etree.ElementTree(etree.fromstring(source, xml_parser()))
        return etree.parse(os.fspath(source), xml_parser())
    except etree.XMLSyntaxError as err:
        line = err.lineno if getattr(err, "lineno", None) else None
        raise InputError(label, line, f"not well-formed XML: {err.msg}") from None
    except OSError as err:
        raise InputError(label, None, f"cannot read: {err.strerror or err}") from None


def is_word_char(ch: str) -> bool:
    """A letter, a digit or an apostrophe: where SPEC's doc_length rule stops."""
    return ch.isalnum() or ch == "'"


def content_end(text: str) -> int:
    """String index where the article's counted text ends (SPEC section 2, doc_length).

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


@dataclass(frozen=True)
class Element:
    """One element of an article: its XPath, tag, depth and span ``[start, end)`` in the unit."""

    xpath: str
    tag: str
    depth: int
    start: int
    end: int

    @property
    def length(self) -> int:
        return self.end - self.start


class Article:
    """One article of the collection: text, offsets in a unit, element spans.

    Build with :meth:`from_file` or :meth:`from_bytes`. Offsets (``length``, ``doc_length``,
    element spans, passages) are in :attr:`unit` (``"bytes"`` or ``"chars"``).
    """

    def __init__(self, name: str, root: etree._Element, unit: str = "bytes", path: str = ""):
        if unit not in UNITS:
            raise ValueError(f"unit must be one of {UNITS}, not {unit!r}")
        self.name = name
        self.path = path
        self.unit = unit
        self._root = root
        parts: list[str] = []
        marks: list[list] = []  # [element, str start, str end] in document order
        open_marks: dict[etree._Element, list] = {}
        for event, node, pos in walk(root):
            if event == "text":
                parts.append(node)
            elif event == "start":
                open_marks[node] = mark = [node, pos, pos]
                marks.append(mark)
            else:
                open_marks.pop(node)[2] = pos
        full = "".join(parts)
        drop = self.drop = len(full) - len(full.lstrip(XML_SPACE))
        self.text: str = full[drop:]
        n = len(self.text)
        if unit == "bytes" and not self.text.isascii():
            self._starts = np.concatenate([[0], np.cumsum(utf8_lengths(self.text))])
        else:
            self._starts = None  # unit offsets equal string indices
        self.length: int = self.from_index(n)
        self.doc_length: int = self.from_index(content_end(self.text))
        str_spans = np.array([(max(s - drop, 0), max(e - drop, 0)) for _, s, e in marks], dtype=np.int64).reshape(-1, 2)
        unit_spans = self.from_index(str_spans) if len(marks) else str_spans
        self.elements: list[Element] = []
        self._by_xpath: dict[str, Element] = {}
        self._nodes: dict[str, tuple[etree._Element, int, int]] = {}  # xpath -> element, str span
        for (el, _, _), (start, end), xp, (s, e) in zip(marks, unit_spans.tolist(), self._xpaths(marks), str_spans.tolist()):
            element = Element(xp, etree.QName(el).localname, self._depth(el), start, end)
            self.elements.append(element)
            self._by_xpath[xp] = element
            self._nodes[xp] = (el, s, e)

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_file(cls, path: str | os.PathLike, unit: str = "bytes") -> Article:
        """Read an article file. Raises :class:`InputError` (file and line) on bad XML."""
        path = Path(path)
        tree = parse_xml(path)
        return cls(path.stem, tree.getroot(), unit, str(path))

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "article", unit: str = "bytes") -> Article:
        """Parse an article from an XML document in memory (tests, samples)."""
        return cls(name, parse_xml(data, name).getroot(), unit, name)

    @staticmethod
    def _xpaths(marks) -> list[str]:
        """Absolute XPaths with positions, ``/article[1]/bdy[1]/p[3]``, in document order."""
        paths: dict[etree._Element, str] = {}
        seen: dict[tuple[etree._Element, str], int] = {}
        out = []
        for el, _, _ in marks:
            parent = el.getparent()
            name = etree.QName(el).localname
            index = seen[(parent, name)] = seen.get((parent, name), 0) + 1
            xp = f"{paths[parent] if parent is not None else ''}/{name}[{index}]"
            paths[el] = xp
            out.append(xp)
        return out

    @staticmethod
    def _depth(el) -> int:
        return sum(1 for _ in el.iterancestors())

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

    def span(self, xpath: str) -> tuple[int, int]:
        """Span ``(start, end)`` in the unit of the element at ``xpath``.

        ``xpath`` is an absolute path with positions, ``/article[1]/bdy[1]/sec[2]/p[3]``;
        a step without a position means ``[1]``. Raises ``KeyError`` if there is no such element.
        """
        e = self._by_xpath.get(normalize_xpath(xpath))
        if e is None:
            raise KeyError(xpath)
        return e.start, e.end

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
        found = self._nodes.get(normalize_xpath(m.group(1)))
        if found is None:
            raise KeyError(m.group(1))
        el, start, _ = found
        chars = int(m.group(3) or 0)
        if m.group(2) is None:
            return self.from_index(start + chars)
        nodes = ([(el.text, start)] if el.text else []) + [
            (child.tail, self._nodes[self._xpath_of(child)][2]) for child in el if child.tail and isinstance(child.tag, str)
        ]
        k = int(m.group(2))
        if not 1 <= k <= len(nodes):
            raise KeyError(f"{m.group(1)}/text()[{k}]")
        text, at = nodes[k - 1]
        return self.from_index(at + min(chars, len(text)))

    def _xpath_of(self, el: etree._Element) -> str:
        if not hasattr(self, "_xpath_by_node"):
            self._xpath_by_node = {node: xp for xp, (node, _, _) in self._nodes.items()}
        return self._xpath_by_node[el]

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
