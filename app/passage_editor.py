"""The passage editor, without its window: :class:`PassageEditor` sits beside a
:class:`~readsim.app.session.Session`. Each edit replaces one ranked article
(:class:`~readsim.core.formats.RunArticle`) of the current run and topic with one whose
passages are the new retrieved spans, as a :class:`PassageEdit` command on a ``QUndoStack``;
doing or undoing it re-evaluates that one article (the API's :func:`readsim.operations.article_reading.ranked_article`,
as the session scores a ranked list) and emits the session's ``rows_changed`` and
``evaluation_changed``, so the scores, the ranked list, the plot and the chain follow at once.

The first edit of a run works on a copy of it (the session's run objects may be shared); the
copy replaces it in ``session.runs``. An article the run does not rank is appended at the
end of its topic when it gets passages (and removed again by undo).

Pure helpers (no Qt): :func:`display_to_unit` maps a view selection to a unit span.
The window's side (menus, the outline dock, saving) is :mod:`readsim.app.editing`."""

from __future__ import annotations

import dataclasses
import os

import numpy as np
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from readsim.operations.article_reading import ranked_article
from readsim.core import intervals as iv
from readsim.core.errors import InputError
from readsim.core.formats import Qrels, Run, RunArticle, read_any_run, write_run
from readsim.core.layout import Layout
from readsim.core.result_lines import retrieved_passages

from .rows import RankedRow
from .session import Session


# -- pure helpers ----------------------------------------------------------------------------
def display_to_unit(lay: Layout, start: int, end: int) -> tuple[int, int] | None:
    """The unit span ``[a, b)`` of the article text shown at display positions ``[start, end)``
    (a ``QTextCursor`` selection), or ``None`` if it shows no article character.

    ``a`` is :meth:`Layout.from_display` of ``start`` (the first article character at or after
    it); ``b`` is just past the last article character shown before ``end``: display-only
    positions (block separators, inserted " · ") map to no character, so a selection that
    ends on a separator ends with the paragraph before it, and a selection ending inside a
    multi-byte character keeps the whole character.
    """
    if end <= start or not len(lay.dst):
        return None
    a = lay.from_display(start)
    k = int(np.searchsorted(lay.dst, end - 1, side="right")) - 1
    if k < 0:
        return None
    idx = int(lay.src[k]) + min(end - 1 - int(lay.dst[k]), int(lay.length[k]) - 1)  # last string index shown
    b = int(lay.article.from_index(idx + 1))
    return (a, b) if b > a else None


def snapshot(run: Run) -> Run:
    """A copy of ``run`` that later edits of ``run`` leave as it is (edits replace its topic
    lists' :class:`RunArticle` objects, never change them)."""
    return dataclasses.replace(run, topics={t: list(es) for t, es in run.topics.items()},
                               diagnostics=list(run.diagnostics))


# -- the editor --------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Change:
    """One article's retrieval before and after an edit (``None``: not ranked by the run)."""

    run: Run
    topic: str
    article: str
    before: RunArticle | None
    after: RunArticle | None


class PassageEdit(QUndoCommand):
    """An undoable :class:`Change`; ``redo`` puts ``after`` in the run, ``undo`` ``before``."""

    def __init__(self, editor: PassageEditor, change: Change, text: str) -> None:
        super().__init__(text)
        self.editor = editor
        self.change = change

    def redo(self) -> None:
        self.editor._put(self.change, self.change.after)

    def undo(self) -> None:
        self.editor._put(self.change, self.change.before)


class PassageEditor(QObject):
    """Edits the open article's retrieved passages (offsets in the session's unit).

    Signals: ``edited(str)`` (the article id) after any edit, undo or redo has been applied;
    ``saved(str)`` (the path) after :meth:`save`. ``stack`` is the ``QUndoStack``; it is clean
    when nothing is unsaved.
    """

    edited = Signal(str)
    saved = Signal(str)

    def __init__(self, session: Session, parent: QObject | None = None) -> None:
        super().__init__(parent or session)
        self.session = session
        self.stack = QUndoStack(self)
        self._owned: list[Run] = []  # the run copies this editor made
        #: (run, the run as at the history's clean state: as opened or as last saved)
        self._references: list[tuple[Run, Run]] = []
        self.path: str | None = None  # where the run was last saved
        session.files_changed.connect(self._files_changed)
        self.stack.indexChanged.connect(self._show_baselines)

    # -- what can be edited ------------------------------------------------------------------
    def can_edit(self) -> bool:
        """True when an article is open (with its text), and a run and topic are shown."""
        s = self.session
        return s.current is not None and s.current.article is not None and s.run is not None and s.topic is not None

    def retrieved(self) -> np.ndarray:
        """The open article's retrieved spans (``(k, 2)``, unit; the whole extent for a
        whole-article result)."""
        cur = self.session.current
        return cur.evaluation.retrieved_spans if cur is not None else iv.EMPTY

    # -- edits -------------------------------------------------------------------------------
    def set_retrieved(self, spans, text: str = "Edit passages") -> bool:
        """Make ``spans`` (``(k, 2)``, unit) the open article's retrieved passages, as one
        undoable edit named ``text``. Returns False (and changes nothing) when no article can
        be edited or the passages would not change."""
        if not self.can_edit():
            return False
        s = self.session
        cur = s.current
        new = iv.clip(iv.normalize(iv.as_array(spans)), 0, max(cur.article.length, cur.evaluation.n))
        if np.array_equal(new, self.retrieved()):
            return False
        self.put_passages(s.run, s.topic, cur.name, new, f"{text} ({cur.name})")
        return True

    def put_passages(self, run: Run, topic: str, article: str, spans: np.ndarray | None, text: str) -> None:
        """Make ``spans`` (``(k, 2)``, unit, normalized; None: not retrieved) the retrieved
        passages of ``article`` for ``topic`` in ``run`` (open or not: a saved view's edits), as
        one undoable edit named ``text``. An article the run does not rank is appended."""
        run = self._own(run)
        before = run.article(topic, article)
        if spans is None:
            after = None
        elif before is not None:  # edited: no longer the file's lines (see readsim.core.formats.run_writer.write_run)
            after = dataclasses.replace(before, passages=spans, xpaths=[], pointers=[], lines=(), line_spans=None)
        else:
            after = RunArticle(article, len(run.topics.get(topic, [])) + 1, spans, [], 0)
        self.push(PassageEdit(self, Change(run, topic, article, before, after), text))

    def push(self, command: QUndoCommand) -> None:
        """Do ``command`` (its ``change.run`` the run it edits) as the next step of the history;
        the run as it was before its first unsaved edit is kept as its baseline."""
        run = command.change.run
        if self._reference(run) is None:
            self._references.append((run, snapshot(run)))
        self.stack.push(command)

    def add(self, a: int, b: int) -> bool:
        """Add unit span ``[a, b)`` to the retrieved passages."""
        return self.set_retrieved(iv.normalize(np.vstack([self.retrieved(), [[a, b]]])), "Add passage")

    def remove(self, a: int, b: int) -> bool:
        """Remove unit span ``[a, b)`` from the retrieved passages."""
        return self.set_retrieved(iv.subtract(self.retrieved(), iv.as_array([(a, b)])), "Remove passage")

    def retrieve_element(self, element) -> bool:
        """Add an element's whole span (an :class:`~readsim.core.text.Element`)."""
        return self.set_retrieved(iv.normalize(np.vstack([self.retrieved(), [[element.start, element.end]]])),
                                  f"Retrieve {element.tag}")

    def apply(self, spans, name: str) -> bool:
        """Replace the retrieved passages by ``spans`` (e.g. a simulated strategy's)."""
        return self.set_retrieved(spans, f"Apply {name}")

    # -- applying a change -------------------------------------------------------------------
    def _put(self, change: Change, entry: RunArticle | None) -> None:
        entries = change.run.topics.setdefault(change.topic, [])
        i = next((k for k, e in enumerate(entries) if e.article == change.article), None)
        if entry is None:
            if i is not None:
                del entries[i]
        elif i is None:
            entries.append(entry)
        else:
            entries[i] = entry
        s = self.session
        if change.run is s.run and change.topic == s.topic:
            self._rescore(change, entry)
        self.edited.emit(change.article)

    def _rescore(self, change: Change, entry: RunArticle | None) -> None:
        s = self.session
        name = change.article
        coll = s.collection if s.collection is not None and name in s.collection else None
        qrels = s.qrels or Qrels("")
        probe = entry or RunArticle(name, 0, iv.EMPTY, [], 0)
        natural = ranked_article(qrels, change.run, change.topic, probe, coll)
        ev = natural.in_mode(s.settings.mode)
        row = None
        rows = [r for r in s.rows if r.article != name]
        if entry is not None:
            old = s.row_of(name)
            if old is not None:
                row = dataclasses.replace(old, evaluation=ev, natural=natural)
                rows = [row if r.article == name else r for r in s.rows]
            else:
                title = coll.article(name).title if coll is not None else name
                relevant = (qrels.judgement(change.topic, name) is not None and natural.is_relevant) if s.qrels is not None else None
                row = RankedRow(entry.rank, name, title, coll is not None, relevant, ev, natural)
                rows.append(row)
        if s.rows_ready():  # else the topic's rows are still being evaluated: they will include it
            s.rows = rows
            s.rows_changed.emit()
        if s.current is not None and s.current.name == name:
            s.current = dataclasses.replace(s.current, row=row, evaluation=ev)
            s.evaluation_changed.emit()
            s.set_step(min(s.step, max(s.screens() - 1, 0)))

    def _own(self, run: Run) -> Run:
        """``run``, or the editable copy that replaces it in the session on first edit."""
        if any(r is run for r in self._owned):
            return run
        copy = snapshot(run)
        s = self.session
        s.runs = [copy if r is run else r for r in s.runs]
        if s.run is run:
            s.run = copy
        self._owned.append(copy)
        if self._reference(copy) is None:
            self._references.append((copy, run))  # the run as read: never edited in place
        return copy

    def _reference(self, run: Run) -> Run | None:
        return next((ref for r, ref in self._references if r is run), None)

    def _show_baselines(self, *_) -> None:
        """Set the session's :attr:`~readsim.app.session.Session.baselines`: each run with edits
        not undone and not saved, with its reference (as opened or as last saved)."""
        s = self.session
        new = [] if self.stack.isClean() else [(run, self._reference(run)) for run in self.edited_runs()
                                                 if self.edit_count(run) and self._reference(run) is not None]
        if len(new) != len(s.baselines) or any(a is not c or b is not d for (a, b), (c, d) in zip(new, s.baselines)):
            s.baselines = new
            s.baselines_changed.emit()

    def _files_changed(self) -> None:
        """Drop the history when the edited runs are no longer open (reloaded or replaced)."""
        for run in self.edited_runs():
            if all(r is not run for r in self.session.runs):
                self.stack.clear()
                self._references.clear()
                return

    # -- saving ------------------------------------------------------------------------------
    def edited_runs(self) -> list[Run]:
        """The runs changed by the edits on the stack (in first-edit order)."""
        out: list[Run] = []
        for i in range(self.stack.count()):
            run = self.stack.command(i).change.run
            if all(r is not run for r in out):
                out.append(run)
        return out

    def edit_count(self, run: Run | None = None) -> int:
        """How many edits (undone ones not counted) the history holds for ``run`` (default: the
        session's run)."""
        run = run or self.session.run
        return sum(1 for i in range(self.stack.index()) if self.stack.command(i).change.run is run)

    def save(self, path: str | os.PathLike, run: Run | None = None) -> list:
        """Write ``run`` (default: the session's run, with its edits) as a FOL run, atomically.

        What each line becomes is :func:`~readsim.core.formats.run_writer.write_run`'s rule: the
        lines of articles not edited are copied byte for byte from the run's own file, in its
        order; an edited article's lines are replaced by one line per passage at its first
        line; a topic whose ranks were moved (:mod:`readsim.app.rank_edits`) is written in its new
        order. Articles retrieved by XPointer (XML runs) are written as the offsets of their
        passages (resolved with the collection). Returns write_run's notes (``Diagnostic``:
        why lines were generated rather than copied).

        Raises :class:`InputError` when an XPointer cannot be resolved and ``OSError`` when
        the file cannot be written: the file at ``path`` is then as it was, the edits stay in
        memory and the history stays unsaved. On success marks the history clean.
        """
        run = run or self.session.run
        if run is None:
            raise ValueError("no run is open")
        out = dataclasses.replace(run, topics={})
        for topic, entries in run.topics.items():
            out.topics[topic] = [e if not e.pointers else dataclasses.replace(
                e, passages=retrieved_passages(run, topic, e, self.session.collection), xpaths=[], pointers=[],
                lines=()) for e in entries]
        notes = write_run(out, path)
        if run.path and os.path.realpath(path) == os.path.realpath(run.path):
            self._rebase(run)
        self.path = str(path)
        self._references = [(r, snapshot(r) if r is run else ref) for r, ref in self._references]
        self.stack.setClean()
        self._show_baselines()
        self.saved.emit(str(path))
        return notes

    def _rebase(self, run: Run) -> None:
        """After saving ``run`` over its own file, take the new file's line numbers, so a later
        save copies the lines just written (edited articles count as unedited from now on)."""
        try:
            back = read_any_run(run.path)
        except (InputError, OSError):
            return
        new = {}
        for topic, entries in run.topics.items():
            for k, e in enumerate(entries):
                b = back.article(topic, e.article)
                if b is not None and (b.lines, b.line) != (e.lines, e.line):
                    new[topic, k] = dataclasses.replace(e, lines=b.lines, line=b.line)
        if new and not any(r is run for r in self._owned):
            run = self._own(run)
        for (topic, k), e in new.items():
            run.topics[topic][k] = e

        def moved(c: Change, e: RunArticle | None) -> RunArticle | None:
            # undo and redo give states the new file does not hold: edited, at the article's new line
            b = back.article(c.topic, c.article)
            return None if e is None else dataclasses.replace(e, lines=(), line=b.line if b is not None else 0)

        for i in range(self.stack.count()):
            cmd = self.stack.command(i)
            if isinstance(cmd, PassageEdit) and cmd.change.run is run:
                cmd.change = dataclasses.replace(cmd.change, before=moved(cmd.change, cmd.change.before),
                                                 after=moved(cmd.change, cmd.change.after))
