"""The bundle's launchers' one function (docs/bundle.md).

In the bundle ``sys.executable`` is the program itself, not a Python, yet readsim starts its
children as ``sys.executable -m MODULE ARGS`` (an archive's index:
``readsim.core.index_child``; the API's ``show()``: ``readsim.app.main``). :func:`start` runs
such a start as ``python -m`` would; any other start is the program's own ``main``.
"""

from __future__ import annotations

import runpy
import sys
from collections.abc import Callable


def start(main: Callable[[], int]) -> int:
    """Run ``MODULE`` when started as ``PROGRAM -m MODULE ARGS`` (``sys.argv`` becomes
    ``[MODULE, *ARGS]``, as under ``python -m``; its exit code is its ``SystemExit``'s), else
    ``main()``. Returns the exit code. Raises what ``runpy.run_module`` raises for an unknown
    module (``ImportError``)."""
    if len(sys.argv) >= 3 and sys.argv[1] == "-m":
        module = sys.argv[2]
        sys.argv = [module, *sys.argv[3:]]
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        return 0
    return main()
