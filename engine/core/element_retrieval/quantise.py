"""Quantisation functions of the element metrics ([Gövert 2006], section 3.2 and 4.1).

Exhaustiveness ``e`` and specificity ``s`` are assessed on 0..3 scales (0 not, 1 marginally,
2 fairly, 3 highly). A quantisation maps them to numbers in ``[0, 1]``:

- **INEX 2003 metric** (recall_s/precision_s, recall_o/precision_o): each dimension alone,
  ``exh_strict(e)`` and ``spec_strict(s)`` (equations 2, 3: 1 for 3, else 0) or ``exh_gen(e)``
  and ``spec_gen(s)`` (equations 4, 5: e/3 and s/3).
- **INEX 2002 metric** (precall): one value for the pair, ``f_strict(e, s)`` (equation 8: 1 for
  (3, 3), else 0) or ``f_gen(e, s)`` (equation 9).

**The pairs equation 9 leaves out.** f_gen gives values for (3,3); (2,3), (3,2), (3,1); (1,3),
(2,2), (2,1); (1,2), (1,1); and (0,0): ten of the sixteen pairs. The six others pair a zero with
a non-zero value: (0,1), (0,2), (0,3), (1,0), (2,0), (3,0). readsim gives them **0.00**, the
value of (0,0). The paper's reason, section 3.2 (Figure 2): "A component that is not exhaustive
at all cannot be specific with respect to the topic. Vice versa, if a document component is
not specific at all, then it is also not exhaustive." Such a pair is not a possible assessment;
an element with either dimension 0 is an element without relevant content, i.e. (0, 0). The
INEX 2003 assessments had no such pairs either ([Gövert 2006], Table 1 lists exactly the ten of
equation 9). Readsim's derived assessments never produce them (e = 0 exactly when s = 0:
both mean rsize = 0); an assessments file may, and they then score 0 under f_gen and f_strict
(under the 2003 metric each dimension is quantised alone, so no gap arises there).

Every function takes scalars or integer arrays (vectorised by table lookup).
"""

from __future__ import annotations

import numpy as np

QUANTISATIONS = ("strict", "gen")

EXH_STRICT = np.array([0.0, 0.0, 0.0, 1.0])
"""Equation 2, indexed by e (0..3)."""
SPEC_STRICT = EXH_STRICT
"""Equation 3, indexed by s."""
EXH_GEN = np.array([0.0, 1 / 3, 2 / 3, 1.0])
"""Equation 4, indexed by e."""
SPEC_GEN = EXH_GEN
"""Equation 5, indexed by s."""

F_STRICT = np.zeros((4, 4))
F_STRICT[3, 3] = 1.0
"""Equation 8, ``F_STRICT[e, s]``."""

F_GEN = np.zeros((4, 4))
for (_e, _s), _v in {(3, 3): 1.0,
                     (2, 3): 0.75, (3, 2): 0.75, (3, 1): 0.75,
                     (1, 3): 0.5, (2, 2): 0.5, (2, 1): 0.5,
                     (1, 2): 0.25, (1, 1): 0.25}.items():
    F_GEN[_e, _s] = _v
"""Equation 9, ``F_GEN[e, s]``; the pairs with one zero and (0, 0) are 0.00 (module docstring)."""

F_GEN_GIVEN = frozenset({(3, 3), (2, 3), (3, 2), (3, 1), (1, 3), (2, 2), (2, 1), (1, 2), (1, 1), (0, 0)})
"""The ten pairs equation 9 names; the other six are readsim's choice (0.00)."""


def _check(name: str, quantisation: str) -> None:
    if quantisation not in QUANTISATIONS:
        raise ValueError(f"{name}: quantisation must be one of {QUANTISATIONS}, not {quantisation!r}")


def _grade(x) -> np.ndarray:
    a = np.asarray(x, dtype=np.int64)
    if a.size and (a.min() < 0 or a.max() > 3):
        raise ValueError(f"grades must be 0..3, not {a.min() if a.min() < 0 else a.max()}")
    return a


def exh(e, quantisation: str):
    """exh_strict (eq. 2) or exh_gen (eq. 4) of ``e`` (an int or an int array, 0..3)."""
    _check("exh", quantisation)
    table = EXH_STRICT if quantisation == "strict" else EXH_GEN
    out = table[_grade(e)]
    return float(out) if np.ndim(out) == 0 else out


def spec(s, quantisation: str):
    """spec_strict (eq. 3) or spec_gen (eq. 5) of ``s`` (an int or an int array, 0..3)."""
    _check("spec", quantisation)
    table = SPEC_STRICT if quantisation == "strict" else SPEC_GEN
    out = table[_grade(s)]
    return float(out) if np.ndim(out) == 0 else out


def f(e, s, quantisation: str):
    """f_strict (eq. 8) or f_gen (eq. 9) of the pair ``(e, s)`` (ints or int arrays, 0..3)."""
    _check("f", quantisation)
    table = F_STRICT if quantisation == "strict" else F_GEN
    out = table[_grade(e), _grade(s)]
    return float(out) if np.ndim(out) == 0 else out
