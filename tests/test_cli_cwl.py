"""``readsim-eval --cwl DIR`` and the list measures U@L/T2IP(t), TBG@H/T2IP(t) (reference 5.15,
5.16, 9.1): a hand-worked topic, bad usage, and cwl-eval itself on the five real runs."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.cli import run_cli

# Topic 1: article a relevant [0, 10) of 100. The run ranks x (unjudged, its passage [0, 10): its
# length is its last retrieved offset, 10) then a, each retrieving [0, 10).
QRELS = "1 Q0 a 10 100 0 0:10\n"
RUN = "1 Q0 x 1 2 mid 0 10\n1 Q0 a 2 1 mid 0 10\n"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "q").write_text(QRELS)
    (tmp_path / "r").write_text(RUN)
    return tmp_path


def test_the_files_by_hand(files):
    # tolerance 5: x reads 5 non-relevant positions (cost 5, gain 0); a reads its 10 relevant
    # ones, then 5 non-relevant (cost 15, gain 10)
    code, out, err = run_cli(files / "q", files / "r", "--cwl", files / "c", "--cwl-t", 5, "--cwl-L", 20,
                             "--cwl-H", 10)
    assert code == 0, err
    assert out.startswith("mid\t1 topics\tcd ")
    c = files / "c"
    assert (c / "mid.run").read_text() == "1 c5 x 1 -1 mid\n1 c15 a 2 -2 mid\n"
    assert (c / "mid.gains").read_text() == "1 0 x 0\n1 0 a 10\n"
    assert (c / "mid.costs").read_text() == "c5 5\nc15 15\n"
    assert (c / "metrics.txt").read_text() == "UMeasureCWLMetric(20)\nTBGCWLMetric(10)\n"
    # U, L = 20, depth 3 (two articles + 1): costs 5, 15, 1 (padding), starts 0, 5, 20;
    # D = 1, 0.75, 0 (the last item) -> W = 1/1.75, 0.75/1.75, 0; C = 0.75, 0, 0; L = 0.25, 0.75, 0
    # EU = 0.75/1.75 * 10 = 4.2857; ETU = 0.25 * 0 + 0.75 * 10 = 7.5; EC = (5 + 0.75 * 15)/1.75 = 9.2857;
    # ETC = 0.25 * 5 + 0.75 * 20 = 16.25; ED = 1.75
    first = (c / "mid.expected").read_text().splitlines()[0]
    assert first == "1\tU-L@20 \t4.2857\t7.5000\t9.2857\t16.2500\t1.7500"
    assert "mid.gains mid.run -c mid.costs -m metrics.txt --max_gain 10 --max_depth 3" in (c / "README").read_text()


def test_u_and_tbg_by_hand(files):
    # the relevant positions are read after 5 .. 14 others: U(20) = sum (1 - p/20) = 10 - 95/20 = 5.25;
    # TBG(10) = sum 2^(-p/10) for p = 5 .. 14 = 2^-0.5 (1 - 2^-1) / (1 - 2^-0.1) = 5.279516
    code, out, err = run_cli(files / "q", files / "r", "-m", "U@20/T2IP(5)", "-m", "TBG@10/T2IF(5)")
    assert code == 0, err
    assert "U@20/T2IP(5)\tall\t5.250000" in out
    assert "TBG@10/T2IF(5)\tall\t5.279516" in out


@pytest.mark.parametrize("argv, said", [
    (["--cwl", "D", "--per-article"], "--cwl writes files; it does not go with --per-article"),
    (["--cwl", "D", "--cwl-t", "0"], "--cwl-t must be a whole number from 1"),
    (["-m", "U@20/F(0.25)"], "U reads each article up to the T2I stop: write U@20/T2IP(t), not F(0.25)"),
    (["-m", "TBG@0/T2IP(5)"], "the rank cutoff H must be a whole number"),
])
def test_bad_usage(files, argv, said):
    code, out, err = run_cli(files / "q", files / "r", *[a.replace("D", str(files / "d")) for a in argv])
    assert code == 2 and said in err and "Traceback" not in err
    assert not (files / "d").exists()


def test_a_file_in_place_of_the_folder_is_named(files):
    (files / "taken").write_text("mine")
    code, out, err = run_cli(files / "q", files / "r", "--cwl", files / "taken")
    assert code == 1 and err == f"readsim-eval: --cwl {files / 'taken'}: not a folder (the files are written into it)\n"
    assert (files / "taken").read_text() == "mine"


def _cwl_eval() -> list[str]:
    found = shutil.which("cwl-eval") or str(Path(sys.executable).with_name("cwl-eval"))
    if not Path(found).is_file():
        pytest.skip("cwl-eval is not installed (the test extra brings it)")
    return [found]


def _table(text: str) -> dict[tuple[str, str], list[float]]:
    rows = [line.split("\t") for line in text.splitlines()]
    return {(r[0], r[1]): [float(x) for x in r[2:]] for r in rows}


def test_cwl_eval_agrees_on_the_five_real_runs(inex, tmp_path):
    runs = sorted((inex / "runs").glob("*.run"))
    assert len(runs) == 5
    folder = tmp_path / "cwl"
    code, out, err = run_cli(inex / "qrels" / "inex2009-2010.qrels", *runs, "--cwl", folder,
                             "--cwl-L", 100000, "--cwl-H", 20000)
    assert code == 0, err
    labels = [line.split("\t")[0] for line in out.splitlines()]
    assert len(labels) == 5
    code, text, err = run_cli(inex / "qrels" / "inex2009-2010.qrels", *runs, "-q", "--format", "jsonl",
                              "-m", "TBG@20000/T2IP(300)")
    assert code == 0, err
    tbg_values = {(r["run"], r["topic"]): r["value"] for r in map(json.loads, text.splitlines())}
    for label in labels:
        command = (folder / "README").read_text().split(f"cwl-eval {label}.gains ")[1].split(" >")[0].split()
        theirs = subprocess.run(_cwl_eval() + [f"{label}.gains", *command], cwd=folder, capture_output=True,
                                text=True, check=True).stdout
        ours = (folder / f"{label}.expected").read_text()
        a, b = _table(theirs), _table(ours)
        assert a.keys() == b.keys() and len(a) > 200  # every judged topic, U and TBG
        for key in a:  # both printed to 4 decimals: at most one in the last place apart
            assert a[key] == pytest.approx(b[key], abs=1.01e-4), (label, key)
        # TBG over characters: cwl-eval's ETU with the within-article gains is readsim's TBG@H
        tbg = subprocess.run(_cwl_eval() + [f"{label}.tbg20000-gains", *command], cwd=folder, capture_output=True,
                             text=True, check=True).stdout
        etu = {k[0]: v[1] for k, v in _table(tbg).items() if k[1] == "TBG-H@20000 "}
        assert etu.keys() == {t for t, _ in a}
        for topic, value in etu.items():
            assert value == pytest.approx(tbg_values[(label, topic)], abs=1.01e-4), (label, topic)
