"""The labels of app/widgets/fixed_labels.py as a user sees them."""

from __future__ import annotations

from readsim.app.widgets.fixed_labels import ElidedLabel


def test_an_elided_label_ends_with_an_ellipsis_when_short_of_room_and_tells_the_whole_text(qtbot):
    label = ElidedLabel("positions 0–300 of 941")
    label.setToolTip("reading positions read on this screen")
    qtbot.addWidget(label)
    label.resize(400, 30)
    label.show()
    label.grab()  # painted: the tooltip follows what is drawn
    assert label.shown_text() == "positions 0–300 of 941" and label.toolTip() == "reading positions read on this screen"
    label.resize(label.fontMetrics().horizontalAdvance("positions") // 2, 30)
    label.grab()
    shown = label.shown_text()
    assert shown.endswith("…") and "positions 0–300 of 941".startswith(shown[:-1])
    assert label.toolTip() == "positions 0–300 of 941\nreading positions read on this screen"
