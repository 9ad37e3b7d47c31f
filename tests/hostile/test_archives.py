"""Hostile collections kept as archives (reference section 2.10): corrupt, truncated, empty, not
an archive at all. Each is ``readsim-eval QRELS RUN --collection ARCHIVE`` in a subprocess (a
hang guard of 120 s: an article read takes milliseconds) that must end with exit 1 and
``ARCHIVE: reason`` (``ARCHIVE: MEMBER: reason`` when a member is damaged), never a traceback."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from .cases import ERROR, SAME, WARNING, Case

ARTICLE = b'<?xml version="1.0"?>\n<article><p>' + b"word " * 4000 + b"</p></article>\n"
QRELS = "2009001 Q0 one 100 20000 0 0:100\n"
RUN = "2009001 Q0 one 1 1.0 r 0 100\n"


def _zip(path: Path) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("articles/one.xml", ARTICLE)
    return path


def _tar(path: Path, mode: str) -> Path:
    with tarfile.open(path, mode) as tf:
        info = tarfile.TarInfo("articles/one.xml")
        info.size = len(ARTICLE)
        tf.addfile(info, io.BytesIO(ARTICLE))
    return path


def _flip_member_bytes(path: Path) -> Path:
    """Damage the zip's deflated data of the member (its CRC then fails)."""
    data = bytearray(path.read_bytes())
    at = data.index(b"articles/one.xml") + len("articles/one.xml") + 40
    data[at:at + 40] = bytes(40)
    path.write_bytes(bytes(data))
    return path


def _truncate(path: Path, keep: float) -> Path:
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])
    return path


def _zero_half(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] + bytes(len(data) - len(data) // 2))


def _damage_after_index(path: Path, damage) -> Path:
    """Index the good archive first (as a user's earlier run did), then damage it in place
    keeping size and modification time, so the saved index is reused and the read must fail."""
    _cli(path)
    st = path.stat()
    damage(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    return path


CASES = [
    # the run retrieves exactly the relevant passage 0:100: P = R = 1, so F(0.25) = 1
    Case("zip-clean", "a good zip of one article", SAME, "F(0.25)\t2009001\tone\t1.000000\n"),
    Case("targz-clean", "a good .tar.gz of one article", SAME, "F(0.25)\t2009001\tone\t1.000000\n"),
    Case("zip-not-zip", "a .zip file holding text", ERROR, "not a readable zip archive",
         {"make": lambda p: (p.write_text("hello\n"), p)[1], "name": "a.zip"}),
    Case("zip-truncated", "a zip cut at half (its central directory lost)", ERROR, "not a readable zip archive",
         {"make": lambda p: _truncate(_zip(p), 0.5), "name": "a.zip"}),
    Case("zip-member-damaged", "a zip whose member's compressed bytes were zeroed after indexing", ERROR,
         "a.zip: articles/one.xml: damaged",
         {"make": lambda p: _damage_after_index(_zip(p), _flip_member_bytes), "name": "a.zip"}),
    Case("targz-zeroed-after-index", "a .tar.gz whose second half was zeroed after its index was built", ERROR,
         "a.tar.gz: articles/one.xml:",  # indexed_gzip checks no CRC: the XML parser sees the garbage
         {"make": lambda p: _damage_after_index(_tar(p, "w:gz"), _zero_half), "name": "a.tar.gz"}),
    Case("targz-truncated", "a .tar.gz cut at half before it was ever indexed (its stream ends inside its one member)",
         ERROR, "truncated archive", {"make": lambda p: _truncate(_tar(p, "w:gz"), 0.5), "name": "a.tar.gz"}),
    Case("tar-garbage", "a .tar file of random bytes", ERROR, "a.tar:",
         {"make": lambda p: (p.write_bytes(os.urandom(5000)), p)[1], "name": "a.tar"}),
    Case("tarbz2-not-bzip2", "a .tar.bz2 that is a plain text file", ERROR, "a.tar.bz2:",
         {"make": lambda p: (p.write_text("not bzip2\n" * 100), p)[1], "name": "a.tar.bz2"}),
    Case("empty-zip", "a zip with no member", WARNING, "no article",
         {"make": lambda p: (zipfile.ZipFile(p, "w").close(), p)[1], "name": "a.zip"}),
]
CASES[0].data.update({"make": _zip, "name": "a.zip"})
CASES[1].data.update({"make": lambda p: _tar(p, "w:gz"), "name": "a.tar.gz"})


def _cli(collection: Path, *extra: str) -> subprocess.CompletedProcess:
    folder = collection.parent
    (folder / "q.qrels").write_text(QRELS)
    (folder / "r.run").write_text(RUN)
    env = dict(os.environ, XDG_CACHE_HOME=str(folder / "cache"))
    return subprocess.run([sys.executable, "-m", "readsim.cli", str(folder / "q.qrels"), str(folder / "r.run"),
                           "--collection", str(collection), "--per-article", *extra],
                          capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.parametrize("case", CASES, ids=Case.name)
def test_hostile_archive(case, tmp_path):
    path = case.data["make"](tmp_path / case.data["name"])
    done = _cli(path)
    assert "Traceback" not in done.stderr
    if case.outcome == SAME:
        assert done.returncode == 0, done.stderr
        assert done.stdout == case.expect
    elif case.outcome == WARNING:
        assert done.returncode == 0 and case.expect in done.stderr and str(path) in done.stderr, done.stderr
    else:
        assert done.returncode == 1, (done.returncode, done.stderr)
        assert case.expect in done.stderr, done.stderr
        assert str(path) in done.stderr or str(path.name) in done.stderr


@pytest.mark.parametrize("name", ["c.zip", "c.tar.gz"])
def test_a_planted_index_link_beside_a_downloaded_archive_overwrites_nothing(tmp_path, name):
    """``c.zip.readsim-index.sqlite -> notes.txt`` beside the archive: readsim-eval gives the
    clean numbers, notes.txt is untouched and the link stays; the index goes to the cache folder."""
    archive = _zip(tmp_path / name) if name.endswith(".zip") else _tar(tmp_path / name, "w:gz")
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"my notes\n")
    link = Path(f"{archive}.readsim-index.sqlite")
    link.symlink_to(notes)
    for _ in range(2):
        done = _cli(archive)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        assert done.stdout == "F(0.25)\t2009001\tone\t1.000000\n"
        assert f"{link} is a symbolic link, never written over" in done.stderr, done.stderr
        assert notes.read_bytes() == b"my notes\n" and link.is_symlink()
    assert len(list((tmp_path / "cache" / "readsim" / "indexes").iterdir())) == 1
