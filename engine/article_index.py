"""The saved article index of a collection: article name -> where its XML is (reference 2.10).

An index is one SQLite file. readsim's tables are

- ``readsim_meta(key, value)``: the format version, the kind and the fingerprint of what was
  indexed (an archive's size in bytes and modification time in nanoseconds; for a folder, every
  folder's modification time);
- ``readsim_articles(name, archive, member, ...)``: one row per article, ``name`` the file's stem,
  ``archive`` the archive's path relative to the collection ('' for a loose file or for the
  collection's own archive), ``member`` the member or relative file path.

A tar archive's index also holds ratarmountcore's tables (member offsets, the gzip/bzip2 seek
points) in the same file; it is built in a child process (:func:`build_in_child`), so that
importing ratarmountcore and its compiled decompressors never holds the calling process's GIL
(the window's GUI thread keeps running while a worker thread waits for the child). Where the file goes: :func:`index_path`. It is written atomically
(:mod:`readsim.engine.atomic`) and reused only while its fingerprint matches; otherwise (changed,
unreadable, another version) it is rebuilt and :func:`load` says why.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import queue
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from .atomic import atomic_write
from .errors import InputError

VERSION = "1"
#: the module a child process runs to build an archive's index (:func:`build_in_child`)
CHILD = "readsim.engine.index_child"
#: seconds between two calls of ``progress`` while a child builds (a Cancel is seen this soon)
POLL = 0.1
SUFFIX = ".readsim-index.sqlite"
#: ``progress(done, total, what)``: called while an index is built; total 0 when unknown. It may
#: raise (a Cancel button): the build stops, no index is saved, the exception goes to the caller.
Progress = Callable[[int, int, str], None]

SCHEMA = """
CREATE TABLE IF NOT EXISTS readsim_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS readsim_articles (
    name TEXT PRIMARY KEY, archive TEXT NOT NULL, member TEXT NOT NULL,
    offset INTEGER, method INTEGER, packed INTEGER, size INTEGER, crc INTEGER, flags INTEGER
) WITHOUT ROWID;
"""
COLUMNS = "name, archive, member, offset, method, packed, size, crc, flags"


def cache_folder() -> Path:
    """The user cache folder for indexes (platformdirs: ``~/.cache/readsim/indexes`` on Linux,
    following ``XDG_CACHE_HOME``)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("readsim", appauthor=False)) / "indexes"


def index_path(source: str | os.PathLike, beside: bool = True) -> Path:
    """Where the index of ``source`` (an archive or a folder) is saved: ``SOURCE.readsim-index.sqlite``
    beside it when ``beside`` and its folder is writable, else in :func:`cache_folder` under a
    name made from the real path's SHA-1 (so two folders of one name never share an index)."""
    real = os.path.realpath(source)
    folder, name = os.path.split(real)
    if beside and os.access(folder, os.W_OK | os.X_OK):
        return Path(folder) / (name + SUFFIX)
    digest = hashlib.sha1(os.fsencode(real)).hexdigest()[:16]
    return cache_folder() / f"{name}-{digest}{SUFFIX}"


def fingerprint(path: str | os.PathLike) -> str:
    """``"SIZE MTIME_NS"`` of an archive (bytes, nanoseconds): what an index is valid for."""
    st = os.stat(path)
    return f"{st.st_size} {st.st_mtime_ns}"


def load(path: Path, kind: str, expected: Callable[[str], bool]) -> tuple[sqlite3.Connection | None, str | None]:
    """Open the saved index ``path`` read-only if it is readsim's, of ``kind``, and
    ``expected(its fingerprint)`` holds: ``(connection, None)``. Otherwise ``(None, why)`` with
    ``why`` the reason to rebuild (None when there is no index yet). Never raises for a corrupt
    or foreign file: that is a reason to rebuild."""
    if not path.is_file():
        return None, None
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
    except sqlite3.Error as err:
        return None, f"its index {path} cannot be read ({err})"
    try:
        meta = dict(conn.execute("SELECT key, value FROM readsim_meta"))
        conn.execute("SELECT name FROM readsim_articles LIMIT 1").fetchall()
    except sqlite3.Error as err:
        conn.close()
        return None, f"its index {path} is not a readsim index or is damaged ({err})"
    if meta.get("version") != VERSION or meta.get("kind") != kind:
        conn.close()
        return None, f"its index {path} was made by another version of readsim"
    if not expected(meta.get("fingerprint", "")):
        conn.close()
        return None, "it changed (size or modification time) since its index was built"
    return conn, None


def build(where: Path, kind: str, make: Callable[[str], tuple[Iterable[tuple], str]]) -> None:
    """Build and save the index ``where``: ``make(temporary SQLite file)`` returns the article
    rows (of :data:`COLUMNS`) and the fingerprint (it may put its own tables in the file first);
    :func:`finish` adds readsim's tables, :func:`save` puts the file in place. Raises
    :class:`InputError` naming ``where`` when it cannot be written; an exception of ``make``
    (a cancel, a bad archive) leaves no file behind."""
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".readsim-index-", suffix=".tmp", dir=where.parent)
        os.close(fd)
    except OSError as err:
        raise InputError(where, None, f"cannot write the article index: {err.strerror or err}") from None
    try:
        rows, print_ = make(tmp)
        with sqlite3.connect(tmp) as conn:
            finish(conn, rows, kind, print_)
        conn.close()
        save(tmp, where)
    except (OSError, sqlite3.Error) as err:
        raise InputError(where, None, f"cannot write the article index: {getattr(err, 'strerror', None) or err}") from None
    finally:
        discard(tmp)


def finish(conn: sqlite3.Connection, rows: Iterable[tuple], kind: str, print_: str) -> None:
    """Write readsim's tables into ``conn`` (an index being built): the article ``rows`` (of
    :data:`COLUMNS`, the first of two rows of one name kept), the kind and fingerprint."""
    conn.executescript(SCHEMA)
    conn.executemany(f"INSERT OR IGNORE INTO readsim_articles ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    conn.executemany("INSERT OR REPLACE INTO readsim_meta VALUES (?, ?)",
                     [("version", VERSION), ("kind", kind), ("fingerprint", print_)])
    conn.commit()


def save(tmp: str, path: Path) -> None:
    """Put the finished temporary index ``tmp`` in place at ``path`` atomically
    (:func:`readsim.engine.atomic.atomic_write`: the old index or the new one, never half),
    then remove ``tmp``. Raises ``OSError`` naming ``path``."""
    try:
        with atomic_write(path, "wb") as out, open(tmp, "rb") as src:
            shutil.copyfileobj(src, out, 1 << 20)
    finally:
        discard(tmp)


def discard(tmp: str) -> None:
    """Remove a temporary index (and SQLite's side files), ignoring what is already gone."""
    for name in (tmp, tmp + "-journal", tmp + "-wal", tmp + "-shm"):
        with contextlib.suppress(OSError):
            os.unlink(name)


def lookup(conn: sqlite3.Connection, name: str) -> tuple | None:
    """The row of article ``name`` (:data:`COLUMNS`), or None."""
    return conn.execute(f"SELECT {COLUMNS} FROM readsim_articles WHERE name = ?", (name,)).fetchone()


def names(conn: sqlite3.Connection) -> list[str]:
    """Every article name of an index, sorted (not the rows of other members, named ``"\\0MEMBER"``)."""
    return [n for (n,) in conn.execute("SELECT name FROM readsim_articles WHERE name > char(1) ORDER BY name")]


def build_in_child(kind: str, source: Path, where: Path, print_: str, progress: Progress | None) -> None:
    """Build the index ``where`` of the archive ``source`` (``kind`` ``"zip"`` or ``"tar"``,
    fingerprint ``print_``) in a child process running :data:`CHILD`, and wait for it.

    The child writes one JSON list per line on its standard output: ``["progress", done,
    total, what]``, then ``["done"]`` or the error it met (``["input", path, line, reason]``,
    ``["os", errno, strerror, filename]``). Here ``progress`` is called with the child's
    latest figures at least every :data:`POLL` seconds; when it raises (a Cancel), the child is
    stopped (it removes its temporary file), and the exception goes to the caller. Raises
    :class:`InputError` and ``OSError`` as building in this process would, naming the archive
    (and the member); ``RuntimeError`` with the child's report for anything else (a bug)."""
    child = subprocess.Popen([sys.executable, "-m", CHILD, kind, os.fspath(source), os.fspath(where), print_],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines: queue.SimpleQueue = queue.SimpleQueue()
    report: list[bytes] = []
    threads = [threading.Thread(target=lambda: ([lines.put(x) for x in child.stdout], lines.put(None)), daemon=True),
               threading.Thread(target=lambda: report.append(child.stderr.read()), daemon=True)]
    for t in threads:
        t.start()
    latest: list = [0, 0, f"indexing {source}"]
    outcome = None
    try:
        while True:
            if progress is not None:
                progress(*latest)
            try:
                line = lines.get(timeout=POLL)
            except queue.Empty:
                continue
            if line is None:
                break
            message = json.loads(line)
            if message[0] == "progress":
                latest = message[1:]
            else:
                outcome = message
    except BaseException:
        _stop(child)
        raise
    finally:
        child.wait()
        for t in threads:
            t.join(10)
        child.stdout.close()
        child.stderr.close()
    if outcome is not None and outcome[0] == "input":
        raise InputError(outcome[1], outcome[2], outcome[3])
    if outcome is not None and outcome[0] == "os":
        raise OSError(outcome[1], outcome[2], outcome[3])
    if outcome != ["done"] or child.returncode != 0:
        text = b"".join(report).decode("utf-8", "replace").strip()
        raise RuntimeError(f"indexing {source} failed in its child process (exit status {child.returncode}): {text}")


def _stop(child) -> None:
    """Stop a building child: SIGTERM (it removes its temporary file on the way out), then
    SIGKILL if it has not ended within 10 s."""
    child.terminate()
    try:
        child.wait(10)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
