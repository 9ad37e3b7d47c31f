"""The window's equivalent command as text (readsim.operations.equivalent): the lines written out
by hand for a small state, the quoting of hostile names (shell, awk and Python), and the notes
for what has no file-based equivalent. That the lines print the window's numbers is
tests/app/test_command_dialog.py's (the real INEX data)."""

from __future__ import annotations

import ast
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from readsim.operations.equivalent import ShownState, article_command, topic_command

PANEL = ("aveChP", "ChP@300", "LE(300)", "F(0.25)")
LISTS = ("AgP/F(0.25)", "AgP'/F(0.25)", "gR@5")


def state(**changes) -> ShownState:
    base = dict(qrels="/d/q.qrels", run="/d/r.run", collection="/d/articles", unit="bytes", topic="2009074",
                article="23724", article_measures=PANEL, topic_measures=LISTS)
    return ShownState(**{**base, **changes})


def test_the_article_lines_written_by_hand():
    eq = article_command(state())
    assert eq.shell == ("readsim-eval /d/q.qrels /d/r.run --per-article -m aveChP -m ChP@300 -m 'LE(300)' "
                        "-m 'F(0.25)' --reading natural --collection /d/articles --unit bytes"
                        " | awk -F '\\t' -v t=2009074 -v a=23724 '$2 == t && $3 == a'")
    assert eq.python == ("import readsim\n\nqrels = '/d/q.qrels'\nrun = '/d/r.run'\n"
                         "a = readsim.article(qrels, run, topic='2009074', article='23724', reading='natural',\n"
                         "                    collection='/d/articles', unit='bytes', screen=300, tolerance=300,\n"
                         "                    beta=0.25)\n"
                         "for measure, value in a.scores.items():\n    print(measure, value, sep='\\t')\n")
    assert eq.notes == ()


def test_the_topic_lines_written_by_hand():
    eq = topic_command(state(reading="best", unit="chars", collection=None, levels=6))
    assert eq.shell == ("readsim-eval /d/q.qrels /d/r.run -q -m 'AgP/F(0.25)' -m 'AgP'\"'\"'/F(0.25)' -m gR@5 "
                        "--reading best --unit chars --levels 6 | awk -F '\\t' -v t=2009074 '$2 == t'")
    assert eq.python == ("import readsim\n\nqrels = '/d/q.qrels'\nrun = '/d/r.run'\n"
                         "measures = ['AgP/F(0.25)', \"AgP'/F(0.25)\", 'gR@5']\n"
                         "scores = readsim.evaluate(qrels, run, measures, per='topic', reading='best',\n"  # 89 > 88
                         "                          unit='chars')\n"
                         "shown = scores[scores.topic == '2009074']\n"
                         "for measure, value in zip(shown.measure, shown.value):\n    print(measure, value, sep='\\t')\n")
    assert eq.notes == ("readsim.evaluate has no levels option: its LE and ES use L = 4, the window's L = 6; "
                        "the readsim-eval line (--levels 6) gives the window's",)


HOSTILE = "it's \"a\\b\" $x `y`"  # a quote, double quotes, a backslash, a dollar and backticks


def test_hostile_names_reach_the_program_and_awk_as_they_are(tmp_path):
    folder = str(tmp_path / HOSTILE)
    eq = article_command(state(qrels=folder + "/q.qrels", topic="T 1", article=HOSTILE))
    command, awk = eq.shell.split(" | ")
    argv = shlex.split(command)
    assert argv[1] == folder + "/q.qrels" and argv[2] == "/d/r.run"
    assert argv[argv.index("--reading") + 1] == "natural"
    if shutil.which("awk") is None:
        pytest.skip("no awk")
    rows = f"m\tT 1\t{HOSTILE}\t0.5\nm\tT 1\tother\t0.25\nm\tT\t{HOSTILE}\t0.125\n"
    kept = subprocess.run(awk, shell=True, input=rows, capture_output=True, text=True, check=True).stdout
    assert kept == f"m\tT 1\t{HOSTILE}\t0.5\n"  # one row: this topic's, this article's


def test_hostile_names_are_python_literals():
    eq = article_command(state(qrels="/d/it's \"q\".qrels", article=HOSTILE))
    tree = ast.parse(eq.python)
    assigned = {n.targets[0].id: ast.literal_eval(n.value) for n in tree.body
                if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)}
    assert assigned == {"qrels": "/d/it's \"q\".qrels", "run": "/d/r.run"}
    call = next(n.value for n in tree.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call))
    kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    assert kwargs["article"] == HOSTILE and kwargs["topic"] == "2009074"


def test_an_alpha_of_its_own_is_explained():
    """readsim.article scores T2IF at alpha 1: the panel's T2IF(300,0.5) comes from explain."""
    eq = article_command(state(alpha=0.5, article_measures=("T2IF(300,0.5)", "aveChP")))
    assert "-m 'T2IF(300,0.5)'" in eq.shell
    assert eq.python.endswith("for measure in ['T2IF(300,0.5)', 'aveChP']:\n    print(measure, a.scores[measure] if "
                              "measure in a.scores else a.explain(measure).total, sep='\\t')\n")


def test_an_entry_point_set_in_the_window():
    eq = article_command(state(reading="entry", entry=1234))
    assert eq.notes == ("you set article 23724's entry point at 1,234 (bytes): readsim-eval starts each article at "
                        "the run's entry point, so its line gives the run's numbers; the Python lines (entry=1234) "
                        "give the window's",)
    assert "entry=1234)" in eq.python and "--reading entry" in eq.shell
    # another mode ignores the entry point: nothing to say
    assert article_command(state(reading="natural", entry=1234)).notes == ()
    assert topic_command(state(reading="entry", topic_entries=True)).notes == (
        "you set entry points in articles of topic 2009074: readsim-eval and readsim.evaluate start each article "
        "at the run's entry point, so the lines give the run's numbers",)


def test_unsaved_edits_keep_the_lines_of_the_saved_files():
    eq = article_command(state(unsaved="run r1 has unsaved edits"))
    assert eq.shell and eq.python
    assert eq.notes == ("run r1 has unsaved edits: the lines score the files as saved (the values shown as 'was' "
                        "under the scores); save the run (File ▸ Save run) for lines that give the edited numbers",)
    assert topic_command(state(unsaved="run r1 has unsaved edits")).notes == eq.notes


def test_what_has_no_command():
    frame = state(run="<run DataFrame>")
    for eq in (article_command(frame), topic_command(frame)):
        assert (eq.shell, eq.python) == ("", "")
        assert eq.notes == ("the run is <run DataFrame>, not a file: no command can read it (write it to a file, "
                            "as Qrels.to_frame() and Run.to_frame() give its rows, and open that)",)
    whole = article_command(state(ranked=False))
    assert (whole.shell, whole.python) == ("", "") and "if retrieved whole" in whole.notes[0]
    assert topic_command(state(ranked=False)).shell  # the topic's lines stay
    assert article_command(state(article=None)).notes == ("no article is open",)
    assert topic_command(state(topic=None)).notes == ("no topic is open",)
    assert article_command(state(qrels=None)).notes == ("no qrels file is open",)


def _rows(command: list[str] | str, **kw) -> list[list[str]]:
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""))
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300, **kw)
    assert done.returncode == 0, done.stderr
    return [row.split("\t") for row in done.stdout.splitlines()]


def test_both_lines_on_chromas_json_lines_spans_in_characters(chroma):
    """Chroma's topic 1: relevant [27346, 27425) and [27866, 28023) of state_of_the_union (236
    characters), bm25-chunks250 retrieves [27250, 27500) (79 of them). Read naturally from the
    passage on: ChP@500 = 79/500, ChR@500 = R_set = 79/236, P_set = 79/250; the T2I reader
    stops at 300 non-relevant characters, 171 in the passage and 129 after it: T2IP(300) = 79/379."""
    st = state(qrels=str(chroma / "qrels.jsonl"), run=str(chroma / "runs" / "bm25-chunks250.jsonl"),
               collection=str(chroma / "corpora"), unit="chars", topic="1", article="state_of_the_union",
               screen=500, article_measures=("ChP@500", "ChR@500", "T2IP(300)", "P_set", "R_set"))
    eq = article_command(st)
    shell = {r[0]: float(r[3]) for r in _rows(eq.shell, shell=True)}
    python = {r[0]: float(r[1]) for r in _rows([sys.executable, "-c", eq.python])}
    hand = {"ChP@500": 79 / 500, "ChR@500": 79 / 236, "T2IP(300)": 79 / 379, "P_set": 79 / 250, "R_set": 79 / 236}
    assert shell == pytest.approx(hand, abs=1e-6)  # six decimals
    assert {m: python[m] for m in hand} == pytest.approx(hand, abs=1e-12)
