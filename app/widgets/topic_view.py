"""The topic view (fetch phase): the list scores of the current topic's ranked list for a
chosen document measure, and their curves against rank, bound to a :class:`Session`.

A combo picks the document measure S (aveChP, T2IF(t), T2IP(t), F(b), or the effort scores
LE(s), ES(s) with the reader's current parameters). For a precision-like S the view shows
AgP, AgP', MAP and gP@r / gR@r (r = 1, 5, 10, 25, 50); for an effort score MAP, CE@r, NCE@r,
ANCE@r and gR@r (r = 10, 50, 100 and the run's length). Numbers are those of
``readsim.evaluate(..., per="topic")`` for the topic (:mod:`readsim.app.topic_scores`, on the API's core),
recomputed from the session's rows whenever the topic, the run, the mode or a reader setting
changes. The curves (:class:`~readsim.app.widgets.list_plot.RankCurves`) mark the open
article's rank; clicking a curve opens the article at that rank.

"Where the run loses" (:class:`~readsim.app.widgets.loss_panel.LossPanel`,
``readsim.loss``'s core, reference section 5.11): AgP for S over the square {run, ideal}
passages x {run, ideal} ranking, the split, and a sortable table of what each ranked article
costs the topic's AgP (browse cost, rank cost; :mod:`.loss_table`). Clicking a row opens the
article. S starts as F(0.25), so the view opens on the official AgP/F(0.25) (MAgP's); the
user's choice is remembered in the settings (:func:`readsim.app.input_files.app_settings`).

:func:`build_topic_view` puts the view in a bottom dock of the main window ("Topic",
View ▸ Topic scores).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QDockWidget, QFrame, QHBoxLayout,
                               QHeaderView, QLabel, QSizePolicy, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from readsim.core.measure import ListMeasure

from .. import appearance as look
from readsim.app.input_files import app_settings
from ..plain import esc, plain_label, rich_label
from ..session import Session
from ..topic_scores import DOC_KINDS, EFFORT_KINDS, LossMemo, TopicScores, doc_measure, topic_scores
from readsim.app.baseline_scores import topic_before
from .deferred import Deferred
from .fixed_labels import fit_text, set_wrapped
from .. import settings_keys as keys
from .loss_panel import LEFT_WIDTH, LOSS_WIDTH, LossPanel, export_button
from .loss_table import LOSS_ARTICLE_ROLE
from .placement import Scrolled

SETTINGS_KEY = keys.TOPIC_VIEW_DOC.name
DEFAULT_DOC = "F"  # AgP/F(0.25): INEX 2009-2010's official Relevant in Context measure (MAgP)
DOC_HELP = {
    "aveChP": "average character precision of each article along the reading order",
    "T2IF": "T2I F-score: the reader stops after the tolerance of non-relevant characters",
    "T2IP": "T2I precision: relevant read / read, up to the tolerance stop",
    "F": "INEX set-based F(beta) (AgP/F(0.25) is INEX 2009-2010's official Relevant in Context measure)",
    "LE": "localizing effort: screens until the first relevant character (NR for a non-relevant article)",
    "ES": "effort score: LE for a relevant article, NR = levels + 1 otherwise",
}
LIST_HELP = {
    "AgP": "average generalised precision: sum of gP[r] at the relevant ranks / Nrel",
    "AgP'": "AgP with each relevant rank weighted by its relevant size",
    "MAP": "average precision over articles (AgP with S = 1 for a relevant article)",
    "gP": "generalised precision: mean document score of the first r articles",
    "gR": "generalised recall: relevant articles among the first r / Nrel",
    "CE": "cumulated effort: sum of (ES - 1) over the first r articles (lower is better)",
    "NCE": "normalized cumulated effort: sum of (ES / ideal ES - 1) over the first r (lower is better)",
    "ANCE": "average NCE over ranks 1..r (lower is better)",
}


def format_list(measure: ListMeasure, value: float) -> str:
    """Text of a list score: 2 decimals for the effort measures CE/NCE/ANCE, 4 otherwise."""
    return f"{value:.2f}" if measure.lower_is_better else f"{value:.4f}"


def _short(m: ListMeasure) -> str:
    """A list measure's name without its document measure (the combo says which)."""
    return m.name.partition("/")[0]


class _Card(QFrame):
    """A headline number: small grey name above a large value."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("card")
        self.setStyleSheet(f"#card {{ background:{look.css('panel')}; border:1px solid {look.css('border')}; "
                           "border-radius:4px; }")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 3, 8, 4)
        lay.setSpacing(0)
        self.name = plain_label()
        self.name.setStyleSheet(f"color:{look.css('muted')}; font-size:7pt; border:none; background:transparent;")
        self.value = plain_label("–")
        f = self.value.font()
        f.setPointSizeF(f.pointSizeF() * 1.35)
        f.setBold(True)
        self.value.setFont(f)
        self.value.setStyleSheet("border:none; background:transparent;")
        self.value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.name)
        # of fixed size (fit_text: no re-layout of the dock) but aligned: it keeps its share of the card
        lay.addWidget(self.value, 0, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)



class TopicView(QWidget):
    """List scores and curves of the session's topic; :meth:`value_text` and :meth:`values`
    read the shown numbers back by canonical list-measure name (tests)."""

    def __init__(self, session: Session, parent=None, defer_plots: bool = False) -> None:
        super().__init__(parent)
        self.session = session
        self.scores: TopicScores | None = None
        self.memo = LossMemo()
        self._scores_memo: dict[tuple, tuple] = {}  # (rows, run, qrels, settings used) -> scores
        self._shown_key: tuple | None = None
        self._filled_key: tuple | None = None
        self._stale = False
        self._cells: dict[str, QLabel | QTableWidgetItem] = {}

        outer = QHBoxLayout(self)
        outer.setContentsMargins(6, 4, 6, 4)
        outer.setSpacing(8)
        left = QWidget()
        left.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)
        left.setFixedWidth(LEFT_WIDTH)
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.setSpacing(5)
        self.header = rich_label()
        self.header.setWordWrap(True)
        ll.addWidget(self.header)

        pick = QHBoxLayout()
        pick.setSpacing(6)
        pick.addWidget(plain_label("Document measure S"))
        self.doc_combo = QComboBox()
        for kind in DOC_KINDS:
            self.doc_combo.addItem(kind, kind)
            self.doc_combo.setItemData(self.doc_combo.count() - 1, DOC_HELP[kind], Qt.ItemDataRole.ToolTipRole)
        self.doc_combo.setToolTip("The document score S(d) each list measure aggregates over the ranked articles")
        pick.addWidget(self.doc_combo, 1)
        self.export_button = export_button("the topic's list scores", self._export_clicked)
        pick.addWidget(self.export_button)
        ll.addLayout(pick)

        body = QHBoxLayout()
        body.setSpacing(6)
        cards = QVBoxLayout()
        cards.setSpacing(4)
        self.cards = [_Card() for _ in range(3)]
        for c in self.cards:
            c.setFixedWidth(160)
            cards.addWidget(c)
        cards.addStretch(1)
        body.addLayout(cards)

        self.table = QTableWidget(0, 0)
        look.follow_items(self.table)  # its cells' role colours, in the theme
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.setAlternatingRowColors(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 4)
        self.table.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        body.addWidget(self.table, 1)
        ll.addLayout(body, 1)

        self.article_line = rich_label()
        self.article_line.setWordWrap(True)
        ll.addWidget(self.article_line)
        outer.addWidget(left)

        self.loss_panel = LossPanel()
        self.loss_panel.setFixedWidth(LOSS_WIDTH)
        self.loss_panel.table.clicked.connect(self._loss_clicked)
        outer.addWidget(self.loss_panel)

        self.curves_slot = Deferred(_rank_curves, eager=not defer_plots)
        outer.addWidget(self.curves_slot, 1)

        def clickable(curves) -> None:
            for plot in (curves.gp_plot, curves.nce_plot):
                plot.scene().sigMouseClicked.connect(lambda ev, p=plot: self._clicked(p, ev))

        self.curves_slot.when_built(clickable)

        stored = keys.read(app_settings(), keys.TOPIC_VIEW_DOC)
        i = self.doc_combo.findData(stored) if stored else -1
        self.doc_combo.setCurrentIndex(i if i >= 0 else self.doc_combo.findData(DEFAULT_DOC))
        self.doc_combo.currentIndexChanged.connect(self._doc_changed)
        session.topic_changed.connect(self._topic_changed)
        session.rows_changed.connect(self._rows_arrived)
        session.baselines_changed.connect(self.refresh)
        session.settings_changed.connect(self._settings_changed)
        session.article_changed.connect(self.show_article)
        session.evaluation_changed.connect(self.show_article)
        self.refresh()

    @property
    def curves(self):
        """The curves against rank (:class:`~readsim.app.widgets.list_plot.RankCurves`), built
        now if deferred."""
        return self.curves_slot.widget()

    # -- what is shown ------------------------------------------------------------------
    def doc_kind(self) -> str:
        return self.doc_combo.currentData()

    def set_doc_kind(self, kind: str) -> None:
        """Choose the document measure by kind (``aveChP``, ``T2IF``, ``T2IP``, ``F``, ``LE``, ``ES``)."""
        self.doc_combo.setCurrentIndex(self.doc_combo.findData(kind))

    def export_scores(self, path) -> object:
        """Write the topic's list scores (``measure``, ``value``: every number the cards and the
        table show) to ``path`` (``.csv`` or ``.json``) with the provenance
        (``loss_panel.context``); returns the path. Raises ``OSError``/``ValueError`` as
        :func:`readsim.app.provenance.write_table`."""
        from ..provenance import write_table

        ts = self.scores
        rows = [] if ts is None else [{"measure": m.name, "value": ts.values[m.name]} for m in ts.measures
                                      if m.name in ts.values]
        prov = {**self.loss_panel.context(), "table": "list scores of the topic",
                "document_measure": ts.doc.name if ts is not None else None}
        return write_table(path, ("measure", "value"), rows, prov)

    def _export_clicked(self) -> None:
        from ..export import TABLES, export_with_dialog, safe_name

        panel = self.loss_panel
        stem = safe_name(f"list-scores-{self.session.topic or 'topic'}-{self.doc_combo.currentText()}")
        export_with_dialog(self, "Export the topic's list scores", TABLES, stem, self.export_scores,
                           panel.tell_error, panel.say)

    def values(self) -> dict[str, float]:
        """The current list scores: canonical name (``AgP/F(0.25)``) -> value."""
        return dict(self.scores.values) if self.scores is not None else {}

    def value_text(self, name: str) -> str:
        """The shown text of list measure ``name`` (canonical name); KeyError if not shown."""
        cell = self._cells[name]
        return cell.text()

    # -- reactions ----------------------------------------------------------------------
    def _doc_changed(self, _index: int) -> None:
        keys.write(app_settings(), keys.TOPIC_VIEW_DOC, self.doc_kind())
        self.refresh()

    def _topic_changed(self, _topic: str) -> None:
        self._stale = True  # rows still belong to the previous topic until rows_changed
        set_wrapped(self.header, f"<b>Topic {esc(_topic)}</b> <span style='color:{look.css('faint')}'>evaluating…</span>", LEFT_WIDTH)
        if self.loss_panel.loss is None:
            self.loss_panel.set_loss(None, [], "evaluating…")

    def refresh(self, *_) -> None:
        """Recompute the list scores from the session's rows and redraw what changed.

        Once per state: a mode change announces new rows and new settings, one refresh serves
        both; a setting S does not use (the tolerance for aveChP, the screen size for F) changes
        nothing; the loss split is memoised (:class:`~readsim.app.topic_scores.LossMemo`), and
        the table, the curves and the loss panel are redrawn only when their numbers change."""
        s = self.session
        st = s.settings
        doc = doc_measure(self.doc_kind(), st)
        effort = doc if doc.kind in EFFORT_KINDS else doc_measure("LE", st)
        objects = (s.rows, s.run, s.qrels, s.baseline())  # by identity
        values = (s.topic, doc, effort, st.levels, st.mode)
        shown = self._shown_key
        if shown is not None and all(a is b for a, b in zip(objects, shown[0])) and values == shown[1]:
            self._update_combo_texts()
            return
        self._shown_key = (objects, values)
        self._update_combo_texts()
        if s.topic is None or s.run is None:
            self.scores = None
        else:
            memo_key = (tuple(id(o) for o in objects), values)
            hit = self._scores_memo.get(memo_key)
            if hit is not None and all(a is b for a, b in zip(hit[0], objects)):
                self.scores = hit[1]  # a mode seen before: the session gives back the same rows
            else:
                self.scores = topic_scores(s.rows, s.qrels, s.topic, doc, st, self.memo)
                if len(self._scores_memo) >= 16:
                    self._scores_memo.clear()
                self._scores_memo[memo_key] = (objects, self.scores)
        ts = self.scores
        self._show_header()
        fill_key = None if ts is None else (ts.doc, ts.n, ts.nrel, tuple(ts.values.items()))
        if fill_key is None or fill_key != self._filled_key:
            self._filled_key = fill_key
            self._fill()
        self.curves_slot.call("show_scores", ts)
        loss = ts.loss if ts is not None else None
        if loss is not self.loss_panel.loss or loss is None:
            why = "needs qrels" if ts is not None else "evaluating…" if s.topic is not None else "no topic open"
            self.loss_panel.set_loss(loss, [r.title for r in s.rows], why)
        self.show_article()

    def _rows_arrived(self) -> None:
        self._stale = False
        self.refresh()

    def _settings_changed(self, _settings) -> None:
        if self._stale:  # the topic's rows are still being evaluated: they will refresh
            self._update_combo_texts()
        else:
            self.refresh()

    def _update_combo_texts(self) -> None:
        st = self.session.settings
        for i in range(self.doc_combo.count()):
            text = doc_measure(self.doc_combo.itemData(i), st).name
            if self.doc_combo.itemText(i) != text:
                self.doc_combo.setItemText(i, text)

    def _show_header(self) -> None:
        s, ts = self.session, self.scores
        if ts is None:
            set_wrapped(self.header, "<i>No topic open.</i>", LEFT_WIDTH)
            return
        title = s.topic_title(ts.topic)
        run = s.run
        run_text = f"{esc(run.run_id)} ({esc(Path(run.path).name)})" if run is not None else ""
        facts = (f"{ts.n} ranked · Nrel {ts.nrel} · {ts.relevant_ranked} relevant ranked · "
                 f"{esc(str(s.settings.mode))} reading")
        before = topic_before(s, ts)  # unsaved edits: the headline score before them
        set_wrapped(self.header,
            f"<b>Topic {esc(ts.topic)}</b> {esc(title)}<br>run {run_text}<br>"
            f"<span style='color:{look.css('muted')}'>{facts}</span>"
            + (f"<br><span style='color:{look.css('note')}'>{esc(before)}</span>" if before else ""), LEFT_WIDTH)

    def _fill(self) -> None:
        ts = self.scores
        if self._fill_in_place(ts):
            return
        self._table_shape = None
        self._cells = {}
        self.table.clear()
        if ts is None or not ts.values:
            for c in self.cards:
                c.name.setText("")
                fit_text(c.value, "–")
            self.table.setRowCount(0)
            self.table.setColumnCount(0)
            if ts is not None and not ts.nrel:
                self.cards[0].name.setText("no relevant article in the qrels")
            return
        by_name = {m.name: m for m in ts.measures}
        effort = ts.doc.kind in EFFORT_KINDS
        n = ts.n
        if effort:
            last = max(r for r in (m.cutoff for m in ts.measures if m.kind == "ANCE"))
            heads = ["MAP", f"ANCE@{last}/{ts.doc.name}", f"NCE@{last}/{ts.doc.name}"]
            kinds = ["CE", "NCE", "ANCE", "gR"]
        else:
            heads = [f"AgP/{ts.doc.name}", f"AgP'/{ts.doc.name}", "MAP"]
            kinds = ["gP", "gR"]
        for card, name in zip(self.cards, heads):
            m = by_name[name]
            card.name.setText(_short(m) + ("  (lower is better)" if m.lower_is_better else ""))
            fit_text(card.value, format_list(m, ts.values[name]))
            card.setToolTip(f"{name} = {ts.values[name]!r}\n{LIST_HELP.get(m.kind, '')}")
            self._cells[name] = card.value
        cutoffs = sorted({m.cutoff for m in ts.measures if m.kind in kinds})
        self.table.setColumnCount(1 + len(kinds))
        self.table.setRowCount(len(cutoffs))
        self.table.setHorizontalHeaderLabels(["r"] + [f"{k}@r" for k in kinds])
        for c, k in enumerate(kinds, 1):
            self.table.horizontalHeaderItem(c).setToolTip(LIST_HELP.get(k, ""))
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        for row, r in enumerate(cutoffs):
            item = QTableWidgetItem(f"{r}" + (" (n)" if r == n and effort else ""))
            item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            item.setForeground(look.color("muted"))
            self.table.setItem(row, 0, item)
            for c, k in enumerate(kinds, 1):
                m = ListMeasure(k, r, None if k == "gR" else ts.doc)
                v = ts.values[m.name]
                cell = QTableWidgetItem(format_list(m, v))
                cell.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                cell.setFont(mono)
                past = r > n
                cell.setToolTip(f"{m.name} = {v!r}" + (f"\n(past the run's end: {n} articles)" if past else ""))
                if past:
                    cell.setForeground(look.color("disabled"))
                self.table.setItem(row, c, cell)
                self._cells[m.name] = cell
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self._table_shape = self._shape(ts)

    @staticmethod
    def _shape(ts: TopicScores) -> tuple:
        """What fixes the cards' and the table's layout (all but the numbers)."""
        return (ts.doc, ts.n, tuple(m.name for m in ts.measures))

    def _fill_in_place(self, ts: TopicScores | None) -> bool:
        """The same measures as shown (a mode or setting change): set the cards' values and the
        table cells whose text changed, in place; the table is not rebuilt, so Qt repaints the
        changed cells only. False when the table must be rebuilt."""
        if ts is None or not ts.values or getattr(self, "_table_shape", None) != self._shape(ts):
            return False
        by_name = {m.name: m for m in ts.measures}
        if any(name not in by_name or name not in ts.values for name in self._cells):
            return False
        n = ts.n
        for name, cell in self._cells.items():
            m = by_name[name]
            v = ts.values[name]
            text = format_list(m, v)
            if isinstance(cell, QLabel):
                if cell.text() != text:
                    fit_text(cell, text)  # a card's value: no re-layout of the dock
                card = cell.parentWidget()
                tip = f"{name} = {v!r}\n{LIST_HELP.get(m.kind, '')}"
                if card is not None and card.toolTip() != tip:
                    card.setToolTip(tip)
                continue
            if cell.text() != text:
                cell.setText(text)
            tip = f"{m.name} = {v!r}" + (f"\n(past the run's end: {n} articles)" if m.cutoff > n else "")
            if cell.toolTip() != tip:
                cell.setToolTip(tip)
        return True

    def show_article(self, *_) -> None:
        """Mark the open article's rank (or say the run does not rank it)."""
        s, ts, cur = self.session, self.scores, self.session.current
        self.loss_panel.select_article(cur.name if cur is not None else None)
        if cur is None or ts is None or self._stale:  # stale: the rows are of the topic before
            set_wrapped(self.article_line, "", LEFT_WIDTH)
            self.curves_slot.call("mark_rank", None)
            return
        row = s.row_of(cur.name)
        k = ts.ranking.articles.index(cur.name) if row is not None and cur.name in ts.ranking.articles else -1
        if k < 0:
            set_wrapped(self.article_line, f"Open article <b>{esc(cur.name)}</b>: "
                                      f"<span style='color:{look.css('bad')}'>not in this run</span>", LEFT_WIDTH)
            self.curves_slot.call("mark_rank", None)
            return
        score = ts.scores[k]  # k: 0-based position in the ranked list (= rank - 1 without gaps)
        rel = "relevant" if ts.ranking.relevant[k] else "not relevant"
        text = f"{score:.0f}" if ts.doc.kind in EFFORT_KINDS else f"{score:.4f}"
        set_wrapped(self.article_line,
            f"Open article <b>{esc(cur.name)}</b>: rank {row.rank}, {rel}, "
            f"S = {ts.doc.name} = {text}", LEFT_WIDTH)
        self.curves_slot.call("mark_rank", k + 1, f"{cur.name} (rank {row.rank})")

    def _loss_clicked(self, index) -> None:
        """Open the article of the clicked row of the loss table."""
        article = index.data(LOSS_ARTICLE_ROLE)
        if article is not None and (self.session.current is None or self.session.current.name != article):
            self.session.open_article(article)

    def _clicked(self, plot, event) -> None:
        """Open the article at the clicked rank (left click inside a plot)."""
        ts = self.scores
        if ts is None or ts.n == 0 or event.button() != Qt.MouseButton.LeftButton:
            return
        vb = plot.getPlotItem().getViewBox()
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        r = int(round(vb.mapSceneToView(event.scenePos()).x()))
        if 1 <= r <= ts.n:
            self.session.open_article(ts.ranking.articles[r - 1])


OPENING_HEIGHT = 270
"""Pixels: the topic dock's height when it first opens (the user's is remembered)."""


def build_topic_view(window) -> tuple[TopicView, QDockWidget]:
    """The topic view of ``window`` (a :class:`~readsim.app.mainwindow.MainWindow`) in the bottom
    dock "Topic", tabbed with the log, with a View-menu toggle; the ranked list keeps the chosen
    measure's column. Returns the view and its dock (the window's ``topic_view``, ``topic_dock``)."""
    view = TopicView(window.session, defer_plots=window.defer_plots)
    dock = QDockWidget("Topic: list scores of the ranked list", window)
    dock.setObjectName("topic")
    # scrolls on a screen too small for the view; half the screen's width at least, so that another
    # dock beside it still fits
    dock.setWidget(Scrolled(view, 0.5, 0.25))
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    window.tabifyDockWidget(dock, window.log_dock)
    window.restoreDockWidget(dock)
    dock.raise_()
    dock.opening_height = OPENING_HEIGHT  # the height it opens at (MainWindow.fit_docks counts it)
    window.resizeDocks([dock], [OPENING_HEIGHT], Qt.Orientation.Vertical)
    action = dock.toggleViewAction()
    action.setText("Topic scores (list measures)")
    window.view_menu.addAction(action)
    table = window.table  # the ranked list keeps the chosen measure's column
    table.set_chosen(view.doc_kind())
    view.doc_combo.currentIndexChanged.connect(lambda _i: table.set_chosen(view.doc_kind()))
    from ..provenance import provenance

    panel = view.loss_panel
    panel.context = lambda: provenance(window)
    panel.tell_error = window.show_error
    panel.say = window.status.setText
    return view, dock


def _rank_curves():
    from .list_plot import RankCurves  # pyqtgraph: imported when first built

    return RankCurves()
