"""A slow reference of the list measures and of the official INEX tool, for tests only.

Two parts, neither uses the engine:

1. The list measures of docs/reference.md section 5 written straight from their definitions, one rank at a
   time with plain Python lists (no numpy, no cumulative sums): gP, gR, AgP, AgP', MAP, the
   11-point interpolated curve, CE, NCE, ANCE.
2. :func:`official`, a rank-by-rank restatement of what the official INEX evaluation tool
   (``inex_eval`` 1.0, M. Koolen; classes ``inex_eval``, ``Topic``, ``Qrel``, ``Article``)
   computes from the qrels and run *text*, for its three tasks: ``r`` Relevant in Context
   (MAgP, gP[r], gR[r], 11-point ``ircl_prn``), ``b`` Best in Context (the same with the BEP
   score as document score) and ``f`` Focused (iP at 101 recall points, MAiP). Written from
   the behaviour of that source (read, not copied), for well-formed input only (the runs the
   official tool accepts: no interleaved articles, no overlapping passages, 8 fields).
"""

from __future__ import annotations

import math

# -- 1. definitions --------------------------------------------------------------------------


def gp(scores: list[float], r: int, plain: bool = False) -> float:
    """gP[r] = sum_{i<=r} S(d_i) / r; past the end: the last value, or sum/r if ``plain``."""
    if not scores:
        return 0.0
    if r > len(scores) and not plain:
        r = len(scores)
    total = 0.0
    for i in range(min(r, len(scores))):
        total += scores[i]
    return total / r


def gr(rel: list[bool], nrel: int, r: int) -> float:
    return sum(1 for i in range(min(r, len(rel))) if rel[i]) / nrel


def agp(scores: list[float], rel: list[bool], nrel: int) -> float:
    return sum(gp(scores, r) for r in range(1, len(scores) + 1) if rel[r - 1]) / nrel


def agp_prime(scores: list[float], rel: list[bool], rsize: list[int]) -> float:
    trel = sum(s for s, ok in zip(rsize, rel) if ok)  # only valid when every relevant article is ranked
    return sum(rsize[r - 1] / trel * gp(scores, r) for r in range(1, len(scores) + 1) if rel[r - 1])


def average_precision(rel: list[bool], nrel: int) -> float:
    return agp([1.0 if x else 0.0 for x in rel], rel, nrel)


def curve(scores: list[float], rel: list[bool], nrel: int, points: int = 11) -> list[float]:
    """Interpolated gP at recall x = k/(points-1): the highest gP[r] over ranks with gR[r] >= x
    (0 if none)."""
    out = []
    for k in range(points):
        best = 0.0
        for r in range(1, len(scores) + 1):
            if math.floor((points - 1) * gr(rel, nrel, r)) >= k:
                best = max(best, gp(scores, r))
        out.append(best)
    return out


def _effort(es: list[float], i: int, nr: float) -> list[float]:
    return [es[j] if j < len(es) else nr for j in range(i)]


def ce(es: list[float], i: int, nr: float) -> float:
    return sum(e / 1.0 - 1 for e in _effort(es, i, nr))


def nce(es: list[float], nrel: int, i: int, nr: float) -> float:
    total = 0.0
    for j, e in enumerate(_effort(es, i, nr)):
        ideal = 1.0 if j < nrel else nr
        total += e / ideal - 1
    return total


def ance(es: list[float], nrel: int, i: int, nr: float) -> float:
    return sum(nce(es, nrel, j, nr) for j in range(1, i + 1)) / i


# -- 2. the official tool ----------------------------------------------------------------------

IN_CONTEXT_CUTOFFS = (1, 2, 3, 5, 10, 25, 50)
FOCUSED_CUTOFFS = (0, 1, 5, 10)


class _Topic:
    def __init__(self):
        self.total_rel_docs = 0
        self.total_rsize = 0
        self.ranks = []  # per rank: [rel_ret_size, ret_size, article rel size, rel docs found so far, bep score]
        self.rel_found = 0
        self.lines = []  # focused: (relevant size, size) per line


def _overlap(start: int, end: int, passages: list[tuple[int, int]]) -> int:
    """Relevant size of [start, end): its overlap with each relevant passage, summed."""
    size = 0
    for a, b in passages:
        lo, hi = max(start, a), min(end, b)
        if hi > lo:
            size += hi - lo
    return size


def official(qrels_lines: list[str], run_lines: list[str], task: str = "r", complete: bool = False,
             beta: float = 0.25, d_max: int = 500) -> dict[str, dict[str, float]]:
    """What ``inex_eval -<task> [-c]`` would compute: ``{topic or "all": {name: value}}`` with
    names ``AgP``, ``gP[r]``, ``gR[r]``, ``ircl_prn.x`` (tasks r and b) or ``iP[x]``, ``AiP``
    (task f; ``all`` has ``MAiP`` and ``ircl_prn.x`` at 101 points), and ``num_q``."""
    judged: dict[str, dict] = {}
    topics: dict[str, _Topic] = {}
    for line in qrels_lines:
        f = line.split()
        t = topics.setdefault(f[0], _Topic())
        rsize = int(f[3])
        if rsize > 0:
            t.total_rsize += rsize
            t.total_rel_docs += 1
        passages = [(int(p.split(":")[0]), int(p.split(":")[0]) + int(p.split(":")[1])) for p in f[6:]]
        judged[(f[0], f[2])] = {"rsize": rsize, "bep": int(f[5]) if len(f) > 6 else -1, "passages": passages}

    current: dict[str, str] = {}  # topic -> previous article
    for line in run_lines:
        f = line.split()
        topic, article = f[0], f[2]
        if topic not in topics:
            continue
        t = topics[topic]
        q = judged.get((topic, article))
        qsize = q["rsize"] if q else 0
        start = int(f[6])
        end = start + int(f[7])
        rel = _overlap(start, end, q["passages"]) if qsize > 0 else 0
        new_rank = current.get(topic) != article
        current[topic] = article
        if task == "f":
            t.lines.append((rel, end - start))
            continue
        if new_rank:
            if qsize > 0:
                t.rel_found += 1
            bep = 0.0
            if task == "b" and qsize > 0 and q["bep"] > -1:
                distance = abs(q["bep"] - start)
                bep = 0.0 if distance > d_max else (d_max - distance) / d_max
            t.ranks.append([rel, end - start, qsize, t.rel_found, bep])
        else:
            t.ranks[-1][0] += rel
            t.ranks[-1][1] += end - start

    out: dict[str, dict[str, float]] = {}
    for topic in sorted(topics):
        t = topics[topic]
        answered = bool(t.ranks or t.lines)
        if not complete and not answered:
            continue
        row: dict[str, float] = {}
        if task == "f":
            ip = [0.0] * 101
            relret = ret = 0
            for rel, size in t.lines:
                relret += rel
                ret += size
                point = math.floor(100 * (relret / t.total_rsize))
                if 0 <= point <= 100 and ip[point] < relret / ret:
                    ip[point] = relret / ret
            best = 0.0
            for k in range(100, -1, -1):
                best = max(best, ip[k])
                ip[k] = best
            for k in range(101):
                row[f"ircl_prn.{k / 100:.2f}"] = ip[k]
            for k in FOCUSED_CUTOFFS:
                row[f"iP[{k / 100:.2f}]"] = ip[k]
            row["AiP"] = sum(ip) / 101
        else:
            gps, grs, sum_scores, sum_gp = [], [], 0.0, 0.0
            ip = [0.0] * 11
            for rank, (relret, ret, qsize, found, bep) in enumerate(t.ranks, 1):
                score = 0.0
                if task == "r" and relret > 0:
                    p, r = relret / ret, relret / qsize
                    score = (1 + beta * beta) * p * r / (beta * beta * p + r)
                elif task == "b":
                    score = bep
                sum_scores += score
                gps.append(sum_scores / rank)
                grs.append(found / t.total_rel_docs)
                if qsize > 0:
                    sum_gp += sum_scores / rank
                point = math.floor(10 * (found / t.total_rel_docs))
                ip[point] = max(ip[point], sum_scores / rank)
            best = 0.0
            for k in range(10, -1, -1):
                best = max(best, ip[k])
                ip[k] = best
            row["AgP"] = sum_gp / t.total_rel_docs
            for c in IN_CONTEXT_CUTOFFS:
                if not t.ranks:
                    row[f"gP[{c}]"] = row[f"gR[{c}]"] = 0.0
                else:
                    k = min(c, len(gps)) - 1
                    row[f"gP[{c}]"], row[f"gR[{c}]"] = gps[k], grs[k]
            for k in range(11):
                row[f"ircl_prn.{k / 10:.2f}"] = ip[k]
        out[topic] = row
    n = len(out)
    mean: dict[str, float] = {"num_q": n}
    for name in (next(iter(out.values())) if out else {}):
        mean[name] = sum(row[name] for row in out.values()) / n
    if task == "f" and out:
        mean["MAiP"] = mean.pop("AiP")
    out["all"] = mean
    return out
