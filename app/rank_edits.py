"""Moving a ranked article up or down the run's ranking, undoably, beside the passage edits.

A :class:`RankMove` is a ``QUndoCommand`` on the passage editor's stack
(:class:`~readsim.app.editing.PassageEditor`), so Ctrl+Z and Ctrl+Shift+Z undo and redo moves and
passage edits in the order they were made, and File ▸ Save run writes both. A move takes one
article of a topic from one position to another; the topic's articles are then renumbered
(``RunArticle.rank`` = position, 1-based), as a run file's line order is its ranking
(docs/reference.md section 2.3). Saving writes the moved topic in its new order with ranks and
rsv rewritten to match (:func:`readsim.core.formats.write_run`, its reordered-topic rule).

A move changes no article's document scores (they do not depend on the rank), so the topic's
rows are reordered and renumbered at once, not read again: the list scores (gP, AgP, ...), which
depend on the order, follow through the session's ``rows_changed``. While the topic's rows are
still being evaluated, the session notices the changed run and evaluates the topic again.

The window's side (:func:`build_rank_edits`): Edit ▸ Move article up / down in the ranking
(Alt+Up, Alt+Down) on the article selected in the ranked list, and dragging a row of the ranked
list onto another (:class:`~readsim.app.widgets.ranked_list.RankedListView`'s
``rank_move_requested``).
"""

from __future__ import annotations

import dataclasses

from PySide6.QtGui import QAction, QKeySequence, QUndoCommand

from readsim.core.formats import Run, RunArticle



@dataclasses.dataclass(frozen=True)
class Move:
    """Article ``article`` of ``run``'s ``topic`` moved from position ``source`` to ``target``
    (0-based positions in the topic's ranked list)."""

    run: Run
    topic: str
    article: str
    source: int
    target: int


def moved(entries: list[RunArticle], source: int, target: int) -> list[RunArticle]:
    """``entries`` with the one at ``source`` moved to ``target`` (0-based), every article's
    ``rank`` its new position (1-based); articles whose rank stays are the same objects."""
    out = list(entries)
    out.insert(target, out.pop(source))
    return [e if e.rank == k else dataclasses.replace(e, rank=k) for k, e in enumerate(out, 1)]


class RankMove(QUndoCommand):
    """An undoable :class:`Move` (``change``: the editor's history reads ``change.run``)."""

    def __init__(self, editor, move: Move) -> None:
        up = move.target < move.source
        super().__init__(f"Move {move.article} {'up' if up else 'down'} to rank {move.target + 1}")
        self.editor = editor
        self.change = move

    def redo(self) -> None:
        apply_move(self.editor, self.change, self.change.source, self.change.target)

    def undo(self) -> None:
        apply_move(self.editor, self.change, self.change.target, self.change.source)


def apply_move(editor, move: Move, source: int, target: int) -> None:
    """Move the article at ``source`` to ``target`` in the run, then the session's rows (when
    the run and topic are shown), and tell the editor's ``edited``."""
    entries = move.run.topics[move.topic]
    entries[:] = moved(entries, source, target)
    s = editor.session
    if move.run is s.run and move.topic == s.topic and s.rows_ready() and s.rows:
        by_name = {r.article: r for r in s.rows}
        rows = [by_name[e.article] for e in entries if e.article in by_name]
        s.rows = [r if r.rank == k else dataclasses.replace(r, rank=k) for k, r in enumerate(rows, 1)]
        cur = s.current
        if cur is not None and cur.row is not None:
            s.current = dataclasses.replace(cur, row=s.row_of(cur.name))
        s.rows_changed.emit()
    editor.edited.emit(move.article)


def move_to_rank(editor, article: str, rank: int) -> bool:
    """Move ``article`` of the shown run and topic to ``rank`` (1-based; clipped to the
    topic's length), as one undoable step. False (nothing changes) when the run does not rank
    it there or it is already at that rank."""
    s = editor.session
    if s.run is None or s.topic is None:
        return False
    names = [e.article for e in s.run.topics.get(s.topic, [])]
    if article not in names:
        return False
    source, target = names.index(article), min(max(int(rank), 1), len(names)) - 1
    if source == target:
        return False
    run = editor._own(s.run)
    editor.push(RankMove(editor, Move(run, s.topic, article, source, target)))
    s.message.emit(f"Article {article} moved from rank {source + 1} to rank {target + 1} (Ctrl+Z undoes)")
    return True


def move_by(editor, article: str, delta: int) -> bool:
    """Move ``article`` ``delta`` ranks down (positive) or up (negative)."""
    s = editor.session
    names = s.run.article_names(s.topic) if s.run is not None and s.topic is not None else []
    return article in names and move_to_rank(editor, article, names.index(article) + 1 + delta)


class RankEditsUI:
    """Edit ▸ Move article up / down in the ranking (Alt+Up / Alt+Down) and dragging rows of the
    ranked list, on ``window.editing.editor``'s history."""

    def __init__(self, window) -> None:
        self.window = window
        self.editor = window.editing.editor
        self.table = window.table
        self.act_up = self._action("Move article &up in the ranking", "Alt+Up", -1)
        self.act_down = self._action("Move article do&wn in the ranking", "Alt+Down", 1)
        menu = window.editing.edit_menu
        menu.insertActions(window.editing.act_add, [self.act_up, self.act_down])
        menu.insertSeparator(window.editing.act_add)
        self.table.rank_move_requested.connect(self.drop)

    def _action(self, text: str, keys: str, delta: int) -> QAction:
        a = QAction(text, self.window)
        a.setShortcut(QKeySequence(keys))
        a.setStatusTip(f"Move the article selected in the ranked list one rank {'up' if delta < 0 else 'down'} "
                       "(or drag its row); Ctrl+Z undoes, File ▸ Save run writes the new ranks")
        a.triggered.connect(lambda: self.move(delta))
        self.window.addAction(a)
        return a

    def move(self, delta: int) -> bool:
        """Move the ranked list's selected article (else the open one) by ``delta`` ranks."""
        s = self.window.session
        article = self.table.selected_article() or (s.current.name if s.current is not None else None)
        return article is not None and self._selected(article, move_by(self.editor, article, delta))

    def drop(self, article: str, rank: int) -> bool:
        """A row dropped: ``article`` to ``rank``."""
        return self._selected(article, move_to_rank(self.editor, article, rank))

    def _selected(self, article: str, done: bool) -> bool:
        if done:
            self.table.select_article(article)  # the moved row stays selected
        return done


def build_rank_edits(window) -> RankEditsUI:
    """Rank moves for ``window`` (after :func:`~readsim.app.editing.build_editing`: on
    ``window.editing``'s history; the window's ``rank_edits``)."""
    return RankEditsUI(window)
