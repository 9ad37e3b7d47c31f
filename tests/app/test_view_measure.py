"""A ``.readsim`` view carries the topic view's document measure S (the measure of its list
scores and of "where the run loses"; reference section 2.9, ``document_measure``): a view saved
with aveChP reopens on aveChP whatever the window last remembered; a view without the field (as
written before it existed) leaves the window's own choice; a bad value is named with the file."""

from __future__ import annotations

import json

import pytest

from readsim.app.input_files import app_settings
from readsim.app.view_file import ViewError, read_view
from readsim.app.view_state import save_view
from readsim.app.widgets.topic_view import SETTINGS_KEY
from readsim.core.samples import sample

from helpers.view_file import TOPIC, _good, _idle, _reopen, _window


def _saved(qtbot, tmp_path, kind: str):
    s0 = sample()
    w = _window(qtbot)
    w.session.open_files(s0.collection, s0.qrels, s0.runs, s0.topics, TOPIC, "900001")
    _idle(qtbot, w, "900001")
    w.topic_view.set_doc_kind(kind)
    path = tmp_path / "measure.readsim"
    save_view(w, path)
    return w, path


def test_a_view_reopens_on_its_document_measure(qtbot, tmp_path):
    w, path = _saved(qtbot, tmp_path, "aveChP")
    assert json.loads(path.read_text(encoding="utf-8"))["document_measure"] == "aveChP"
    assert read_view(path).document_measure == "aveChP"
    w.close()
    app_settings().setValue(SETTINGS_KEY, "T2IF")  # the user chose T2IF since: a fresh window opens on it
    w2 = _reopen(qtbot, path)
    _idle(qtbot, w2, "900001")
    assert w2.topic_view.doc_kind() == "aveChP"
    qtbot.waitUntil(lambda: "AgP/aveChP" in w2.topic_view.loss_panel.title.text(), timeout=30_000)
    assert "AgP/aveChP" in w2.topic_view.values()  # the list scores are aveChP's


def test_a_view_without_the_field_keeps_the_window_s_measure(qtbot, tmp_path):
    old = _good(tmp_path)  # a version-1 view as written before document_measure existed
    assert "document_measure" not in old and old["version"] == 1
    path = tmp_path / "old.readsim"
    path.write_text(json.dumps(old), encoding="utf-8")
    assert read_view(path).document_measure is None
    app_settings().setValue(SETTINGS_KEY, "T2IF")
    w = _reopen(qtbot, path)
    _idle(qtbot, w, "900001")
    assert w.topic_view.doc_kind() == "T2IF"
    assert w.session.topic == TOPIC and w.session.current.name == "900001"  # the view opened as before


@pytest.mark.parametrize("value, message", [
    ("nDCG", "field document_measure: must be one of aveChP, T2IF, T2IP, F, LE, ES, not \"nDCG\""),
    (3, "field document_measure: must be one of aveChP, T2IF, T2IP, F, LE, ES, not 3"),
])
def test_a_bad_document_measure_is_named_with_the_file(tmp_path, value, message):
    path = tmp_path / "bad.readsim"
    path.write_text(json.dumps({**_good(tmp_path), "document_measure": value}), encoding="utf-8")
    with pytest.raises(ViewError) as err:
        read_view(path)
    assert str(err.value) == f"{path}: {message}"
