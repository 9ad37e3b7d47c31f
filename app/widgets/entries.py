"""The names and shortcuts of the View menu's entries for windows built on first use (the Runs
window, the element mode): plain constants, so that the entries (:mod:`.on_demand`) and the
windows they open (:mod:`.runs_window`, :mod:`.elements_view`) share them without importing each
other. See docs/architecture.md ("What each module must never import")."""

RUNS_SHORTCUT = "Ctrl+Alt+R"
RUNS_TEXT = "Compare all runs"
ELEMENTS_SHORTCUT = "Ctrl+Alt+L"
ELEMENTS_TEXT = "Element retrieval (INEX 2002/2003)"
