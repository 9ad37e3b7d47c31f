"""Every example of docs/api.md runs: those on the shipped sample, then those on the real data."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

API_MD = Path(__file__).resolve().parents[2] / "docs" / "api.md"
REAL = "## On the real INEX data"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def run_examples(text: str, globs: dict, name: str) -> doctest.TestResults:
    import pandas as pd

    test = doctest.DocTestParser().get_doctest(text, globs, name, str(API_MD), 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    with pd.option_context("display.width", 100, "display.max_columns", 20):
        runner.run(test)
    return runner.summarize(verbose=False)


@pytest.fixture(scope="module")
def parts() -> tuple[str, str]:
    text = API_MD.read_text(encoding="utf-8")
    assert REAL in text
    return text.split(REAL)


def test_sample_examples(parts):
    result = run_examples(parts[0], {}, "api.md (sample)")
    assert result.attempted > 20 and result.failed == 0


def test_real_data_examples(parts, inex):
    # the whole page in order: the real examples use names the sample's examples defined
    result = run_examples(REAL.join(parts), {"INEX": inex}, "api.md")
    assert result.attempted > 40 and result.failed == 0
