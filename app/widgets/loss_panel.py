"""Where the run loses (reference section 5.11): the topic's AgP over the square {run, ideal}
passages x {run, ideal} ranking, the split ideal - actual = browse + fetch + together, what the
unranked relevant articles cost, and the per-article table (:mod:`.loss_table`): each ranked
article's browse cost and rank cost, computed in the background
(:func:`readsim.app.background.run_in_background` over the Python API core's
:func:`readsim.core.costs.article_costs`, the costs ``readsim.loss`` gives: all the articles of a topic
at once, from cumulative sums), memoised per split. Clicking a row
opens the article (the topic view connects it); *Export…* writes the table with its provenance
(:func:`readsim.app.provenance.write_table`, CSV or JSON).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import (QAbstractItemView, QFrame, QGridLayout, QHBoxLayout, QHeaderView, QLabel,
                               QPushButton, QVBoxLayout, QWidget)

from readsim.core.costs import article_costs
from readsim.core.report_numbers import format_number, format_signed
from readsim.core.costs import ArticleCosts, LossSplit
from readsim.core.measure import ListMeasure

from .. import appearance as look
from ..background import run_in_background
from ..plain import esc, plain_label, rich_label
from .fixed_labels import fit_rich, set_wrapped
from .loss_table import (L_IDEAL, L_IDEAL_RANK, L_LOSS, L_RANK, L_RANK_COST, L_REL, L_SCORE, L_TITLE,
                         LOSS_ARTICLE_ROLE, LossModel)
from .tables import row_table

# the topic view's fixed columns (pixels): with the curves at one plot's least width
# (list_plot.PLOT_MIN_WIDTH) the topic dock fits a 1,280-pixel-wide screen
LEFT_WIDTH, LOSS_WIDTH = 430, 536


def export_button(what: str, slot: Callable[[], None]) -> QPushButton:
    """An *Export…* button saving ``what`` (its tooltip says so), calling ``slot`` when clicked."""
    button = QPushButton("Export…")
    button.setToolTip(f"Save {what} as CSV or JSON with the provenance: the files, the run's edits, the settings")
    button.clicked.connect(slot)
    return button


def gains_more(loss: LossSplit) -> str:
    """Which fix alone gains more AgP (the split line's verdict): ``"ranker"`` (fetch),
    ``"passages"`` (browse) or ``"same"`` (equal to 4 decimals)."""
    if abs(loss.fetch - loss.browse) < 5e-5:
        return "same"
    return "ranker" if loss.fetch > loss.browse else "passages"


def _signed(value: float) -> str:
    return format_signed(value)  # a value rounding to zero shows 0.0000, never -0.0000


class LossPanel(QWidget):
    """Where the run loses: the AgP square, the split and the per-article table.

    :meth:`text` reads a shown number back by key: ``actual``, ``ideal_passages``,
    ``ideal_ranking``, ``ideal``, ``perfect``, ``browse``, ``fetch``, ``interaction``,
    ``unretrieved``."""

    KEYS = ("actual", "ideal_passages", "ideal_ranking", "ideal", "perfect", "browse", "fetch", "interaction",
            "unretrieved")

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.loss: LossSplit | None = None
        self._costs: dict[int, tuple[LossSplit, ArticleCosts]] = {}  # id(split) -> its costs (memo)
        self.costs_computed = 0  # splits whose costs were computed (not found in the memo): for tests
        self.context: Callable[[], dict] = dict
        """The provenance of the exported table (the topic view sets
        :func:`readsim.app.provenance.provenance` of its window)."""
        self.tell_error: Callable[[str], None] = lambda text: None
        self.say: Callable[[str], None] = lambda text: None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(3)
        top = QHBoxLayout()
        self.title = rich_label()
        top.addWidget(self.title, 1)
        self.export_button = export_button("the per-article table, with the split,", self._export_clicked)
        top.addWidget(self.export_button)
        lay.addLayout(top)

        self.square = QFrame()
        self.square.setObjectName("square")
        self.square.setStyleSheet(f"#square {{ background:{look.css('panel')}; border:1px solid {look.css('border')}; "
                                  "border-radius:4px; } QLabel { border:none; background:transparent; }")
        grid = QGridLayout(self.square)
        grid.setContentsMargins(6, 2, 6, 2)
        grid.setHorizontalSpacing(10)
        grid.setVerticalSpacing(0)
        grey = f"color:{look.css('muted')}; font-size:8pt;"
        for col, text in ((1, "run ranking"), (2, "ideal ranking")):
            head = plain_label(text)
            head.setStyleSheet(grey)
            grid.addWidget(head, 0, col)
        for row, text in ((1, "run passages"), (2, "ideal passages")):
            head = plain_label(text)
            head.setStyleSheet(grey)
            grid.addWidget(head, row, 0)
        self._labels: dict[str, QLabel] = {}
        self._shown: dict[str, str] = {}
        for key, row, col in (("actual", 1, 1), ("ideal_ranking", 1, 2), ("ideal_passages", 2, 1), ("ideal", 2, 2)):
            cell = rich_label("–")
            cell.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            # of fixed size (fit_rich) but aligned: its column still stretches
            grid.addWidget(cell, row, col, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            self._labels[key] = cell
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(2, 1)
        lay.addWidget(self.square)
        self.split_line = rich_label()
        self.split_line.setWordWrap(True)
        lay.addWidget(self.split_line)

        self.model = LossModel(self)  # sorts itself: the header's clicks call its sort()
        self.table = row_table(self.model)
        self.table.setSortingEnabled(True)
        # the biggest losses first, by the cost the verdict names (:meth:`_sort_by_verdict`)
        # until the user sorts by hand (a click on a header)
        self.table.sortByColumn(L_LOSS, Qt.SortOrder.DescendingOrder)
        self.sorted_by_hand = False
        self.table.horizontalHeader().sectionClicked.connect(self._sorted_by_user)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 4)
        h = self.table.horizontalHeader()
        h.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        h.setSectionResizeMode(L_TITLE, QHeaderView.ResizeMode.Stretch)
        h.setMinimumSectionSize(28)
        for col, width in ((L_RANK, 40), (L_REL, 32), (L_IDEAL_RANK, 48), (L_SCORE, 70), (L_IDEAL, 56), (L_LOSS, 68),
                           (L_RANK_COST, 68)):
            self.table.setColumnWidth(col, width)
        lay.addWidget(self.table, 1)
        # the table's height changes after a row is selected (the split line wraps, the dock
        # settles): keep the selected row whole in view, not cut at the bottom
        self.table.viewport().installEventFilter(self)

    def _sorted_by_user(self, _section: int) -> None:
        self.sorted_by_hand = True

    def sort_column(self) -> tuple[int, Qt.SortOrder]:
        """The column and order the table is sorted by."""
        h = self.table.horizontalHeader()
        return h.sortIndicatorSection(), h.sortIndicatorOrder()

    def _sort_by_verdict(self, column: int) -> None:
        """Sort by ``column``'s biggest costs first (the cost whose fixing the verdict says gains
        more), unless the user has sorted the table by hand."""
        if not self.sorted_by_hand and self.sort_column() != (column, Qt.SortOrder.DescendingOrder):
            self.table.sortByColumn(column, Qt.SortOrder.DescendingOrder)
            self._keep_selected_in_view()

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Resize and watched is self.table.viewport():
            self._keep_selected_in_view()
        return super().eventFilter(watched, event)

    def _keep_selected_in_view(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.table.scrollTo(rows[0], QAbstractItemView.ScrollHint.EnsureVisible)

    def text(self, key: str) -> str:
        """The shown number of ``key`` (see the class docstring); KeyError if not shown."""
        return self._shown[key]

    def article_at(self, view_row: int) -> str:
        """The article id of the table's ``view_row`` (in the current sort order)."""
        return self.model.index(view_row, L_RANK).data(LOSS_ARTICLE_ROLE)

    def select_article(self, article: str | None) -> None:
        """Select ``article``'s row (clear the selection if absent or None)."""
        loss = self.loss
        if article is None or loss is None or article not in loss.articles:
            self.table.clearSelection()
            return
        row = self.model.view_row(loss.articles.index(article))
        self.table.selectRow(row)
        self.table.scrollTo(self.model.index(row, L_RANK))

    def set_loss(self, loss: LossSplit | None, titles: list[str] | None = None, why: str = "needs qrels") -> None:
        """Show ``loss`` (None: nothing to show, ``why`` says so); ``titles``: the ranked
        articles' titles, rank order."""
        self.loss = loss
        known = self._known_costs(loss)  # a split seen before: its costs with it, one table update
        self.model.set_loss(loss, titles, known)
        if known is not None:
            self._keep_selected_in_view()
        else:
            self._ask_costs(loss)
        self.export_button.setEnabled(loss is not None)
        self._shown = {}
        if loss is None or loss.effort:  # otherwise each cell gets its number below: one setText,
            for label in self._labels.values():  # one re-layout, not two
                fit_rich(label, "–", "–")
            self.square.setToolTip("")
        if loss is not None:  # the rank cost when the ranker gains more; else (and for LE/ES) the browse cost
            self._sort_by_verdict(L_RANK_COST if not loss.effort and gains_more(loss) == "ranker" else L_LOSS)
        if loss is None:
            self.title.setText(f"<b>Where the run loses</b> <span style='color:{look.css('faint')}'>({esc(why)})</span>")
            set_wrapped(self.split_line, "", LOSS_WIDTH)
            return
        name = esc(loss.measure.name)
        if loss.effort:
            self.square.hide()
            self.title.setText(f"<b>Where the run loses</b> · {name} per article")
            set_wrapped(self.split_line,
                f"<span style='color:{look.css('muted')}'>AgP sums gains; {name} is an effort (lower is better): no AgP "
                f"split. <i>Extra</i> = {name} with the run's passages − with the highlighted ones: the "
                f"screens the passage selector costs on each article.</span>", LOSS_WIDTH)
            return
        self.square.show()
        self.title.setText(f"<b>Where the run loses</b> · AgP/{name}")
        self._shown = {key: format_number(getattr(loss, key)) for key in self.KEYS}
        t = self._shown
        for key, role, note in (("actual", "muted", "as is"),
                                ("ideal_ranking", "accent", f"({_signed(loss.fetch)} fetch)"),
                                ("ideal_passages", "good", f"({_signed(loss.browse)} browse)"),
                                ("ideal", "muted", "both")):
            fit_rich(self._labels[key], f"<b>{t[key]}</b> <span style='color:{look.css(role)}'>{note}</span>",
                     f"{t[key]} {note}")
        missed = len(loss.missed)
        verdict = {"same": "alone, fixing either gains the same", "ranker": "alone, fixing the ranker gains more",
                   "passages": "alone, fixing the passage selector gains more"}[gains_more(loss)]
        unranked = (f"; all {loss.nrel} relevant, ideal: {t['perfect']} ({_signed(loss.unretrieved)}: {missed} "
                    f"relevant {'article' if missed == 1 else 'articles'} not ranked)") if missed else ""
        set_wrapped(self.split_line,
            f"both − as is = {format_number(loss.ideal - loss.actual)} = browse {t['browse']} + fetch {t['fetch']} "
            f"+ together {t['interaction']}{unranked}. <span style='color:{look.css('bad')}'>{verdict}.</span>", LOSS_WIDTH)
        self.square.setToolTip(
            "AgP (Kamps et al., INEX 2007 evaluation measures, LNCS 4862, 2008) of the run as is, with the "
            "highlighted passages as retrieved passages (browse fixed), with the run's relevant articles in the "
            "ideal order: decreasing relevant size, non-relevant ones dropped (fetch fixed), and with both.\n"
            "browse = ideal passages − as is; fetch = ideal ranking − as is; together = both − ideal passages − "
            "ideal ranking + as is." + (f"\nNot ranked: {', '.join(loss.missed)}" if missed else ""))

    # -- the per-article costs, in the background ------------------------------------------
    def _known_costs(self, loss: LossSplit | None) -> ArticleCosts | None:
        """``loss``'s costs from the memo (None if not computed yet)."""
        hit = self._costs.get(id(loss))
        return hit[1] if hit is not None and hit[0] is loss else None

    def _ask_costs(self, loss: LossSplit | None) -> None:
        """Compute ``loss``'s costs in a worker (the table shows "…" until they arrive; a result
        for a split no longer shown is dropped by the model), memoised per split."""
        if loss is None or loss.effort or loss.nrel < 1:
            return
        measure = ListMeasure("AgP", 0, loss.measure)

        def done(costs: ArticleCosts) -> None:
            if len(self._costs) >= 32:
                self._costs.clear()
            self._costs[id(loss)] = (loss, costs)
            self.costs_computed += 1
            self._show_costs(costs)

        run_in_background(self, lambda: article_costs(loss, measure), done)

    def _show_costs(self, costs: ArticleCosts) -> None:
        """The costs in the table; the rows re-sort by them, so the selected row is brought back
        into view."""
        self.model.set_costs(costs)
        self._keep_selected_in_view()

    @property
    def costs(self) -> ArticleCosts | None:
        """The costs shown (None until they arrive, or for LE/ES)."""
        return self.model.costs

    # -- export -----------------------------------------------------------------------------
    def export_table(self, path) -> object:
        """Write the per-article table to ``path`` (``.csv`` or ``.json``) with the provenance
        (:attr:`context`) and the split (``where_the_run_loses``: the AgP values and the
        measure); returns the path. Raises ``OSError``/``ValueError`` as
        :func:`readsim.app.provenance.write_table`."""
        from ..provenance import write_table

        loss = self.loss
        split = {} if loss is None or loss.effort else {
            "measure": f"AgP/{loss.measure.name}", **{key: getattr(loss, key) for key in self.KEYS}}
        if loss is not None and loss.effort:
            split = {"measure": loss.measure.name, "note": "no AgP for an effort score: extra_screens per article"}
        prov = {**self.context(), "table": "where the run loses: per-article costs", "where_the_run_loses": split}
        return write_table(path, self.model.export_columns(), self.model.export_rows(), prov)

    def _export_clicked(self) -> None:
        from ..export import TABLES, export_with_dialog, safe_name

        loss = self.loss
        stem = safe_name(f"loss-{self.context().get('topic') or 'topic'}-{loss.measure.name if loss else ''}")
        export_with_dialog(self, "Export where the run loses", TABLES, stem, self.export_table, self.tell_error,
                           self.say)

