"""``readsim-eval QRELS RUN`` without ``--collection`` reads no article, so it loads neither the
XML model (lxml, ``readsim.core.text``, ``readsim.core.safe_xml``) nor the collection's index
(sqlite3): those imports are made where an article, a topic file or an XML run is read; and numpy
starts one OpenBLAS thread unless the user set their number. Checked in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys

from readsim.core.samples import sample

SCRIPT = """
import io, sys
from readsim.cli import main
code = main(sys.argv[1:], io.StringIO(), io.StringIO())
print(code, *(name in sys.modules for name in ("lxml", "readsim.core.text", "readsim.core.safe_xml", "sqlite3")))
"""


def loaded(*args) -> list[str]:
    done = subprocess.run([sys.executable, "-c", SCRIPT, *map(str, args)], capture_output=True, text=True, check=True)
    return done.stdout.split()


def test_a_plain_evaluation_imports_no_xml_model():
    s = sample()
    assert loaded(s.qrels, *s.runs, "-j", "1") == ["0", "False", "False", "False", "False"]
    assert loaded(s.qrels, *s.runs, "-j", "1", "-m", "AgP/F(0.25)", "-m", "ANCE@600/LE(300)", "-q") == [
        "0", "False", "False", "False", "False"]


def test_a_collection_loads_it():
    s = sample()
    assert loaded(s.qrels, s.runs[0], "-j", "1", "--collection", s.collection) == ["0", "True", "True", "True", "True"]


def test_one_blas_thread_unless_the_user_says_otherwise():
    import os

    script = "import os, readsim.cli; print(os.environ['OPENBLAS_NUM_THREADS'])"
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env)
    assert done.stdout.split() == ["1"]
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                          env={**env, "OPENBLAS_NUM_THREADS": "3"})
    assert done.stdout.split() == ["3"]
