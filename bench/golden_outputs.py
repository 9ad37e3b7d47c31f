"""Capture readsim-eval's outputs on the real INEX runs (every reading mode, --as-documents,
per topic and per article, tsv and jsonl) into a folder, to diff two versions of the engine:

    python bench/golden_outputs.py OUT_DIR      # then: diff -r OLD_DIR NEW_DIR

Not a test (it compares a program with itself); the tests compare the evaluation with an
independent per-character reference (tests/engine/reference.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

DATA = Path(os.environ.get("READSIM_DATA", Path(__file__).resolve().parents[1] / "../shared/data/inex"))
EVAL = str(Path(sys.executable).with_name("readsim-eval"))
LIST = ["AgP/F(0.25)", "AgP/aveChP", "AgP/T2IF(300)", "AgP/T2IP(300)", "ANCE@600/LE(300)", "MAP",
        "gP@10/T2IP(300)", "MAiP", "iP[0.01]", "AgP/BEP(500)", "AgP'/F(0.25)", "gP@5/ChP@300", "AgP/ChR@300",
        "CE@10/ES(300)", "NCE@20/LE(300)", "ircl_prn.0.50/F(0.25)", "gR@10", "num_ret", "num_rel_ret",
        "gP(plain)@100/T2IF(300,2)", "AgP/P_set", "AgP/R_set"]
DOC = ["F(0.25)", "aveChP", "T2IF(300)", "T2IP(300)", "T2IR(300)", "LE(300)", "ES(300)", "ChP@300", "ChR@300",
       "P_set", "R_set", "BEP(500)", "LE(2000)"]
MODES = ["natural", "worst", "best", "document", "entry"]


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    qrels = str(DATA / "qrels/inex2009-2010.qrels")
    runs = sorted(str(p) for p in (DATA / "runs").glob("*.run"))
    coll = ["--collection", str(DATA / "articles")]
    jobs = []
    jobs.append(("official", [qrels, *runs]))
    jobs.append(("official-q.jsonl", ["-q", "--format", "jsonl", qrels, *runs]))
    for mode in MODES:
        for docs in ([], ["--as-documents"]):
            tag = mode + ("-asdoc" if docs else "")
            lm = [a for m in LIST for a in ("-m", m)]
            dm = [a for m in DOC for a in ("-m", m)]
            jobs.append((f"list-{tag}", ["-q", "-c", "--reading", mode, *docs, *lm, qrels, *runs]))
            jobs.append((f"art-{tag}", ["--per-article", "--reading", mode, *docs, *dm, qrels, *runs]))
            jobs.append((f"artcoll-{tag}", ["--per-article", "--reading", mode, *docs, *dm, *coll, qrels, *runs]))
            if mode in ("natural", "entry"):
                jobs.append((f"listcoll-{tag}", ["-q", "--reading", mode, *docs, *lm, *coll, qrels, *runs]))
    jobs.append(("art-natural.jsonl", ["--per-article", "--format", "jsonl", qrels, *runs]))
    for name, args in jobs:
        p = subprocess.run([EVAL, "-j", "1", *args], capture_output=True)
        (out / f"{name}.out").write_bytes(p.stdout)
        (out / f"{name}.err").write_bytes(p.stderr + f"exit {p.returncode}\n".encode())
    print(f"{len(jobs)} outputs in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
