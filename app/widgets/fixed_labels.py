"""Labels whose text changes without re-laying the window out: a label of fixed width and
height does not invalidate its parents' layouts when its text changes (Qt's
``updateGeometry`` stops at a widget whose minimum and maximum sizes are equal), so a control
change repaints the changed labels only, instead of re-laying out the panel, its dock and the
window (1-2 ms a change for the topic dock alone). Shared by the score panel, the article
pane's line under the text, and the topic view's cards, square and wrapped lines."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFontMetrics, QPainter
from PySide6.QtWidgets import QApplication, QLabel


def fit_text(label: QLabel, text: str) -> None:
    """Set ``label``'s text keeping it at a fixed size that only grows: a label of fixed width
    and height does not invalidate the window's layout when its text changes (Qt's
    ``updateGeometry`` stops there), so a control change repaints the changed labels only
    instead of re-laying out the panel, the column and the splitter."""
    if label.text() == text and label.minimumSize() == label.maximumSize():
        return  # shown and fitted already (a size hint lays the text out: not for nothing)
    label.setText(text)
    label._readsim_fit = None  # refit by refit_all
    hint = label.sizeHint()  # not kept by text: asked now, Qt's layouts find it in the label's cache
    w, h = max(hint.width(), label.minimumWidth()), max(hint.height(), label.minimumHeight())
    if (w, h) != (label.maximumWidth(), label.maximumHeight()) or (w, h) != (label.minimumWidth(), label.minimumHeight()):
        label.setFixedSize(w, h)  # grows once (a wider name or value), then stays


def fit_rich(label: QLabel, html: str, plain: str) -> None:
    """:func:`fit_text` for a one-line rich-text ``label`` showing ``html``, whose text without
    the markup is ``plain``. A rich label's size hint lays its HTML out as a document (about
    0.4 ms); the width ``plain`` takes in the label's font made bold, which no part of ``html``
    exceeds, decides instead whether the label must grow, so a new number costs no layout."""
    if label.text() == html and label.minimumSize() == label.maximumSize():
        return
    label.setText(html)
    label._readsim_fit = None
    bold = label.font()
    bold.setBold(True)
    need = QFontMetrics(bold).horizontalAdvance(plain) + 2
    if label.minimumSize() == label.maximumSize() and need <= label.maximumWidth():
        return  # fixed already, and wide enough
    hint = label.sizeHint()
    label.setFixedSize(max(hint.width(), need, label.minimumWidth()), max(hint.height(), label.minimumHeight()))


def set_wrapped(label: QLabel, text: str, width: int) -> None:
    """Set a word-wrapped ``label``'s text at the fixed ``width`` of its column, keeping the label
    at a fixed size (that width, the text's height): a fixed-size label does not invalidate the
    window's layout when its text changes (Qt's ``updateGeometry`` stops there), so a mode change
    repaints the label only; a text needing more or fewer lines resizes it."""
    if label.text() == text and label.minimumWidth() == width:
        return
    label.setText(text)
    label._readsim_fit = width
    h = _kept(label, ("height", text, width), lambda: _height(label, width))
    if (label.minimumWidth(), label.minimumHeight(), label.maximumWidth(), label.maximumHeight()) != (width, h, width, h):
        label.setFixedSize(width, h)


def refit_all() -> None:
    """Free every label these functions fixed: after a zoom (:mod:`readsim.app.appearance`) a
    fixed size that only grows would cut a bigger text. A free label takes its size hint in its
    new font (which Qt hands on to hidden widgets only later) and is fixed again with its next text."""
    for w in QApplication.allWidgets():
        if isinstance(w, QLabel) and "_readsim_fit" in w.__dict__:
            width = w._readsim_fit
            if width is None:
                w.setMinimumSize(0, 0)
                w.setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX)
            else:  # wrapped at its column's width: as high as its layout finds for that width
                w.setFixedWidth(width)
                w.setMinimumHeight(0)
                w.setMaximumHeight(QWIDGETSIZE_MAX)


QWIDGETSIZE_MAX = (1 << 24) - 1


def _height(label: QLabel, width: int) -> int:
    h = label.heightForWidth(width)
    return h if h >= 0 else label.sizeHint().height()


def _kept(label: QLabel, key: tuple, measure):
    """``measure()`` kept on ``label`` by ``key`` and the label's font: a height for width lays
    the text out (0.1-0.3 ms for a rich label, whose text is a document), and a mode change
    cycles through the same few texts. At most :data:`KEPT_SIZES` a label."""
    kept = label.__dict__.setdefault("_readsim_sizes", {})
    key = (*key, label.font().key(), label.margin(), label.indent())
    value = kept.get(key)
    if value is None:
        value = measure()
        if len(kept) >= KEPT_SIZES:
            kept.clear()
        kept[key] = value
    return value


KEPT_SIZES = 64
"""Heights a label keeps (:func:`set_wrapped`)."""


class WrappedLabel(QLabel):
    """A word-wrapped plain-text label whose least height is what its text needs at its width
    (Qt's own least height for a wrapped label is one line's): a column short of room (a laptop
    screen, the presentation zoom) then scrolls instead of drawing the wrapped lines over the
    rows above them."""

    def __init__(self, text: str = "", parent=None) -> None:
        super().__init__(text, parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        self._needs = 0

    def minimumSizeHint(self):
        hint = super().minimumSizeHint()
        return QSize(hint.width(), max(hint.height(), self._height()))

    def _height(self) -> int:
        return self.heightForWidth(self.width()) if self.width() > 0 and self.text() else 0

    def setText(self, text: str) -> None:
        super().setText(text)
        self._refit()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._refit()

    def _refit(self) -> None:
        """Ask the layout again when the height the text needs has changed."""
        needs = self._height()
        if needs != self._needs:
            self._needs = needs
            self.updateGeometry()


class ElidedLabel(QLabel):
    """A one-line plain-text label that gives its room up first (its size policy ignores its
    text) and, when short of room, ends its text with an ellipsis instead of cutting a word
    ("positions 0–3…", never "posit"); the whole text is then its tooltip."""

    def __init__(self, text: str = "", parent=None) -> None:
        super().__init__(text, parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self._tip = ""

    def setToolTip(self, tip: str) -> None:
        self._tip = tip
        super().setToolTip(tip)

    def shown_text(self) -> str:
        """The text as drawn at the label's width."""
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, self.contentsRect().width())

    def paintEvent(self, event) -> None:
        shown = self.shown_text()
        tip = self._tip if shown == self.text() else "\n".join(t for t in (self.text(), self._tip) if t)
        if super().toolTip() != tip:
            super().setToolTip(tip)
        painter = QPainter(self)
        self.style().drawItemText(painter, self.contentsRect(), int(self.alignment()), self.palette(), self.isEnabled(),
                                  shown, self.foregroundRole())
