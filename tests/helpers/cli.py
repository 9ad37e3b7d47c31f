"""readsim-eval used as a person would, shared by tests/test_cli_*.py: :func:`run_cli` (``main(argv)``
with its exit status and both streams), :func:`records` (the JSON Lines rows of one kind), and
compare's hand-worked runs (written to files by the ``files`` fixture of tests/conftest.py)."""

from __future__ import annotations

import io
import json

from readsim.cli import main

# Three topics, each with one relevant article 'a': [0, 10) of 100.
QRELS = "".join(f"{t} Q0 a 10 100 0 0:10\n" for t in (1, 2, 3))


def line(topic, article, rank, run_id):
    return f"{topic} Q0 {article} {rank} 1 {run_id} 0 10\n"


# good: 'a' first on every topic, retrieving exactly its relevant text: AgP = 1, 1, 1
GOOD = "".join(line(t, "a", 1, "good") for t in (1, 2, 3))
# mid: topics 1 and 3 put an unjudged 'x' first: gP[2] = 1/2, AgP = 1/2, 1, 1/2
MID = (line(1, "x", 1, "mid") + line(1, "a", 2, "mid") + line(2, "a", 1, "mid") + line(3, "x", 1, "mid")
       + line(3, "a", 2, "mid"))
# bad: only 'x': AgP = 0, 0, 0
BAD = "".join(line(t, "x", 1, "bad") for t in (1, 2, 3))
# part: like good on topics 1 and 2, topic 3 missing
PART = line(1, "a", 1, "part") + line(2, "a", 1, "part")


def run_cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def records(text: str, kind: str) -> list[dict]:
    return [r for r in map(json.loads, text.splitlines()) if r["kind"] == kind]
