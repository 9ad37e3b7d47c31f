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
(:mod:`readsim.core.atomic`) and reused only while its fingerprint matches; otherwise (changed,
unreadable, another version) it is rebuilt and :func:`load` says why.
"""

from __future__ import annotations

import atexit
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
import urllib.parse
from collections.abc import Callable, Iterable
from pathlib import Path

from .atomic import not_regular, put_in_place
from .errors import InputError

VERSION = "2"  # 2: no view or trigger (ratarmountcore's xattrs dropped), member paths checked
#: the module a child process runs to build an archive's index (:func:`build_in_child`)
CHILD = "readsim.core.index_child"
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


def index_path(source: str | os.PathLike, beside: bool = True, notes: list[str] | None = None) -> Path:
    """Where the index of ``source`` (an archive or a folder) is saved: ``SOURCE.readsim-index.sqlite``
    beside it when ``beside`` and its folder is writable, else in :func:`cache_folder` under a
    name made from the real path's SHA-1 (so two folders of one name never share an index).

    A place that holds anything but a regular file (a symbolic link, a folder, a device, a FIFO)
    is never read, written through or written over (reference 2.10): the next place is taken
    (beside, then the cache folder), and when none will do, a temporary file removed when this
    process exits (no saved index). Each such choice appends a note to ``notes`` saying why."""
    real = os.path.realpath(source)
    folder, name = os.path.split(real)
    digest = hashlib.sha1(os.fsencode(real)).hexdigest()[:16]
    places = [Path(folder) / (name + SUFFIX)] if beside and os.access(folder, os.W_OK | os.X_OK) else []
    places.append(cache_folder() / f"{name}-{digest}{SUFFIX}")
    refused = []
    for place in places:
        what = not_regular(place)
        if what is None:
            if refused and notes is not None:
                notes.append(f"{source}: the article index is saved as {place}: {'; '.join(refused)}")
            return place
        refused.append(f"{place} is {what}, never written over")
    if notes is not None:
        notes.append(f"{source}: the article index is not saved ({'; '.join(refused)}): it is built at every opening")
    return _scratch() / f"{name}-{digest}{SUFFIX}"


_scratch_folder: list[Path] = []


def _scratch() -> Path:
    """A private temporary folder for indexes that cannot be saved, removed when the process exits."""
    if not _scratch_folder:
        _scratch_folder.append(Path(tempfile.mkdtemp(prefix="readsim-indexes-")))
        atexit.register(shutil.rmtree, _scratch_folder[0], True)
    return _scratch_folder[0]


def connect_ro(path: str | os.PathLike) -> sqlite3.Connection:
    """A read-only connection to the SQLite file ``path`` (a ``file:`` URI, the path quoted: a
    ``?`` or ``#`` in a file name is part of the name). Raises ``sqlite3.Error``."""
    return sqlite3.connect(f"file:{urllib.parse.quote(os.fspath(path))}?mode=ro", uri=True, check_same_thread=False)


def fingerprint(path: str | os.PathLike) -> str:
    """``"SIZE MTIME_NS"`` of an archive (bytes, nanoseconds): what an index is valid for."""
    st = os.stat(path)
    return f"{st.st_size} {st.st_mtime_ns}"


#: SQLite virtual-machine steps that checking a saved index (:func:`load`) may take: this many,
#: plus STEPS_PER_BYTE per byte of the file (a real index takes under 1 step per byte)
CHECK_STEPS = 10_000_000
STEPS_PER_BYTE = 16


def _unsafe(column: str) -> str:
    """SQL true when ``column`` is not a relative path that stays inside the collection: not
    text, absolute, with a ``..`` part or a NUL (reference 2.10)."""
    test = (f"typeof({column}) != 'text' OR substr({column}, 1, 1) = '/' "
            f"OR instr('/' || {column} || '/', '/../') > 0 OR instr(CAST({column} AS BLOB), x'00') > 0")
    if os.sep == "\\":  # Windows: a drive, a backslash
        test += f" OR {column} GLOB '[A-Za-z]:*' OR instr({column}, '\\') > 0"
    return test


#: SQL true for a row of ``readsim_articles`` that no build writes (see :func:`_unsafe`)
BAD_ROW = f"typeof(name) != 'text' OR {_unsafe('archive')} OR {_unsafe('member')}"


def _own_schema() -> dict[tuple[str, str], str | None]:
    """``(type, name) -> sql`` of readsim's tables and their automatic indexes, as SQLite keeps them."""
    with contextlib.closing(sqlite3.connect(":memory:")) as conn:
        conn.executescript(SCHEMA)
        return {(t, n): sql for t, n, sql in conn.execute("SELECT type, name, sql FROM sqlite_master")}


def _schema_problem(conn: sqlite3.Connection, tables: Iterable[str]) -> str | None:
    """Why the schema of an index is not one readsim trusts, or None: readsim's tables exactly as
    it creates them, other tables only when named in ``tables`` (and not virtual), indexes only
    on those tables; never a view or a trigger (a recursive view never ends)."""
    own = _own_schema()
    allowed = {name for _, name in own} | set(tables)
    found = set()
    for type_, name, table, sql in conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"):
        found.add((type_, name))
        if (type_, name) in own:
            if sql != own[(type_, name)]:
                return f"its {type_} {name} is not as readsim makes it"
        elif type_ == "table" and name in allowed and not str(sql).upper().startswith("CREATE VIRTUAL"):
            continue
        elif type_ == "index" and table in allowed:
            continue
        else:
            return f"it holds the {type_} {name!r}, which a readsim index has not"
    missing = sorted(name for type_, name in own if (type_, name) not in found)
    return f"it lacks {missing[0]}" if missing else None


def load(path: Path, kind: str, expected: Callable[[str], bool], tables: Iterable[str] = (),
         bad_rows: str = "0", check_rows: bool = True) -> tuple[sqlite3.Connection | None, str | None]:
    """Open the saved index ``path`` read-only if it is readsim's, of ``kind``, and
    ``expected(its fingerprint)`` holds: ``(connection, None)``. Otherwise ``(None, why)`` with
    ``why`` the reason to rebuild (None when there is no index yet, or ``path`` is not a regular
    file: :func:`index_path` never gives one). Never raises for a corrupt or foreign file: that
    is a reason to rebuild.

    The file is data, not trusted (reference 2.10): its schema is checked first
    (:func:`_schema_problem`; ``tables``: other tables its kind keeps, ratarmountcore's for a
    tar), then every row: a path that is absolute or climbs with ``..`` (:data:`BAD_ROW`), or a
    row the SQL condition ``bad_rows`` is true for, is a reason to rebuild. These checks stop
    after :data:`CHECK_STEPS` SQLite steps (plus :data:`STEPS_PER_BYTE` per byte): a reason too.
    ``check_rows=False`` leaves the rows to the caller, who checks each row before it uses it
    (:func:`checked_lookup`): opening an index of a million rows then reads none of them."""
    try:
        if not_regular(path) is not None or not path.exists():
            return None, None
        size = path.stat().st_size
        conn = connect_ro(path)
    except (OSError, sqlite3.Error) as err:
        return None, f"its index {path} cannot be read ({getattr(err, 'strerror', None) or err})"
    limit = CHECK_STEPS + STEPS_PER_BYTE * size
    steps, every = [0], max(1, min(100, limit))

    def count() -> int:  # called every ``every`` steps: a true value interrupts the query
        steps[0] += every
        return steps[0] > limit

    conn.set_progress_handler(count, every)
    try:
        why = _schema_problem(conn, tables)
        if why is None:
            meta = dict(conn.execute("SELECT key, value FROM readsim_meta"))
            if not all(isinstance(v, str) for v in meta.values()):
                why = "its metadata are not text"
            elif meta.get("version") != VERSION or meta.get("kind") != kind:
                conn.close()
                return None, f"its index {path} was made by another version of readsim"
            elif not expected(meta.get("fingerprint", "")):
                conn.close()
                return None, "it changed (size or modification time) since its index was built"
            elif check_rows:
                bad = conn.execute(f"SELECT name, archive, member FROM readsim_articles "
                                   f"WHERE {BAD_ROW} OR {bad_rows} LIMIT 1").fetchone()
                if bad is not None:
                    why = f"its row {bad!r} names no file inside the collection"
    except sqlite3.Error as err:
        why = f"reading it took over {limit:,} SQLite steps" if steps[0] > limit else str(err)
    conn.set_progress_handler(None, 0)
    if why is not None:
        conn.close()
        return None, f"its index {path} is not a readsim index or is damaged ({why})"
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
    """Put the finished temporary index ``tmp`` (in ``path``'s folder) in place at ``path``
    atomically (the old index or the new one, never half), only when ``path`` is absent or a
    regular file (:func:`readsim.core.atomic.put_in_place`: never through or over a link, a
    folder, a device), then remove ``tmp``. Raises ``OSError`` naming ``path``."""
    try:
        put_in_place(tmp, path)
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


def checked_lookup(conn: sqlite3.Connection, name: str, bad_rows: str = "0") -> tuple[tuple | None, bool]:
    """``(row, bad)``: the row of article ``name`` (:data:`COLUMNS`, or None), and whether it is a
    row no build writes (:data:`BAD_ROW` or the SQL condition ``bad_rows``): the check
    :func:`load` makes of every row, made of the one row used (``check_rows=False``)."""
    found = conn.execute(f"SELECT {COLUMNS}, ({BAD_ROW} OR {bad_rows}) FROM readsim_articles WHERE name = ?",
                         (name,)).fetchone()
    return (None, False) if found is None else (found[:-1], bool(found[-1]))


def holds_xml(conn: sqlite3.Connection, xml_member: str) -> bool:
    """Whether an article row of an index has a member path that ``xml_member`` (SQL over the
    column ``member``) calls article XML."""
    return conn.execute(f"SELECT 1 FROM readsim_articles WHERE name > char(1) AND {xml_member} LIMIT 1"
                        ).fetchone() is not None


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
