"""readsim.operations.evaluate's pandas-free core, the one readsim-eval is built on: ``evaluations``,
``article_scores`` and the warnings routed to the command (``readsim.operations.inputs.diagnostics_to``)."""

from __future__ import annotations

import warnings

import pandas as pd

import readsim
from readsim.operations.evaluate import article_scores, evaluations
from readsim.operations.inputs import diagnostics_to

from helpers.api_cases import GOOD, GOOD_F, S

UNJUDGED = pd.DataFrame({"topic": ["2026001", "9999"], "article": ["900001", "900001"]})


def test_inside_diagnostics_to_every_batch_reaches_the_sink_and_no_warning_is_issued():
    batches: list[list] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with diagnostics_to(batches.append):
            for _ in range(2):  # the same cause twice: said both times (readsim-eval prints each call's)
                assert [label for label, _ in evaluations(S.qrels, UNJUDGED, [readsim.parse_measure("MAiP")])]
        assert caught == []
        texts = [str(d) for batch in batches for d in batch]
        assert sum("9999" in t and "not in the qrels" in t for t in texts) == 2
        readsim.evaluate(S.qrels, UNJUDGED)  # outside: an InputWarning again
    assert [w.category for w in caught if "9999" in str(w.message)] == [readsim.InputWarning]


def test_article_scores_are_the_hand_worked_f_in_run_order():
    f = readsim.parse_measure("F(0.25)")
    rows = list(article_scores(S.qrels, GOOD, [f]))
    assert [article for _, _, article, _ in rows] == ["900001", "900003", "900002", "900004"]
    assert {label for label, _, _, _ in rows} == {"good-passages"}
    assert [values[0] for *_, values in rows] == [readsim.evaluate(S.qrels, GOOD, per="article").value[k]
                                                  for k in range(4)]
    assert all(abs(values[0] - want) < 1e-12 for (*_, values), want in zip(rows, GOOD_F))


def test_evaluate_run_without_the_doc_length_check_gives_the_same_numbers(inex):
    """``check=False`` (the window's scores) reads only the articles whose length can clip a
    retrieved passage, not every judged one: the same values, no warning (reference section 1.4)."""
    from readsim.operations.evaluate import evaluate_run
    from readsim.core.collection import Collection
    from readsim.core.formats import read_qrels, read_run

    qrels, run = read_qrels(inex / "qrels" / "inex2009-2010.qrels"), read_run(inex / "runs" / "bert-passages.run")
    collection = Collection(inex / "articles")
    measures = [readsim.parse_measure(m) for m in ("AgP/F(0.25)", "AgP/T2IF(300)", "MAiP")]
    kwargs = dict(reading="natural", collection=collection, all_topics=False, as_documents=False, levels=4)
    checked, _ = evaluate_run(qrels, run, measures, **kwargs)
    quick, said = evaluate_run(qrels, run, measures, check=False, **kwargs)
    assert said == []
    assert quick.values == checked.values and quick.means == checked.means
