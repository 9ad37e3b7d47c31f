"""Build the one-folder bundle: ``python -m readsim.app.bundle.build OUT`` (docs/bundle.md).

PyInstaller builds for the system it runs on (Linux, macOS or Windows; no cross-building). The
steps:

1. the source tree (the folder of ``pyproject.toml``) is copied as the installed package would
   lie, ``OUT/work/stage/readsim/`` (``engine/``, with ``app/`` as ``readsim/app`` and
   ``resources/`` as ``readsim/resources``: pyproject.toml's ``package-dir``), so PyInstaller
   finds every module whether readsim is installed editable or not;
2. the two launchers are written beside it, ``readsim.py`` (the window's ``main``) and
   ``readsim-eval.py`` (the command line's), each through :func:`readsim.app.bundle.launcher.start`;
3. PyInstaller runs ``readsim.spec`` (this folder) with its work files in ``OUT/work/``.

The result is ``OUT/readsim/``: the programs ``readsim`` and ``readsim-eval`` (``.exe`` on
Windows) and the ``_internal/`` folder they share (Python, Qt, numpy, lxml, scipy,
matplotlib, pyqtgraph and the shipped resources). Exit codes: 0 built; 1 PyInstaller missing,
no source tree, or PyInstaller failed (its output is on stderr); 2 bad usage.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from readsim.core.streams import describe_os_error

#: the source tree: app/bundle/build.py's grandparent
ROOT = Path(__file__).resolve().parent.parent.parent
PYINSTALLER_SPEC = Path(__file__).resolve().with_name("readsim.spec")
#: the programs: name -> the module whose ``main`` it runs
PROGRAMS = {"readsim": "readsim.app.main", "readsim-eval": "readsim.cli"}
LAUNCHER = """import sys

from readsim.app.bundle.launcher import start
from {module} import main

sys.exit(start(main))
"""


def stage(root: Path, where: Path) -> Path:
    """Copy the packages of the source tree ``root`` into ``where`` as installed (each folder of
    pyproject.toml's ``package-dir`` at its dotted name's path, no ``__pycache__``) and write the
    launchers (``PROGRAMS``) in ``where``. Returns ``where``. Raises ``OSError``, ``KeyError``
    when pyproject.toml has no ``package-dir``."""
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    folders = config["tool"]["setuptools"]["package-dir"]
    if where.exists():
        shutil.rmtree(where)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    # "readsim" before "readsim.app": the outer package first, the inner ones copied into it
    for name in sorted(folders, key=lambda n: n.count(".")):
        shutil.copytree(root / folders[name], where / Path(*name.split(".")), ignore=ignore, dirs_exist_ok=True)
    for program, module in PROGRAMS.items():
        (where / f"{program}.py").write_text(LAUNCHER.format(module=module), encoding="utf-8")
    return where


def build(out: Path, root: Path = ROOT, timeout: float | None = None) -> Path:
    """Build the bundle into ``out`` (``out/readsim/``, work files in ``out/work/``) from the
    source tree ``root``, PyInstaller stopped after ``timeout`` seconds (``None``: never).
    Returns the bundle's folder. Raises ``RuntimeError`` when PyInstaller fails (its output's
    last lines in the message), ``subprocess.TimeoutExpired``, ``OSError``."""
    work = out / "work"
    staged = stage(root, work / "stage")
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
               "--distpath", str(out), "--workpath", str(work / "build"), str(PYINSTALLER_SPEC), "--", str(staged)]
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False,
                          timeout=timeout)
    if done.returncode != 0:
        tail = "\n".join(done.stdout.splitlines()[-30:])
        raise RuntimeError(f"PyInstaller failed (exit {done.returncode}):\n{tail}")
    return out / "readsim"


def main(argv: list[str] | None = None) -> int:
    """The command: ``OUT`` (a folder, created). Returns the exit code (module docstring)."""
    p = argparse.ArgumentParser(prog="python -m readsim.app.bundle.build",
                                description="Build readsim's one-folder bundle (OUT/readsim/) with PyInstaller.")
    p.add_argument("out", type=Path, metavar="OUT", help="the folder to build in (OUT/readsim/, OUT/work/)")
    args = p.parse_args(argv)
    if importlib.util.find_spec("PyInstaller") is None:
        print("readsim bundle: error: PyInstaller is missing: pip install 'readsim[bundle]'", file=sys.stderr)
        return 1
    if not (ROOT / "pyproject.toml").is_file():
        print(f"readsim bundle: error: no source tree at {ROOT} (no pyproject.toml): build from a checkout",
              file=sys.stderr)
        return 1
    try:
        bundle = build(args.out.resolve())
    except RuntimeError as exc:
        print(f"readsim bundle: error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"readsim bundle: error: {describe_os_error(exc)}", file=sys.stderr)
        return 1
    print(bundle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
