"""The element mode's ranked-elements model without a window: fed by one ``set_view`` on a run
written by hand, it gives the cells and roles worked out by hand.

Three ranked elements (bytes): #1 ``A /article[1]`` (e 3, s 3, f strict 1, f gen 1; 1,000 bytes,
none shown before), #2 ``A /article[1]/sec[1]`` (e 2, s 3, f gen 0.75; 400 bytes, all inside #1:
all seen), #3 ``B /article[1]/p[2]`` tied at rank 2 (e 0, s 0; 300 bytes of which 100 shown
before: 33%)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from PySide6.QtCore import Qt

from readsim.app.elements_model import RunView
from readsim.app.widgets.elements_table import (E, F_GEN, HEADERS, OVERLAP, POSITION_ROLE, XPATH,
                                                ElementTableModel)


def run_view() -> RunView:
    ranked = [("A", "/article[1]", 1, 5.0, 1), ("A", "/article[1]/sec[1]", 2, 4.0, 2), ("B", "/article[1]/p[2]", 2, 4.0, 3)]
    entries = [SimpleNamespace(article=a, xpath=x, rank=r, rsv=v, line=n, index=k)
               for k, (a, x, r, v, n) in enumerate(ranked)]
    f = {"strict": np.array([1.0, 0.0, 0.0]), "gen": np.array([1.0, 0.75, 0.0])}
    values = SimpleNamespace(rank=np.array([1, 2, 2]), e=np.array([3, 2, 0]), s=np.array([3, 3, 0]),
                             size=np.array([1000, 400, 300]), unseen=np.array([1000, 0, 200]),
                             seen=np.array([0, 400, 100]), f=lambda q: f[q])
    return RunView(name="hand", path="/runs/hand.run", entries=entries, values=values, curves={})


def test_cells_of_a_hand_made_run(qapp):
    model = ElementTableModel()
    model.set_view(run_view(), "bytes")
    assert model.rowCount() == 3 and model.columnCount() == len(HEADERS) == 11
    texts = [[model.text(r, c) for c in range(11)] for r in range(3)]
    assert texts == [
        ["1", "1", "A", "/article[1]", "3", "3", "1.00", "1.00", "1,000", "1,000", "—"],
        ["2", "2", "A", "/article[1]/sec[1]", "2", "3", "0.00", "0.75", "400", "0", "all seen"],
        ["3", "2", "B", "/article[1]/p[2]", "0", "0", "0.00", "0.00", "300", "200", "33% seen"]]
    index = model.index(2, XPATH)
    assert model.data(index, POSITION_ROLE) == 2
    assert model.data(model.index(2, E), Qt.ItemDataRole.ForegroundRole) is not None  # f gen 0: greyed
    assert model.data(model.index(0, E), Qt.ItemDataRole.ForegroundRole) is None
    # f gen shaded by its value (alpha 30 + 90 f), the overlap by the part seen (25 + 70 seen/size)
    assert model.data(model.index(0, F_GEN), Qt.ItemDataRole.BackgroundRole).color().alpha() == 120
    assert model.data(model.index(1, F_GEN), Qt.ItemDataRole.BackgroundRole).color().alpha() == 97
    assert model.data(model.index(2, F_GEN), Qt.ItemDataRole.BackgroundRole) is None
    assert model.data(model.index(2, OVERLAP), Qt.ItemDataRole.BackgroundRole).color().alpha() == 48
    tip = model.data(model.index(1, XPATH), Qt.ItemDataRole.ToolTipRole)
    assert "A /article[1]/sec[1]" in tip and "rank 2 · rsv 4 · line 2" in tip and "f gen 0.75" in tip
    assert "size 400 bytes, unseen 0, already shown 400" in tip
    model.set_view(None)
    assert model.rowCount() == 0
