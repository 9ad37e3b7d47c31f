"""The element mode (docs/reference.md section 13): element retrieval as INEX 2002-2005 evaluated it
(Gövert et al. 2006), apart from the focused-task views.

:class:`ElementsPanel`, in a dock of its own (View ▸ "Element retrieval (INEX 2002/2003)",
Ctrl+Alt+L), works on the session's qrels and collection and follows the window's topic (its
own topic chooser lists every qrels topic with relevant articles, the complete ones said so):

- a **run chooser**: the simulated ``perfect`` and ``ancestors`` runs (built from the topic's
  element assessments derived from the qrels' highlighting) and element runs read from files
  ("Open element run…": 7-field XPath lines or XML ``<path>`` runs; an error is a message naming
  file and line);
- the **ranked elements** (:class:`ElementTableModel`): rank, article, XPath, e, s, the
  quantised f (strict and gen, eqs 8-9), size, the text no earlier element showed (unseen) and
  the overlap with earlier elements;
- the **article** of the selected element (:class:`ElementArticleView`, an
  :class:`~readsim.app.widgets.article_view.ArticleView` whose gutter draws every retrieved
  element of the article as a bracket, outer brackets left, one column per nesting level, so
  nesting and overlap show; the selected element's bracket orange and its text framed; the text
  already shown by the elements ranked before it shaded grey; highlighted text yellow). Only the
  brackets and shading of the visible lines are painted;
- the **scores** (:class:`ApGrid`): AP of INEX 2002, 2003 s and 2003 o for strict and gen side
  by side, each with its difference to the perfect run (the overlap effect at a glance), and a
  precision-recall plot (:class:`PrecisionRecall`) of the chosen metric with the other simulated
  run dashed for reference.

Everything is computed in the background (:func:`~readsim.app.background.run_in_background`):
a topic's assessments and all its runs at once (:func:`readsim.app.elements_model.prepare_topic`),
so switching runs redraws at once; an article's text and layout when first shown (a few are
kept). Inputs that cannot give a view (no collection, no qrels, a topic without relevant
articles in the collection) show a plain message instead.

:func:`build_elements_dock` adds the dock to a main window (on first use of the View menu's
entry, :mod:`.on_demand`, which imports this module; this module never imports it). The parts
live in :mod:`.elements_table`, :mod:`.element_article` and :mod:`.elements_scores`; the data in
:mod:`readsim.app.elements_model`. See docs/architecture.md.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QDockWidget, QFileDialog, QHBoxLayout, QHeaderView, QProgressBar, QPushButton,
                               QSizePolicy, QSplitter, QStackedWidget, QVBoxLayout, QWidget)

from readsim.core.element_retrieval import read_element_run

from .. import appearance as look
from .. import elements_model as em
from ..background import LatestJob, input_error_text, run_in_background
from readsim.app.input_files import app_settings
from ..plain import plain_label, plain_tip, rich_label
from ..session import Session

from .element_article import ElementArticleView, legend
from .element_reading import ElementArticlePart
from .elements_scores import ElementScores
from .placement import Scrolled, give_back, within_screen
from .. import settings_keys as keys
from .elements_table import (ARTICLE, E, F_GEN, F_STRICT, OVERLAP, POS, RANK, SIZE, UNSEEN, XPATH, S,
                             ElementTableModel)
from .entries import ELEMENTS_TEXT as ACTION_TEXT
from .tables import row_table



class ElementsPanel(ElementArticlePart, QWidget):
    """The element mode (module docstring) over a :class:`Session`. ``ask_run_path()`` asks for
    an element run's path (tests replace it); ``report_error(text)`` shows an error (the
    window's message box when installed)."""

    def __init__(self, session: Session, parent=None) -> None:
        super().__init__(parent)
        self.session = session
        self.active = False
        self.ask_run_path = self._ask_run_path
        self.report_error = lambda text: None
        self.file_runs: list = []  # ElementRun read from files, in the order opened
        self.topic_view: em.TopicView | None = None
        self.choices: list[em.TopicChoice] = []
        self._files_key: tuple | None = None
        self._topic_jobs = LatestJob(self, self._show_busy)  # the topic list or a topic: the latest request
        self._article_jobs = LatestJob(self, self._show_busy)  # the article to show: the latest request
        self._reads = 0  # element runs being read
        #: name -> (collection, article, layout, the element tree's parent array) of the last articles shown
        self._articles: OrderedDict[str, tuple[object, object, object, object]] = OrderedDict()
        self._shown_article: str | None = None
        self._shown_key: tuple | None = None  # (article, run) the view's brackets are for
        self._position: int | None = None
        self._pending_position: int | None = None
        self.message_text = ""

        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.setSpacing(4)
        bar = QHBoxLayout()
        self.topic_combo = QComboBox()
        self.topic_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.topic_combo.setMinimumContentsLength(18)
        self.topic_combo.setToolTip("The qrels topics with relevant articles; complete: all of them are in the "
                                    "collection")
        self.run_combo = QComboBox()
        self.run_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.run_combo.setMinimumContentsLength(18)
        self.run_combo.setToolTip("perfect: the elements with s = 3, by e; ancestors: the same, then all their "
                                  "ancestors (Gövert et al. 2006, section 4.1); or an element run opened from a file")
        self.open_btn = QPushButton("Open element run…")
        self.open_btn.setToolTip("An element run: 7-field XPath lines (topic Q0 file rank rsv run_id xpath) "
                                 "or an XML run with <path> results")
        self.article_combo = QComboBox()
        self.article_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.article_combo.setMinimumContentsLength(14)
        self.article_combo.setToolTip("The run's articles, in the order of their first element")
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(90)
        self.busy.hide()
        for text, w in (("Topic", self.topic_combo), ("Run", self.run_combo)):
            bar.addWidget(plain_label(text))
            bar.addWidget(w)
        bar.addWidget(self.open_btn)
        bar.addSpacing(12)
        bar.addWidget(plain_label("Article"))
        bar.addWidget(self.article_combo)
        bar.addStretch(1)
        bar.addWidget(self.busy)
        lay.addLayout(bar)
        self.status = plain_label()
        self.status.setWordWrap(True)
        self.status.setStyleSheet(f"color:{look.css('soft')};")
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        lay.addWidget(self.status)

        self.stack = QStackedWidget()
        self.message = plain_label()
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.message.setStyleSheet(f"QLabel {{ color:{look.css('muted')}; font-size:12pt; font-style:italic; padding:24px; }}")
        self.stack.addWidget(self.message)

        # ranked elements | article | scores
        self.model = ElementTableModel(self)
        self.table = row_table(self.model)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setTextElideMode(Qt.TextElideMode.ElideLeft)
        h = self.table.horizontalHeader()
        h.setStretchLastSection(False)
        for c, w in ((POS, 38), (RANK, 40), (ARTICLE, 80), (XPATH, 150), (E, 24), (S, 24), (F_STRICT, 50),
                     (F_GEN, 44), (SIZE, 56), (UNSEEN, 56), (OVERLAP, 70)):
            h.setSectionResizeMode(c, QHeaderView.ResizeMode.Interactive)
            self.table.setColumnWidth(c, w)
        h.setSectionResizeMode(XPATH, QHeaderView.ResizeMode.Stretch)

        centre = QWidget()
        cl = QVBoxLayout(centre)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.setSpacing(3)
        self.header = rich_label()
        self.header.setWordWrap(True)
        self.view = ElementArticleView()
        self.legend = rich_label(legend())
        look.appearance().changed.connect(self._relegend)
        self.legend.setWordWrap(True)
        self.legend.setStyleSheet(f"color:{look.css('soft')}; font-size:9pt;")
        cl.addWidget(self.header)
        cl.addWidget(self.view, 1)
        cl.addWidget(self.legend)

        right = self.scores = ElementScores()
        self.grid, self.plot = right.grid, right.plot

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        for w in (self.table, centre, right):
            self.splitter.addWidget(w)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 4)
        self.splitter.setStretchFactor(2, 2)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.splitterMoved.connect(lambda *_: setattr(self, "_user_sized", True))
        self._user_sized = False
        self.stack.addWidget(self.splitter)
        lay.addWidget(self.stack, 1)

        self.topic_combo.activated.connect(lambda i: self.load_topic(self.topic_combo.itemData(i)))
        self.run_combo.currentIndexChanged.connect(lambda _: self.show_run())
        self.article_combo.activated.connect(lambda i: self.show_article_of_run(self.article_combo.itemData(i)))
        self.open_btn.clicked.connect(self._open_clicked)
        self.table.selectionModel().currentRowChanged.connect(lambda cur, _prev: self._row_chosen(cur.row()))
        self.view.bracket_clicked.connect(self.select_position)
        self.grid.chosen.connect(lambda _: self._plot())
        session.files_changed.connect(self.refresh_files)
        session.topic_changed.connect(self._session_topic)
        self.show_message("Open the element view from View ▸ Element retrieval (INEX 2002/2003).")

    def _relegend(self) -> None:
        self.legend.setText(legend())  # the highlight's and the brackets' colours of the theme

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if not self._user_sized:  # the table 42%, the article 36%, the scores the rest
            w = max(self.splitter.width(), 900)
            self.splitter.setSizes([int(w * 0.42), int(w * 0.36), w - int(w * 0.42) - int(w * 0.36)])

    # -- state ----------------------------------------------------------------------------
    def set_active(self, active: bool) -> None:
        """Work only while shown: the first show (and a show after the files changed) loads."""
        self.active = active
        if active:
            self.refresh_files()
            topic = self.session.topic
            if topic is not None and self.topic_view is not None and topic != self.topic_view.topic:
                self._session_topic(topic)

    def show_message(self, text: str) -> None:
        """A plain message instead of the views (bad or missing inputs)."""
        self.message_text = text
        self.message.setText(text)
        self.stack.setCurrentWidget(self.message)

    def _show_busy(self) -> None:
        self.busy.setVisible(self._reads > 0 or self._topic_jobs.busy() or self._article_jobs.busy())

    def _read_in_background(self, op, success, failure) -> None:
        """An element run read (each one counts, none is stale)."""
        self._reads += 1
        self._show_busy()

        def settled(callback):
            def call(value) -> None:
                self._reads -= 1
                self._show_busy()
                callback(value)
            return call

        run_in_background(self, op, settled(success), settled(failure))

    def _error_text(self, exc: BaseException) -> str:
        text = input_error_text(exc)
        if text is None and isinstance(exc, (KeyError, ValueError)):
            text = str(exc)
        if text is None:
            raise exc  # a bug: the traceback dialog (or the test's exception capture)
        return text

    # -- files and topics ---------------------------------------------------------------
    def refresh_files(self) -> None:
        """The session's qrels or collection changed: list their topics again (background)."""
        if not self.active:
            return
        s = self.session
        key = (id(s.qrels), id(s.collection))
        if key == self._files_key and self.choices:
            return
        if self._files_key is not None and key[1] != self._files_key[1]:
            self.file_runs = []  # read against another collection: their elements may not exist there
        self._files_key = key
        self.topic_view = None
        self.choices = []
        self.topic_combo.clear()
        if s.collection is None or s.qrels is None:
            try:
                em.prepare_topic(s.qrels, s.collection, s.topic)
            except em.Unavailable as why:
                self.show_message(str(why))
            self.status.setText("")
            return
        qrels, coll = s.qrels, s.collection
        self.status.setText("Listing the topics and their relevant articles…")

        def success(choices) -> None:
            self.choices = choices
            self.topic_combo.clear()
            for c in choices:
                self.topic_combo.addItem(c.label(), c.topic)
                if c.have == 0:  # nothing to show: greyed (choosing it says why)
                    self.topic_combo.setItemData(self.topic_combo.count() - 1, look.color("disabled"),
                                                 Qt.ItemDataRole.ForegroundRole)
            if not choices:
                self.show_message(f"The qrels ({Path(qrels.path).name}) have no topic with relevant articles.")
                return
            wanted = s.topic if any(c.topic == s.topic for c in choices) else \
                next((c.topic for c in choices if c.complete), choices[0].topic)
            self.load_topic(wanted)

        def failure(exc) -> None:
            self.show_message(self._error_text(exc))

        self._topic_jobs.start(lambda _progress: em.topic_choices(qrels, coll), success, failure)

    def _session_topic(self, topic: str) -> None:
        if self.active and self.choices and (self.topic_view is None or self.topic_view.topic != topic):
            if any(c.topic == topic for c in self.choices):
                self.load_topic(topic)

    def load_topic(self, topic: str | None) -> None:
        """Derive ``topic``'s assessments and evaluate every run on it (background)."""
        s = self.session
        i = self.topic_combo.findData(topic)
        if i >= 0:
            self.topic_combo.setCurrentIndex(i)
        qrels, coll, runs = s.qrels, s.collection, list(self.file_runs)
        self.status.setText(f"Deriving the element assessments of topic {topic} and evaluating the runs…")

        def success(tv: em.TopicView) -> None:
            self._adopt_topic(tv)

        def failure(exc) -> None:
            if isinstance(exc, em.Unavailable):
                self.topic_view = None
                self.status.setText("")
                self.show_message(str(exc))
                return
            text = self._error_text(exc)
            self.topic_view = None
            self.status.setText(f"Error: {text}")
            self.show_message(text)

        self._topic_jobs.start(lambda _progress: em.prepare_topic(qrels, coll, topic, runs), success, failure)

    def _adopt_topic(self, tv: em.TopicView, wanted: str | None = None) -> None:
        keep = wanted or self.run_combo.currentData()
        self.topic_view = tv
        self._shown_key = None
        self.run_combo.blockSignals(True)
        self.run_combo.clear()
        for r in tv.runs:
            label = f"{r.name} (simulated)" if r.simulated else r.name
            self.run_combo.addItem(f"{label} — {len(r.entries):,} elements", r.path or r.name)
            self.run_combo.setItemData(self.run_combo.count() - 1, plain_tip(r.path or r.name), Qt.ItemDataRole.ToolTipRole)
        i = self.run_combo.findData(keep) if keep is not None else -1
        self.run_combo.setCurrentIndex(max(i, 0))
        self.run_combo.blockSignals(False)
        self.stack.setCurrentWidget(self.splitter)
        self.show_run()

    # -- runs -----------------------------------------------------------------------------
    def current_run(self) -> em.RunView | None:
        tv = self.topic_view
        if tv is None:
            return None
        i = self.run_combo.currentIndex()
        return tv.runs[i] if 0 <= i < len(tv.runs) else None

    def set_run(self, name_or_path: str) -> None:
        """Show the run ``perfect``, ``ancestors`` or a file run's path (as the chooser does)."""
        i = self.run_combo.findData(name_or_path)
        if i >= 0:
            self.run_combo.setCurrentIndex(i)

    def show_run(self) -> None:
        """Show the chosen run: table, scores, plot, and the same article (and element) if the
        run has it, else its first element."""
        view, tv = self.current_run(), self.topic_view
        if view is None or tv is None:
            return
        unit = self.session.collection.unit if self.session.collection is not None else self.session.unit
        prev = self._selected_entry()
        self.model.set_view(view, unit)
        self.article_combo.clear()
        for name in view.articles():
            n = len(view.positions(name))
            self.article_combo.addItem(f"{name} — {n} element{'s' if n != 1 else ''}", name)
        a = tv.assessments
        n_el = sum(len(x.listed) for x in a.articles.values())
        parts = [f"Topic {tv.topic}: {len(a.articles)} relevant articles, {n_el:,} elements with highlighted text "
                 "(e, s derived from the highlighting: a teaching device, not INEX's assessments)"]
        if tv.note:
            parts.append(tv.note)
        if view.note:
            parts.append(view.note)
        self.status.setText(" · ".join(parts))
        self.status.setStyleSheet(f"color:{look.css('bad' if tv.note or view.note else 'soft')};")
        self.scores.show_run(view, tv)
        self._shown_key = None
        position = 0
        cur = self.session.current
        if prev is None and cur is not None and view.positions(cur.name):
            position = view.positions(cur.name)[0]  # first shown: on the main window's open article
        elif prev is not None:
            same = [k for k, r in enumerate(view.entries) if (r.article, r.index) == prev[:2]]
            if same:
                position = same[0]
            else:
                ks = view.positions(prev[0])
                position = ks[0] if ks else 0
        if view.entries:
            self.select_position(position)
        else:
            self._position = None
            self.view.show_message(view.note or "The run has no elements for this topic.")
            self.header.setText("")
            self._plot()

    def _selected_entry(self):
        view = self.model.view
        if view is None or self._position is None or self._position >= len(view.entries):
            return None
        r = view.entries[self._position]
        return r.article, r.index, self._position

    def _plot(self) -> None:
        """The chosen metric's curves and the selected element's point (:class:`ElementScores`)."""
        self.scores.plot_run(self.current_run(), self.topic_view, self._position)

    # -- element runs from files --------------------------------------------------------
    def _ask_run_path(self) -> str:
        path, _ = QFileDialog.getOpenFileName(self, "Open an element run", "",
                                              "Element runs (*.run *.txt *.xml);;All files (*)")
        return path

    def _open_clicked(self) -> None:
        path = self.ask_run_path()
        if path:
            self.open_run(path)

    def open_run(self, path: str) -> None:
        """Read the element run at ``path`` against the collection (background), add it to the
        chooser and show it. An error names file and line (status line and ``report_error``)."""
        coll = self.session.collection
        if coll is None:
            self._run_error(f"{path}: open a collection first: an element run names elements the articles define")
            return
        self.status.setText(f"Reading element run {path}…")

        def success(run) -> None:
            self.file_runs = [r for r in self.file_runs if r.path != run.path] + [run]
            if run.diagnostics:
                self.session.diagnostics.emit([str(d) for d in run.diagnostics])
            tv = self.topic_view
            if tv is None:
                self.status.setText(f"Read element run {run.run_id} ({Path(run.path).name}); choose a topic")
                return
            tv.runs = [r for r in tv.runs if r.path != run.path] + [em.file_run_view(tv.assessments, run)]
            self._adopt_topic(tv, run.path)

        def failure(exc) -> None:
            self._run_error(self._error_text(exc))

        self._read_in_background(lambda: read_element_run(path, coll), success, failure)

    def _run_error(self, text: str) -> None:
        self.status.setText(f"Cannot read the element run: {text}")
        self.status.setStyleSheet(f"color:{look.css('bad')};")
        self.report_error(text)

    # -- selection and the article --------------------------------------------------------
    def _row_chosen(self, row: int) -> None:
        if row >= 0 and row != self._position:
            self.select_position(row)


def build_elements_dock(window, act) -> tuple[ElementsPanel, QDockWidget]:
    """Add the element mode's dock to ``window`` (a MainWindow), shown and hidden by ``act`` (the
    View menu's checkable entry, :func:`readsim.app.widgets.on_demand.build_elements_action`), which
    follows the dock's visibility. Before the first show ever (no saved layout) it floats, large
    but inside the screen (:func:`~readsim.app.widgets.placement.within_screen`), so it never
    widens the main window; in a picture (``--screenshot``: the window alone is drawn) it is
    tabbed with the topic view instead. Hiding it gives the main window back the size it had
    before (:func:`~readsim.app.widgets.placement.give_back`). ``dock.place()`` does the
    placing (called before it is shown). Returns the panel and the dock (the window's
    ``elements`` and ``elements_dock``)."""
    panel = ElementsPanel(window.session)
    panel.report_error = window.show_error
    dock = QDockWidget(ACTION_TEXT, window)
    dock.setObjectName("elements")
    # docked, it scrolls rather than hold the window larger than the screen beside another dock
    dock.setWidget(Scrolled(panel, 0.5, 0.35))
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    dock.hide()

    before: list = []  # the main window's size before the dock opened (given back on hiding)

    def place() -> None:
        if dock.isVisible():
            return
        before[:] = [window.size()]
        if window.picture:
            topic = window.topic_dock
            if not topic.isHidden() and not topic.isFloating() and not dock.isFloating():
                window.tabifyDockWidget(topic, dock)
            return
        if dock.isFloating() or keys.read(app_settings(), keys.ELEMENTS_PLACED):
            return
        dock.setFloating(True)  # first time ever: a large window of its own (dockable), inside the screen
        dock.setGeometry(within_screen(window, 0.94, 0.88))

    dock.place = place

    def visible(on: bool) -> None:
        st = app_settings()
        if on:
            keys.write(st, keys.ELEMENTS_PLACED, True)
        elif before:
            give_back(window, before.pop())
        if act.isChecked() != on:
            act.setChecked(on)
        panel.set_active(on)

    dock.visibilityChanged.connect(visible)
    return panel, dock
