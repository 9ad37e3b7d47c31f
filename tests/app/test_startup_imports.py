"""``readsim --screenshot`` imports only what its picture needs: not the element metrics (the
outline dock, closed by default, imports them when it shows an article), not the Runs window's
statistics (scipy), not pandas (the Python API's tables), no thread pool for reading articles
whose length cannot change a number. Run in a child process, as ``import readsim`` is checked
in tests/test_lazy_imports.py. The outline, opened, still derives its element assessments:
tests/app/test_elements_view.py (``test_outline_shows_size_rsize_e_s``) and
tests/app/test_editing.py (``test_outline_retrieve_element``)."""

from __future__ import annotations

import os
import subprocess
import sys

NOT_AT_START = ("readsim.engine.elements", "scipy", "pandas", "concurrent.futures", "PySide6.QtMultimedia",
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

