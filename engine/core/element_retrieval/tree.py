"""The element tree of one article as arrays (document order, the root first).

:func:`element_tree` reads :attr:`readsim.core.text.Article.elements` once and keeps only arrays
and tag names, so a tree outlives the parsed article (the collection's cache may drop it):
spans ``[start, end)`` in the article's **unit** (UTF-8 bytes by default, Unicode characters
with ``unit="chars"``: the same offsets as the qrels), depth, parent, leaf flag and the XPath
position of every element. An element's XPath is built on demand (O(depth));
:meth:`ElementTree.find` maps an XPath back to the element's number through a table built on
first use. Element numbers are those of ``Article.elements`` (and of the window's outline).

Every element counts, as in :mod:`readsim.core.simulated`: the root ``article``, the header and its
parts, the YAGO wrappers of the Wikipedia collection (``<physical_entity>`` around the header
and body, with the same span as the element they wrap) and inline elements (``link``, ``b``).
A leaf is an element without element children (zero-length children count as children).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..text import Article, normalize_xpath


@dataclass(eq=False)
class ElementTree:
    """The elements of article ``article``: arrays of length n, document order, root first.

    ``starts``/``ends`` (int64, the unit's offsets), ``depth`` (root 0), ``parent`` (-1 for the
    root), ``leaf`` (bool), ``tags`` (local names) and ``position`` (``[k]`` among same-named
    siblings). ``unit`` is ``"bytes"`` or ``"chars"``; ``length`` the article's text length.
    """

    article: str
    unit: str
    length: int
    starts: np.ndarray
    ends: np.ndarray
    depth: np.ndarray
    parent: np.ndarray
    leaf: np.ndarray
    tags: list[str]
    position: np.ndarray
    _paths: dict[str, int] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.starts)

    @property
    def sizes(self) -> np.ndarray:
        """``ends - starts``: each element's size in the unit (bytes or characters)."""
        return self.ends - self.starts

    def xpath(self, i: int) -> str:
        """``/article[1]/bdy[1]/p[3]`` of element ``i`` (O(depth))."""
        steps = []
        i = int(i)
        while i >= 0:
            steps.append(f"{self.tags[i]}[{int(self.position[i])}]")
            i = int(self.parent[i])
        return "/" + "/".join(reversed(steps))

    def find(self, xpath: str) -> int | None:
        """The number of the element at ``xpath`` (a step without ``[k]`` means ``[1]``), or None."""
        if self._paths is None:
            self._paths = {self.xpath(i): i for i in range(len(self))}
        return self._paths.get(normalize_xpath(xpath))

    def ancestors(self, i: int) -> list[int]:
        """The proper ancestors of element ``i``, nearest first."""
        out = []
        p = int(self.parent[int(i)])
        while p >= 0:
            out.append(p)
            p = int(self.parent[p])
        return out

    def by_span(self, start: int, end: int) -> int | None:
        """The outermost element whose span is exactly ``[start, end)``, or None."""
        hit = np.flatnonzero((self.starts == start) & (self.ends == end))
        return int(hit[0]) if len(hit) else None


def _parents(depth: np.ndarray) -> np.ndarray:
    """Parent of each element of a preorder listing with these depths (-1 for depth 0):
    the last element before it one level up, found per level with ``searchsorted``."""
    n = len(depth)
    parent = np.full(n, -1, dtype=np.int64)
    if n == 0:
        return parent
    index = np.arange(n)
    for d in range(1, int(depth.max()) + 1):
        here = index[depth == d]
        above = index[depth == d - 1]
        parent[here] = above[np.searchsorted(above, here) - 1]
    return parent


def _positions(parent: np.ndarray, tags: list[str]) -> np.ndarray:
    """XPath position of each element among its same-named siblings (1-based)."""
    n = len(parent)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    names = {t: k for k, t in enumerate(dict.fromkeys(tags))}
    code = np.fromiter((names[t] for t in tags), dtype=np.int64, count=n)
    order = np.lexsort((np.arange(n), code, parent))  # by parent, then tag, then document order
    p, c = parent[order], code[order]
    new = np.ones(n, dtype=bool)
    new[1:] = (p[1:] != p[:-1]) | (c[1:] != c[:-1])
    group_start = np.maximum.accumulate(np.where(new, np.arange(n), 0))
    position = np.empty(n, dtype=np.int64)
    position[order] = np.arange(n) - group_start + 1
    return position


def element_tree(article: Article) -> ElementTree:
    """The :class:`ElementTree` of ``article``, cached on the article (it never changes)."""
    cached = getattr(article, "_element_tree", None)
    if cached is not None:
        return cached
    els = article.elements
    n = len(els)
    starts = np.fromiter((e.start for e in els), dtype=np.int64, count=n)
    ends = np.fromiter((e.end for e in els), dtype=np.int64, count=n)
    depth = np.fromiter((e.depth for e in els), dtype=np.int64, count=n)
    tags = [e.tag for e in els]
    parent = _parents(depth)
    leaf = np.ones(n, dtype=bool)
    leaf[parent[parent >= 0]] = False
    tree = ElementTree(article.name, article.unit, article.length, starts, ends, depth, parent, leaf, tags,
                       _positions(parent, tags))
    article._element_tree = tree  # type: ignore[attr-defined]
    return tree


def tree_from_spans(name: str, spans, tags: list[str] | None = None, unit: str = "chars") -> ElementTree:
    """A tree from nested spans listed in preorder (tests and hand-made examples): the parent
    of each span is the innermost earlier span containing it. ``tags`` default ``e``; the
    first span is the root. Raises ``ValueError`` for spans that are not nested (laminar) in
    preorder."""
    arr = np.asarray(spans, dtype=np.int64).reshape(-1, 2)
    n = len(arr)
    parent = np.full(n, -1, dtype=np.int64)
    depth = np.zeros(n, dtype=np.int64)
    stack: list[int] = []
    for i, (a, b) in enumerate(arr.tolist()):
        if b < a:
            raise ValueError(f"span {i} ends before it starts")
        while stack and not (arr[stack[-1], 0] <= a and b <= arr[stack[-1], 1]):
            stack.pop()
        if i and not stack:
            raise ValueError(f"span {i} {a, b} is not inside the root")
        if stack:
            parent[i] = stack[-1]
            depth[i] = depth[stack[-1]] + 1
        stack.append(i)
    tags = list(tags) if tags is not None else ["e"] * n
    leaf = np.ones(n, dtype=bool)
    leaf[parent[parent >= 0]] = False
    length = int(arr[0, 1]) if n else 0
    return ElementTree(name, unit, length, arr[:, 0].copy(), arr[:, 1].copy(), depth, parent, leaf, tags,
                       _positions(parent, tags))
