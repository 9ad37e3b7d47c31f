"""The Runs window's runs: the session's and those added here (files or a folder, read in a
worker), which are ticked for the comparison, and removing added ones (:class:`RunList`, a
part of :class:`~readsim.app.widgets.runs_window.RunsWindow`)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from readsim.core.formats import Run

from ... import runs_model as rm
from ...background import run_in_background


class RunList:
    """The run methods of the Runs window (they read and set its ``extra_runs``, its options
    panel's run table and its session)."""

    # -- runs -----------------------------------------------------------------------------------
    def all_runs(self) -> list[Run]:
        """The session's runs, then those added here (a path once)."""
        out, seen = [], set()
        for run in [*self.session.runs, *self.extra_runs]:
            if run.path not in seen:
                seen.add(run.path)
                out.append(run)
        return out

    def chosen_runs(self) -> list[Run]:
        """The ticked runs, in the list's order."""
        return [r for r in self.all_runs() if r.path not in self._unchecked]

    def fill_runs(self) -> None:
        """Refill the run list (session runs, then runs added here), keeping the ticks."""
        self.options_panel.fill_runs(self.all_runs(), {r.path for r in self.session.runs}, self._unchecked)

    def _run_ticked(self, path: str, on: bool) -> None:
        if on:
            self._unchecked.discard(path)
        else:
            self._unchecked.add(path)
        self._inputs_changed()

    def ask_add_files(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Add runs to the comparison", self._start_folder(),
                                                "Runs (*.run *.txt *.xml);;All files (*)")
        if paths:
            self.add_run_files(paths)

    def ask_add_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Add every run of a folder", self._start_folder())
        if path:
            self.add_run_files([path])

    def _start_folder(self) -> str:
        runs = self.all_runs()
        return str(Path(runs[-1].path).parent) if runs else ""

    def add_run_files(self, paths: list[str]) -> None:
        """Read run files (a folder: every file in it) in the background and add those read to
        this comparison; each file that cannot be read is reported (``path: reason``)."""
        paths = [str(p) for p in paths]
        self._reading += 1
        self._say(f"Reading {len(paths)} run file{'s' if len(paths) != 1 else ''}…")

        def success(out) -> None:
            self._reading -= 1
            runs, errors = out
            known = {r.path for r in self.all_runs()}
            added = [r for r in runs if r.path not in known]
            self.extra_runs += added
            for r in runs:
                self._unchecked.discard(r.path)
            self.fill_runs()
            for text in errors:
                self.show_error(f"Cannot add the run {text}")
            if added:
                self._say(f"Added {len(added)} run{'s' if len(added) != 1 else ''}: "
                          + ", ".join(Path(r.path).name for r in added))
            elif not errors:
                self._say("No new run: those files are compared already")
            if runs:
                self._inputs_changed()

        def failed(exc: BaseException) -> None:
            self._reading -= 1
            self._failed(exc)

        run_in_background(self, lambda: rm.read_runs(paths, self.session.segments), success, failed)

    def remove_selected(self) -> None:
        """Remove the selected runs added here (the session's runs are only unticked)."""
        paths = self.options_panel.selected_paths()
        before = len(self.extra_runs)
        self.extra_runs = [r for r in self.extra_runs if r.path not in paths]
        if len(self.extra_runs) != before:
            self.fill_runs()
            self._inputs_changed()
        elif paths:
            self._say("Runs opened in the main window stay here: untick them to leave them out")
