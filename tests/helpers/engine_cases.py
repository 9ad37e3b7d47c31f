"""Cases several of tests/engine's modules share: the real data's complete topics and the
paper's always-respected orderings (test_simulated.py, test_fidelity_table.py); an article with
its element-level highlighting (test_elements_assessments.py, test_elements_runs.py); the
loss split's case worked by hand (test_loss.py, test_loss_costs.py: see test_loss.py's docstring)."""

from __future__ import annotations

import numpy as np

from readsim.core.formats import Judgement

# -- the real data: the expected orderings of the S-R space ------------------------------------

# Topics whose relevant articles are all in the shipped subset (2009011 lacks 18413531 and
# 2009085 five articles, so SL/SS/SST cannot be built for them).
COMPLETE = ("2009067", "2009073", "2009074", "2009078")

# Kamps et al. 2008, Table 2: run pairs where the first scored at least as well as the second
# on every one of the 114 INEX 2006 topics under AgP (no "<" column).
TABLE2_ALWAYS = [p.split(">") for p in (
    "SR>SLR SR>SSR SR>SRS SR>SRI SLR>SLDR SLR>SLRI SSR>SSTR SSR>SSRI SRS>SLRS SRS>SSRS SRS>SRSI SRI>SLRI "
    "SRI>SSRI SRI>SRSI SLDR>SLDRI SLRS>SLDRS SLRS>SLRSI SLRI>SLDRI SSTR>SSTRI SSRS>SSTRS SSRS>SSRSI "
    "SSRI>SSTRI SRSI>SLRSI SRSI>SSRSI SLDRS>SLDRSI SLRSI>SLDRSI SSTRS>SSTRSI SSRSI>SSTRSI").split()]


# -- element assessments: an article worked by hand --------------------------------------------

# text: "Title" [0,5) | p1 "rel one" [5,12) | p2 "half " [12,17) b "rel" [17,20) " no" [20,23) | p3 [23,35)
ARTICLE = (b"<article><title>Title</title><bdy><p>rel one</p><p>half <b>rel</b> no</p>"
           b"<p>nothing here</p></bdy></article>")
QRELS = "T1 Q0 A1 10 35 5 5:7 17:3\n"  # highlighted: p1 whole and b: R = 10


# -- where the run loses: articles of 4 characters, Nrel = 3 -----------------------------------

def judgement(name: str, rel: tuple[int, int] | None, length: int = 4, line: int = 1) -> Judgement:
    passages = np.array([rel], dtype=np.int64) if rel else np.zeros((0, 2), np.int64)
    return Judgement("T", name, rel[1] - rel[0] if rel else 0, length, None, passages, line)


JUDGED = {"a": judgement("a", (0, 2)), "x": judgement("x", None), "b": judgement("b", (0, 3)),
          "c": judgement("c", (0, 1))}
RETRIEVED = {"a": [[2, 4]], "x": [[0, 4]], "b": [[3, 4]]}
