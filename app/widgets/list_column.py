"""The main window's left column: the topic and run choosers, the topic's line (its title, its
relevant articles in the qrels, its ranked articles in the collection) and the ranked list
(:class:`~readsim.app.widgets.ranked_list.RankedListView` over its model). It follows the
session (:meth:`ListColumn.follow`) and opens what is chosen in it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QFormLayout, QVBoxLayout, QWidget

from .. import appearance as look
from ..plain import esc, plain_label, plain_tip, rich_label
from ..session import Session
from .ranked_list import RankedListModel, RankedListView


class ListColumn(QWidget):
    """Topic, run and the ranked list of ``session`` (the window keeps its parts as
    ``topic_combo``, ``run_combo``, ``topic_label``, ``model`` and ``table``)."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        ll = QVBoxLayout(self)
        ll.setContentsMargins(4, 4, 0, 4)
        form = QFormLayout()
        self.topic_combo = QComboBox()
        self.topic_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.topic_combo.setMinimumContentsLength(20)
        self.run_combo = QComboBox()
        self.run_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.run_combo.setMinimumContentsLength(20)
        form.addRow(plain_label("Topic"), self.topic_combo)
        form.addRow(plain_label("Run"), self.run_combo)
        ll.addLayout(form)
        self.topic_label = rich_label()
        self.topic_label.setWordWrap(True)
        look.follow(self.topic_label, f"color:{look.css('soft')};")
        ll.addWidget(self.topic_label)
        self.model = RankedListModel(self)
        self.table = RankedListView(self.model)
        ll.addWidget(self.table, 1)

    def follow(self, say: Callable[[str], None]) -> None:
        """Follow the session (``say``: the status line, which names the article opened). Called
        by the window where its other slots are connected: the order of the slots matters."""
        s = self.session
        s.files_changed.connect(self._fill_combos)
        s.topic_changed.connect(self._show_topic)
        s.topic_changed.connect(self._rows_pending)
        s.rows_changed.connect(self._rows_arrived)
        s.settings_changed.connect(self.model.set_settings)
        s.article_changed.connect(lambda: self._article_opened(say))

    def open_choices(self) -> None:
        """What is chosen in the column opens: an article of the list, a topic, a run."""
        s = self.session
        self.table.article_activated.connect(s.open_article)
        self.topic_combo.activated.connect(lambda i: s.set_topic(self.topic_combo.itemData(i)))
        self.run_combo.activated.connect(s.set_run)

    def _fill_combos(self) -> None:
        s = self.session
        self.topic_combo.blockSignals(True)
        self.topic_combo.clear()
        for t in s.topic_ids():
            self.topic_combo.addItem(t, t)
        self._label_topics()
        self.topic_combo.blockSignals(False)
        self.run_combo.blockSignals(True)
        self.run_combo.clear()
        for run in s.runs:
            self.run_combo.addItem(f"{run.run_id} — {Path(run.path).name}", run.path)
            self.run_combo.setItemData(self.run_combo.count() - 1, plain_tip(run.path), Qt.ItemDataRole.ToolTipRole)
        if s.run is not None:
            self.run_combo.setCurrentIndex(s.runs.index(s.run))
        self.run_combo.blockSignals(False)
        if s.topic is not None:
            self._show_topic(s.topic)

    def relabel_topics(self, *_) -> None:
        """The topics' items and line again (the appearance or the collection's names changed)."""
        self._label_topics()
        if self.session.topic is not None:
            self._show_topic(self.session.topic)

    def _label_topics(self) -> None:
        """The topic chooser's items: ``2009074  web ranking scoring algorithm — 88 of 100 in the
        collection`` (the count once the collection's names are listed), a tooltip saying what
        the count means, and topics whose ranked articles the collection lacks all greyed."""
        s = self.session
        combo = self.topic_combo
        coll = s.collection
        for i in range(combo.count()):
            t = combo.itemData(i)
            title = s.topic_title(t)
            text = f"{t}  {title}" if title else t
            counts = s.in_collection(t)
            note, grey = "", False
            if counts is not None:
                have, ranked = counts
                text += f" — {have} of {ranked} in the collection"
                note = (f"The collection ({coll.root}) holds {have} of the {ranked} articles the run ranks for topic {t}; "
                        "the others are greyed in the ranked list and have no text (their scores come from the qrels "
                        "and the run).")
                grey = have == 0 and ranked > 0
            elif coll is None:
                note = "No collection is open: the articles have no text (their scores come from the qrels and the run)."
            combo.setItemText(i, text)
            combo.setItemData(i, plain_tip(note) if note else None, Qt.ItemDataRole.ToolTipRole)
            combo.setItemData(i, look.color("disabled") if grey else None, Qt.ItemDataRole.ForegroundRole)

    def _show_topic(self, topic: str) -> None:
        i = self.topic_combo.findData(topic)
        if i >= 0:
            self.topic_combo.setCurrentIndex(i)
        t = self.session.topics.get(topic)
        nrel = self.session.qrels.nrel(topic) if self.session.qrels is not None else None
        parts = [f"<b>{esc(topic)}</b> {esc(t.title) if t else ''}"]
        if nrel is not None:
            parts.append(f"<span style='color:{look.css('muted')}'>{nrel} relevant articles in the qrels</span>")
        counts = self.session.in_collection(topic)
        if counts is not None:
            color = look.css("bad" if counts[0] == 0 and counts[1] else "muted")
            parts.append(f"<span style='color:{color}'>{counts[0]} of {counts[1]} ranked articles in the collection</span>")
        self.topic_label.setText(look.adapt(" · ".join(parts)))
        self.topic_label.setToolTip(plain_tip(t.description) if t else "")

    def _rows_pending(self, topic: str) -> None:
        """A topic's rows are being evaluated: the list empties and says so (its article may
        show first)."""
        s = self.session
        self.model.set_rows([], s.settings)
        n = len(s.run.topics.get(topic, ())) if s.run is not None else 0
        self.table.set_placeholder(f"Evaluating topic {topic}: {n:,} ranked article{'s' if n != 1 else ''}…")

    def _rows_arrived(self) -> None:
        s = self.session
        self.table.set_placeholder("" if s.rows or s.topic is None else f"The run ranks no article for topic {s.topic}.")
        self.model.set_rows(s.rows, s.settings)
        if s.current is not None and self.table.selected_article() != s.current.name:
            self.table.select_article(s.current.name)  # it may have opened before the rows came

    def _article_opened(self, say: Callable[[str], None]) -> None:
        cur = self.session.current
        if cur is not None:
            self.table.select_article(cur.name)
            say(f"Topic {self.session.topic}, article {cur.name}" + (f" — {cur.message}" if cur.message else ""))
