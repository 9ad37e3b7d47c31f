"""The centre of the window: the open article's header, matching-chain bar, text view,
legend and reading-position controls, bound to a :class:`Session`.

The article is laid out once (when it opens); a mode change only recomputes the marks'
chain, a screen-size or step change only the framed screen (``reading.window`` mapped with
the layout). With a playback controller attached (:attr:`ArticlePanel.playback`, see
:mod:`readsim.app.playback`) the screen starts at its finer reading position ``top``; the text
read before it is veiled and the reading order's jumps are drawn in the gutter.

Opening an article: the session reads and lays it out in a worker, then asks this panel
(:attr:`Session.article_preparer`) to build the view's document; a long one is built by a
:class:`~readsim.app.widgets.article_view.DocumentBuilder` in slices of at most ~30 ms of the
GUI thread, with progress in the status line and a Cancel button (and Esc) in the status bar
(:func:`build_article_loading`); the open article stays shown until the new one is ready.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QPushButton, QScrollArea, QSizePolicy, QToolButton, QVBoxLayout,
                               QWidget)

from readsim.core import intervals as iv
from readsim.core.reading import Mode
from readsim.core.reading import window as read_window

from .. import appearance as look
from .. import marks as mk
from ..articles import ARTICLE_CACHE_SIZE, ArticleState
from ..background import activity
from ..plain import amount, esc, plain_label, rich_label
from ..playback import jumps
from ..session import Session
from .article_view import ArticleView, DocumentBuilder
from .legend import Legend
from .fixed_labels import ElidedLabel, fit_text

MAX_CHAIN_BUTTONS = 60
#: articles with up to this many display characters are built at once (about 7 ms per
#: million characters); longer ones by a DocumentBuilder, in slices
BUILD_AT_ONCE_CHARS = 1_000_000
#: ... and up to this many blocks (each block costs its own insertion: 22,000 blocks of a
#: 2,000-level article took 150 ms at once; the largest real article has 536)
BUILD_AT_ONCE_BLOCKS = 2_000


CHAIN_BUTTON_STYLE = ("QToolButton {{ background:{badge}; color:{on}; font-weight:bold; border-radius:3px; "
                      "padding:1px 6px; }}")  # the roles filled in when set (readsim.app.appearance)


class ChainBar(QWidget):
    """"Matching chain: 1 → 2 → 3": one button per retrieved passage in document order.

    The row's widgets are made once and reused: a new chain (a mode change, an edit) only
    changes the texts of the buttons it needs and shows or hides the others, and the same
    chain again changes nothing (making the buttons anew, each with its style sheet, cost a
    mode change a style polish and a re-layout per button)."""

    def __init__(self, view: ArticleView, parent=None) -> None:
        super().__init__(parent)
        self.view = view
        outer = QHBoxLayout(self)
        outer.setContentsMargins(4, 0, 4, 0)
        self.label = plain_label("Matching chain:")
        outer.addWidget(self.label)
        self.area = QScrollArea()
        self.area.setWidgetResizable(True)
        self.area.setFrameShape(QScrollArea.Shape.NoFrame)
        self.area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.area.setFixedHeight(30)
        self.inner = QWidget()
        self.inner.setStyleSheet(CHAIN_BUTTON_STYLE.format(badge=look.css("badge"), on=look.css("on_accent")))  # once for every button
        self.row = QHBoxLayout(self.inner)
        self.row.setContentsMargins(0, 0, 0, 0)
        self.row.setSpacing(2)
        self.area.setWidget(self.inner)
        outer.addWidget(self.area, 1)
        #: the shown passage buttons, in chain order (the pool's first ``len(chain)``)
        self.buttons: list[QToolButton] = []
        self.note = rich_label()  # first in the row, hidden without a note
        self.note.hide()
        self.row.addWidget(self.note)
        self.more = plain_label()  # "… N passages" after the last button, when the chain is longer
        self.more.hide()
        self.row.addWidget(self.more)
        self.row.addStretch(1)
        self._pool: list[tuple[QLabel, QToolButton]] = []  # (arrow before it, button), made on demand
        self._numbers: list[int] = []  # passage number of each pooled button
        self._shown: tuple | None = None  # (chain, note) shown

    def _button(self, i: int) -> tuple[QLabel, QToolButton]:
        while len(self._pool) <= i:
            k = len(self._pool)
            arrow, btn = plain_label("→"), QToolButton()
            btn.clicked.connect(lambda _=False, k=k: self.view.jump_to_passage(self._numbers[k]))
            at = self.row.indexOf(self.more)
            self.row.insertWidget(at, arrow)
            self.row.insertWidget(at + 1, btn)
            arrow.hide()
            btn.hide()
            self._pool.append((arrow, btn))
            self._numbers.append(0)
        return self._pool[i]

    def set_chain(self, chain: tuple[tuple[int, int, int], ...], note: str = "") -> None:
        key = (tuple(chain), note)
        if key == self._shown:
            return
        self._shown = key
        text = f"<i>{esc(note)}</i>" if note else ""
        if self.note.text() != text:
            self.note.setText(text)
        self.note.setVisible(bool(note))
        shown = chain[:MAX_CHAIN_BUTTONS]
        self.buttons = []
        for i, (n, a, b) in enumerate(shown):
            arrow, btn = self._button(i)
            self._numbers[i] = n
            if btn.text() != str(n):
                btn.setText(str(n))
            tip = f"Jump to retrieved passage {n} (display {a}–{b})"
            if btn.toolTip() != tip:
                btn.setToolTip(tip)
            arrow.setVisible(i > 0)
            btn.show()
            self.buttons.append(btn)
        for arrow, btn in self._pool[len(shown):]:
            arrow.hide()
            btn.hide()
        if len(chain) > MAX_CHAIN_BUTTONS:
            self.more.setText(f"… {len(chain)} passages")
        self.more.setVisible(len(chain) > MAX_CHAIN_BUTTONS)


class ArticlePanel(QWidget):
    """Header, chain bar, :class:`ArticleView`, legend and the screen stepper."""

    def __init__(self, session: Session, parent=None) -> None:
        super().__init__(parent)
        self.session = session
        self.playback = None  # a readsim.app.playback.Playback, when installed
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        self.header = rich_label()
        self.header.setWordWrap(True)
        self.header.setContentsMargins(4, 2, 4, 2)
        self.view = ArticleView()
        self.chain = ChainBar(self.view)
        self.legend = Legend()

        nav = QHBoxLayout()
        nav.setContentsMargins(4, 0, 4, 0)
        self.first_btn = QPushButton("First")
        self.prev_btn = QPushButton("◀ Prev")
        self.next_btn = QPushButton("Next ▶")
        self.position = plain_label()
        self.position.setMinimumWidth(110)
        self.position.setAlignment(Qt.AlignmentFlag.AlignCenter)
        for b, tip in ((self.first_btn, "First screen (Alt+Home)"), (self.prev_btn, "Previous screen (Alt+Left)"),
                       (self.next_btn, "Next screen (Alt+Right)")):
            b.setToolTip(tip)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.first_btn.clicked.connect(lambda: session.set_step(0))
        self.prev_btn.clicked.connect(lambda: session.step_by(-1))
        self.next_btn.clicked.connect(lambda: session.step_by(1))
        self.reading_label = ElidedLabel()
        look.follow(self.reading_label, f"color:{look.css('muted')};")
        self.reading_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        nav.addWidget(self.first_btn)
        nav.addWidget(self.prev_btn)
        nav.addWidget(self.position, 0, Qt.AlignmentFlag.AlignVCenter)  # of fixed size (update_window)
        nav.addWidget(self.next_btn)
        nav.addWidget(self.reading_label, 1)

        lay.addWidget(self.header)
        lay.addWidget(self.chain)
        lay.addWidget(self.view, 1)
        lay.addWidget(self.legend)
        lay.addLayout(nav)

        session.article_changed.connect(self.show_current)
        session.rows_changed.connect(self._rank_moved)
        session.coverage_changed.connect(self._coverage_known)
        session.evaluation_changed.connect(self.update_chain)
        session.settings_changed.connect(lambda _: self.update_window(scroll=False))
        session.step_changed.connect(lambda _: self.update_window(scroll=True))
        self._prepared: tuple[object, object] | None = None  # (layout, its built document)
        self._window_key: tuple | None = None  # (article state, top, size) of _window_spans
        self._shown_state: tuple | None = None  # what update_window() showed last
        self._window_spans: tuple[list, list] = ([], [])  # display spans: this screen's, read before it
        self._look = (look.pt(1.0), look.is_dark())  # the zoom and theme the shown document was built in
        look.appearance().changed.connect(self._appearance_changed)
        self.builder: DocumentBuilder | None = None  # the build in progress, if any
        #: documents of the last articles shown, by their Layout object (the session's article
        #: cache hands the same Layout back on a re-open): id(layout) -> (layout, document, a
        #: child of this panel while not shown). The view never changes a document it shows
        #: (marks, chain and screen are painted over it), so one can be shown again as is.
        self._docs: OrderedDict[int, tuple[object, object]] = OrderedDict()
        session.article_preparer = self.prepare
        self.show_current()

    # -- building the view of an article being opened --------------------------------------
    def prepare(self, state: ArticleState, done, progress):
        """The session's :attr:`~Session.article_preparer`: build ``state``'s document (at once
        when short, else in slices), then ``done()``. Returns the cancel function."""
        self._drop_builder()
        lay = state.layout
        kept = self._kept_document(lay)
        if kept is not None:  # shown lately: no build
            self._prepared = (lay, kept)
            done()
            return None
        if lay.display_length <= BUILD_AT_ONCE_CHARS and len(lay.blocks) <= BUILD_AT_ONCE_BLOCKS:
            from .article_view import build_document

            self._prepared = (lay, build_document(lay))
            done()
            return None
        builder = self.builder = DocumentBuilder(lay, self)
        activity()._add(1)  # a job in flight until built or cancelled (busy indicator, wait_idle)

        def finished(doc) -> None:
            self._end_builder(builder)
            self._prepared = (lay, doc)
            done()

        builder.progress.connect(progress)
        builder.finished.connect(finished)
        builder.cancelled.connect(lambda: self._end_builder(builder))
        builder.start()
        return builder.cancel

    def _kept_document(self, lay) -> object | None:
        """The kept document built from ``lay`` (taken out of the cache), or None."""
        hit = self._docs.pop(id(lay), None)
        if hit is None:
            return None
        if hit[0] is not lay:  # another Layout at a reused id
            hit[1].deleteLater()
            return None
        return hit[1]

    def _keep_shown_document(self, unless=None) -> None:
        """Keep the view's document of an article (unless built from ``unless``, the article
        about to be shown) before the view replaces it: the view deletes only the documents it
        owns, so it becomes this panel's child; the oldest beyond ARTICLE_CACHE_SIZE go."""
        lay, doc = self.view.layout_, self.view.document()
        if lay is None or lay is unless or doc is None or doc.parent() is not self.view:
            return
        doc.setParent(self)
        self._docs[id(lay)] = (lay, doc)
        while len(self._docs) > ARTICLE_CACHE_SIZE:
            self._docs.popitem(last=False)[1][1].deleteLater()

    def _end_builder(self, builder: DocumentBuilder) -> None:
        if self.builder is builder:
            self.builder = None
            activity()._add(-1)
        builder.deleteLater()

    def _drop_builder(self) -> None:
        if self.builder is not None:
            self.builder.cancel()

    # -- reactions ----------------------------------------------------------------------
    def _appearance_changed(self) -> None:
        """Zoom or theme changed: the header in its colours and sizes; the article's document
        (its sizes in points, its meta lines' colour) built anew, the kept ones dropped."""
        self.show_header()
        now = (look.pt(1.0), look.is_dark())
        if now == self._look:
            return
        self._look = now
        for _lay, doc in self._docs.values():
            doc.deleteLater()
        self._docs.clear()
        self._shown_state = None
        self.show_current()

    def show_header(self) -> None:
        """The line above the text: title, article, rank (it follows a rank move), relevance, topic."""
        cur = self.session.current
        if cur is None:
            return
        ev = cur.evaluation
        title = cur.article.title if cur.article is not None else (cur.row.title if cur.row else cur.name)
        bits = [f"article {esc(cur.name)}"]
        if cur.row is not None:
            bits.append(f"rank {cur.row.rank}")
        else:
            bits.append("not ranked by the run")
        if self.session.qrels is not None:
            bits.append(f'<span style="color:{look.css("good")}"><b>relevant</b></span> ({amount(ev.nrc, self.session.unit)})'
                        if ev.is_relevant else "not relevant")
        if cur.article is None:
            bits.append(f'<span style="color:{look.css("bad")}"><b>no text</b>: '
                        + ("not in the collection" if self.session.collection is not None else "no collection open")
                        + "</span>")
        topic = self.session.topic or ""
        self.header.setText(look.adapt(f'<span style="font-size:13pt"><b>{esc(title)}</b></span>'
                                       f'&nbsp;&nbsp;<span style="color:{look.css("muted")}">{" · ".join(bits)} · topic {esc(topic)}</span>'))

    def _rank_moved(self) -> None:
        """The rows replaced with the open article's own row among them (a rank move): its rank."""
        s, cur = self.session, self.session.current
        if cur is not None and cur.row is not None and s.rows_ready() and s.row_of(cur.name) is cur.row:
            self.show_header()

    def show_current(self) -> None:
        cur = self.session.current
        if cur is None:
            self.header.setText("<i>No article open.</i>")
            self._keep_shown_document()
            self.view.show_message("No article open. Use File ▸ Open…, or drop a collection folder, qrels and a run here.")
            self.chain.set_chain(())
            self.update_window()
            return
        ev = cur.evaluation
        self.show_header()
        self._keep_shown_document(unless=cur.layout)
        if cur.layout is not None:
            prepared, self._prepared = self._prepared, None
            if prepared is not None and prepared[0] is cur.layout:
                self.view.show_document(cur.layout, mk.marks(cur.layout, ev), prepared[1])
            else:
                if prepared is not None:
                    prepared[1].deleteLater()
                kept = self._kept_document(cur.layout)
                if kept is not None:
                    self.view.show_document(cur.layout, mk.marks(cur.layout, ev), kept)
                else:
                    self.view.show_article(cur.layout, mk.marks(cur.layout, ev))
        else:
            self.view.show_message(self._no_text(cur))
        self.update_chain(rebuild_view=False)
        self.update_window(scroll=True)

    def _coverage_known(self, *_) -> None:
        """The collection's names are listed (they may come after the article): an article
        without text now says how many of the topic's articles the collection holds."""
        cur = self.session.current
        if cur is not None and cur.layout is None:
            self.view.show_message(self._no_text(cur))

    def _no_text(self, cur: ArticleState) -> str:
        """The text pane's message for an article without text: why, and where its scores come from."""
        text = cur.message or f"Article {cur.name} has no text to show."
        counts = self.session.in_collection(self.session.topic) if self.session.topic else None
        if counts is not None:
            text += (f"\n\nThe collection holds {counts[0]} of the {counts[1]} articles the run ranks for topic "
                     f"{self.session.topic} (the others are greyed in the ranked list).")
        return text

    def update_chain(self, rebuild_view: bool = True) -> None:
        cur = self.session.current
        if cur is None:
            return
        note = "document mode: the chain is not followed" if not len(mk.chain_passages(cur.evaluation)) and len(cur.evaluation.retrieved_spans) else ""
        entry = self.session.entry_of_current() if cur.evaluation.mode is Mode.ENTRY else None
        if entry is not None:
            whose = {"you": "set by you", "run": "the run's", "start": "the article's start"}[entry[1]]
            note = f"entry mode: from {amount(entry[0], self.session.unit)} ({whose}) to the end, then from the start"
        if cur.layout is not None:
            self.view.set_entry(cur.layout.to_display(int(entry[0]), "start") if entry is not None else None)
        if cur.layout is not None:
            m = mk.marks(cur.layout, cur.evaluation)
            if rebuild_view:
                self.view.set_marks(m)
            self.chain.set_chain(m.chain, note)
            self.view.set_jumps(_display_jumps(cur.layout, cur.evaluation))
        else:
            chain = tuple((i, int(a), int(b)) for i, (a, b) in enumerate(mk.chain_passages(cur.evaluation).tolist(), 1))
            self.chain.set_chain(chain, note)
        self._shown_state = None  # the view's marks may be new: frame the screen anew
        self.update_window(scroll=False)

    def update_window(self, scroll: bool = True) -> None:
        s = self.session
        cur = s.current
        if cur is None:
            self._shown_state = None
            self.position.setText("")
            self.reading_label.setText("")
            for b in (self.first_btn, self.prev_btn, self.next_btn):
                b.setEnabled(False)
            return
        k, n_screens = s.step, s.screens()
        size = s.settings.screen
        top = self.playback.top if self.playback is not None else k * size
        # a mode change calls this four times (evaluation, settings, step, position) for one
        # state: the same state again only scrolls, if asked
        state = (cur, k, n_screens, top, size, s.settings.mode)
        shown, self._shown_state = self._shown_state, state
        if shown is not None and shown[0] is cur and shown[1:] == state[1:]:
            if scroll and cur.layout is not None:
                self.view.set_window(self._window_spans[0], scroll=True)
            return
        fit_text(self.position, f"screen {k + 1:,} of {n_screens:,}")  # fixed size: no window re-layout
        self.first_btn.setEnabled(k > 0)
        self.prev_btn.setEnabled(k > 0)
        self.next_btn.setEnabled(k + 1 < n_screens)
        ev = cur.evaluation
        self.reading_label.setText(f"positions {top:,}–{min(top + size, ev.n):,} of {ev.n:,}")
        self.reading_label.setToolTip(f"reading positions read on this screen, in the {s.settings.mode} reading order")
        if cur.layout is not None:
            # a control change calls this up to four times (evaluation, settings, step): the
            # display spans are computed once per (article state, top, size)
            key = (cur, top, size)
            if self._window_key is None or self._window_key[0] is not cur or self._window_key[1:] != key[1:]:
                spans = read_window(ev.pieces, top, top + size)
                disp = cur.layout.spans_to_display(iv.as_array(spans)) if spans else np.zeros((0, 2), np.int64)
                # keep reading order: spans_to_display keeps order but drops empties
                done = read_window(ev.pieces, 0, top)
                self._window_key = key
                self._window_spans = ([(int(a), int(b)) for a, b in disp.tolist()],
                                      cur.layout.spans_to_display(iv.as_array(done)).tolist() if done else [])
            self.view.set_window(self._window_spans[0], scroll=scroll)
            self.view.set_read(self._window_spans[1], min(top + size, ev.n))


def _display_jumps(lay, ev) -> list[tuple[int, int, int]]:
    """The reading order's jumps ``(r, from, to)`` with display positions (see
    :func:`readsim.app.playback.jumps`)."""
    js = jumps(ev.pieces)
    if not js:
        return []
    arr = np.array(js, dtype=np.int64)
    ends, starts = lay.to_display(arr[:, 1], "end"), lay.to_display(arr[:, 2], "start")
    return [(int(r), int(a), int(b)) for r, a, b in zip(arr[:, 0], ends, starts)]


def build_article_loading(window) -> tuple[QPushButton, QAction, Callable[[str, bool], None]]:
    """Status bar of ``window`` (a MainWindow): a Cancel button shown while an article loads,
    and Esc, calling :meth:`Session.cancel_article_load`. Esc is one action for all the
    window's long work: it also stops a collection's index build (reference 2.10) while
    ``set_busy("index", True)`` says one runs. Returns the button, the Esc action and
    ``set_busy`` (the window's ``article_cancel_button``, ``act_cancel_article``,
    ``set_cancel_busy``)."""
    session = window.session
    button = QPushButton("Cancel")
    button.setToolTip("Stop loading this article; the open article stays (Esc)")
    button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    button.hide()
    window.statusBar().addPermanentWidget(button)
    action = QAction("Cancel loading (the article, or the collection's index)", window)
    action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
    action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    action.setEnabled(False)
    busy: set[str] = set()  # what Esc would stop now: "article", "index"

    def set_busy(what: str, on: bool) -> None:
        (busy.add if on else busy.discard)(what)
        action.setEnabled(bool(busy))

    def cancel() -> None:
        if "article" in busy:
            session.cancel_article_load()
        if "index" in busy:
            session.cancel_indexing()

    action.triggered.connect(cancel)
    button.clicked.connect(session.cancel_article_load)
    window.addAction(action)

    def loading(_name: str, percent: int) -> None:
        button.setVisible(percent != -2)
        set_busy("article", percent != -2)

    session.article_loading.connect(loading)
    return button, action, set_busy
