"""``readsim-eval figure`` and the API's figures (reference section 12.5): on compare's hand-worked
runs (numbers by hand), and on the real runs, where the plotted bars are ``readsim-eval compare
--per-topic``'s differences and ``readsim-eval -q``'s per-topic values subtracted, and the curve's
points are ``readsim-eval -m``'s means."""

from __future__ import annotations

import io
import json
import math
import sys

import pytest

import readsim
from readsim.operations.figures import plot_curves

from helpers.cli import records, run_cli

T_975_2 = 4.302652729911275  # Student's t, 0.975 quantile, 2 degrees of freedom (tables)
MAGIC = {"svg": b"<?xml", "pdf": b"%PDF", "png": b"\x89PNG"}


# -- hand-worked: good AgP (1, 1, 1), mid (1/2, 1, 1/2) ----------------------------------------------------


def test_topics_of_two_hand_worked_runs(files, tmp_path):
    out = tmp_path / "topics.svg"
    code, text, err = run_cli("figure", "topics", files["q"], files["mid"], files["good"], "-o", out)
    assert code == 0, err
    # mid - good = (-1/2, 0, -1/2): mean -1/3, sd sqrt(1/12), interval -1/3 +- t(0.975, 2) sd / sqrt(3)
    half = T_975_2 * math.sqrt(1 / 12) / math.sqrt(3)
    assert text == (f"{out}: AgP/F(0.25), mid - good on 3 topics: mean -0.3333, 95% paired t interval "
                    f"[{-1 / 3 - half:+.4f}, {-1 / 3 + half:+.4f}]\n")
    assert text.endswith("[-1.0504, +0.3838]\n")
    assert out.read_bytes().startswith(MAGIC["svg"])


def test_the_api_draws_the_bars_in_order_with_the_mean_and_band(files):
    pytest.importorskip("matplotlib")
    c = readsim.compare(files["q"], [files["mid"], files["good"], files["bad"]], ["AgP/F(0.25)"], test="t")
    fig = c.plot_topics(run="bad", reference="mid")
    ax = fig.axes[0]
    bars = ax.containers[0]
    # bad - mid = (-1/2, -1, -1/2): topics 1 and 3 (by id) before 2
    assert [b.get_height() for b in bars] == pytest.approx([-0.5, -0.5, -1.0])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "3", "2"]
    assert {b.get_facecolor()[:3] for b in bars} == {(198 / 255, 40 / 255, 40 / 255)}  # red: worse everywhere
    mean_line = [line for line in ax.lines if line.get_linestyle() == "--"][0]
    assert mean_line.get_ydata()[0] == pytest.approx(-2 / 3)
    fig, ax = __import__("readsim.operations.figures", fromlist=["new_axes"]).new_axes()
    assert c.plot_topics(ax) is fig  # onto the caller's axes
    with pytest.raises(ValueError, match="no run 'nope'"):
        c.plot_topics(run="nope")
    with pytest.raises(ValueError, match=r"\.svg, \.pdf or \.png"):
        c.plot_topics("figure.jpg")


@pytest.mark.parametrize("fmt", ["svg", "pdf", "png"])
def test_the_suffix_chooses_the_format_and_the_write_is_atomic(files, tmp_path, fmt):
    out = tmp_path / f"curve.{fmt}"
    out.write_bytes(b"old")
    code, text, err = run_cli("figure", "curve", files["q"], files["good"], files["mid"], "-o", out)
    assert code == 0, err
    assert out.read_bytes().startswith(MAGIC[fmt])
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left
    # at recall 0 the interpolated gP is the best gP reached: good 1 on every topic; mid 1 (topic 2's rank 1)
    # or 1/2 (topics 1 and 3: rank 2's gP): mean 2/3
    assert text.endswith("at ircl_prn.0.00/F(0.25): good 1.0000, mid 0.6667\n")


def test_usage_errors_name_the_option(files, tmp_path):
    code, _, err = run_cli("figure", "topics", files["q"], files["good"], "-o", tmp_path / "x.svg")
    assert code == 2 and "give 2 runs or more" in err
    code, _, err = run_cli("figure", "topics", files["q"], files["good"], files["mid"], "-o", tmp_path / "x.gif")
    assert code == 2 and "x.gif: a figure is written as .svg, .pdf or .png" in err
    code, _, err = run_cli("figure", "topics", files["q"], files["good"], files["mid"], "--run", "nope",
                           "-o", tmp_path / "x.svg")
    assert code == 2 and "--run 'nope' is not one of the runs (good, mid)" in err
    code, _, err = run_cli("figure", "curve", files["q"], files["good"], "--ranks", "0", "-o", tmp_path / "x.svg")
    assert code == 2 and "ranks" in err
    code, _, err = run_cli("figure", "topics", files["q"], files["good"], files["mid"], "--level", "1",
                           "-o", tmp_path / "x.svg")
    assert code == 2 and "level" in err
    code, _, err = run_cli("figure", "curve", files["q"], files["good"], "-o", tmp_path)
    assert code == 2
    code, _, err = run_cli("figure", "curve", files["q"], files["good"], "-o", tmp_path / "none" / "x.svg")
    assert code == 1 and err == f"readsim-eval: {tmp_path / 'none' / 'x.svg'}: No such file or directory\n"
    assert not list(tmp_path.glob("x.*"))


def test_without_matplotlib_a_message_names_the_extra(files, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    code, _, err = run_cli("figure", "curve", files["q"], files["good"], "-o", tmp_path / "x.svg")
    assert code == 1
    assert err == ("readsim-eval figure: figures need matplotlib, the optional extra 'plots': "
                   "pip install 'readsim[plots]'\n")
    c = readsim.compare(files["q"], [files["mid"], files["good"]], ["AgP/F(0.25)"], test="t")
    with pytest.raises(ImportError, match=r"readsim\[plots\]"):
        c.plot_topics()
    assert not (tmp_path / "x.svg").exists()


# -- the real runs -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real(inex):
    runs = inex / "runs"
    return inex / "qrels" / "inex2009-2010.qrels", runs / "indri-passages.run", runs / "indri-documents.run"


def test_real_bars_are_compare_per_topic_differences_and_q_values(real, tmp_path):
    pytest.importorskip("matplotlib")
    qrels, passages, documents = real
    code, out, err = run_cli("compare", qrels, passages, documents, "--per-topic", "--no-doc", "--test", "t",
                             "--format", "jsonl")
    assert code == 0, err
    rows = [r for r in records(out, "topic") if r["run"] == "indri"]
    assert len(rows) == 120 and {r["reference"] for r in rows} == {"indri-passages"}
    c = readsim.compare(qrels, [passages, documents], ["AgP/F(0.25)"], test="t")
    fig = c.plot_topics(tmp_path / "real.png")
    bars = fig.axes[0].containers[0]
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    heights = [b.get_height() for b in bars]
    # compare --per-topic lists where indri gains most first: the plot's order, bar for bar
    assert [r["diff"] for r in rows] == heights
    assert labels == [r["topic"] for r in rows][::2]  # 120 topics: every second one labelled
    # readsim-eval -q on each run alone: 6 decimals each, so within 1e-6
    values = {}
    for run in (passages, documents):
        code, out, _ = run_cli(qrels, run, "-q")
        values[run] = {f[1]: float(f[2]) for f in (line.split() for line in out.splitlines()) if f[1] != "all"}
    topics = [r["topic"] for r in rows]
    assert heights == pytest.approx([values[documents][t] - values[passages][t] for t in topics], abs=1.01e-6)
    # the real numbers, once: indri loses 0.0041 on average, on 101 of 120 topics (compare: "101/1/18")
    d = c.differences()
    assert (round(d.mean, 4), round(d.low, 4), round(d.high, 4)) == (-0.0041, -0.0051, -0.0032)
    assert (sum(h < 0 for h in heights), sum(h == 0 for h in heights)) == (101, 1)
    assert (tmp_path / "real.png").read_bytes().startswith(MAGIC["png"])


def test_real_curve_points_are_readsim_eval_means(real, tmp_path):
    pytest.importorskip("matplotlib")
    qrels, passages, documents = real
    fig = plot_curves(qrels, [passages, documents], tmp_path / "curve.svg")
    lines = fig.axes[0].lines
    assert [line.get_label() for line in lines] == ["indri-passages (120 topics)", "indri (120 topics)"]
    names = [f"ircl_prn.{x / 10:.2f}/F(0.25)" for x in range(11)]
    argv = [a for n in names for a in ("-m", n)]
    code, out, _ = run_cli(qrels, passages, *argv, "--format", "jsonl")
    means = {r["measure"]: r["value"] for r in map(json.loads, out.splitlines()) if r["topic"] == "all"}
    assert list(lines[0].get_ydata()) == pytest.approx([means[n] for n in names], abs=0)
    assert list(lines[0].get_xdata()) == [x / 10 for x in range(11)]
    out = io.StringIO()
    assert readsim.cli.main(["figure", "curve", str(qrels), str(passages), "--curve", "gP", "--ranks", "10",
                             "-o", str(tmp_path / "gp.pdf")], out, io.StringIO()) == 0
    code, text, _ = run_cli(qrels, passages, "-m", "gP@1/F(0.25)")
    first = [float(f[2]) for f in (line.split() for line in text.splitlines()) if f[:2] == ["gP@1/F(0.25)", "all"]]
    assert out.getvalue().endswith(f"at gP@1/F(0.25): indri-passages {first[0]:.4f}\n")


def test_run_and_against_choose_the_two_runs(files, tmp_path):
    out = tmp_path / "a.svg"
    runs = (files["good"], files["mid"], files["bad"])
    said = {}
    for extra in (("--run", "bad"), ("--against", "bad"), ("--against", "good")):
        code, text, err = run_cli("figure", "topics", files["q"], *runs, "-o", out, *extra)
        assert code == 0, err
        said[extra] = text.split(": ", 1)[1]
    # bad - good = -1 on every topic: a point interval; --against alone: the best-ranked run (good) against it,
    # or, against the best-ranked run itself, the runner-up (mid)
    assert said[("--run", "bad")] == "AgP/F(0.25), bad - good on 3 topics: mean -1.0000, 95% paired t interval [-1.0000, -1.0000]\n"
    assert said[("--against", "bad")].startswith("AgP/F(0.25), good - bad on 3 topics: mean +1.0000")
    assert said[("--against", "good")].startswith("AgP/F(0.25), mid - good on 3 topics: mean -0.3333")
    code, _, err = run_cli("figure", "topics", files["q"], *runs, "-o", out, "--run", "good", "--against", "good")
    assert code == 2 and err == "readsim-eval figure: a run cannot be set against itself (good)\n"
