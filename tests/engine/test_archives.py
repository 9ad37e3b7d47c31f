"""Collections as users hold them (reference section 2.10): a nested folder, zip and tar archives
(plain, gzip, bzip2, xz), a folder of several archives; the saved article index, its reuse and
its rebuild; the collection's article.dtd inside an archive (reference section 2.8).

Archives are generated in tmp_path from the real INEX articles; every kind must give the flat
folder's article texts and ``readsim-eval`` output byte for byte."""

from __future__ import annotations

import gc
import io
import os
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import warnings
import zipfile
from pathlib import Path

import pytest

from readsim.core import article_index as ai
from readsim.core.atomic import put_in_place
from readsim.cli import main
from readsim.core.collection import Collection
from readsim.core.errors import InputError

TAR_MODES = {"a.tar": "w", "a.tar.gz": "w:gz", "a.tar.bz2": "w:bz2", "a.tar.xz": "w:xz"}
SUBSET = 48  # articles per generated collection (the full 1,079 were checked by hand, see the README)


@pytest.fixture(autouse=True)
def cache_home(tmp_path, monkeypatch):
    """Indexes that go to the user cache folder go to a fresh one (also for subprocesses)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _subset(inex: Path) -> list[Path]:
    """The first SUBSET real articles (by name)."""
    return sorted((inex / "articles").glob("*.xml"))[:SUBSET]


def _layout(files: list[Path]) -> dict[str, Path]:
    """relative path -> file: the articles nested two levels deep, in three folders (as the
    Wikipedia collection's ``pages/NNN/``)."""
    return {f"pages/{i % 3:03d}/{f.name}": f for i, f in enumerate(files)}


def make_collections(inex: Path, where: Path) -> dict[str, Path]:
    """The same articles as: a flat folder, a nested folder, a zip, the four tars, a folder of
    two archives (a zip and a .tar.gz, split in halves). The DTD sits where the INEX articles'
    ``../article.dtd`` points: the folder above the articles (``flat``'s parent holds one too)."""
    files = _subset(inex)
    dtd = inex / "article.dtd"
    flat = where / "flatroot" / "articles"
    flat.mkdir(parents=True)
    shutil.copy(dtd, flat.parent / "article.dtd")
    for f in files:
        shutil.copy(f, flat / f.name)
    members = {f"articles/{f.name}": f for f in files}
    nested = where / "nested"
    for member, f in _layout(files).items():
        (nested / member).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(f, nested / member)
    shutil.copy(dtd, nested / "pages" / "article.dtd")  # where pages/NNN/x.xml's ../article.dtd points
    out = {"flat": flat, "nested": nested}
    with zipfile.ZipFile(where / "a.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        zf.write(dtd, "article.dtd")
        for member, f in members.items():
            zf.write(f, member)
    out["zip"] = where / "a.zip"
    for name, mode in TAR_MODES.items():
        with tarfile.open(where / name, mode) as tf:
            tf.add(dtd, "article.dtd")
            for member, f in members.items():
                tf.add(f, member)
        out[name] = where / name
    several = where / "several"
    several.mkdir()
    half = len(files) // 2
    with zipfile.ZipFile(several / "part1.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        for f in files[:half]:
            zf.write(f, f"articles/{f.name}")
    with tarfile.open(several / "part2.tar.gz", "w:gz") as tf:
        for f in files[half:]:
            tf.add(f, f"articles/{f.name}")
    shutil.copy(dtd, several / "article.dtd")  # where ../article.dtd points from the archives' articles/
    out["several"] = several
    return out


@pytest.fixture(scope="module")
def collections(inex, tmp_path_factory):
    where = tmp_path_factory.mktemp("collections")
    return make_collections(inex, where)


KINDS = ["nested", "zip", "a.tar", "a.tar.gz", "a.tar.bz2", "a.tar.xz", "several"]


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_has_the_flat_folders_articles_and_texts(collections, kind):
    flat = Collection(collections["flat"])
    other = Collection(collections[kind])
    assert other.names() == flat.names() and len(flat.names()) == SUBSET
    for name in flat.names()[:6]:
        a, b = other.article(name), flat.article(name)
        assert (a.text, a.length, a.doc_length) == (b.text, b.length, b.doc_length)
        assert name in other and other.path(name) is not None
    assert "0" not in other and other.path("0") is None
    with pytest.raises(KeyError):
        other.article("0")


def _cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


EXTRAS = (("--per-article",), ("--check",), ())


def _eval_argv(inex: Path, extra: tuple[str, ...]) -> list[Path | str]:
    qrels, run = inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "bert-passages.run"
    return [qrels] + ([] if extra == ("--check",) else [run]) + list(extra)


@pytest.fixture(scope="module")
def flat_outputs(inex, collections, tmp_path_factory):
    """``readsim-eval``'s output on the flat folder, the reference of every other kind: run once
    for each set of options (not again for each kind; the flat folder is never changed)."""
    with pytest.MonkeyPatch.context() as mp:  # nothing goes to the user's cache folder
        mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("flat-cache")))
        return {extra: _cli(*_eval_argv(inex, extra), "--collection", collections["flat"]) for extra in EXTRAS}


@pytest.mark.parametrize("kind", ["nested", "zip", "a.tar.gz", "several"])
def test_readsim_eval_output_is_byte_identical_to_the_flat_folder(inex, collections, flat_outputs, kind):
    for extra in EXTRAS:
        flat = flat_outputs[extra]
        other = _cli(*_eval_argv(inex, extra), "--collection", collections[kind])
        assert flat[0] == other[0] and flat[1] == other[1], extra
        assert flat[1].strip(), extra  # the comparison compares something


def test_the_index_is_saved_beside_the_archive_and_reused(tmp_path, collections):
    archive = tmp_path / "copy.tar.gz"
    shutil.copy(collections["a.tar.gz"], archive)
    first = Collection(archive)
    index = Path(str(archive) + ".readsim-index.sqlite")
    assert index.is_file() and first.notes == []
    stamp = index.stat().st_mtime_ns
    again = Collection(archive)
    assert again.notes == [] and index.stat().st_mtime_ns == stamp  # reused, not rewritten
    assert again.names() == first.names()


def test_a_changed_archive_is_reindexed_with_a_message(tmp_path, collections):
    archive = tmp_path / "copy.zip"
    shutil.copy(collections["zip"], archive)
    Collection(archive)
    st = archive.stat()
    os.utime(archive, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    rebuilt = Collection(archive)
    assert len(rebuilt.notes) == 1 and "changed (size or modification time)" in rebuilt.notes[0]
    assert str(archive) in rebuilt.notes[0]
    assert Collection(archive).notes == []  # saved again: the next open reuses it


def test_a_damaged_index_is_rebuilt_with_a_message(tmp_path, collections):
    archive = tmp_path / "copy.tar"
    shutil.copy(collections["a.tar"], archive)
    Collection(archive)
    Path(str(archive) + ".readsim-index.sqlite").write_bytes(b"not a database at all" * 100)
    rebuilt = Collection(archive)
    assert len(rebuilt.notes) == 1 and "not a readsim index or is damaged" in rebuilt.notes[0]
    assert len(rebuilt.names()) == SUBSET


def test_read_only_folder_puts_the_index_in_the_user_cache(tmp_path, collections, cache_home, monkeypatch):
    folder = tmp_path / "ro"
    folder.mkdir()
    archive = folder / "a.zip"
    shutil.copy(collections["zip"], archive)
    monkeypatch.setattr(os, "access", lambda path, mode: not str(path).startswith(str(folder)))
    coll = Collection(archive)
    assert not Path(str(archive) + ".readsim-index.sqlite").exists()
    assert [p.name.startswith("a.zip-") for p in (cache_home / "readsim" / "indexes").iterdir()] == [True]
    assert len(coll.names()) == SUBSET


def test_nested_folder_index_is_saved_and_rebuilt_when_a_folder_changes(tmp_path, collections, cache_home):
    nested = tmp_path / "nested"
    shutil.copytree(collections["nested"], nested)
    first = Collection(nested)
    assert not (cache_home / "readsim" / "indexes").exists()  # indexed at the first need, not before
    assert len(first.names()) == SUBSET
    saved = list((cache_home / "readsim" / "indexes").iterdir())
    assert len(saved) == 1
    reused = Collection(nested)
    assert reused.notes == [] and len(reused.names()) == SUBSET
    stamp = saved[0].stat().st_mtime_ns
    assert Collection(nested).path(first.names()[0]) is not None and saved[0].stat().st_mtime_ns == stamp
    moved = next(p for p in (nested / "pages" / "001").iterdir() if p.suffix == ".xml")
    moved.rename(nested / "pages" / "000" / moved.name)  # both folders' mtimes change
    again = Collection(nested)
    assert again.path(moved.stem) == nested / "pages" / "000" / moved.name
    assert len(again.notes) == 1 and "changed" in again.notes[0]


def test_progress_is_reported_and_can_cancel_the_build(tmp_path, collections):
    archive = tmp_path / "copy.tar.bz2"
    shutil.copy(collections["a.tar.bz2"], archive)
    seen = []
    Collection(archive, progress=lambda done, total, what: seen.append((done, total, what)))
    assert seen and all(str(archive) in what for _, _, what in seen)

    class Stop(Exception):
        pass

    def cancel(done, total, what):
        raise Stop()

    other = tmp_path / "other.zip"
    shutil.copy(collections["zip"], other)
    with pytest.raises(Stop):
        Collection(other, progress=cancel)
    assert not Path(str(other) + ".readsim-index.sqlite").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def _archive_with_dtd(path: Path, dtd: bytes, member: str = "articles/x.xml") -> Path:
    article = b'<?xml version="1.0"?>\n<!DOCTYPE article SYSTEM "../article.dtd">\n<article>a&custom;b</article>\n'
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("article.dtd", dtd)
        zf.writestr(member, article)
    return path


def test_the_archives_own_article_dtd_is_read(tmp_path):
    # the DTD inside the archive declares &custom; as "XY": the text is a + XY + b
    coll = Collection(_archive_with_dtd(tmp_path / "dtd.zip", b'<!ENTITY custom "XY">\n'))
    assert coll.article("x").text == "aXYb"


def test_no_other_dtd_is_read_from_the_archive(tmp_path):
    # the DOCTYPE points at other/article.dtd beside the archive: a real file, but not the
    # collection's article.dtd (reference 2.8), so the built-in table stands: &custom; undefined
    path = tmp_path / "deep.zip"
    article = b'<?xml version="1.0"?>\n<!DOCTYPE article SYSTEM "../../../other/article.dtd">\n<article>a&custom;b</article>\n'
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("article.dtd", b'<!ENTITY custom "XY">\n')
        zf.writestr("deep/er/x.xml", article)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "article.dtd").write_bytes(b'<!ENTITY custom "NO">\n')
    with pytest.raises(InputError) as info:
        Collection(path).article("x")
    assert "undefined entity &custom;" in str(info.value) and f"{path}: deep/er/x.xml:" in str(info.value)


def test_not_a_collection_is_an_error_naming_it(tmp_path):
    other = tmp_path / "notes.txt"
    other.write_text("x")
    with pytest.raises(InputError, match="not a collection"):
        Collection(other)


@pytest.mark.parametrize("name, mode", [("cut.tar", "w"), ("cut.tar.gz", "w:gz")])
def test_an_archive_cut_short_is_an_error_naming_the_member_it_ends_in(inex, tmp_path, name, mode):
    """A tar stream ends with two zero blocks; one cut inside a member (a download stopped half
    way) is refused when it is indexed, naming the member, instead of an index of the members
    before the cut (which would quietly lose every article after it). No index is saved."""
    files = _subset(inex)[:12]
    whole = tmp_path / f"whole-{name}"
    with tarfile.open(whole, mode) as tf:
        for f in files:
            tf.add(f, arcname=f"articles/{f.name}")
    assert len(Collection(whole).names()) == len(files)  # the whole archive is fine
    data = whole.read_bytes()
    cut = tmp_path / name
    # cut inside the 7th member's data: after its header, before its end
    with tarfile.open(whole, "r:*") as tf:
        seventh = tf.getmembers()[6]
    if mode == "w":
        cut.write_bytes(data[: seventh.offset_data + seventh.size // 2])
    else:  # a gzip stream cut at 60%: its decompressed tar ends inside some member
        cut.write_bytes(data[: len(data) * 6 // 10])
    with pytest.raises(InputError) as info:
        Collection(cut).names()
    text = str(info.value)
    assert text.startswith(f"{cut}: articles/") and "truncated archive" in text, text
    if mode == "w":
        assert f"articles/{files[6].name}:" in text, text
    assert not list(tmp_path.glob(f"{name}.readsim-index*")), "no index saved for a cut archive"
    code, out, err = _cli(inex / "qrels" / "inex2009-2010.qrels", "--check", "--collection", cut)
    assert code == 1 and out == "" and "truncated archive" in err and "Traceback" not in err


# -- the saved index is data, not trusted (reference 2.10) -------------------------------------

ONE = b'<?xml version="1.0"?>\n<article><p>first copy</p></article>\n'
TWO = b'<?xml version="1.0"?>\n<article><p>second copy</p></article>\n'


def _small(path: Path, members: dict[str, bytes] | list[tuple[str, bytes]]) -> Path:
    """A zip or tar (plain, .gz, .xz: by suffix) of ``members`` in order (a list may repeat a name)."""
    items = list(members.items()) if isinstance(members, dict) else members
    if path.suffix == ".zip":
        with warnings.catch_warnings(), zipfile.ZipFile(path, "w") as zf:
            warnings.simplefilter("ignore")  # zipfile: "Duplicate name"
            for name, data in items:
                zf.writestr(name, data)
        return path
    mode = {".tar": "w", ".gz": "w:gz", ".xz": "w:xz", ".bz2": "w:bz2"}[path.suffix]
    with tarfile.open(path, mode) as tf:
        for name, data in items:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return path


def _sidecar(archive: Path) -> Path:
    return Path(str(archive) + ".readsim-index.sqlite")


def _plant(where: Path, kind: str, victim: Path) -> None:
    if kind == "link":
        where.symlink_to(victim)
    elif kind == "dangling link":
        where.symlink_to(victim.with_name("nowhere.txt"))
    elif kind == "fifo":
        os.mkfifo(where)
    else:
        where.mkdir()


@pytest.mark.parametrize("name", ["c.zip", "c.tar.gz"])
@pytest.mark.parametrize("kind", ["link", "dangling link", "fifo", "folder"])
def test_an_index_sidecar_that_is_not_a_regular_file_is_never_written(tmp_path, cache_home, name, kind):
    archive = _small(tmp_path / name, {"articles/one.xml": ONE})
    victim = tmp_path / "notes.txt"
    victim.write_bytes(b"my notes\n")
    sidecar = _sidecar(archive)
    _plant(sidecar, kind, victim)
    coll = Collection(archive)
    assert coll.article("one").text.strip() == "first copy"
    assert victim.read_bytes() == b"my notes\n" and not victim.with_name("nowhere.txt").exists()
    assert os.path.lexists(sidecar) and (sidecar.is_symlink() or kind in ("fifo", "folder"))
    saved = list((cache_home / "readsim" / "indexes").iterdir())
    assert len(saved) == 1 and saved[0].is_file() and not saved[0].is_symlink()
    assert len(coll.notes) == 1 and f"{sidecar} is a" in coll.notes[0] and str(saved[0]) in coll.notes[0]
    again = Collection(archive)  # the cache's index is reused
    assert again.notes == coll.notes and saved[0].stat().st_mtime_ns == again._archives[""].index_file.stat().st_mtime_ns


def test_when_no_place_will_do_the_index_is_not_saved(tmp_path, cache_home):
    archive = _small(tmp_path / "c.zip", {"articles/one.xml": ONE})
    victim = tmp_path / "notes.txt"
    victim.write_bytes(b"my notes\n")
    _sidecar(archive).symlink_to(victim)
    cached = ai.index_path(archive, beside=False)
    cached.parent.mkdir(parents=True)
    cached.symlink_to(victim)
    coll = Collection(archive)
    assert coll.article("one").text.strip() == "first copy" and victim.read_bytes() == b"my notes\n"
    assert cached.is_symlink() and _sidecar(archive).is_symlink()
    assert len(coll.notes) == 1 and "the article index is not saved" in coll.notes[0]


def test_the_index_is_never_put_over_a_link_planted_at_the_last_moment(tmp_path):
    victim, link, tmp = tmp_path / "notes.txt", tmp_path / "x.sqlite", tmp_path / "x.tmp"
    victim.write_bytes(b"my notes\n")
    link.symlink_to(victim)
    tmp.write_bytes(b"index")
    with pytest.raises(OSError, match="is a symbolic link: not written over") as info:
        put_in_place(tmp, link)
    assert info.value.filename == str(link) and link.is_symlink() and victim.read_bytes() == b"my notes\n"


def _plant_row(index: Path, row: tuple) -> None:
    with sqlite3.connect(index) as db:
        db.execute("INSERT OR REPLACE INTO readsim_articles VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
    db.close()


def test_folder_index_rows_outside_the_collection_make_it_rebuilt(tmp_path, cache_home):
    """A nested folder's cached index whose rows name a file or an archive outside the
    collection (absolute, or climbing with ..) is rebuilt with a note: the file is never read,
    the other archive never opened nor indexed."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.xml").write_bytes(b"<article>SECRET</article>")
    other = _small(outside / "other.zip", {"articles/secret2.xml": b"<article>SECRET</article>"})
    nested = tmp_path / "coll"
    (nested / "sub").mkdir(parents=True)
    _small(nested / "sub" / "c.zip", {"articles/one.xml": ONE})
    index = ai.index_path(nested, beside=False)
    for row in [("secret", "", str(outside / "secret.xml")), ("secret", "", "../outside/secret.xml"),
                ("secret", "", "sub/../../outside/secret.xml"), ("secret2", str(other), ""),
                ("secret2", "../outside/other.zip", ""), ("secret", "", b"sub/x.xml"), ("secret", "", "sub/notes.csv")]:
        assert Collection(nested).names() == ["one"]  # builds (or rebuilds) a clean index
        _plant_row(index, (*row, None, None, None, None, None, None))
        coll = Collection(nested)
        assert coll.names() == ["one"] and "secret" not in coll and "secret2" not in coll, row
        assert len(coll.notes) == 1 and "names no file inside the collection" in coll.notes[0], (row, coll.notes)
        assert coll.article("one").text.strip() == "first copy"
    assert not _sidecar(other).exists() and sorted(p.name for p in outside.iterdir()) == ["other.zip", "secret.xml"]


@pytest.mark.parametrize("name", ["c.zip", "c.tar"])
def test_archive_index_rows_that_climb_or_have_wrong_types_make_it_rebuilt(tmp_path, name):
    archive = _small(tmp_path / name, {"articles/one.xml": ONE})
    Collection(archive)
    good = Collection(archive)._archives[""].lookup("one")
    bad_rows = [("one", "", "/etc/passwd.xml", *good[3:]), ("one", "", "../x/one.xml", *good[3:]),
                ("one", "other.zip", good[2], *good[3:])]
    if name == "c.zip":
        bad_rows += [(*good[:6], "big", *good[7:]), (*good[:3], -5, *good[4:])]
    for row in bad_rows:
        _plant_row(_sidecar(archive), row)
        coll = Collection(archive)
        assert len(coll.notes) == 1 and "names no file inside the collection" in coll.notes[0], (row, coll.notes)
        assert coll.article("one").text.strip() == "first copy"
        del coll  # its tar reader's read-only connection, before the next row is planted
        gc.collect()


def test_zip_members_that_climb_are_kept_inside_the_archive(tmp_path):
    archive = _small(tmp_path / "up.zip", {"../up/one.xml": ONE, "/abs/two.xml": TWO, "a/../../three.xml": ONE})
    coll = Collection(archive)
    assert coll.names() == ["one", "three", "two"] and Collection(archive).notes == []
    assert coll.path("two") == archive / "abs" / "two.xml" and coll.path("one") == archive / "up" / "one.xml"
    assert coll.article("two").text.strip() == "second copy"


PLANTS = {
    "recursive view": ["DROP TABLE readsim_meta",
                       "CREATE VIEW readsim_meta AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) "
                       "SELECT 'k' || x AS key, x AS value FROM r"],
    "trigger": ["CREATE TABLE log (x)", "CREATE TRIGGER t AFTER INSERT ON log BEGIN SELECT 1; END"],
    "other table": ["CREATE TABLE extra (x)"],
    "changed schema": ["DROP TABLE readsim_articles", "CREATE TABLE readsim_articles (name, archive, member, offset, "
                       "method, packed, size, crc, flags)"],
    "blob metadata": ["UPDATE readsim_meta SET value = x'37' WHERE key = 'fingerprint'"],
}


@pytest.fixture(scope="module")
def indexed_small(tmp_path_factory):
    """name -> a one-article archive of that name, indexed (its index saved beside it), built once
    for the module: a tar's index is built by a child process, about a second each time."""
    where = tmp_path_factory.mktemp("indexed")
    out = {}
    for name in ("c.zip", "c.tar.gz"):
        archive = _small(where / name, {"articles/one.xml": ONE})
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("XDG_CACHE_HOME", str(where / "cache"))
            coll = Collection(archive)
            assert coll.notes == [] and coll.names() == ["one"] and _sidecar(archive).is_file()
        del coll
        gc.collect()  # its index connection, before a test copies the index
        out[name] = archive
    return out


def _indexed_copy(indexed: Path, where: Path) -> Path:
    """A copy of the indexed archive ``indexed`` in ``where`` with its saved index: the archive's
    size and modification time (its fingerprint) kept, so the copy's index is valid as saved."""
    archive = where / indexed.name
    shutil.copy2(indexed, archive)
    shutil.copyfile(_sidecar(indexed), _sidecar(archive))
    return archive


@pytest.mark.parametrize("plant", PLANTS)
@pytest.mark.parametrize("name", ["c.zip", "c.tar.gz"])
def test_a_planted_index_schema_is_rebuilt_never_a_hang(tmp_path, indexed_small, name, plant):
    """readsim-eval in a subprocess (a hang guard of 120 s; it takes about a second): a view,
    a trigger, a foreign table or a changed table in the saved index is a note and a rebuild."""
    archive = _indexed_copy(indexed_small[name], tmp_path)
    assert Collection(archive).notes == []  # the copy's index is reused as saved, before the plant
    with sqlite3.connect(_sidecar(archive)) as db:
        for sql in PLANTS[plant]:
            db.execute(sql)
    db.close()
    (tmp_path / "q.qrels").write_text("2009001 Q0 one 10 40 0 0:10\n")
    done = subprocess.run([sys.executable, "-m", "readsim.cli", str(tmp_path / "q.qrels"), "--check",
                           "--collection", str(archive)], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache")))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert f"{archive}: rebuilding the article index: its index {_sidecar(archive)} is not a readsim index" in done.stderr
    assert Collection(archive).notes == []  # rebuilt clean


def test_checking_an_index_has_a_bounded_cost(tmp_path, monkeypatch):
    archive = _small(tmp_path / "c.zip", {"articles/one.xml": ONE})
    Collection(archive)
    monkeypatch.setattr(ai, "CHECK_STEPS", 0)
    monkeypatch.setattr(ai, "STEPS_PER_BYTE", 0)
    conn, why = ai.load(_sidecar(archive), "zip", lambda saved: True)
    assert conn is None and "reading it took over 0 SQLite steps" in why


def test_an_archive_name_with_uri_characters_reuses_its_index(tmp_path):
    archive = _small(tmp_path / "c#1?x=%20.zip", {"articles/one.xml": ONE})
    assert Collection(archive).article("one").text.strip() == "first copy"
    again = Collection(archive)
    assert again.notes == [] and again.article("one").text.strip() == "first copy"


@pytest.mark.parametrize("name", ["d.zip", "d.tar", "d.tar.gz", "d.tar.xz"])
def test_a_member_twice_reads_the_first_copy(tmp_path, name):
    archive = _small(tmp_path / name, [("article.dtd", b'<!ENTITY w "first">'), ("articles/one.xml", ONE),
                                        ("article.dtd", b'<!ENTITY w "second">'), ("articles/one.xml", TWO)])
    coll = Collection(archive)
    assert coll.names() == ["one"] and coll.article("one").text.strip() == "first copy"
    assert coll._archives[""].member_bytes("article.dtd", 1000) == b'<!ENTITY w "first">'
    (tmp_path / "q.qrels").write_text("2009001 Q0 one 10 40 0 0:10\n")
    code, out, err = _cli(tmp_path / "q.qrels", "--check", "--collection", archive)
    first = len(coll.article("one").text)
    assert code == 0 and f"2009001\tone\tqrels 40\tcomputed {first}\n" in out, out


@pytest.mark.parametrize("compress", [False, True])
@pytest.mark.parametrize("where, expect", [
    ("data", "articles/2.xml: truncated archive: the tar stream ends inside this member (no end-of-archive"),
    ("header", "articles/2.xml: truncated archive: the tar stream ends inside this member's header"),
    ("first bytes of a header", "truncated archive: the tar stream ends after the member articles/1.xml,")])
def test_a_cut_tar_names_the_member_whose_data_is_cut(tmp_path, compress, where, expect):
    """As `tar cf` writes a collection: article.dtd, the folder entry, then the articles; cut
    in the second article never names article.dtd or the folder ``articles``."""
    import gzip
    tree = tmp_path / "tree"
    (tree / "articles").mkdir(parents=True)
    (tree / "article.dtd").write_bytes(b"<!ENTITY w 'w'>\n" * 100)
    for i in (1, 2, 3):
        (tree / "articles" / f"{i}.xml").write_bytes(b"<article>" + b"x" * 5000 + b"</article>")
    whole = tmp_path / "whole.tar"
    with tarfile.open(whole, "w") as tf:
        tf.add(tree / "article.dtd", "article.dtd")
        tf.add(tree / "articles", "articles", recursive=False)
        for i in (1, 2, 3):
            tf.add(tree / "articles" / f"{i}.xml", f"articles/{i}.xml")
    with tarfile.open(whole) as tf:
        second = tf.getmember("articles/2.xml")
    at = {"data": second.offset_data + 100, "header": second.offset_data - 512 + 200,
          "first bytes of a header": second.offset + 50}  # offset: its pax header's (mtime in fractions)
    data = whole.read_bytes()[: at[where]]
    cut = tmp_path / ("cut.tar.gz" if compress else "cut.tar")
    cut.write_bytes(gzip.compress(data) if compress else data)
    with pytest.raises(InputError) as info:
        Collection(cut)
    assert str(info.value).startswith(f"{cut}: {expect}"), str(info.value)
