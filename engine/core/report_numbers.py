"""Numbers as reports print them (the comparison's, the fidelity tables', the losses'; the command
line's and the window's): a statistic with its decimals, a signed difference, a count with its
noun."""

from __future__ import annotations

import math


def format_number(value: float | None, digits: int = 4) -> str:
    """A statistic as reports show it: ``digits`` decimals; ``n/a`` for None or NaN, ``+inf``/``-inf``;
    a value rounding to zero at ``digits`` decimals prints ``0.0000``, never ``-0.0000``."""
    if value is None or not math.isfinite(value):
        return "n/a" if value is None or math.isnan(value) else ("+inf" if value > 0 else "-inf")
    text = f"{value:.{digits}f}"
    return text.lstrip("-") if float(text) == 0 else text


def format_tsv(value: float) -> str:
    """A statistic as the tsv rows of ``compare`` and ``fidelity`` print it (reference 9.4), and
    the tables for papers of ``compare`` (12.4): six decimals, six significant digits below
    1e-4 (``3.2e-05``), ``nan``, ``inf``, ``-inf``."""
    if not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return f"{value:.6g}" if abs(value) < 1e-4 and value != 0 else f"{value:.6f}"


def plural(n: int, word: str) -> str:
    """A count with its noun as reports print it: ``1 pair``, ``3 pairs``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def format_signed(value: float, digits: int = 4) -> str:
    """:func:`format_number` with its sign always shown (a difference), except that a value
    rounding to zero at ``digits`` decimals prints as zero without a sign (``0.0000``, never
    ``-0.0000`` nor ``+0.0000``: a sign there would claim a direction the digits do not show)."""
    if not math.isfinite(value):
        return format_number(value)
    text = f"{value:+.{digits}f}"
    return text[1:] if float(text) == 0 else text

