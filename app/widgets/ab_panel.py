"""A/B: one article of the current topic under two runs, side by side.

:class:`ComparePanel` shows, for the article open in the window, run A's and run B's retrieved
passages in two read-only :class:`~readsim.app.widgets.article_view.ArticleView` s (the window's
marks: yellow relevant, blue-underlined retrieved, green both, numbered matching chain; their
scrolling linked), and a table with columns A, B and B−A for every panel measure
(:func:`readsim.operations.article_reading.panel_measures`), the article's rank in each run, and the topic's
list scores AgP/DOC for the panel's main document measures. The better value of each row is
shaded green (for LE, ES and the rank, lower is better).

Each side is the API's :func:`readsim.operations.article_reading.ranked_article` ``(qrels, run, topic, entry,
collection)`` read in the mode (``readsim.article``'s evaluation), recomputed at once on every article, run, mode or settings change (one article:
a scan over its passages). The AgP rows need the whole topic under both runs and are computed
with the API's core, :func:`readsim.operations.evaluate.evaluate_run` on each run cut to the topic (the
values of ``readsim.evaluate(..., per="topic")``), in the background
(:class:`readsim.app.background.LatestJob`: the latest request only). An article a run does not rank for the
topic shows "not ranked" in that run's column (its view shows relevance only).

:func:`build_compare` builds the panel's dock for a main window as a dock (View ▸ Compare runs (A/B),
Ctrl+Shift+B) and a Navigate ▸ "Next run" action (Ctrl+Shift+R).
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QDockWidget, QHBoxLayout, QHeaderView, QSplitter, QTableWidget, QTableWidgetItem, QToolButton, QVBoxLayout, QWidget)

from readsim.operations.evaluate import evaluate_run
from readsim.operations.article_reading import panel_measures, panel_scores
from readsim.core import intervals as iv
from readsim.core.errors import InputError
from readsim.core.formats import Run
from readsim.core.measure import DocMeasure, ListMeasure

from .. import appearance as look
from .. import marks as mk
from ..background import LatestJob
from readsim.app.input_files import app_settings
from ..plain import amount, esc, plain_label, plain_tip, rich_label
from ..rows import MODES
from ..session import Session
from .. import settings_keys as keys
from .article_view import ArticleView
from .compare_rows import Row, Side, relevance_only, evaluate_side, format_diff, format_value, run_label
from .legend import Legend
from .placement import give_back, within_screen

# roles of readsim.app.appearance
BETTER = "better_bg"   # the better value of a row
WORSE_TEXT = "bad"
BETTER_TEXT = "good"
MUTED = "faint"
SECTION = "header"


class ScoreTable(QTableWidget):
    """Measure | A | B | B−A, one row per measure, section rows between groups."""

    COLUMNS = ("Measure", "A", "B", "B − A")

    def __init__(self, parent=None) -> None:
        super().__init__(0, 4, parent)
        look.follow_items(self)  # the role colours of its items, in the theme
        self.setHorizontalHeaderLabels(self.COLUMNS)
        self.verticalHeader().hide()
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setAlternatingRowColors(False)
        self.setShowGrid(False)
        self.setWordWrap(False)
        h = self.horizontalHeader()
        h.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        for c in (1, 2, 3):
            h.setSectionResizeMode(c, QHeaderView.ResizeMode.Stretch)
        self.setStyleSheet("QTableWidget { font-size: 11pt; } QHeaderView::section { font-weight: bold; padding: 4px; }")
        self.mono = QFont("monospace")
        self.mono.setStyleHint(QFont.StyleHint.TypeWriter)
        self.mono.setPointSizeF(11)

    def set_rows(self, sections: list[tuple[str, list[Row]]], missing: dict[str, str]) -> None:
        """Fill the table. ``missing[col]`` (col "A"/"B") is the text for an absent value."""
        total = sum(len(rows) + 1 for _, rows in sections)
        self.setRowCount(total)
        r = 0
        for title, rows in sections:
            item = QTableWidgetItem(title)
            f = item.font()
            f.setBold(True)
            item.setFont(f)
            item.setForeground(look.brush("strong"))
            self.setItem(r, 0, item)
            for c in range(4):
                if c:
                    self.setItem(r, c, QTableWidgetItem(""))
                self.item(r, c).setBackground(look.brush(SECTION))
            self.setSpan(r, 0, 1, 4)
            r += 1
            for row in rows:
                name = QTableWidgetItem(row.name)
                name.setToolTip(row.tip)
                self.setItem(r, 0, name)
                better = row.better()
                for c, col, value in ((1, "A", row.a), (2, "B", row.b)):
                    if value is None:
                        it = QTableWidgetItem(missing.get(col, "—"))
                        it.setForeground(look.brush(MUTED))
                        f = it.font()
                        f.setItalic(True)
                        it.setFont(f)
                    else:
                        it = QTableWidgetItem(format_value(row.measure, value, row.integer))
                        it.setFont(self.mono)
                        it.setToolTip(f"{row.name} = {value!r}")
                        if better == col:
                            it.setBackground(look.brush(BETTER))
                            f = QFont(self.mono)
                            f.setBold(True)
                            it.setFont(f)
                    it.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    self.setItem(r, c, it)
                d = row.diff
                it = QTableWidgetItem("—" if d is None else format_diff(d, row.integer or (row.measure is not None and row.measure.kind in ("LE", "ES"))))
                it.setFont(self.mono)
                it.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if better == "B":
                    it.setForeground(look.brush(BETTER_TEXT))
                    it.setToolTip("B is better")
                elif better == "A":
                    it.setForeground(look.brush(WORSE_TEXT))
                    it.setToolTip("B is worse")
                else:
                    it.setForeground(look.brush(MUTED))
                self.setItem(r, 3, it)
                r += 1
        self.resizeRowsToContents()


class SideView(QWidget):
    """One run's column: a coloured header and an :class:`ArticleView`."""

    COLOURS = {"A": "accent", "B": "run_b"}  # roles of readsim.app.appearance

    def __init__(self, letter: str, parent=None) -> None:
        super().__init__(parent)
        self.letter = letter
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        self.header = rich_label()
        self.header.setWordWrap(True)
        self.header.setContentsMargins(6, 4, 6, 4)
        colour = look.css(self.COLOURS[letter])
        self.header.setStyleSheet(f"QLabel {{ border-left: 6px solid {colour}; background: {look.css('panel')}; }}")
        self.view = ArticleView()
        lay.addWidget(self.header)
        lay.addWidget(self.view, 1)

    def set_header(self, side: Side | None, unit: str) -> None:
        colour = look.css(self.COLOURS[self.letter])
        badge = f'<span style="color:{colour}; font-size:15pt; font-weight:bold">{self.letter}</span>'
        if side is None:
            self.header.setText(f"{badge}&nbsp; <i>no run</i>")
            return
        name = esc(run_label(side.run))
        if side.ranked:
            ev = side.evaluation
            bits = [f"rank <b>{side.entry.rank}</b>",
                    amount(len(ev.retrieved_spans), "passages") if side.entry.passages is not None or side.entry.xpaths
                    else "whole article",
                    f"{amount(ev.retrieved_size, unit)} retrieved"]
            if ev.is_relevant:
                bits.append(f"{ev.relevant_retrieved:,} of {ev.nrc:,} relevant")
            detail = " · ".join(bits)
        else:
            detail = f'<span style="color:{look.css("bad")}"><i>{esc(side.note)}</i></span>'
        extra = (f'<br><span style="color:{look.css("bad")}">{esc(side.note)}</span>' if side.ranked and side.note else "")
        self.header.setText(f'{badge}&nbsp; <b>{name}</b><br><span style="color:{look.css("soft")}">{detail}</span>{extra}')
        self.header.setToolTip(plain_tip(side.run.path))


class ComparePanel(QWidget):
    """Runs A and B on the open article: two marked views and the score table.

    ``sides`` holds the current :class:`Side` of A and B; :meth:`rows` the table's content as
    :class:`Row` s by name (tests read numbers back from it). The panel only works while
    visible (``active``); when it is shown again it catches up.
    """

    def __init__(self, session: Session, parent=None) -> None:
        super().__init__(parent)
        self.session = session
        self.sides: dict[str, Side | None] = {"A": None, "B": None}
        self.list_scores: dict[str, dict[str, float]] = {}
        self._rows: dict[str, Row] = {}
        self._shown_key: tuple | None = None
        self._list_jobs = LatestJob(self)  # the A/B list scores: the latest request only
        self._syncing = False
        self.active = True

        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.setSpacing(6)

        bar = QHBoxLayout()
        bar.setSpacing(8)
        self.combo_a, self.combo_b = QComboBox(), QComboBox()
        for letter, combo in (("A", self.combo_a), ("B", self.combo_b)):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(24)
            combo.setToolTip(f"Run {letter}")
            label = rich_label(f'<b style="color:{look.css(SideView.COLOURS[letter])}">Run {letter}</b>')
            bar.addWidget(label)
            bar.addWidget(combo)
            if letter == "A":
                self.swap = QToolButton()
                self.swap.setText("⇄")
                self.swap.setToolTip("Swap runs A and B")
                self.swap.clicked.connect(self.swap_runs)
                bar.addWidget(self.swap)
        bar.addSpacing(16)
        bar.addWidget(plain_label("Reading"))
        self.mode = QComboBox()
        for m in MODES:
            self.mode.addItem(m.value, m.value)
        self.mode.setToolTip("Reading mode of both runs (the window's mode; Ctrl+M cycles)")
        bar.addWidget(self.mode)
        self.link = QCheckBox("link scrolling")
        self.link.setChecked(True)
        self.link.setToolTip("Scroll A and B together")
        bar.addWidget(self.link)
        bar.addStretch(1)
        lay.addLayout(bar)

        self.title = rich_label()
        self.title.setWordWrap(True)
        lay.addWidget(self.title)

        self.view_a, self.view_b = SideView("A"), SideView("B")
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        self.table = ScoreTable()
        self.table.setMinimumWidth(360)
        self.note = plain_label("Green: the better run of the row (LE, ES and rank: lower is better). "
                                "B − A is green when B is better, red when it is worse.")
        self.note.setWordWrap(True)
        self.note.setStyleSheet(f"color:{look.css('muted')};")
        self.summary = rich_label()
        self.summary.setWordWrap(True)
        self.summary.setStyleSheet(f"QLabel {{ color:{look.css('text')}; background:{look.css('callout')}; "
                                   f"border:1px solid {look.css('callout_edge')}; padding:6px; font-size:11pt; }}")
        rl.addWidget(self.table, 1)
        rl.addWidget(self.summary)
        rl.addWidget(self.note)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        for w in (self.view_a, self.view_b, right):
            self.splitter.addWidget(w)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setStretchFactor(2, 2)
        self.splitter.setChildrenCollapsible(False)
        lay.addWidget(self.splitter, 1)
        self.legend = Legend()
        lay.addWidget(self.legend)

        self.combo_a.activated.connect(lambda _: self.refresh(rebuild=True))
        self.combo_b.activated.connect(lambda _: self.refresh(rebuild=True))
        self.mode.currentIndexChanged.connect(lambda i: session.set_settings(mode=self.mode.itemData(i)))
        for a, b in ((self.view_a.view, self.view_b.view), (self.view_b.view, self.view_a.view)):
            a.verticalScrollBar().valueChanged.connect(lambda v, src=a, dst=b: self._sync(src, dst))
        session.files_changed.connect(self.fill_runs)
        session.article_changed.connect(lambda: self.refresh(rebuild=True))
        session.evaluation_changed.connect(lambda: self.refresh())
        session.settings_changed.connect(lambda _: self.refresh())
        self.fill_runs()

    # -- runs ---------------------------------------------------------------------------
    def fill_runs(self) -> None:
        """Refill the combos from ``session.runs``, keeping A and B by path (default: the
        window's run as A and the next run as B)."""
        runs = self.session.runs
        keep = {c: c.currentData() for c in (self.combo_a, self.combo_b)}
        for c in (self.combo_a, self.combo_b):
            c.blockSignals(True)
            c.clear()
            for run in runs:
                c.addItem(run_label(run), run.path)
                c.setItemData(c.count() - 1, plain_tip(run.path), Qt.ItemDataRole.ToolTipRole)
        paths = [r.path for r in runs]
        cur = runs.index(self.session.run) if self.session.run in runs else 0
        a = paths.index(keep[self.combo_a]) if keep[self.combo_a] in paths else cur
        b = paths.index(keep[self.combo_b]) if keep[self.combo_b] in paths else None
        if b is None or (b == a and len(runs) > 1 and keep[self.combo_b] not in paths):
            b = (a + 1) % len(runs) if runs else -1
        self.combo_a.setCurrentIndex(a if runs else -1)
        self.combo_b.setCurrentIndex(b if runs else -1)
        for c in (self.combo_a, self.combo_b):
            c.blockSignals(False)
        self.refresh(rebuild=True)

    def set_runs(self, a: int, b: int) -> None:
        """Compare ``session.runs[a]`` (A) with ``session.runs[b]`` (B)."""
        self.combo_a.setCurrentIndex(a)
        self.combo_b.setCurrentIndex(b)
        self.refresh(rebuild=True)

    def swap_runs(self) -> None:
        self.set_runs(self.combo_b.currentIndex(), self.combo_a.currentIndex())

    def run(self, letter: str) -> Run | None:
        i = (self.combo_a if letter == "A" else self.combo_b).currentIndex()
        runs = self.session.runs
        return runs[i] if 0 <= i < len(runs) else None

    # -- updating -----------------------------------------------------------------------
    def set_active(self, active: bool) -> None:
        self.active = active
        if active:
            self.refresh(rebuild=True)

    def refresh(self, rebuild: bool = False) -> None:
        """Re-evaluate both sides in the current settings; rebuild the views when the
        article or a run changed, else only their marks."""
        if not self.active:
            return
        s = self.session
        st = s.settings
        i = self.mode.findData(st.mode.value)
        if i >= 0 and i != self.mode.currentIndex():
            self.mode.blockSignals(True)
            self.mode.setCurrentIndex(i)
            self.mode.blockSignals(False)
        for letter in ("A", "B"):
            run = self.run(letter)
            self.sides[letter] = evaluate_side(s, run, st) if run is not None else None
        cur = s.current
        key = (id(cur.layout) if cur else None, cur.name if cur else None, s.topic,
               *(self.run(x).path if self.run(x) else None for x in "AB"))
        if key != self._shown_key:
            rebuild = True
            self._shown_key = key
        self._show_title()
        for letter, sv in (("A", self.view_a), ("B", self.view_b)):
            side = self.sides[letter]
            sv.set_header(side, s.unit)
            self._show_marks(sv.view, side, rebuild)
        self._fill_table()
        self._request_list_scores()

    def _show_title(self) -> None:
        s, cur = self.session, self.session.current
        if cur is None:
            self.title.setText("<i>No article open: open one in the window's ranked list.</i>")
            return
        title = cur.article.title if cur.article is not None else cur.name
        rel = ""
        if s.qrels is not None:
            rel = (f' · <span style="color:{look.css("good")}"><b>relevant</b></span> ({amount(cur.evaluation.nrc, s.unit)})'
                   if cur.evaluation.is_relevant else " · not relevant")
        st = s.settings
        self.title.setText(
            f'<span style="font-size:14pt"><b>{esc(title)}</b></span>&nbsp;&nbsp;'
            f'<span style="color:{look.css("muted")}">article {esc(cur.name)} · topic {esc(s.topic or "")}{rel} · '
            f'{st.mode.value} reading · screen {st.screen} · tolerance {st.tolerance} · β {st.beta:g}</span>')

    def _show_marks(self, view: ArticleView, side: Side | None, rebuild: bool) -> None:
        cur = self.session.current
        if cur is None or cur.layout is None:
            if rebuild:
                view.show_message(cur.message if cur is not None else "No article open.")
            return
        ev = side.evaluation if side is not None and side.ranked else relevance_only(self.session)
        m = mk.marks(cur.layout, ev)
        if rebuild or view.layout_ is not cur.layout:
            bar = view.verticalScrollBar().value()
            view.show_article(cur.layout, m)
            other = self.view_b.view if view is self.view_a.view else self.view_a.view
            if self.link.isChecked() and other.layout_ is cur.layout:
                view.verticalScrollBar().setValue(other.verticalScrollBar().value())
            elif not rebuild:
                view.verticalScrollBar().setValue(bar)
        else:
            view.set_marks(m)

    def _sync(self, src: ArticleView, dst: ArticleView) -> None:
        if self._syncing or not self.link.isChecked() or src.layout_ is None or src.layout_ is not dst.layout_:
            return
        self._syncing = True
        try:
            dst.verticalScrollBar().setValue(src.verticalScrollBar().value())
        finally:
            self._syncing = False

    def _fill_table(self) -> None:
        st = self.session.settings
        a, b = self.sides["A"], self.sides["B"]
        sa = panel_scores(a.evaluation, st) if a is not None and a.ranked else None
        sb = panel_scores(b.evaluation, st) if b is not None and b.ranked else None
        from readsim.app.widgets.score_panel import HELP

        doc_rows = [Row(m.name, sa[m.name] if sa else None, sb[m.name] if sb else None, m.lower_is_better,
                        measure=m, tip=HELP.get(m.kind, "")) for m in panel_measures(st)]
        rank_row = Row("rank in the run", float(a.entry.rank) if a is not None and a.entry else None,
                       float(b.entry.rank) if b is not None and b.entry else None, True, integer=True,
                       tip="the article's rank in the topic's ranked list (lower is better)")
        la, lb = self.list_scores.get("A", {}), self.list_scores.get("B", {})
        list_rows = [Row(name, la.get(name), lb.get(name), tip="average generalised precision of the topic's "
                         "ranked list with this document score (Kamps et al. 2007)") for name in self._list_names()]
        sections = [("Article scores", doc_rows), ("Fetch phase (the topic's ranked list)", [rank_row] + list_rows)]
        self._rows = {r.name: r for _, rows in sections for r in rows}
        missing = {}
        for letter, side in (("A", a), ("B", b)):
            missing[letter] = "not ranked" if side is not None and side.run is not None else "no run"
        self.table.set_rows(sections, missing)
        self.summary.setText(self._summary(doc_rows))

    def _summary(self, doc_rows: list[Row]) -> str:
        """One sentence on what differs (article scores and passages)."""
        a, b = self.sides["A"], self.sides["B"]
        if self.session.current is None or a is None or b is None:
            return "Open an article and load two runs (File ▸ Open run…) to compare them."
        for letter, side in (("A", a), ("B", b)):
            if not side.ranked:
                return f"<b>{letter}</b> does not rank this article for the topic: it scores nothing here."
        same = iv.as_array(a.evaluation.retrieved_spans).tolist() == iv.as_array(b.evaluation.retrieved_spans).tolist()
        if same:
            return ("A and B retrieve <b>the same passages</b> in this article, so its scores agree; "
                    "the runs differ in where they rank it (see the fetch phase rows).")
        better = sum(r.better() == "B" for r in doc_rows)
        worse = sum(r.better() == "A" for r in doc_rows)
        return (f"B is <b style='color:{look.css('good')}'>better on {better}</b> and <b style='color:{look.css('bad')}'>worse on "
                f"{worse}</b> of {len(doc_rows)} article scores.")

    def rows(self) -> dict[str, Row]:
        """The table's rows by name (raw values)."""
        return dict(self._rows)

    def shown(self) -> dict[str, tuple[str, str, str]]:
        """The table's texts: name -> (A, B, B − A), section rows left out."""
        out = {}
        for r in range(self.table.rowCount()):
            if self.table.columnSpan(r, 0) > 1:
                continue
            out[self.table.item(r, 0).text()] = tuple(self.table.item(r, c).text() for c in (1, 2, 3))
        return out

    # -- list scores of the topic (background) ------------------------------------------
    def _list_measures(self) -> list[ListMeasure]:
        st = self.session.settings
        docs = [DocMeasure("F", 0, st.beta), DocMeasure("aveChP"), DocMeasure("T2IF", st.tolerance, st.alpha)]
        return [ListMeasure("AgP", 0, d) for d in docs]

    def _list_names(self) -> list[str]:
        return [m.name for m in self._list_measures()]

    def _request_list_scores(self) -> None:
        s = self.session
        topic = s.topic
        if topic is None or s.qrels is None or topic not in s.qrels.topics:
            self.list_scores = {}
            return
        measures = self._list_measures()
        runs = {x: self.run(x) for x in "AB"}
        key = (topic, s.settings.mode, tuple(m.name for m in measures), *(r.path if r else None for r in runs.values()))
        if getattr(self, "_list_key", None) == key:
            return
        self._list_key = key
        self.list_scores = {}
        qrels, coll, mode, levels = s.qrels, s.collection, s.settings.mode, s.settings.levels

        def op():
            out = {}
            for letter, run in runs.items():
                if run is None or topic not in run.topics:
                    continue
                part = dataclasses.replace(run, topics={topic: run.topics[topic]})
                try:
                    result, _ = evaluate_run(qrels, part, measures, reading=mode, collection=coll, all_topics=False,
                                             as_documents=False, levels=levels, check=False)
                except InputError:
                    result, _ = evaluate_run(qrels, part, measures, reading=mode, collection=None, all_topics=False,
                                             as_documents=False, levels=levels, check=False)
                if topic in result.topics:
                    out[letter] = {m.name: result.values[m.name][topic] for m in measures}
            return out

        def success(out) -> None:
            self.list_scores = out
            self._fill_table()

        self._list_jobs.start(lambda _progress: op(), success, lambda exc: self.session.worker_failed(exc))


def build_compare(window) -> tuple[ComparePanel, QDockWidget, QAction, QAction]:
    """The A/B dock of ``window`` (a MainWindow): View ▸ "Compare runs (A/B)"
    (Ctrl+Shift+B) and Navigate ▸ "Next run" (Ctrl+Shift+R); returns the panel, the dock and the
    two actions (the window's ``compare``, ``compare_dock``, ``act_compare``, ``act_next_run``). The first time ever it is shown
    (no saved layout) the dock floats, large but inside the screen (:func:`within_screen`),
    before it shows, so it never widens the main window; closing it gives the main window
    back the size it had before (:func:`give_back`). Docked or floating, ``saveState`` keeps it."""
    panel = ComparePanel(window.session)
    panel.active = False
    dock = QDockWidget("Compare runs (A/B)", window)
    dock.setObjectName("compare_runs")
    dock.setWidget(panel)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    dock.hide()

    before: list = []  # the main window's size before the dock opened (given back on closing)

    def place() -> None:
        """Before the first show ever: float the dock inside the screen, so that the panel's
        width never widens the main window (docked, it would, past the screen)."""
        if dock.isVisible():
            return
        before[:] = [window.size()]
        if dock.isFloating() or keys.read(app_settings(), keys.COMPARE_PLACED):
            return
        dock.setFloating(True)
        dock.setGeometry(within_screen(window, 0.94, 0.88))

    def visible(on: bool) -> None:
        if on:
            keys.write(app_settings(), keys.COMPARE_PLACED, True)
        elif before:
            give_back(window, before.pop())
        panel.set_active(on)

    dock.visibilityChanged.connect(visible)
    act = dock.toggleViewAction()
    act.setText("Compare runs (A/B)")
    act.setShortcut(QKeySequence("Ctrl+Shift+B"))
    act.setStatusTip("Two runs on the open article, side by side, with their scores and the difference")
    act.triggered.disconnect()  # the dock's own toggle: placed first (place), then shown
    act.triggered.connect(lambda on: (place(), dock.setVisible(on)) if on else dock.setVisible(False))
    window.addAction(act)
    nxt = QAction("Next run", window)
    nxt.setShortcut(QKeySequence("Ctrl+Shift+R"))
    nxt.setStatusTip("Show the next loaded run (same topic and article)")
    nxt.triggered.connect(lambda: window.session.set_run((window.session.runs.index(window.session.run) + 1)
                                                         % len(window.session.runs)) if window.session.runs else None)
    window.addAction(nxt)
    window.view_menu.addAction(act)
    window.navigate_menu.addAction(nxt)
    return panel, dock, act, nxt
