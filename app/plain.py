"""Text from input files reaches the screen as plain text, never HTML (docs/reference.md §10).

Qt guesses: a :class:`QLabel` (``Qt.AutoText``), a :class:`QMessageBox` and a tooltip render a
string as HTML when :func:`Qt.mightBeRichText` says it looks like HTML, and pyqtgraph's titles,
axis labels and legends are always HTML. A topic title ``<img src="/dev/zero">`` shown that way
makes Qt open and read the named file (a FIFO hangs the window, ``/dev/zero`` fills the memory)
and ``<b>`` changes what is shown. One rule, no guessing:

- every label is made by :func:`plain_label` (``Qt.PlainText``: any text is shown literally) or
  :func:`rich_label` (``Qt.RichText``: our own words formatted, every interpolated value through
  :func:`esc`);
- every message box by :func:`message_box` (``Qt.PlainText``);
- every tooltip that holds a value by :func:`plain_tip` (the text, literally, whatever it holds);
- every pyqtgraph title, axis label or legend entry that holds a value through :func:`esc`.

Item views (tables, lists, combo boxes), window titles, menus, buttons and the status bar's own
message draw plain text already.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QLabel, QMessageBox, QWidget


def esc(value: object) -> str:
    """``str(value)`` escaped for HTML (``&``, ``<``, ``>``, quotes): shown as written."""
    return html.escape(str(value), quote=True)


def plain_label(text: str = "", parent: QWidget | None = None) -> QLabel:
    """A label that shows ``text`` literally (``Qt.PlainText``), markup and all."""
    label = QLabel(text, parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def rich_label(text: str = "", parent: QWidget | None = None) -> QLabel:
    """A label that renders ``text`` as HTML (``Qt.RichText``): for our own formatted words only;
    every value from a file in it goes through :func:`esc`."""
    label = QLabel(text, parent)
    label.setTextFormat(Qt.TextFormat.RichText)
    return label


def plain_tip(text: str) -> str:
    """A tooltip showing ``text`` literally. Qt renders a tooltip as HTML when it looks like
    HTML; such a text is escaped and wrapped so that Qt shows the escaped characters, with
    its line breaks. Any other text is returned as is (Qt shows it plain)."""
    if not GuiQt.mightBeRichText(text):
        return text
    return GuiQt.convertFromPlainText(text, Qt.WhiteSpaceMode.WhiteSpacePre)


def message_box(icon: QMessageBox.Icon, title: str, text: str, parent: QWidget | None = None,
                buttons: QMessageBox.StandardButton = QMessageBox.StandardButton.Ok) -> QMessageBox:
    """A message box showing ``text`` literally (``Qt.PlainText``)."""
    box = QMessageBox(icon, title, text, buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    return box


def amount(n: int, plural: str) -> str:
    """A count and its noun, in the singular for exactly one: ``amount(1, "bytes")`` ->
    ``"1 byte"``, ``amount(27562, "characters")`` -> ``"27,562 characters"`` (thousands
    separated). ``plural`` is the noun's plural ending in ``s`` (the units, ``passages``...)."""
    return f"{n:,} {plural[:-1] if n == 1 else plural}"


def menu_text(text: str) -> str:
    """``text`` for a menu item or a button, shown as written: ``&`` doubled (Qt reads a single
    ``&`` as the mark of a keyboard shortcut and hides it)."""
    return text.replace("&", "&&")
