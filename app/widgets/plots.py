"""pyqtgraph as every plot of the window uses it: import ``pg`` from here, never pyqtgraph itself.

pyqtgraph reads its configuration (background, foreground, antialiasing) when a plot is built, so
the configuration is set once, on the import that every plot module shares: a plot built first
(the Sensitivity dock restored from the last session, before the precision plot) draws like any
other, never on pyqtgraph's black default."""

from __future__ import annotations

import pyqtgraph as pg

pg.setConfigOptions(antialias=True, background="w", foreground="#333")

__all__ = ["pg"]
