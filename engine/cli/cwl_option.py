"""``readsim-eval QRELS RUN ... --cwl DIR``: each run's reader as C/W/L, written as cwl-eval's
input files with readsim's expected values (docs/reference.md sections 5.15 and 9.1;
:mod:`readsim.operations.cwl_files`)."""

from __future__ import annotations

import argparse
import os
import re
from typing import TextIO

from readsim.core.cwl import CwlMetric
from readsim.core.measure import MAX_SIZE, option, parse_count
from .common import EXIT_INPUT, progress, read_inputs


def _size(name: str):
    return option(lambda text: parse_count(text, name, 1, MAX_SIZE))


def add_cwl_options(p: argparse.ArgumentParser) -> None:
    """``--cwl DIR`` and its parameters ``--cwl-t``, ``--cwl-L``, ``--cwl-H``."""
    p.add_argument("--cwl", metavar="DIR",
                   help="write each run's reader as C/W/L to DIR (reference 5.15): per topic a TREC run, gains "
                   "(relevant positions read up to the T2I stop) and costs (positions read) that cwl-eval reads, "
                   "readsim's U-measure and TBG values in cwl-eval's output (LABEL.expected) and the commands (README)")
    p.add_argument("--cwl-t", type=_size("--cwl-t"), default=300, metavar="T",
                   help="with --cwl: the reader's tolerance, T2I's t (default 300)")
    p.add_argument("--cwl-L", type=_size("--cwl-L"), default=1000, metavar="L",
                   help="with --cwl: U-measure's L in positions (default 1000, as cwl-eval)")
    p.add_argument("--cwl-H", type=_size("--cwl-H"), default=224, metavar="H",
                   help="with --cwl: time-biased gain's half-life H in positions (default 224, as cwl-eval)")


def run_cwl(args, out: TextIO, err: TextIO) -> int:
    """Write the files of every run to ``args.cwl`` and print, per run, the cwl-eval command
    (run in that folder) whose output equals ``LABEL.expected``. Raises ``OSError`` and
    :class:`~readsim.core.errors.InputError` for the error guard."""
    from readsim.operations.cwl_files import trails, write_cwl

    if os.path.exists(args.cwl) and not os.path.isdir(args.cwl):
        print(f"readsim-eval: --cwl {args.cwl}: not a folder (the files are written into it)", file=err)
        return EXIT_INPUT
    qrels, collection, runs = read_inputs(args, err)
    metrics = [CwlMetric("U", args.cwl_L), CwlMetric("TBG", args.cwl_H)]
    for run in runs:
        label = re.sub(r"[^\w.+-]", "_", run.run_id) or "run"  # one field of cwl-eval's lines, one file name
        topics = trails(qrels, run, args.cwl_t, args.reading, collection, progress(err, f"reading {label}"))
        command = write_cwl(args.cwl, label, topics, metrics)
        print(f"{label}\t{len(topics)} topics\tcd {args.cwl} && {command}", file=out)
    return 0
