"""``readsim-eval``: evaluate INEX runs from the command line (docs/reference.md section 9).

One module per subcommand over one shared module, none importing this one:

- :mod:`.evaluate_command`  ``readsim-eval QRELS RUN ...``: list measures like trec_eval,
  ``--per-article`` document scores, ``--check``;
- :mod:`.cwl_option`        ``readsim-eval QRELS RUN ... --cwl DIR``: each run's reader as C/W/L, cwl-eval's files;
- :mod:`.elements_command`  ``readsim-eval QRELS [RUN ...] --collection DIR --elements``: element
  assessments and the INEX 2002/2003 element metrics;
- :mod:`.compare_command`   ``readsim-eval compare``: significance, effect sizes, correlations;
- :mod:`.fidelity_command`  ``readsim-eval fidelity``: the simulated runs' orderings;
- :mod:`.sweep_command`     ``readsim-eval sweep``: measures at every value of one parameter;
- :mod:`.loss_command`      ``readsim-eval loss``: where a run loses and what each article costs;
- :mod:`.convert_command`   ``readsim-eval convert``: qrels, runs and collections to other formats;
- :mod:`.figure_command`    ``readsim-eval figure``: the per-topic difference plot and the runs' curves (SVG, PDF, PNG);
- :mod:`.report_command`    ``readsim-eval report``: one self-contained HTML report of runs;
- :mod:`.common`            exit statuses, argument types, the parser, output formats, the error guard.

The numbers come from the Python API's pandas-free core (``readsim.operations.evaluate``), its warnings
printed in the command's words. Exit status: 0 done, 1 bad input or an OS error, 2 bad usage,
130 interrupted; never a traceback (:func:`.common.guarded`). Closed standard streams and
Ctrl+C at any moment are :mod:`readsim.core.streams`'s: the Ctrl+C guard is installed on this
module's first lines, before numpy is imported.
"""

from __future__ import annotations

from readsim.core import streams  # first: Ctrl+C during the imports below is one line, exit 130

streams.guard_start("readsim-eval")

import os  # noqa: E402 (this and every import below: after the start-up guard)

# Before numpy: one OpenBLAS thread. readsim-eval does no linear algebra worth a thread (its
# parallel work is its worker processes), and the BLAS threads started with numpy cost about a
# third of a plain evaluation's CPU time (0.35 s against 0.24 s on the real run), which a busy
# machine pays as wall time. A value the user set is kept. The window (app/main.py imports this
# module before numpy) runs with one BLAS thread too: its numpy work is as small.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import sys  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from typing import TextIO  # noqa: E402

from .common import EXIT_INTERRUPTED, guarded  # noqa: E402
from . import evaluate_command  # noqa: E402

__all__ = ["main", "EXIT_INTERRUPTED"]

SUBCOMMANDS = ("compare", "fidelity", "sweep", "loss", "convert", "figure", "report")


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``readsim-eval``; returns the exit status: 0 ok (or the reader of the output went
    away), 1 bad input or an OS error, 2 bad usage, 130 interrupted. Never raises for those:
    every message is one line on ``err``, no traceback. ``out`` and ``err`` default to the
    standard streams (:func:`readsim.core.streams.output` and :func:`~readsim.core.streams.errors` when the
    caller closed them)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    return guarded(lambda out, err: _dispatch(argv, out, err), out, err)


def _dispatch(argv: list[str], out: TextIO, err: TextIO) -> int:
    if argv and argv[0] in SUBCOMMANDS:
        # imported on demand: scipy is not needed (nor paid for at start-up) by a plain evaluation
        if argv[0] == "compare":
            from readsim.cli.compare_command import main as subcommand
        elif argv[0] == "sweep":
            from readsim.cli.sweep_command import main as subcommand
        elif argv[0] == "loss":
            from readsim.cli.loss_command import main as subcommand
        elif argv[0] == "convert":
            from readsim.cli.convert_command import main as subcommand
        elif argv[0] == "figure":
            from readsim.cli.figure_command import main as subcommand
        elif argv[0] == "report":
            from readsim.cli.report_command import main as subcommand
        else:
            from readsim.cli.fidelity_command import main as subcommand
        return subcommand(argv[1:], out, err)
    return evaluate_command.main(argv, out, err)
