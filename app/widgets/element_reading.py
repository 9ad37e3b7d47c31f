"""The element mode's article part: the article of the chosen element (read and laid out in a
worker, the last ones kept), its element brackets and their descriptions, and the header over
it (:class:`ElementArticlePart`, a part of :class:`~readsim.app.widgets.elements_view.ElementsPanel`)."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel

from readsim.core.element_retrieval.tree import element_tree
from readsim.core.layout import layout

from .. import appearance as look
from .. import elements_model as em
from ..articles import length_of
from ..plain import amount, esc
from .element_article import EMPTY, SELECTED
from .elements_table import POS, element_values, fmt_f

ARTICLES_KEPT = 6  # parsed and laid-out articles kept by the panel


class ElementArticlePart:
    """The article methods of the element panel (they read its table, article view, header and
    caches, and run its ``_article_jobs``)."""

    def select_position(self, position: int) -> None:
        """Select run position ``position`` (0-based): its row, its article (loaded in the
        background the first time), its bracket, the text seen before it."""
        view = self.current_run()
        if view is None or not 0 <= position < len(view.entries):
            return
        self._position = position
        idx = self.model.index(position, POS)
        sm = self.table.selectionModel()
        if sm.currentIndex().row() != position:
            flags = QItemSelectionModel.SelectionFlag
            sm.setCurrentIndex(idx, flags.ClearAndSelect | flags.Rows)
        self.table.scrollTo(idx)
        r = view.entries[position]
        i = self.article_combo.findData(r.article)
        if i >= 0:
            self.article_combo.setCurrentIndex(i)
        self._plot()
        self._show_article(r.article, view, position)

    def show_article_of_run(self, article: str) -> None:
        """Select the first element of ``article`` in the shown run."""
        view = self.current_run()
        if view is not None and view.positions(article):
            self.select_position(view.positions(article)[0])

    def _show_article(self, name: str, view: em.RunView, position: int) -> None:
        coll = self.session.collection
        hit = self._articles.get(name)
        if hit is not None and hit[0] is coll:
            self._articles.move_to_end(name)
            self._display(name, hit[1], hit[2], hit[3], view, position)
            return
        self.header.setText(f"<i>Reading article {esc(name)}…</i>")

        def op(_progress):
            article = coll.article(name)
            return article, layout(article), element_tree(article).parent

        def success(result) -> None:
            article, lay, parent = result
            self._articles[name] = (coll, article, lay, parent)
            while len(self._articles) > ARTICLES_KEPT:
                self._articles.popitem(last=False)
            if self._position == position and self.current_run() is view:  # the latest request's
                self._display(name, article, lay, parent, view, position)

        def failure(exc) -> None:
            text = self._error_text(exc)
            self._shown_article = None
            self.view.show_message(f"Article {name}: {text}")

        self._article_jobs.start(op, success, failure)

    def _display(self, name, article, lay, parent, view: em.RunView, position: int) -> None:
        tv = self.topic_view
        if tv is None:
            return
        self._article_jobs.cancel()  # a slower load of another article is stale now
        self._show_busy()
        key = (name, id(view))
        if key != self._shown_key:
            items = em.brackets(view, tv.assessments, name, parent)
            fg = view.values.f("gen")
            fgen = {b.position: float(fg[b.position]) for b in items}
            info = {b.position: self._describe(view, b) for b in items}
            a = tv.assessments.get(name)
            relevant = a.passages if a is not None else EMPTY
            if self._shown_article == name and self.view.layout_ is lay:
                self.view.set_brackets(items, fgen, info)
            else:
                self.view.show_elements(lay, relevant, items, fgen, info)
            self._shown_article = name
            self._shown_key = key
        self.view.select(position, em.seen(view, position))
        self._header(name, article, view, position)

    def _describe(self, view: em.RunView, b: em.Bracket) -> str:
        return f"#{b.position + 1} · rank {b.rank} · level {b.level}\n{b.xpath}\n" + element_values(
            view, b.position, self.model.unit)

    def _header(self, name: str, article, view: em.RunView, position: int) -> None:
        v = view.values
        r = view.entries[position]
        items = self.view.brackets()
        depth = 1 + max((b.level for b in items), default=0)
        a = self.topic_view.assessments.get(name) if self.topic_view is not None else None
        rel = (f'<span style="color:{look.css("good")}"><b>relevant</b></span> ({amount(a.relevant_size, self.model.unit)} highlighted)'
               if a is not None else "not relevant")
        seen = int(v.seen[position])
        topic = self.topic_view.topic if self.topic_view is not None else None
        length = length_of(self.session.qrels, topic, name, article)  # the main window's (reference 1.5)
        self.header.setText(
            f'<span style="font-size:13pt"><b>{esc(article.title)}</b></span>&nbsp; '
            f'<span style="color:{look.css("muted")}">article {esc(name)} ({amount(length or 0, self.model.unit)}) · {rel} · '
            f'{len(items)} retrieved elements, '
            f'{depth} nesting level{"s" if depth != 1 else ""}</span><br>'
            f'<span style="color:{look.css(SELECTED)}"><b>#{position + 1}</b></span> rank {r.rank} '
            f'<code>{esc(r.xpath)}</code> · e {int(v.e[position])}, s {int(v.s[position])} · '
            f'f gen {fmt_f(v.f("gen")[position])} · {amount(int(v.size[position]), self.model.unit)}, '
            + (f"{seen:,} already shown by earlier elements" if seen else "none of it shown before"))
