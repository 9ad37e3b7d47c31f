"""The reader as a C/W/L user model, U-measure and time-biased gain over characters
(docs/reference.md sections 5.15 and 5.16).

The reader of a topic's ranking reads each ranked article in its reading order (reference
section 3) up to the T2I stop with tolerance ``t`` (section 4.3: right after the t-th
non-relevant position, or at the end), then goes on to the next article. Per article ``k``:
cost ``c_k`` = positions read (the stop ``m``), gain ``g_k`` = relevant positions read. The
trail is the concatenation of what is read, in rank order (Sakai & Dou 2013's trailtext).

- **Over characters** (section 5.16): with ``p`` the positions read before a relevant
  position on the trail (0-based), ``U(L) = sum max(0, 1 - p / L)`` (Sakai & Dou, SIGIR 2013,
  equations (1)-(2), N = 1) and ``TBG(H) = sum 2^(-p / H)`` (Smucker & Clarke, SIGIR 2012,
  equation (3), time counted in positions read, half-life H).
- **Document-level projection** (section 5.15): the vectors ``g`` and ``c`` as a ranking of
  ``depth`` items, padded with gain 0 and cost 1, and the C/W/L quantities of Moffat, Thomas &
  Scholer's framework as ``cwl-eval`` 1.0.12 (Azzopardi, Thomas & Moffat, SIGIR 2019) computes
  them for its ``UMeasureCWLMetric(L)`` and ``TBGCWLMetric(H)``: ``W``, ``C``, ``L`` and
  ``EU, ETU, EC, ETC, ED``. ``ETU`` of TBG with the gains :func:`tbg_gains` is TBG(H) over
  characters exactly.

Pure numpy over :class:`~readsim.core.reading.Piece` s; no input or output (the files are
written by :mod:`readsim.operations.cwl_files`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .docmeasures import t2i_stop
from .reading import Mode, Piece, Pieces

if TYPE_CHECKING:
    from .collection import Collection
    from .formats import Qrels, Run
    from .measure import ListMeasure

METRICS = ("U", "TBG")
"""The C/W/L metrics paired with cwl-eval's: U-measure (parameter L) and time-biased gain (H)."""


class CwlMetric(NamedTuple):
    """``U`` with its L or ``TBG`` with its half-life H, both in positions (characters or bytes)."""

    kind: str
    param: int

    @property
    def name(self) -> str:
        """The metric's name as cwl-eval prints it (with its trailing space)."""
        return f"U-L@{self.param} " if self.kind == "U" else f"TBG-H@{self.param} "

    @property
    def cwl_eval_line(self) -> str:
        """The line of cwl-eval's metrics file (``-m``) that names the same metric."""
        return f"UMeasureCWLMetric({self.param})" if self.kind == "U" else f"TBGCWLMetric({self.param})"


class CwlView(NamedTuple):
    """One ranking as a C/W/L reader: vectors of shape ``(depth,)`` and the five expectations
    (``EU``, ``EC`` per item attended; ``ETU``, ``ETC`` totals at the stop; ``ED`` items)."""

    W: np.ndarray
    C: np.ndarray
    L: np.ndarray
    EU: float
    ETU: float
    EC: float
    ETC: float
    ED: float


def read_part(pieces: Pieces, tolerance: int) -> Pieces:
    """The pieces read up to the T2I stop with ``tolerance`` (>= 1; ``ValueError`` otherwise)."""
    m, _ = t2i_stop(pieces, tolerance)
    out: list[Piece] = []
    pos = 0
    for p in pieces:
        if pos >= m:
            break
        take = min(p.length, m - pos)
        out.append(Piece(p.start, p.start + take, p.relevant))
        pos += take
    return tuple(out)


def read_topic(qrels: Qrels, run: Run, topic: str, tolerance: int, mode: Mode | str = Mode.NATURAL,
               collection: Collection | None = None, as_document: bool = False) -> list[Pieces]:
    """Every ranked article of ``topic`` (rank order, judged or not: the window's columns,
    :func:`readsim.core.ranked_inputs.topic_inputs`; ``as_document``: retrieved whole) read in
    ``mode`` up to the T2I stop."""
    from .ranked_inputs import topic_inputs

    batch = topic_inputs(qrels, run, topic, collection, as_document=as_document).evaluate(mode)
    return [read_part(ps, tolerance) for ps in batch.pieces()]


def fill_reads(qrels: Qrels, run: Run, ranked: dict, measures: Iterable[ListMeasure],
               mode: Mode | str = Mode.NATURAL, collection: Collection | None = None, as_document: bool = False) -> None:
    """Fill each ranking's ``reads`` (:class:`~readsim.core.listmeasures.Ranking`) for every
    tolerance the reader measures among ``measures`` name (``U@L/T2IP(t)``: t)."""
    wanted = {m.doc.k for m in measures if m.declaration.doc == "reader"}
    for topic, ranking in ranked.items():
        for t in wanted:
            ranking.reads[t] = read_topic(qrels, run, topic, t, mode, collection, as_document)


def reads_of(ranking, tolerance: int) -> list[Pieces]:
    """A ranking's articles read up to the T2I stop with ``tolerance`` (its ``reads``, filled by
    :func:`fill_reads`). Raises ``ValueError`` when they were not filled (a ranking built from
    document scores alone, as a sweep's: U and TBG need every ranked article's reading)."""
    read = ranking.reads.get(tolerance)
    if read is None and len(ranking.relevant):
        raise ValueError(f"U and TBG over characters need every ranked article's reading up to the T2I({tolerance}) "
                         "stop: evaluate the run (readsim-eval, readsim.evaluate), not a ranking of scores")
    return read or []


def gains_costs(read: Sequence[Pieces]) -> tuple[np.ndarray, np.ndarray]:
    """Per article, relevant positions read and positions read: int64 ``(n,)`` each."""
    gain = np.array([sum(p.length for p in ps if p.relevant) for ps in read], dtype=np.int64)
    cost = np.array([sum(p.length for p in ps) for ps in read], dtype=np.int64)
    return gain, cost


def _relevant_runs(read: Sequence[Pieces]) -> tuple[np.ndarray, np.ndarray]:
    """Each relevant piece of the trail: ``(before, length)``, positions read before it on the trail."""
    before, length, pos = [], [], 0
    for ps in read:
        for p in ps:
            if p.relevant:
                before.append(pos)
                length.append(p.length)
            pos += p.length
    return np.array(before, dtype=float), np.array(length, dtype=float)


def u_chars(read: Sequence[Pieces], L: int) -> float:
    """U(L) over the trail: ``sum over relevant positions of max(0, 1 - p / L)``, p the positions
    read before it (reference 5.16; Sakai & Dou 2013). ``L`` >= 1 (``ValueError`` otherwise)."""
    if L < 1:
        raise ValueError(f"U's L must be >= 1 position, not {L}")
    a, n = _relevant_runs(read)
    k = np.clip(L - a, 0, n)  # positions p = a .. a + k - 1 are below L: an arithmetic series
    return float(np.sum(k - (k * a + k * (k - 1) / 2) / L))


def tbg_chars(read: Sequence[Pieces], H: int) -> float:
    """TBG(H) over the trail: ``sum over relevant positions of 2^(-p / H)`` (reference 5.16;
    Smucker & Clarke 2012). ``H`` >= 1 (``ValueError`` otherwise)."""
    if H < 1:
        raise ValueError(f"TBG's half-life H must be >= 1 position, not {H}")
    a, n = _relevant_runs(read)
    r = 2.0 ** (-1.0 / H)
    return float(np.sum(r ** a * (1.0 - r ** n) / (1.0 - r)))


def tbg_gains(read: Sequence[Pieces], H: int) -> np.ndarray:
    """Per article, ``sum over its relevant positions read of 2^(-q / H)``, q the positions read
    before it in the article: float ``(n,)``; with these gains, the TBG projection's ETU is
    :func:`tbg_chars` (reference 5.15)."""
    return np.array([tbg_chars([ps], H) for ps in read], dtype=float)


def weights(metric: CwlMetric, cost: np.ndarray, depth: int) -> np.ndarray:
    """W of cwl-eval's metric over ``depth`` items (costs padded with 1, cut at ``depth``):
    U: ``W_i`` proportional to ``max(0, 1 - P_i / L)`` for i < depth - 1 and ``W_depth = 0``;
    TBG: ``W_i`` proportional to ``2^(-P_i / H)``; ``P_i`` the costs before item i. Float ``(depth,)``."""
    c = _pad(cost, depth, 1.0)
    start = np.concatenate([[0.0], np.cumsum(c)[:-1]])
    if metric.kind == "U":
        w = np.maximum(0.0, 1.0 - start / metric.param)
        w[-1] = 0.0
    else:
        w = metric.param * 2.0 ** (-start / metric.param) / math.log(2.0)
    return w / np.sum(w)


def view(metric: CwlMetric, gain: np.ndarray, cost: np.ndarray, depth: int) -> CwlView:
    """The C/W/L view of one ranking (``gain``, ``cost`` float ``(n,)``, n <= depth): C from W
    (``C_i = W_(i+1) / W_i``, 0 where W_i = 0 and at the last item), L from C
    (``L_i = prod_(j<i) C_j (1 - C_i)``), then ``EU = W.g``, ``ETU = L.cumsum(g)``, ``EC = W.c``,
    ``ETC = L.cumsum(c)``, ``ED = 1 / W_1`` (Moffat et al.; cwl-eval 1.0.12's ``_do_score``)."""
    w = weights(metric, cost, depth)
    g, c = _pad(gain, depth, 0.0), _pad(cost, depth, 1.0)
    cont = np.zeros(depth)
    with np.errstate(divide="ignore", invalid="ignore"):
        cont[:-1] = np.where(w[:-1] > 0.0, w[1:] / w[:-1], 0.0)
    stop = np.cumprod(np.concatenate([[1.0], cont[:-1]])) * (1.0 - cont)
    return CwlView(w, cont, stop, float(w @ g), float(stop @ np.cumsum(g)), float(w @ c),
                   float(stop @ np.cumsum(c)), float(1.0 / w[0]))


def continuation(read: Sequence[Pieces], metric: CwlMetric) -> tuple[np.ndarray, np.ndarray]:
    """The reader's continuation over the trail, piece by piece: ``(position, probability)``,
    float ``(k,)`` each, the positions read before each piece and the probability of reading
    on to it, ``D(p) / D(0)`` (U: ``max(0, 1 - p / L)``; TBG: ``2^(-p / H)``), a step plot."""
    pos = []
    p = 0
    for ps in read:
        for piece in ps:
            pos.append(p)
            p += piece.length
    x = np.array(pos, dtype=float)
    y = np.maximum(0.0, 1.0 - x / metric.param) if metric.kind == "U" else 2.0 ** (-x / metric.param)
    return x, y


def _pad(vec: np.ndarray, depth: int, fill: float) -> np.ndarray:
    v = np.asarray(vec, dtype=float)[:depth]
    return np.concatenate([v, np.full(depth - len(v), fill)])
