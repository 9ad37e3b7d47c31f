"""The Runs window is built on the Python API: its runs are evaluated by the API's core
(``readsim.operations.evaluate.evaluate_run``, as ``readsim-eval compare`` does) and its fidelity tables
come from ``readsim.operations.comparison.fidelity_of`` (as ``readsim-eval fidelity``), so the window shows
``readsim.evaluate``'s numbers."""

from __future__ import annotations

import pytest

import readsim
import readsim.operations.comparison as compare_core
import readsim.operations.evaluate as api_core
from readsim.app import runs_model as rm
from readsim.core.collection import Collection
from readsim.core.formats import read_qrels, read_run
from readsim.core.samples import sample


def spy(monkeypatch, module, name: str) -> list[dict]:
    calls: list[dict] = []
    real = getattr(module, name)

    def wrapper(*args, **kwargs):
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapper)
    return calls


@pytest.mark.filterwarnings("ignore::readsim.InputWarning")  # the real runs' overlapping passages
def test_compare_evaluates_through_the_api_core(inex, monkeypatch):
    calls = spy(monkeypatch, api_core, "evaluate_run")
    paths = [inex / "runs" / "indri-passages.run", inex / "runs" / "bert-passages.run"]
    qrels = read_qrels(inex / "qrels" / "inex2009-2010.qrels")
    options = rm.Options(measures=("AgP/F(0.25)",), resamples=10)
    done = rm.compare_job(qrels, [read_run(p) for p in paths], None, options, [], rm.Progress())
    # each run once in its reading order, once as whole documents (the baseline)
    assert [c["as_documents"] for c in calls] == [False, True, False, True]
    frame = readsim.evaluate(inex / "qrels" / "inex2009-2010.qrels", paths, ["AgP/F(0.25)"])
    assert [c.evaluation.means["AgP/F(0.25)"] for c in done.cached] == frame["value"].tolist()  # to the bit


def test_fidelity_comes_from_the_api_core(monkeypatch):
    calls = spy(monkeypatch, compare_core, "fidelity_of")
    s = sample()
    f = rm.fidelity_job(read_qrels(s.qrels), Collection(s.collection), rm.Options(measures=("AgP/F(0.25)",)),
                        rm.Progress())
    # the sample's one judged topic has all its relevant articles in its collection: 20 simulated runs
    assert len(calls) == 1 and f.topics == [s.topic] and len(f.runs) == 20
