"""Export what the window shows: pictures (PNG, SVG) and numbers (CSV, JSON).

Callable without dialogs (tests, scripts); :func:`build_export` builds File ▸ Export with file
dialogs. Every function writes one file and returns its path; it raises ``OSError`` when the
file cannot be written and ``ValueError`` when there is nothing to export (no article open) or
the suffix is not one it writes.

- :func:`export_article` — the article view as on screen (marks, chain badges, reading
  screen): PNG via ``QWidget.grab``, SVG via ``QSvgGenerator`` (vector text and marks).
- :func:`export_plot` — a pyqtgraph plot (the precision plot, or any plot on screen:
  :func:`plots`) via ``pyqtgraph.exporters.ImageExporter`` / ``SVGExporter``.
- :func:`export_scores` — the open article's scores (:func:`readsim.operations.article_reading.panel_scores`)
  with their context: measure, value, topic, article, run, mode, screen, tolerance, beta.
- :func:`export_ranked_list` — the topic's ranked list with each article's document scores.
- :func:`export_compare` — the A/B table (when the compare view is installed).

Values are written at full precision (``repr`` of the float), not as shown (4 decimals).
The numbers' context names the run file; a run with edits is recorded as ``edited from FILE,
N edits`` (:func:`run_source`).

:func:`export_with_dialog` is the one dialog-and-errors path every exporting view uses (the
main window's File ▸ Export, the Runs window's Export button, the passages table's CSV).

Every file is written atomically (:func:`readsim.core.atomic.atomic_write`): pictures are
rendered to bytes in memory (``QBuffer``) first, so a failure half-way (a full disk, a crash)
leaves the previous file byte for byte and raises ``OSError`` naming the path. Menu entries are
plain text (:func:`plain`: plot titles are HTML) and proposed file names are safe
(:func:`safe_name`: letters, digits, ``.``, ``_``, ``-``). See docs/architecture.md.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint, QRect, QSize
from PySide6.QtGui import QAction, QKeySequence, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QFileDialog, QMenu, QWidget

from readsim.operations.article_reading import panel_measures, panel_scores
from readsim.core.atomic import write_bytes, write_text

from .plain import menu_text

if TYPE_CHECKING:  # pyqtgraph is imported where a plot is exported (it starts slowly)
    import pyqtgraph as pg

PICTURES = "PNG image (*.png);;SVG drawing (*.svg)"
TABLES = "CSV table (*.csv);;JSON (*.json)"


def _suffix(path: str | Path, allowed: tuple[str, ...]) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in allowed:
        raise ValueError(f"{path}: cannot write {suffix or 'a file without suffix'}; use one of {', '.join(allowed)}")
    return suffix


def plain(text: str) -> str:
    """``text`` without HTML: tags dropped, entities decoded, drawing symbols (legend glyphs
    such as ``━``) dropped, white space collapsed. ``"<b>gP[r]</b> &amp; x"`` -> ``"gP[r] & x"``."""
    text = html.unescape(re.sub(r"<[^>]*>", " ", str(text)))
    text = "".join(c for c in text if unicodedata.category(c) not in ("So", "Cc", "Cf"))
    return " ".join(text.split())


def safe_name(text: str, fallback: str = "export") -> str:
    """A file name (no folder, no suffix) made of ``text``'s plain words: every run of characters
    other than ASCII letters, digits, ``.`` and ``_`` becomes one ``-``; no leading dot or dash;
    at most 80 characters. ``"AgP/F(0.25) <i>x</i>"`` -> ``"AgP-F-0.25-x"``."""
    name = re.sub(r"[^A-Za-z0-9._]+", "-", plain(text)).strip("-.")[:80].strip("-.")
    return name or fallback


# -- pictures --------------------------------------------------------------------------------
def _png(image) -> bytes:
    """A ``QImage`` or ``QPixmap`` as PNG bytes (rendered in memory)."""
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    ok = image.save(buf, "PNG")
    buf.close()
    if not ok or data.isEmpty():
        raise OSError("cannot render the PNG")
    return bytes(data.data())


def _write(path: Path, data: bytes, what: str) -> Path:
    if not data:
        raise OSError(f"{path}: the {what} is empty; nothing written")
    write_bytes(path, data)
    return path


def export_widget(widget: QWidget, path: str | Path, title: str = "readsim") -> Path:
    """Write ``widget`` as it looks now: ``.png`` (``QWidget.grab``, device pixels) or
    ``.svg`` (``QWidget.render`` into a ``QSvgGenerator``, logical pixels)."""
    path = Path(path)
    if _suffix(path, (".png", ".svg")) == ".png":
        return _write(path, _png(widget.grab()), "PNG")
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    gen = QSvgGenerator()
    gen.setOutputDevice(buf)
    size = widget.size()
    gen.setSize(QSize(size))
    gen.setViewBox(QRect(0, 0, size.width(), size.height()))
    gen.setResolution(widget.logicalDpiX())  # else 72 dpi: point-sized text would not fit its marks
    gen.setTitle(title)
    gen.setDescription("exported by readsim")
    painter = QPainter()
    if not painter.begin(gen):
        raise OSError(f"{path}: cannot write the SVG")
    try:
        if hasattr(widget, "scene") and hasattr(widget.scene(), "prepareForPaint"):
            widget.scene().prepareForPaint()  # pyqtgraph: update its items before painting
        QWidget.render(widget, painter, QPoint(0, 0))  # QGraphicsView overrides render()
    finally:
        painter.end()
        buf.close()
    return _write(path, bytes(data.data()), "SVG")


def export_article(window, path: str | Path) -> Path:
    """The article view with its marks, as on screen (``.png`` or ``.svg``)."""
    cur = window.session.current
    if cur is None:
        raise ValueError("no article is open")
    return export_widget(window.article.view, path, f"article {cur.name}, topic {window.session.topic}")


def plots(window, build: bool = True) -> list[tuple[str, pg.PlotWidget]]:
    """The visible pyqtgraph plots of the window (its docks included; a topic-dock plot behind
    the other on a narrow dock, :class:`~readsim.app.widgets.list_plot.RankCurves`, too), named for menus:
    the precision plot first; names are plain text (:func:`plain`), at most 60 characters.
    Plots the window has not built yet (:mod:`readsim.app.widgets.deferred`) are built first,
    or left out (``build=False``)."""
    from .widgets.deferred import build_all

    if build:
        build_all(window)
    elif "pyqtgraph" not in sys.modules:  # no plot built yet
        return []
    import pyqtgraph as pg

    out: list[tuple[str, pg.PlotWidget]] = []
    main = window.plot.plot if window.plot_slot.built() else None
    if isinstance(main, pg.PlotWidget):
        out.append(("Precision plot", main))
    from .widgets.list_plot import RankCurves

    for w in window.findChildren(pg.PlotWidget):
        parent = w.parentWidget()
        tabbed = isinstance(parent, RankCurves) and parent.isVisible()  # behind the other plot's tab
        if w is main or not (w.isVisible() or tabbed):
            continue
        title = plain(w.getPlotItem().titleLabel.text or "") or w.objectName() or type(w.parent()).__name__
        out.append((title if len(title) <= 60 else title[:59].rstrip() + "…", w))
    return out


def export_plot(plot: pg.PlotWidget, path: str | Path, width: int = 1600) -> Path:
    """A pyqtgraph plot as ``.png`` (``ImageExporter``, ``width`` pixels wide) or ``.svg``
    (``SVGExporter``; when it fails on Qt's closed paths, the widget drawn by ``QSvgGenerator``)."""
    import pyqtgraph.exporters as pgx

    path = Path(path)
    item = plot.getPlotItem()
    if _suffix(path, (".png", ".svg")) == ".png":
        exporter = pgx.ImageExporter(item)
        exporter.parameters()["width"] = int(width)
        return _write(path, _png(exporter.export(toBytes=True)), "plot")
    try:
        data = pgx.SVGExporter(item).export(toBytes=True)
    except ValueError:
        # pyqtgraph 0.14's SVGExporter cannot parse closed paths ("... Z") as Qt 6.12
        # writes them (pyqtgraph issue #3495): draw the plot widget with QSvgGenerator
        return export_widget(plot, path, "readsim plot")
    return _write(path, data, "plot")


def export_precision_plot(window, path: str | Path) -> Path:
    return export_plot(window.plot.plot, path)


# -- numbers ---------------------------------------------------------------------------------
def run_source(window, run) -> str | None:
    """Where ``run``'s results come from: its file's path, or ``edited from FILE, N edits``
    when the window's passage editor changed it (N: the edits applied, undone ones not counted),
    followed by ``, saved as FILE2`` once those edits are saved."""
    if run is None:
        return None
    editor = window.editing.editor if window is not None else None  # None: a Runs window of its own
    n = editor.edit_count(run) if editor is not None else 0
    if not n:
        return run.path
    saved = f", saved as {editor.path}" if editor.path and editor.stack.isClean() else ""
    return f"edited from {run.path}, {n} edit{'s' if n != 1 else ''}{saved}"


def context(window) -> dict:
    """What the numbers depend on: topic, article, run (``run_file``: :func:`run_source`), mode
    and the reader's settings."""
    s = window.session
    st = s.settings
    cur = s.current
    return {
        "topic": s.topic,
        "article": cur.name if cur is not None else None,
        "run": s.run.run_id if s.run is not None else None,
        "run_file": run_source(window, s.run),
        "mode": st.mode.value,
        "screen": st.screen,
        "tolerance": st.tolerance,
        "beta": st.beta,
        "alpha": st.alpha,
        "levels": st.levels,
        "unit": s.unit,
    }


def score_values(window) -> dict[str, float]:
    """The open article's scores, measure -> value, in the panel's order."""
    cur = window.session.current
    if cur is None:
        raise ValueError("no article is open")
    return panel_scores(cur.evaluation, window.session.settings)


CONTEXT_COLUMNS = ("topic", "article", "run", "mode", "screen", "tolerance", "beta", "run_file")


def export_scores(window, path: str | Path) -> Path:
    """The open article's scores: ``.csv`` (one row per measure: measure, value, then the
    context columns topic, article, run, mode, screen, tolerance, beta, run_file) or ``.json``
    (``{context..., "scores": {measure: value}}``)."""
    path = Path(path)
    suffix = _suffix(path, (".csv", ".json"))
    values = score_values(window)
    ctx = context(window)
    if suffix == ".json":
        write_text(path, json.dumps({**ctx, "scores": values}, indent=2) + "\n")
        return path
    f = io.StringIO(newline="")
    w = csv.writer(f)
    w.writerow(("measure", "value", *CONTEXT_COLUMNS))
    for name, value in values.items():
        w.writerow((name, repr(float(value)), *(ctx[c] for c in CONTEXT_COLUMNS)))
    write_text(path, f.getvalue(), newline="")
    return path


def ranked_rows(window) -> list[dict]:
    """The topic's ranked list: rank, article, title, relevant, then every panel measure in
    the current settings (each row's evaluation in the current mode)."""
    s = window.session
    st = s.settings
    names = [m.name for m in panel_measures(st)]
    out = []
    for row in s.rows:
        scores = panel_scores(row.evaluation, st)
        out.append({"rank": row.rank, "article": row.article, "title": row.title, "relevant": row.relevant,
                    **{n: scores[n] for n in names}})
    return out


def export_ranked_list(window, path: str | Path) -> Path:
    """The topic's ranked list with its document scores: ``.csv`` (a header row, one row per
    ranked article, the run file last) or ``.json`` (``{context..., "articles": [row, ...]}``)."""
    path = Path(path)
    suffix = _suffix(path, (".csv", ".json"))
    rows = ranked_rows(window)
    ctx = {k: v for k, v in context(window).items() if k != "article"}
    if suffix == ".json":
        write_text(path, json.dumps({**ctx, "articles": rows}, indent=2) + "\n")
        return path
    names = [m.name for m in panel_measures(window.session.settings)]
    f = io.StringIO(newline="")
    w = csv.writer(f)
    w.writerow(("topic", "run", "mode", "rank", "article", "title", "relevant", *names, "run_file"))
    for r in rows:
        w.writerow((ctx["topic"], ctx["run"], ctx["mode"], r["rank"], r["article"], r["title"],
                    "" if r["relevant"] is None else int(r["relevant"]), *(repr(float(r[n])) for n in names),
                    ctx["run_file"]))
    write_text(path, f.getvalue(), newline="")
    return path


def export_compare(window, path: str | Path) -> Path:
    """The A/B table of the compare view: ``.csv`` (measure, A, B, B−A) or ``.json``."""
    panel = window.compare
    if window.session.current is None:
        raise ValueError("the compare view is not open on an article")
    path = Path(path)
    suffix = _suffix(path, (".csv", ".json"))
    runs = {x: panel.run(x) for x in "AB"}
    rows = [{"measure": r.name, "A": r.a, "B": r.b, "B-A": r.diff} for r in panel.rows().values()]
    ctx = {**context(window), "run_A": run_source(window, runs["A"]), "run_B": run_source(window, runs["B"])}
    ctx.pop("run")
    ctx.pop("run_file")
    if suffix == ".json":
        write_text(path, json.dumps({**ctx, "rows": rows}, indent=2) + "\n")
        return path
    f = io.StringIO(newline="")
    w = csv.writer(f)
    w.writerow(("measure", "A", "B", "B-A", "topic", "article", "mode", "run_A", "run_B"))
    for r in rows:
        w.writerow((r["measure"], *("" if r[c] is None else repr(float(r[c])) for c in ("A", "B", "B-A")),
                    ctx["topic"], ctx["article"], ctx["mode"], ctx["run_A"], ctx["run_B"]))
    write_text(path, f.getvalue(), newline="")
    return path


# -- menu --------------------------------------------------------------------------------------
def ask_save_path(parent: QWidget, title: str, filters: str, stem: str) -> str | None:
    """A save dialog over ``parent`` proposing ``stem``: the path chosen (a name without suffix
    takes the chosen filter's), None when cancelled."""
    path, chosen = QFileDialog.getSaveFileName(parent, title, stem, filters)
    if not path:
        return None
    if not Path(path).suffix:  # take the suffix of the chosen filter
        path += "." + chosen.split("*.")[1].split(")")[0] if "*." in chosen else ""
    return path


_ask = ask_save_path  # the dialog every export asks through (tests replace it)


def write_export(path: str, write: Callable[[str], Path], show_error: Callable[[str], None],
                 say: Callable[[str], None]) -> Path | None:
    """``write(path)``; an ``OSError`` or ``ValueError`` goes to ``show_error`` naming the path
    (an ``OSError`` adds that nothing was written: every export is atomic), success to
    ``say("Exported PATH")``. Returns the path written, None when it failed."""
    try:
        out = write(path)
    except OSError as err:  # written atomically: whatever was at path is as it was
        show_error(f"Cannot export to {err.filename or path}: {err.strerror or err}.\n"
                   f"Nothing was written; a file already there is unchanged.")
        return None
    except ValueError as err:
        show_error(f"Cannot export to {path}: {err}")
        return None
    say(f"Exported {out}")
    return out


def export_with_dialog(parent: QWidget, title: str, filters: str, stem: str, write: Callable[[str], Path],
                       show_error: Callable[[str], None], say: Callable[[str], None]) -> Path | None:
    """The one way every view exports: :func:`ask_save_path`, then :func:`write_export`.
    Returns the path written, None when cancelled or failed."""
    path = _ask(parent, title, filters, stem)
    return None if path is None else write_export(path, write, show_error, say)


def _run(window, title: str, filters: str, stem: str, fn: Callable[[str], Path]) -> None:
    export_with_dialog(window, title, filters, stem, fn, window.show_error, window.status.setText)


def _stem(window, what: str) -> str:
    """The proposed file name (no suffix): ``what-topic-article-mode``, made safe (:func:`safe_name`)."""
    s = window.session
    parts = [p for p in (s.topic, s.current.name if s.current else None, s.settings.mode.value) if p]
    return safe_name("-".join([what, *map(str, parts)]))


class ExportActions(NamedTuple):
    """What :func:`build_export` gives the main window (its attributes of the same names)."""
    export_menu: QMenu
    act_export_article: QAction
    act_export_scores: QAction
    act_export_ranked: QAction
    act_export_compare: QAction


def build_export(window) -> ExportActions:
    """File ▸ Export (before Quit): article view (PNG/SVG), plots (PNG/SVG), scores, ranked list
    and the A/B table (CSV/JSON), each through a save dialog. Shortcuts: Ctrl+E exports the
    scores, Ctrl+Shift+E the article view. The A/B entry is listed while ``window.compare_dock``
    is shown (build after :func:`~readsim.app.widgets.ab_panel.build_compare`)."""
    file_menu = window.file_menu
    quit_ = next((a for a in file_menu.actions() if a.text().replace("&", "") == "Quit"), None)
    before = quit_
    acts = file_menu.actions()
    if quit_ is not None and acts.index(quit_) > 0 and acts[acts.index(quit_) - 1].isSeparator():
        before = acts[acts.index(quit_) - 1]
    menu = file_menu.addMenu("&Export") if before is None else None
    if menu is None:
        menu = QMenu("&Export", file_menu)
        file_menu.insertMenu(before, menu)

    def action(text: str, slot, shortcut: str | None = None) -> QAction:
        a = QAction(text, window)
        if shortcut:
            a.setShortcut(QKeySequence(shortcut))
        a.triggered.connect(slot)
        window.addAction(a)
        return a

    article = action(
        "Article view as PNG/SVG…",
        lambda: _run(window, "Export the article view", PICTURES, _stem(window, "article") + ".png",
                     lambda p: export_article(window, p)), "Ctrl+Shift+E")
    scores = action(
        "Article scores as CSV/JSON…",
        lambda: _run(window, "Export the article's scores", TABLES, _stem(window, "scores") + ".csv",
                     lambda p: export_scores(window, p)), "Ctrl+E")
    ranked = action(
        "Ranked list with scores as CSV/JSON…",
        lambda: _run(window, "Export the ranked list", TABLES, _stem(window, "ranked") + ".csv",
                     lambda p: export_ranked_list(window, p)))
    compare = action(
        "A/B comparison as CSV/JSON…",
        lambda: _run(window, "Export the A/B table", TABLES, _stem(window, "compare") + ".csv",
                     lambda p: export_compare(window, p)))

    def fill(build: bool = True) -> None:
        menu.clear()
        menu.addAction(article)
        for name, plot in plots(window, build):
            a = menu.addAction(menu_text(f"{name} as PNG/SVG…"))
            a.triggered.connect(lambda _=False, n=name, w=plot: _run(
                window, f"Export the plot {n}", PICTURES, _stem(window, n.lower()) + ".png",
                lambda p: export_plot(w, p)))
        menu.addSeparator()
        menu.addAction(scores)
        menu.addAction(ranked)
        if window.compare_dock.isVisible():
            menu.addAction(compare)

    def enable(*_) -> None:
        cur = window.session.current is not None
        for a in (article, scores, compare):
            a.setEnabled(cur)
        ranked.setEnabled(bool(window.session.rows))

    menu.aboutToShow.connect(fill)
    window.session.article_changed.connect(enable)
    window.session.rows_changed.connect(enable)
    window.session.topic_changed.connect(enable)  # its rows are being evaluated: none to export
    fill(build=False)  # the plots the window has; opening the menu builds the deferred ones
    enable()
    return ExportActions(menu, article, scores, ranked, compare)
