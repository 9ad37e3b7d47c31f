"""Documents that are not INEX XML (reference section 2.13): plain text, Markdown, HTML, and
the documents of a JSON Lines file (:mod:`readsim.core.jsonl_documents`), as
:class:`~readsim.core.text.Article` objects.

A :class:`TextArticle` is an article whose **text is given**, not taken from XML: offsets count
into it exactly (nothing dropped, no line end changed), its doc_length is its length (no
trailing-punctuation rule, reference 1.4), and its elements are the root (``/article[1]``, the
whole text) and, for HTML, its headings (``/article[1]/h2[3]``). The window lays it out from a
separate display tree (:attr:`TextArticle.display_root`): paragraphs from blank lines for plain
text, the HTML's blocks and headings for HTML. Both trees hold the text with the characters XML
cannot hold replaced, one for one, by U+FFFD, so their positions are the text's.

- ``NAME.txt``, ``NAME.md``: UTF-8 (a leading byte-order mark is not text), the file's text as
  decoded; a file that is not UTF-8 is an :class:`InputError` naming the file and line.
- ``NAME.html``, ``NAME.htm``: UTF-8 decoded as above, parsed by ``lxml.html``; the text is the
  body's text nodes in document order as the parser gives them (whitespace kept, entities
  decoded, CR LF and CR made LF), the content of ``script``, ``style`` and ``template`` left out
  (the text after them kept); a block element adds no character. See :func:`html_parts`.
"""

from __future__ import annotations

import os
import re
from functools import cached_property
from pathlib import Path

from lxml import etree

from .archives import HTML_SUFFIXES, document_name
from .errors import InputError
from .safe_xml import MAX_ARTICLE_BYTES
from .text import MAX_TEXT_CHARS, Article, _ElementIndex
from .units import UNITS

#: HTML elements whose content is not text (their tail is)
SKIPPED = frozenset({"script", "style", "template"})
HEADINGS = {f"h{k}": k for k in range(1, 7)}
#: HTML elements that start and end a display block (no character of the text)
BLOCKS = frozenset({
    "address", "article", "aside", "blockquote", "body", "br", "caption", "dd", "details", "dialog", "div", "dl",
    "dt", "fieldset", "figcaption", "figure", "footer", "form", "header", "hgroup", "hr", "li", "main", "nav",
    "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", *HEADINGS})
ITEMS = frozenset({"li", "dt", "dd"})

_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_BLANK_LINES = re.compile(r"\n[ \t\f\v\r]*\n\s*")


def decode_utf8(data: bytes, label: str) -> str:
    """``data`` as UTF-8 text (a leading byte-order mark dropped). Raises :class:`InputError`
    naming ``label`` and the line of the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise InputError(label, line, f"not UTF-8 text (byte {err.start:,}: {err.reason}); "
                                      "save it as UTF-8") from None


class TextArticle(Article):
    """An article whose text is given (plain text, HTML, a JSON Lines document).

    ``blocks``: ``(start, end, kind, level)`` in string indices, in order, covering the text
    without overlap (``kind`` ``paragraph``, ``item`` or ``heading``; ``level`` a heading's, 1-6);
    None: paragraphs from blank lines. ``headings``: ``(start, end, tag)`` of the elements besides
    the root. ``kind``: ``text``, ``html`` or ``jsonl`` (what :meth:`Collection.article` read)."""

    def __init__(self, name: str, text: str, unit: str = "bytes", path: str = "", *, title: str | None = None,
                 blocks: list[tuple[int, int, str, int]] | None = None,
                 headings: list[tuple[int, int, str]] = (), kind: str = "text"):
        if unit not in UNITS:
            raise ValueError(f"unit must be one of {UNITS}, not {unit!r}")
        if len(text) > MAX_TEXT_CHARS:
            raise InputError(path or name, None, f"{len(text):,} characters of text, over the budget of "
                                                 f"{MAX_TEXT_CHARS:,} (readsim.core.text.MAX_TEXT_CHARS)")
        self.name, self.path, self.unit, self.kind = name, path, unit, kind
        self.text = text
        self.drop = 0
        self._title = (title or "").strip()
        self._blocks = paragraphs(text) if blocks is None else blocks
        self._headings = list(headings)
        self.element_count = 1 + len(self._headings)
        self._plain = unit != "bytes" or text.isascii()
        self.length = len(text) if self._plain else len(text.encode("utf-8", "surrogatepass"))
        self.doc_length = self.length

    @cached_property
    def _root(self) -> etree._Element:
        """The element tree: ``article`` holding the text, a child per heading."""
        safe = _NOT_XML.sub("\ufffd", self.text)
        root = etree.Element("article")
        last, pos = root, 0
        for start, end, tag in self._headings:
            _append(last, safe[pos:start], last is root)
            last = etree.SubElement(root, tag)
            last.text = safe[start:end]
            pos = end
        _append(last, safe[pos:], last is root)
        return root

    @cached_property
    def _index(self) -> _ElementIndex:
        return _ElementIndex(self._root, 0)

    @cached_property
    def display_root(self) -> etree._Element:
        """The tree :func:`readsim.core.layout.layout` reads: ``p``, ``li``, and for a heading of
        level k an ``st`` inside k ``sec`` elements (its level in the layout)."""
        safe = _NOT_XML.sub("\ufffd", self.text)
        root = etree.Element("article")
        for start, end, kind, level in self._blocks:
            if kind == "heading":
                parent = root
                for _ in range(max(level, 1)):
                    parent = etree.SubElement(parent, "sec")
                etree.SubElement(parent, "st").text = safe[start:end]
            else:
                etree.SubElement(root, "li" if kind == "item" else "p").text = safe[start:end]
        return root

    @property
    def title(self) -> str:  # type: ignore[override]
        """The document's title (JSON Lines ``title``, HTML ``<title>``), or its name."""
        return self._title or self.name


def _append(node: etree._Element, text: str, as_text: bool) -> None:
    if text:
        if as_text:
            node.text = (node.text or "") + text
        else:
            node.tail = (node.tail or "") + text


def paragraphs(text: str) -> list[tuple[int, int, str, int]]:
    """Display blocks of plain text: paragraphs separated by blank lines (a line of only spaces
    and tabs is blank); each separator run belongs to the paragraph before it."""
    out, start = [], 0
    for m in _BLANK_LINES.finditer(text):
        if m.start() > start:
            out.append((start, m.end(), "paragraph", 0))
            start = m.end()
    if start < len(text) or not out:
        out.append((start, len(text), "paragraph", 0))
    return out


def read_bytes(path: Path, max_bytes: int = MAX_ARTICLE_BYTES) -> bytes:
    """The bytes of a regular file, within ``max_bytes``. Raises :class:`InputError` naming it."""
    try:
        with open(path, "rb") as fh:
            if not os.path.isfile(path):
                raise InputError(path, None, "not a regular file")
            data = fh.read(max_bytes + 1)
    except OSError as err:
        raise InputError(path, None, f"cannot read: {err.strerror or err}") from None
    if len(data) > max_bytes:
        raise InputError(path, None, f"over the budget of {max_bytes:,} bytes (readsim.core.safe_xml.MAX_ARTICLE_BYTES)")
    return data


def from_bytes(data: bytes, name: str, unit: str, label: str, file_name: str) -> TextArticle:
    """The document ``name`` from the bytes of a ``.txt``, ``.md``, ``.html`` or ``.htm`` file
    (by ``file_name``'s suffix); ``label`` names it in errors."""
    text = decode_utf8(data, label)
    if file_name.lower().endswith(HTML_SUFFIXES):
        return html_article(text, name, unit, label)
    return TextArticle(name, text, unit, label)


def from_file(path: str | os.PathLike, unit: str = "bytes") -> TextArticle:
    """The document of a ``.txt``, ``.md``, ``.html`` or ``.htm`` file (a regular file within
    :data:`MAX_ARTICLE_BYTES`)."""
    path = Path(path)
    return from_bytes(read_bytes(path), document_name(path.name) or path.stem, unit, str(path), path.name)


# -- HTML -------------------------------------------------------------------------------------

def html_parts(text: str, label: str = "") -> tuple[str, str, list, list]:
    """``(text, title, blocks, headings)`` of an HTML document (module docstring; reference 2.13):
    the body's text nodes in document order, without the content of :data:`SKIPPED` elements,
    comments and processing instructions; a display block begins and ends at each :data:`BLOCKS`
    element; a heading (``h1``-``h6``, not inside another) is an element of its text's span."""
    import lxml.html

    try:
        doc = lxml.html.document_fromstring(text) if text.strip() else None
    except (etree.ParserError, ValueError) as err:
        raise InputError(label, None, f"not readable HTML: {err}") from None
    if doc is None:
        return "", "", [], []
    title = doc.findtext(".//title") or ""
    body = doc.find("body")
    if body is None:
        return "", title, [], []
    parts: list[str] = []
    pos = 0
    blocks: list[tuple[int, int, str, int]] = []
    headings: list[tuple[int, int, str]] = []
    open_blocks: list[tuple[str, int]] = []  # (kind, level) of the open block elements
    run = [0]  # start of the current display block
    skip = 0  # depth inside a skipped element
    heading: list = []  # [tag, start] of the open heading

    def cut() -> None:
        if pos > run[0]:
            kind, level = open_blocks[-1] if open_blocks else ("paragraph", 0)
            blocks.append((run[0], pos, kind, level))
        run[0] = pos

    for event, node in etree.iterwalk(body, events=("start", "end", "comment", "pi")):
        tag = node.tag if isinstance(node.tag, str) else None
        if event == "start" and tag is not None:
            if skip or tag in SKIPPED:
                skip += 1
                continue
            if tag in BLOCKS:
                cut()
                if tag in HEADINGS:
                    open_blocks.append(("heading", HEADINGS[tag]))
                    if not heading:
                        heading = [tag, pos]
                elif tag != "br":  # inside a heading, a block is the heading's
                    inside = open_blocks[-1] if open_blocks and open_blocks[-1][0] == "heading" else None
                    open_blocks.append(inside or ("item" if tag in ITEMS else "paragraph", 0))
            if node.text:
                parts.append(node.text)
                pos += len(node.text)
            continue
        if event == "end" and tag is not None:
            if skip:
                skip -= 1
                if skip:
                    continue
            elif tag in BLOCKS:
                cut()
                if tag != "br":
                    open_blocks.pop()
                if heading and heading[0] == tag and not any(k == "heading" for k, _ in open_blocks):
                    if pos > heading[1]:
                        headings.append((heading[1], pos, tag))
                    heading = []
        if node is body or skip:
            continue
        if node.tail:  # a skipped element's, a comment's or a processing instruction's tail is text
            parts.append(node.tail)
            pos += len(node.tail)
    cut()
    return "".join(parts), " ".join(title.split()), blocks, headings


def html_article(text: str, name: str, unit: str = "bytes", label: str = "", kind: str = "html") -> TextArticle:
    """The article of an HTML document's text (:func:`html_parts`)."""
    body, title, blocks, headings = html_parts(text, label or name)
    return TextArticle(name, body, unit, label, title=title, blocks=blocks or None, headings=headings, kind=kind)
