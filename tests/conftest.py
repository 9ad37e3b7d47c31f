"""Shared fixtures: the real INEX data (``READSIM_DATA``, default ``../shared/data/inex``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# the GUI tests render offscreen unless the caller chose a platform (no windows flash by), on one
# 1,920 x 1,080 screen (offscreen-screen.json; Qt's own offscreen screen is 800 x 800): the main
# window opens at its default 1,600 x 1,000 there, as on a desktop (app/widgets/placement.py)
if os.environ.get("QT_QPA_PLATFORM", "offscreen") == "offscreen":
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={Path(__file__).resolve().parent / 'offscreen-screen.json'}"

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("READSIM_DATA", ROOT.parent / "shared" / "data" / "inex"))


@pytest.fixture(scope="session")
def inex() -> Path:
    """The real INEX 2009/2010 data folder; tests using it skip only when it is absent, and
    under CI (``CI=true``, as .ci/run sets it) they fail instead: CI never passes by skipping."""
    if not (DATA / "qrels" / "inex2009-2010.qrels").is_file():
        message = f"real INEX data not found at {DATA} (set READSIM_DATA)"
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(f"{message}: CI runs the real-data tests, it does not skip them", pytrace=False)
        pytest.skip(message)
    return DATA
