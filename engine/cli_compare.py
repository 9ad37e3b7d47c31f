"""``readsim-eval compare`` and ``readsim-eval fidelity`` (issue 10). Placeholder."""

from __future__ import annotations

from typing import TextIO


def run_subcommand(name: str, argv: list[str], out: TextIO, err: TextIO) -> int:
    print(f"readsim-eval {name}: not implemented yet", file=err)
    return 2
