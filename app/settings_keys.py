"""Every key the window remembers in its settings (:func:`readsim.app.input_files.app_settings`, a
``QSettings``), with the type it is read back as and its default: the one place a settings key
is spelt. Read and write them with :func:`read` and :func:`write`; no other module passes a key
string to ``value()`` or ``setValue()`` (``tests/app/test_settings_keys.py``).

No Qt here: the settings object is passed in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Key:
    """One settings key: its ``name`` in the settings file, the ``type`` its value is read back
    as (``bool`` converted by Qt; ``None``: as stored, a ``QByteArray`` of Qt's state or a
    string list) and the ``default`` when it is absent."""

    name: str
    type: type | None
    default: Any
    doc: str


# the main window (mainwindow.py): geometry, docks and toolbars, the three columns' widths
WINDOW_GEOMETRY = Key("window/geometry", None, None, "the main window's saveGeometry()")
WINDOW_STATE = Key("window/state", None, None, "the main window's saveState(): its docks")
WINDOW_SPLITTER = Key("window/splitter", None, None, "the three columns' splitter state")
# files.py: recent files, ``kind|path``, newest first
RECENT = Key("recent", None, [], "recent files as kind|path strings, newest first")
# appearance.py: View ▸ Zoom and View ▸ Theme
ZOOM = Key("view/zoom", None, 1.0, "the text zoom factor (a number; clamped when read)")
THEMES = ("system", "light", "dark")  # the themes View ▸ Theme and --theme offer
THEME = Key("view/theme", None, "system", "system, light or dark")
# widgets: the user's choices
TOPIC_VIEW_DOC = Key("topic_view/doc", None, None, "the topic view's document measure (F, T2IF, ...)")
RANKED_LIST_COLUMNS = Key("ranked_list/columns", None, None, "the ranked list's shown score columns")
SENSITIVITY_SWEEP = Key("sensitivity/sweep", None, None, "the Sensitivity dock's swept setting")
WORTH_LIST_MEASURE = Key("worth/list_measure", None, None, "the before/after box's list measure")
COMPARE_PLACED = Key("compare/placed", bool, False, "the A/B dock was placed once (floats the first time only)")
ELEMENTS_PLACED = Key("elements/placed", bool, False, "the element mode's dock was placed once")
RUNS_WINDOW_GEOMETRY = Key("runs_window/geometry", None, None, "the Runs window's saveGeometry()")

ALL = (WINDOW_GEOMETRY, WINDOW_STATE, WINDOW_SPLITTER, RECENT, ZOOM, THEME, TOPIC_VIEW_DOC, RANKED_LIST_COLUMNS,
       SENSITIVITY_SWEEP, WORTH_LIST_MEASURE, COMPARE_PLACED, ELEMENTS_PLACED, RUNS_WINDOW_GEOMETRY)


def read(settings, key: Key) -> Any:
    """``key``'s value in ``settings`` (a ``QSettings``), its default when absent."""
    if key.type is not None:
        return settings.value(key.name, key.default, type=key.type)
    return settings.value(key.name, key.default)


def write(settings, key: Key, value: Any) -> None:
    """Remember ``value`` under ``key`` in ``settings``."""
    settings.setValue(key.name, value)
