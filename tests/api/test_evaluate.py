"""readsim.evaluate, read_qrels, read_run and DataFrame inputs on the shipped sample, with
numbers worked by hand from the reference's formulas (sections 4.6 and 5.4)."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

import readsim

from helpers.api_cases import GOOD, GOOD_F, S, f_beta


def agp(scores: list[float], relevant: list[bool], nrel: int) -> float:
    """Reference section 5.4: AgP = sum over relevant ranks r of gP[r] / Nrel, gP[r] = sum_{j<=r} S / r."""
    total, running = 0.0, 0.0
    for r, (s, rel) in enumerate(zip(scores, relevant), 1):
        running += s
        if rel:
            total += running / r
    return total / nrel


def test_per_article_scores_are_the_hand_worked_ones():
    frame = readsim.evaluate(S.qrels, GOOD, ["P_set", "R_set", "F(0.25)"], per="article")
    assert list(frame.columns) == ["run", "measure", "topic", "article", "value"]
    one = frame[frame.article == "900001"].set_index("measure").value
    assert one["P_set"] == pytest.approx(1489 / 1520, abs=1e-12)
    assert one["R_set"] == pytest.approx(1489 / 1635, abs=1e-12)
    f = frame[frame.measure == "F(0.25)"]
    assert list(f.article) == ["900001", "900003", "900002", "900004"]  # run order
    assert list(f.value) == pytest.approx(GOOD_F, abs=1e-12)


def test_mean_and_per_topic_rows():
    expected = agp(GOOD_F, [True, True, True, False], 3)
    frame = readsim.evaluate(S.qrels, GOOD)  # default AgP/F(0.25): MAgP
    assert list(frame.columns) == ["run", "measure", "topic", "value"]
    assert frame.to_dict("records") == [{"run": "good-passages", "measure": "AgP/F(0.25)", "topic": "all",
                                         "value": pytest.approx(expected, abs=1e-12)}]
    per_topic = readsim.evaluate(S.qrels, GOOD, ["AgP/F(0.25)", "num_rel_ret"], per="topic")
    assert list(per_topic.topic) == ["2026001", "2026001"]
    assert list(per_topic.value) == pytest.approx([expected, 3.0])


def test_a_hand_made_frame_of_whole_articles():
    # no offset/length columns: whole-article lines, [0, doc_length) each (reference section 2.5)
    frame = pd.DataFrame({"topic": ["2026001"] * 4, "article": ["900001", "900002", "900003", "900004"]})
    scores = [f_beta(1635 / 3244, 1.0), f_beta(189 / 1818, 1.0), f_beta(440 / 1527, 1.0), 0.0]
    result = readsim.evaluate(S.qrels, frame, ["AgP/F(0.25)"])
    assert result.value[0] == pytest.approx(agp(scores, [True, True, True, False], 3), abs=1e-12)
    assert result.run[0] == "run"  # a frame without run_id


def test_frames_round_trip_on_every_sample_run():
    qrels = readsim.read_qrels(S.qrels)
    measures = ["AgP/F(0.25)", "MAiP", "gP@2/F(0.25)", "AgP/BEP(500)", "num_ret"]
    for path in S.runs:
        run = readsim.read_run(path)
        frame = run.to_frame()
        assert list(frame.columns) == ["topic", "article", "rank", "rsv", "run_id", "offset", "length"]
        a = readsim.evaluate(qrels, run, measures, per="topic")
        b = readsim.evaluate(qrels.to_frame(), frame, measures, per="topic")
        pd.testing.assert_frame_equal(a, b)


def test_run_frame_holds_the_file_lines():
    frame = readsim.read_run(next(p for p in S.runs if p.name == "misses.run")).to_frame()
    # the file's lines: 900002 twice (two lines, one rank), rsv from column 5
    assert list(frame.article) == ["900004", "900002", "900002", "900001", "900001", "900003"]
    assert list(frame["rank"]) == [1, 2, 2, 3, 3, 4]
    assert list(frame.rsv) == [1.0, 0.9, 0.9, 0.8, 0.8, 0.7]
    assert list(frame.offset) == [638, 448, 1216, 574, 2885, 460]
    assert list(frame.length) == [303, 310, 308, 447, 314, 352]


def test_qrels_frame():
    frame = readsim.read_qrels(S.qrels).to_frame()
    assert frame[frame.article == "900001"][["offset", "length"]].values.tolist() == [[414, 146], [1374, 1113],
                                                                                      [2493, 376]]
    non = frame[frame.article == "900004"].iloc[0]
    assert non.rel_size == 0 and non.doc_length == 940 and pd.isna(non.offset) and pd.isna(non.bep)


def test_a_read_qrels_is_not_read_or_prepared_again(monkeypatch):
    import readsim.operations.inputs as inputs

    calls = []
    real = inputs._read_qrels
    monkeypatch.setattr(inputs, "_read_qrels", lambda *a, **kw: calls.append(a) or real(*a, **kw))
    qrels = readsim.read_qrels(S.qrels)
    assert len(calls) == 1
    for path in S.runs:
        readsim.evaluate(qrels, path)
    assert len(calls) == 1


def test_bad_frame_rows_are_errors_naming_the_row():
    frame = pd.DataFrame({"topic": ["2026001"] * 3, "article": ["900001", "900002", "900003"],
                          "offset": [0, 10, -5], "length": [5, 5, 5]})
    with pytest.raises(readsim.InputError) as info:
        readsim.evaluate(S.qrels, frame)
    assert info.value.path == "<run DataFrame>" and info.value.line == 3
    half = frame.assign(offset=[0, None, 4])
    with pytest.raises(readsim.InputError, match="offset and length go together") as info:
        readsim.evaluate(S.qrels, half)
    assert info.value.line == 2
    with pytest.raises(readsim.InputError, match="no column article"):
        readsim.evaluate(S.qrels, frame.drop(columns="article"))
    with pytest.raises(readsim.InputError, match="not a whole number") as info:
        readsim.evaluate(S.qrels, frame.assign(offset=[0, 1.5, 2]))
    assert info.value.line == 2


def test_file_errors_name_file_and_line(tmp_path):
    bad = tmp_path / "bad.run"
    bad.write_text("2026001 Q0 900001 1 1.0 r 10 5\n2026001 Q0 900002 2 0.9 r 10 x\n")
    with pytest.raises(readsim.InputError) as info:
        readsim.evaluate(S.qrels, bad)
    assert (info.value.path, info.value.line) == (str(bad), 2)
    with pytest.raises(readsim.InputError):
        readsim.read_qrels(tmp_path / "missing.qrels")


def test_warnings_are_input_warnings_once_per_cause():
    frame = pd.DataFrame({"topic": ["2026001", "9999"], "article": ["900001", "900001"]})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        for _ in range(3):
            readsim.evaluate(S.qrels, frame)
    said = [w for w in caught if "9999" in str(w.message)]
    assert len(said) == 1 and said[0].category is readsim.InputWarning
    assert "not in the qrels" in str(said[0].message)


def test_options_are_checked():
    with pytest.raises(ValueError, match="per must be"):
        readsim.evaluate(S.qrels, GOOD, per="run")
    with pytest.raises(ValueError, match="document measure"):
        readsim.evaluate(S.qrels, GOOD, ["F(0.25)"])
    with pytest.raises(ValueError, match="list measure"):
        readsim.evaluate(S.qrels, GOOD, ["MAP"], per="article")
    with pytest.raises(ValueError):
        readsim.evaluate(S.qrels, GOOD, reading="sideways")
    with pytest.raises(TypeError):
        readsim.evaluate(S.qrels, 42)


def test_runs_sharing_an_id_are_labelled_by_file_name(tmp_path):
    a, b = tmp_path / "a.run", tmp_path / "b.run"
    for p in (a, b):
        p.write_text("2026001 Q0 900001 1 1.0 same 1374 1113\n")
    with pytest.warns(readsim.InputWarning, match="shared by 2 runs"):
        frame = readsim.evaluate(S.qrels, [a, b])
    assert list(frame.run) == ["a.run", "b.run"]


@pytest.mark.filterwarnings("ignore::readsim.InputWarning")  # the interleaved article, said twice
def test_xpath_and_whole_article_lines_round_trip(tmp_path):
    run = tmp_path / "mixed.run"
    run.write_text("2026001 Q0 900001 1 3.5 mixed /article[1]/bdy[1]/sec[2]/p[1]\n"
                   "2026001 Q0 900001 1 3.5 mixed 1374 100\n"
                   "2026001 Q0 900003 2 2.5 mixed\n"
                   "2026001 Q0 900001 3 1.5 mixed /article[1]/bdy[1]/sec[1]/p[2]\n")  # interleaved: rank 1
    frame = readsim.read_run(run).to_frame()
    assert list(frame.xpath.fillna("")) == ["/article[1]/bdy[1]/sec[2]/p[1]", "", "", "/article[1]/bdy[1]/sec[1]/p[2]"]
    assert list(frame["rank"]) == [1, 1, 2, 1] and list(frame.rsv) == [3.5, 3.5, 2.5, 1.5]
    assert frame.offset.isna().tolist() == [True, False, True, True]
    measures = ["AgP/F(0.25)", "MAiP", "num_ret"]
    direct = readsim.evaluate(S.qrels, run, measures, per="topic", collection=S.collection)
    again = readsim.evaluate(S.qrels, frame, measures, per="topic", collection=S.collection)
    pd.testing.assert_frame_equal(direct, again)
    assert direct.value.iloc[2] == 2  # two ranked articles


def test_warnings_obey_the_filters_ignore_and_always():
    """A warning an "ignore" filter hid is shown by the next call that does not hide it; an
    "always" filter shows it at every call; the default filter once (the test above)."""
    frame = pd.DataFrame({"topic": ["2026001", "9999"], "article": ["900001", "900001"]})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("ignore")
        readsim.evaluate(S.qrels, frame)
        warnings.simplefilter("default")
        readsim.evaluate(S.qrels, frame)
        readsim.evaluate(S.qrels, frame)
    assert len([w for w in caught if "9999" in str(w.message)]) == 1  # hidden first, then shown once
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            readsim.evaluate(S.qrels, frame)
    assert len([w for w in caught if "9999" in str(w.message)]) == 3
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        warnings.filterwarnings("ignore", message=".*topic 9999", category=readsim.InputWarning)
        readsim.evaluate(S.qrels, frame.assign(topic=["2026001", "9998"]))
    assert [str(w.message) for w in caught if "999" in str(w.message)] == [
        next(str(w.message) for w in caught if "9998" in str(w.message))]


def test_read_run_recognises_a_json_lines_run_as_readsim_eval_does(tmp_path):
    """Reference 2.11: a run whose first non-blank line starts with ``{`` is JSON Lines spans, for the
    API as for readsim-eval and the window (before, the API read it as FOL and refused its line 1)."""
    path = tmp_path / "spans.jsonl"
    path.write_text('\n{"topic": "1", "doc": "d1", "start": 10, "end": 30, "rank": 1, "run": "r"}\n'
                    '{"topic": "1", "doc": "d2", "start": 0, "end": 5, "rank": 2, "run": "r"}\n', encoding="utf-8")
    run = readsim.read_run(path)
    frame = run.to_frame()
    assert run.run_id == "r"
    assert list(frame["article"]) == ["d1", "d2"]
    assert list(frame["offset"]) == [10, 0] and list(frame["length"]) == [20, 5]  # [10, 30) and [0, 5)
