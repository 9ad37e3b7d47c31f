"""Every document measure, declared once (docs/reference.md section 4; :mod:`readsim.core.registry`).

Each block says the measure's name grammar and parameters, its computation for one article
(``article``: a :class:`~readsim.core.doc_evaluation.DocumentEvaluation`) and for a batch of articles
(``batch``: a :class:`~readsim.core.doc_evaluation.DocumentBatch`, one float per article) side by side (or
``both`` when the evaluation and the batch have a method of the same name), its null value and
direction, its reference section with the formula, and a help line. A closed form over many
values of a parameter (``sweep``) is optional. To add a measure: one block here and its
hand-worked test (docs/architecture.md, "Where to add a measure").
"""

from __future__ import annotations

import numpy as np

from . import docmeasures as dm
from .listarith import bep_score
from .registry import WEIGHT, Param, document_measure

# -- closed forms over many values of a parameter (readsim.core.parameter_sweep.article_sweep), the article relevant


def _sweep_effort(m, doc, name, v, levels):
    f = doc.first_relevant()
    if f is None:
        return np.full(len(v), float(levels + 1))
    return np.minimum(-(-f // v), levels).astype(float)


def _sweep_set(m, doc, name, v, levels):
    p, r, _ = doc.set_scores()
    return dm.f_scores(np.float64(p), np.float64(r), v)


def _sweep_chp(m, doc, name, v, levels):
    parts = dm.piece_arrays(doc.pieces)
    n = int(parts[2][-1]) if len(parts[0]) else 0
    k = np.minimum(v, n)
    rr = dm.relevant_reads(*parts, k)
    if m.kind == "ChR":
        return rr / doc.nrc
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(k > 0, rr / np.maximum(k, 1), 0.0)


def _sweep_t2i(m, doc, name, v, levels):
    if name == "alpha":
        p, r, _ = doc.t2i(m.k)
        return dm.f_scores(np.float64(p), np.float64(r), v)
    length, relevant, read, rel_read = dm.piece_arrays(doc.pieces)
    n = int(read[-1]) if len(length) else 0
    nonrel = np.cumsum(np.where(relevant, 0, length))
    at = np.searchsorted(nonrel, v, side="left")
    found = at < len(nonrel)
    at = np.minimum(at, max(len(nonrel) - 1, 0))
    if len(length):
        stop = np.where(found, read[at] - length[at] + v - (nonrel[at] - length[at]), n)
        rel = np.where(found, rel_read[at] - np.where(relevant[at], length[at], 0), rel_read[-1])
    else:
        stop = rel = np.zeros(len(v), dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(stop > 0, rel / np.maximum(stop, 1), 0.0)
    r = rel / doc.nrc
    if m.kind == "T2IP":
        return p
    if m.kind == "T2IR":
        return r
    return dm.f_scores(p, r, m.weight)


# -- the declarations, in the order the help lists them --------------------------------------

document_measure(
    "aveChP", "bare", (),
    both=lambda m, doc, levels: doc.ave_chp(),
    section="4.1", formula="aveChP = (1 / NRC) · Σ_{i : rel(i) = 1} P(i)",
    help="average character precision: the mean of P(i) over the relevant positions read")

document_measure(
    "ChP", "at", (Param("k"),),
    both=lambda m, doc, levels: doc.chp_at(m.k), sweep=_sweep_chp,
    section="4.2", formula="ChP@k = (relevant among the first min(k, n) read) / min(k, n)",
    help="precision of the first k characters read")

document_measure(
    "ChR", "at", (Param("k"),),
    both=lambda m, doc, levels: doc.chr_at(m.k), sweep=_sweep_chp,
    section="4.2", formula="ChR@k = (relevant among the first min(k, n) read) / NRC",
    help="recall of the first k characters read")

document_measure(
    "T2IP", "call", (Param("t"),),
    both=lambda m, doc, levels: doc.t2i(m.k, m.weight)[0], sweep=_sweep_t2i,
    section="4.3", formula="T2IP(t) = relevant read / m        (m: read when the t-th non-relevant one is read)",
    help="T2I precision: relevant read / read, up to the t-th non-relevant character")

document_measure(
    "T2IR", "call", (Param("t"),),
    both=lambda m, doc, levels: doc.t2i(m.k, m.weight)[1], sweep=_sweep_t2i,
    section="4.3", formula="T2IR(t) = relevant read / NRC      (up to the same stop m)",
    help="T2I recall: relevant read up to the same stop / NRC")

document_measure(
    "T2IF", "call", (Param("t"), Param("alpha", WEIGHT, default=1.0)),
    both=lambda m, doc, levels: doc.t2i(m.k, m.weight)[2], sweep=_sweep_t2i,
    section="4.3", formula="T2IF(t,α) = (1 + α²) · T2IP · T2IR / (α² · T2IP + T2IR)",
    help="T2I F_alpha of T2IP and T2IR (alpha 1 by default)")

document_measure(
    "LE", "call", (Param("s"),),
    both=lambda m, doc, levels: doc.le(m.k, levels), sweep=_sweep_effort,
    null="NR", lower_is_better=True, whole=True,
    section="4.4", formula="LE(s) = min(⌈f / s⌉, L)            (NR = L + 1 when nothing relevant is read)",
    help="localizing effort: screens of s characters read until the first relevant one (lower is better)")

document_measure(
    "ES", "call", (Param("s"),),
    both=lambda m, doc, levels: doc.es(m.k, levels), sweep=_sweep_effort,
    null="NR", lower_is_better=True, whole=True,
    section="4.5", formula="ES(s) = LE(s) if the article is relevant, NR = L + 1 otherwise",
    help="effort score: LE(s) of a relevant article, NR otherwise (lower is better)")

document_measure(
    "P_set", "bare", (),
    both=lambda m, doc, levels: doc.set_scores(m.weight)[0],
    section="4.6", formula="P_set = |R ∩ T| / |T|",
    help="INEX's set-based precision: relevant retrieved / retrieved")

document_measure(
    "R_set", "bare", (),
    both=lambda m, doc, levels: doc.set_scores(m.weight)[1],
    section="4.6", formula="R_set = |R ∩ T| / |R|",
    help="INEX's set-based recall: relevant retrieved / relevant")

document_measure(
    "F", "call", (Param("beta", WEIGHT),),
    both=lambda m, doc, levels: doc.set_scores(m.weight)[2], sweep=_sweep_set,
    section="4.6", formula="F(β) = (1 + β²) · P_set · R_set / (β² · P_set + R_set)",
    help="INEX's set-based F_beta (F(0.25): the official document score)")


def _bep_batch(m, bep, has_bep, entry):
    distance = np.abs(bep - entry)
    return np.where(has_bep & (distance <= m.k), (m.k - distance) / m.k, 0.0)


document_measure(
    "BEP", "call", (Param("d"),),
    article=lambda m, bep, entry: bep_score(bep, entry, m.k), batch=_bep_batch, needs_qrels=True,
    section="4.7", formula="BEP(d) = (d − |bep − entry|) / d  if |bep − entry| ≤ d, else 0",
    help="Best in Context: (d - |bep - entry|) / d within distance d of the qrels' best entry point")
