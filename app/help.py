"""Help ▸ "Measures explained" (F1) and Help ▸ "Keyboard shortcuts" (Ctrl+/).

:func:`measures_html` is the teaching text: one paragraph per measure with its formula, as in
/work/shared/SPEC.md sections 4-6 (Arvola, Kekäläinen, Junkkari 2010, *Expected reading effort
in focused retrieval evaluation*, Information Retrieval 13(5), sections 3-5; Kamps, Pehcevski,
Kazai, Lalmas, Robertson 2007, *INEX 2007 evaluation measures*). :func:`shortcuts` lists every
shortcut of a window from its ``QAction`` s, so the list is always what the keys do.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QMenu, QTextBrowser, QVBoxLayout, QWidget

CSS = """
body { font-size: 11.5pt; line-height: 135%; }
h1 { font-size: 17pt; margin-bottom: 4px; }
h2 { font-size: 13.5pt; color: #1f5fbf; margin-top: 18px; margin-bottom: 4px; }
p { margin-top: 4px; margin-bottom: 8px; }
.f { font-family: 'DejaVu Serif', serif; font-size: 12pt; background: #f3f4f6; }
.use { color: #1a5c2e; }
.src { color: #666; font-size: 10pt; }
td, th { padding: 3px 10px; }
th { background: #eef1f6; text-align: left; }
"""

ARVOLA = "Arvola, Kekäläinen and Junkkari 2010"
KAMPS = "Kamps, Pehcevski, Kazai, Lalmas and Robertson 2007"

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
         f"{ARVOLA}, section 2 (fetch and browse)"),
        ("Reading modes: natural, worst, best, document", "",
         "What is read after the chain. <b>natural</b>: back to the start of the article and the rest in "
         "document order. <b>worst</b>: the rest that is not relevant first, then the relevant rest. "
         "<b>best</b>: the relevant rest first, then the rest (too easy for evaluation, kept as a contrast). "
         "<b>document</b>: T is ignored and the whole article is read from its start, as for a run that returns "
         "whole articles (the full-document baseline). Every measure below is read off this order.",
         "Switch modes (Ctrl+M) on one article: the gap between natural and worst shows how much a score "
         "depends on the reader after the chain; document mode shows what the passages add to a plain ranking.",
         f"{ARVOLA}, sections 2 and 5; SPEC section 4"),
    ]),
    ("Character precision and recall along the reading order (document scores)", [
        ("aveChP", "aveChP = (1/NRC) · Σ<sub>i : rel(i)=1</sub> P(i), &nbsp; P(i) = (relevant among the first i read) / i",
         "Average character precision: the average precision of the reading order, with characters in place of "
         "documents. i = 1..n runs along the reading order, rel(i) = 1 when the i-th character read is relevant, "
         "NRC = |R|. A non-relevant article scores 0. The paper's mini document (55 characters, 1-27 relevant): "
         "retrieving 33-55 gives aveChP = 0.35 (set-based F = 0), retrieving the whole article gives 1.",
         "Rewards putting the relevant text early in the reading order; does not say when the reader stops.",
         f"{ARVOLA}, section 4.1"),
        ("ChP@k and ChR@k", "ChP@k = (relevant among the first min(k, n) read) / min(k, n); &nbsp; "
         "ChR@k = (relevant among the first min(k, n) read) / NRC",
         "Precision and recall after a fixed amount of reading, k characters (the panel uses the screen size: "
         "what fits on one screen).",
         "What does the first screen show? Compare a mobile screen (300) with a laptop (2000).",
         f"{ARVOLA}, section 4.1 (cut-off measures)"),
        ("T2IP, T2IR and T2IF (tolerance to irrelevance)",
         "T2IP(t) = relevant read / m; &nbsp; T2IR(t) = relevant read / NRC; &nbsp; "
         "T2IF<sub>α</sub>(t) = (1+α²)·P·R / (α²·P + R) &nbsp; (0 when P + R = 0)",
         "The reader stops right after reading the t-th non-relevant character (or at the end of the order); "
         "m is the number of characters read by then. α = 1 in the paper; INEX's tolerance default is t = 300. "
         "The official tool's T2I score is T2IP. The precision plot marks the stop.",
         "A user-oriented cut-off: a patient reader (large t) and an impatient one (small t) rank systems "
         "differently.",
         f"{ARVOLA}, section 4.1; de Vries et al. 2004"),
    ]),
    ("Effort to find the relevant text (document scores, lower is better)", [
        ("LE (localizing effort)",
         "LE(s) = 1 if f ≤ s, 2 if f ≤ 2s, 3 if f ≤ 3s, else 4 &nbsp; (L = 4 levels)",
         "f is the position of the first relevant character in the reading order, s the screen size in "
         "characters: the number of screens read before relevant text shows, capped at L. With no relevant "
         "character it is NR = L + 1 = 5.",
         "How far must a small-screen user scroll before the article proves relevant? Lower is better.",
         f"{ARVOLA}, sections 4.2.1 and 5.2"),
        ("ES (effort score)", "ES(d) = LE(d) if d is relevant, NR = L + 1 = 5 otherwise; &nbsp; minES = 1",
         "The document score that cumulated effort adds up along the ranked list; a non-relevant article costs "
         "the most.",
         "Separates a relevant article found at once (1) from one found late (4) and from a useless one (5). "
         "Lower is better.",
         f"{ARVOLA}, section 4.2.1"),
    ]),
    ("The official INEX set-based scores (document scores)", [
        ("P_set, R_set and F(β)",
         "P = |R ∩ T| / |T|; &nbsp; R = |R ∩ T| / |R|; &nbsp; F<sub>β</sub> = (1+β²)·P·R / (β²·P + R)",
         "The retrieved text as a set: no reading order, and the reader is assumed to stop after the retrieved "
         "passages. β = 0.25 is official in INEX 2008-2010 (F1 in 2007): precision weighs more than recall. "
         "A non-relevant article scores 0. On the mini document, retrieving the whole article gives F<sub>1</sub> = 0.66.",
         "Contrast with aveChP: F gives the same score whether the relevant half of a long article comes first "
         "or last.",
         f"{ARVOLA}, section 3.1.2 (citing Kamps et al. 2008); SPEC section 5"),
    ]),
    ("Ranked lists: the fetch phase (list scores of a topic)", [
        ("gP and gR (generalised precision and recall)",
         "gP[r] = Σ<sub>i≤r</sub> S(d<sub>i</sub>) / r; &nbsp; gR[r] = Σ<sub>i≤r</sub> isrel(d<sub>i</sub>) / Nrel",
         "d<sub>1</sub>, d<sub>2</sub>, … are the ranked articles, S any document score above (in [0, 1]), "
         "isrel(d) = 1 for an article with relevant text in the qrels, Nrel the topic's relevant articles. "
         "Past the end of a short run the official tool keeps the last rank's gP (gP(plain) is the plain "
         "sum / r). Written LIST/DOC, e.g. gP@10/T2IP(300).",
         "Precision at a rank, but each article counts by how well it was read, not 0 or 1.",
         f"{KAMPS}; {ARVOLA}, section 3.1.1"),
        ("AgP and MAgP (average generalised precision)",
         "AgP = Σ<sub>r</sub> isrel(d<sub>r</sub>) · gP[r] / Nrel; &nbsp; MAgP = mean of AgP over topics",
         "Average precision with document scores. AgP/F(0.25) is INEX's official Relevant in Context measure; "
         "AgP/aveChP and AgP/T2IF(300) are the reading-order alternatives.",
         "One number per topic that mixes the ranking (fetch) with the passages (browse): try it with "
         "different document scores.",
         f"{KAMPS}; {ARVOLA}, section 3.1.1"),
        ("AgP' (size-weighted)",
         "AgP' = Σ<sub>r</sub> (rsize(d<sub>r</sub>) / Trel_size) · isrel(d<sub>r</sub>) · gP[r]",
         "rsize(d) is the article's relevant size, Trel_size the sum over the topic: an article with much "
         "relevant text weighs more (recall counted in relevant text, gR').",
         "Asks whether missing a long relevant article should cost more than missing a short one.",
         KAMPS),
        ("MAP", "MAP = AgP with S(d) = isrel(d)",
         "Mean average precision over articles: the passages are ignored, only the ranking counts.",
         "The document-retrieval view of the same run: the difference to MAgP is what focusing adds.",
         KAMPS),
        ("CE, NCE and ANCE (cumulated effort)",
         "CE[i] = Σ<sub>j≤i</sub> (ES(d<sub>j</sub>)/minES − 1); &nbsp; "
         "NCE[i] = Σ<sub>j≤i</sub> (ES(d<sub>j</sub>)/IE[j] − 1); &nbsp; ANCE[i] = Σ<sub>j≤i</sub> NCE[j] / i",
         "ES summed down the ranked list; minimal effort (ES = 1) adds nothing. IE is the ideal effort: Nrel "
         "ones, then NR. Ranks past the end of the run count as non-relevant (ES = NR). The paper's example: "
         "ES = 〈1, 2, 5, 1, 5〉 gives CE = 〈0, 1, 5, 5, 9〉; with Nrel = 3, NCE = 〈0, 1, 5, 4.2, 4.2〉. "
         "Written e.g. ANCE@600/LE(300); MANCE is the mean over topics. Lower is better.",
         "Effort instead of gain: curves nearer the x-axis are better; an ideal run stays at 0.",
         f"{ARVOLA}, section 4.2.2"),
    ]),
]

MEASURE_NAMES = ("aveChP", "ChP@k", "ChR@k", "T2IP", "T2IR", "T2IF", "LE", "ES", "P_set", "R_set", "F(β)",
                 "gP", "gR", "AgP", "AgP'", "MAP", "CE", "NCE", "ANCE")
MODES = ("natural", "worst", "best", "document")


def measures_html() -> str:
    """The "Measures explained" text (HTML): one paragraph per measure with its formula, what it
    teaches, and its source."""
    out = [f"<html><head><style>{CSS}</style></head><body>",
           "<h1>The measures, explained</h1>",
           "<p>readsim simulates a reader of each retrieved article (INEX <i>Relevant in Context</i>): first the "
           "retrieved passages along the matching chain, then the rest of the article in a reading mode. "
           "Every score of the window is read off that reading order; the right-hand panel shows the document "
           "scores of the open article, the ranked list and the topic view their list scores. "
           "Notation: a list score over a document score is written LIST/DOC, e.g. AgP/F(0.25).</p>"]
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
    out.append("<h2>Sources</h2><p class='src'>P. Arvola, J. Kekäläinen, M. Junkkari: Expected reading effort "
               "in focused retrieval evaluation. Information Retrieval 13(5), 2010.<br>"
               "J. Kamps, J. Pehcevski, G. Kazai, M. Lalmas, S. Robertson: INEX 2007 evaluation measures. "
               "INEX 2007, LNCS 4862, 2008.<br>"
               "J. Kamps, M. Lalmas, J. Pehcevski: Evaluating Relevant in Context: document retrieval with a "
               "twist. SIGIR 2007.<br>"
               "A. P. de Vries, G. Kazai, M. Lalmas: Tolerance to irrelevance. RIAO 2004.</p>")
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
        f"<td>{html.escape(text)}</td><td style='color:#666'>{html.escape(path)}</td></tr>"
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
        self.browser.setHtml(text)
        lay.addWidget(self.browser, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        lay.addWidget(buttons)
        self.resize(*size)

    def set_text(self, text: str) -> None:
        self.browser.setHtml(text)


def show_measures_help(window) -> HelpDialog:
    """Show (or raise) the "Measures explained" dialog of ``window``."""
    dlg = getattr(window, "measures_help", None)
    if dlg is None:
        dlg = window.measures_help = HelpDialog("Measures explained — readsim", measures_html(), window)
        dlg.setObjectName("measures_help")
    dlg.show()
    dlg.raise_()
    dlg.activateWindow()
    return dlg


def show_shortcuts(window) -> HelpDialog:
    """Show (or raise) the "Keyboard shortcuts" dialog, regenerated from the actions."""
    dlg = getattr(window, "shortcuts_help", None)
    if dlg is None:
        dlg = window.shortcuts_help = HelpDialog("Keyboard shortcuts — readsim", "", window, (680, 640))
        dlg.setObjectName("shortcuts_help")
    dlg.set_text(shortcuts_html(window))
    dlg.show()
    dlg.raise_()
    dlg.activateWindow()
    return dlg


def install_help(window) -> None:
    """Help ▸ "Measures explained" (F1) and "Keyboard shortcuts" (Ctrl+/), before "About"."""
    help_menu = None
    for a in window.menuBar().actions():
        if a.text().replace("&", "") == "Help" and a.menu() is not None:
            help_menu = a.menu()
    if help_menu is None:
        help_menu = window.menuBar().addMenu("&Help")
    first = help_menu.actions()[0] if help_menu.actions() else None
    acts = []
    for text, keys, slot, tip in (
        ("Measures explained", QKeySequence(QKeySequence.StandardKey.HelpContents), show_measures_help,
         "One paragraph per measure with its formula and its teaching use"),
        ("Keyboard shortcuts", QKeySequence("Ctrl+/"), show_shortcuts, "Every shortcut of the window"),
    ):
        a = QAction(text, window)
        if keys.isEmpty():
            keys = QKeySequence("F1")
        a.setShortcut(keys)
        a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        a.setStatusTip(tip)
        a.triggered.connect(lambda _=False, f=slot: f(window))
        window.addAction(a)
        acts.append(a)
    window.act_help_measures, window.act_help_shortcuts = acts
    help_menu.insertActions(first, acts)
    if first is not None:
        help_menu.insertSeparator(first)
