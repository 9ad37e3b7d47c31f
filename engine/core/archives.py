"""Articles inside one archive: ``.zip``, ``.tar``, ``.tar.gz``/``.tgz``, ``.tar.bz2``, ``.tar.xz``.

An :class:`Archive` is opened with its saved article index (:mod:`readsim.core.article_index`),
built on first use with progress, and reads one member's bytes at a time:

- a tar archive through ratarmountcore's ``SQLiteIndexedTar`` (member offsets in SQLite; for
  gzip and bzip2 the seek points of indexed_gzip / indexed_bzip2, for xz the blocks of
  python-xz), so reading an article decompresses from the nearest seek point, not from the
  start. An xz archive made of a single block (``xz`` without ``-T``, Python's ``lzma``) has no
  seek point: every article is decompressed from the start of the archive (correct, slow);
  ``xz -T0`` or ``pixz`` write many blocks.
- a zip archive through :mod:`zipfile`: the central directory is read once, at the build; an
  article is then read from its local header's offset (``zipfile.ZipExtFile``: deflate, bzip2,
  lzma or stored, CRC-32 checked), without reading the central directory again.

Every problem (not an archive, corrupt, truncated, an encrypted member, over the budget) is an
:class:`InputError` ``ARCHIVE: MEMBER: reason`` (``ARCHIVE: reason`` when it is not about a member).
"""

from __future__ import annotations

import contextlib
import logging
import os
import posixpath
import sqlite3
import struct
import threading
import zipfile
from collections.abc import Iterable
from pathlib import Path

from . import article_index as ai
from .errors import InputError
from .safe_xml import MAX_ARTICLE_BYTES

#: archive suffixes, longest first (``.tar.gz`` before ``.gz`` would matter)
SUFFIXES = (".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tbz", ".tar.xz", ".txz", ".tar", ".zip")


#: the suffixes of documents that are not XML (reference 2.13): plain text, then HTML; with
#: ``.xml`` first, every document a folder or an archive holds, in the order a name is looked for
TEXT_SUFFIXES = (".txt", ".md")
HTML_SUFFIXES = (".html", ".htm")
DOCUMENT_SUFFIXES = (".xml", *TEXT_SUFFIXES, *HTML_SUFFIXES)


def document_name(file_name: str, any_case: bool = False) -> str | None:
    """The article name of a file name (its stem) if it ends in one of :data:`DOCUMENT_SUFFIXES`
    (in a folder: as written; in an archive, ``any_case``: in any case), else None."""
    low = file_name.lower() if any_case else file_name
    for suffix in DOCUMENT_SUFFIXES:
        if low.endswith(suffix) and len(file_name) > len(suffix):
            return file_name[: -len(suffix)]
    return None


def is_archive(path: str | os.PathLike) -> bool:
    """Whether ``path``'s name ends in an archive suffix (:data:`SUFFIXES`, any case)."""
    return os.fspath(path).lower().endswith(SUFFIXES)


def open_archive(path: str | os.PathLike, progress: ai.Progress | None = None,
                 notes: list[str] | None = None) -> Archive:
    """The :class:`ZipArchive` or :class:`TarArchive` of ``path`` (by its suffix), its index
    loaded or built (``progress``; why an index was rebuilt is appended to ``notes``)."""
    return archive_class(path)(Path(path), progress, notes)


def archive_class(path: str | os.PathLike) -> type[Archive]:
    """:class:`ZipArchive` or :class:`TarArchive`, by the suffix of ``path``."""
    return ZipArchive if os.fspath(path).lower().endswith(".zip") else TarArchive


def member_path(name: str) -> str:
    """A member's path as readsim keeps it, inside the archive whatever its name says (as
    ratarmountcore keeps a tar's): no leading ``/``, ``.`` or ``..`` parts resolved, the ``..``
    that would climb above the archive's top dropped (``/a/../../b.xml`` -> ``b.xml``)."""
    parts = posixpath.normpath("/" + name).split("/")
    return "/".join(p for p in parts if p not in ("", ".", ".."))


def _article_name(member: str) -> str | None:
    """The article name of a member path (its file stem) if it is a document (``.xml``, or
    :data:`readsim.core.documents.DOCUMENT_SUFFIXES`, any case), else None."""
    return document_name(member.rsplit("/", 1)[-1], any_case=True)


#: SQL: the article name of a tar member ``name`` that is a document (as :func:`_article_name`)
_TAR_NAME = "CASE " + " ".join(f"WHEN name LIKE '_%{s}' THEN substr(name, 1, length(name) - {len(s)})"
                               for s in DOCUMENT_SUFFIXES) + " END"
_TAR_DOCUMENT = "(" + " OR ".join(f"name LIKE '_%{s}'" for s in DOCUMENT_SUFFIXES) + ")"


class Archive:
    """One archive's articles by name. Thread-safe (one lock around the archive's file)."""

    KIND = ""
    #: tables of the index besides readsim's (:func:`article_index.load`)
    TABLES: tuple[str, ...] = ()
    #: SQL true for an index row this kind never writes (:func:`article_index.load`)
    BAD_ROWS = "archive != ''"

    def __init__(self, path: Path, progress: ai.Progress | None = None, notes: list[str] | None = None):
        self._name(path)
        try:
            print_ = ai.fingerprint(path)
        except OSError as err:
            raise InputError(path, None, f"cannot read: {err.strerror or err}") from None
        where = ai.index_path(path, notes=notes)
        conn, why = self._load(where, print_)
        if conn is None:
            if why is not None and notes is not None:
                notes.append(f"{self.label}: rebuilding the article index: {why}")
            self._build(where, print_, progress)
            conn, why = self._load(where, print_)
            if conn is None:
                raise InputError(path, None, f"the article index just built cannot be read: {why}")
        self.index_file = where
        self._conn, self._pid = conn, os.getpid()

    def _load(self, where: Path, print_: str) -> tuple[sqlite3.Connection | None, str | None]:
        return ai.load(where, self.KIND, lambda saved: saved == print_, self.TABLES, self.BAD_ROWS)

    @property
    def _db(self) -> sqlite3.Connection:
        """The index's connection; reopened in a forked worker (never shared across a fork)."""
        if self._pid != os.getpid():
            self._conn = ai.connect_ro(self.index_file)
            self._tar, self._pid = None, os.getpid()
        return self._conn

    def _name(self, path: Path) -> None:
        self.path = path
        self.label = os.fspath(path)
        self._lock = threading.Lock()

    def _build(self, where: Path, print_: str, progress: ai.Progress | None) -> None:
        """Build and save the index ``where`` (in this process; a tar's in a child process)."""
        ai.build(where, self.KIND, lambda tmp: (self._index_members(tmp, progress), print_))

    @classmethod
    def build_index(cls, path: Path, where: Path, print_: str, progress: ai.Progress | None) -> None:
        """Build and save the index ``where`` of the archive ``path`` (fingerprint ``print_``)
        in this process, opening nothing else: what :mod:`readsim.core.index_child` runs."""
        archive = cls.__new__(cls)
        archive._name(path)
        Archive._build(archive, where, print_, progress)

    def _index_members(self, tmp: str, progress: ai.Progress | None) -> Iterable[tuple]:
        """The article rows (:data:`article_index.COLUMNS`) of the archive; may write its own
        tables into the index being built, ``tmp``."""
        raise NotImplementedError

    def _error(self, member: str, reason: object) -> InputError:
        return InputError(f"{self.label}: {member}", None, str(reason) or type(reason).__name__)

    # -- reading ----------------------------------------------------------------------------
    def lookup(self, name: str) -> tuple | None:
        """The index row of article ``name`` (:data:`article_index.COLUMNS`), or None."""
        with self._lock:
            return ai.lookup(self._db, name)

    def names(self) -> list[str]:
        """Every article name of the archive, sorted."""
        with self._lock:
            return ai.names(self._db)

    def holds_xml(self) -> bool:
        """Whether an article of the archive is article XML (a member ``NAME.xml`` in any case)."""
        with self._lock:
            return ai.holds_xml(self._db, "lower(member) GLOB '*.xml'")

    def read(self, row: tuple, max_bytes: int = MAX_ARTICLE_BYTES) -> bytes:
        """The bytes of the member of index row ``row`` (at most ``max_bytes``). Raises
        :class:`InputError` ``ARCHIVE: MEMBER: reason``."""
        raise NotImplementedError

    def member_bytes(self, member: str, max_bytes: int) -> bytes | None:
        """The bytes of ``member`` if the archive has it as a regular file within ``max_bytes``
        (the collection's ``article.dtd``), else None."""
        raise NotImplementedError

    def _budget(self, member: str, size: int, max_bytes: int) -> None:
        if size > max_bytes:
            raise self._error(member, f"{size:,} bytes, over the budget of {max_bytes:,} bytes")


class ZipArchive(Archive):
    """A ``.zip`` archive (:mod:`zipfile`)."""

    KIND = "zip"
    BAD_ROWS = ("archive != '' OR " + " OR ".join(f"typeof({c}) != 'integer'" for c in ai.COLUMNS.split(", ")[3:])
                + " OR offset < 0 OR packed < 0 OR size < 0")

    def _index_members(self, tmp: str, progress: ai.Progress | None) -> Iterable[tuple]:
        if progress is not None:
            progress(0, 0, f"reading the member list of {self.label}")
        try:
            with zipfile.ZipFile(self.path) as zf:
                infos = zf.infolist()
        except (zipfile.BadZipFile, OSError, ValueError, EOFError) as err:
            raise InputError(self.path, None, f"not a readable zip archive: {err}") from None
        return self._rows(infos, progress)

    def _rows(self, infos: list[zipfile.ZipInfo], progress: ai.Progress | None):
        """The index rows of the members, one at a time (no second list of millions)."""
        for i, info in enumerate(infos):
            member = member_path(info.filename)
            name = None if info.is_dir() else _article_name(member)
            if name is not None or member.rsplit("/", 1)[-1] == "article.dtd":
                yield (name if name is not None else "\0" + member, "", member,
                       info.header_offset, info.compress_type, info.compress_size, info.file_size,
                       info.CRC, info.flag_bits)
            if progress is not None and i % 10000 == 0:
                progress(i, len(infos), f"indexing {self.label}")

    def read(self, row: tuple, max_bytes: int = MAX_ARTICLE_BYTES) -> bytes:
        _name, _archive, member, offset, method, packed, size, crc, flags = row
        self._budget(member, size, max_bytes)
        if flags & 0x1:
            raise self._error(member, "an encrypted member: not read")
        info = zipfile.ZipInfo(member)
        info.compress_type, info.compress_size, info.file_size, info.CRC, info.flag_bits = method, packed, size, crc, flags
        try:
            with open(self.path, "rb") as fh:
                fh.seek(offset)
                head = fh.read(zipfile.sizeFileHeader)
                if len(head) < zipfile.sizeFileHeader or head[:4] != zipfile.stringFileHeader:
                    raise zipfile.BadZipFile("no local file header where the index says (truncated or changed)")
                fields = struct.unpack(zipfile.structFileHeader, head)
                fh.seek(fields[10] + fields[11], os.SEEK_CUR)  # the name's and the extra field's lengths
                with zipfile.ZipExtFile(fh, "r", info, None, False) as member_file:
                    data = member_file.read(max_bytes + 1)
        except Exception as err:  # noqa: BLE001 - zlib, bz2, lzma, zipfile: all mean a damaged member
            raise self._error(member, f"damaged or truncated archive: {err}") from None
        if len(data) != size:
            raise self._error(member, f"damaged archive: {len(data):,} bytes where the index says {size:,}")
        return data

    def member_bytes(self, member: str, max_bytes: int) -> bytes | None:
        with self._lock:
            row = self._db.execute(f"SELECT {ai.COLUMNS} FROM readsim_articles WHERE name = ?",
                                     ("\0" + member,)).fetchone()
        if row is None or row[6] > max_bytes:
            return None
        return self.read(row, max_bytes)


logging.getLogger("ratarmountcore").setLevel(logging.ERROR)  # it prints its progress to stdout


#: decompressed bytes between two seek points of a .tar.gz: an article read inflates at most about
#: this much (and ratarmountcore's first read 3 times it); the index keeps a 32 KiB window per point
GZIP_SPACING = 4 * 1024 * 1024


NOT_TAR = "not a tar archive (or not compressed with gzip, bzip2 or xz)"


class TarArchive(Archive):
    """A tar archive, plain or compressed (ratarmountcore's ``SQLiteIndexedTar``)."""

    KIND = "tar"
    #: ratarmountcore's tables (its view and trigger ``xattrs`` are dropped after the build)
    TABLES = ("files", "xattrkeys", "xattrsdata", "metadata", "versions",
              "gzipindex", "gzipindexes", "gztoolindex", "bzip2blocks", "zstdblocks")
    _tar = None  # the SQLiteIndexedTar, opened at the first read

    def _build(self, where: Path, print_: str, progress: ai.Progress | None) -> None:
        """In a child process (:func:`article_index.build_in_child`): the build imports
        ratarmountcore and its compiled decompressors, about 150 to 250 ms holding the GIL,
        which would freeze a window whose worker thread built the index."""
        ai.build_in_child(self.KIND, self.path, where, print_, progress)

    def _index_members(self, tmp: str, progress: ai.Progress | None) -> Iterable[tuple]:
        tar = self._open_tar(tmp, progress)
        try:
            if not tar.isTar:  # ratarmountcore shows a compressed non-tar as one file: not ours
                self._not_tar(tar.tarFileObject)
            self._check_complete(tar.tarFileObject, tar.index.get_connection())
        finally:
            tar.index.close()
        with contextlib.closing(sqlite3.connect(tmp)) as conn, conn:
            # readsim's index has no view nor trigger (reference 2.10); reading never uses xattrs
            conn.execute("DROP VIEW IF EXISTS xattrs")
            conn.executescript(ai.SCHEMA)
            # the articles straight from ratarmountcore's table, in archive order: of two copies
            # of one member (or two members of one name), the first counts (reference 2.10)
            conn.execute(f"""INSERT OR IGNORE INTO readsim_articles ({ai.COLUMNS})
                SELECT {_TAR_NAME}, '', ltrim(path || '/' || name, '/'),
                       NULL, NULL, NULL, NULL, NULL, NULL
                FROM files WHERE (mode & 61440) = 32768 AND {_TAR_DOCUMENT} ORDER BY offsetheader""")
            # ratarmountcore asks for the last member at every open: an index, not a full scan
            conn.execute("CREATE INDEX IF NOT EXISTS readsim_files_offset ON files (offset)")
        return []

    def _not_tar(self, fh) -> None:
        """Raise :class:`InputError` for a decompressed stream ratarmountcore took for no tar:
        one that starts with a tar header (whole, or cut after its ``ustar`` magic) was cut
        inside its first member, which is named."""
        import tarfile

        try:
            fh.seek(0)
            head = fh.read(512)
        except Exception:  # noqa: BLE001 - indexed_gzip, bz2, xz: a damaged stream
            head = b""
        try:
            tarfile.TarInfo.frombuf(head, "utf-8", "surrogateescape")
        except tarfile.TruncatedHeaderError:
            if not _looks_like_header(head):
                raise InputError(self.path, None, NOT_TAR) from None
        except Exception:  # noqa: BLE001 - tarfile's errors: no tar header
            raise InputError(self.path, None, NOT_TAR) from None
        where = "this member" if len(head) == 512 else "this member's header"
        if len(head) == 512:
            with contextlib.suppress(Exception):  # a pax or long-name header's data, if it is there
                head += fh.read(3584)
        raise self._error(_header_name(head) or "(its first member)",
                          f"truncated archive: the tar stream ends inside {where} (no end-of-archive blocks)")

    def _check_complete(self, fh, files: sqlite3.Connection) -> None:
        """Raise :class:`InputError` unless the (decompressed) tar stream ends with the two zero
        blocks every tar writer puts after the last member (POSIX ustar): a stream cut short
        ends inside a member, and its index would silently hold only the members before the cut.
        The error names the member the stream ends in (reference 2.10): the last one indexed when
        the cut is in its data, else the one whose header is cut (its name when it is there)."""
        try:
            end = fh.seek(0, os.SEEK_END)
            fh.seek(max(0, end - 1024))
            tail = fh.read(1024)
            if len(tail) == 1024 and not tail.strip(b"\0"):
                return
            last = files.execute("SELECT ltrim(path || '/' || name, '/'), offset, size FROM files "
                                 "ORDER BY offsetheader DESC LIMIT 1").fetchone()
            after = 0 if last is None else last[1] + -(-last[2] // 512) * 512  # its data, padded to a block
            if last is not None and end < after:
                raise self._error(last[0], "truncated archive: the tar stream ends inside this member "
                                           "(no end-of-archive blocks)")
            fh.seek(after)
            header = fh.read(min(4096, end - after))
        except InputError:
            raise
        except Exception as err:  # noqa: BLE001 - indexed_gzip, bz2, xz: a damaged stream
            raise InputError(self.path, None, f"damaged or truncated archive: {err}") from None
        name = _header_name(header)
        if name:
            raise self._error(name, "truncated archive: the tar stream ends inside this member's header "
                                    "(no end-of-archive blocks)")
        where = f"after the member {last[0]}" if last is not None else "before its first member"
        raise InputError(self.path, None, f"truncated archive: the tar stream ends {where}, "
                                          "without the end-of-archive blocks")

    def _open_tar(self, index_file: str, progress: ai.Progress | None = None, read_only: bool = False):
        """ratarmountcore's reader of the archive with its index ``index_file``: built there
        (``read_only`` False), or only read (never changed, nor removed when it looks wrong)."""
        from ratarmountcore.mountsource.formats.tar import SQLiteIndexedTar

        label, size = self.label, os.path.getsize(self.path)
        raised: list[BaseException] = []

        class Indexed(SQLiteIndexedTar):
            def _update_progress_bar(self, bar, fileobj):  # our progress, never ratarmount's prints
                if progress is None or raised:
                    return
                seen = _Seen()
                super()._update_progress_bar(seen, fileobj)
                try:
                    progress(seen.value, size, f"indexing {label}")
                except BaseException as exc:  # the caller's cancel: stop the build, re-raised below
                    raised.append(exc)
                    raise

        try:
            return Indexed(os.fspath(self.path), indexFilePath=index_file, writeIndex=not read_only,
                           readOnlyIndex=read_only, gzipSeekPointSpacing=GZIP_SPACING, prioritizedBackends=["indexed_gzip", "xz"])
        except Exception as err:  # noqa: BLE001 - tarfile, indexed_gzip, xz, sqlite: a bad archive
            if raised:
                raise raised[0] from None
            if read_only:  # indexed, read many times: now its seek points or members do not fit
                raise InputError(self.path, None, f"damaged or truncated archive: it no longer fits its index ({err})") from None
            if "could not be opened as a TAR" in str(err):  # ratarmountcore's words, with a repr
                raise InputError(self.path, None, NOT_TAR) from None
            raise InputError(self.path, None, f"not a readable tar archive: {err}") from None

    def _reader(self):
        if self._tar is None:
            self._tar = self._open_tar(os.fspath(self.index_file), read_only=True)
        return self._tar

    def read(self, row: tuple, max_bytes: int = MAX_ARTICLE_BYTES) -> bytes:
        return self._read_member(row[2], max_bytes, missing_ok=False)

    def member_bytes(self, member: str, max_bytes: int) -> bytes | None:
        return self._read_member(member, max_bytes, missing_ok=True)

    def _read_member(self, member: str, max_bytes: int, missing_ok: bool) -> bytes | None:
        with self._lock:
            self._db  # noqa: B018 - after a fork: a reader of our own
            try:
                tar = self._reader()
            except InputError as err:
                raise self._error(member, err.reason) from None
            info = tar.lookup("/" + member, fileVersion=1)  # the first copy (reference 2.10)
            if info is None or (info.mode & 0o170000) != 0o100000:
                if missing_ok:
                    return None
                raise self._error(member, "not in the archive any more (its index is out of date)")
            if missing_ok and info.size > max_bytes:
                return None
            self._budget(member, info.size, max_bytes)
            try:
                with tar.open(info) as fh:
                    data = fh.read(max_bytes + 1)
            except Exception as err:  # noqa: BLE001 - indexed_gzip, bz2, xz, tarfile: a damaged archive
                raise self._error(member, f"damaged or truncated archive: {err}") from None
        if len(data) != info.size:
            raise self._error(member, f"truncated archive: {len(data):,} of {info.size:,} bytes")
        return data


def _looks_like_header(head: bytes) -> bool:
    """Whether ``head``, the start of a tar header cut short, looks like one: a name without
    control characters (NUL-padded) and, as far as they go, the octal mode field and the ``ustar`` magic."""
    name = head[:100].split(b"\0", 1)[0]
    if len(head) < 100 or not name or not all(c >= 32 and c != 127 for c in name):
        return False
    if head[100:108].strip(b"01234567 \0"):
        return False
    return len(head) < 262 or head[257:262] == b"ustar"


def _header_name(tail: bytes) -> str:
    """The name of the member whose header starts ``tail`` (the stream after the last member
    indexed, cut short); '' when its name is not all there. The pax (``x``) and GNU long-name
    (``L``) headers before a member are followed: their ``path`` when the member's own header
    is cut, else its name, with the ustar prefix."""
    long_name = b""
    while len(tail) >= 100 and tail[:100].strip(b"\0"):
        kind = tail[156:157]
        if kind not in (b"x", b"g", b"L"):
            name = tail[:100].split(b"\0", 1)[0]
            if tail[257:262] == b"ustar" and len(tail) >= 500 and tail[345:500].strip(b"\0"):
                name = tail[345:500].split(b"\0", 1)[0] + b"/" + name
            long_name = long_name or name
            break
        try:
            size = int(tail[124:136].strip(b"\0 ") or b"0", 8)
        except ValueError:
            break
        data = tail[512:512 + size]
        if kind == b"L":
            long_name = data.split(b"\0", 1)[0]
        elif kind == b"x":
            long_name = next((r.split(b"=", 1)[1] for r in data.split(b"\n") if b" path=" in r), long_name)
        tail = tail[512 + -(-size // 512) * 512:]
    return member_path(long_name.decode("utf-8", "replace"))


class _Seen:
    """Stands in for ratarmountcore's progress bar: keeps the last position it was given."""

    value = 0

    def update(self, value: float) -> None:
        self.value = int(value)
