"""The Runs window's "condensed lists" option (docs/reference.md section 5.13): the checkbox of
the options panel reaches :class:`readsim.app.runs_model.Options` and the evaluation of every
run (``readsim.operations.evaluate.evaluate_run(condensed=True)``, as ``readsim-eval compare
--condensed``), the baseline as whole documents too."""

from __future__ import annotations

import pytest

import readsim
from readsim.app import runs_model as rm
from readsim.app.widgets.runs.options import OptionsPanel
from readsim.core.formats import read_qrels, read_run

# topics 1 and 2: A and B relevant (read whole), N judged non-relevant, U unjudged at rank 1 ("r")
QRELS = "1 Q0 A 27 55 0 0:27\n1 Q0 B 27 55 0 0:27\n1 Q0 N 0 40\n"
RUN = "1 Q0 U 1 0.9 r 0 10\n1 Q0 A 2 0.8 r 0 27\n1 Q0 N 3 0.7 r 0 10\n1 Q0 B 4 0.6 r 0 27\n"
OTHER = "1 Q0 A 1 0.9 o 0 27\n1 Q0 N 2 0.8 o 0 10\n1 Q0 B 3 0.7 o 0 27\n1 Q0 U 4 0.6 o 0 10\n"


def both(text: str) -> str:
    return text + text.replace("1 Q0", "2 Q0")


def test_the_condensed_checkbox_reaches_the_comparison(qtbot, tmp_path):
    panel = OptionsPanel()
    qtbot.addWidget(panel)
    panel.set_options(measures=["gP@1/F(0.25)"], resamples=20)
    assert panel.options(4).condensed is False
    with qtbot.waitSignal(panel.changed):
        panel.condensed.click()  # as a user ticks it
    options = panel.options(4)
    assert options.condensed is True and options.evaluation_key() != rm.Options(measures=options.measures
                                                                                ).evaluation_key()
    paths = []
    for name, text in (("t.qrels", QRELS), ("r.run", RUN), ("o.run", OTHER)):
        (tmp_path / name).write_text(both(text))
        paths.append(tmp_path / name)
    qrels, runs = read_qrels(paths[0]), [read_run(p) for p in paths[1:]]
    done = rm.compare_job(qrels, runs, None, options, [], rm.Progress())
    # condensed, both runs rank A N B: gP@1 = 1; as they are, r's U at rank 1 scores 0
    assert [c.evaluation.means["gP@1/F(0.25)"] for c in done.cached] == [1.0, 1.0]
    r_doc, o_doc = (c.documents.means["gP@1/F(0.25)"] for c in done.cached)  # A read whole: F(0.25) of 27 in 55
    p = 27 / 55
    assert r_doc == o_doc == pytest.approx((1 + 1 / 16) * p / (p / 16 + 1))
    api = readsim.evaluate(paths[0], paths[1:], ["gP@1/F(0.25)"], condensed=True)
    assert api["value"].tolist() == [1.0, 1.0]
    assert "condensed lists" in rm.setting_text(done.comparison, False, options)
    plain = rm.compare_job(qrels, runs, None, rm.Options(measures=("gP@1/F(0.25)",), resamples=20), [], rm.Progress())
    assert [c.evaluation.means["gP@1/F(0.25)"] for c in plain.cached] == [0.0, 1.0]
