"""INEX 2010's restricted tasks and the Efficiency task on the real INEX runs (docs/reference.md
section 5.14): every real run goes over the limits, the warning names the first line over, and
the numbers of ``readsim-eval --task`` equal a recomputation from first principles here (each
article's retrieved positions cut after the first 500 in document order, a topic's lines cut
after 1,000 characters in file order, T2I(300) read character by character, character precision
counted position by position) on a few topics."""

from __future__ import annotations

import io
from collections import defaultdict

import numpy as np
import pytest

from readsim.cli import main

TOPICS = ("2009001", "2009002", "2009003")


def run_cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def _spans(positions: set) -> list[tuple[int, int]]:
    """Sorted positions as half-open runs ``[start, end)``."""
    out: list[list[int]] = []
    for p in sorted(positions):
        if out and out[-1][1] == p:
            out[-1][1] += 1
        else:
            out.append([p, p + 1])
    return [(a, b) for a, b in out]


def per_topic(text: str, measure: str) -> dict[str, float]:
    rows = [line.split("\t") for line in text.splitlines()]
    return {t: float(v) for m, t, v in rows if m == measure and t != "all"}


def qrels_of(path) -> dict[str, dict[str, tuple[int, list[tuple[int, int]]]]]:
    """topic -> article -> (doc_length, relevant passages) of the relevant lines."""
    out: dict = defaultdict(dict)
    for line in path.read_text().splitlines():
        f = line.split()
        if int(f[3]) > 0:
            out[f[0]][f[2]] = (int(f[4]), [(int(o), int(o) + int(n)) for o, n in (p.split(":") for p in f[6:])])
    return out


def run_lines(path, topics) -> list[tuple[int, str, str, int, int]]:
    """(line number, topic, article, start, end) of the topics' lines, in file order."""
    out = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        f = line.split()
        if f[0] in topics:
            out.append((number, f[0], f[2], int(f[6]), int(f[6]) + int(f[7])))
    return out


def cut_topics(lines, most: int):
    """The lines cut to ``most`` characters per topic, their lengths counted in file order; the
    first line over the limit and how far its topic reaches with it."""
    used: dict = defaultdict(int)
    kept, first = [], None
    for number, topic, article, start, end in lines:
        allowed = max(0, min(end - start, most - used[topic]))
        used[topic] += end - start
        if allowed < end - start and first is None:
            first = (number, topic, article, used[topic])
        if allowed:
            kept.append((number, topic, article, start, start + allowed))
    return kept, first


def cut_articles(lines, most: int):
    """Each (topic, article)'s retrieved text (the union of its lines) cut after its first
    ``most`` characters in document order: ``(topic, article) -> kept positions`` (a set), in
    the order the articles first appear; and the first line (file order) retrieving a position
    past the cut, with its article's whole retrieved size."""
    union: dict = {}
    for _, t, a, s, e in lines:
        union.setdefault((t, a), set()).update(range(s, e))
    kept = {k: set(sorted(v)[:most]) for k, v in union.items()}
    first = next((n, t, a, len(union[(t, a)])) for n, t, a, s, e in lines
                 if any(p not in kept[(t, a)] for p in range(s, e)))
    return kept, first


def t2ip(doc_length: int, relevant: list[tuple[int, int]], retrieved: list[tuple[int, int]], t: int = 300) -> float:
    """T2IP(t) in the natural order, character by character: the retrieved positions in
    document order (those past doc_length read as non-relevant), then the others of
    [0, doc_length) in document order; the reader stops after the t-th non-relevant one."""
    top = max([doc_length] + [e for _, e in retrieved])
    rel = np.zeros(top, dtype=bool)
    for s, e in relevant:
        rel[s:min(e, doc_length)] = True
    got = np.zeros(top, dtype=bool)
    for s, e in retrieved:
        got[s:e] = True
    order = np.concatenate([np.flatnonzero(got), np.flatnonzero(~got[:doc_length])])
    read = rel[order]
    nonrel = np.cumsum(~read)
    m = int(np.searchsorted(nonrel, t) + 1) if nonrel[-1] >= t else len(order)
    return float(read[:m].sum()) / m


def test_restricted_ric_on_real_runs(inex):
    qrels, run = inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "bert-passages.run"
    code, out, err = run_cli(qrels, run, "--task", "restricted-ric", "-q", "-m", "AgP/T2IP(300)", "-j", "1")
    assert code == 0
    judged = qrels_of(qrels)
    kept, first = cut_articles(run_lines(run, set(TOPICS)), 500)
    number, topic, article, size = first
    assert (number, topic, article) == (1, "2009001", "1528075")  # the run's first line is 1,848 long
    assert f"{run}:1: warning: Restricted Relevant in Context allows at most 500 characters per article; topic " \
           f"2009001, article 1528075 goes over it (its article retrieves {size:,} characters, this line some past " \
           "the first 500 in document order; " in err
    got = per_topic(out, "AgP/T2IP(300)")
    for topic in TOPICS:
        ranked = {a: _spans(p) for (t, a), p in kept.items() if t == topic}
        scores = [t2ip(*judged[topic][a], spans) if a in judged[topic] else 0.0 for a, spans in ranked.items()]
        relevant = [a in judged[topic] for a in ranked]
        gp = np.cumsum(scores) / np.arange(1, len(scores) + 1)
        agp = float(np.sum(gp[relevant])) / len(judged[topic])
        assert got[topic] == pytest.approx(agp, abs=5e-7), topic


def test_restricted_focused_on_real_runs(inex):
    qrels, run = inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "indri-passages.run"
    code, out, err = run_cli(qrels, run, "--task", "restricted-focused", "-q", "-j", "1")
    assert code == 0
    judged = qrels_of(qrels)
    kept, first = cut_topics(run_lines(run, set(judged)), 1000)
    number, topic, article, reached = first
    assert f"{run}:{number}: warning: Restricted Focused allows at most 1,000 characters per topic; topic {topic}, " \
           f"article {article} goes over it (its topic reaches {reached:,} characters with this line; 120 topics " \
           "over it in all)" in err
    got = per_topic(out, "charP")
    assert len(got) == 120
    for topic in TOPICS:
        seen: dict[str, set] = defaultdict(set)
        rel = size = 0
        for _, t, a, s, e in kept:
            if t != topic:
                continue
            new = set(range(s, e)) - seen[a]  # text an earlier line of the article retrieved counts once
            seen[a] |= new
            size += len(new)
            if a in judged[topic]:
                rel += sum(1 for p in new if any(x <= p < y for x, y in judged[topic][a][1]))
        assert size == 1000  # every topic retrieves more than 1,000 characters
        assert got[topic] == pytest.approx(rel / size, abs=5e-7), topic


def test_efficiency_on_real_runs_equals_the_file_cut_by_hand(inex, tmp_path):
    """``--task efficiency-150`` gives, topic by topic, the Focused numbers of the file holding
    each topic's first 150 lines (what the official tool was given)."""
    qrels, run = inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "indri-passages.run"
    code, out, err = run_cli(qrels, run, "--task", "efficiency-150", "-q", "-j", "1")
    assert code == 0
    count: dict[str, int] = defaultdict(int)
    first = None
    with open(run) as f, open(tmp_path / "150.run", "w") as w:
        for number, line in enumerate(f, 1):
            topic = line.split()[0]
            count[topic] += 1
            if count[topic] <= 150:
                w.write(line)
            elif first is None:
                first = (number, topic, line.split()[2])
    assert f"{run}:{first[0]}: warning: Efficiency (150 results per topic) allows at most 150 result lines per " \
           f"topic; topic {first[1]}, article {first[2]} goes over it (this is its topic's result 151; " in err
    _, plain, _ = run_cli(qrels, tmp_path / "150.run", "-q", "-j", "1", *(a for m in ("iP[0.00]", "iP[0.01]",
                                                                                      "iP[0.05]", "iP[0.10]", "MAiP")
                                                                          for a in ("-m", m)))
    assert out.replace("indri-passages\n", "") == plain.replace("indri-passages\n", "")
    assert 0 < per_topic(out, "MAiP")["2009001"] < per_topic(out, "iP[0.00]")["2009001"]


def test_the_cut_shows_in_f_not_in_t2ip_on_the_real_runs(inex):
    """Reference 5.14's finding: on the real runs the cut changes no topic's AgP/T2IP(300), while
    AgP/F(0.25), whose precision counts every retrieved character, changes."""
    qrels, run = inex / "qrels" / "inex2009-2010.qrels", inex / "runs" / "bert-passages.run"
    names = ("-m", "AgP/T2IP(300)", "-m", "AgP/F(0.25)", "-q", "-j", "1")
    _, cut, _ = run_cli(qrels, run, "--task", "restricted-ric", *names)
    _, whole, _ = run_cli(qrels, run, *names)
    assert per_topic(cut, "AgP/T2IP(300)") == per_topic(whole, "AgP/T2IP(300)")
    f_cut, f_whole = per_topic(cut, "AgP/F(0.25)"), per_topic(whole, "AgP/F(0.25)")
    assert sum(f_cut[t] != f_whole[t] for t in f_whole) > 100
