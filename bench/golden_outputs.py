"""Capture readsim-eval's outputs on the real INEX runs (every reading mode, --as-documents,
per topic and per article, tsv and jsonl; and every subcommand in every output format: compare,
loss (with --vs), sweep (list and per article), fidelity, --elements) into a folder, to diff two
versions of the engine:

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


CMP = ["AgP/F(0.25)", "AgP/T2IP(300)", "ANCE@600/LE(300)", "MAP", "gP@10/ChP@300"]
LOSS = ["AgP/F(0.25)", "gP@10/T2IP(300)", "NCE@20/LE(300)", "ANCE@50/ES(300)", "CE@10/LE(300)"]
FID = ["AgP/F(0.25)", "AgP/T2IF(300)", "ANCE@600/LE(300)", "gP@5/aveChP", "MAiP"]


def _subcommands(qrels: str, runs: list[str], coll: list[str]) -> list[tuple[str, list[str]]]:
    """compare, loss, sweep, fidelity and element mode, in each of their output formats."""
    jobs = []
    by = {Path(r).stem: r for r in runs}
    cm = [a for m in CMP for a in ("-m", m)]
    for fmt in ("text", "tsv", "jsonl"):
        jobs.append((f"compare.{fmt}", ["compare", "--format", fmt, "--resamples", "200", *cm, qrels, *runs]))
        jobs.append((f"compare-topic-t.{fmt}", ["compare", "--format", fmt, "--test", "t", "--per-topic", "-m",
                                                "AgP/F(0.25)", qrels, by["bert-passages"], by["indri-passages"]]))
        for m in LOSS:
            tag = m.replace("/", "_")
            jobs.append((f"loss-{tag}.{fmt}", ["loss", "--format", fmt, "-m", m, "--top", "0", qrels,
                                               by["bert-passages"]]))
        jobs.append((f"loss-vs.{fmt}", ["loss", "--format", fmt, "--vs", by["indri-passages"], "--topic", "2009067",
                                        "--topic", "2009011", qrels, by["bert-passages"]]))
        jobs.append((f"fidelity.{fmt}", ["fidelity", "--format", fmt, *[a for m in FID for a in ("-m", m)], *coll,
                                         qrels]))
    for fmt in ("tsv", "jsonl"):
        jobs.append((f"sweep-t.{fmt}", ["sweep", "--format", fmt, "-q", "--vary", "t=100,300,1000", "-m", "AgP/T2IF(300)",
                                        "-m", "gP@10/T2IP(300)", "-m", "AgP/F(0.25)", qrels, by["bert-passages"]]))
        jobs.append((f"sweep-beta.{fmt}", ["sweep", "--format", fmt, "--vary", "beta=0.1:2:4:log", "-m", "AgP/F(0.25)",
                                           "-m", "AgP'/F(1)", qrels, by["indri-passages"]]))
        jobs.append((f"sweep-s-art.{fmt}", ["sweep", "--format", fmt, "--per-article", "--vary", "s=100:1000:3",
                                            "-m", "LE(300)", "-m", "ES(300)", "-m", "ChP@300", qrels,
                                            by["bert-passages"]]))
        jobs.append((f"sweep-k.{fmt}", ["sweep", "--format", fmt, "-c", "--vary", "k=50,500", "-m", "gP@5/ChP@300",
                                        "-m", "AgP/ChR@300", "-m", "AgP/BEP(500)", qrels, by["indri-documents"]]))
        jobs.append((f"sweep-alpha.{fmt}", ["sweep", "--format", fmt, "--vary", "alpha=0.5,2", "-m",
                                              "AgP/T2IF(300,2)", qrels, by["bert-passages"]]))
        jobs.append((f"elements.{fmt}", ["--elements", "--format", fmt, *coll, qrels]))
        jobs.append((f"elements-sim.{fmt}", ["--elements", "--format", fmt, "--simulated", "perfect", "--simulated",
                                             "ancestors", *coll, qrels]))
    return jobs


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    qrels = str(DATA / "qrels/inex2009-2010.qrels")
    runs = sorted(str(p) for p in (DATA / "runs").glob("*.run"))
    coll = ["--collection", str(DATA / "articles")]
    lm = [a for m in LIST for a in ("-m", m)]
    dm = [a for m in DOC for a in ("-m", m)]
    jobs = []
    jobs.append(("official", [qrels, *runs]))
    jobs.append(("official-q.jsonl", ["-q", "--format", "jsonl", qrels, *runs]))
    for mode in MODES:
        for docs in ([], ["--as-documents"]):
            tag = mode + ("-asdoc" if docs else "")
            jobs.append((f"list-{tag}", ["-q", "-c", "--reading", mode, *docs, *lm, qrels, *runs]))
            jobs.append((f"art-{tag}", ["--per-article", "--reading", mode, *docs, *dm, qrels, *runs]))
            jobs.append((f"artcoll-{tag}", ["--per-article", "--reading", mode, *docs, *dm, *coll, qrels, *runs]))
            if mode in ("natural", "entry"):
                jobs.append((f"listcoll-{tag}", ["-q", "--reading", mode, *docs, *lm, *coll, qrels, *runs]))
    jobs.append(("art-natural.jsonl", ["--per-article", "--format", "jsonl", qrels, *runs]))
    jobs.append(("list-natural.jsonl", ["-q", "--format", "jsonl", *lm, qrels, *runs]))
    jobs += _subcommands(qrels, runs, coll)
    for name, args in jobs:
        sub = args[0] in ("compare", "loss", "sweep", "fidelity")
        p = subprocess.run([EVAL, *([] if sub else ["-j", "1"]), *args], capture_output=True)
        (out / f"{name}.out").write_bytes(p.stdout)
        (out / f"{name}.err").write_bytes(p.stderr + f"exit {p.returncode}\n".encode())
    print(f"{len(jobs)} outputs in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
