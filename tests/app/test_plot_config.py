"""Every plot draws on the window's white background, whichever plot is built first.

pyqtgraph reads its configuration when a plot is built; the Sensitivity dock restored from the
last session builds its plots before the precision plot's module is imported, and drew on
pyqtgraph's black default while the configuration was set there. It is set by
:mod:`readsim.app.widgets.plots`, which every plot module imports pyqtgraph through: checked in a
fresh interpreter for each plot module, and by reading the app's imports."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "app"
PLOT_MODULES = ["readsim.app.widgets.sensitivity_plot", "readsim.app.widgets.list_plot",
                "readsim.app.widgets.elements_scores", "readsim.app.widgets.runs.correlation",
                "readsim.app.widgets.precision_plot"]

CHILD = """
import sys, importlib
from PySide6.QtWidgets import QApplication
app = QApplication([])
importlib.import_module(sys.argv[1])
import pyqtgraph as pg
plot = pg.PlotWidget()
print(pg.getConfigOption("background"), plot.backgroundBrush().color().name(), pg.getConfigOption("antialias"))
"""


@pytest.mark.parametrize("module", PLOT_MODULES)
def test_a_plot_module_imported_first_draws_on_white(module):
    done = subprocess.run([sys.executable, "-c", CHILD, module], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["#ffffff", "#ffffff", "True"]  # the light theme's plot background


def test_no_app_module_imports_pyqtgraph_but_the_plots_module():
    importers = []
    for path in APP.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            if any(n == "pyqtgraph" or n.startswith("pyqtgraph.") for n in names):
                importers.append(path.relative_to(APP).as_posix())
    # export.py imports pyqtgraph.exporters and type names where a plot already exists
    assert sorted(set(importers)) == ["export.py", "widgets/plots.py"]


DARK_CHILD = """
import sys, importlib
from PySide6.QtWidgets import QApplication
app = QApplication([])
from readsim.app import appearance as look
look.appearance().set_theme("dark")  # before any plot module is imported (pyqtgraph loads with it)
assert "pyqtgraph" not in sys.modules
importlib.import_module(sys.argv[1])
import pyqtgraph as pg
print(pg.PlotWidget().backgroundBrush().color().name(), look.plot_colours()[0])
"""


def test_a_plot_module_imported_first_in_the_dark_theme_draws_on_dark(tmp_path):
    import os

    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path), HOME=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", DARK_CHILD, "readsim.app.widgets.sensitivity_plot"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    drawn, dark = done.stdout.split()
    assert drawn == dark != "#ffffff"
