"""Tables for papers (docs/reference.md section 12.4): one table of text cells written as LaTeX
(booktabs rules, a ``table`` float with its caption) or as a GitHub Markdown pipe table with a
``Table:`` caption line. The one writer of ``readsim-eval --format latex|markdown`` (plain
evaluation and ``compare``), of ``readsim.Comparison.to_latex()`` / ``to_markdown()`` and of the
window's Copy as LaTeX / Copy as Markdown.

The cells are text already formatted by their caller (the numbers with the digits of the tsv
output, reference 9.1 and 9.4); this module only escapes, aligns (a column whose cells are all
numbers or ``n/a`` is right-aligned) and lays them out. Nothing here reads a file or raises on a
cell's text: every character is escaped."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

#: a captioned table of more rows than this is a ``longtable`` (breaks across pages) instead of a float
LONG_ROWS = 40

#: the formats :func:`write_table` writes
TABLE_FORMATS = ("latex", "markdown")

#: each character :func:`escape_latex` replaces, and its LaTeX (no package needed beyond the defaults)
LATEX_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
          "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}",
          ">": r"\textgreater{}", "|": r"\textbar{}", "[": "{[}", "]": "{]}", '"': r'\texttt{"}',
          # symbols the window's tables show, which pdflatex's default fonts do not have as text
          "\u2212": "$-$", "\u2013": "--", "\u2014": "---", "\u2026": r"\ldots{}", "\u00b7": r"$\cdot$",
          "\u03b1": r"$\alpha$", "\u03b2": r"$\beta$", "\u03c4": r"$\tau$", "\u0394": r"$\Delta$",
          "\u03a3": r"$\Sigma$", "\u2264": r"$\leq$", "\u2265": r"$\geq$", "\u00d7": r"$\times$",
          "\u00b1": r"$\pm$", "\u226b": r"$\gg$", "\u2192": r"$\rightarrow$", "\u2193": r"$\downarrow$",
          "\u00b2": r"$^2$", "\u2229": r"$\cap$", "\u222a": r"$\cup$", "\u2713": r"$\surd$",
          "\u00a7": r"$\S$", "\u201c": "``", "\u201d": "''", "\n": " "}
_MARKDOWN = re.compile(r"([\\|*_`<>\[\]])")
_NUMBER = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?|n/a|nan|[-+]?inf")


@dataclass(frozen=True)
class Entry:
    """One cell: its ``text`` (escaped when written), ``bold`` (the best of a column) and
    ``marks`` (a superscript: the letters of the runs a mean is significantly better than)."""

    text: str
    bold: bool = False
    marks: str = ""


@dataclass(frozen=True)
class PaperTable:
    """A table for a paper: ``header`` (one text per column), ``rows`` (each an :class:`Entry` or
    a text per column), ``caption`` (plain text; "" for a bare ``tabular`` and no caption line)
    and ``rules`` (indices of the rows a ``\\midrule`` goes above, as the mean row ``all`` under
    the topics). Raises ``ValueError`` when a row's length is not the header's."""

    header: Sequence[str]
    rows: Sequence[Sequence[Entry | str]]
    caption: str = ""
    rules: Sequence[int] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        for k, row in enumerate(self.rows):
            if len(row) != len(self.header):
                raise ValueError(f"row {k + 1} has {len(row)} cells, the header {len(self.header)}")

    def entries(self) -> list[list[Entry]]:
        return [[c if isinstance(c, Entry) else Entry(c) for c in row] for row in self.rows]

    def numeric(self) -> list[bool]:
        """Per column: are its cells all numbers (or ``n/a``, or empty), at least one a number?"""
        cells = self.entries()
        return [any(row[j].text.strip() for row in cells)
                and all(_NUMBER.fullmatch(row[j].text.strip()) or not row[j].text.strip() for row in cells)
                for j in range(len(self.header))]


def escape_latex(text: str) -> str:
    """``text`` as LaTeX text: the special characters (``\\ & % $ # _ { } ~ ^ < > | [ ] "``)
    and the window's symbols (``− – — … · α β τ Δ Σ ≤ ≥ × ± ≫ → ↓ ² ∩ ∪ ✓ § “ ”``) as commands;
    a line break as a space."""
    return "".join(LATEX_ESCAPES.get(ch, ch) for ch in text)


def escape_markdown(text: str) -> str:
    """``text`` as a GitHub Markdown table cell: ``\\ | * _ ` < > [ ]`` backslash-escaped, a
    line break as a space."""
    return _MARKDOWN.sub(r"\\\1", text.replace("\n", " "))


def latex(table: PaperTable) -> str:
    """``table`` as LaTeX (booktabs' ``\\toprule``, ``\\midrule``, ``\\bottomrule``; needs
    ``\\usepackage{booktabs}``): a ``tabular`` (numeric columns ``r``, the others ``l``), in a
    ``table`` float with ``\\caption`` when the table has a caption; a captioned table of more than
    :data:`LONG_ROWS` rows is a ``longtable`` (needs ``\\usepackage{longtable}``), its header
    repeated on every page. Bold cells ``\\textbf``,
    marks ``$^{...}$``. Ends with a line break."""
    align = "".join("r" if n else "l" for n in table.numeric())
    header = " & ".join(escape_latex(h) for h in table.header) + " \\\\"
    body = []
    for k, row in enumerate(table.entries()):
        if k in table.rules and k > 0:
            body.append("\\midrule")
        body.append(" & ".join(_latex_cell(c) for c in row) + " \\\\")
    if table.caption and len(table.rows) > LONG_ROWS:
        # a page holds about 45 rows: longer tables (-q's topics) break across pages, the header repeated
        return "\n".join([f"\\begin{{longtable}}{{{align}}}", f"\\caption{{{escape_latex(table.caption)}}} \\\\",
                          "\\toprule", header, "\\midrule", "\\endfirsthead", "\\toprule", header, "\\midrule",
                          "\\endhead", "\\bottomrule", "\\endfoot", *body, "\\end{longtable}"]) + "\n"
    lines = [f"\\begin{{tabular}}{{{align}}}", "\\toprule", header, "\\midrule", *body, "\\bottomrule", "\\end{tabular}"]
    if table.caption:
        lines = ["\\begin{table}", "\\centering", f"\\caption{{{escape_latex(table.caption)}}}", *lines, "\\end{table}"]
    return "\n".join(lines) + "\n"


def _latex_cell(c: Entry) -> str:
    text = escape_latex(c.text)
    if c.bold and text:
        text = f"\\textbf{{{text}}}"
    return text + (f"$^{{\\mathrm{{{escape_latex(c.marks)}}}}}$" if c.marks else "")


def markdown(table: PaperTable) -> str:
    """``table`` as a GitHub Markdown pipe table (numeric columns right-aligned, ``---:``), then,
    when it has a caption, a blank line and ``Table: CAPTION`` (pandoc's caption; GitHub shows it
    as a line). Bold cells ``**...**``, marks ``<sup>...</sup>``. Ends with a line break."""
    align = ["---:" if n else "---" for n in table.numeric()]
    lines = ["| " + " | ".join(escape_markdown(h) for h in table.header) + " |", "| " + " | ".join(align) + " |"]
    for row in table.entries():
        lines.append("| " + " | ".join(_markdown_cell(c) for c in row) + " |")
    if table.caption:
        lines += ["", f"Table: {escape_markdown(table.caption)}"]
    return "\n".join(lines) + "\n"


def _markdown_cell(c: Entry) -> str:
    text = escape_markdown(c.text)
    if c.bold and text:
        text = f"**{text}**"
    return text + (f"<sup>{escape_markdown(c.marks)}</sup>" if c.marks else "")


def write_table(table: PaperTable, format: str) -> str:
    """``table`` in ``format`` (:data:`TABLE_FORMATS`): :func:`latex` or :func:`markdown`. Raises
    ``ValueError`` on another format."""
    if format == "latex":
        return latex(table)
    if format == "markdown":
        return markdown(table)
    raise ValueError(f"a table format is latex or markdown, not {format!r}")


def write_tables(tables: Sequence[PaperTable], format: str) -> str:
    """Several tables in ``format``, a blank line between two."""
    return "\n".join(write_table(t, format) for t in tables)
