"""The hand-worked segment run of tests/engine/test_segments.py and tests/test_cli_segments.py
(docs/reference.md section 2.14): its qrels, segment table, run and the run's FOL twin."""

from __future__ import annotations

import json
from pathlib import Path

QRELS = "1 Q0 A 100 1000 100 100:100\n1 Q0 B 50 200 0 0:50\n"
TABLE = [{"id": "A#1", "doc": "A", "start": 100, "end": 150},
         {"id": "A#2", "doc": "A", "start": 150, "length": 100},
         {"id": "B#1", "doc": "B", "start": 0, "end": 50},
         {"id": "B#2", "doc": "B", "start": 40, "end": 80},
         {"id": 7, "doc": "C", "start": 0, "end": 10}]
RUN = ("1 Q0 A#1 1 9.0 segrun\n"
       "1 Q0 B#1 2 8.0 segrun\n"
       "1 Q0 A#2 3 7.0 segrun\n"
       "# a comment line\n"
       "1 Q0 B#2 4 6.0 segrun\n"
       "1 Q0 7 5 5.0 segrun\n")
# the same run as FOL lines: each segment id replaced by its document, offset and length
TWIN = ("1 Q0 A 1 9.0 segrun 100 50\n"
        "1 Q0 B 2 8.0 segrun 0 50\n"
        "1 Q0 A 3 7.0 segrun 150 100\n"
        "# a comment line\n"
        "1 Q0 B 4 6.0 segrun 40 40\n"
        "1 Q0 C 5 5.0 segrun 0 10\n")


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def table(folder: Path, rows=TABLE) -> str:
    return write(folder, "segments.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
