"""The Runs window's view of unsaved edits: a run with unsaved edits (passages or ranks, see
:mod:`readsim.app.editing`) is compared as it is now and, as one more run, as it was before
them (the session's baseline, labelled ``RUN (before edits)``), so every tab shows both, and the
Runs tab's mean of the edited run carries the difference: ``0.1431 (+0.0007)`` (its tooltip
gives the value before)."""

from __future__ import annotations

import dataclasses

from readsim.core.formats import Run

BEFORE = " (before edits)"


class BeforeEdits:
    """Builds the runs to compare (:meth:`runs`); the renamed baselines are kept, so that a
    baseline compared again is the same object (the Runs window's evaluation cache hits)."""

    def __init__(self) -> None:
        self._renamed: list[tuple[Run, Run]] = []  # (baseline, its renamed copy)

    def runs(self, session, chosen: list[Run]) -> tuple[list[Run], dict[int, int]]:
        """``(runs, before)``: ``chosen`` with each run with unsaved edits copied as it is now (a
        worker gets the copy: the editor changes the run in place), then their baselines; and
        ``before[i] = j``: run ``j`` is run ``i`` before its edits."""
        out: list[Run] = []
        pairs: list[tuple[int, Run]] = []
        for run in chosen:
            base = session.baseline(run)
            if base is None:
                out.append(run)
                continue
            out.append(dataclasses.replace(run, topics={t: list(es) for t, es in run.topics.items()}))
            pairs.append((len(out) - 1, self._renamed_copy(base)))
        before = {}
        for i, base in pairs:
            before[i] = len(out)
            out.append(base)
        return out, before

    def _renamed_copy(self, base: Run) -> Run:
        for b, renamed in self._renamed:
            if b is base:
                return renamed
        renamed = dataclasses.replace(base, run_id=base.run_id + BEFORE)
        self._renamed = [*self._renamed[-7:], (base, renamed)]
        return renamed


def key(session) -> tuple:
    """What the comparison depends on beyond the ticked runs: the baselines, and the rows (an
    edit replaces them) while there are any."""
    return tuple(id(b) for _, b in session.baselines), id(session.rows) if session.baselines else None
