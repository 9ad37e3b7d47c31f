"""A collection folder: articles as ``DIR/<file>.xml`` (flat) or anywhere below ``DIR``.

Articles are parsed on first use and kept in a small cache. Thread-safe for reading:
the GUI loads articles in a worker thread.

An article's DOCTYPE loads only the collection's own ``article.dtd`` (in the article's folder,
a folder above it up to the collection folder, or the collection folder's parent, where the INEX
articles' ``../article.dtd`` points); any other system id gets the built-in entity table
(:mod:`readsim.engine.text`). Every problem with an article file (missing, a folder, a FIFO, a
broken link, not XML, over a budget) is an :class:`InputError` naming it.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from pathlib import Path

from .errors import InputError
from .text import Article, dtd_paths


class Collection:
    """The articles of a folder, by name (file stem), in one unit (``bytes`` or ``chars``)."""

    def __init__(self, root: str | os.PathLike, unit: str = "bytes", cache_size: int = 64):
        self.root = Path(root)
        if not self.root.is_dir():
            raise InputError(root, None, "not a folder")
        self.unit = unit
        self._cache: OrderedDict[str, Article] = OrderedDict()
        self._cache_size = cache_size
        self._index: dict[str, Path] | None = None
        self._names: frozenset[str] | None = None
        self._dtds: dict[Path, list[str]] = {}  # article folder -> its dtd_paths (one realpath walk per folder)
        self._lock = threading.Lock()

    def path(self, name: str) -> Path | None:
        """The file of article ``name``, or None if the collection does not have it."""
        flat = self.root / f"{name}.xml"
        if flat.is_file():
            return flat
        with self._lock:
            if self._index is None:  # the Wikipedia collection nests files in folders
                self._index = {p.stem: p for p in self.root.rglob("*.xml")}
            return self._index.get(name)

    def listing(self) -> frozenset[str]:
        """The names of every ``*.xml`` below the folder, as :meth:`path` finds them: a snapshot
        taken once (the walk :meth:`path` does at its first miss). For a pass that looks up many
        names absent from the collection, without a ``stat`` each."""
        with self._lock:
            if self._index is None:
                self._index = {p.stem: p for p in self.root.rglob("*.xml")}
            if self._names is None:
                self._names = frozenset(self._index)
            return self._names

    def __contains__(self, name: str) -> bool:
        return self.path(name) is not None

    def names(self) -> list[str]:
        """All article names of the collection (walks the folder)."""
        return sorted(p.stem for p in self.root.rglob("*.xml"))

    def article(self, name: str) -> Article:
        """The parsed article ``name``. Raises ``KeyError`` if absent, :class:`InputError` if bad."""
        with self._lock:
            hit = self._cache.get(name)
            if hit is not None:
                self._cache.move_to_end(name)
                return hit
        path = self.path(name)
        if path is None:
            raise KeyError(name)
        with self._lock:
            dtds = self._dtds.get(path.parent)
        if dtds is None:
            dtds = dtd_paths(path, self.root)
            with self._lock:
                self._dtds[path.parent] = dtds
        art = Article.from_file(path, self.unit, collection=self.root, dtds=dtds)
        with self._lock:
            self._cache[name] = art
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return art
