"""Trust on every path: the window and ``readsim-eval``, the code and the reference, give one
verdict and one number for the same input (docs/reference.md sections 1.3, 2.6, 2.8, 8, 9.3,
10, 12 and 13.4).

Each row of :data:`CASES` names an input and what both programs must make of it; its
``data["check"](case, tmp_path, inex, capsys, monkeypatch)`` runs the programs (in-process,
output captured) and asserts the outcome. Rows
on the real INEX data skip when it is absent (the ``inex`` fixture).
"""

from __future__ import annotations

import codecs
import functools
import io
import os
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from readsim.app.main import main as app_main
from readsim.core import safe_xml
from readsim.cli import main as eval_main
from readsim.core.collection import Collection
from readsim.core.formats import read_any_run
from readsim.core.result_lines import retrieved_passages
from readsim.core.text import Article, _ElementIndex, normalize_xpath

from .cases import ERROR, SAME, Case

ARTICLE = "15271"  # a real article of topic 2009067 (18,669 bytes of text)
TOPIC = "2009067"


def eval_cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = eval_main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def window(capsys, tmp: Path, *argv) -> tuple[int, str]:
    """``readsim ... --screenshot`` in-process: exit status and standard error."""
    capsys.readouterr()
    code = app_main([str(a) for a in argv] + ["--screenshot", str(tmp / "shot.png")])
    return code, capsys.readouterr().err


def real(inex: Path) -> tuple[Path, Path]:
    return inex / "qrels" / "inex2009-2010.qrels", inex / "articles"


# -- item: the window and readsim-eval judge an XPath line alike -----------------------------

BAD_XPATH_RUN = (f"{TOPIC} Q0 {ARTICLE} 1 1 x /article[1]/bdy[1]\n"
                 f"{TOPIC} Q0 {ARTICLE} 1 1 x /article[1]/bdy[1]/nosuch[4]\n")


def xpath_error_same_in_both(case, tmp, inex, capsys, monkeypatch):
    qrels, coll = real(inex)
    run = tmp / "bad.run"
    run.write_text(BAD_XPATH_RUN)
    code, out, err = eval_cli(qrels, run, "--collection", coll)
    assert code == 1 and out == "" and f"{run}:2: {case.expect}" in err, err
    code, err_w = window(capsys, tmp, "--collection", coll, "--qrels", qrels, "--run", run)
    assert code == 1, err_w
    shown = [line for line in err_w.splitlines() if "error:" in line]
    assert shown == [f"readsim: error: {run}:2: {case.expect}"], err_w  # the same message, once


def xml_run(results: str, encoding: str | None = None) -> str:
    decl = f' encoding="{encoding}"' if encoding else ""
    return (f'<?xml version="1.0"{decl}?>\n'
            f'<inex-submission run-id="agree" task="RelevantInContext">\n'
            f'<topic topic-id="{TOPIC}">\n{results}</topic>\n</inex-submission>\n')


def xml_error_names_own_line(case, tmp, inex, capsys, monkeypatch):
    """Line 4 is the article's first result; the bad XPath or XPointer is on line 6."""
    qrels, coll = real(inex)
    run = tmp / "bad.xml"
    run.write_text(xml_run(case.data["results"]))
    code, out, err = eval_cli(qrels, run, "--collection", coll)
    assert code == 1 and f"{run}:6: {case.expect}" in err, err


GOOD = f"<result><file>{ARTICLE}</file><path>/article[1]/bdy[1]/sec[2]</path></result>\n"


def utf16_xml_run(case, tmp, inex, capsys, monkeypatch):
    qrels, coll = real(inex)
    results = GOOD + f'<result><file>{ARTICLE}</file><passage start="/article[1]/bdy[1]/p[1]/text()[1].5" ' \
                     f'end="/article[1]/bdy[1]/p[1]/text()[1].40"/></result>\n'
    plain, wide = tmp / "plain.xml", tmp / "wide.xml"
    plain.write_text(xml_run(results))
    wide.write_bytes(codecs.BOM_UTF16_LE + xml_run(results, "UTF-16").encode("utf-16-le"))
    code, out, err = eval_cli(qrels, plain, "--collection", coll, "-m", "AgP/aveChP")
    code2, out2, err2 = eval_cli(qrels, wide, "--collection", coll, "-m", "AgP/aveChP")
    assert code == code2 == 0, err + err2
    assert out == out2 and "AgP/aveChP\tall\t" in out
    # the same passages, as read: sec[2] [8882, 9926) and characters 5 to 40 of the first paragraph's
    # text, which starts at byte 725 (ASCII): [730, 765)
    entry = read_any_run(wide).topics[TOPIC][0]
    from readsim.core.collection import Collection
    spans = retrieved_passages(read_any_run(wide), TOPIC, entry, Collection(coll))
    assert spans.tolist() == [[730, 765], [8882, 9926]]
    code, err_w = window(capsys, tmp, "--collection", coll, "--qrels", qrels, "--run", wide)
    assert code == 0, err_w


def dtd_device_not_opened(case, tmp, inex, capsys, monkeypatch):
    (tmp / "coll").mkdir()
    body = b'<article><bdy>caf&eacute; au lait</bdy></article>'
    (tmp / "coll" / "a.xml").write_bytes(b'<?xml version="1.0"?>\n<!DOCTYPE article SYSTEM "../article.dtd">\n' + body)
    (tmp / "article.dtd").symlink_to("/dev/zero")
    opened: list[str] = []
    real_open = os.open

    def spy(path, *args, **kw):
        opened.append(os.path.realpath(os.fspath(path)))
        return real_open(path, *args, **kw)

    monkeypatch.setattr(safe_xml.os, "open", spy)
    art = Article.from_file(tmp / "coll" / "a.xml", "chars", collection=tmp / "coll")
    assert art.text == "café au lait"  # the built-in entity table gave &eacute;
    assert "/dev/zero" not in opened and opened == [os.path.realpath(tmp / "coll" / "a.xml")]


def missing_run_in_both(case, tmp, inex, capsys, monkeypatch):
    qrels = tmp / "q.qrels"
    qrels.write_text("1 Q0 A 10 100 0 0:10\n")
    missing = tmp / "missing.run"
    code, out, err = eval_cli(qrels, missing)
    assert code == 1 and err.strip() == f"readsim-eval: {missing}: {case.expect}", err
    code, err_w = window(capsys, tmp, "--qrels", qrels, "--run", missing)
    assert code == 1 and f"readsim: error: {missing}: {case.expect}" in err_w, err_w


CASES = [
    Case("xpath-no-element", "a FOL run whose line 2 names an element article 15271 lacks, in both programs",
         ERROR, f"article {ARTICLE} has no element /article[1]/bdy[1]/nosuch[4]",
         data={"check": xpath_error_same_in_both, "real": True}),
    Case("xml-path-own-line", "an XML run whose second <path> (line 6) names no element", ERROR,
         f"article {ARTICLE} has no element /article[1]/bdy[1]/nosuch[2]",
         data={"check": xml_error_names_own_line, "real": True,
               "results": GOOD + "\n" + f"<result><file>{ARTICLE}</file><path>/article[1]/bdy[1]/nosuch[2]</path></result>\n"}),
    Case("xml-passage-own-line", "an XML run whose <passage> (line 6) points into no element", ERROR,
         f"article {ARTICLE}: cannot resolve XPointer '/article[1]/nosuch[1]'",
         data={"check": xml_error_names_own_line, "real": True,
               "results": GOOD + "\n" + f'<result><file>{ARTICLE}</file><passage start="/article[1]/nosuch[1]" '
                                        f'end="/article[1]/bdy[1]"/></result>\n'}),
    Case("xml-run-utf16", "an XML run in UTF-16 with its byte-order mark and declaration", SAME, "same as UTF-8",
         data={"check": utf16_xml_run, "real": True}),
    Case("dtd-links-to-device", "the collection's article.dtd is a symbolic link to /dev/zero", SAME,
         "built-in entity table, /dev/zero never opened", data={"check": dtd_device_not_opened}),
    Case("missing-run", "a run path that does not exist, in readsim-eval and the window", ERROR,
         "run file not found", data={"check": missing_run_in_both}),
]


# -- the element index: linear XPath resolution ----------------------------------------------


def slow_find(index: _ElementIndex, xpath: str) -> int | None:
    """The per-path resolution the index replaces: walk down from the root over every child of
    each step (cost: siblings per step). The reference for :meth:`_ElementIndex.find`."""
    steps = [re.fullmatch(r"([^\[\]/]+)\[([1-9][0-9]*)\]", s) for s in xpath.split("/")[1:]]
    if not len(index) or not steps or any(m is None for m in steps):
        return None
    if steps[0].group(1) != index.names[0] or steps[0].group(2) != "1":
        return None
    i = 0
    for m in steps[1:]:
        name, k = m.group(1), int(m.group(2))
        i = next((j for j in index.children(i) if index.position[j] == k and index.names[j] == name), -1)
        if i < 0:
            return None
    return i


def wide_article(siblings: int) -> bytes:
    """An article whose body holds ``siblings`` paragraphs and a section with a nested list."""
    ps = "".join(f"<p>para {i} <b>x</b> tail {i}</p>" for i in range(siblings))
    return (f"<article><header><title>T</title></header><bdy>{ps}<sec><st>S</st><p>in sec</p>"
            f"<list><item>a</item><item>b</item></list></sec><p>after</p><p>last</p></bdy></article>").encode()


def test_index_finds_what_the_slow_walk_finds():
    art = Article.from_bytes(wide_article(60))
    index = art._index
    paths = [e.xpath for e in art.elements]
    wrong = ["/article[1]/bdy[1]/p[61]", "/article[2]", "/bdy[1]", "/article[1]/bdy[1]/sec[1]/list[1]/item[3]",
             "/article[1]/bdy[1]/p[0]", "/article[1]//p[1]", "article[1]", "/", "/article[1]/bdy[1]/q[1]"]
    for xpath in paths + wrong:
        assert index.find(xpath) == slow_find(index, xpath), xpath
    assert sum(index.find(p) is not None for p in paths) == len(paths) == len(art.elements)
    # the public API: spans by XPath (positions made explicit), as the elements list them
    for e in art.elements:
        assert art.span(e.xpath) == (e.start, e.end)
    assert art.span("/article/bdy/sec/list/item[2]") == art.span("/article[1]/bdy[1]/sec[1]/list[1]/item[2]")


def test_xpointer_text_nodes_as_before():
    # <p>para 3 <b>x</b> tail 3</p>: text()[1] is "para 3 ", text()[2] is " tail 3"
    art = Article.from_bytes(wide_article(5), unit="chars")
    start = art.span("/article[1]/bdy[1]/p[4]")[0]
    assert art.point("/article[1]/bdy[1]/p[4]/text()[1].2") == start + 2
    assert art.point("/article[1]/bdy[1]/p[4]/text()[2].3") == start + len("para 3 x") + 3
    assert art.point("/article[1]/bdy[1]/p[4]/text()[2].99") == start + len("para 3 x tail 3")  # clamped
    with pytest.raises(KeyError):
        art.point("/article[1]/bdy[1]/p[4]/text()[3]")


def test_many_xpath_lines_into_many_siblings_cost_one_lookup_per_step(tmp_path, monkeypatch):
    """1,000 XPath lines into an article of 20,000 sibling paragraphs: resolving them never walks a
    sibling list (the old walk did 1,000 x 20,000 steps); the spans equal the slow walk's."""
    n = 20_000
    art = Article.from_bytes(wide_article(n), name="wide")
    wanted = [f"/article[1]/bdy[1]/p[{n - k}]" for k in range(1000)]
    index = art._index
    expected = {x: tuple(art._unit_spans[slow_find(index, x)].tolist()) for x in wanted[:20]}
    walked = []
    real_children = _ElementIndex.children
    monkeypatch.setattr(_ElementIndex, "children", lambda self, i: walked.append(i) or real_children(self, i))

    class One:
        root = "mem"

        def article(self, name):
            return art

    run_file = tmp_path / "wide.run"
    run_file.write_text("".join(f"1 Q0 wide 1 1 r {x}\n" for x in wanted))
    run = read_any_run(run_file)
    spans = retrieved_passages(run, "1", run.topics["1"][0], One())
    assert walked == []  # no sibling list walked: one table look-up per step
    got = {x: art.span(x) for x in wanted[:20]}
    assert got == expected
    # the 1,000 paragraphs p[19001] .. p[20000] are consecutive: one span from the first's start
    # to the last's end
    first, last = art.span(wanted[-1]), art.span(wanted[0])
    assert spans.tolist() == [[first[0], last[1]]]


def test_normalize_then_find_round_trip():
    art = Article.from_bytes(b"<article><bdy><p>a</p><p>b</p></bdy></article>", unit="chars")
    assert art._index.find(normalize_xpath("/article/bdy/p[2]")) == 3
    assert np.array_equal(art._unit_spans[3], [1, 2])


# -- numbers and names that agree -------------------------------------------------------------

COMPLETE = ("2009067", "2009073", "2009074", "2009078")  # every relevant article in the collection


def test_sld_scores_as_whole_article_lines_on_the_real_complete_topics(inex):
    """SLD retrieves the counted text [0, doc_length): exactly what the same ranking of
    whole-article (6-field) lines retrieves, so every measure gives the same per-topic values."""
    from readsim.core.formats import Run, RunArticle, read_qrels
    from readsim.core.listmeasures import evaluate
    from readsim.core.measure import parse_list_measure
    from readsim.core.simulated import RANKINGS, simulated_run

    qrels, coll = read_qrels(real(inex)[0]), Collection(real(inex)[1])
    measures = [parse_list_measure(m) for m in ("AgP/F(0.25)", "AgP/aveChP", "AgP/T2IF(300)", "ANCE@600/LE(300)")]
    for ranking in RANKINGS:
        sld = simulated_run("SLD" + ranking, qrels, coll, COMPLETE)
        whole = Run("", "whole", {t: [RunArticle(e.article, e.rank, None, [], 0) for e in entries]
                                  for t, entries in sld.topics.items()})
        for t, entries in sld.topics.items():  # each relevant article: [0, its qrels doc_length)
            for e in entries:
                j = qrels.judgement(t, e.article)
                if j is not None:
                    assert e.passages.tolist() == [[0, j.doc_length]]
        a = evaluate(qrels, sld, measures, collection=coll)
        b = evaluate(qrels, whole, measures, collection=coll)
        for m in measures:
            for t in COMPLETE:
                assert a.values[m.name][t] == pytest.approx(b.values[m.name][t], abs=1e-12), (ranking, m.name, t)


def test_rank_order_is_mean_then_label():
    from readsim.core.run_comparison import rank_order

    # equal means (0.7, 0.7, up to rounding noise) by label: "a" before "b", whatever the input order
    assert rank_order(np.array([0.5, 0.7, 0.7 + 1e-15]), ["c", "b", "a"]).tolist() == [2, 1, 0]
    assert rank_order(np.array([0.7, 0.7, 0.5]), ["a", "b", "c"]).tolist() == [0, 1, 2]
    assert rank_order(np.array([0.1, 0.9]), ["a", "b"]).tolist() == [1, 0]  # the mean first


def test_run_labels_one_rule_one_warning_per_shared_id():
    from types import SimpleNamespace as R

    from readsim.core.run_comparison import run_labels

    runs = [R(run_id="TREC2INEX", path="/r/bert.run"), R(run_id="indri", path="/r/indri-documents.run"),
            R(run_id="TREC2INEX", path="/r/bert-map19.run"), R(run_id="TREC2INEX", path="/s/bert.run")]
    labels, warnings = run_labels(runs)
    assert labels == ["bert.run", "indri", "bert-map19.run", "bert.run (2)"]
    assert warnings == ["run id 'TREC2INEX' is shared by 3 runs; each is labelled by its file name "
                        "(bert.run, bert-map19.run, bert.run)"]
    assert run_labels([R(run_id="x", path="/a/one.run"), R(run_id="y", path="/a/two.run")]) == (["x", "y"], [])


def shared_id_warns_once(case, tmp, inex, capsys, monkeypatch):
    qrels = real(inex)[0]
    runs = [inex / "runs" / n for n in ("bert-passages.run", "bert-passages-map19.run", "bert-passages-map199.run")]
    code, out, err = eval_cli(qrels, *runs, "-m", "AgP/aveChP")
    assert code == 0, err
    assert err.count(case.expect) == 1, err
    assert [line.split("\t")[2] for line in out.splitlines() if line.startswith("runid")] == [
        "bert-passages.run", "bert-passages-map19.run", "bert-passages-map199.run"]


@functools.cache
def compare_t2if(qrels: Path, *runs: Path) -> tuple[int, str, str]:
    """``readsim-eval compare QRELS RUNS -m AgP/T2IF(300) --resamples 200``: run once per order of
    the runs for the module (its report depends on its files only; two tests read Indri's)."""
    return eval_cli("compare", qrels, *runs, "-m", "AgP/T2IF(300)", "--resamples", 200)


def tied_means_one_order(case, tmp, inex, capsys, monkeypatch):
    """Indri's passages tile each article they return, so under AgP/T2IF(300) they tie with Indri's
    documents: in either order on the command line, ``indri`` (the smaller label) comes first."""
    qrels = real(inex)[0]
    a, b = inex / "runs" / "indri-passages.run", inex / "runs" / "indri-documents.run"
    reports = []
    for pair in ((a, b), (b, a)):
        code, out, err = compare_t2if(qrels, *pair)
        assert code == 0, err
        rows = [line.split() for line in out.splitlines() if re.match(r"\s+[12]\s+indri", line)]
        reports.append([(r[0], r[1], r[2]) for r in rows])
    assert reports[0] == reports[1]
    (r1, n1, m1), (r2, n2, m2) = reports[0]
    assert (r1, n1, r2, n2) == ("1", "indri", "2", "indri-passages") and m1 == m2


def missing_articles_element_run(case, tmp, inex, capsys, monkeypatch):
    qrels, coll = real(inex)
    run = inex / "runs" / "indri-documents.run"
    code, out, err = eval_cli(qrels, run, "--collection", coll, "--elements", "-m", "AP_2002/strict",
                              "-m", "AP_2003s/strict")
    assert code == 0, err
    shown = [line for line in err.splitlines() if "in the collection" in line and str(run) in line]
    assert len(shown) == 1 and case.expect in shown[0], err
    means = dict(line.split("\t")[0::2] for line in out.splitlines()[1:])
    assert set(means) == {"AP_2002/strict", "AP_2003s/strict"} and all(0 < float(v) < 1 for v in means.values())


def mean_over_no_topic(case, tmp, inex, capsys, monkeypatch):
    """Topic 2009001's relevant articles are all missing from the collection: nothing is assessed,
    so no topic is left for the measure and it has no mean."""
    qrels, coll = real(inex)
    lines = [line for line in (inex / "runs" / "indri-documents.run").read_text().splitlines()
             if line.startswith("2009001 ")][:30]
    run = tmp / "t.run"
    run.write_text("\n".join(lines) + "\n")
    code, out, err = eval_cli(qrels, run, "--collection", coll, "--elements", "-m", "AP_2002/gen")
    assert code == 0 and out.splitlines()[1] == "AP_2002/gen\tall\tn/a" and "0.000000" not in out, out
    assert err.count(case.expect) == 1, err
    code, out, err = eval_cli(qrels, run, "--collection", coll, "--elements", "-m", "AP_2002/gen", "--format", "jsonl")
    assert code == 0 and out == ""  # JSON has no NaN: no row


CASES += [
    Case("shared-run-id", "three runs sharing the run id TREC2INEX", SAME, "is shared by 3 runs",
         data={"check": shared_id_warns_once, "real": True}),
    Case("tied-means", "two runs with equal means, given in either order to compare", SAME, "one order",
         data={"check": tied_means_one_order, "real": True}),
    Case("element-run-partial-collection", "indri-documents.run with --elements on the 1,079-article subset",
         SAME, "10824 of the 11682 articles of the run (first: 3260094, 3260076, 21201) are not in the collection",
         data={"check": missing_articles_element_run, "real": True}),
    Case("element-mean-over-no-topic", "an element run whose only topic has nothing assessed", SAME,
         "AP_2002/gen: topic 2009001 has nothing relevant under gen quantisation; no mean (n/a)",
         data={"check": mean_over_no_topic, "real": True}),
]


def test_an_article_the_collection_lacks_is_a_nonrelevant_rank(tmp_path):
    """Line 1 names an article the collection lacks: it keeps rank 1 and scores as a non-relevant
    element, so INEX 2002 (ranks only) gives what a non-relevant element of the collection at
    rank 1 gives; the warning is worded as list evaluation's (readsim.core.coverage.missing_articles)."""
    from readsim.core.coverage import missing_articles
    from readsim.core.element_retrieval import derive_assessments, evaluate_elements, read_element_run
    from readsim.core.formats import read_qrels

    (tmp_path / "articles").mkdir()
    (tmp_path / "articles" / "A1.xml").write_bytes(b"<article><title>Title</title><bdy><p>rel one</p>"
                                                   b"<p>nothing here</p></bdy></article>")
    (tmp_path / "q.qrels").write_text("T1 Q0 A1 7 30 5 5:7\n")  # p[1] "rel one" [5, 12) relevant
    coll = Collection(tmp_path / "articles")
    assessments = derive_assessments(read_qrels(tmp_path / "q.qrels"), coll)
    gone, other = tmp_path / "gone.run", tmp_path / "other.run"
    gone.write_text("T1 Q0 ZZ 1 0.9 r /article[1]/bdy[1]\nT1 Q0 A1 2 0.5 r /article[1]/bdy[1]/p[1]\n")
    other.write_text("T1 Q0 A1 1 0.9 r /article[1]/bdy[1]/p[2]\nT1 Q0 A1 2 0.5 r /article[1]/bdy[1]/p[1]\n")
    run = read_element_run(gone, coll)
    assert [(r.article, r.xpath, r.rank, r.start, r.end) for r in run.topics["T1"]] == [
        ("ZZ", "/article[1]/bdy[1]", 1, 0, 0), ("A1", "/article[1]/bdy[1]/p[1]", 2, 5, 12)]
    assert [str(d) for d in run.diagnostics] == [str(missing_articles(
        str(gone), ["ZZ", "A1"], ["ZZ"], coll.root,
        "their elements keep their ranks and score as not relevant (spans unknown, size 0)"))]
    assert "1 of the 2 articles of the run (first: ZZ) is not in the collection" in str(run.diagnostics[0])
    a = evaluate_elements(assessments, run, ["AP_2002/strict"])
    b = evaluate_elements(assessments, read_element_run(other, coll), ["AP_2002/strict"])
    # by hand (Gövert 2006, eqs 6-7): one relevant element under strict (n = 1: p[1], e = s = 3),
    # found at rank 2 after one non-relevant rank: at recall x, precall = x n / (x n + esl) with
    # esl = 1 non-relevant element seen, x / (x + 1); AP = the mean over x = 0.01 .. 1.00
    assert a.means["AP_2002/strict"] == pytest.approx(b.means["AP_2002/strict"], abs=1e-12)
    want = sum(Fraction(k, 100) / (Fraction(k, 100) + 1) for k in range(1, 101)) / 100
    assert a.means["AP_2002/strict"] == pytest.approx(float(want), abs=1e-12)


@pytest.mark.parametrize("case", CASES, ids=Case.name)
def test_agreement(case: Case, tmp_path, request, capsys, monkeypatch):
    inex = request.getfixturevalue("inex") if case.data.get("real") else None
    case.data["check"](case, tmp_path, inex, capsys, monkeypatch)


def test_every_row_checks_something():
    for case in CASES:
        assert case.expect and callable(case.data["check"]), case.id


def test_the_runs_window_orders_ties_as_the_report_and_bolds_every_best(qtbot, inex, capsys):
    """The Runs window on Indri's two runs, opened passages first: under AgP/T2IF(300) they tie
    (the same mean), so the window lists ``indri`` first as ``readsim-eval compare`` does, and both
    means are bold (the best mean, tied)."""
    from readsim.app.background import activity
    from readsim.app.mainwindow import MainWindow
    from readsim.app.session import Loaded, Session
    from readsim.core.formats import read_qrels

    qrels = real(inex)[0]
    paths = [inex / "runs" / "indri-passages.run", inex / "runs" / "indri-documents.run"]
    session = Session()
    window = MainWindow(session, show_dialogs=False, restore=False)
    qtbot.addWidget(window)
    session.adopt(Loaded(qrels=read_qrels(qrels), runs=[read_any_run(p) for p in paths]), "2009074")
    qtbot.waitUntil(lambda: activity().count == 0 and session.rows_ready(), timeout=60_000)
    window.act_runs.trigger()
    w = window.runs_window
    w.set_options(measures=("AgP/T2IF(300)",), resamples=200)
    w.compare_button.click()
    qtbot.waitUntil(lambda: not w.busy() and activity().count == 0 and w.result is not None, timeout=120_000)
    rows = w.texts(w.runs_table)[:2]
    code, out, _ = compare_t2if(qrels, *paths)
    listed = [line.split()[1] for line in out.splitlines() if re.match(r"\s+[12]\s+indri", line)]
    assert [r[1] for r in rows] == listed == ["indri", "indri-passages"]
    assert rows[0][2] == rows[1][2]  # the same mean, as shown
    fonts = [w.runs_table.item(r, 2).font().bold() for r in range(2)]
    assert fonts == [True, True]
    w.close()
