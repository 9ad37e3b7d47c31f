"""readsim.article on the sample (reading order worked by hand, reference section 3), its HTML
(escaped text, the window's marks), show(); Comparison's LaTeX and HTML escaping."""

from __future__ import annotations

import subprocess

import pandas as pd
import pytest

import readsim

S = readsim.sample()
GOOD = next(p for p in S.runs if p.name == "good-passages.run")


@pytest.fixture(scope="module")
def good():
    return readsim.article(S.qrels, GOOD, topic=S.topic, article="900001", collection=S.collection)


def test_reading_order_of_the_natural_reader(good):
    # good-passages retrieves [1351, 2871) of 900001; relevant [414,560) [1374,2487) [2493,2869);
    # natural reading: the matching chain first, then the rest of the article from its start
    expected = [(1351, 1374, False, True), (1374, 2487, True, True), (2487, 2493, False, True),
                (2493, 2869, True, True), (2869, 2871, False, True), (0, 414, False, False),
                (414, 560, True, False), (560, 1351, False, False), (2871, 3244, False, False)]
    order = good.reading_order
    assert list(order[["start", "end", "relevant", "in_chain"]].itertuples(index=False, name=None)) == expected
    assert order.read_end.iloc[-1] == 3244 and order.read_start.iloc[0] == 0


def test_scores_and_curve(good):
    assert good.scores["P_set"] == pytest.approx(1489 / 1520, abs=1e-12)
    assert good.scores["R_set"] == pytest.approx(1489 / 1635, abs=1e-12)
    # aveChP: character precision averaged over the relevant characters read (reference 4.1);
    # the chain reads 1489 relevant among the first 1520, the last 146 at positions 1935 .. 2080
    curve = good.curve()
    last = curve.iloc[-1]
    assert last.read == 3244 and last.recall == pytest.approx(1.0) and last.precision == pytest.approx(1635 / 3244)
    at = curve.set_index("read")
    assert at.loc[1520, "precision"] == pytest.approx(1489 / 1520) and at.loc[1520, "recall"] == pytest.approx(1489 / 1635)
    frame = good.to_frame()
    assert list(frame.columns) == ["run", "measure", "topic", "article", "value"] and len(frame) == 11


def test_entry_reading_with_an_entry_point():
    a = readsim.article(S.qrels, GOOD, topic=S.topic, article="900001", reading="entry", entry=414)
    # entry reading: from 414 to doc_length 3244, then wraps to [0, 414) (reference section 3)
    order = a.reading_order
    assert order.start.iloc[0] == 414 and order.end.iloc[-1] == 414 and order.in_chain.sum() == 0


def test_html_draws_the_marks_with_escaped_text(tmp_path):
    articles = tmp_path / "articles"
    articles.mkdir()
    text = "<script>alert(1)</script> &amp; more text here"
    (articles / "5.xml").write_text(f"<article><title>T &lt;b&gt;</title><bdy><p>{text.replace('<', '&lt;')}</p></bdy>"
                                    "</article>", encoding="utf-8")
    qrels = pd.DataFrame({"topic": ["1"], "article": ["5"], "doc_length": [47], "bep": [0], "offset": [0],
                          "length": [10]})
    run = pd.DataFrame({"topic": ["1"], "article": ["5"], "offset": [5], "length": [20]})
    a = readsim.article(qrels, run, topic="1", article="5", collection=articles)
    html = a._repr_html_()
    assert "<script>" not in html and "&lt;/sc" in html and "alert(1)" in html  # cut by the marks, escaped
    assert "<b>" not in html.split("</b>", 1)[1]  # the title's text too
    assert "<svg" in html and "background:#a8e6a1" in html  # the curve; relevant and retrieved text
    assert ">1</sup>" in html  # the chain's passage number
    with pytest.raises(ValueError, match="files"):
        a.show()  # DataFrames: no file for the window to open


def test_show_opens_the_window_on_files(good, monkeypatch):
    started = []
    monkeypatch.setattr(subprocess, "Popen", lambda argv: started.append(argv) or "process")
    assert good.show() == "process"
    argv = started[0]
    assert argv[1:3] == ["-m", "readsim.app.main"]
    assert argv[argv.index("--article") + 1] == "900001" and argv[argv.index("--topic") + 1] == S.topic
    assert argv[argv.index("--collection") + 1] == str(S.collection)


def test_an_article_the_run_does_not_rank_is_an_error():
    with pytest.raises(readsim.InputError, match="does not rank article 123"):
        readsim.article(S.qrels, GOOD, topic=S.topic, article="123")


def test_comparison_escapes_run_names(tmp_path):
    runs = []
    for k, rid in enumerate(["a_<b>&", "plain"]):
        p = tmp_path / f"{k}.run"
        p.write_text("".join(f"{t} Q0 900001 1 1.0 {rid} {1374 + 10 * k} 1113\n" for t in ("1", "2", "3")))
        runs.append(p)
    qrels = tmp_path / "q.qrels"
    qrels.write_text("".join(f"{t} Q0 900001 1635 3244 414 414:146 1374:1113 2493:376\n" for t in ("1", "2", "3")))
    c = readsim.compare(qrels, runs, ["AgP/F(0.25)"], test="t")
    assert "a & a\\_\\textless{}b\\textgreater{}\\& & " in c.to_latex()
    assert "| a | a\\_\\<b\\>& | " in c.to_markdown()
    html = c._repr_html_()
    assert "a_&lt;b&gt;&amp;" in html and "<b>&" not in html
    assert list(c.to_frame().index) == ["a_<b>&", "plain"]


def test_real_reading_order_splits_at_the_chain_end(inex, tmp_path):
    # topic 2009014, article 15261743 of bert-passages.run: its 8 lines retrieve 0+1947,
    # 1947+1877, 3824+1972, 5796+1916, 7712+1858, 9570+1979, 11549+2036, 13585+1044, one chain
    # [0, 14629); the qrels: relevant [101, 1049) [1053, 15048), doc_length 15048. The relevant
    # text after 14629 is read after the chain, not in it (reference 3)
    run = tmp_path / "2009014.run"
    run.write_text("".join(line for line in (inex / "runs/bert-passages.run").read_text().splitlines(True)
                           if line.startswith("2009014 ")))
    qrels = tmp_path / "2009014.qrels"
    qrels.write_text("".join(line for line in (inex / "qrels/inex2009-2010.qrels").read_text().splitlines(True)
                             if line.startswith("2009014 ")))
    a = readsim.article(qrels, run, topic="2009014", article="15261743")
    assert list(a.reading_order[["start", "end", "relevant", "in_chain"]].itertuples(index=False, name=None)) == [
        (0, 101, False, True), (101, 1049, True, True), (1049, 1053, False, True), (1053, 14629, True, True),
        (14629, 15048, True, False)]
    assert a.reading_order.read_end.iloc[-1] == 15048
    # the scores as before: relevant retrieved 948 + (14629 - 1053) = 14524 of 14629 read, of 14943 relevant
    assert a.scores["P_set"] == pytest.approx(14524 / 14629, abs=1e-12)
    assert a.scores["R_set"] == pytest.approx(14524 / 14943, abs=1e-12)
