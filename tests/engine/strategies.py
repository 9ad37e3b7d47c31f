"""Hypothesis strategies for articles with relevant and retrieved passages (tests only)."""

from __future__ import annotations

from hypothesis import strategies as st

MODES = ("natural", "worst", "best", "document", "entry")


@st.composite
def passages(draw, limit: int, max_size: int = 6) -> list[tuple[int, int]]:
    """Up to ``max_size`` passages [start, end) with 0 <= start <= end <= limit, possibly
    overlapping, touching or empty, in any order."""
    out = []
    for _ in range(draw(st.integers(0, max_size))):
        start = draw(st.integers(0, limit))
        length = draw(st.integers(0, max(0, min(limit - start, 80))))
        out.append((start, start + length))
    return out


@st.composite
def cases(draw, max_length: int = 400) -> dict:
    """An article: doc_length, relevant passages (may go past doc_length: clipped), retrieved
    passages (may go past doc_length: read as non-relevant) or None (whole article), a
    mode, an entry point, and measure parameters."""
    doc_length = draw(st.integers(0, max_length))
    relevant = draw(passages(doc_length + 10))
    retrieved = draw(st.none() | passages(doc_length + 40))
    return {
        "doc_length": doc_length,
        "relevant": relevant,
        "retrieved": retrieved,
        "mode": draw(st.sampled_from(MODES)),
        "entry": draw(st.integers(-5, doc_length + 45)),
        "k": draw(st.integers(1, max_length + 60)),
        "tolerance": draw(st.integers(1, max_length + 60)),
        "screen": draw(st.integers(1, 150)),
        "levels": draw(st.integers(1, 6)),
        "alpha": draw(st.floats(0.05, 4.0)),
        "beta": draw(st.floats(0.05, 4.0)),
    }
