"""Hostile and careless input to ``import readsim``: every path, argument and frame gets the
documented error (docs/api.md, "Errors and warnings"), never a hang, a foreign exception or a
silently wrong number. Real inputs only: the shipped sample, /dev/zero, files in tmp_path."""

import os
import re
import shutil
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

import readsim

S = readsim.sample()
ARTICLE = {"topic": S.topic, "article": "900001"}


def _said(call) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [str(w.message) for w in caught if issubclass(w.category, readsim.InputWarning)]


# -- 1. paths that are not regular files ------------------------------------------------------------

DEVICE = [
    ("qrels", lambda p: readsim.read_qrels(p)),
    ("run", lambda p: readsim.read_run(p)),
    ("qrels", lambda p: readsim.evaluate(p, S.runs[0])),
    ("run", lambda p: readsim.evaluate(S.qrels, p)),
    ("run", lambda p: readsim.evaluate(S.qrels, {"x": p})),
    ("qrels", lambda p: readsim.loss(p, S.runs[0])),
    ("run", lambda p: readsim.loss(S.qrels, S.runs[0], vs=p)),
    ("run", lambda p: readsim.sweep(S.qrels, p, "AgP/T2IF(300)", "t=1,2")),
    ("run", lambda p: readsim.article(S.qrels, p, **ARTICLE)),
    ("collection", lambda p: readsim.evaluate(S.qrels, S.runs[0], collection=p)),
    ("collection", lambda p: readsim.Collection(p)),
    ("collection", lambda p: readsim.fidelity(S.qrels, p, "MAiP")),
]


@pytest.mark.parametrize("kind, call", DEVICE)
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_is_refused_with_the_clis_message_before_it_is_read(kind, call, device):
    from readsim.core.coverage import check_input_path

    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    with pytest.raises(readsim.InputError) as cli:
        check_input_path(device, kind)
    with pytest.raises(readsim.InputError) as api:
        call(device)
    assert (api.value.path, api.value.line, api.value.reason) == (device, None, cli.value.reason)


def test_a_fifo_and_a_folder_are_refused_without_waiting(tmp_path):
    fifo = tmp_path / "run.fifo"
    os.mkfifo(fifo)
    code = f"import readsim\ntry:\n    readsim.read_run({str(fifo)!r})\nexcept readsim.InputError as e:\n    print(e)\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)  # 10x+ margin
    assert done.stdout.strip() == f"{fifo}: is a FIFO (named pipe), not a regular run file"
    with pytest.raises(readsim.InputError, match="is a folder, not a qrels file"):
        readsim.read_qrels(tmp_path)


@pytest.mark.parametrize("bad", [5, None, b"x.run"])
def test_a_path_that_is_not_a_path_is_a_type_error(bad):
    with pytest.raises(TypeError, match=r"^run: expected a path"):
        readsim.read_run(bad)  # 5 would have been read as file descriptor 5


def test_the_cli_says_the_same_for_a_device():
    done = subprocess.run([sys.executable, "-m", "readsim.cli", "/dev/zero", str(S.runs[0])],
                          capture_output=True, text=True, timeout=120)
    with pytest.raises(readsim.InputError) as api:
        readsim.read_qrels("/dev/zero")
    assert str(api.value) in done.stderr


# -- 2. arguments: ValueError for options, TypeError for inputs --------------------------------------

BAD_OPTIONS = [
    ("vary", lambda: readsim.sweep(S.qrels, S.runs[0], "AgP/T2IF(300)", 5)),
    ("vary", lambda: readsim.sweep(S.qrels, S.runs[0], "AgP/T2IF(300)", {"t": [1, 2]})),
    ("vary", lambda: readsim.sweep(S.qrels, S.runs[0], "AgP/T2IF(300)")),
    ("measures", lambda: readsim.evaluate(S.qrels, S.runs[0], 5)),
    ("measures", lambda: readsim.evaluate(S.qrels, S.runs[0], ["MAiP", 5])),
    ("measure", lambda: readsim.parse_measure(5)),
    ("measure", lambda: readsim.loss(S.qrels, S.runs[0], 5)),
    ("per", lambda: readsim.evaluate(S.qrels, S.runs[0], per=5)),
    ("reading", lambda: readsim.evaluate(S.qrels, S.runs[0], reading=5)),
    ("reading", lambda: readsim.loss(S.qrels, S.runs[0], reading="sideways")),
    ("all_topics", lambda: readsim.evaluate(S.qrels, S.runs[0], all_topics="no")),
    ("all_topics", lambda: readsim.sweep(S.qrels, S.runs[0], "AgP/T2IF(300)", "t=1,2", all_topics=1)),
    ("strict", lambda: readsim.read_run(S.runs[0], strict="x")),
    ("alpha", lambda: readsim.compare(S.qrels, S.runs, "MAiP", alpha="x")),
    ("resamples", lambda: readsim.compare(S.qrels, S.runs, "MAiP", resamples=2.5)),
    ("seed", lambda: readsim.compare(S.qrels, S.runs, "MAiP", seed="x")),
    ("test", lambda: readsim.compare(S.qrels, S.runs, "MAiP", test=5)),
    ("levels", lambda: readsim.loss(S.qrels, S.runs[0], levels="x")),
    ("topics", lambda: readsim.loss(S.qrels, S.runs[0], topics=2.5)),
    ("topics", lambda: readsim.fidelity(S.qrels, S.collection, "MAiP", topics={"a": 1})),
    ("topic", lambda: readsim.article(S.qrels, S.runs[0], topic=["x"], article="900001")),
    ("screen", lambda: readsim.article(S.qrels, S.runs[0], **ARTICLE, screen="x")),
    ("tolerance", lambda: readsim.article(S.qrels, S.runs[0], **ARTICLE, tolerance=True)),
    ("beta", lambda: readsim.article(S.qrels, S.runs[0], **ARTICLE, beta="x")),
    ("entry", lambda: readsim.article(S.qrels, S.runs[0], **ARTICLE, reading="entry", entry="x")),
    ("per", lambda: readsim.elements.evaluate(None, None, per="article")),
]


@pytest.mark.parametrize("name, call", BAD_OPTIONS, ids=[f"{n}-{k}" for k, (n, _) in enumerate(BAD_OPTIONS)])
def test_a_bad_option_is_a_value_error_naming_it(name, call):
    with pytest.raises(ValueError) as info:
        call()
    assert type(info.value) is not readsim.InputError and name in str(info.value)


@pytest.mark.parametrize("call", [
    lambda: readsim.evaluate(5, S.runs[0]), lambda: readsim.evaluate(S.qrels, None),
    lambda: readsim.evaluate(S.qrels, S.runs[0], collection=5),
    lambda: readsim.sweep(S.qrels, [S.runs[0], S.runs[1]], "AgP/T2IF(300)", "t=1,2"),  # one run, not the first
    lambda: readsim.loss(S.qrels, {"a": S.runs[0]}),
])
def test_an_input_of_the_wrong_type_is_a_type_error(call):
    with pytest.raises(TypeError, match=r"^(qrels|run|collection): expected"):
        call()


def test_topics_may_be_one_id():
    assert readsim.loss(S.qrels, S.runs[0], topics=S.topic).equals(readsim.loss(S.qrels, S.runs[0], topics=[S.topic]))


# -- 3. frames: the column and the row -------------------------------------------------------------


def _run_frame():
    return readsim.read_run(S.runs[0]).to_frame()


def _qrels_frame():
    return readsim.read_qrels(S.qrels).to_frame()


def test_a_uint64_offset_of_2_to_the_63_names_column_and_row():
    run = _run_frame()
    run["offset"] = np.array([5] + [2**63] * (len(run) - 1), dtype=np.uint64)
    with pytest.raises(readsim.InputError) as info:
        readsim.evaluate(S.qrels, run)
    assert (info.value.line, info.value.reason) == (2, "offset 9223372036854775808 is not a whole number (below 2^63)")


@pytest.mark.parametrize("value, shown", [(1e300, "1e+300"), (float("inf"), "inf"), (True, "True")])
def test_a_float_beyond_int64_or_a_bool_is_not_a_whole_number(value, shown):
    run = _run_frame().astype({"offset": object})
    run.loc[2, "offset"] = value
    with pytest.raises(readsim.InputError, match="^<run DataFrame>:3: offset " + re.escape(shown) + " is not a whole number"):
        readsim.evaluate(S.qrels, run)


def test_a_bool_column_is_not_a_column_of_numbers():
    run = _run_frame()
    run["length"] = run["length"] > 0
    with pytest.raises(readsim.InputError, match=r"^<run DataFrame>:1: length True is not a whole number"):
        readsim.evaluate(S.qrels, run)


@pytest.mark.parametrize("column", ["offset", "topic", "run_id"])
def test_a_column_given_twice_is_named(column):
    run = _run_frame()
    twice = pd.concat([run, run[[column]]], axis=1)
    with pytest.raises(readsim.InputError, match=rf"^<run DataFrame>: two columns named {column} "):
        readsim.evaluate(S.qrels, twice)


def test_a_missing_doc_length_is_blamed_on_doc_length_at_its_row():
    qrels = _qrels_frame().astype({"doc_length": "float64"})
    qrels.loc[3, "doc_length"] = np.nan
    with pytest.raises(readsim.InputError) as info:
        readsim.evaluate(qrels, S.runs[0])
    assert (info.value.path, info.value.line) == ("<qrels DataFrame>", 4)
    assert info.value.reason == "doc_length is missing (every row needs one)"


def test_a_uint64_rel_size_below_2_to_the_63_is_read_as_int64():
    qrels = _qrels_frame()
    qrels["rel_size"] = qrels["rel_size"].astype(np.uint64)
    assert readsim.evaluate(qrels, S.runs).equals(readsim.evaluate(S.qrels, S.runs))


# -- 4. units --------------------------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda: readsim.evaluate(S.qrels, S.runs[0], unit="words"),
    lambda: readsim.Collection(S.collection, unit="words"),
    lambda: readsim.sweep(S.qrels, S.runs[0], "AgP/T2IF(300)", "t=1,2", unit="words"),
    lambda: readsim.loss(S.qrels, S.runs[0], unit="words"),
    lambda: readsim.compare(S.qrels, S.runs, "MAiP", unit="words"),
    lambda: readsim.article(S.qrels, S.runs[0], **ARTICLE, unit="words"),
    lambda: readsim.elements.derive_assessments(S.qrels, S.collection, unit="words"),
])
def test_an_unknown_unit_is_refused_naming_the_allowed_ones(call):
    with pytest.raises(ValueError, match=r"^unit must be one of bytes, chars, not 'words'$"):
        call()


# -- 5. empty qrels and runs: the CLI's warning -----------------------------------------------------


def test_an_empty_qrels_file_warns_as_the_cli_does(tmp_path):
    path = tmp_path / "empty.qrels"
    path.write_bytes(b"\n  \n")
    said = _said(lambda: readsim.read_qrels(path))
    assert said == [f"{path}: warning: no judgement (the qrels file is empty); every article counts as non-relevant "
                    "and every mean is 0"]
    done = subprocess.run([sys.executable, "-m", "readsim.cli", str(path), str(S.runs[0])],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and said[0] in done.stderr


def test_an_empty_run_file_warns(tmp_path):
    path = tmp_path / "empty.run"
    path.write_bytes(b"")
    assert _said(lambda: readsim.read_run(path)) == [f"{path}: warning: no result line (the run is empty); every mean is 0"]


# -- 6. an explanation prints as text ----------------------------------------------------------------


def test_an_explanation_prints_as_its_text():
    e = readsim.article(S.qrels, S.runs[0], **ARTICLE, collection=S.collection).explain("T2IF(300)")
    assert str(e) == e.text() and str(e).startswith("T2IF(300)   (reference §4.3)\n")
    assert "Explanation(" in repr(e)


# -- 7. run labels ---------------------------------------------------------------------------------


def test_a_dict_names_the_runs(tmp_path):
    copy = tmp_path / "copy.run"
    shutil.copy(S.runs[0], copy)
    frame = readsim.evaluate(S.qrels, {"mine": S.runs[0], "again": copy, "frame": _run_frame()})
    assert frame.run.tolist() == ["mine", "again", "frame"]
    assert frame.value.iloc[0] == frame.value.iloc[1] == frame.value.iloc[2]
    per_article = readsim.evaluate(S.qrels, {"x": S.runs[1]}, per="article")
    assert set(per_article.run) == {"x"}
    with pytest.raises(ValueError, match="keys are the runs' labels"):
        readsim.evaluate(S.qrels, {1: S.runs[0]})


def test_without_a_dict_the_run_id_labels_unless_shared(tmp_path):
    copy = tmp_path / "copy.run"
    shutil.copy(S.runs[0], copy)
    assert readsim.evaluate(S.qrels, copy).run.tolist() == ["good-passages"]
    said = _said(lambda: readsim.evaluate(S.qrels, [S.runs[0], copy]))
    assert readsim.evaluate(S.qrels, [S.runs[0], copy]).run.tolist() == ["good-passages.run", "copy.run"]
    assert any("run id 'good-passages' is shared by 2 runs" in m for m in said)


# -- 8. the namespace ------------------------------------------------------------------------------


def test_the_namespace_lists_the_public_api_only():
    code = ("import readsim; print(sorted(dir(readsim)) == sorted(readsim.__all__), "
            "[n for n in ('annotations', 'import_module') if n in vars(readsim)])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["True", "[]"]
    for name in readsim.__all__:
        getattr(readsim, name)
    assert sorted(dir(readsim)) == sorted(readsim.__all__)
    assert not {"annotations", "import_module"} & set(vars(readsim))


# -- 9. a run with no judged topic: the same warning everywhere ------------------------------------

NONE_JUDGED = "<run DataFrame>: warning: no topic of the run is judged in the qrels; "


@pytest.mark.parametrize("which", ["empty", "unjudged"])
@pytest.mark.parametrize("call", [
    lambda r: readsim.evaluate(S.qrels, r),
    lambda r: readsim.evaluate(S.qrels, r, per="article"),
    lambda r: readsim.sweep(S.qrels, r, "AgP/T2IF(300)", "t=1,2"),
    lambda r: readsim.loss(S.qrels, r),
    lambda r: readsim.loss(S.qrels, r, per="topic"),
])
def test_every_entry_point_warns_when_no_topic_is_judged(which, call):
    run = _run_frame()
    run = run.iloc[:0] if which == "empty" else run.assign(topic="1999001")
    assert any(m.startswith(NONE_JUDGED) for m in _said(lambda: call(run)))


def test_compare_warns_before_it_refuses():
    run = _run_frame().assign(topic="1999001")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="0 judged topics shared"):
            readsim.compare(S.qrels, {"a": run, "b": run}, "MAiP")
    assert any(str(w.message).startswith(NONE_JUDGED) for w in caught)


def test_the_cli_loss_warns_as_readsim_loss(tmp_path):
    path = tmp_path / "other.run"
    path.write_text("1999001 Q0 900001 1 1.0 other 0 10\n")
    said = _said(lambda: readsim.loss(S.qrels, path))
    done = subprocess.run([sys.executable, "-m", "readsim.cli", "loss", str(S.qrels), str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0
    assert f"{path}: warning: no topic of the run is judged in the qrels; no loss to report" in said
    assert all(m in done.stderr for m in said)
