"""The one-folder bundle (app/bundle, docs/bundle.md): built once per session with PyInstaller,
then run with an environment that has no virtual environment and no Python of the project
(``env -i``-like: PATH=/usr/bin:/bin, HOME, QT_QPA_PLATFORM only). Its ``readsim`` renders the
shipped sample to a PNG; its ``readsim-eval`` prints, byte for byte, what the venv's prints.

Skipped without PyInstaller (the extra ``bundle``), except under CI (``CI=true``), where that
fails. The build takes about 2 min of CPU on the 2-core machine (docs/bundle.md):
the bundle tests are listed in tests/slow-tests.txt, and each waits at most about 10x its
measured time (a hang fails, a busy machine does not).
"""

from __future__ import annotations

import importlib.util
import os
import struct
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from readsim.app.bundle import build as bundle_build
from readsim.app.bundle.launcher import start

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "resources" / "sample"
#: 10x and more the measured times: the build 2 to 7 min of wall time, a screenshot 2 to 3.5 s, readsim-eval 2 s,
#: the figures 9 s for six
BUILD_TIMEOUT = 5400
RUN_TIMEOUT = 300


@pytest.fixture(scope="session")
def bundle(tmp_path_factory) -> Path:
    """The bundle's folder, built once per session."""
    if importlib.util.find_spec("PyInstaller") is None:
        message = "PyInstaller missing (pip install -e '.[bundle]')"
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(f"{message}: CI builds the bundle, it does not skip it", pytrace=False)
        pytest.skip(message)
    return bundle_build.build(tmp_path_factory.mktemp("bundle"), timeout=BUILD_TIMEOUT)


def bare(home: Path) -> dict[str, str]:
    """An environment without the project's virtual environment or Python: no PYTHONPATH, no
    VIRTUAL_ENV, a PATH of the system's folders only."""
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "QT_QPA_PLATFORM": "offscreen"}


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (bytes 16-24, big-endian; PNG specification 11.2.2)."""
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n" and header[12:16] == b"IHDR"
    return struct.unpack(">II", header[16:24])


# -- without PyInstaller ----------------------------------------------------------------------
def test_the_stage_lies_as_the_installed_package(tmp_path):
    staged = bundle_build.stage(ROOT, tmp_path / "stage")
    package = staged / "readsim"
    assert (package / "core" / "samples.py").read_bytes() == (ROOT / "engine" / "core" / "samples.py").read_bytes()
    assert (package / "app" / "bundle" / "launcher.py").is_file()
    assert (package / "resources" / "reference.md").read_bytes() == (ROOT / "docs" / "reference.md").read_bytes()
    assert (package / "resources" / "sample" / "sample.qrels").is_file()
    assert not list(package.rglob("__pycache__"))
    assert "from readsim.cli import main" in (staged / "readsim-eval.py").read_text(encoding="utf-8")
    assert "from readsim.app.main import main" in (staged / "readsim.py").read_text(encoding="utf-8")


def test_a_start_with_dash_m_runs_the_module(tmp_path, monkeypatch):
    (tmp_path / "child_probe.py").write_text("import sys\nprint('child', sys.argv[1:])\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "argv", ["readsim-eval", "-m", "child_probe", "zip", "a b"])
    printed = []
    monkeypatch.setattr("builtins.print", lambda *a: printed.append(a))
    assert start(lambda: 7) == 0
    assert printed == [("child", ["zip", "a b"])]


def test_any_other_start_runs_main(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["readsim-eval", "-q", "-m", "MAP"])
    assert start(lambda: 7) == 7


def test_the_build_command_without_pyinstaller_says_so(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert bundle_build.main([str(tmp_path)]) == 1
    assert capsys.readouterr().err == "readsim bundle: error: PyInstaller is missing: pip install 'readsim[bundle]'\n"


# -- the bundle -------------------------------------------------------------------------------
def test_the_bundle_holds_two_programs_over_one_internal(bundle):
    suffix = ".exe" if sys.platform == "win32" else ""
    assert (bundle / f"readsim{suffix}").is_file() and (bundle / f"readsim-eval{suffix}").is_file()
    assert {p.name for p in bundle.iterdir()} == {"_internal", f"readsim{suffix}", f"readsim-eval{suffix}"}
    shipped = bundle / "_internal" / "readsim" / "resources"
    for name in ("sample/sample.qrels", "sample/runs/misses.run", "sample/articles/900001.xml", "reference.md"):
        assert (shipped / name).read_bytes() == (ROOT / "resources" / name).read_bytes(), name
    assert len(list((shipped / "lessons").glob("*.readsim"))) == len(list((ROOT / "resources" / "lessons").glob("*.readsim")))
    platforms = bundle / "_internal" / "PySide6" / "Qt" / "plugins" / "platforms"
    assert {p.name for p in platforms.iterdir()} >= {"libqoffscreen.so", "libqxcb.so"}


def test_the_window_renders_the_sample_without_the_venv(bundle, tmp_path):
    out = tmp_path / "out.png"
    done = subprocess.run([str(bundle / "readsim"), "--sample", "--screenshot", str(out), "--size", "1280x720"],
                          env=bare(tmp_path), cwd=tmp_path, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert png_size(out) == (1280, 720)
    from PIL import Image

    with Image.open(out) as image:
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
    # a window, not a blank frame: text (anti-aliased: many shades) and no colour over 90% of it
    assert len(colours) > 100
    assert max(n for n, _ in colours) < 0.9 * 1280 * 720


def evaluation(program: Path, sample: Path, home: Path, env: dict[str, str] | None, *extra: str) -> bytes:
    runs = sorted(str(p) for p in (sample / "runs").glob("*.run"))
    done = subprocess.run([str(program), str(sample / "sample.qrels"), *runs, "-q", *extra], env=env, cwd=home,
                          capture_output=True, timeout=RUN_TIMEOUT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_readsim_eval_prints_what_the_venvs_prints(bundle, tmp_path):
    venv = Path(sys.executable).with_name("readsim-eval")
    frozen = evaluation(bundle / "readsim-eval", bundle / "_internal" / "readsim" / "resources" / "sample", tmp_path,
                        bare(tmp_path))
    assert frozen == evaluation(venv, SAMPLE, tmp_path, None)
    # the run written to miss every highlighted passage (resources/sample/generate.py) scores 0
    assert b"AgP/F(0.25)\tall\t0.000000\n" in frozen


def test_an_archive_collection_is_indexed_by_the_bundles_child(bundle, tmp_path):
    """A tar collection's index is built in a child, ``sys.executable -m readsim.core.index_child``:
    in the bundle that is ``readsim-eval -m ...`` (readsim.app.bundle.launcher)."""
    archive = tmp_path / "articles.tar"
    with tarfile.open(archive, "w") as tar:
        for article in sorted((SAMPLE / "articles").glob("*.xml")):
            tar.add(article, arcname=f"articles/{article.name}")
    venv = Path(sys.executable).with_name("readsim-eval")
    options = ("--per-article", "--collection", str(archive))
    frozen = evaluation(bundle / "readsim-eval", SAMPLE, tmp_path, bare(tmp_path), *options)
    index = archive.with_name(archive.name + ".readsim-index.sqlite")
    assert index.is_file()  # built by the bundle's child
    index.unlink()
    assert frozen == evaluation(venv, SAMPLE, tmp_path, None, *options)
    assert frozen.count(b"\n") > 4


def test_figures_are_the_venvs(bundle, tmp_path):
    """matplotlib's backends are named in the spec (no ``matplotlib.use()`` finds them): the SVG is
    the venv's byte for byte, the PNG and PDF are written."""
    runs = sorted(str(p) for p in (SAMPLE / "runs").glob("*.run"))
    venv = Path(sys.executable).with_name("readsim-eval")
    for program, folder, env, suffixes in ((bundle / "readsim-eval", "frozen", bare(tmp_path), ("svg", "png", "pdf")),
                                           (venv, "venv", None, ("svg",))):  # the SVG compared
        (tmp_path / folder).mkdir()
        for suffix in suffixes:
            done = subprocess.run([str(program), "figure", "curve", str(SAMPLE / "sample.qrels"), *runs, "--curve", "gP",
                                   "-o", str(tmp_path / folder / f"gp.{suffix}")], env=env, cwd=tmp_path,
                                  capture_output=True, timeout=RUN_TIMEOUT)
            assert done.returncode == 0, done.stderr
    assert (tmp_path / "frozen" / "gp.svg").read_bytes() == (tmp_path / "venv" / "gp.svg").read_bytes()
    assert (tmp_path / "frozen" / "gp.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "frozen" / "gp.pdf").read_bytes()[:5] == b"%PDF-"


def test_compare_is_the_venvs(bundle, inex, tmp_path):
    """readsim-eval compare's statistics (scipy.stats, which reaches numpy's lazily imported parts)
    on two real runs: the bundle prints what the venv prints."""
    args = ["compare", str(inex / "qrels" / "inex2009-2010.qrels"), str(inex / "runs" / "bert-passages.run"),
            str(inex / "runs" / "indri-passages.run")]
    venv = Path(sys.executable).with_name("readsim-eval")
    printed = []
    for program, env in ((bundle / "readsim-eval", bare(tmp_path)), (venv, None)):
        done = subprocess.run([str(program), *args], env=env, cwd=tmp_path, capture_output=True, timeout=RUN_TIMEOUT)
        assert done.returncode == 0, done.stderr
        printed.append(done.stdout)
    assert printed[0] == printed[1]
    assert b"runs better than their baseline" in printed[0]
