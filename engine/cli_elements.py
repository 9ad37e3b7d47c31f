"""``readsim-eval QRELS --collection DIR --elements`` (issue 11). Placeholder."""

from __future__ import annotations

from typing import TextIO


def run_elements(args, out: TextIO, err: TextIO) -> int:
    print("readsim-eval: --elements is not implemented yet", file=err)
    return 2
