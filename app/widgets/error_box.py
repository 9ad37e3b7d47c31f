"""One non-modal warning box per window for the errors it tells: errors arriving while the box
is open are added to it, so a load of several bad files opens one box; the text is plain
(:func:`readsim.app.plain.message_box`). See docs/architecture.md."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from ..plain import message_box


class ErrorBox:
    """The box of ``parent`` titled ``title``: :meth:`tell` shows it (never blocking the event
    loop; ``window_modal``: modal to ``parent``'s window, ``QDialog.open``) or adds to it;
    :attr:`box` is the box while it is open, else None."""

    def __init__(self, parent: QWidget, title: str, window_modal: bool = False) -> None:
        self.parent, self.title, self.window_modal = parent, title, window_modal
        self.box: QMessageBox | None = None

    def tell(self, text: str) -> None:
        box = self.box
        if box is not None and box.isVisible():
            box.setText(box.text() + "\n\n" + text)
            return
        box = message_box(QMessageBox.Icon.Warning, self.title, text, self.parent)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(lambda _=0, b=box: self._closed(b))
        self.box = box
        if self.window_modal:
            box.open()
        else:
            box.setWindowModality(Qt.WindowModality.NonModal)
            box.show()

    def _closed(self, box: QMessageBox) -> None:
        if self.box is box:
            self.box = None
