"""A place in the window for a widget built after the window's first frame: :class:`Deferred`.

The plots (pyqtgraph) are what a start-up can skip: importing pyqtgraph alone takes about
175 ms, more than a bare PySide6 window needs to start. The window therefore shows the article
and its scores first, then the ranked list, and builds its plots once the loading it started is
done (:func:`build_when_idle`), or as soon as something asks for a plot (``window.plot``, an
export).
Until then a :class:`Deferred` is an empty pane saying "plot follows…".

Calls meant for the widget that come before it exists go through :meth:`Deferred.call`: the
last call of each method is kept and replayed, in order, when the widget is built (the plots
draw state: only the latest matters). :meth:`Deferred.when_built` runs set-up code then.
"""

from __future__ import annotations

from collections.abc import Callable

import shiboken6
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget
from .. import appearance as look
from ..plain import plain_label

#: after the first frame the plots wait for the loading that runs then, at most this long (ms)
IDLE_WAIT_LIMIT_MS = 1500


class Deferred(QWidget):
    """Holds the widget ``build()`` returns; built on :meth:`widget` (or at once: ``eager``).

    ``build`` runs in the GUI thread and may import what it needs; it must not depend on
    anything but state it reads itself when called (the session) and the calls replayed."""

    def __init__(self, build: Callable[[], QWidget], eager: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._build = build
        self._widget: QWidget | None = None
        self._pending: dict[str, tuple] = {}
        self._hooks: list[Callable[[QWidget], None]] = []
        self._on_show = False  # built on the next show (left out by build_all while hidden)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self._placeholder: QLabel | None = plain_label("plot follows…")
        self._placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._placeholder.setStyleSheet(f"color:{look.css('disabled')}; background:{look.plot_colours()[0]};")
        lay.addWidget(self._placeholder)
        if eager:
            self.widget()

    def built(self) -> bool:
        return self._widget is not None

    def showEvent(self, event) -> None:  # Qt's name
        super().showEvent(event)
        if self._on_show:
            self._on_show = False
            self.widget()

    def widget(self) -> QWidget:
        """The widget, built now if it was not yet (then the kept calls and hooks run)."""
        if self._widget is None:
            w = self._build()
            self._widget = w
            self.layout().addWidget(w)
            w.show()  # a layout shows a child added to a visible widget only on the next turn
            if self._placeholder is not None:
                self._placeholder.deleteLater()
                self.layout().removeWidget(self._placeholder)
                self._placeholder = None
            for fn in self._hooks:
                fn(w)
            self._hooks.clear()
            pending, self._pending = self._pending, {}
            for name, args in pending.items():
                getattr(w, name)(*args)
        return self._widget

    def call(self, name: str, *args) -> None:
        """``widget.name(*args)`` now if built, else when it is (the last call of ``name`` only)."""
        if self._widget is not None:
            getattr(self._widget, name)(*args)
        else:
            self._pending.pop(name, None)  # re-inserted: replayed in the order of the last calls
            self._pending[name] = args

    def when_built(self, fn: Callable[[QWidget], None]) -> None:
        """``fn(widget)`` now if built, else right after it is built."""
        if self._widget is not None:
            fn(self._widget)
        else:
            self._hooks.append(fn)


def build_all(root: QWidget) -> None:
    """Build every :class:`Deferred` under ``root`` that shows with it (in its open docks too);
    one in a closed dock (the Sensitivity dock's plots) is built when first shown."""
    for d in root.findChildren(Deferred):
        if d.isVisibleTo(root):
            d.widget()
        else:
            d._on_show = True


def build_when_idle(root: QWidget, limit_ms: int = IDLE_WAIT_LIMIT_MS) -> None:
    """Build ``root``'s deferred widgets once no background job is in flight (the loading the
    window started), at the latest ``limit_ms`` from now; call after the first show. (Built
    as soon as the first article shows, while the topic's rows are evaluated, they made the
    whole start-up 60-80 ms longer: both want Python's lock.)"""
    from ..background import activity

    act = activity()
    state = {"done": False, "connected": False}

    def build() -> None:
        if state["done"]:
            return
        state["done"] = True
        if state["connected"]:
            act.idle.disconnect(build)
        if shiboken6.isValid(root):  # the window may be gone
            build_all(root)

    if act.count == 0:
        QTimer.singleShot(0, root, build)
        return
    act.idle.connect(build)
    state["connected"] = True
    QTimer.singleShot(limit_ms, root, build)
