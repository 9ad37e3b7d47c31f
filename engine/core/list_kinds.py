"""Every list measure, declared once (docs/reference.md section 5; :mod:`readsim.core.registry`).

Each block says the name grammar (a rank cutoff, a recall point, or none), whether it takes a
document measure S (``LIST/DOC``), its value for one topic's ranking (``topic``: a
:class:`~readsim.core.listmeasures.Ranking`) and, optionally, for many rankings at once (``table``: a
:class:`~readsim.core.listmeasures.RankingTable`, the fast path; a kind without one is computed topic
by topic), its direction, whether it is a count (summed over topics), of the Focused task, with
per-article costs (``readsim-eval loss``, with optional closed forms, ``replaced`` and ``moved``),
its reference section and a help line. The formulas
and policies: :mod:`readsim.core.listmeasures`; the arithmetic: :mod:`readsim.core.listarith`.
"""

from __future__ import annotations

import numpy as np

from . import cost_forms as cf
from . import cwl
from . import listarith as la
from .registry import FOCUSED_POINTS, INCONTEXT_POINTS, list_measure

# -- many rankings at once (RankingTable: padded (topics, ranks) matrices) ----------------------


def _gr_table(t, m, levels):
    nrel, r = np.maximum(t.nrel, 1), m.cutoff
    return np.where(t.n > 0, np.count_nonzero(t.relevant[:, :r], axis=1) / nrel, 0.0)


def _judged_table(t, m, levels):
    return np.count_nonzero(t.judged[:, :m.cutoff], axis=1) / m.cutoff


def _agp_table(t, m, levels):
    s = t.relevant.astype(float) if m.doc is None else t.scores(m.doc)
    gp = np.cumsum(s, axis=1) / np.arange(1, t.width + 1)
    return np.where(t.n > 0, np.sum(np.where(t.relevant, gp, 0.0), axis=1) / np.maximum(t.nrel, 1), 0.0)


def _gp_table(t, m, levels):
    n, r, s = t.n, m.cutoff, t.scores(m.doc)
    head = np.sum(s[:, :r], axis=1)
    past = np.where(m.plain, r, n)
    return np.where(n == 0, 0.0, np.where(r <= n, head / r, head / np.maximum(past, 1)))


def _effort_table(t, m, levels):
    """CE, NCE or ANCE of every ranking: ES past a run's end is NR (policy 2)."""
    depth, nr = m.cutoff, float(levels + 1)
    es = np.full((len(t.n), depth), nr)
    k = min(depth, t.width)
    es[:, :k] = np.where(t.mask[:, :k], t.scores(m.doc)[:, :k], nr)
    if m.kind == "CE":
        return np.cumsum(es - 1.0, axis=1)[:, -1]
    ideal = np.where(np.arange(depth) < np.minimum(t.nrel, depth)[:, None], 1.0, nr)
    nce = np.cumsum(es / ideal - 1.0, axis=1)
    return nce[:, -1] if m.kind == "NCE" else np.mean(nce, axis=1)


def _ircl(r, m, levels):
    gr = la.generalised_recall(r.relevant, r.nrel)
    return float(la.interpolated_curve(la.generalised_precision(r.scores[m.doc]), gr, INCONTEXT_POINTS)[m.cutoff])


def _focused(r):
    return la.focused_curve(r.line_rel, r.line_size, r.trel_size)


# -- the declarations, in the order the help lists them --------------------------------------

list_measure(
    "gP", "rank", "any", plain=True, costs=True,
    topic=lambda r, m, levels: la.gp_at(r.scores[m.doc], m.cutoff, m.plain), table=_gp_table,
    replaced=cf.gp_replaced, moved=cf.gp_moved,
    section="5.1", help="generalised precision at rank r (past the end of a short run: the last rank's value; "
                        "gP(plain)@r: the plain sum / r)")

list_measure(
    "gR", "rank", None,
    topic=lambda r, m, levels: la.gr_at(r.relevant, r.nrel, m.cutoff), table=_gr_table,
    section="5.3", help="generalised recall at rank r: relevant articles among the first r / Nrel")

list_measure(
    "Judged", "rank", None, cutoff_name="k",
    topic=lambda r, m, levels: np.count_nonzero(r.judged[:m.cutoff]) / m.cutoff, table=_judged_table,
    section="5.12", help="share of the first k ranks whose article the qrels judge, relevant or not (ranks past "
                         "the end of a short run: not judged)")

list_measure(
    "AgP", "bare", "any", costs=True,
    topic=lambda r, m, levels: la.agp(r.scores[m.doc], r.relevant, r.nrel), table=_agp_table,
    replaced=cf.agp_replaced, moved=cf.agp_moved,
    section="5.4", help="average generalised precision (its mean: MAgP; AgP/F(0.25) is INEX's official measure)")

list_measure(
    "AgP'", "bare", "any",
    topic=lambda r, m, levels: la.agp_prime(r.scores[m.doc], r.relevant, r.rsize, r.trel_size),
    section="5.5", help="AgP with each relevant rank weighted by its relevant size")

list_measure(
    "MAP", "bare", None,
    topic=lambda r, m, levels: la.average_precision(r.relevant, r.nrel), table=_agp_table,
    section="5.6", help="AgP with S = isrel: average precision over articles")

list_measure(
    "ircl_prn", "points", "any", points=INCONTEXT_POINTS, point_form="ircl_prn.{x}",
    topic=_ircl,
    section="5.7", help="gP interpolated at gR = x, x in 0.00, 0.10, ..., 1.00")

for _kind, _section, _help in (
        ("CE", "5.8", "cumulated effort at rank i (lower is better)"),
        ("NCE", "5.8", "normalized cumulated effort at rank i (lower is better)"),
        ("ANCE", "5.8", "NCE averaged over ranks 1..i (lower is better)")):
    list_measure(
        _kind, "rank", "effort", cutoff_name="i", lower_is_better=True, costs=True,
        topic={"CE": lambda r, m, levels: float(la.cumulated_effort(r.scores[m.doc], m.cutoff, levels + 1)[-1]),
               "NCE": lambda r, m, levels: float(la.normalized_cumulated_effort(
                   r.scores[m.doc], r.nrel, m.cutoff, levels + 1)[-1]),
               "ANCE": lambda r, m, levels: la.average_nce(r.scores[m.doc], r.nrel, m.cutoff, levels + 1)}[_kind],
        table=_effort_table, section=_section, help=_help)

list_measure(
    "iP", "points", None, points=FOCUSED_POINTS, point_form="iP[{x}]", focused=True,
    topic=lambda r, m, levels: float(_focused(r)[m.cutoff]),
    section="5.9", help="Focused task: interpolated precision at recall x (0.00 .. 1.00 by 0.01)")

list_measure(
    "MAiP", "bare", None, focused=True,
    topic=lambda r, m, levels: float(np.mean(_focused(r))),
    section="5.9", help="Focused task: the mean of iP over the 101 points (AiP per topic)")

list_measure(
    "charP", "bare", None, focused=True,
    topic=lambda r, m, levels: la.character_precision(r.line_rel, r.line_size),
    section="5.14", help="Restricted Focused: set-based character precision, relevant text retrieved / text "
                         "retrieved (the first 1,000 characters with --task restricted-focused)")

list_measure(
    "U", "rank", "reader", cutoff_name="L",
    topic=lambda r, m, levels: cwl.u_chars(cwl.reads_of(r, m.doc.k), m.cutoff),
    section="5.16", help="U-measure over characters: each relevant position read, up to each article's T2I stop, "
                         "weighs max(0, 1 - p/L), p the positions read before it (Sakai & Dou 2013)")

list_measure(
    "TBG", "rank", "reader", cutoff_name="H",
    topic=lambda r, m, levels: cwl.tbg_chars(cwl.reads_of(r, m.doc.k), m.cutoff),
    section="5.16", help="time-biased gain over characters: each relevant position read, up to each article's T2I "
                         "stop, weighs 2^(-p/H), p the positions read before it (Smucker & Clarke 2012)")

list_measure(
    "num_q", "bare", None, count=True,
    topic=lambda r, m, levels: 1.0, table=lambda t, m, levels: np.ones(len(t.n)),
    section="5.10", help="topics (summed over topics, not averaged, for all)")

list_measure(
    "num_ret", "bare", None, count=True,
    topic=lambda r, m, levels: float(len(r.articles)), table=lambda t, m, levels: t.n.astype(float),
    section="5.10", help="articles ranked")

list_measure(
    "num_rel", "bare", None, count=True,
    topic=lambda r, m, levels: float(r.nrel), table=lambda t, m, levels: t.nrel.astype(float),
    section="5.10", help="relevant articles judged")

list_measure(
    "num_rel_ret", "bare", None, count=True,
    topic=lambda r, m, levels: float(np.count_nonzero(r.relevant)),
    table=lambda t, m, levels: np.count_nonzero(t.relevant, axis=1).astype(float),
    section="5.10", help="relevant articles ranked")
