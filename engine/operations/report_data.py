"""What ``readsim-eval report`` shows (docs/reference.md section 9.9), as plain data:
:mod:`readsim.operations.report` computes it, :mod:`readsim.operations.report_html` lays it out."""

from __future__ import annotations

from dataclasses import dataclass, field

from readsim.core.listmeasures import Evaluation

LOSS_FIELDS = ("as_is", "browse", "fetch", "interaction", "unretrieved", "perfect")
"""The loss split's columns as ``readsim-eval loss``'s topic rows name them (reference 5.11)."""


@dataclass
class ReportData:
    """What the report shows (plain data; :mod:`readsim.operations.report_html` writes it)."""

    provenance: list[tuple[str, str]]
    files: list[tuple[str, str, int | None, str | None]]  # role, path, bytes, sha256 (None: a folder)
    comparison: object  # readsim.core.run_comparison.Comparison
    evaluations: list[Evaluation]
    plots: list[tuple[str, str]] = field(default_factory=list)  # (caption, inline SVG)
    curve: str | None = None
    loss_measure: str | None = None
    losses: dict[str, dict[str, float]] = field(default_factory=dict)  # run -> field -> mean
    loss_topics: dict[str, int] = field(default_factory=dict)
    articles: list[tuple[str, str, list[tuple[str, str]]]] = field(default_factory=list)  # topic, caption, views
    notes: list[str] = field(default_factory=list)
