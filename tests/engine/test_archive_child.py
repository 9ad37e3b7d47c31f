"""A tar archive's index is built in a child process (reference 2.10; so that importing
ratarmountcore never holds the window's GIL): its progress reaches the caller, a Cancel stops
the child and leaves neither an index nor a temporary file, and its errors are the caller's
``InputError`` naming the archive, as a build in the process itself would raise."""

from __future__ import annotations

import gzip
import io
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from readsim.core.collection import Collection
from readsim.core.errors import InputError


@pytest.fixture(autouse=True)
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def _targz(path: Path, members: int) -> Path:
    # the tar in memory, compressed in one call (gzip level 1, as tarfile's "w:gz" would): the
    # same archive, without gzip's per-write cost on 60,000 members (half the time)
    tar = io.BytesIO()
    with tarfile.open(fileobj=tar, mode="w") as tf:
        for i in range(members):
            data = f"<article><p>article {i}</p></article>\n".encode()
            info = tarfile.TarInfo(f"articles/{i}.xml")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    path.write_bytes(gzip.compress(tar.getvalue(), compresslevel=1))
    return path


@pytest.fixture(scope="module")
def big_targz(tmp_path_factory) -> Path:
    """A .tar.gz of 60,000 small articles, whose index takes the child a while to build: written
    once for the module (about 6 s of CPU), each test indexes its own copy (:func:`_big`)."""
    return _targz(tmp_path_factory.mktemp("big") / "big.tar.gz", 60_000)


def _big(big_targz: Path, where: Path) -> Path:
    """A copy of the big archive in ``where``, never indexed (the index goes beside it)."""
    archive = where / "big.tar.gz"
    shutil.copyfile(big_targz, archive)
    return archive


@pytest.fixture
def children(monkeypatch) -> list[subprocess.Popen]:
    started: list[subprocess.Popen] = []
    real = subprocess.Popen

    def record(*args, **kwargs):
        started.append(real(*args, **kwargs))
        return started[-1]

    monkeypatch.setattr(subprocess, "Popen", record)
    return started


def test_the_index_is_built_by_a_child_and_read_here(tmp_path, children):
    archive = _targz(tmp_path / "a.tar.gz", 3)
    coll = Collection(archive)
    assert len(children) == 1 and children[0].returncode == 0
    assert "readsim.core.index_child" in children[0].args
    assert coll.names() == ["0", "1", "2"] and coll.article("2").text == "article 2"


def test_a_cancel_stops_the_child_and_leaves_nothing(tmp_path, children, big_targz):
    archive = _big(big_targz, tmp_path)

    class Stop(Exception):
        pass

    seen: list[tuple] = []

    def cancel(done, total, what):
        seen.append((done, total, what))
        if done > 0:  # the child has begun reading the archive: its temporary index exists
            raise Stop()

    with pytest.raises(Stop):
        Collection(archive, progress=cancel)
    assert len(children) == 1 and children[0].returncode is not None  # ended, not left running
    assert all(str(archive) in what for _, _, what in seen)
    assert [p.name for p in tmp_path.iterdir()] == ["big.tar.gz"]  # no index, no .tmp


def test_the_childs_error_names_the_archive(tmp_path, children):
    bad = tmp_path / "bad.tar.gz"
    bad.write_bytes(b"\x1f\x8b\x08\x00" + bytes(200))
    with pytest.raises(InputError) as info:
        Collection(bad)
    assert str(info.value) == f"{bad}: not a tar archive (or not compressed with gzip, bzip2 or xz)"
    assert len(children) == 1 and children[0].returncode == 1
    assert [p.name for p in tmp_path.iterdir()] == ["bad.tar.gz"]


def test_the_child_stops_when_its_parent_dies(tmp_path, big_targz):
    """A window killed during a build: its child's next progress line finds no reader (a broken
    pipe), and it stops, leaving neither an index nor a temporary file, instead of finishing a
    build nobody waits for."""
    import os
    import signal
    import sys
    import time

    archive = _big(big_targz, tmp_path)
    script = ("import sys; from readsim.core.collection import Collection\n"
              "def progress(done, total, what):\n"
              "    if done > 0: print('building', flush=True)\n"
              "Collection(sys.argv[1], progress=progress)\n")
    parent = subprocess.Popen([sys.executable, "-c", script, str(archive)], stdout=subprocess.PIPE, text=True)
    assert parent.stdout.readline() == "building\n"  # the child is reading the archive
    assert any(p.name.endswith(".tmp") for p in tmp_path.iterdir())
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    parent.stdout.close()
    end = time.monotonic() + 60  # hang guard: the child stops within a second once orphaned
    while any(p.name.endswith(".tmp") for p in tmp_path.iterdir()) and time.monotonic() < end:
        time.sleep(0.05)
    assert [p.name for p in tmp_path.iterdir()] == ["big.tar.gz"]  # no index saved, no .tmp left
