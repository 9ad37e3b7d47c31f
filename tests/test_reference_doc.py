"""The project's own reference, docs/reference.md, and the window's help that points to it.

Users have the package, not the project's internal notes: the reference must document every
measure the engine knows with its equation and its source, say what bad input gets, agree with
the engine on its worked examples and its measure names, and cite nothing outside the project.
The help dialog must keep each measure's formula and source and say where the reference is.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pytest

from readsim import cli
from readsim.core.doc_evaluation import evaluate_document
from readsim.core.listmeasures import normalized_cumulated_effort
from readsim.core.measure import (LIST_KINDS, DocMeasure, ListMeasure, UnknownMeasure, parse_any,
                                    parse_list_measure, parse_measure)

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "reference.md"
README = ROOT / "README.md"
FORMATS = ROOT / "docs" / "formats.md"
SAMPLE = ROOT / "resources" / "sample"

OUTSIDE = re.compile(r"shared/|SPEC\.md|\bSPEC\s+section|\b\d{3}_[0-9a-f]{16}\b|seeds?/")


# -- reading the reference ----------------------------------------------------------------------
def text() -> str:
    return REFERENCE.read_text(encoding="utf-8")


def sections(doc: str) -> list[tuple[str, str]]:
    """``(heading line, body)`` for every Markdown heading; the body runs to the next heading."""
    out: list[tuple[str, str]] = []
    in_code = False
    for line in doc.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if not in_code and re.match(r"#{1,6} ", line):
            out.append((line, ""))
        elif out:
            out[-1] = (out[-1][0], out[-1][1] + line + "\n")
    return out


def section(doc: str, number: str) -> str:
    """Body of the section numbered ``number`` (``"10"``, ``"4.7"``) with its subsections."""
    found = [i for i, (h, _) in enumerate(sections(doc)) if re.match(rf"#+ {re.escape(number)}\.? ", h)]
    assert found, f"docs/reference.md has no section {number}"
    parts = sections(doc)
    level = len(parts[found[0]][0]) - len(parts[found[0]][0].lstrip("#"))
    body = parts[found[0]][1]
    for heading, sub in parts[found[0] + 1:]:
        if len(heading) - len(heading.lstrip("#")) <= level:
            break
        body += heading + "\n" + sub
    return body


def reference_keys(doc: str) -> set[str]:
    """The keys the References section defines: ``- **[Arvola 2010]** P. Arvola, ...``."""
    return set(re.findall(r"^- \*\*\[([^\]]+)\]\*\* ", section(doc, "14"), re.M))


def kind_of(measure: DocMeasure | ListMeasure) -> tuple[str, str]:
    if isinstance(measure, DocMeasure):
        return ("document", measure.kind)
    return ("list", "gP(plain)" if measure.plain else measure.kind)


# -- the engine's measure kinds, from engine/core/measure.py -------------------------------------------
def _message(parse) -> str:
    """The parser's message for an unknown name: it lists every measure it knows."""
    try:
        parse("no-such-measure")
    except UnknownMeasure as err:
        return str(err)
    raise AssertionError("an unknown measure name parsed")


def _instances(listing: str) -> list[str]:
    """Concrete names from the engine's own listing (``ChP@k, T2IF(t,alpha), gP@r/DOC, ...``)."""
    out = []
    for template in re.split(r",\s*(?![^()]*\))", listing):
        template = template.strip()
        if not template or ".." in template:
            template = template.split("..")[0].strip()
        name = (template.replace("/DOC", "/F(0.25)").replace("@k", "@600").replace("@r", "@10")
                .replace("@i", "@10").replace("@L", "@1000").replace("@H", "@224").replace("(t,alpha)", "(300,0.5)").replace("(beta)", "(0.25)"))
        name = re.sub(r"\((t|s|d)\)", "(300)", name)
        if name:
            out.append(name)
    return out


def engine_kinds() -> set[tuple[str, str]]:
    """Every canonical measure kind the engine knows: the document measures its parser lists, the
    list measures of ``LIST_KINDS`` and the variants its parser lists (``gP(plain)``)."""
    docs = re.search(r"document measures are (.*?)(?:;|$)", _message(parse_measure)).group(1)
    lists = re.search(r"list measures are (.*?);", _message(parse_list_measure)).group(1)
    kinds = {kind_of(parse_any(name)) for name in _instances(docs) + _instances(lists)}
    kinds |= {("list", k) for k in LIST_KINDS}
    return kinds


def test_the_engine_listing_is_read_whole():
    kinds = engine_kinds()
    assert {k for t, k in kinds if t == "document"} >= {
        "aveChP", "ChP", "ChR", "T2IP", "T2IR", "T2IF", "LE", "ES", "P_set", "R_set", "F", "BEP"}
    assert {k for t, k in kinds if t == "list"} >= set(LIST_KINDS) | {"gP(plain)"}


# -- every measure documented, with its equation and its source -----------------------------------
def measure_sections(doc: str) -> dict[tuple[str, str], tuple[str, str]]:
    """Measure kind -> (heading, body) of the section whose heading names it in backticks."""
    out = {}
    for heading, body in sections(doc):
        for token in re.findall(r"`([^`]+)`", heading):
            try:
                measure = parse_any(token)
            except UnknownMeasure:
                continue
            assert measure.name == token, f"heading {heading!r}: {token} is not canonical ({measure.name})"
            out.setdefault(kind_of(measure), (heading, body))
    return out


@pytest.mark.parametrize("kind", sorted(engine_kinds()), ids=lambda k: f"{k[0]}:{k[1]}")
def test_every_measure_kind_has_an_equation_and_a_source(kind):
    doc = text()
    documented = measure_sections(doc)
    assert kind in documented, f"{kind[1]} ({kind[0]} measure) has no section in docs/reference.md"
    heading, body = documented[kind]
    code = "\n".join(re.findall(r"```\n(.*?)```", body, re.S))
    assert "=" in code, f"{heading}: no equation in a code block"
    sources = [line for line in body.split("\n\n") if line.startswith("Source:")]
    assert sources, f"{heading}: no 'Source:' paragraph"
    cited = set(re.findall(r"\[([A-Za-z][^\]]*)\]", " ".join(sources)))
    keys = reference_keys(doc)
    assert cited & keys, f"{heading}: the source cites none of the references {sorted(keys)}"
    assert cited <= keys, f"{heading}: cites undefined references {sorted(cited - keys)}"
    # the source says where: a section, an equation, a figure or a table of a paper, or the
    # named part of the official tool (a routine, the rows it prints)
    assert re.search(r"(section|equations?|Figure|Table) \d|\[inex_eval\][^.]*`[^`]+`", " ".join(sources)), heading


def test_references_give_authors_title_venue_and_year():
    entries = re.findall(r"^- \*\*\[([^\]]+)\]\*\* (.*?)(?=^- \*\*|\Z)", section(text(), "14"), re.M | re.S)
    assert {"Arvola 2010", "Kamps 2007a", "Kamps 2007b", "Kamps 2008", "inex_eval"} <= {k for k, _ in entries}
    for key, entry in entries:
        if key == "inex_eval":
            continue
        assert re.search(r"\*[^*]+\.\*", entry), f"{key}: no title in italics"
        assert re.search(r"\b(19|20)\d\d\b", entry), f"{key}: no year"
        assert re.search(r"[A-Z]\. [A-Z][a-zä]+", entry), f"{key}: no authors"


# -- the reference agrees with the engine ---------------------------------------------------------
def test_measure_names_in_the_reference_are_canonical_and_parse_back():
    grammar = re.sub(r"```.*?```", "", section(text(), "6"), flags=re.S)  # the prose, not the grammar block
    examples = [t for t in re.findall(r"`([^`\n]+)`", grammar) if "/" in t or "(" in t or "[" in t]
    parsed = 0
    for token in examples:
        try:
            measure = parse_any(token)
        except UnknownMeasure:
            continue
        parsed += 1
        if not re.search(rf"`{re.escape(token)}`\s*→", grammar):  # the "other spelling → canonical" pairs
            assert measure.name == token, f"{token} is printed as {measure.name}"
    assert parsed >= 8
    pairs = re.findall(r"`([^`\n]+)`\s*→\s*`([^`\n]+)`", grammar)
    assert len(pairs) >= 3
    for spelling, canonical in pairs:
        assert parse_any(spelling).name == canonical
        assert parse_any(canonical).name == canonical


def test_worked_example_numbers_are_the_engines():
    """Section 11's mini document (Arvola et al. 2010, Table 1) computed by the engine."""
    worked = section(text(), "11")
    relevant = np.array([[0, 27]])  # positions 1-27, 1-based
    cases = {  # retrieved (0-based, half-open) -> aveChP, F1 as the reference prints them
        (32, 55): ("0.3484", "0.0000"), (0, 55): ("1.0000", "0.6585"), (23, 45): ("0.5306", "0.1633")}
    for (start, end), (ave, f1) in cases.items():
        doc = evaluate_document(relevant, np.array([[start, end]]), 55, "natural")
        assert (f"{doc.ave_chp():.4f}", f"{doc.set_scores(1.0)[2]:.4f}") == (ave, f1)
    for shown in ("0.3484", "0.6585", "0.5306", "0.1633", "⟨33..55, 1..32⟩", "⟨24..45, 1..23, 46..55⟩"):
        assert shown in worked
    nce = normalized_cumulated_effort(np.array([1, 2, 5, 1, 5]), 3, 5, 5.0)
    assert np.allclose(nce, [0, 1, 5, 4.2, 4.2])
    assert "NCE = ⟨0, 1, 5, 4.2, 4.2⟩" in worked


@pytest.mark.parametrize("args, status, row", [
    ([str(SAMPLE / "sample.qrels"), str(SAMPLE / "runs" / "good-passages.run")], 0, "| 0 | done"),
    ([str(SAMPLE / "sample.qrels"), str(SAMPLE / "no-such.run")], 1, "| 1 | bad input or an operating-system error"),
    ([str(SAMPLE / "sample.qrels"), str(SAMPLE)], 1, "| 1 | bad input or an operating-system error"),
    ([str(SAMPLE / "sample.qrels"), str(SAMPLE / "runs" / "good-passages.run"), "-m", "AgP/Fx(1)"], 2, "| 2 | usage error"),
    ([str(SAMPLE / "sample.qrels"), str(SAMPLE / "runs" / "good-passages.run"), "--unit", "words"], 2, "| 2 | usage error"),
])
def test_exit_statuses_are_what_the_reference_says(args, status, row):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(args, out, err)
    assert code == status, err.getvalue()
    assert row in section(text(), "9.3")
    if status == 1:
        assert err.getvalue().count(":") >= 2 and args[1] in err.getvalue()  # "readsim-eval: path: reason"


# -- what bad input gets --------------------------------------------------------------------------
HOSTILE_ROWS = {  # the hostile inputs section 10 must name -> a pattern of the row's input cell
    "BOM": r"byte-order mark", "CRLF": r"CRLF", "control characters": r"control character",
    "huge offsets": r"2\^40", "negative lengths": r"negative offset or length",
    "duplicate qrels lines": r"same \(topic, article\) twice", "interleaved articles": r"interleaved",
    "split topics": r"split into two blocks", "overlapping passages": r"overlapping passages",
    "missing files": r"missing file", "directories": r"folder given as a file",
    "unreadable articles": r"malformed XML", "hostile DOCTYPEs": r"DOCTYPE", "deep articles": r"nested deeper",
}
OUTCOME = re.compile(r"same numbers|warning|error|usage error|the passage `\[0, doc_length\)`")


def table_rows(body: str) -> list[tuple[str, str]]:
    rows = []
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) >= 2 and not set(cells[0]) <= set("-: ") and cells[0] != "input":
            rows.append((cells[0], cells[-1]))
    return rows


@pytest.mark.parametrize("what", sorted(HOSTILE_ROWS))
def test_bad_input_table_covers_the_issue(what):
    rows = table_rows(section(text(), "10"))
    matching = [(i, o) for i, o in rows if re.search(HOSTILE_ROWS[what], i)]
    assert matching, f"no row for {what}"
    for _, outcome in matching:
        assert OUTCOME.search(outcome), (what, outcome)


def test_bad_input_table_outcomes_are_stated():
    rows = table_rows(section(text(), "10"))
    assert len(rows) >= 30
    for cell, outcome in rows:
        assert OUTCOME.search(outcome), (cell, outcome)


# -- nothing outside the project ------------------------------------------------------------------
def test_reference_cites_nothing_outside_the_project():
    doc = text()
    assert not OUTSIDE.search(doc), OUTSIDE.search(doc).group()
    for line in doc.splitlines():
        assert "../" not in line or "../article.dtd" in line, line


def test_formats_page_bad_input_table_cites_nothing_outside_the_project():
    # the README's "What bad input gets" moved to docs/formats.md; the README links to it
    page = FORMATS.read_text(encoding="utf-8")
    m = re.search(r"^#+ What bad input gets\s*$(.*?)(?=^#+ |\Z)", page, re.M | re.S)
    assert m, "docs/formats.md has no 'What bad input gets' section (from docs/reference.md section 10)"
    table = m.group(1)
    assert table_rows(table), "docs/formats.md's 'What bad input gets' section has no table"
    assert not OUTSIDE.search(table), OUTSIDE.search(table).group()
    assert "reference.md" in page
    assert "docs/formats.md#what-bad-input-gets" in README.read_text(encoding="utf-8")


# -- the window's help ------------------------------------------------------------------------
def test_help_text_names_the_reference_and_keeps_formulas_and_sources():
    from readsim.app import help as h

    for where in (REFERENCE, None):
        page = h.measures_html(where)
        assert "docs/reference.md" in page
        assert not OUTSIDE.search(page), OUTSIDE.search(page).group()
        if where is None:
            assert "not installed" in page
        else:
            assert REFERENCE.as_uri() in page
    doc = text()
    numbers = {re.match(r"#+ (\d+(?:\.\d+)?)", head).group(1) for head, _ in sections(doc) if re.match(r"#+ \d", head)}
    items = [(title, item) for title, group in h.SECTIONS for item in group]
    assert len(items) >= 17
    for title, (name, formula, _explanation, _use, source) in items:
        assert source and re.search(r"(Arvola|Kamps|inex_eval|readsim)", source), name
        if not title.startswith("Reading an article"):  # a measure: its formula is shown
            assert "=" in formula, f"{name}: no formula"
        cited = re.search(r"reference §(\d+(?:\.\d+)?)", source)
        assert cited, f"{name}: its source does not point into docs/reference.md"
        assert cited.group(1) in numbers, f"{name}: reference §{cited.group(1)} does not exist"


def test_help_dialog_opens_the_reference(qapp, monkeypatch):
    from PySide6.QtCore import QUrl

    from readsim.app import help as h

    assert h.reference_path() == REFERENCE  # a source checkout: the file next to the packages
    opened: list[QUrl] = []
    monkeypatch.setattr(h, "open_url", lambda url: opened.append(url) or True)
    dlg = h.MeasuresHelpDialog(reference=REFERENCE)
    try:
        assert "docs/reference.md" in dlg.browser.toPlainText()
        assert dlg.open_reference_button.isEnabled()
        dlg.open_reference_button.click()
        assert [u.toLocalFile() for u in opened] == [str(REFERENCE)]
    finally:
        dlg.deleteLater()
    missing = h.MeasuresHelpDialog(reference=None)
    try:
        assert not missing.open_reference_button.isEnabled()
        assert "docs/reference.md" in missing.open_reference_button.toolTip()
        assert missing.open_reference() is False
        assert "not installed" in missing.browser.toPlainText()
    finally:
        missing.deleteLater()


def test_the_reference_ships_with_the_package():
    """resources/reference.md (packaged with readsim.resources) is the project's reference: the
    help dialog finds it in an installed copy, where docs/ is not."""
    shipped = ROOT / "resources" / "reference.md"
    assert shipped.read_text(encoding="utf-8") == REFERENCE.read_text(encoding="utf-8")
