"""Help ▸ "Measures explained" (F1) and Help ▸ "Keyboard shortcuts" (Ctrl+/).

:func:`measures_html` is the teaching text: one paragraph per measure with its formula and its
source, a short form of the project's reference, ``docs/reference.md`` (sections 3-5 there: the
reading orders, the document and the list measures, each with its equation and the paper,
section and equation it comes from). The dialog says where that file is and, when it is
installed next to the package (a source checkout or an editable install), links to it and offers
a button that opens it (:func:`reference_path`). :func:`shortcuts` lists every shortcut of a
window from its ``QAction`` s, so the list is always what the keys do.
"""

from __future__ import annotations

import html
from importlib import resources
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QMenu, QPushButton, QTextBrowser, QVBoxLayout,
                               QWidget)

from readsim.core.reading import READING_MODES

from . import appearance as look

_L = {role: light for role, (light, _dark) in look.ROLES.items()}  # light colours: adapted when shown
CSS = f"""
body {{ font-size: 11.5pt; line-height: 135%; }}
h1 {{ font-size: 17pt; margin-bottom: 4px; }}
h2 {{ font-size: 13.5pt; color: {_L["accent"]}; margin-top: 18px; margin-bottom: 4px; }}
p {{ margin-top: 4px; margin-bottom: 8px; }}
.f {{ font-family: 'DejaVu Serif', serif; font-size: 12pt; background: {_L["gutter_bg"]}; }}
.use {{ color: {_L["good"]}; }}
.src {{ color: {_L['subtle']}; font-size: 10pt; }}
.ref {{ background: {_L["callout"]}; padding: 4px; }}
td, th {{ padding: 3px 10px; }}
th {{ background: {_L["header"]}; text-align: left; }}
"""

ARVOLA = "Arvola, Kekäläinen and Junkkari 2010"
KAMPS_LP = "Kamps, Lalmas and Pehcevski 2007"
KAMPS = "Kamps, Pehcevski, Kazai, Lalmas and Robertson 2007"
KAMPS_2008 = "Kamps, Pehcevski, Kazai, Lalmas and Robertson 2008"
INEX_EVAL = "the official INEX tool inex_eval"

REFERENCE = "docs/reference.md"
"""The project's full reference: formats, policies, every measure with its equation and source."""

# (anchor, title, formula html, explanation html, teaching use html, source)
SECTIONS: list[tuple[str, list[tuple[str, str, str, str, str]]]] = [
    ("Reading an article: the browse phase", [
        ("Matching chain", "",
         "R is the relevant text of the article (the union of the assessor's highlighted passages, from the "
         "qrels), T the retrieved text (the union of the run's passages, clipped to the article). The reader "
         "first reads T in document order, following the chain of links from one retrieved passage to the next "
         "(the numbered badges and the “↓ k” links of the article view). Positions are characters in the "
         "unit of the offsets (UTF-8 bytes for INEX 2009/2010).",
         "Shows why a system that points at the right spot helps even when its passages are not exactly the "
         "relevant ones.",
         f"{ARVOLA}, section 2.2 (fetch and browse, the matching chain); reference §3"),
        ("Reading modes: natural, worst, best, document", "",
         "What is read after the chain. <b>natural</b>: back to the start of the article and the rest in "
         "document order. <b>worst</b>: the rest that is not relevant first, then the relevant rest. "
         "<b>best</b>: the relevant rest first, then the rest (too easy for evaluation, kept as a contrast). "
         "<b>document</b>: T is ignored and the whole article is read from its start, as for a run that returns "
         "whole articles (the full-document baseline). Every measure below is read off this order.",
         "Switch modes (Ctrl+M) on one article: the gap between natural and worst shows how much a score "
         "depends on the reader after the chain; document mode shows what the passages add to a plain ranking.",
         f"{ARVOLA}, section 2.2 (natural, worst and best case) and section 5 (the document baseline); "
         "reference §3"),
        ("Entry point reading (Best in Context)", "order = [e, n), then [0, e)",
         "For a Best in Context run the reader starts at the run's entry point e (column 7 of its line), reads "
         "to the end of the article and then wraps around to read from the start up to e; e is clamped to the "
         "article. The retrieved passages play no part. In the window: the Reading box's 'entry' mode; the "
         "entry is the run's, or set it with Alt+click in the text (Reader > Start reading here).",
         "Shows what a good entry point buys: the relevant text right after e is read first.",
         f"readsim's extension, after {ARVOLA}, section 6 (browsing from a best entry point); reference §3"),
    ]),
    ("Character precision and recall along the reading order (document scores)", [
        ("aveChP", "aveChP = (1/NRC) · Σ<sub>i : rel(i)=1</sub> P(i), &nbsp; P(i) = (relevant among the first i read) / i",
         "Average character precision: the average precision of the reading order, with characters in place of "
         "documents. i = 1..n runs along the reading order, rel(i) = 1 when the i-th character read is relevant, "
         "NRC = |R|. A non-relevant article scores 0. The paper's mini document (55 characters, 1-27 relevant): "
         "retrieving 33-55 gives aveChP = 0.35 (set-based F = 0), retrieving the whole article gives 1.",
         "Rewards putting the relevant text early in the reading order; does not say when the reader stops.",
         f"{ARVOLA}, section 4.1 (the aveChP(d) equation, Table 1); reference §4.1"),
        ("ChP@k and ChR@k", "ChP@k = (relevant among the first min(k, n) read) / min(k, n); &nbsp; "
         "ChR@k = (relevant among the first min(k, n) read) / NRC",
         "Precision and recall after a fixed amount of reading, k characters (the panel uses the screen size: "
         "what fits on one screen).",
         "What does the first screen show? Compare a mobile screen (300) with a laptop (2000).",
         f"{ARVOLA}, section 4.1 (cut-off measures, ChPR@600); reference §4.2"),
        ("T2IP, T2IR and T2IF (tolerance to irrelevance)",
         "T2IP(t) = relevant read / m; &nbsp; T2IR(t) = relevant read / NRC; &nbsp; "
         "T2IF<sub>α</sub>(t) = (1+α²)·P·R / (α²·P + R) &nbsp; (0 when P + R = 0)",
         "The reader stops right after reading the t-th non-relevant character (or at the end of the order); "
         "m is the number of characters read by then. α = 1 in the paper; INEX's tolerance default is t = 300. "
         "The official tool's T2I score is T2IP. The precision plot marks the stop.",
         "A user-oriented cut-off: a patient reader (large t) and an impatient one (small t) rank systems "
         "differently.",
         f"{ARVOLA}, sections 4.1 and 5.1; de Vries, Kazai and Lalmas 2004 (tolerance to irrelevance); "
         "reference §4.3"),
    ]),
    ("Effort to find the relevant text (document scores, lower is better)", [
        ("LE (localizing effort)",
         "LE(s) = 1 if f ≤ s, 2 if f ≤ 2s, 3 if f ≤ 3s, else 4 &nbsp; (L = 4 levels)",
         "f is the position of the first relevant character in the reading order, s the screen size in "
         "characters: the number of screens read before relevant text shows, capped at L. With no relevant "
         "character it is NR = L + 1 = 5.",
         "How far must a small-screen user scroll before the article proves relevant? Lower is better.",
         f"{ARVOLA}, sections 4.2.1 and 5.2 (screen sizes 300 and 2000, NR = 5); reference §4.4"),
        ("ES (effort score)", "ES(d) = LE(d) if d is relevant, NR = L + 1 = 5 otherwise; &nbsp; minES = 1",
         "The document score that cumulated effort adds up along the ranked list; a non-relevant article costs "
         "the most.",
         "Separates a relevant article found at once (1) from one found late (4) and from a useless one (5). "
         "Lower is better.",
         f"{ARVOLA}, section 4.2.1 (the ES(d) equation); reference §4.5"),
    ]),
    ("The official INEX set-based scores (document scores)", [
        ("P_set, R_set and F(β)",
         "P = |R ∩ T| / |T|; &nbsp; R = |R ∩ T| / |R|; &nbsp; F<sub>β</sub> = (1+β²)·P·R / (β²·P + R)",
         "The retrieved text as a set: no reading order, and the reader is assumed to stop after the retrieved "
         "passages. β = 0.25 is official in INEX 2008-2010 (F1 in 2007): precision weighs more than recall. "
         "A non-relevant article scores 0. On the mini document, retrieving the whole article gives F<sub>1</sub> = 0.66.",
         "Contrast with aveChP: F gives the same score whether the relevant half of a long article comes first "
         "or last.",
         f"{KAMPS_LP}, section 2.1; {KAMPS}, equations 1-3; {ARVOLA}, section 3.1.2; reference §4.6"),
        ("BEP(d) (Best in Context)",
         "BEP(d) = (d − |bep − entry|) / d if |bep − entry| ≤ d, else 0 &nbsp; (d = 500)",
         "bep is the assessor's best entry point (from the qrels), entry the run's entry point (column 7 of a "
         "Best in Context line, whatever its length; 0 for a whole article). A non-relevant article, or one "
         "without a best entry point, scores 0. AgP/BEP(500) is the Best in Context task's MAgP.",
         "Scores where the reader is dropped into the article, not what is retrieved.",
         f"{KAMPS_2008} (Best in Context); the formula as computed by {INEX_EVAL}; reference §4.7"),
    ]),
    ("Ranked lists: the fetch phase (list scores of a topic)", [
        ("gP and gR (generalised precision and recall)",
         "gP[r] = Σ<sub>i≤r</sub> S(d<sub>i</sub>) / r; &nbsp; gR[r] = Σ<sub>i≤r</sub> isrel(d<sub>i</sub>) / Nrel",
         "d<sub>1</sub>, d<sub>2</sub>, … are the ranked articles, S any document score above (in [0, 1]), "
         "isrel(d) = 1 for an article with relevant text in the qrels, Nrel the topic's relevant articles. "
         "Past the end of a short run the official tool keeps the last rank's gP (gP(plain) is the plain "
         "sum / r). Written LIST/DOC, e.g. gP@10/T2IP(300).",
         "Precision at a rank, but each article counts by how well it was read, not 0 or 1.",
         f"{KAMPS}, equations 4-5; {KAMPS_LP}, section 2.2; {ARVOLA}, section 3.1.1; reference §5.1-5.3"),
        ("AgP and MAgP (average generalised precision)",
         "AgP = Σ<sub>r</sub> isrel(d<sub>r</sub>) · gP[r] / Nrel; &nbsp; MAgP = mean of AgP over topics",
         "Average precision with document scores. AgP/F(0.25) is INEX's official Relevant in Context measure; "
         "AgP/aveChP and AgP/T2IF(300) are the reading-order alternatives.",
         "One number per topic that mixes the ranking (fetch) with the passages (browse): try it with "
         "different document scores.",
         f"{KAMPS}, equation 7; {KAMPS_LP}, section 2.2; {ARVOLA}, section 3.1.1; reference §5.4"),
        ("AgP' (size-weighted)",
         "AgP' = Σ<sub>r</sub> (rsize(d<sub>r</sub>) / Trel_size) · isrel(d<sub>r</sub>) · gP[r]",
         "rsize(d) is the article's relevant size, Trel_size the sum over the topic: an article with much "
         "relevant text weighs more (recall counted in relevant text, gR').",
         "Asks whether missing a long relevant article should cost more than missing a short one.",
         f"{KAMPS}, equations 6 and 8; reference §5.5"),
        ("MAP", "MAP = AgP with S(d) = isrel(d)",
         "Mean average precision over articles: the passages are ignored, only the ranking counts.",
         "The document-retrieval view of the same run: the difference to MAgP is what focusing adds.",
         f"{KAMPS}, equation 9 (S(d) = rel(d)); {KAMPS_LP}, section 3; reference §5.6"),
        ("ircl_prn (interpolated gP at 11 recall points)",
         "ircl_prn.x = max { gP[r] : ⌊10·gR[r]⌋ ≥ 10·x }, &nbsp; x = 0.00, 0.10, …, 1.00",
         "The recall-precision curve the official tool prints: at each recall point, the best generalised "
         "precision reached at that recall or beyond (0 where no rank gets there).",
         "Shows where along the ranking a run loses precision.",
         f"{KAMPS}, Figure 4; computed as {INEX_EVAL} does; reference §5.7"),
        ("CE, NCE and ANCE (cumulated effort)",
         "CE[i] = Σ<sub>j≤i</sub> (ES(d<sub>j</sub>)/minES − 1); &nbsp; "
         "NCE[i] = Σ<sub>j≤i</sub> (ES(d<sub>j</sub>)/IE[j] − 1); &nbsp; ANCE[i] = Σ<sub>j≤i</sub> NCE[j] / i",
         "ES summed down the ranked list; minimal effort (ES = 1) adds nothing. IE is the ideal effort: Nrel "
         "ones, then NR. Ranks past the end of the run count as non-relevant (ES = NR). The paper's example: "
         "ES = 〈1, 2, 5, 1, 5〉 gives CE = 〈0, 1, 5, 5, 9〉; with Nrel = 3, NCE = 〈0, 1, 5, 4.2, 4.2〉. "
         "Written e.g. ANCE@600/LE(300); MANCE is the mean over topics. Lower is better.",
         "Effort instead of gain: curves nearer the x-axis are better; an ideal run stays at 0.",
         f"{ARVOLA}, section 4.2.2; reference §5.8"),
        ("iP and MAiP (the Focused task)",
         "iP[x] = max { precision after line k : recall after line k ≥ x }; &nbsp; "
         "MAiP = mean over topics of the mean of iP[0.00], iP[0.01], …, iP[1.00]",
         "Each result line of the run is a rank, in file order, with no document score: precision is the "
         "relevant text retrieved so far over the text retrieved so far, recall the relevant text retrieved so "
         "far over the topic's relevant text. iP[0.01] was the Focused task's official measure.",
         "The passages alone, without the grouping by article: compare with AgP on the same run.",
         f"{KAMPS_2008} (the Focused task); computed as {INEX_EVAL} does; reference §5.9"),
    ]),
]

MEASURE_NAMES = ("aveChP", "ChP@k", "ChR@k", "T2IP", "T2IR", "T2IF", "LE", "ES", "P_set", "R_set", "F(β)",
                 "BEP", "gP", "gR", "AgP", "AgP'", "MAP", "ircl_prn", "CE", "NCE", "ANCE", "iP", "MAiP")
MODES = tuple(m.value for m in READING_MODES)

SOURCES = (
    "P. Arvola, J. Kekäläinen, M. Junkkari: Expected reading effort in focused retrieval evaluation. "
    "Information Retrieval 13(5), Springer, 2010.",
    "J. Kamps, M. Lalmas, J. Pehcevski: Evaluating Relevant in Context: document retrieval with a twist. "
    "SIGIR 2007 (poster), ACM, 2007.",
    "J. Kamps, J. Pehcevski, G. Kazai, M. Lalmas, S. Robertson: Evaluating focused retrieval tasks. "
    "SIGIR 2007 Workshop on Focused Retrieval, 2007.",
    "J. Kamps, J. Pehcevski, G. Kazai, M. Lalmas, S. Robertson: INEX 2007 evaluation measures. "
    "Focused Access to XML Documents (INEX 2007), LNCS 4862, Springer, 2008.",
    "A. P. de Vries, G. Kazai, M. Lalmas: Tolerance to irrelevance: a user-effort oriented evaluation of "
    "retrieval systems without predefined retrieval unit. RIAO 2004.",
)


def reference_path() -> Path | None:
    """The project's ``docs/reference.md`` when it is installed with this copy of readsim, else None.

    Looked for next to the packages (``<project>/docs/reference.md``: a source checkout or an
    editable install, where ``readsim.app`` is the project's ``app/`` folder), then as a copy in
    the package's resources (``readsim/resources/reference.md``), should a build ship one."""
    candidates = [Path(__file__).resolve().parent.parent / "docs" / "reference.md"]
    try:
        candidates.append(Path(str(resources.files("readsim.resources") / "reference.md")))
    except (ImportError, TypeError, ValueError):  # no resources package: only the project file
        pass
    return next((p for p in candidates if p.is_file()), None)


def reference_html(path: Path | None) -> str:
    """One paragraph saying where the full reference is: a link to ``path`` when it is at hand."""
    what = ("the formats and their policies, the reading orders, every measure with its equation and its "
            "source, the official tool's policies and what bad input gets")
    if path is not None:
        url = QUrl.fromLocalFile(str(path)).toString()
        where = (f"<a href=\"{html.escape(url)}\">{REFERENCE}</a> in the readsim project "
                 f"(here: {html.escape(str(path))}; <i>Open reference</i> below opens it)")
    else:
        where = (f"<b>{REFERENCE}</b> in the readsim project (its source distribution; it is not installed "
                 "with this copy)")
    return f"<p class='ref'><b>The full reference</b> ({what}) is {where}.</p>"


def measures_html(reference: Path | None | bool = True) -> str:
    """The "Measures explained" text (HTML): one paragraph per measure with its formula, what it
    teaches, and its source, and where the full reference is. ``reference``: its path, ``None``
    when it is not at hand, or ``True`` (default) to look it up with :func:`reference_path`."""
    path = reference_path() if reference is True else reference
    note = reference_html(path)
    out = [f"<html><head><style>{CSS}</style></head><body>",
           "<h1>The measures, explained</h1>",
           "<p>readsim simulates a reader of each retrieved article (INEX <i>Relevant in Context</i>): first the "
           "retrieved passages along the matching chain, then the rest of the article in a reading mode. "
           "Every score of the window is read off that reading order; the right-hand panel shows the document "
           "scores of the open article, the ranked list and the topic view their list scores. "
           "Notation: a list score over a document score is written LIST/DOC, e.g. AgP/F(0.25).</p>",
           note]
    for title, items in SECTIONS:
        out.append(f"<h2>{html.escape(title)}</h2>")
        for name, formula, text, use, source in items:
            para = [f"<p><b>{html.escape(name)}</b>. "]
            if formula:
                para.append(f'<br><span class="f">&nbsp;{formula}&nbsp;</span><br>')
            para.append(text)
            para.append(f' <span class="use"><i>Teaching use:</i> {use}</span>')
            para.append(f' <span class="src">[{html.escape(source)}]</span></p>')
            out.append("".join(para))
    out.append("<h2>Sources</h2><p class='src'>" + "<br>".join(html.escape(s) for s in SOURCES) + "<br>"
               f"“reference §n” is section n of {REFERENCE}.</p>")
    out.append(note)
    out.append("</body></html>")
    return "".join(out)


# -- shortcuts ---------------------------------------------------------------------------------
def _menu_paths(window) -> dict[int, str]:
    """id(action) -> "Menu ▸ Submenu" for every action reachable from the menu bar."""
    out: dict[int, str] = {}

    def walk(menu: QMenu, path: str) -> None:
        for a in menu.actions():
            if a.menu() is not None:
                walk(a.menu(), f"{path} ▸ {a.menu().title().replace('&', '')}")
            elif not a.isSeparator():
                out.setdefault(id(a), path)

    for a in window.menuBar().actions():
        if a.menu() is not None:
            walk(a.menu(), a.menu().title().replace("&", ""))
    return out


def shortcuts(window) -> list[tuple[str, str, list[str]]]:
    """Every action of ``window`` with a shortcut: ``(menu path or "", action text, [key
    sequences in native text])``, menu order first. Read from the window's ``QAction`` s
    (its own, its menus' and its children's), so it always says what the keys do."""
    paths = _menu_paths(window)
    seen: set[int] = set()
    actions: list[QAction] = []

    def add(a: QAction) -> None:
        if id(a) not in seen and not a.isSeparator():
            seen.add(id(a))
            actions.append(a)

    def walk(menu: QMenu) -> None:
        for a in menu.actions():
            if a.menu() is not None:
                walk(a.menu())
            else:
                add(a)

    for a in window.menuBar().actions():
        if a.menu() is not None:
            walk(a.menu())
    for a in window.actions():
        add(a)
    for a in window.findChildren(QAction):
        add(a)
    out = []
    for a in actions:
        keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in a.shortcuts() if not k.isEmpty()]
        if keys:
            out.append((paths.get(id(a), ""), a.text().replace("&", ""), keys))
    return out


def shortcuts_html(window) -> str:
    rows = "".join(
        f"<tr><td><b>{' &nbsp;or&nbsp; '.join(html.escape(k) for k in keys)}</b></td>"
        f"<td>{html.escape(text)}</td><td style='color:{_L['subtle']}'>{html.escape(path)}</td></tr>"
        for path, text, keys in shortcuts(window))
    return (f"<html><head><style>{CSS}</style></head><body><h1>Keyboard shortcuts</h1>"
            "<p>Read from the window's actions (so this list is what the keys do now).</p>"
            f"<table cellspacing='0'><tr><th>Keys</th><th>Action</th><th>Menu</th></tr>{rows}</table>"
            "</body></html>")


class HelpDialog(QDialog):
    """A non-modal dialog with one rich text page (:attr:`browser`)."""

    def __init__(self, title: str, text: str, parent: QWidget | None = None, size=(820, 760)) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setModal(False)
        lay = QVBoxLayout(self)
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)
        self._text = text
        self.browser.setHtml(look.adapt(text))
        look.appearance().changed.connect(self._restyle)
        lay.addWidget(self.browser, 1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.close)
        lay.addWidget(self.buttons)
        self.resize(*size)

    def set_text(self, text: str) -> None:
        self._text = text
        self.browser.setHtml(look.adapt(text))

    def _restyle(self) -> None:
        """The page in the theme's colours and the zoom's sizes."""
        self.browser.setHtml(look.adapt(self._text))


def open_url(url: QUrl) -> bool:
    """Open ``url`` with the desktop's handler (a hook: tests replace it)."""
    return QDesktopServices.openUrl(url)


class MeasuresHelpDialog(HelpDialog):
    """"Measures explained", with an *Open reference* button (:attr:`open_reference_button`) that
    opens ``docs/reference.md`` when it is installed (:attr:`reference`, else the button is
    disabled and its tooltip says where the file is found)."""

    def __init__(self, parent: QWidget | None = None, reference: Path | None | bool = True) -> None:
        self.reference = reference_path() if reference is True else reference
        super().__init__("Measures explained — readsim", measures_html(self.reference), parent)
        self.open_reference_button = QPushButton("Open reference")
        self.open_reference_button.setObjectName("open_reference")
        self.buttons.addButton(self.open_reference_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.open_reference_button.setEnabled(self.reference is not None)
        self.open_reference_button.setToolTip(
            f"Open {self.reference}" if self.reference is not None
            else f"{REFERENCE} is in the readsim project's source; it is not installed with this copy")
        self.open_reference_button.clicked.connect(self.open_reference)

    def open_reference(self) -> bool:
        """Open the reference file with the desktop's handler; False when it is not at hand."""
        if self.reference is None:
            return False
        return open_url(QUrl.fromLocalFile(str(self.reference)))


def new_measures_help(window) -> HelpDialog:
    """The "Measures explained" dialog of ``window`` (the window keeps it as ``measures_help``,
    :meth:`~readsim.app.mainwindow.MainWindow.show_measures_help`)."""
    dlg = MeasuresHelpDialog(window)
    dlg.setObjectName("measures_help")
    return dlg


def new_shortcuts_help(window) -> HelpDialog:
    """The "Keyboard shortcuts" dialog of ``window``, its text set by :func:`shortcuts_html` each
    time it is shown (the window keeps it as ``shortcuts_help``)."""
    dlg = HelpDialog("Keyboard shortcuts — readsim", "", window, (680, 640))
    dlg.setObjectName("shortcuts_help")
    return dlg


def raise_dialog(dlg: HelpDialog) -> HelpDialog:
    """Show ``dlg``, raised and active."""
    dlg.show()
    dlg.raise_()
    dlg.activateWindow()
    return dlg


def build_help(window) -> tuple[QAction, QAction]:
    """Help ▸ "Measures explained" (F1) and "Keyboard shortcuts" (Ctrl+/), before "About", which
    call ``window.show_measures_help()`` and ``window.show_shortcuts()``; returns them (the
    window's ``act_help_measures``, ``act_help_shortcuts``)."""
    help_menu = window.help_menu
    first = help_menu.actions()[0] if help_menu.actions() else None
    acts = []
    for text, keys, slot, tip in (
        ("Measures explained", QKeySequence(QKeySequence.StandardKey.HelpContents), window.show_measures_help,
         "One paragraph per measure with its formula and its source; the full reference is docs/reference.md"),
        ("Keyboard shortcuts", QKeySequence("Ctrl+/"), window.show_shortcuts, "Every shortcut of the window"),
    ):
        a = QAction(text, window)
        if keys.isEmpty():
            keys = QKeySequence("F1")
        a.setShortcut(keys)
        a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        a.setStatusTip(tip)
        a.triggered.connect(lambda _=False, f=slot: f())
        window.addAction(a)
        acts.append(a)
    help_menu.insertActions(first, acts)
    if first is not None:
        help_menu.insertSeparator(first)
    return acts[0], acts[1]
