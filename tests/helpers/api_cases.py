"""The shipped sample's good run with its article F values worked by hand from the reference's
formulas (section 4.6), shared by tests/api/test_evaluate.py and test_core.py."""

from __future__ import annotations

from readsim.core.samples import sample

S = sample()
GOOD = next(p for p in S.runs if p.name == "good-passages.run")


def f_beta(p: float, r: float, beta: float = 0.25) -> float:
    """Reference section 4.6: F = (1 + b^2) P R / (b^2 P + R)."""
    return (1 + beta**2) * p * r / (beta**2 * p + r) if p + r else 0.0


# good-passages.run against sample.qrels, overlap worked from the files:
# 900001 retrieves [1351, 2871) (1520), relevant [414,560) [1374,2487) [2493,2869) (1635): overlap 1113 + 376
# 900003 retrieves [834, 1277) (443), relevant [836, 1276) (440): overlap 440
# 900002 retrieves [769, 1215) (446), relevant [1025, 1214) (189): overlap 189
# 900004 is judged non-relevant
GOOD_F = [f_beta(1489 / 1520, 1489 / 1635), f_beta(440 / 443, 1.0), f_beta(189 / 446, 1.0), 0.0]
