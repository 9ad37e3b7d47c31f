"""A collection of documents in one JSON Lines file, ``.jsonl`` or ``.jsonl.gz`` (reference 2.13).

One JSON object a line: the document's id in ``id``, ``doc_id``, ``docid`` or ``_id`` (a string
or an integer; the first of these the object has), its text in ``text``, ``contents`` or
``body`` (a string), an optional ``title`` (shown, not counted in offsets). Offsets count into
the text exactly as stored (the JSON string decoded). Blank lines are skipped.

**Random access.** The first opening reads the file once and saves an offset index (document id
-> the byte offset, length and number of its line) as an article index
(:mod:`readsim.core.article_index`: beside the file or in the cache folder, never through a link
nor over a file that is not regular, rebuilt when the file's size or modification time change);
opening one document then reads its line only. A ``.jsonl.gz`` file's index also keeps
indexed_gzip's seek points (one every :data:`SPACING` bytes of text), so a document is
decompressed from the nearest one; building it reads the file twice (a check of every line
with :mod:`gzip`, then the seek points).

**Bad input** at the build is an :class:`InputError` naming the file and line: not JSON, not an
object, no id, no text (or not a string), a ``.jsonl.gz`` cut short or damaged, a line over
:data:`MAX_ARTICLE_BYTES`. Of two lines with one id the first counts; the others are warnings
(kept in the index, given again at each opening).
"""

from __future__ import annotations

import gzip
import io
import json
import os
import sqlite3
import threading
import zlib
from pathlib import Path

from . import article_index as ai
from .documents import TextArticle
from .errors import InputError
from .safe_xml import MAX_ARTICLE_BYTES

SUFFIXES = (".jsonl", ".jsonl.gz")
ID_KEYS = ("id", "doc_id", "docid", "_id")
TEXT_KEYS = ("text", "contents", "body")
#: bytes of decompressed text between two seek points of a ``.jsonl.gz`` index
SPACING = 1 << 20
KIND = "jsonl"
#: SQL true for a row a JSON Lines index never holds (offset: the line's byte offset in the
#: decompressed file, size: its length, within the line budget the build keeps, packed: its line number)
BAD_ROWS = ("archive != '' OR member != '' OR typeof(offset) != 'integer' OR typeof(size) != 'integer' "
            f"OR typeof(packed) != 'integer' OR offset < 0 OR size < 0 OR size > {MAX_ARTICLE_BYTES} OR packed < 1")
GZIP_TABLE = "CREATE TABLE readsim_gzip (data BLOB NOT NULL)"


def is_jsonl(path: str | os.PathLike) -> bool:
    """Whether ``path``'s name ends in ``.jsonl`` or ``.jsonl.gz`` (any case)."""
    return os.fspath(path).lower().endswith(SUFFIXES)


def _document(line: bytes, label: str, number: int) -> tuple[str, str, str | None]:
    """``(id, text, title)`` of one line. Raises :class:`InputError` naming ``label:number``."""
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError) as err:
        raise InputError(label, number, f"not JSON: {err}") from None
    if not isinstance(obj, dict):
        raise InputError(label, number, f"a JSON {type(obj).__name__}, not an object: one document a line")
    key = next((k for k in ID_KEYS if k in obj), None)
    if key is None:
        raise InputError(label, number, f"no document id (one of {', '.join(ID_KEYS)})")
    doc = obj[key]
    if isinstance(doc, bool) or not isinstance(doc, (str, int)) or doc == "":
        raise InputError(label, number, f"the id {key!r} is {json.dumps(doc)[:40]}, not a string or an integer")
    field = next((k for k in TEXT_KEYS if k in obj), None)
    if field is None:
        raise InputError(label, number, f"no text (one of {', '.join(TEXT_KEYS)})")
    text = obj[field]
    if not isinstance(text, str):
        raise InputError(label, number, f"the text {field!r} is a JSON {type(text).__name__}, not a string")
    title = obj.get("title")
    return str(doc), text, title if isinstance(title, str) else None


class JsonlDocuments:
    """The documents of one JSON Lines file, by id, through its saved offset index. Thread-safe."""

    def __init__(self, path: str | os.PathLike, progress: ai.Progress | None = None, notes: list[str] | None = None):
        self.path = Path(path)
        self.label = os.fspath(path)
        self.gz = self.label.lower().endswith(".gz")
        self._lock = threading.Lock()
        self._reader = None
        self.notes = notes = notes if notes is not None else []
        try:
            self._print = ai.fingerprint(path)
        except OSError as err:
            raise InputError(path, None, f"cannot read: {err.strerror or err}") from None
        self.index_file = ai.index_path(path, notes=notes)
        conn, why = self._load()
        if conn is None:
            conn = self._rebuild(why, progress)
        self._conn, self._pid = conn, os.getpid()
        row = conn.execute("SELECT value FROM readsim_meta WHERE key = 'warnings'").fetchone()
        for warning in json.loads(row[0]) if row else []:
            notes.append(warning)

    def _load(self) -> tuple[sqlite3.Connection | None, str | None]:
        """The saved index if it is valid, its rows left to be checked one by one as they are
        used (:meth:`_row`: opening reads none of a million rows), else ``(None, why)``."""
        tables = ("readsim_gzip",) if self.gz else ()
        return ai.load(self.index_file, KIND, lambda saved: saved == self._print, tables, BAD_ROWS, check_rows=False)

    def _rebuild(self, why: str | None, progress: ai.Progress | None = None) -> sqlite3.Connection:
        """Build the index anew (``why``: the reason, noted) and open it."""
        if why is not None:
            self.notes.append(f"{self.label}: rebuilding the article index: {why}")
        ai.build(self.index_file, KIND, lambda tmp: (self._scan(tmp, progress), self._print))
        conn, why = self._load()
        if conn is None:
            raise InputError(self.label, None, f"the article index just built cannot be read: {why}")
        return conn

    def _row(self, name: str) -> tuple | None:
        """The index row of ``name`` or None (under the lock), checked before it is used: a row no
        build writes (a file planted or damaged) has the index rebuilt (reference 2.10)."""
        row, bad = ai.checked_lookup(self._db, name, BAD_ROWS)
        if bad:
            self._conn.close()
            self._conn = self._rebuild(f"it is not a readsim index or is damaged (its row {row[:3]!r} is not "
                                       "one readsim writes)")
            self._reader, self._pid = None, os.getpid()
            row, bad = ai.checked_lookup(self._db, name, BAD_ROWS)
            if bad:
                raise InputError(self.label, None, "the article index just built holds a bad row")
        return row

    # -- the build ------------------------------------------------------------------------------
    def _open(self):
        return gzip.open(self.path, "rb") if self.gz else open(self.path, "rb")

    def _scan(self, tmp: str, progress: ai.Progress | None) -> list[tuple]:
        """Read every line once: the index rows, the duplicate ids' warnings (into ``tmp``'s
        metadata) and, for ``.jsonl.gz``, the seek points (into ``tmp``)."""
        rows, first, warnings = [], {}, []
        offset = number = 0
        try:
            with self._open() as fh:
                for line in fh:
                    number += 1
                    size = len(line)
                    if line.strip():
                        if size > MAX_ARTICLE_BYTES:
                            raise InputError(self.label, number, f"a line of {size:,} bytes, over the budget of "
                                                                 f"{MAX_ARTICLE_BYTES:,} bytes (MAX_ARTICLE_BYTES)")
                        doc, _text, _title = _document(line, self.label, number)
                        if doc in first:
                            warnings.append(f"{self.label}:{number}: warning: a second document of id {doc!r}: "
                                            f"the first, line {first[doc]}, counts")
                        else:
                            first[doc] = number
                            rows.append((doc, "", "", offset, None, number, size, None, None))
                    offset += size
                    if progress is not None and number % 10000 == 0:
                        progress(number, 0, f"indexing {self.label}")
        except (EOFError, zlib.error, gzip.BadGzipFile) as err:
            raise InputError(self.label, number + 1, f"damaged or cut short: {err}") from None
        except OSError as err:
            raise InputError(self.label, None, f"cannot read: {err.strerror or err}") from None
        with sqlite3.connect(tmp) as conn:
            conn.executescript(ai.SCHEMA)
            if warnings:
                conn.execute("INSERT INTO readsim_meta VALUES ('warnings', ?)", (json.dumps(warnings),))
            if self.gz:
                conn.execute(GZIP_TABLE)
                conn.execute("INSERT INTO readsim_gzip VALUES (?)", (self._seek_points(),))
        conn.close()
        return rows

    def _seek_points(self) -> bytes:
        import indexed_gzip

        out = io.BytesIO()
        with indexed_gzip.IndexedGzipFile(os.fspath(self.path), spacing=SPACING) as fh:
            fh.build_full_index()
            fh.export_index(fileobj=out)
        return out.getvalue()

    # -- reading --------------------------------------------------------------------------------
    @property
    def _db(self) -> sqlite3.Connection:
        if self._pid != os.getpid():  # a forked worker: never share the connection nor the reader
            self._conn = ai.connect_ro(self.index_file)
            self._reader, self._pid = None, os.getpid()
        return self._conn

    def lookup(self, name: str) -> tuple | None:
        """The index row of document ``name`` (:data:`article_index.COLUMNS`), or None."""
        with self._lock:
            return self._row(name)

    def names(self) -> list[str]:
        """Every document id, sorted."""
        with self._lock:
            return ai.names(self._db)

    def _line(self, offset: int, size: int) -> bytes:
        """The bytes of one line (called under the lock)."""
        if not self.gz:
            with open(self.path, "rb") as fh:
                fh.seek(offset)
                return fh.read(size)
        if self._reader is None:
            import indexed_gzip

            (blob,) = self._db.execute("SELECT data FROM readsim_gzip").fetchone()
            reader = indexed_gzip.IndexedGzipFile(os.fspath(self.path), spacing=SPACING)
            reader.import_index(fileobj=io.BytesIO(blob))
            self._reader = reader
        self._reader.seek(offset)
        return self._reader.read(size)

    def article(self, name: str, unit: str) -> TextArticle:
        """The document ``name``. Raises ``KeyError`` if absent, :class:`InputError` naming the
        file and line if its line cannot be read as it was when indexed."""
        with self._lock:
            row = self._row(name)
            if row is None:
                raise KeyError(name)
            offset, number, size = row[3], row[5], row[6]
            try:
                data = self._line(offset, size)
            except (OSError, ValueError, zlib.error) as err:  # indexed_gzip's ZranError is an OSError
                raise InputError(self.label, number, f"cannot read: {err}") from None
        doc, text, title = _document(data, self.label, number)
        if doc != name:
            raise InputError(self.label, number, f"the line holds {doc!r}, not {name!r}: "
                                                 "the file changed since it was indexed")
        return TextArticle(name, text, unit, f"{self.label}:{number}", title=title, kind="jsonl")
