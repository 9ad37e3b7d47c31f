"""An installed copy holds every package of the source tree: pyproject.toml lists the packages one
by one (the top-level folders map onto ``readsim.*``), so a new subpackage must be listed there or
it is missing from a wheel while the editable install still finds it."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_every_source_package_is_listed():
    config = _config()
    listed = set(config["packages"])
    mapping = config["package-dir"]
    # the most specific mapping first: readsim -> engine/operations, readsim.core -> engine, ...
    folders = sorted(((ROOT / d).resolve(), name) for name, d in mapping.items())
    missing = []
    for top in ("engine", "app"):
        for init in (ROOT / top).rglob("__init__.py"):
            folder = init.parent.resolve()
            owner = max((f for f in folders if folder == f[0] or f[0] in folder.parents),
                        key=lambda f: len(f[0].parts))
            rest = folder.relative_to(owner[0]).parts
            name = ".".join((owner[1], *rest))
            if name not in listed:
                missing.append(f"{folder.relative_to(ROOT)} -> {name}")
    assert missing == []


def test_every_listed_package_exists():
    config = _config()
    mapping = config["package-dir"]
    absent = []
    for name in config["packages"]:
        parts = name.split(".")
        for i in range(len(parts), 0, -1):
            prefix = ".".join(parts[:i])
            if prefix in mapping:
                folder = ROOT / mapping[prefix] / Path(*parts[i:])
                break
        else:
            folder = ROOT / Path(*parts)
        if not folder.is_dir():  # data folders (resources/sample/...) need no __init__.py
            absent.append(name)
    assert absent == []
