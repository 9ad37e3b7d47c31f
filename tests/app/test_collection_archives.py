"""The window opens a collection kept as an archive (reference section 2.10): File menu and drag
and drop take it, its index is built in the background with the progress bar and Cancel (Esc),
and the articles are those of the flat folder."""

from __future__ import annotations

import shutil
import tarfile
import time
import zipfile

import pytest
from PySide6.QtCore import QTimer

from readsim.app.background import activity
from readsim.app.input_files import guess_kind
from readsim.app.mainwindow import MainWindow
from readsim.app.session import Session
from readsim.core import archives
from readsim.core.collection import Collection



TOPIC = "2009074"  # complete in the shipped subset (as tests/app/conftest.py)


def wait_loaded(qtbot, session) -> None:
    qtbot.waitUntil(lambda: activity().count == 0 and session.current is not None, timeout=30_000)


@pytest.fixture(autouse=True)
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.fixture
def window(qtbot):
    session = Session()
    win = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(win)
    win.show()
    return win


def _targz(real, path):
    """The articles of topic 2009074's run and the DTD, as a .tar.gz (as INEX distributed them)."""
    folder = real["collection"]
    with tarfile.open(path, "w:gz") as tf:
        tf.add(folder.parent / "article.dtd", "article.dtd")
        for f in sorted(folder.glob("*.xml")):
            tf.add(f, f"articles/{f.name}")
    return path


def test_dropped_archives_are_collections(tmp_path):
    for name in ("a.zip", "a.tar", "a.tar.gz", "a.tgz", "a.tar.bz2", "a.tar.xz", "A.ZIP"):
        (tmp_path / name).write_bytes(b"")
        assert guess_kind(tmp_path / name) == "collection", name


def test_window_opens_a_tar_gz_with_the_flat_folders_article(qtbot, window, real, tmp_path):
    archive = _targz(real, tmp_path / "inex.tar.gz")
    session = window.session
    session.open_files(collection=archive, qrels=real["paths"] / "qrels" / "inex2009-2010.qrels",
                       runs=[real["paths"] / "runs" / "bert-passages.run"], topic=TOPIC)
    wait_loaded(qtbot, session)
    assert session.collection.root == archive and session.indexing is None
    name = session.current.name
    flat = Collection(real["collection"]).article(name)
    shown = session.current.article
    assert shown is not None and (shown.text, shown.doc_length) == (flat.text, flat.doc_length)
    assert window.errors_shown == []
    assert archive.with_name("inex.tar.gz.readsim-index.sqlite").is_file()


def test_indexing_shows_progress_never_blocks_and_esc_cancels(qtbot, window, real, tmp_path, monkeypatch):
    """A slow build (a stand-in for 2.66 million members: it reports progress until cancelled,
    at most 20 s) runs in the worker: the GUI thread's timer keeps ticking, the bar shows the
    fraction, Esc cancels, the collection is not opened and no index is left."""
    archive = tmp_path / "big.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("articles/one.xml", "<article>one</article>")

    def slow(self, tmp, progress):
        end = time.monotonic() + 20
        done = 0
        while time.monotonic() < end:
            done += 1
            progress(done, 1000, f"indexing {self.label}")  # raises once cancelled
            time.sleep(0.005)
        return []

    monkeypatch.setattr(archives.ZipArchive, "_index_members", slow)
    ticks: list[float] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start(10)
    session = window.session
    session.open_files(collection=archive)
    qtbot.waitUntil(lambda: window.busy.maximum() == 1000 and window.busy.value() > 0, timeout=10_000)
    assert window.cancel_indexing.isVisible() and "(Esc cancels)" in window.status.text()
    window.act_cancel_article.trigger()  # what Esc does (the one cancel action)
    qtbot.waitUntil(lambda: activity().count == 0, timeout=10_000)
    timer.stop()
    assert session.collection is None and session.indexing is None
    assert not archive.with_name("big.zip.readsim-index.sqlite").exists()
    assert window.status.text() == f"Indexing {archive} cancelled: the collection was not opened"
    assert not window.cancel_indexing.isVisible() and window.busy.maximum() == 0
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    assert gaps and max(gaps) < 1.0  # hang guard: 10x the 100 ms the window may block at most


def test_a_damaged_archive_is_a_message_box_text(qtbot, window, tmp_path):
    bad = tmp_path / "bad.tar.gz"
    bad.write_bytes(b"\x1f\x8b\x08\x00" + bytes(200))
    window.session.open_files(collection=bad)
    qtbot.waitUntil(lambda: activity().count == 0 and bool(window.errors_shown), timeout=20_000)
    assert window.errors_shown[0] == f"{bad}: not a tar archive (or not compressed with gzip, bzip2 or xz)"
    assert "Traceback" not in window.errors_shown[0]


def test_copy_of_a_real_zip_opens(qtbot, window, real, tmp_path):
    archive = tmp_path / "inex.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for f in sorted(real["collection"].glob("*.xml"))[:5]:
            zf.write(f, f"articles/{f.name}")
    shutil.copy(real["collection"].parent / "article.dtd", tmp_path / "article.dtd")
    window.open_paths([str(archive)])  # drag and drop
    qtbot.waitUntil(lambda: activity().count == 0 and window.session.collection is not None, timeout=20_000)
    assert len(window.session.collection.names()) == 5


@pytest.mark.parametrize("name", ["dup.tar", "dup.tar.gz", "dup.zip"])
def test_the_window_shows_the_first_copy_of_a_member_twice(qtbot, window, tmp_path, name):
    """Reference 2.10: of two members of one name the first counts, in the window as in readsim-eval."""
    import io
    copies = [b'<?xml version="1.0"?>\n<article><p>first copy</p></article>\n',
              b'<?xml version="1.0"?>\n<article><p>the second, longer copy</p></article>\n']
    archive = tmp_path / name
    if name.endswith(".zip"):
        with pytest.warns(UserWarning), zipfile.ZipFile(archive, "w") as zf:
            for data in copies:
                zf.writestr("articles/one.xml", data)
    else:
        with tarfile.open(archive, "w:gz" if name.endswith(".gz") else "w") as tf:
            for data in copies:
                info = tarfile.TarInfo("articles/one.xml")
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
    (tmp_path / "q.qrels").write_text("2009001 Q0 one 10 12 0 0:10\n")
    (tmp_path / "r.run").write_text("2009001 Q0 one 1 1.0 r 0 10\n")
    session = window.session
    session.open_files(collection=archive, qrels=tmp_path / "q.qrels", runs=[tmp_path / "r.run"], topic="2009001")
    wait_loaded(qtbot, session)
    assert session.current.article is not None and session.current.article.text.strip() == "first copy"
