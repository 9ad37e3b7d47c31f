"""Element runs: ranked lists of elements, overlap kept ([Gövert 2006], sections 4.1-4.2).

Unlike the passage tasks (:mod:`readsim.core.formats.folrun` merges an article's results into one
ranked article with united passages), an element run keeps **every result line as one ranked
element**, in line order, nested and repeated text included: that overlap is what the INEX
2003o metric looks at.

**Reading** (:func:`read_element_run`), a FOL run (7-field XPath lines) or an XML run of INEX
2006-2008 (``<path>``), with the collection (which gives each element's span):

- FOL: ``topic Q0 file rank rsv run_id xpath``. A 6-field line (whole article) is the article's
  root element; an 8-field line whose ``[offset, offset + length)`` is exactly some element's span
  is that element (the outermost of equal spans), any other 8-field line is an error (element
  runs name elements).
- XML: each ``<path>`` of a ``<result>`` is one element (in document order); a result with
  none is the root element; ``<fol>`` as the 8-field line; ``<passage>`` XPointers are an error.
  ``<rsv>`` (a child of ``<result>``) gives the rsv, else each result is its own rank.
- **Ranks and ties**: the line order is the order (the rank column is not read). Consecutive
  lines of a topic with the **same rsv** form one rank with several elements (INEX 2002's
  precall, equations 6-7, treats them as a tie); ``ties=False`` gives every line its own rank.
  The rsv never reorders lines.
- A topic split into two blocks is merged into its first (warning; ``strict``: error). An
  element given twice in a topic keeps its first rank (warning): recall cannot pass 1.
- An article missing from the collection (a partial collection, as the real INEX subset): its
  lines keep their ranks and score as not relevant (e = s = 0; span unknown, size 0), with one
  warning giving the count and the first ids, worded as list evaluation's
  (:func:`readsim.core.coverage.missing_articles`; docs/reference.md section 13.4).
- An XPath an article of the collection does not have, a bad rsv: an :class:`InputError` naming
  the line.

**Simulated runs** ([Gövert 2006] end of section 4.1), per topic from its assessments:
:func:`perfect_run` holds only the elements with specificity 3 (and e > 0), ranked by their
exhaustiveness: one rank per e value (3, 2, 1; rsv = e), each rank in article order (as the
assessments list them) then document order. :func:`ancestors_run` is the perfect run followed by
one more rank (rsv 0) holding every proper ancestor of its elements that it does not already
hold (article order, then document order, so an ancestor precedes its descendants).
Within a rank the order matters to the INEX 2003 metric only (which takes c_1 .. c_k in order).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from ..collection import Collection
from ..errors import Diagnostic, InputError
from ..formats.lines import numbered_lines, read_bytes, to_int
from ..safe_xml import parse_xml
from .assessments import ElementAssessments, TopicAssessments
from .tree import ElementTree, element_tree

SIMULATED = ("perfect", "ancestors")


@dataclass(frozen=True)
class RankedElement:
    """One ranked element: ``article``, ``xpath``, span ``[start, end)`` in the unit (bytes or
    characters), ``rsv``, ``rank`` (1-based; equal for the elements of one tie), ``index`` (the
    element's number in the article, document order; negative for an article the collection
    lacks, whose span is then ``[0, 0)``) and ``line`` (0 when not read from a file)."""

    topic: str
    article: str
    xpath: str
    start: int
    end: int
    rsv: float
    rank: int
    index: int
    line: int = 0

    @property
    def size(self) -> int:
        return self.end - self.start


@dataclass
class ElementRun:
    """An element run: ``topics[topic]`` -> ranked elements in order (:class:`RankedElement`)."""

    path: str
    run_id: str
    topics: dict[str, list[RankedElement]] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def elements(self) -> Iterator[RankedElement]:
        for entries in self.topics.values():
            yield from entries


def assign_ranks(rsvs: Iterable[float], ties: bool = True) -> list[int]:
    """1-based ranks of elements in order: with ``ties``, consecutive equal rsv share a rank."""
    out: list[int] = []
    prev = None
    for r in rsvs:
        if not out:
            out.append(1)
        elif ties and r == prev:
            out.append(out[-1])
        else:
            out.append(out[-1] + 1)
        prev = r
    return out


class _Resolver:
    """Element spans of a run's articles, each article's tree read once. An element of an article
    the collection lacks gets a negative number (one per distinct ``(article, name)``), its name
    in :attr:`unknown`."""

    def __init__(self, path: str, collection: Collection):
        self.path = path
        self.collection = collection
        self.trees: dict[str, ElementTree | None] = {}
        self.articles: dict[str, None] = {}  # every article named, in file order
        self.unknown: dict[int, str] = {}  # negative number -> the element's name as the run gives it
        self._numbers: dict[tuple[str, str], int] = {}

    def tree(self, article: str, line: int) -> ElementTree | None:
        """The article's element tree, or None when the collection lacks it."""
        self.articles.setdefault(article)
        if article in self.trees:
            return self.trees[article]
        t = None
        if article in self.collection.listing():  # one listing, not a look-up per absent article
            t = element_tree(self.collection.article(article))
        self.trees[article] = t
        return t

    def _missing(self, article: str, name: str) -> int:
        number = self._numbers.setdefault((article, name), -1 - len(self._numbers))
        self.unknown[number] = name
        return number

    def whole(self, article: str, line: int) -> int:
        return 0 if self.tree(article, line) is not None else self._missing(article, "/article[1]")

    def by_xpath(self, article: str, xpath: str, line: int) -> int:
        t = self.tree(article, line)
        if t is None:
            return self._missing(article, xpath)
        i = t.find(xpath)
        if i is None:
            raise InputError(self.path, line, f"article {article} has no element {xpath}")
        return i

    def by_span(self, article: str, start: int, end: int, line: int) -> int:
        t = self.tree(article, line)
        if t is None:
            return self._missing(article, f"[{start}, {end})")
        i = t.by_span(start, end)
        if i is None:
            raise InputError(self.path, line, f"article {article}: [{start}, {end}) is not the span of an element "
                                              "(an element run names elements: give an XPath)")
        return i


def _name(resolver: _Resolver, article: str, index: int) -> str:
    return resolver.unknown[index] if index < 0 else resolver.trees[article].xpath(index)


def _finish(run: ElementRun, raw: dict[str, list[tuple[str, int, float, int]]], resolver: _Resolver, ties: bool) -> ElementRun:
    missing = [a for a in resolver.articles if resolver.trees.get(a) is None]
    if missing:
        from ..coverage import missing_articles

        run.diagnostics.append(missing_articles(run.path, list(resolver.articles), missing, resolver.collection.root,
                                                "their elements keep their ranks and score as not relevant "
                                                "(spans unknown, size 0)"))
    for topic, items in raw.items():
        seen: set[tuple[str, int]] = set()
        kept = []
        dups = 0
        for article, index, rsv, line in items:
            if (article, index) in seen:
                dups += 1
                if dups == 1:
                    run.diagnostics.append(Diagnostic(run.path, line, f"topic {topic}: element "
                                                      f"{_name(resolver, article, index)} of article {article} "
                                                      "ranked again; its first rank is kept"))
                continue
            seen.add((article, index))
            kept.append((article, index, rsv, line))
        if dups > 1:
            run.diagnostics.append(Diagnostic(run.path, None, f"topic {topic}: {dups} repeated elements dropped"))
        ranks = assign_ranks([k[2] for k in kept], ties)
        entries = []
        for (article, index, rsv, line), rank in zip(kept, ranks):
            t = resolver.trees[article]
            if t is None:  # not in the collection: not relevant, span unknown
                entries.append(RankedElement(topic, article, resolver.unknown[index], 0, 0, rsv, rank, index, line))
                continue
            entries.append(RankedElement(topic, article, t.xpath(index), int(t.starts[index]), int(t.ends[index]),
                                         rsv, rank, index, line))
        run.topics[topic] = entries
    return run


def _rsv(text: str, path: str, line: int) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InputError(path, line, f"rsv must be a number, not {text!r}") from None
    if not math.isfinite(value):
        raise InputError(path, line, f"rsv must be a finite number, not {text!r}")
    return value


def read_element_run(path: str | os.PathLike, collection: Collection, strict: bool = False, ties: bool = True,
                     data: bytes | None = None) -> ElementRun:
    """Read a FOL or XML run as an element run (module docstring). Raises :class:`InputError`
    naming file and line."""
    label = str(path)
    if data is None:
        data = read_bytes(path)
    if data[:512].lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return _read_xml(label, data, collection, strict, ties)
    resolver = _Resolver(label, collection)
    raw: dict[str, list[tuple[str, int, float, int]]] = {}
    run_id = os.path.basename(label)
    run = ElementRun(label, run_id)
    last_topic = None
    for number, f in numbered_lines(label, data):
        if not 6 <= len(f) <= 8:
            raise InputError(label, number, f"a run line needs 6 to 8 fields (topic Q0 file rank rsv run_id "
                                            f"[xpath | offset length]), found {len(f)}")
        topic, article = f[0], f[2]
        if topic != last_topic and topic in raw:
            message = f"topic {topic} appears in two blocks; merged into its first block"
            if strict:
                raise InputError(label, number, message.split(";")[0] + "; rejected (--strict)")
            run.diagnostics.append(Diagnostic(label, number, message))
        last_topic = topic
        if run.run_id == run_id:
            run.run_id = f[5]
        rsv = _rsv(f[4], label, number)
        if len(f) == 7:
            index = resolver.by_xpath(article, f[6], number)
        elif len(f) == 6:
            index = resolver.whole(article, number)
        else:
            offset = to_int(f[6], label, number, "offset")
            length = to_int(f[7], label, number, "length")
            if offset < 0 or length < 0:
                raise InputError(label, number, f"negative offset or length ({offset} {length})")
            index = resolver.by_span(article, offset, offset + length, number)
        raw.setdefault(topic, []).append((article, index, rsv, number))
    return _finish(run, raw, resolver, ties)


def _read_xml(label: str, data: bytes, collection: Collection, strict: bool, ties: bool) -> ElementRun:
    root = parse_xml(data, label).getroot()
    if root.tag != "inex-submission":
        raise InputError(label, root.sourceline, f"expected <inex-submission>, found <{root.tag}>")
    run = ElementRun(label, root.get("run-id") or os.path.basename(label))
    resolver = _Resolver(label, collection)
    raw: dict[str, list[tuple[str, int, float, int]]] = {}
    order = 0
    for topic_el in root.iter("topic"):
        topic = topic_el.get("topic-id") or topic_el.get("id")
        if not topic:
            raise InputError(label, topic_el.sourceline, "<topic> without a topic-id")
        if topic in raw:
            message = f"topic {topic} appears in two blocks; merged into its first block"
            if strict:
                raise InputError(label, topic_el.sourceline, message.split(";")[0] + "; rejected (--strict)")
            run.diagnostics.append(Diagnostic(label, topic_el.sourceline, message))
        items = raw.setdefault(topic, [])
        for result in topic_el.iter("result"):
            file_el = result.find("file")
            if file_el is None or not (file_el.text or "").strip():
                raise InputError(label, result.sourceline, "<result> without <file>")
            article = file_el.text.strip()
            rsv_el = result.find("rsv")
            order += 1
            rsv = _rsv(rsv_el.text or "", label, rsv_el.sourceline) if rsv_el is not None else -float(order)
            found = False
            for child in result:
                if child.tag == "path" and (child.text or "").strip():
                    items.append((article, resolver.by_xpath(article, child.text.strip(), child.sourceline), rsv,
                                  child.sourceline))
                    found = True
                elif child.tag == "fol":
                    offset = to_int((child.get("offset") or "").strip(), label, child.sourceline, "<fol> offset")
                    length = to_int((child.get("length") or "").strip(), label, child.sourceline, "<fol> length")
                    if offset < 0 or length < 0:
                        raise InputError(label, child.sourceline, f"negative offset or length ({offset} {length})")
                    items.append((article, resolver.by_span(article, offset, offset + length, child.sourceline), rsv,
                                  child.sourceline))
                    found = True
                elif child.tag == "passage":
                    raise InputError(label, child.sourceline, "a <passage> (XPointers) is not an element: element runs "
                                                              "need <path> results")
            if not found:
                items.append((article, resolver.whole(article, result.sourceline), rsv, result.sourceline))
    return _finish(run, raw, resolver, ties)


# -- simulated runs ---------------------------------------------------------------------------


def _perfect(ta: TopicAssessments) -> list[RankedElement]:
    out = []
    rank = 0
    for e in (3, 2, 1):
        rank_used = False
        for name, a in ta.articles.items():
            t = a.tree
            for i in np.flatnonzero((a.s == 3) & (a.e == e)).tolist():
                if not rank_used:
                    rank += 1
                    rank_used = True
                out.append(RankedElement(ta.topic, name, t.xpath(i), int(t.starts[i]), int(t.ends[i]), float(e), rank, i))
    return out


def _ancestors(ta: TopicAssessments, perfect: list[RankedElement]) -> list[RankedElement]:
    held: dict[str, set[int]] = {}
    for r in perfect:
        held.setdefault(r.article, set()).add(r.index)
    rank = (perfect[-1].rank if perfect else 0) + 1
    out = list(perfect)
    for name, indices in held.items():
        t = ta.articles[name].tree
        extra = set()
        for i in indices:
            extra.update(t.ancestors(i))
        for i in sorted(extra - indices):
            out.append(RankedElement(ta.topic, name, t.xpath(i), int(t.starts[i]), int(t.ends[i]), 0.0, rank, i))
    return out


def simulated_ranking(name: str, ta: TopicAssessments) -> list[RankedElement]:
    """One topic's ranked elements of the simulated run ``name`` (``perfect`` or ``ancestors``,
    module docstring): the window's call when it switches between the two."""
    if name not in SIMULATED:
        raise ValueError(f"unknown simulated element run {name!r}; runs are {', '.join(SIMULATED)}")
    perfect = _perfect(ta)
    return perfect if name == "perfect" else _ancestors(ta, perfect)


def simulated_element_run(name: str, assessments: ElementAssessments, topics: Iterable[str] | None = None) -> ElementRun:
    """The simulated run ``name`` (``perfect`` or ``ancestors``, module docstring) for ``topics``
    (default: the complete topics of ``assessments``, whose relevant articles are all in the
    collection). Raises ``ValueError`` for another name, ``KeyError`` for a topic not assessed."""
    if name not in SIMULATED:
        raise ValueError(f"unknown simulated element run {name!r}; runs are {', '.join(SIMULATED)}")
    run = ElementRun("", name)
    for t in (assessments.complete_topics() if topics is None else topics):
        run.topics[t] = simulated_ranking(name, assessments.topics[t])
    return run


def perfect_run(assessments: ElementAssessments, topics: Iterable[str] | None = None) -> ElementRun:
    """The "perfect" run of [Gövert 2006] section 4.1 (module docstring)."""
    return simulated_element_run("perfect", assessments, topics)


def ancestors_run(assessments: ElementAssessments, topics: Iterable[str] | None = None) -> ElementRun:
    """The "ancestors" run of [Gövert 2006] section 4.1 (module docstring)."""
    return simulated_element_run("ancestors", assessments, topics)


def element_run_lines(run: ElementRun) -> list[str]:
    """The run as 7-field FOL lines (``topic Q0 article rank rsv run_id xpath``), rank = the
    element's rank (ties share it), so :func:`read_element_run` reads it back the same."""
    return [f"{r.topic} Q0 {r.article} {r.rank} {r.rsv!r} {run.run_id} {r.xpath}"
            for entries in run.topics.values() for r in entries]


def write_element_run(run: ElementRun, path: str | os.PathLike) -> None:
    """Write :func:`element_run_lines` to ``path`` atomically."""
    from .. import atomic

    atomic.write_text(path, "".join(line + "\n" for line in element_run_lines(run)))
