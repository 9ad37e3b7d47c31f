"""The sample shipped in ``resources/sample``: a few short articles in the INEX 2009
collection's format, FOL qrels for one topic, small FOL runs that behave differently, and a
topic file. Written for readsim (not INEX data); the app opens it with no arguments.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

SAMPLE_TOPIC = "2026001"


@dataclass(frozen=True)
class SamplePaths:
    """Where the sample's files are: a collection folder, qrels, runs, topics, and its topic."""

    collection: Path
    qrels: Path
    runs: tuple[Path, ...]
    topics: Path
    topic: str = SAMPLE_TOPIC


def sample() -> SamplePaths:
    """Paths of the shipped sample (inside the installed package)."""
    package = __package__.rsplit(".", 1)[0] + ".resources"  # readsim.resources
    root = Path(str(resources.files(package).joinpath("sample")))
    return SamplePaths(
        collection=root / "articles",
        qrels=root / "sample.qrels",
        runs=tuple(sorted((root / "runs").glob("*.run"))),
        topics=root / "topics.xml",
    )
