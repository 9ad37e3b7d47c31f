"""readsim-eval is built on the Python API: its list measures and per-article scores come from
readsim.operations.evaluate (evaluations, article_scores), and the API's warnings reach standard error in
the command's words (``file:line: warning: ...``), never as Python warnings."""

from __future__ import annotations

import io
import subprocess
import sys
import warnings

import readsim.operations.evaluate as core
from readsim.cli import main
from readsim.core.samples import sample

S = sample()
GOOD = next(p for p in S.runs if p.name == "good-passages.run")


def spied(monkeypatch, name: str) -> list[str]:
    calls: list[str] = []
    real = getattr(core, name)

    def spy(*args, **kwargs):
        calls.append(name)
        yield from real(*args, **kwargs)

    monkeypatch.setattr(core, name, spy)
    return calls


def called(monkeypatch, module, name: str) -> list[str]:
    """``name`` of ``module`` (a function of the API's core) spied on: the list of its calls."""
    calls: list[str] = []
    real = getattr(module, name)

    def spy(*args, **kwargs):
        calls.append(name)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return calls


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an InputWarning escaping the command would fail here
        code = main([str(a) for a in args], out, err)
    return code, out.getvalue(), err.getvalue()


def test_list_measures_come_from_the_api_core(monkeypatch):
    calls = spied(monkeypatch, "evaluations")
    code, out, _ = run(S.qrels, GOOD, "-j", "1", "-m", "num_rel_ret")
    # good-passages.run retrieves 3 of the sample's relevant articles on its one topic
    assert (code, calls, out) == (0, ["evaluations"], "runid\tall\tgood-passages\nnum_rel_ret\tall\t3\n")


def test_per_article_scores_come_from_the_api_core(monkeypatch):
    calls = spied(monkeypatch, "article_scores")
    code, out, _ = run(S.qrels, GOOD, "--per-article", "-m", "P_set")
    rows = [line.split("\t") for line in out.splitlines()]
    assert code == 0 and calls == ["article_scores"]
    # P_set = retrieved relevant / retrieved (reference section 4.6), worked from the files:
    # 900001 1489/1520, 900003 440/443, 900002 189/446, 900004 judged non-relevant
    assert [(r[2], r[3]) for r in rows] == [("900001", f"{1489 / 1520:.6f}"), ("900003", f"{440 / 443:.6f}"),
                                            ("900002", f"{189 / 446:.6f}"), ("900004", "0.000000")]


def test_the_apis_warnings_are_printed_by_the_command(tmp_path):
    unjudged = tmp_path / "unjudged.run"
    unjudged.write_text("9999 Q0 900001 1 1.0 mine 0 10\n")
    code, out, err = run(S.qrels, unjudged, "-j", "1")
    assert code == 0 and out.startswith("runid\tall\tmine\n")
    assert f"{unjudged}: warning: topic 9999 of the run is not in the qrels; ignored\n" in err


def test_fidelity_comes_from_the_api_core_without_pandas(monkeypatch):
    import readsim.operations.comparison as compare_core

    calls = called(monkeypatch, compare_core, "fidelity_of")
    code, out, _ = run("fidelity", S.qrels, "--collection", S.collection, "--topics", S.topic, "--format", "tsv")
    # the sample's one judged topic, the 20 simulated runs (S, SL, SLD, SS, SST x R, RS, RI, RSI)
    assert (code, calls) == (0, ["fidelity_of"])
    assert out.splitlines()[:2] == ["#setting\ttopics\truns\torderings", f"setting\t{S.topic}\t20\t36"]
    script = ("import io, sys; from readsim.cli import main; from readsim.core.samples import sample; s = sample(); "
              "code = main(['fidelity', str(s.qrels), '--collection', str(s.collection), '--topics', s.topic], "
              "io.StringIO(), io.StringIO()); print(code, 'pandas' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["0", "False"]


def test_compare_comes_from_the_api_core(monkeypatch, tmp_path):
    """``readsim-eval compare``'s statistics are ``readsim.operations.comparison.comparison_of``'s (the function
    ``readsim.compare`` and the Runs window call), its evaluations ``readsim.operations.evaluate``'s."""
    import readsim.operations.comparison as compare_core

    calls = called(monkeypatch, compare_core, "comparison_of")
    evaluated = spied(monkeypatch, "evaluations")
    (tmp_path / "two.qrels").write_text("1 Q0 101 50 100 0 0:50\n2 Q0 201 50 100 0 0:50\n")
    for name, article in (("a", "101"), ("b", "999")):
        (tmp_path / f"{name}.run").write_text(f"1 Q0 {article} 1 1.0 {name} 0 50\n2 Q0 201 1 1.0 {name} 0 50\n")
    code, out, err = run("compare", tmp_path / "two.qrels", tmp_path / "a.run", tmp_path / "b.run", "--no-doc",
                         "--format", "tsv", "-m", "num_rel_ret")
    assert (code, calls, evaluated) == (0, ["comparison_of"], ["evaluations"]), err
    assert out.splitlines()[0].startswith("#setting\t")


def test_loss_comes_from_the_api_core(monkeypatch):
    """``readsim-eval loss``'s costs are ``readsim.core.costs.run_costs``', as ``readsim.loss``'s."""
    import readsim.core.costs as costs

    calls = called(monkeypatch, costs, "run_costs")
    code, out, err = run("loss", S.qrels, GOOD, "--format", "tsv")
    assert (code, calls) == (0, ["run_costs"]), err
    assert out.splitlines()[0].startswith("#topic\t")


def test_element_metrics_come_from_the_api_core(monkeypatch):
    """``readsim-eval --elements``' values are ``readsim.core.element_retrieval.evaluate_elements``'s,
    as ``readsim.elements.evaluate``'s, and equal them."""
    import readsim
    import readsim.core.element_retrieval as elements_core

    calls = called(monkeypatch, elements_core, "evaluate_elements")
    code, out, err = run(S.qrels, "--collection", S.collection, "--elements", "--simulated", "perfect",
                         "-m", "AP_2003s/strict")
    assert (code, calls) == (0, ["evaluate_elements"]), err
    ea = readsim.elements.derive_assessments(S.qrels, S.collection)
    want = readsim.elements.evaluate(ea, readsim.elements.simulated_element_run("perfect", ea), ["AP_2003s/strict"])
    assert out.splitlines()[-1] == f"AP_2003s/strict\tall\t{want.value[0]:.6f}"
