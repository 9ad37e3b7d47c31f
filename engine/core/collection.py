"""A collection: the articles of a folder (flat or nested), of an archive, or of a folder of archives.

``Collection(PATH)`` takes what users hold (reference section 2.10): a folder with
``<name>.xml`` files directly in it (flat) or anywhere below it (nested), ``.zip``/``.tar``/
``.tar.gz``/``.tgz``/``.tar.bz2``/``.tar.xz`` archives, or a folder holding such archives (and
files). An article's name is its file stem. Opening a collection indexes it: an archive's index
(:mod:`readsim.core.archives`) and a nested folder's (name -> relative path, validated by every
folder's modification time) are built once, with ``progress``, and saved
(:mod:`readsim.core.article_index`); a flat folder is listed, not saved. An archive is indexed
when opened; a folder without a valid saved index at the first article not found as
``ROOT/NAME.xml``, or at :meth:`Collection.listing`. Why an index was rebuilt is in
:attr:`Collection.notes`.

Articles are parsed on first use and kept in a small cache; their lengths and doc_lengths
(:meth:`Collection.facts`, what evaluation with a collection needs of each ranked article) are
kept for the collection's life. Thread-safe for reading: the GUI loads articles in a worker thread.

An article's DOCTYPE loads only the collection's own ``article.dtd`` (reference section 2.8): in
the article's folder, a folder above it up to the collection folder, or the collection folder's
parent, where the INEX articles' ``../article.dtd`` points. Inside an archive the archive is a
folder: its members ``article.dtd`` on the way up, then the archive's own folder and up as for a
file. Any other system id gets the built-in entity table (:mod:`readsim.core.safe_xml`). Every
problem with an article (missing, a folder, a FIFO, a broken link, not XML, over a budget, a
damaged archive) is an :class:`InputError` naming it (``ARCHIVE: MEMBER: reason`` in an archive).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

from . import article_index as ai
from . import documents
from .archives import DOCUMENT_SUFFIXES, SUFFIXES, Archive, document_name, is_archive, open_archive
from .errors import InputError
from .irds import IrdsDocuments, is_irds
from .jsonl_documents import JsonlDocuments, is_jsonl
from .safe_xml import DTD_NAME, MAX_ARTICLE_BYTES, MAX_DTD_BYTES, dtd_paths, parse_xml
from .text import Article
from .units import UNITS

PARSE_THREADS = 4
"""Threads parsing a collection's articles at once in :meth:`Collection.facts` (lxml parses
without holding the GIL)."""
KINDS_TEXT = ("a folder of <name>.xml, .txt, .md or .html files, a " + ", ".join(SUFFIXES)
              + " archive, or a .jsonl or .jsonl.gz file of documents")
#: the suffixes a folder's ``NAME`` is looked for with, in path order (``NAME.htm`` < ... < ``NAME.xml``)
LOOKUP_ORDER = tuple(sorted(DOCUMENT_SUFFIXES))
#: SQL true for a row a folder's index never holds: a loose file not ``NAME.xml``, an archive
#: without an archive suffix, a member path beside an archive (paths: :data:`article_index.BAD_ROW`)
FOLDER_BAD_ROWS = ("CASE archive WHEN '' THEN NOT (" + " OR ".join(f"member GLOB '*{s}'" for s in DOCUMENT_SUFFIXES)
                   + ") ELSE member != '' OR NOT ("
                   + " OR ".join(f"lower(archive) GLOB '*{s}'" for s in SUFFIXES) + ") END")


class Collection:
    """The articles of a folder or an archive, by name (file stem), in one unit (``bytes`` or ``chars``).

    ``unit=None`` (the default) takes the collection's own unit (reference 2.13): ``bytes``
    (UTF-8 bytes, INEX's) when it holds an article XML file (``NAME.xml``), else ``chars``
    (Unicode code points: a JSON Lines file of documents, a folder or archive of only ``.txt``,
    ``.md`` and ``.html`` documents). Deciding it walks a folder up to its first ``NAME.xml`` (a folder
    with an archive before one is indexed at once, reference 2.10).

    ``progress(done, total, what)``: see :data:`readsim.core.article_index.Progress` (an
    exception it raises stops the indexing and comes out of the constructor). Raises
    :class:`InputError` naming ``root``: not a folder nor an archive (missing, a device, a FIFO:
    ``readsim-eval``'s message), not a readable archive, an index that cannot be written;
    ``ValueError`` for a ``unit`` other than ``bytes`` and ``chars``."""

    def __init__(self, root: str | os.PathLike, unit: str | None = None, cache_size: int = 64,
                 progress: ai.Progress | None = None):
        if unit is not None and unit not in UNITS:
            raise ValueError(f"unit must be one of {', '.join(UNITS)}, not {unit!r}")
        self.root = Path(root)
        self.unit = unit
        self.notes: list[str] = []  # why an index was rebuilt (for the user)
        self._cache: OrderedDict[str, Article] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._dtds: dict[tuple, object] = {}  # (archive or None, article folder) -> its DTD candidates
        self._archives: dict[str, Archive] = {}  # relative path ('' for the collection itself) -> archive
        self._flat: frozenset[str] | None = None  # a flat folder's names
        self._index: sqlite3.Connection | None = None  # a nested folder's saved index
        self._index_file: Path | None = None  # where it is (article_index.index_path)
        self._names: frozenset[str] | None = None  # listing()'s snapshot
        self._facts: dict[str, tuple[int, int, str] | None] = {}  # facts()' answers
        self._progress = progress  # for a folder's listing, deferred to the first miss (or listing())
        # a JSON Lines file's documents (reference 2.13) or an ir_datasets dataset's (2.15)
        self._jsonl: JsonlDocuments | IrdsDocuments | None = None
        self._listed = False
        self._list_lock = threading.Lock()
        if is_irds(root):
            self._jsonl = IrdsDocuments(root)
            self._listed = True
        elif self.root.is_dir():
            self._listed = self._load_folder_index()
        elif self.root.is_file() and is_jsonl(self.root):
            self._jsonl = JsonlDocuments(self.root, progress, self.notes)
            self._listed = True
        elif self.root.is_file() and is_archive(self.root):
            self._archives[""] = open_archive(self.root, progress, self.notes)
            self._listed = True
        else:
            if not self.root.is_file():  # missing, a device, a FIFO: readsim-eval's words for it
                from .coverage import check_input_path

                check_input_path(root, "collection")
            raise InputError(root, None, f"not a collection ({KINDS_TEXT})")
        if unit is None:
            self.unit = "bytes" if self._holds_xml() else "chars"

    def _xml_file(self) -> bool | None:
        """Whether the folder (walked in path order, links to folders not followed) has a
        ``NAME.xml`` file, without indexing it: True at the first one, False when it has none
        and no archive, None when an archive comes first (its members say: the index)."""
        for _top, dirs, files in os.walk(self.root, onerror=self._walk_error):
            dirs.sort()
            for f in sorted(files):
                if f.endswith(".xml") and document_name(f) is not None:
                    return True
                if is_archive(f):
                    return None
        return False

    def _holds_xml(self) -> bool:
        """Whether an article of the collection is article XML (``NAME.xml``; in an archive in
        any case): a folder's saved index, else its files, then its archives' indexes."""
        if self._jsonl is not None:
            return False
        if "" in self._archives:
            return self._archives[""].holds_xml()
        if self._index is None:
            found = self._xml_file()
            if found is not None:
                return found
            self._ensure_listed()  # an archive in the folder: its index says
        if self._index is None:
            return False
        with self._lock:
            if ai.holds_xml(self._folder_db(), "member GLOB '*.xml'"):
                return True
        return any(archive.holds_xml() for archive in self._archives.values())

    # -- indexing -----------------------------------------------------------------------------
    def _load_folder_index(self, rebuild: bool = False) -> bool:
        """Take the folder's saved index if it is valid (True); with ``rebuild``, else build it:
        a flat folder is listed (no saved index), a nested one walked and its index saved."""
        if self._index_file is None:  # once: a note on where it goes is given once
            self._index_file = ai.index_path(self.root, beside=False, notes=self.notes)
        where = self._index_file
        conn, why = ai.load(where, "folder", self._unchanged, bad_rows=FOLDER_BAD_ROWS)
        if conn is None:
            if not rebuild:
                return False
            if not self._nested():
                # every entry named *.xml: a FIFO or a folder of that name is reported when read
                self._flat = frozenset(n for n in map(document_name, os.listdir(self.root)) if n is not None)
                return True
            if why is not None:
                self.notes.append(f"{self.root}: rebuilding the article index: {why}")
            ai.build(where, "folder", lambda _tmp: self._walk(self._progress))
            conn, why = ai.load(where, "folder", self._unchanged, bad_rows=FOLDER_BAD_ROWS)
            if conn is None:
                raise InputError(where, None, f"the article index just built cannot be read: {why}")
        self._index, self._pid = conn, os.getpid()
        for (rel,) in conn.execute("SELECT DISTINCT archive FROM readsim_articles WHERE archive != ''"):
            self._archives[rel] = open_archive(self.root / rel, self._progress, self.notes)
        return True

    def _ensure_listed(self) -> None:
        """List (flat) or index (nested) the folder now if that is not done: at the first article
        not found directly as ``ROOT/NAME.xml``, or when the names are asked for."""
        with self._list_lock:
            if not self._listed:
                self._listed = self._load_folder_index(rebuild=True)

    def _folder_db(self) -> sqlite3.Connection:
        """The nested folder's index connection; reopened in a forked worker (never shared)."""
        if self._pid != os.getpid():
            self._index = ai.connect_ro(self._index_file)
            self._pid = os.getpid()
        return self._index

    def _nested(self) -> bool:
        """Whether the folder holds a subfolder or an archive (else it is flat: no saved index)."""
        try:
            return any(e.is_dir() or is_archive(e.name) for e in os.scandir(self.root))
        except OSError as err:
            raise InputError(self.root, None, f"cannot read: {err.strerror or err}") from None

    def _fingerprint(self, folders: list[str], archives: list[str]) -> str:
        """Every folder's and archive's ``relative path \\t mtime_ns size`` (a changed one: rebuild)."""
        lines = []
        for rel in folders + archives:
            st = os.stat(self.root / rel)
            lines.append(f"{rel}\t{st.st_mtime_ns} {st.st_size if rel in archives else 0}")
        return "\n".join(lines)

    def _unchanged(self, saved: str) -> bool:
        try:
            for line in saved.split("\n"):
                rel, _, stamp = line.partition("\t")
                st = os.stat(self.root / rel)
                mtime, size = stamp.split(" ")
                if st.st_mtime_ns != int(mtime) or (size != "0" and st.st_size != int(size)):
                    return False
        except (OSError, ValueError):
            return False
        return True

    def _walk(self, progress: ai.Progress | None) -> tuple[list[tuple], str]:
        """Walk the folder (sorted, symbolic links to folders not followed), opening every
        archive found: the index rows (name -> archive, relative path) and the fingerprint."""
        rows, folders, archives = [], [], []
        for top, dirs, files in os.walk(self.root, onerror=self._walk_error):
            dirs.sort()
            rel_top = os.path.relpath(top, self.root)
            folders.append(rel_top)
            for f in sorted(files):
                rel = os.path.normpath(os.path.join(rel_top, f))
                name = document_name(f)
                if name is not None:
                    rows.append((name, "", rel, None, None, None, None, None, None))
                elif is_archive(f) and os.path.isfile(self.root / rel):
                    archive = open_archive(self.root / rel, progress, self.notes)
                    self._archives[rel] = archive
                    archives.append(rel)
                    rows += [(n, rel, "", None, None, None, None, None, None) for n in archive.names()]
            if progress is not None:
                progress(len(rows), 0, f"listing {self.root}")
        return rows, self._fingerprint(folders, archives)

    @staticmethod
    def _walk_error(err: OSError) -> None:
        raise InputError(err.filename, None, f"cannot read: {err.strerror or err}")

    # -- look-ups -----------------------------------------------------------------------------
    def _where(self, name: str) -> tuple[Archive | None, object] | None:
        """``(None, path)`` for a file, ``(archive, index row)`` for a member, None if absent
        (a JSON Lines file: ``(None, its path)``)."""
        if self._jsonl is not None:
            return (None, self.root) if self._jsonl.lookup(name) is not None else None
        if "" not in self._archives:  # a folder
            for suffix in LOOKUP_ORDER:  # path order: of two files of one name, the first counts
                flat = self.root / f"{name}{suffix}"
                if os.path.lexists(flat):
                    return None, flat  # read_file reports a folder, a FIFO, a broken link by that name
            self._ensure_listed()
        if self._index is not None:
            with self._lock:
                row = ai.lookup(self._folder_db(), name)
            if row is not None:
                if not row[1]:
                    return None, self.root / row[2]
                archive = self._archives[row[1]]
                member = archive.lookup(name)
                return (archive, member) if member is not None else None
        if "" in self._archives:
            row = self._archives[""].lookup(name)
            return (self._archives[""], row) if row is not None else None
        return None

    def path(self, name: str) -> Path | None:
        """The file of article ``name`` (for an archive member: ``ARCHIVE/MEMBER``, not a real
        file; for a JSON Lines document: the file), or None if the collection does not have it."""
        found = self._where(name)
        if found is None:
            return None
        archive, where = found
        return where if archive is None else archive.path / where[2]

    def listing(self) -> frozenset[str]:
        """The names of every article, a snapshot taken once (for a pass that looks up many names
        absent from the collection, without a look-up each)."""
        with self._lock:
            names = self._names
        if names is None:
            names = frozenset(self.names())
            with self._lock:
                self._names = names
        return names

    def facts(self, names: Sequence[str]) -> list[tuple[int, int, str] | None]:
        """``(length, doc_length, path)`` of each article of ``names``, in order: its text's
        length and its doc_length (docs/reference.md section 1.4) in the collection's unit, and
        its file (:meth:`path`'s); None for an article the collection does not have. Like
        :meth:`listing`, a snapshot: each article is parsed once for the collection's life, so
        the runs and passes of one comparison, or the window's successive evaluations, read it
        once (about 60 bytes kept per article asked). The absent ones are answered by one
        listing, without a look-up each (taken when more than one name is asked, or at the first
        absent one), and the others are parsed in :data:`PARSE_THREADS` threads. Raises
        :class:`InputError` for an unreadable article (not kept: asked again, it is read again)."""
        asked = list(dict.fromkeys(names))
        with self._lock:
            known = {name: self._facts[name] for name in asked if name in self._facts}
            listed = self._names is not None  # after a first absent article, as below
        todo = [name for name in asked if name not in known]
        if len(todo) > 1 or (todo and listed):
            listing = self.listing()
            known.update((name, None) for name in todo if name not in listing)
            todo = [name for name in todo if name in listing]
        if len(todo) > 1:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(PARSE_THREADS) as pool:
                found = list(pool.map(self._facts_of, todo))
        else:
            found = [self._facts_of(name) for name in todo]
        known.update(zip(todo, found))
        with self._lock:
            self._facts.update((name, known[name]) for name in asked)
        return [known[name] for name in names]

    def _facts_of(self, name: str) -> tuple[int, int, str] | None:
        try:
            article = self.article(name)
        except KeyError:
            self.listing()  # the next absent ones without a look-up each
            return None
        return article.length, article.doc_length, article.path

    def __contains__(self, name: str) -> bool:
        return self._where(name) is not None

    def names(self) -> list[str]:
        """All article names of the collection, sorted."""
        self._ensure_listed()
        if self._jsonl is not None:
            return self._jsonl.names()
        if self._flat is not None:
            return sorted(self._flat)
        if self._index is not None:
            with self._lock:
                return ai.names(self._folder_db())
        return self._archives[""].names()

    # -- articles -----------------------------------------------------------------------------
    def article(self, name: str) -> Article:
        """The parsed article ``name``. Raises ``KeyError`` if absent, :class:`InputError` if bad."""
        with self._lock:
            hit = self._cache.get(name)
            if hit is not None:
                self._cache.move_to_end(name)
                return hit
        if self._jsonl is not None:
            art = self._jsonl.article(name, self.unit)
        else:
            found = self._where(name)
            if found is None:
                raise KeyError(name)
            archive, where = found
            art = self._from_file(where) if archive is None else self._from_member(archive, where, name)
        with self._lock:
            self._cache[name] = art
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return art

    def _from_file(self, path: Path) -> Article:
        if not path.name.endswith(".xml"):  # a document that is not XML (reference 2.13)
            return documents.from_file(path, self.unit)
        with self._lock:
            dtds = self._dtds.get((None, path.parent))
        if dtds is None:
            dtds = dtd_paths(path, self.root)
            with self._lock:
                self._dtds[(None, path.parent)] = dtds
        return Article.from_file(path, self.unit, collection=self.root, dtds=dtds)

    def _from_member(self, archive: Archive, row: tuple, name: str) -> Article:
        member = row[2]
        data = archive.read(row, MAX_ARTICLE_BYTES)
        label = f"{archive.label}: {member}"
        if not member.lower().endswith(".xml"):  # a document that is not XML (reference 2.13)
            return documents.from_bytes(data, name, self.unit, label, member)
        folder = member.rsplit("/", 1)[0] if "/" in member else ""
        with self._lock:
            dtds = self._dtds.get((archive.path, folder))
        if dtds is None:
            dtds = self._member_dtds(archive, folder)
            with self._lock:
                self._dtds[(archive.path, folder)] = dtds
        base = os.path.join(os.path.realpath(archive.path), member)
        tree = parse_xml(data, label, dtds=dtds, max_bytes=MAX_ARTICLE_BYTES, base_url=base)
        return Article(name, tree.getroot(), self.unit, label)

    def _member_dtds(self, archive: Archive, folder: str) -> dict[str, bytes | None]:
        """The collection's ``article.dtd`` candidates for an article in ``folder`` of
        ``archive`` (reference section 2.8): the members ``FOLDER/article.dtd`` and above, with
        their bytes, then the real files of :func:`dtd_paths` from the archive's folder."""
        real = os.path.realpath(archive.path)
        out: dict[str, bytes | None] = {}
        parts = folder.split("/") if folder else []
        for depth in range(len(parts), -1, -1):
            member = "/".join([*parts[:depth], DTD_NAME])
            data = archive.member_bytes(member, MAX_DTD_BYTES)
            if data is not None:
                out.setdefault(os.path.realpath(os.path.join(real, member)), data)
        above = (dtd_paths(archive.path, self.root) if self.root.is_dir()  # an archive in the folder
                 else [os.path.realpath(archive.path.parent / DTD_NAME)])  # the collection's parent
        for path in above:
            out.setdefault(path, None)
        return out

