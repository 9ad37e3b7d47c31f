"""The hostile suite's window rows get the GUI tests' fixtures (fresh settings, GC in the GUI
thread)."""

from gui_fixtures import fresh_settings, gui_thread_gc  # noqa: F401 (autouse; tests/ is on sys.path)
