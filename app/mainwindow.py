"""The reading-order window: ranked list (left), article (centre), reader controls, scores and
precision plot (right), a File menu with recent files, drag and drop, a status bar with a busy
indicator, a collapsible log of reader warnings, and shortcuts for the frequent actions.

Bad input is told, never shown as a traceback: a file that cannot be read (by any path: the
File menu, a recent file, a drop, the command line) opens one non-modal message box naming the
path and the reason (:meth:`MainWindow.show_error`; :attr:`MainWindow.error_box` holds it,
``errors_shown`` every text), and inputs that do not fit together (an empty qrels file, run
topics the qrels lack, articles the collection lacks) are summed up in the status bar and
listed in the log (:meth:`MainWindow.show_coverage`)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence, QTextDocument
from PySide6.QtWidgets import (QComboBox, QDockWidget, QFileDialog, QFormLayout, QMainWindow, QMessageBox,
                               QPlainTextEdit, QProgressBar, QPushButton, QSizePolicy, QSplitter, QVBoxLayout, QWidget)

from . import appearance as look
from .background import activity
from .files import ARCHIVE_FILTER, app_settings, guess_kind, recent_files
from .plain import amount, esc, menu_text, plain_label, plain_tip, rich_label
from .session import Session
from .widgets.article_panel import ArticlePanel, install_article_loading
from .widgets.controls import Controls, install_entry_point
from .widgets.deferred import Deferred, build_when_idle
from .widgets.error_box import ErrorBox
from .widgets.playback_bar import install_playback
from .widgets.ranked_list import RankedListModel, RankedListView
from .widgets.scores import ScoresPanel
from .widgets.compare import install_compare
from .widgets.on_demand import install_elements, install_runs
from .export import install_export
from .widgets.render_dialogs import install_render
from .editing import install_editing
from .help import install_help
from .widgets.strategies import install_strategies
from .widgets.passages_table import install_passages
from .widgets.topic_view import install_topic_view
from .widgets.explain import install_explain
from .widgets.sensitivity import install_sensitivity
from .view_state import install_views, open_view_file
from .presentation import install_appearance
from .widgets.lesson_dock import install_lessons
from .widgets.topic_chooser import install_topic_scores
from .widgets.placement import Scrolled, column_widths, keep_inside, keep_open, place
from .render_args import DEFAULT_SIZE  # the picture's size by default, and the window's on a large screen

SUMMARY_CHARS = 110  # the status bar's input-warning summary is clipped there (full text: tooltip, log)


ARTICLE_MIN_WIDTH = 400
"""Pixels: the article pane never narrows below this (its text, chain bar and counters)."""
LIST_MIN_WIDTH = 260
"""Pixels: the ranked list keeps its rank, 12 characters of title, the relevance and the chosen
measure's column (a narrow list drops the other score columns: ranked_list.TITLE_CHARS)."""
ARTICLE_LINES = 15
"""Lines of article text a dock opened by default never takes from the article pane: a bottom
dock that would leaves it starts closed (:meth:`MainWindow.fit_docks`)."""


class MainWindow(QMainWindow):
    """The main window over a :class:`Session` (``show_dialogs=False`` keeps errors in the
    status bar and the log only: screenshots, tests). With ``restore`` it opens at the user's
    remembered geometry and docks, within the screen (:func:`~readsim.app.widgets.placement.place`);
    without (``--screenshot``, ``--figure``, ``--record``, tests) at :data:`DEFAULT_SIZE`, or
    fixed at ``size`` (the picture's, ``--size``). Either way, bottom docks that would leave the
    article fewer than :data:`ARTICLE_LINES` lines start closed (:meth:`fit_docks`). With ``defer_plots`` the plots (pyqtgraph)
    are built after the first frame, once the loading started then is done
    (:mod:`readsim.app.widgets.deferred`), or when first asked for (:attr:`plot`)."""

    def __init__(self, session: Session | None = None, show_dialogs: bool = True, restore: bool = True,
                 defer_plots: bool = False, size: tuple[int, int] | None = None) -> None:
        super().__init__()
        if restore:  # the remembered zoom and theme, before the widgets are built
            look.appearance().load(app_settings())
        else:  # not the user's window (a picture, a test): zoom 1, the system's theme
            look.appearance().reset()
        self.defer_plots = defer_plots
        self.user_window = restore  # False: a picture (--screenshot, --figure, --record) or a test
        self.picture = size is not None  # a picture's window: what would float opens docked (the window is drawn)
        self._shown = False
        self.session = session or Session()
        if self.session.parent() is None:
            self.session.setParent(self)
        self.show_dialogs = show_dialogs
        self.setWindowTitle("readsim — reading-order simulator")
        self.setAcceptDrops(True)
        s = self.session

        # left: topic, run, ranked list
        left = QWidget()
        ll = QVBoxLayout(left)
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

        # centre: the article
        self.article = ArticlePanel(s)

        # right: controls, scores, plot
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 4, 4, 4)
        self.controls = Controls(s)
        self.scores = ScoresPanel(s)
        self.plot_slot = Deferred(lambda: _precision_plot(s), eager=not defer_plots)
        rl.addWidget(self.controls)
        rl.addWidget(self.scores)
        rl.addWidget(self.plot_slot, 1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        for w in (left, self.article, Scrolled(right, 0.28, 0.45)):  # scrolls on a small screen
            self.splitter.addWidget(w)
        # a dock that opens takes its width from the article and the plots' column (2:1), never
        # below the article's and the controls' minimum widths (the playback counters stay readable)
        self.article.setMinimumWidth(ARTICLE_MIN_WIDTH)
        left.setMinimumWidth(LIST_MIN_WIDTH)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setStretchFactor(2, 1)
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)
        self._sized = False
        self._auto_columns = False

        # log of reader warnings
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setMaximumBlockCount(5000)
        self.log_dock = QDockWidget("Log (reader warnings and errors)", self)
        self.log_dock.setObjectName("log")
        self.log_dock.setWidget(self.log)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.log_dock)
        self.log_dock.hide()

        # status bar
        self.status = plain_label()
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # clip, never push
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(120)
        self.busy.hide()
        self._index_timer = QTimer(self)  # polls the collection index build (Session.indexing)
        self._index_timer.setInterval(100)
        self._index_timer.timeout.connect(self._show_indexing)
        self.cancel_indexing = QPushButton("Cancel")  # shown while a collection is indexed
        self.cancel_indexing.setToolTip("Stop indexing the collection; it is not opened (Esc)")
        self.cancel_indexing.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.cancel_indexing.hide()
        self.cancel_indexing.clicked.connect(self.session.cancel_indexing)
        # Esc is the window's one cancel action (install_article_loading), told of the build
        self.act_cancel_indexing = QAction("Cancel indexing the collection", self)
        self.act_cancel_indexing.setEnabled(False)
        self.act_cancel_indexing.triggered.connect(self.session.cancel_indexing)
        self.warnings_label = rich_label()
        self.warnings_label.linkActivated.connect(lambda _link: self.show_log())
        self.statusBar().addWidget(self.status, 1)
        self.statusBar().addPermanentWidget(self.warnings_label)
        self.statusBar().addPermanentWidget(self.busy)
        self.statusBar().addPermanentWidget(self.cancel_indexing)
        self._warnings = 0
        self._coverage_summary = ""
        self._coverage_lines: list[str] = []
        self._errors = ErrorBox(self, "readsim: cannot read the input", window_modal=True)
        self.errors_shown: list[str] = []  # every error text shown, in order

        self._make_actions()
        self._connect()
        install_playback(self)
        install_entry_point(self)
        install_compare(self)
        install_runs(self)
        install_elements(self)
        install_export(self)
        install_render(self)  # File ▸ Export figure…, Reader ▸ Record playback…
        install_help(self)
        install_editing(self)
        install_strategies(self)
        install_passages(self)
        install_topic_view(self)
        install_explain(self)
        install_sensitivity(self)
        install_topic_scores(self)  # after the topic view and the editor: the chooser's scores follow both
        install_article_loading(self)
        install_views(self)
        install_lessons(self)
        install_appearance(self)  # View ▸ Zoom, Presentation, Theme
        look.appearance().changed.connect(self._relabel_topics)  # the topic line's colours and sizes
        self._fresh = True  # no remembered docks: those that do not fit start closed (fit_docks)
        if restore:
            self._restore()
        else:  # not the user's window (a headless picture, a test): the picture's size, whatever the
            self.resize(*DEFAULT_SIZE)  # screen (offscreen, Qt's is 800 x 800 and no monitor at all)
            if size is not None:  # a picture's (--size): exactly that size, whatever opens in it
                self.setFixedSize(*size)

    @property
    def plot(self):
        """The precision plot (:class:`~readsim.app.widgets.precision_plot.PrecisionPlot`), built
        now if deferred."""
        return self.plot_slot.widget()

    # -- actions and menus --------------------------------------------------------------
    def _action(self, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            a.setShortcuts(shortcut if isinstance(shortcut, list) else [shortcut])
        a.setStatusTip(tip)
        a.triggered.connect(slot)
        self.addAction(a)
        return a

    def _make_actions(self) -> None:
        S = QKeySequence
        s = self.session
        file = self.menuBar().addMenu("&File")
        self.act_open_collection = self._action("Open &collection folder…", lambda: self.ask_open("collection"), S("Ctrl+Shift+O"))
        self.act_open_archive = self._action("Open collection &archive…", lambda: self.ask_open("archive"), None,
                                             "A .zip, .tar, .tar.gz, .tar.bz2 or .tar.xz of the articles")
        self.act_open_qrels = self._action("Open &qrels…", lambda: self.ask_open("qrels"), S("Ctrl+Shift+Q"))
        self.act_open_run = self._action("Open &run…", lambda: self.ask_open("run"), S(S.StandardKey.Open))
        self.act_open_topics = self._action("Open &topics…", lambda: self.ask_open("topics"), S("Ctrl+Shift+T"))
        self.act_sample = self._action("Open &sample", s.open_sample, None, "The small sample shipped with readsim")
        for a in (self.act_open_collection, self.act_open_archive, self.act_open_qrels, self.act_open_run, self.act_open_topics, self.act_sample):
            file.addAction(a)
        self.recent_menu = file.addMenu("&Recent files")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        file.addSeparator()
        file.addAction(self._action("&Quit", self.close, S(S.StandardKey.Quit)))

        nav = self.menuBar().addMenu("&Navigate")
        self.act_next_article = self._action("Next article", lambda: self.table.step(1), [S("Ctrl+Down"), S("J")])
        self.act_prev_article = self._action("Previous article", lambda: self.table.step(-1), [S("Ctrl+Up"), S("K")])
        self.act_next_screen = self._action("Next screen", lambda: s.step_by(1), [S("Alt+Right"), S("Ctrl+PgDown")])
        self.act_prev_screen = self._action("Previous screen", lambda: s.step_by(-1), [S("Alt+Left"), S("Ctrl+PgUp")])
        self.act_first_screen = self._action("First screen", lambda: s.set_step(0), [S("Alt+Home")])
        for a in (self.act_next_article, self.act_prev_article, self.act_next_screen, self.act_prev_screen, self.act_first_screen):
            nav.addAction(a)

        reader = self.menuBar().addMenu("&Reader")
        self.act_cycle_mode = self._action("Cycle reading mode", s.cycle_mode, S("Ctrl+M"))
        reader.addAction(self.act_cycle_mode)
        reader.addAction(self._action("Mobile screen (300)", lambda: s.set_settings(screen=300), S("Ctrl+1")))
        reader.addAction(self._action("Laptop screen (2000)", lambda: s.set_settings(screen=2000), S("Ctrl+2")))

        view = self.menuBar().addMenu("&View")
        log = self.log_dock.toggleViewAction()
        log.triggered.connect(lambda on: self.show_log() if on else None)  # tabified: raised too
        view.addAction(log)
        help_ = self.menuBar().addMenu("&Help")
        help_.addAction(self._action("About readsim", self._about))

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        items = recent_files()
        if not items:
            self.recent_menu.addAction("(none)").setEnabled(False)
        for kind, path in items:
            a = self.recent_menu.addAction(menu_text(f"{kind}: {path}"))
            a.triggered.connect(lambda _=False, k=kind, p=path: self.session.load(k, p))

    def ask_open(self, kind: str) -> None:
        """Ask for a file (or folder) of ``kind`` and open it (``archive``: a collection archive)."""
        start = str(Path(recent_files()[0][1]).parent) if recent_files() else ""
        if kind == "collection":
            path = QFileDialog.getExistingDirectory(self, "Open collection folder", start)
        elif kind == "archive":
            path, kind = QFileDialog.getOpenFileName(self, "Open collection archive", start, ARCHIVE_FILTER)[0], "collection"
        else:
            filters = {"qrels": "Qrels (*.qrels *.txt);;All files (*)", "run": "Runs (*.run *.txt);;All files (*)",
                       "topics": "Topics (*.xml);;All files (*)"}[kind]
            path, _ = QFileDialog.getOpenFileName(self, f"Open {kind}", start, filters)
        if path:
            self.session.load(kind, path)

    def _about(self) -> None:
        QMessageBox.about(self, "About readsim",
                          "readsim: a reading-order simulator for focused-retrieval evaluation "
                          "(INEX Relevant in Context): aveChP, ChP, T2I, LE, ES.")

    # -- wiring -------------------------------------------------------------------------
    def _connect(self) -> None:
        s = self.session
        s.files_changed.connect(self._fill_combos)
        s.topic_changed.connect(self._show_topic)
        s.topic_changed.connect(self._rows_pending)
        s.rows_changed.connect(self._rows_arrived)
        s.settings_changed.connect(self.model.set_settings)
        s.article_changed.connect(self._article_opened)
        s.message.connect(self.status.setText)
        s.error.connect(self.show_error)
        s.diagnostics.connect(self.add_diagnostics)
        s.coverage_changed.connect(self.show_coverage)
        s.coverage_changed.connect(self._relabel_topics)  # the collection's names are known then
        activity().changed.connect(self._busy)
        activity().failed.connect(self.show_error)
        self.table.article_activated.connect(s.open_article)
        self.topic_combo.activated.connect(lambda i: s.set_topic(self.topic_combo.itemData(i)))
        self.run_combo.activated.connect(s.set_run)
        self.status.setText("Ready")

    def _busy(self, jobs: int) -> None:
        self.busy.setVisible(jobs > 0)
        if self.session.indexing is None:
            self._show_indexing()  # over: no Cancel button, the indeterminate bar again
        elif not self._index_timer.isActive():
            self._index_timer.start()

    def _show_indexing(self) -> None:
        """The collection index build's progress (reference 2.10), polled from the GUI thread:
        the busy bar's value and the status line; an indeterminate bar when it is over."""
        job = self.session.indexing
        self.cancel_indexing.setVisible(job is not None)
        self.act_cancel_indexing.setEnabled(job is not None)
        self.set_cancel_busy("index", job is not None)
        if job is None:
            self._index_timer.stop()
            self.busy.setRange(0, 0)
            return
        self.busy.setRange(0, 1000)
        self.busy.setValue(int(job.fraction * 1000))
        if job.text and not job.cancelled:
            self.status.setText(f"{job.text} (Esc cancels)")

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

    def _relabel_topics(self, *_) -> None:
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

    def _article_opened(self) -> None:
        cur = self.session.current
        if cur is not None:
            self.table.select_article(cur.name)
            self.status.setText(f"Topic {self.session.topic}, article {cur.name}" + (f" — {cur.message}" if cur.message else ""))

    def show_error(self, text: str) -> None:
        """Show an error (``path: reason``): status bar, log, and (interactive) a message box
        that does not block the event loop (``open()``, never ``exec()``). Errors arriving while
        the box is open are added to it, so a load of several bad files opens one box.
        :attr:`error_box` is the box while it is open."""
        self.errors_shown.append(text)
        self.status.setText(f"Error: {text}")
        self.log.appendPlainText(f"error: {text}")
        if not self.show_dialogs:
            return
        self._errors.tell(text)

    @property
    def error_box(self) -> QMessageBox | None:
        """The open error message box (None: none open)."""
        return self._errors.box

    def add_diagnostics(self, lines: list) -> None:
        for line in lines:
            self.log.appendPlainText(str(line))
        self._warnings += len(lines)
        self._show_warning_counts()

    def show_coverage(self, diagnostics: list) -> None:
        """Show how the loaded inputs fit together (``Session.coverage_changed``): each warning
        not shown by the previous check goes to the log, and the status bar sums them up
        (``2 input warnings: bert.run: 12 topics of the run (first: ...) are not in the qrels;
        ... — see View ▸ Log``; the full texts in its tooltip). An empty list clears the summary."""
        old = set(self._coverage_lines)
        lines = [str(d) for d in diagnostics]
        for line in lines:
            if line not in old:
                self.log.appendPlainText(line)
        self._coverage_lines = lines
        parts = [f"{Path(d.path).name}: {d.message.split(';')[0]}" for d in diagnostics]
        n = len(parts)
        self._coverage_summary = f"{n} input warning{'s' if n != 1 else ''}: " + "; ".join(parts) if parts else ""
        self._show_warning_counts()

    def _show_warning_counts(self) -> None:
        """The status bar's warnings label: the input summary (clipped) and the reader
        warnings' count, with a link that opens the log; the full summary in the tooltip."""
        summary = self._coverage_summary
        parts = []
        if summary:
            shown = summary if len(summary) <= SUMMARY_CHARS else summary[:SUMMARY_CHARS - 1] + "…"
            parts.append(esc(shown))
        if self._warnings:
            parts.append(amount(self._warnings, "reader warnings"))
        if not parts:
            self.warnings_label.setText("")
            self.warnings_label.setToolTip("")
            return
        self.warnings_label.setText(" · ".join(parts) + " — see <a href='log'>View ▸ Log</a>")
        self.warnings_label.setToolTip(plain_tip("\n".join(self._coverage_lines)))

    def show_log(self) -> None:
        """Show the log dock in front (it shares its tabs with the topic view)."""
        self.log_dock.show()
        self.log_dock.raise_()

    def warnings_text(self) -> str:
        """The warnings label as plain text (what the status bar shows)."""
        doc = QTextDocument()
        doc.setHtml(self.warnings_label.text())
        return doc.toPlainText()

    # -- drag and drop ------------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            self.open_paths(paths)
            event.acceptProposedAction()

    def open_paths(self, paths: list[str]) -> None:
        """Open dropped paths, each as the kind :func:`guess_kind` says, in one load; a dropped
        ``.readsim`` view is opened alone (:func:`readsim.app.view_state.open_view_file`)."""
        view = next((p for p in paths if str(p).lower().endswith(".readsim")), None)
        if view is not None:
            open_view_file(self, view)
            return
        kw: dict = {"runs": []}
        for p in paths:
            kind = guess_kind(p)
            if kind == "run":
                kw["runs"].append(p)
            else:
                kw[kind] = p
        self.session.open_files(**kw)

    # -- settings -----------------------------------------------------------------------
    def _restore(self) -> None:
        st = app_settings()
        place(self, QSize(*DEFAULT_SIZE), st.value("window/geometry"))  # bounded by this screen
        state = st.value("window/state")
        if isinstance(state, QByteArray) and not state.isEmpty():
            self._fresh = not self.restoreState(state)
        split = st.value("window/splitter")
        if isinstance(split, QByteArray) and not split.isEmpty():
            self._sized = self.splitter.restoreState(split)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._shown:
            self._shown = True
            if self.defer_plots:
                build_when_idle(self)
            if self._fresh:
                self.fit_docks()
        if not self._sized:  # first show without saved state: about 31% / 44% / 25%
            self._sized = True
            self._auto_columns = True
            self.splitter.splitterMoved.connect(self._columns_moved)
            self.splitter.widget(2).grown = lambda: self._fit_columns(resized=False)
            self._fit_columns()

    def _fit_columns(self, resized: bool = True) -> None:
        """Columns of about 31% / 44% / 25% of the window, the Reader column (the third) as wide as
        its controls prefer (no row wrapped) and its scores need (no sideways scrolling on a
        laptop's screen), as far as the other two columns can give, until the user moves them.
        Between resizes of the window the Reader column only widens, when what it shows needs
        more (``resized`` False): the columns do not shift to and fro as its scroll bar comes and
        goes with a control change."""
        if not self._auto_columns:
            return
        need = self.reader_width()
        if not resized and need <= self.splitter.sizes()[2]:
            return
        w = max(self.splitter.width() - 2 * self.splitter.handleWidth(), 900)
        least = tuple(max(wd.minimumSizeHint().width(), wd.minimumWidth()) for wd in map(self.splitter.widget, range(2)))
        sizes = column_widths(w, (0.31, 0.44), need, least)
        if sizes != self.splitter.sizes():
            self.splitter.setSizes(sizes)

    def reader_width(self) -> int:
        """The width the Reader column prefers (pixels): its controls with no row wrapped, its
        scores unsqueezed, and its vertical scroll bar when it scrolls up and down."""
        margins = self.controls.parentWidget().layout().contentsMargins()
        prefer = self.controls.unwrapped_width() + margins.left() + margins.right()
        return self.splitter.widget(2).needed_width(prefer)  # type: ignore[attr-defined]

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._auto_columns:
            self._fit_columns()  # the columns follow the window until the user moves them
        if self.user_window and self.isVisible() and not self.isMaximized() and not self.isFullScreen():
            keep_inside(self)  # a dock that opened widened it: back onto the screen

    def article_need(self) -> int:
        """The central widget's least height (pixels) with :data:`ARTICLE_LINES` lines of article
        text in the article pane (its other rows at their least heights)."""
        view = self.article.view
        article = (self.article.minimumSizeHint().height() - view.minimumSizeHint().height()
                   + int(ARTICLE_LINES * view.line_spacing() + 0.999) + 2 * view.frameWidth())
        return max(article, self.centralWidget().minimumSizeHint().height())

    def fit_docks(self) -> None:
        """Close the bottom docks open by default (no remembered layout; a lesson's view) that
        would leave the article fewer than :data:`ARTICLE_LINES` lines, in the window's height
        (the screen's room, or the picture's): each tab group in the order added keeps the height
        it opens at (its least, or its ``opening_height``) while the rest fits (:func:`~readsim.app.widgets.placement.keep_open`); the log
        names each one closed (the View menu opens it; the user's choice is remembered)."""
        groups: list[list[QDockWidget]] = []
        for dock in self.findChildren(QDockWidget):
            if (dock.parentWidget() is self and not dock.isHidden() and not dock.isFloating()
                    and self.dockWidgetArea(dock) == Qt.DockWidgetArea.BottomDockWidgetArea
                    and not any(dock in g for g in groups)):
                groups.append([dock] + [d for d in self.tabifiedDockWidgets(dock) if not d.isHidden()])
        if not groups:
            return
        room = self.height() - self.menuBar().sizeHint().height() - self.statusBar().sizeHint().height()
        sep = self.style().pixelMetric(self.style().PixelMetric.PM_DockWidgetSeparatorExtent, None, self)
        sizes = [max(max(d.minimumSizeHint().height(), getattr(d, "opening_height", 0)) for d in g) + sep for g in groups]
        for group, size, keep in zip(groups, sizes, keep_open(room, self.article_need(), sizes)):
            if keep:  # at that height: the article keeps the rest
                self.resizeDocks(group, [size - sep] * len(group), Qt.Orientation.Vertical)
            for dock in group if not keep else ():
                dock.hide()
                self.log.appendPlainText(f"{dock.windowTitle()}: closed, a {self.height()}-pixel-high window has no room "
                                         f"for it below {ARTICLE_LINES} lines of the article (the View menu opens it)")

    def _columns_moved(self, *_) -> None:
        self._auto_columns = False  # the user's widths from now on (saved with the window)

    def save_state(self) -> None:
        st = app_settings()
        st.setValue("window/geometry", self.saveGeometry())
        # presenting: the arrangement it restores on leaving, not the room's
        state, split = self.presentation.saved_state() or (self.saveState(), self.splitter.saveState())
        st.setValue("window/state", state)
        st.setValue("window/splitter", split)

    def closeEvent(self, event) -> None:
        self.save_state()
        super().closeEvent(event)


def _precision_plot(session: Session):
    from .widgets.precision_plot import PrecisionPlot  # pyqtgraph: imported when first built

    return PrecisionPlot(session)
