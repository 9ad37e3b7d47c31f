"""``readsim --screenshot`` imports only what its picture needs: not the element metrics (the
outline dock, closed by default, imports them when it shows an article), not the Runs window's
statistics (scipy), not pandas (the Python API's tables), no thread pool for reading articles
whose length cannot change a number, not ``numpy.ma`` (``np.unique`` imports it; the precision
curve's positions use :func:`readsim.core.intervals.distinct`), not the closed Sensitivity
dock's plots. Run in a child process, as ``import readsim`` is checked
in tests/test_lazy_imports.py. The outline, opened, still derives its element assessments:
tests/app/test_elements_view.py (``test_outline_shows_size_rsize_e_s``) and
tests/app/test_editing.py (``test_outline_retrieve_element``)."""

from __future__ import annotations

import os
import subprocess
import sys

NOT_AT_START = ("readsim.core.element_retrieval", "numpy.ma", "readsim.app.widgets.sensitivity_plot", "scipy", "pandas", "concurrent.futures", "PySide6.QtMultimedia",
                "PySide6.QtPrintSupport", "pyqtgraph.opengl")

CHILD = """
import sys
from readsim.app.main import main
code = main(sys.argv[1:])
print(code, *sorted(name for name in {names!r} if name in sys.modules))
"""


def _imported(tmp_path, *args: str) -> list[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"))
    out = subprocess.run([sys.executable, "-c", CHILD.format(names=NOT_AT_START), *args,
                          "--screenshot", str(tmp_path / "shot.png")], env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "shot.png").stat().st_size > 0
    code, *names = out.stdout.splitlines()[-1].split()  # after "readsim: wrote FILE"
    assert code == "0"
    return names


def test_the_sample_screenshot_imports_none_of_them(tmp_path):
    assert _imported(tmp_path, "--sample") == []


def test_a_real_screenshot_imports_none_of_them(tmp_path, inex):
    assert _imported(tmp_path, "--collection", str(inex / "articles"), "--qrels",
                     str(inex / "qrels" / "inex2009-2010.qrels"), "--run", str(inex / "runs" / "bert-passages.run"),
                     "--topics", str(inex / "topics" / "inex2009-topics.xml"), "--topic", "2009074",
                     "--article", "23724") == []



def test_build_all_leaves_a_hidden_one_until_it_shows(qtbot):
    from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

    from readsim.app.widgets.deferred import Deferred, build_all

    root = QWidget()
    qtbot.addWidget(root)
    lay = QVBoxLayout(root)
    shown, hidden = (Deferred(lambda: QLabel("plot"), eager=False) for _ in range(2))
    lay.addWidget(shown)
    lay.addWidget(hidden)
    hidden.hide()  # as in a closed dock
    root.show()
    build_all(root)
    assert shown.built() and not hidden.built()
    hidden.show()
    assert hidden.built()


def test_the_closed_sensitivity_dock_builds_its_plots_when_opened(qtbot):
    """The sample's screenshot-like start: the plots shown are built once the loading ends, the
    Sensitivity dock's (closed) are not; opened, it draws its curves."""
    from readsim.app.background import activity
    from readsim.app.mainwindow import MainWindow
    from readsim.app.session import Session
    from readsim.app.widgets.deferred import build_all

    w = MainWindow(Session(), show_dialogs=False, restore=False, defer_plots=True)
    qtbot.addWidget(w)
    w.show()
    w.session.open_sample()
    qtbot.waitUntil(lambda: activity().count == 0 and w.session.current is not None, timeout=30_000)
    build_all(w)
    assert w.plot_slot.built() and w.topic_view.curves_slot.built()
    assert not w.sensitivity_dock.isVisible() and not w.sensitivity.slot.built()
    w.act_sensitivity.trigger()
    assert w.sensitivity.slot.built()
    qtbot.waitUntil(lambda: activity().count == 0, timeout=30_000)
    curves = [item for plot in w.sensitivity.plots.findChildren(type(w.plot.plot)) for item in plot.listDataItems()]
    assert curves and all(len(c.getData()[0]) > 1 for c in curves)
