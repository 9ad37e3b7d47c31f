"""The reading-order window: ranked list (left), article (centre), reader controls, scores and
precision plot (right), a File menu with recent files, drag and drop, a status bar with a busy
indicator, a collapsible log of reader warnings, and shortcuts for the frequent actions.

Bad input is told, never shown as a traceback: a file that cannot be read (by any path: the
File menu, a recent file, a drop, the command line) opens one non-modal message box naming the
path and the reason (:meth:`MainWindow.show_error`; :attr:`MainWindow.error_box` holds it,
``errors_shown`` every text), and inputs that do not fit together (an empty qrels file, run
topics the qrels lack, articles the collection lacks) are summed up in the status bar and
listed in the log (:meth:`~readsim.app.widgets.status_line.StatusLine.show_coverage`)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QByteArray, QSize, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QComboBox, QDockWidget, QLabel, QMainWindow, QMenu, QMessageBox, QPlainTextEdit, QProgressBar,
                               QPushButton, QSplitter, QVBoxLayout, QWidget)

from . import appearance as look
from . import settings_keys as keys
from .background import activity
from readsim.app.input_files import app_settings, guess_kind
from .session import Session
from .window_layout import Columns, fit_docks
from .window_menus import build_menus
from .widgets.article_panel import ArticlePanel, build_article_loading
from .widgets.controls import Controls, build_entry_point
from .widgets.deferred import Deferred, build_when_idle
from .widgets.list_column import ListColumn
from .widgets.status_line import StatusLine
from .widgets.playback_bar import PlaybackBar, build_playback
from .widgets.ranked_list import RankedListModel, RankedListView
from readsim.app.widgets.score_panel import ScoresPanel
from readsim.app.widgets.ab_panel import ComparePanel, build_compare
from .widgets.on_demand import build_elements_action, build_runs_action, new_elements_dock, new_runs_window
from .export import build_export
from .widgets.render_dialogs import build_render
from .editing import EditingUI, build_editing
from .rank_edits import RankEditsUI, build_rank_edits
from .widgets.edit_worth import EditWorth, build_edit_worth
from .widgets.command_dialog import build_command
from .help import HelpDialog, build_help, new_measures_help, new_shortcuts_help, raise_dialog, shortcuts_html
from .widgets.strategies import StrategiesPanel, build_strategies
from .widgets.passages_table import PassagesPanel, build_passages
from .widgets.topic_view import TopicView, build_topic_view
from readsim.app.widgets.explain_dock import ExplainPanel, build_explain
from .widgets.sensitivity import SensitivityPanel, build_sensitivity
from .view_state import ViewRestore, build_views, open_view_file
from .playback import Playback
from .presentation import Presentation, build_appearance
from .widgets.lesson_dock import LessonPanel, build_lessons
from .widgets.lesson_editor import LessonEditor
from .widgets.topic_chooser import TopicChooserScores, build_topic_scores
from .widgets.sandbox_dialog import SandboxOpener
from .widgets.placement import Scrolled, keep_inside, place
from .render_args import DEFAULT_SIZE  # the picture's size by default, and the window's on a large screen

ARTICLE_MIN_WIDTH = 400
"""Pixels: the article pane never narrows below this (its text, chain bar and counters)."""
LIST_MIN_WIDTH = 260
"""Pixels: the ranked list keeps its rank, 12 characters of title, the relevance and the chosen
measure's column (a narrow list drops the other score columns: ranked_list.TITLE_CHARS)."""


class MainWindow(QMainWindow):
    """The main window over a :class:`Session` (``show_dialogs=False`` keeps errors in the status bar and the log
    only: screenshots, tests). With ``restore`` it opens at the user's remembered geometry and docks, within the
    screen (:func:`~readsim.app.widgets.placement.place`); without (``--screenshot``, ``--figure``, ``--record``,
    tests) at :data:`DEFAULT_SIZE`, or fixed at ``size`` (the picture's, ``--size``). Either way, bottom docks that
    would leave the article fewer than :data:`~readsim.app.window_layout.ARTICLE_LINES` lines start closed
    (:meth:`fit_docks`). With ``defer_plots`` the plots (pyqtgraph) are built after the first frame, once the
    loading started then is done (:mod:`readsim.app.widgets.deferred`), or when first asked for (:attr:`plot`).

    Its parts are declared here, in the order :meth:`__init__` builds them; each builder
    (``build_…(window)``) returns its parts and only this class keeps them. Parts built on first
    use start as None and are set by the window's own methods (:meth:`open_runs_window`,
    :meth:`show_elements`, :meth:`show_measures_help`, :meth:`show_shortcuts`, :meth:`restore_view`).
    docs/architecture.md §6 ("A dock") says where to add one."""

    session: Session
    show_dialogs: bool  # False: errors in the status bar and the log only (pictures, tests)
    defer_plots: bool  # the plots built after the first frame
    user_window: bool  # False: a picture (--screenshot, --figure, --record) or a test
    picture: bool  # a picture's window: what would float opens docked
    # the left column: topic and run over the ranked list (widgets/list_column.py)
    list_column: ListColumn
    topic_combo: QComboBox
    run_combo: QComboBox
    topic_label: QLabel
    model: RankedListModel
    table: RankedListView
    # the centre and the right column
    article: ArticlePanel
    controls: Controls
    scores: ScoresPanel
    plot_slot: Deferred  # the precision plot (plot), maybe built after the first frame
    splitter: QSplitter
    columns: Columns  # the splitter's widths (window_layout.py)
    # the log and the status bar (widgets/status_line.py)
    status_line: StatusLine
    log: QPlainTextEdit
    log_dock: QDockWidget
    status: QLabel
    warnings_label: QLabel
    busy: QProgressBar
    cancel_indexing: QPushButton
    act_cancel_indexing: QAction
    errors_shown: list[str]  # every error text shown, in order
    # the menus and their own entries (window_menus.py)
    file_menu: QMenu
    recent_menu: QMenu
    navigate_menu: QMenu
    reader_menu: QMenu
    view_menu: QMenu
    help_menu: QMenu
    act_open_collection: QAction
    act_open_archive: QAction
    act_open_qrels: QAction
    act_open_run: QAction
    act_open_topics: QAction
    act_sample: QAction
    sandbox: SandboxOpener  # File ▸ New sandbox… (widgets/sandbox_dialog.py): its action; its dialog built on first use
    act_next_article: QAction
    act_prev_article: QAction
    act_next_screen: QAction
    act_prev_screen: QAction
    act_first_screen: QAction
    act_cycle_mode: QAction
    # Reader ▸ Playback (widgets/playback_bar.py) and the entry point (widgets/controls.py)
    playback: Playback
    playback_bar: PlaybackBar
    act_play_view: QAction
    act_play: QAction
    act_line_forward: QAction
    act_line_back: QAction
    act_to_start: QAction
    act_entry_here: QAction
    act_entry_from_run: QAction
    # the A/B dock (widgets/compare.py)
    compare: ComparePanel
    compare_dock: QDockWidget
    act_compare: QAction
    act_next_run: QAction
    # windows built on first use (widgets/on_demand.py): None until then
    act_runs: QAction
    runs_window: QMainWindow | None  # a RunsWindow (open_runs_window)
    act_elements: QAction
    elements: QWidget | None  # an ElementsPanel (show_elements)
    elements_dock: QDockWidget | None
    # File ▸ Export (export.py) and Export figure, Reader ▸ Record (widgets/render_dialogs.py)
    export_menu: QMenu
    act_export_article: QAction
    act_export_scores: QAction
    act_export_ranked: QAction
    act_export_compare: QAction
    act_export_figure: QAction
    act_record: QAction
    # Help (help.py): its dialogs built on first use
    act_command: QAction  # View ▸ Equivalent command… (widgets/command_dialog.py; its dialog built on first use)
    act_help_measures: QAction
    act_help_shortcuts: QAction
    measures_help: HelpDialog | None
    shortcuts_help: HelpDialog | None
    # editing (editing.py, rank_edits.py, widgets/edit_worth.py)
    editing: EditingUI
    rank_edits: RankEditsUI
    edit_worth: EditWorth
    # the bottom docks, each with its View menu entry
    strategies: StrategiesPanel
    strategies_dock: QDockWidget
    act_strategies: QAction
    passages: PassagesPanel
    passages_dock: QDockWidget
    act_passages: QAction
    topic_view: TopicView
    topic_dock: QDockWidget
    explain: ExplainPanel
    explain_dock: QDockWidget
    act_explain: QAction
    sensitivity: SensitivityPanel
    sensitivity_dock: QDockWidget
    act_sensitivity: QAction
    topic_scores: TopicChooserScores  # the topic chooser's scores
    # Esc and the Cancel button (widgets/article_panel.py)
    article_cancel_button: QPushButton
    act_cancel_article: QAction
    set_cancel_busy: Callable[[str, bool], None]
    # File ▸ Save/Open view (view_state.py): the view being reopened (restore_view)
    act_save_view: QAction
    act_open_view: QAction
    view_restore: ViewRestore | None = None
    # Help ▸ Lessons (widgets/lesson_dock.py)
    lesson: LessonPanel
    lesson_dock: QDockWidget
    lessons_menu: QMenu
    lesson_editor: LessonEditor  # the step editor (its .dock) and File ▸ Save as lesson (widgets/lesson_editor.py)
    # View ▸ Zoom, Presentation, Theme (presentation.py)
    presentation: Presentation
    act_zoom_in: QAction
    act_zoom_out: QAction
    act_zoom_reset: QAction
    act_present: QAction
    theme_actions: dict[str, QAction]

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

        # left: topic, run, ranked list (widgets/list_column.py)
        left = self.list_column = ListColumn(s)
        self.topic_combo, self.run_combo, self.topic_label = left.topic_combo, left.run_combo, left.topic_label
        self.model, self.table = left.model, left.table

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
        for i, stretch in enumerate((0, 2, 1)):
            self.splitter.setStretchFactor(i, stretch)
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)
        self.columns = Columns(self)  # their widths follow the window until the user moves them

        # the status line and the log (widgets/status_line.py)
        st = self.status_line = StatusLine(self, s, lambda: self.show_dialogs, lambda what, on: self.set_cancel_busy(what, on))
        self.log, self.log_dock, self.status, self.warnings_label = st.log, st.log_dock, st.status, st.warnings_label
        self.busy, self.cancel_indexing, self.act_cancel_indexing = st.busy, st.cancel_indexing, st.act_cancel_indexing
        self.errors_shown = st.errors_shown

        (self.file_menu, self.recent_menu, self.navigate_menu, self.reader_menu, self.view_menu, self.help_menu,
         self.act_open_collection, self.act_open_archive, self.act_open_qrels, self.act_open_run, self.act_open_topics,
         self.act_sample, self.act_next_article, self.act_prev_article, self.act_next_screen, self.act_prev_screen,
         self.act_first_screen, self.act_cycle_mode, self.sandbox) = build_menus(self)  # window_menus.py
        self._connect()
        # the parts, each from its builder, in this order (a later one may use an earlier one)
        (self.playback, self.playback_bar, self.act_play_view, self.act_play, self.act_line_forward,
         self.act_line_back, self.act_to_start) = build_playback(self)
        self.act_entry_here, self.act_entry_from_run = build_entry_point(self)
        self.compare, self.compare_dock, self.act_compare, self.act_next_run = build_compare(self)
        self.act_runs, self.runs_window = build_runs_action(self), None
        self.act_elements, self.elements, self.elements_dock = build_elements_action(self), None, None
        (self.export_menu, self.act_export_article, self.act_export_scores, self.act_export_ranked,
         self.act_export_compare) = build_export(self)
        self.act_export_figure, self.act_record = build_render(self)  # after File ▸ Export
        self.act_help_measures, self.act_help_shortcuts = build_help(self)
        self.act_command = build_command(self)  # View ▸ Equivalent command…
        self.measures_help = self.shortcuts_help = None
        self.editing = build_editing(self)
        self.rank_edits = build_rank_edits(self)  # on the editor's history
        self.edit_worth = build_edit_worth(self)
        self.strategies, self.strategies_dock, self.act_strategies = build_strategies(self)
        self.passages, self.passages_dock, self.act_passages = build_passages(self)
        self.topic_view, self.topic_dock = build_topic_view(self)
        self.explain, self.explain_dock, self.act_explain = build_explain(self)
        self.sensitivity, self.sensitivity_dock, self.act_sensitivity = build_sensitivity(self)  # after the topic view
        self.topic_scores = build_topic_scores(self)  # after the topic view and the editor: its scores follow both
        self.article_cancel_button, self.act_cancel_article, self.set_cancel_busy = build_article_loading(self)
        self.act_save_view, self.act_open_view = build_views(self)
        self.lesson, self.lesson_dock, self.lessons_menu, self.lesson_editor = build_lessons(self)
        (self.presentation, self.act_zoom_in, self.act_zoom_out, self.act_zoom_reset, self.act_present,
         self.theme_actions) = build_appearance(self)  # View ▸ Zoom, Presentation, Theme
        look.appearance().changed.connect(left.relabel_topics)  # the topic line's colours and sizes
        self._fresh = True  # no remembered docks: those that do not fit start closed (fit_docks)
        if restore:
            self._restore()
        else:  # not the user's window (a headless picture, a test): the picture's size, whatever the
            self.resize(*DEFAULT_SIZE)  # screen (offscreen, Qt's is 800 x 800 and no monitor at all)
            if size is not None:  # a picture's (--size): exactly that size, whatever opens in it
                self.setFixedSize(*size)

    # -- parts built on first use ---------------------------------------------------------
    def open_runs_window(self) -> QMainWindow:
        """Show the Runs window (:attr:`runs_window`, built on first use), raised and active."""
        if self.runs_window is None:
            self.runs_window = new_runs_window(self)
        w = self.runs_window
        w.show()
        w.raise_()
        w.activateWindow()
        return w

    def show_elements(self, on: bool) -> None:
        """Show or hide the element mode's dock (:attr:`elements_dock`, built when first shown)."""
        if self.elements_dock is None:
            if not on:
                return
            self.elements, self.elements_dock = new_elements_dock(self, self.act_elements)
        dock = self.elements_dock
        if dock.isVisible() != on:
            if on:
                dock.place()  # inside the screen before it shows: it never widens the main window
            dock.setVisible(on)
            if on:
                dock.raise_()  # in front of a dock it is tabbed with

    def show_measures_help(self) -> HelpDialog:
        """Show (or raise) the "Measures explained" dialog (:attr:`measures_help`)."""
        if self.measures_help is None:
            self.measures_help = new_measures_help(self)
        return raise_dialog(self.measures_help)

    def show_shortcuts(self) -> HelpDialog:
        """Show (or raise) the "Keyboard shortcuts" dialog (:attr:`shortcuts_help`), its text
        regenerated from the actions."""
        if self.shortcuts_help is None:
            self.shortcuts_help = new_shortcuts_help(self)
        self.shortcuts_help.set_text(shortcuts_html(self))
        return raise_dialog(self.shortcuts_help)

    def restore_view(self, view) -> ViewRestore:
        """Reopen ``view`` (:class:`~readsim.app.view_state.ViewRestore`, :attr:`view_restore`);
        one still under way is cancelled."""
        if self.view_restore is not None and not self.view_restore.done:
            self.view_restore.cancel()
        self.view_restore = ViewRestore(self, view)
        return self.view_restore

    @property
    def plot(self):
        """The precision plot (:class:`~readsim.app.widgets.precision_plot.PrecisionPlot`), built
        now if deferred."""
        return self.plot_slot.widget()

    # -- wiring -------------------------------------------------------------------------
    def _connect(self) -> None:
        s, st = self.session, self.status_line
        self.list_column.follow(self.status.setText)
        s.message.connect(self.status.setText)
        s.error.connect(self.show_error)
        s.diagnostics.connect(st.add_diagnostics)
        s.coverage_changed.connect(st.show_coverage)
        s.coverage_changed.connect(self.list_column.relabel_topics)  # the collection's names are known then
        activity().changed.connect(st.busy_changed)
        activity().failed.connect(self.show_error)
        self.list_column.open_choices()
        self.status.setText("Ready")

    # -- the status line (widgets/status_line.py) ---------------------------------------
    def show_error(self, text: str) -> None:
        """Show an error (``path: reason``): status bar, log, and (interactive) one message box
        that does not block (:meth:`~readsim.app.widgets.status_line.StatusLine.show_error`)."""
        self.status_line.show_error(text)

    @property
    def error_box(self) -> QMessageBox | None:
        """The open error message box (None: none open)."""
        return self.status_line.error_box

    def show_log(self) -> None:
        """Show the log dock in front (it shares its tabs with the topic view)."""
        self.status_line.show_log()

    def warnings_text(self) -> str:
        """The warnings label as plain text (what the status bar shows)."""
        return self.status_line.warnings_text()

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
        place(self, QSize(*DEFAULT_SIZE), keys.read(st, keys.WINDOW_GEOMETRY))  # bounded by this screen
        state = keys.read(st, keys.WINDOW_STATE)
        if isinstance(state, QByteArray) and not state.isEmpty():
            self._fresh = not self.restoreState(state)
        split = keys.read(st, keys.WINDOW_SPLITTER)
        if isinstance(split, QByteArray) and not split.isEmpty():
            self.columns.sized = self.splitter.restoreState(split)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._shown:
            self._shown = True
            if self.defer_plots:
                build_when_idle(self)
            if self._fresh:
                self.fit_docks()
        if not self.columns.sized:  # first show without saved state: about 31% / 44% / 25%
            self.columns.first_show()

    def fit_docks(self) -> None:
        """Close the bottom docks open by default that would leave the article fewer than
        :data:`~readsim.app.window_layout.ARTICLE_LINES` lines (:func:`~readsim.app.window_layout.fit_docks`)."""
        fit_docks(self)

    def reader_width(self) -> int:
        """The width the Reader column prefers (pixels; :meth:`~readsim.app.window_layout.Columns.reader_width`)."""
        return self.columns.reader_width()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.columns.auto:
            self.columns.fit()  # the columns follow the window until the user moves them
        if self.user_window and self.isVisible() and not self.isMaximized() and not self.isFullScreen():
            keep_inside(self)  # a dock that opened widened it: back onto the screen

    def save_state(self) -> None:
        st = app_settings()
        keys.write(st, keys.WINDOW_GEOMETRY, self.saveGeometry())
        # presenting: the arrangement it restores on leaving, not the room's
        state, split = self.presentation.saved_state() or (self.saveState(), self.splitter.saveState())
        keys.write(st, keys.WINDOW_STATE, state)
        keys.write(st, keys.WINDOW_SPLITTER, split)

    def closeEvent(self, event) -> None:
        self.save_state()
        super().closeEvent(event)


def _precision_plot(session: Session):
    from .widgets.precision_plot import PrecisionPlot  # pyqtgraph: imported when first built

    return PrecisionPlot(session)
