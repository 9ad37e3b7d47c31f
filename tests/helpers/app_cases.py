"""Cases several of tests/app's modules share.

- The real data's topic 2009074 and its PageRank article (23724: relevant; rank 10 in
  bert-passages.run, rank 1 in bert-passages-map19.run), and a run spreading passages over
  PageRank and the largest real articles (:func:`spread_run`; the ``spread_window`` fixture of
  tests/app/conftest.py opens it).
- The topic view's mini rows worked by hand (:func:`mini_rows`, :func:`mini_qrels`; the papers'
  mini article: 55 characters, relevant 1..27; Arvola et al. 2010: retrieved 33..55 -> aveChP
  0.3484, retrieved 24..45 -> 0.5306) and their "where the run loses" split (:func:`mini_loss`,
  :func:`by_hand`).
- A big real article and a byte range of it for figures (:data:`BIG`, :data:`START`, :data:`END`).
"""

from __future__ import annotations

import numpy as np

from readsim.app.session import RankedRow
from readsim.app.topic_scores import doc_measure, topic_scores
from readsim.core.collection import Collection
from readsim.core.doc_evaluation import Settings, evaluate_document
from readsim.core.formats import Judgement, Qrels

TOPIC = "2009074"  # complete in the shipped subset (tests/app/conftest.py)
PAGERANK = "23724"  # relevant; rank 10 in bert-passages.run, rank 1 in bert-passages-map19.run
#: the largest real articles (612, 389 and 367 KB of XML), with passages spread over them
LARGEST = ("2212038", "191457", "10793")


def spread_run(path, inex) -> str:
    """A run of :data:`TOPIC` on PageRank (3 passages) then :data:`LARGEST` (4 each), written to ``path``."""
    lines = [f"{TOPIC} Q0 {PAGERANK} 1 9 t {o} {n}" for o, n in ((20000, 600), (5200, 900), (12000, 400))]
    for rank, name in enumerate(LARGEST, 2):
        size = Collection(inex / "articles").article(name).doc_length // 10
        lines += [f"{TOPIC} Q0 {name} {rank} 8 t {k * size} 700" for k in (5, 1, 3, 8)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


# -- list scores by hand -------------------------------------------------------------------------

REL = np.array([[0, 27]])


def mini_rows():
    """a: relevant, retrieved 33..55; x: not relevant; b: relevant, retrieved 24..45."""
    def row(rank, name, retrieved, relevant):
        ev = evaluate_document(REL if relevant else np.zeros((0, 2), np.int64), np.array(retrieved), 55)
        return RankedRow(rank, name, name, True, relevant, ev, ev)
    return [row(1, "a", [[32, 55]], True), row(2, "x", [[0, 10]], False), row(3, "b", [[23, 45]], True)]


def mini_qrels() -> Qrels:
    """Nrel = 3: a, b and c (not ranked), 27 relevant characters each; x judged non-relevant."""
    j = {name: Judgement("T", name, 27, 55, None, REL, i) for i, name in enumerate("abc")}
    j["x"] = Judgement("T", "x", 0, 55, None, np.zeros((0, 2), np.int64), 4)
    return Qrels("mini.qrels", {"T": j})


def mini_loss(kind: str = "aveChP"):
    s = Settings()
    return topic_scores(mini_rows(), mini_qrels(), "T", doc_measure(kind, s), s).loss


def by_hand(sa: float, sb: float) -> tuple[list[float], list[float]]:
    """Browse: a's S to 1 raises gP[1] and gP[3] (weights 1 and 1/3, over Nrel 3): (1 - S_a) 4/9;
    b's raises gP[3] only: (1 - S_b) / 9. Rank: a stays first; x to rank 3 or b to rank 2 both
    give a, b, x, whose AgP exceeds as is by (S_a + S_b) (1/2 - 1/3) / 3 = (S_a + S_b) / 18."""
    return [(1 - sa) * 4 / 9, 0.0, (1 - sb) / 9], [0.0, (sa + sb) / 18, (sa + sb) / 18]


# -- figures: a big real article and a range of it -----------------------------------------------

BIG, BIG_TOPIC = "1807158", "2009046"
START, END = 7435, 7435 + 151
