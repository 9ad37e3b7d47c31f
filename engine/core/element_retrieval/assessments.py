"""Element assessments: exhaustiveness e and specificity s (0..3) of an article's elements.

Two sources ([Gövert 2006] section 3; ``docs/reference.md`` sections 13.1 and 13.2):

**Read** from an INEX 2006-2007 style assessments XML (:func:`read_assessments`)::

    <assessments topic="2009067" unit="bytes">
      <file name="12401">
        <passage start="/article[1]/bdy[1]/sec[2]/p[3]/text()[1].12" end="..." size="628"/>
        <best-entry-point path="/article[1]/bdy[1]/sec[2]/p[3]/text()[1].12"/>
        <element path="/article[1]/bdy[1]/sec[2]/p[3]" exhaustivity="3" specificity="3"
                 size="700" rsize="628"/>
      </file>
    </assessments>

Several topics: a root of any name (readsim writes ``<inex-assessments>``) holding one
``<assessments topic>`` per topic. ``unit`` (``bytes`` or ``chars``; on ``<assessments>`` or the
root; default bytes) says what ``size`` and ``rsize`` count and must be the collection's unit.
``exhaustivity`` is 0..3 (INEX 2006's ``?``, "too small", is read as 0 with a warning);
``specificity`` is optional: without it s is graded from ``rsize/size`` with the specificity
cut points (INEX 2006 derived specificity from that ratio too). Passage ``start``/``end`` and the
best entry point are XPointers (``.../text()[k].c``, :meth:`readsim.core.text.Article.point`) or plain
offsets in the unit. Elements the file does not list are (0, 0) with rsize 0. A
``<file name elements="unknown"/>`` names a relevant article whose elements are not known (readsim
writes one for each relevant article the collection lacked): its topic is incomplete, as is a
topic with a file the collection lacks. An element's
``start``/``end`` come from the collection (the file's ``size`` is checked against them: a
difference is a warning naming both numbers).

**Derived** from FOL highlighting and the collection (:func:`derive_assessments`,
:func:`element_assessments`): a teaching and testing device, *not* INEX's assessments. For
each element of a relevant article, ``size`` = its span's length and ``rsize`` = the highlighted
text inside it (both in the unit: UTF-8 bytes by default, characters with ``unit="chars"``;
passages clipped to the article's text). Then

- ``s`` grades ``rsize / size`` (how much of the element is relevant),
- ``e`` grades ``rsize / R`` with R the article's highlighted total (the element's share of the
  article's relevant text),

each 0 when ``rsize`` is 0, else 1 if the ratio is at most the first cut point (1/3 by default),
2 if at most the second (2/3), 3 above (:class:`Cuts`). So e = 0 exactly when s = 0, and the
article's root always has e = 3. Ratios are compared as floats of integer quotients below 2^40,
which decide ``<=`` against a cut exactly as fractions would.

Rows (:meth:`TopicAssessments.rows`) list the **assessed elements**: derived, every element with
highlighted text (rsize > 0); read, every ``<element>`` of the file. Every other element is
(0, 0). Articles are in the qrels' (or file's) order, elements in document order.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from lxml import etree

from .. import intervals as iv
from ..collection import Collection
from ..errors import Diagnostic, InputError
from ..formats import Qrels
from ..formats.lines import MAX_OFFSET
from ..safe_xml import parse_xml
from ..text import Article
from .tree import ElementTree, element_tree

GRADES = (0, 1, 2, 3)


# -- cut points -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cuts:
    """Cut points of the derivation: ``e`` from ``exh`` (a, b), ``s`` from ``spec`` (a, b), each
    with 0 < a < b < 1. A ratio r > 0 grades 1 if r <= a, 2 if r <= b, 3 above."""

    exh: tuple[Fraction, Fraction] = (Fraction(1, 3), Fraction(2, 3))
    spec: tuple[Fraction, Fraction] = (Fraction(1, 3), Fraction(2, 3))

    @staticmethod
    def text(pair: tuple[Fraction, Fraction]) -> str:
        """``"1/3,2/3"``: the canonical text of a pair (parses back with :func:`parse_cuts`)."""
        return ",".join(str(x) for x in pair)


def parse_cuts(text: str, name: str = "cuts") -> tuple[Fraction, Fraction]:
    """``"1/3,2/3"`` or ``"0.3,0.6"`` -> two fractions 0 < a < b < 1. Raises ``ValueError``
    naming ``name`` otherwise."""
    parts = [p.strip() for p in str(text).split(",")]
    rule = f"{name} must be two numbers a,b with 0 < a < b < 1 (fractions such as 1/3 or decimals)"
    if len(parts) != 2:
        raise ValueError(f"{rule}, not {text!r}")
    try:
        a, b = (Fraction(p) for p in parts)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{rule}, not {text!r}") from None
    if not 0 < a < b < 1:
        raise ValueError(f"{rule}, not {text!r}")
    return a, b


def grade(numerator, denominator, cuts: tuple[Fraction, Fraction]) -> np.ndarray:
    """0..3 of ``numerator / denominator`` (int arrays): 0 for a numerator of 0 (or a
    denominator of 0), then 1, 2, 3 by the cut points ``(a, b)``."""
    num = np.asarray(numerator, dtype=np.int64)
    den = np.broadcast_to(np.asarray(denominator, dtype=np.int64), num.shape)
    ratio = np.divide(num, den, out=np.zeros(num.shape, dtype=float), where=den > 0)
    a, b = float(cuts[0]), float(cuts[1])
    out = np.where(ratio <= a, 1, np.where(ratio <= b, 2, 3)).astype(np.int8)
    out[(num <= 0) | (den <= 0)] = 0
    return out


# -- the assessments --------------------------------------------------------------------------


@dataclass(frozen=True)
class AssessedElement:
    """One row: an assessed element. ``size`` and ``rsize`` in the unit (bytes or characters);
    ``index`` its number in the article (document order, :attr:`Article.elements`)."""

    topic: str
    article: str
    xpath: str
    start: int
    end: int
    size: int
    rsize: int
    e: int
    s: int
    index: int


@dataclass(eq=False)
class ArticleAssessment:
    """One article's assessments for one topic, aligned with its :class:`ElementTree`.

    ``rsize``, ``e``, ``s`` are arrays over *every* element (0 where not assessed); ``listed``
    the numbers of the assessed elements (document order); ``passages`` the highlighted
    passages (normalized ``(k, 2)``, the unit); ``bep`` the best entry point (unit offset) or
    None; ``sizes`` the element sizes used for ``s`` (the tree's, or the file's ``size``)."""

    article: str
    tree: ElementTree
    rsize: np.ndarray
    e: np.ndarray
    s: np.ndarray
    listed: np.ndarray
    passages: np.ndarray
    bep: int | None = None

    @property
    def size(self) -> np.ndarray:
        return self.tree.sizes

    @property
    def relevant_size(self) -> int:
        """R: the article's highlighted total (0 for an article known only from a file)."""
        return iv.total(self.passages)

    def values(self, index: int) -> tuple[int, int]:
        """``(e, s)`` of element ``index``."""
        return int(self.e[index]), int(self.s[index])


@dataclass(eq=False)
class TopicAssessments:
    """The element assessments of one topic: ``articles`` (name -> :class:`ArticleAssessment`,
    in qrels or file order) and ``missing`` (relevant articles the collection lacks: their
    elements are unknown, so the topic is incomplete)."""

    topic: str
    articles: dict[str, ArticleAssessment] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.missing

    def get(self, article: str) -> ArticleAssessment | None:
        return self.articles.get(article)

    def values(self, article: str, index: int) -> tuple[int, int]:
        """``(e, s)`` of element ``index`` of ``article``; (0, 0) for an article not assessed."""
        a = self.articles.get(article)
        return (0, 0) if a is None else a.values(index)

    def rows(self) -> Iterator[AssessedElement]:
        for name, a in self.articles.items():
            t = a.tree
            for i in a.listed.tolist():
                yield AssessedElement(self.topic, name, t.xpath(i), int(t.starts[i]), int(t.ends[i]),
                                      int(t.ends[i] - t.starts[i]), int(a.rsize[i]), int(a.e[i]), int(a.s[i]), i)


@dataclass(eq=False)
class ElementAssessments:
    """Element assessments of several topics (``topics``, in qrels or file order), their unit,
    where they come from (``source``: ``"derived"`` or the file read), the cut points used, and
    warnings about the input."""

    unit: str
    source: str
    cuts: Cuts = field(default_factory=Cuts)
    topics: dict[str, TopicAssessments] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def derived(self) -> bool:
        return self.source == "derived"

    def rows(self) -> Iterator[AssessedElement]:
        for t in self.topics.values():
            yield from t.rows()

    def complete_topics(self) -> list[str]:
        return [t for t, a in self.topics.items() if a.complete and a.articles]


# -- deriving from the qrels ------------------------------------------------------------------


def derive_article(article: Article, passages: np.ndarray, cuts: Cuts = Cuts()) -> ArticleAssessment:
    """The derived assessment of one article whose highlighted passages are ``passages``
    (``(k, 2)`` in the article's unit); see the module docstring."""
    tree = element_tree(article)
    hl = iv.clip(iv.normalize(passages), 0, article.length)
    rsize = iv.covered(hl, tree.starts, tree.ends)
    total = iv.total(hl)
    e = grade(rsize, total, cuts.exh)
    s = grade(rsize, tree.sizes, cuts.spec)
    return ArticleAssessment(article.name, tree, rsize, e, s, np.flatnonzero(rsize > 0), hl)


def complete_topics(qrels: Qrels, collection: Collection, topics: Iterable[str] | None = None) -> list[str]:
    """The topics (qrels order) with at least one relevant article, all of them in ``collection``
    (no article is parsed)."""
    have = collection.listing()
    out = []
    for t in (qrels.topics if topics is None else topics):
        rel = qrels.relevant_articles(t)
        if rel and all(a in have for a in rel):
            out.append(t)
    return out


def element_assessments(qrels: Qrels, collection: Collection, topic: str, cuts: Cuts = Cuts()) -> TopicAssessments:
    """The derived assessments of ``topic`` (its relevant articles the collection has; the others
    in ``missing``). Raises :class:`InputError` for an unreadable article."""
    have = collection.listing()
    out = TopicAssessments(topic)
    for name, j in qrels.topics.get(topic, {}).items():
        if not j.relevant:
            continue
        if name not in have:
            out.missing.append(name)
            continue
        a = derive_article(collection.article(name), j.passages, cuts)
        a.bep = j.bep
        out.articles[name] = a
    return out


def derive_assessments(qrels: Qrels, collection: Collection, topics: Iterable[str] | None = None,
                       cuts: Cuts = Cuts()) -> ElementAssessments:
    """Derived assessments of ``topics`` (default: every topic of the qrels), in the collection's
    unit (which must be the qrels'). One warning sums up the relevant articles the collection
    lacks and names the complete topics."""
    out = ElementAssessments(collection.unit, "derived", cuts)
    for t in (list(qrels.topics) if topics is None else list(topics)):
        out.topics[t] = element_assessments(qrels, collection, t, cuts)
    missing = [(t, a) for t, ta in out.topics.items() for a in ta.missing]
    if missing:
        short = sorted({t for t, _ in missing})
        done = out.complete_topics()
        out.diagnostics.append(Diagnostic(qrels.path, None, (
            f"{len(missing)} relevant articles of {len(short)} topics are not in the collection {collection.root} "
            f"(first: topic {missing[0][0]} article {missing[0][1]}); their elements are not assessed. "
            f"Complete topics: {', '.join(done) if done else 'none'}")))
    return out


# -- XPointers of offsets (writing passages) --------------------------------------------------


def _text_nodes(article: Article) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every non-empty text node of the article in document order: start (string index, after
    the leading whitespace is dropped), length, owner element number and ``k`` (its place among
    the owner's non-empty text nodes: the owner's own text, then the tails of its children),
    counted as :meth:`Article.point` counts them."""
    starts, lengths, owners, ks = [], [], [], []
    count: list[int] = []  # per element number: non-empty text nodes so far
    stack: list[int] = []
    pos = -article.drop
    for event, node in etree.iterwalk(article.root, events=("start", "end", "comment", "pi")):
        if event == "start":
            if isinstance(node.tag, str):
                i = len(count)
                count.append(0)
                stack.append(i)
                if node.text:
                    count[i] += 1
                    starts.append(pos), lengths.append(len(node.text)), owners.append(i), ks.append(count[i])
                    pos += len(node.text)
            continue
        if event == "end" and isinstance(node.tag, str):
            stack.pop()
            if not stack:
                continue
        tail = node.tail
        if tail:
            owner = stack[-1]
            count[owner] += 1
            starts.append(pos), lengths.append(len(tail)), owners.append(owner), ks.append(count[owner])
            pos += len(tail)
    return (np.asarray(starts, np.int64), np.asarray(lengths, np.int64), np.asarray(owners, np.int64),
            np.asarray(ks, np.int64))


def xpointer(article: Article, offset: int, side: str = "start") -> str:
    """An INEX XPointer (``/article[1]/bdy[1]/p[3]/text()[2].15``) for the unit ``offset``,
    such that ``article.point(pointer) == offset``; ``side="end"`` prefers the text node that
    ends at ``offset`` (a passage's end). Falls back to the plain offset (``"1234"``, which
    :func:`read_assessments` also reads) where no text node gives it back exactly (an offset
    inside a multi-byte character, or in the dropped leading whitespace)."""
    nodes = getattr(article, "_text_nodes", None)
    if nodes is None:
        nodes = article._text_nodes = _text_nodes(article)  # type: ignore[attr-defined]
    starts, lengths, owners, ks = nodes
    p = article.to_index(offset, side)
    if side == "end":
        hit = np.flatnonzero((starts < p) & (p <= starts + lengths))
    else:
        hit = np.flatnonzero((starts <= p) & (p < starts + lengths))
    if len(hit):
        h = int(hit[0])
        tree = element_tree(article)
        pointer = f"{tree.xpath(int(owners[h]))}/text()[{int(ks[h])}].{p - int(starts[h])}"
        try:
            if article.point(pointer) == offset:
                return pointer
        except (KeyError, ValueError):
            pass
    return str(int(offset))


# -- writing ----------------------------------------------------------------------------------


def assessments_xml(assessments: ElementAssessments, collection: Collection | None = None) -> bytes:
    """The assessments as XML (the format of the module docstring). One topic: an
    ``<assessments>`` root; several: ``<inex-assessments>`` holding them. With ``collection``,
    passages and the best entry point are written as XPointers, else as offsets."""
    derived = assessments.derived
    blocks = []
    for topic, ta in assessments.topics.items():
        block = etree.Element("assessments", topic=topic)
        for name, a in ta.articles.items():
            f = etree.SubElement(block, "file", name=name)
            art = None
            if collection is not None and (len(a.passages) or a.bep is not None):
                try:
                    art = collection.article(name)
                except KeyError:
                    art = None
            for s, e in a.passages.tolist():
                start = xpointer(art, s, "start") if art is not None else str(s)
                end = xpointer(art, e, "end") if art is not None else str(e)
                etree.SubElement(f, "passage", start=start, end=end, size=str(e - s))
            if a.bep is not None:
                etree.SubElement(f, "best-entry-point", path=xpointer(art, a.bep) if art is not None else str(a.bep))
            t = a.tree
            for i in a.listed.tolist():
                etree.SubElement(f, "element", path=t.xpath(i), exhaustivity=str(int(a.e[i])),
                                 specificity=str(int(a.s[i])), size=str(int(t.ends[i] - t.starts[i])),
                                 rsize=str(int(a.rsize[i])))
        for name in ta.missing:  # relevant, but its elements are unknown: the topic stays incomplete
            etree.SubElement(block, "file", name=name, elements="unknown")
        blocks.append(block)
    if len(blocks) == 1:
        root = blocks[0]
        root.set("unit", assessments.unit)
    else:
        root = etree.Element("inex-assessments", unit=assessments.unit)
        for b in blocks:
            root.append(b)
    if derived:
        root.set("source", "derived")
        root.set("exhaustivity-cuts", Cuts.text(assessments.cuts.exh))
        root.set("specificity-cuts", Cuts.text(assessments.cuts.spec))
        root.addprevious(etree.Comment(
            " Derived by readsim from FOL highlighting (exhaustiveness from the element's share of the article's "
            "highlighted text, specificity from rsize/size): for teaching and testing, not INEX's assessments. "))
    etree.indent(root, "  ")
    return etree.tostring(root.getroottree(), xml_declaration=True, encoding="UTF-8", pretty_print=True)


def write_assessments(assessments: ElementAssessments, path: str | os.PathLike, collection: Collection | None = None) -> None:
    """Write :func:`assessments_xml` to ``path`` atomically (:func:`readsim.core.atomic.write_bytes`).
    Raises ``OSError`` naming ``path`` (the previous file is then left as it was)."""
    from .. import atomic

    atomic.write_bytes(path, assessments_xml(assessments, collection))


# -- reading ----------------------------------------------------------------------------------


def is_assessments_xml(data: bytes) -> bool:
    """True if ``data`` starts like an XML document (``<`` after blanks and a byte-order mark)."""
    return data[:512].lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")


def _int_attr(el, attr: str, path: str, required: bool = True) -> int | None:
    value = el.get(attr)
    if value is None:
        if required:
            raise InputError(path, el.sourceline, f"<{el.tag}> needs {attr}=")
        return None
    text = value.strip()
    if not text.isascii() or not text.isdigit():
        raise InputError(path, el.sourceline, f"<{el.tag}> {attr} must be a whole number, not {value!r}")
    n = int(text)
    if n >= MAX_OFFSET:
        raise InputError(path, el.sourceline, f"<{el.tag}> {attr} {text} is out of range (must be below 2^40)")
    return n


def _grade_attr(el, attr: str, path: str, too_small: list[int]) -> int | None:
    value = el.get(attr)
    if value is None:
        return None
    text = value.strip()
    if text == "?" and attr == "exhaustivity":
        too_small.append(el.sourceline or 0)
        return 0
    if text not in ("0", "1", "2", "3"):
        raise InputError(path, el.sourceline, f"<{el.tag}> {attr} must be 0, 1, 2 or 3, not {value!r}")
    return int(text)


def _offset(article: Article, text: str | None, el, attr: str, path: str) -> int:
    if text is None or not text.strip():
        raise InputError(path, el.sourceline, f"<{el.tag}> needs {attr}=")
    text = text.strip()
    if text.isascii() and text.isdigit():
        n = int(text)
        if n >= MAX_OFFSET:
            raise InputError(path, el.sourceline, f"<{el.tag}> {attr} {text} is out of range (must be below 2^40)")
        return n
    try:
        return article.point(text)
    except (KeyError, ValueError) as err:
        raise InputError(path, el.sourceline, f"article {article.name}: cannot resolve {attr} {text!r} ({err})") from None


def read_assessments(path: str | os.PathLike, collection: Collection, cuts: Cuts = Cuts(),
                     data: bytes | None = None) -> ElementAssessments:
    """Read an assessments XML (module docstring) against ``collection`` (which gives every
    element's span and tree). Raises :class:`InputError` naming file and line: not XML, a
    missing or bad attribute, an element path or XPointer the article does not have, a topic,
    file or element given twice, rsize above size, a unit other than the collection's. An
    article the collection lacks is left out (in :attr:`TopicAssessments.missing`) with a
    warning; so is a ``size`` that differs from the element's span (both numbers named)."""
    label = str(path)
    root = (parse_xml(path) if data is None else parse_xml(data, label)).getroot()
    blocks = [root] if root.tag == "assessments" else list(root.iter("assessments"))
    if not blocks:
        raise InputError(label, root.sourceline, f"expected <assessments topic=...> (or a root holding them), found <{root.tag}>")
    out = ElementAssessments(collection.unit, label, cuts)
    have = collection.listing()
    too_small: list[int] = []
    size_notes: list[Diagnostic] = []
    for block in blocks:
        topic = (block.get("topic") or "").strip()
        if not topic:
            raise InputError(label, block.sourceline, "<assessments> needs topic=")
        unit = (block.get("unit") or root.get("unit") or "bytes").strip()
        if unit not in ("bytes", "chars"):
            raise InputError(label, block.sourceline, f"unit must be bytes or chars, not {unit!r}")
        if unit != collection.unit:
            raise InputError(label, block.sourceline, f"sizes in {unit} but the collection is read in {collection.unit} "
                                                      f"(use --unit {unit})")
        if topic in out.topics:
            raise InputError(label, block.sourceline, f"topic {topic} is assessed twice")
        ta = out.topics[topic] = TopicAssessments(topic)
        for f in block.iter("file"):
            name = (f.get("name") or "").strip()
            if not name:
                raise InputError(label, f.sourceline, "<file> needs name=")
            if name in ta.articles or name in ta.missing:
                raise InputError(label, f.sourceline, f"topic {topic}: file {name} is assessed twice")
            if name not in have or f.get("elements") == "unknown":
                ta.missing.append(name)
                continue
            article = collection.article(name)
            tree = element_tree(article)
            n = len(tree)
            rsize = np.zeros(n, dtype=np.int64)
            e = np.zeros(n, dtype=np.int8)
            s = np.zeros(n, dtype=np.int8)
            listed: list[int] = []
            seen: set[int] = set()
            passages = []
            bep = None
            for child in f:
                if not isinstance(child.tag, str):
                    continue
                if child.tag == "passage":
                    a = _offset(article, child.get("start"), child, "start", label)
                    b = _offset(article, child.get("end"), child, "end", label)
                    if b < a:
                        raise InputError(label, child.sourceline, f"<passage> ends ({b}) before it starts ({a})")
                    passages.append((a, b))
                elif child.tag in ("best-entry-point", "bep"):
                    bep = _offset(article, child.get("path") or child.get("offset"), child, "path", label)
                elif child.tag == "element":
                    xp = (child.get("path") or "").strip()
                    if not xp:
                        raise InputError(label, child.sourceline, "<element> needs path=")
                    i = tree.find(xp)
                    if i is None:
                        raise InputError(label, child.sourceline, f"article {name} has no element {xp}")
                    if i in seen:
                        raise InputError(label, child.sourceline, f"topic {topic}: element {xp} of file {name} is assessed twice")
                    seen.add(i)
                    ev = _grade_attr(child, "exhaustivity", label, too_small)
                    if ev is None:
                        raise InputError(label, child.sourceline, "<element> needs exhaustivity= (0..3)")
                    size = _int_attr(child, "size", label)
                    rs = _int_attr(child, "rsize", label)
                    if rs > size:
                        raise InputError(label, child.sourceline, f"<element> rsize {rs} is larger than size {size}")
                    if size != tree.ends[i] - tree.starts[i] and len(size_notes) < 1000:
                        size_notes.append(Diagnostic(label, child.sourceline, (
                            f"article {name} element {xp}: size {size} in the file, "
                            f"{int(tree.ends[i] - tree.starts[i])} {collection.unit} in the collection")))
                    sv = _grade_attr(child, "specificity", label, too_small)
                    if sv is None:
                        sv = int(grade(np.array([rs]), np.array([size]), cuts.spec)[0])
                    rsize[i], e[i], s[i] = rs, ev, sv
                    listed.append(i)
                else:
                    out.diagnostics.append(Diagnostic(label, child.sourceline, f"<{child.tag}> in <file> ignored"))
            ta.articles[name] = ArticleAssessment(name, tree, rsize, e, s, np.array(sorted(listed), dtype=np.int64),
                                                  iv.normalize(passages), bep)
    if too_small:
        out.diagnostics.append(Diagnostic(label, too_small[0], (
            f"{len(too_small)} elements with exhaustivity '?' (INEX 2006: too small) read as 0")))
    if size_notes:
        out.diagnostics.append(size_notes[0])
        if len(size_notes) > 1:
            out.diagnostics.append(Diagnostic(label, None, f"{len(size_notes)} element sizes in all differ from the collection's"))
    missing = [(t, a) for t, ta in out.topics.items() for a in ta.missing]
    if missing:
        done = out.complete_topics()
        out.diagnostics.append(Diagnostic(label, None, (
            f"{len(missing)} assessed articles of {len({t for t, _ in missing})} topics are not in the collection "
            f"{collection.root} or have unknown elements (first: topic {missing[0][0]} file {missing[0][1]}); "
            f"left out. Complete topics: {', '.join(done) if done else 'none'}")))
    return out
