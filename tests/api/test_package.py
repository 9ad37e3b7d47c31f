"""The readsim package: one name per module, a light import, the public names."""

from __future__ import annotations

import subprocess
import sys

import pytest

import readsim
from readsim.core import errors


def test_errors_and_warnings_are_the_engines_own_classes():
    assert readsim.InputError is errors.InputError
    assert readsim.InputWarning is errors.InputWarning
    assert issubclass(readsim.InputWarning, UserWarning)


def test_each_import_name_is_its_folder():
    # docs/architecture.md: engine/ is the readsim package, app/ is readsim.app, resources/ is
    # readsim.resources; readsim.X is engine/X otherwise
    import readsim.app
    import readsim.cli
    import readsim.core.formats
    import readsim.operations
    import readsim.resources
    from pathlib import Path

    def folder(module):
        return Path(module.__file__).parent

    top = folder(readsim)
    assert top.name == "engine"
    assert folder(readsim.core) == top / "core"
    assert folder(readsim.core.formats) == top / "core" / "formats"
    assert folder(readsim.operations) == top / "operations"
    assert folder(readsim.cli) == top / "cli"
    assert folder(readsim.app).name == "app" and folder(readsim.resources).name == "resources"


def test_every_public_name_resolves():
    for name in readsim.__all__:
        assert getattr(readsim, name) is not None, name
    assert readsim.__version__ == "0.1.0"
    assert set(readsim.__all__) <= set(dir(readsim))
    with pytest.raises(AttributeError):
        readsim.no_such_name  # noqa: B018


def test_import_readsim_loads_no_pandas_scipy_or_qt():
    code = ("import sys, readsim, readsim.cli\n"
            "heavy = [m for m in ('pandas', 'scipy', 'PySide6', 'pyqtgraph') if m in sys.modules]\n"
            "print(heavy); sys.exit(1 if heavy else 0)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_parse_measure_gives_canonical_names():
    assert readsim.parse_measure("AgP/F(.25)").name == "AgP/F(0.25)"
    assert readsim.parse_measure("F(0.25)").name == "F(0.25)"
    with pytest.raises(ValueError):
        readsim.parse_measure("bogus")
