"""docs/examples/five-runs.ipynb runs top to bottom on the real data (its code cells executed in
order in one namespace, as a kernel would), and is committed without outputs."""

from __future__ import annotations

import json
from pathlib import Path

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "examples" / "five-runs.ipynb"


def code_cells() -> list[dict]:
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    assert nb["nbformat"] == 4
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def test_the_notebook_is_committed_without_outputs():
    cells = code_cells()
    assert cells and all(c["outputs"] == [] and c["execution_count"] is None for c in cells)


def test_the_notebook_runs_on_the_real_data(inex, monkeypatch, capsys):
    monkeypatch.setenv("READSIM_DATA", str(inex))
    ns: dict = {"__name__": "__main__"}
    for k, cell in enumerate(code_cells()):
        exec(compile("".join(cell["source"]), f"{NOTEBOOK.name}[{k}]", "exec"), ns)
    assert list(ns["table"].index) == ["bert-passages-map19.run", "bert-passages-map199.run", "bert-passages.run",
                                       "indri", "indri-passages"]
    assert ns["comparison"]._repr_html_().startswith("<table>")
    html = ns["a"]._repr_html_()
    assert "<svg" in html and html.count("<span style='background:#ffe680'>") > 1  # the curve, relevant marks
    assert len(ns["diffs"]) > 100 and ns["Bars"](ns["diffs"])._repr_svg_().count("<rect") == len(ns["diffs"])
    assert "passages better on" in capsys.readouterr().out
