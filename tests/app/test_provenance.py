"""Tables exported with provenance (app/provenance.py): comment lines + rows in CSV, one object in JSON."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from readsim.app.provenance import write_table

PROV = {"readsim": "1.0", "files": {"qrels": "q.qrels", "runs": ["a.run", "b <b>.run"]}, "run_file": "edited from a.run, 2 edits",
        "settings": {"screen": 300, "beta": 0.25}}
ROWS = [{"topic": "2009001", "value": 0.1 + 0.2, "note": None}, {"topic": "2009002", "value": -1.5, "note": "x,y"}]


def test_csv_has_provenance_comments_then_the_table(tmp_path):
    path = write_table(tmp_path / "t.csv", ("topic", "value", "note"), ROWS, PROV)
    text = path.read_text()
    head = [line for line in text.splitlines() if line.startswith("#")]
    assert "# files.qrels: q.qrels" in head
    assert "# files.runs: a.run; b <b>.run" in head
    assert "# run_file: edited from a.run, 2 edits" in head
    assert "# settings.screen: 300" in head
    frame = pd.read_csv(path, comment="#", dtype={"topic": str})
    assert list(frame.columns) == ["topic", "value", "note"]
    assert frame["topic"].tolist() == ["2009001", "2009002"]
    # full precision: 0.1 + 0.2 is 0.30000000000000004, not 0.3
    assert frame["value"].iloc[0] == 0.30000000000000004
    assert frame["note"].iloc[1] == "x,y"


def test_json_holds_provenance_columns_and_rows(tmp_path):
    path = write_table(tmp_path / "t.json", ("topic", "value"), ROWS, PROV)
    data = json.loads(path.read_text())
    assert data["provenance"]["run_file"] == "edited from a.run, 2 edits"
    assert data["columns"] == ["topic", "value"]
    assert data["rows"][1] == {"topic": "2009002", "value": -1.5}


def test_a_newline_in_a_value_stays_in_its_comment(tmp_path):
    path = write_table(tmp_path / "t.csv", ("a",), [{"a": 1}], {"run_file": "x\ny"})
    assert path.read_text().splitlines()[:2] == ["# run_file: x y", "a"]


def test_other_suffix_is_refused_and_nothing_written(tmp_path):
    with pytest.raises(ValueError, match=r"\.csv or \.json"):
        write_table(tmp_path / "t.txt", ("a",), [], {})
    assert not (tmp_path / "t.txt").exists()
