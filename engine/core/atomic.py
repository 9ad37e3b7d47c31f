"""Atomic writes: a file the user saves is either the old one or the new one, never half of each.

:func:`atomic_write` is the one way readsim writes a user's file (a saved run, every export):
the data goes to a temporary file in the target's own folder (``.NAME.XXXXXX.tmp``), which is
flushed and ``fsync``-ed, given the permissions of the file it replaces (or the usual ``0666``
less the umask for a new file), then renamed over the target with ``os.replace`` (atomic on
POSIX and Windows within one file system), and finally the folder is ``fsync``-ed so the rename
itself survives a crash. If anything fails on the way (the caller's code raising, a full disk,
``fsync`` or the rename failing) the temporary file is removed, the target is left exactly as it
was, and the error is raised as an ``OSError`` naming the target path (``err.filename``) with
the system's reason (``err.strerror``, e.g. "No space left on device").

What may be replaced (docs/reference.md section 2.9), checked by :func:`check_target` before
anything is written and again just before the rename:

- a path that does not exist yet: created (its folder must exist);
- a regular file: replaced;
- a symbolic link: followed, and the same rule applied to the file it points to (a link to a
  regular file: that file is replaced and the link stays; a link to a device: refused);
- anything else that exists is refused and left as it is: a folder (``path: Is a directory``),
  a device such as ``/dev/null`` or ``/dev/stdout``, a FIFO, a socket
  (``path: not a regular file (a character device)``). Replacing a device node by a regular
  file (as root, ``/dev/null`` itself) is never what the user asked; a command that can write
  to standard output says so itself (``readsim-eval --write-assessments -``).

:func:`check_output` adds a command's own rule: an output may not be one of the command's input
files (compared by inode, :func:`os.path.samefile`), nor an ``.xml`` file inside its collection
folder (it would be read as an article).

Settings (``QSettings``) are not written here: Qt already writes its settings file this way.
``QConfFileSettingsPrivate::syncConfFile`` (qtbase ``src/corelib/io/qsettings.cpp``, Qt 6)
writes through ``QSaveFile sf(confFile->name); sf.setDirectWriteFallback(!atomicSyncOnly);``
(``atomicSyncOnly`` is true unless ``setAtomicSyncRequired(false)``, which readsim never calls),
and ``QSaveFile::commit`` (``qsavefile.cpp``) flushes, calls ``syncToDisk()`` (``fdatasync``
on Linux) and then ``renameOverwrite``s the temporary file in the same folder, removing it on
any write error. A failed settings write leaves the previous settings file intact.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO


_fdopen = os.fdopen  # how the temporary file is opened (tests replace it to fill the disk half-way)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _fail(err: OSError, path: str) -> OSError:
    """``err`` as an ``OSError`` naming ``path`` (the target, not the temporary file)."""
    return OSError(err.errno or errno.EIO, err.strerror or str(err), path)  # the errno's subclass


_KINDS = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    """What a non-regular file is, in words (``a character device``)."""
    return next((text for test, text in _KINDS if test(mode)), "a special file")


def not_regular(path: str | os.PathLike) -> str | None:
    """None when ``path`` does not exist or is a regular file itself (not a link to one); else
    what it is, in words: ``a symbolic link``, ``a folder``, ``a FIFO (named pipe)``, ... or the
    reason it cannot be looked at. Symbolic links are not followed (:func:`os.lstat`)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as err:
        return f"a path that cannot be looked at ({err.strerror or err})"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "a folder" if stat.S_ISDIR(mode) else _kind(mode)


def check_target(path: str | os.PathLike) -> str:
    """The file a save to ``path`` would replace (symbolic links resolved), after checking that
    it may be replaced: it does not exist yet or is a regular file (see the module).

    Raises ``IsADirectoryError`` (a folder), ``OSError`` with ``strerror``
    ``"not a regular file (a character device)"`` (a device, a FIFO, a socket), or the
    ``OSError`` of looking (``NotADirectoryError`` for a path under a file, ``ELOOP`` for a
    loop of links); each names ``path`` as given."""
    name = os.fspath(path)
    try:  # os.stat follows links the way opening would (also /dev/stdout's /proc/self/fd/1)
        mode = os.stat(name).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as err:
        raise _fail(err, name) from err
    if mode is not None and not stat.S_ISREG(mode):
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", name)
        raise OSError(errno.EINVAL, f"not a regular file ({_kind(mode)})", name)
    return os.path.realpath(name)


def check_output(path: str | os.PathLike, inputs: Iterable[tuple[str, str | os.PathLike | None]]) -> str:
    """:func:`check_target` for a command's output file, and refuse to overwrite what the
    command reads: ``inputs`` are ``(kind, path)`` pairs (``kind`` ``collection`` for the
    articles' folder, else a file such as ``qrels``, ``run``, ``topics``; a ``None`` path is
    skipped); and that the temporary file of :func:`atomic_write` can be made in the target's
    folder (created and removed at once), so that a command fails before its work, not after.
    Returns the resolved target.

    Raises the errors of :func:`check_target`; those of making the temporary file, naming
    ``path`` (``FileNotFoundError`` for a missing folder, ``PermissionError`` for a read-only
    one, ``NotADirectoryError`` for a path under a file); and ``OSError`` (``EINVAL``) naming ``path``
    with ``"is the qrels file this command reads; give another file"`` when it is the same
    file as an input (same inode, links followed), or ``"is inside the collection folder DIR:
    it would be read as an article"`` for an ``.xml`` file below the collection folder."""
    target = check_target(path)
    name = os.fspath(path)
    for kind, source in inputs:
        if source is None:
            continue
        if kind == "collection":
            folder = os.path.realpath(os.fspath(source))
            if target.lower().endswith(".xml") and os.path.commonpath([folder, target]) == folder:
                raise OSError(errno.EINVAL, f"is inside the collection folder {os.fspath(source)}: it would be "
                              "read as an article; give another file", name)
            continue
        try:
            same = os.path.samefile(target, source)
        except (OSError, ValueError):  # either does not exist (yet): not the same file
            same = False
        if same:
            raise OSError(errno.EINVAL, f"is the {kind} file this command reads ({os.fspath(source)}); "
                          "give another file", name)
    folder, base = os.path.split(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{base}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise _fail(err, name) from err
    os.close(fd)
    os.unlink(tmp)
    return target


def _fsync_folder(folder: str) -> None:
    """Make a rename in ``folder`` durable; a no-op where folders cannot be opened (Windows)."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    try:
        fd = os.open(folder, flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems refuse fsync on a folder; the rename is done anyway
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "w", encoding: str | None = "utf-8",
                 newline: str | None = None) -> Iterator[IO]:
    """Open ``path`` for writing, atomically: ``with atomic_write(p) as fh: fh.write(...)``.

    ``mode`` is ``"w"`` (text, ``encoding`` and ``newline`` as for :func:`open`) or ``"wb"``
    (bytes; ``encoding`` and ``newline`` ignored). The target is replaced only when the
    ``with`` block ends without an exception and the data is on disk (flush + ``fsync``);
    otherwise the temporary file is removed and the target is untouched.

    Raises the errors of :func:`check_target` when ``path`` exists and is not a regular file
    (a folder, a device, a FIFO: nothing is written), ``FileNotFoundError`` when its folder does
    not exist, and any other ``OSError`` of the writes, ``fsync`` or rename, each naming
    ``path`` (``str(err)``: ``[Errno 28] No space left on device: 'PATH'``); any other
    exception of the ``with`` block is re-raised as it is. The folder's ``fsync`` after the
    rename is best effort (the new file is in place whatever it says).
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_write: mode must be 'w' or 'wb', not {mode!r}")
    target = check_target(path)
    folder, name = os.path.split(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise _fail(err, os.fspath(path)) from err
    try:
        try:
            old = os.stat(target)
        except FileNotFoundError:
            old = None
        try:
            fh = _fdopen(fd, mode) if mode == "wb" else _fdopen(fd, mode, encoding=encoding, newline=newline)
        except BaseException:
            os.close(fd)
            raise
        with fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        if old is not None:
            os.chmod(tmp, stat.S_IMODE(old.st_mode))
            if hasattr(os, "chown") and (old.st_uid, old.st_gid) != (os.getuid(), os.getgid()):
                with contextlib.suppress(OSError):  # only root may give a file away
                    os.chown(tmp, old.st_uid, old.st_gid)
        else:
            os.chmod(tmp, 0o666 & ~_umask())
        check_target(target)  # again: something else may have taken the name meanwhile
        os.replace(tmp, target)
    except BaseException as err:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(err, OSError) and not isinstance(err, InterruptedError):
            raise _fail(err, os.fspath(path)) from err
        raise
    _fsync_folder(folder)


def write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (:func:`atomic_write`, same errors)."""
    with atomic_write(path, "wb") as fh:
        fh.write(data)


def write_text(path: str | os.PathLike, text: str, encoding: str = "utf-8", newline: str | None = None) -> None:
    """Write ``text`` to ``path`` atomically (:func:`atomic_write`, same errors)."""
    with atomic_write(path, "w", encoding=encoding, newline=newline) as fh:
        fh.write(text)


def put_in_place(tmp: str | os.PathLike, path: str | os.PathLike) -> None:
    """Rename the finished file ``tmp`` (in ``path``'s folder) to ``path``, durably (``tmp``
    and then the folder ``fsync``-ed), only when ``path`` does not exist or is a regular file
    itself: a file readsim owns (an article index, reference 2.9), never written through a
    symbolic link nor over a link, a folder, a device or a FIFO (unlike :func:`atomic_write`,
    which follows a link to the user's file as a save does). Checked just before the rename.

    Raises ``OSError`` naming ``path``: ``EEXIST`` with ``"is a symbolic link: not written
    over"`` (or the kind of file it is), or the error of the ``fsync`` or rename; ``tmp`` is
    left for the caller to remove."""
    name = os.fspath(path)
    try:
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        what = not_regular(name)
        if what is not None:
            raise OSError(errno.EEXIST, f"is {what}: not written over", name)
        os.replace(tmp, name)
    except OSError as err:
        raise _fail(err, name) from err
    _fsync_folder(os.path.dirname(os.path.abspath(name)))
