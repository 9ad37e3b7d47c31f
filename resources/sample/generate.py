"""Regenerate the sample's qrels and runs from its articles.

Run from the project root after editing an article::

    .venv/bin/python resources/sample/generate.py

The assessor's highlights and the runs' passages are chosen here by PHRASES of the articles'
text, never by hand-typed offsets: each passage runs from the start of a first phrase to the
end of a last phrase, is snapped like the real INEX highlights (starts on a word start, ends
just after a letter, digit or apostrophe, docs/reference.md section 1.4), and is written as UTF-8 byte
offsets of :class:`readsim.core.text.Article` (unit "bytes"). Run passages are whole
elements (paragraphs or sections) found by a phrase they contain.

Writes ``sample.qrels`` (FOL qrels, topic 2026001) and ``runs/*.run`` (FOL 8-field runs).
The topic file and the articles are written by hand.
"""

from __future__ import annotations

import re
from pathlib import Path

from readsim.core.text import Article, is_word_char

HERE = Path(__file__).resolve().parent
ARTICLES = HERE / "articles"
TOPIC = "2026001"

# The assessor's highlights: article -> [(first phrase, last phrase)], in document order.
# Articles judged and found not relevant: listed with no passage.
RELEVANT: dict[str, list[tuple[str, str]]] = {
    "900001": [
        ("It is named after the French physicist", "for lighthouses in the 1820s"),
        ("Before the Fresnel lens, lighthouses", "marks piers and small channels"),
        ("To give each light its own signature", "turn several tonnes of glass"),
    ],
    "900002": [
        ("From the 1820s the", "can be seen from much farther away"),
    ],
    "900003": [
        ("In 1819 Fresnel joined the French lighthouse commission", "his brother Léonor continued the work"),
    ],
    "900004": [],
}

# Runs: run id -> [(article, [phrase locating a retrieved element, ...] or None for the
# whole article)], in rank order. A phrase picks the smallest <p> or <sec> containing it
# (a phrase starting with "sec:" picks the smallest <sec>).
RUNS: dict[str, list[tuple[str, list[str] | None]]] = {
    # Relevant articles first, each with the paragraphs or section that hold the highlights.
    "good-passages": [
        ("900001", ["sec:Before the Fresnel lens, lighthouses"]),
        ("900003", ["In 1819 Fresnel joined"]),
        ("900002", ["From the 1820s the"]),
        ("900004", ["Early fog signals were bells"]),
    ],
    # Every article whole, as one passage 0:length of its text.
    "whole-articles": [
        ("900001", None),
        ("900002", None),
        ("900003", None),
        ("900004", None),
    ],
    # The non-relevant article first; elsewhere paragraphs next to the relevant ones.
    "misses": [
        ("900004", ["Each station sounds its own pattern"]),
        ("900002", ["The best known lighthouse of antiquity", "The lamp itself changed several times"]),
        ("900001", ["An ordinary lens bends light only", "Molded plastic Fresnel lenses"]),
        ("900003", ["In 1818 Fresnel submitted a memoir"]),
    ],
}


def find(text: str, phrase: str, start: int = 0) -> re.Match:
    """The one match of ``phrase`` in ``text[start:]`` (a space matches any run of whitespace).

    Match positions are indices of ``text``. Raises ``ValueError`` unless there is exactly one.
    """
    pattern = re.compile(r"\s+".join(re.escape(word) for word in phrase.split()))
    matches = list(pattern.finditer(text, start))
    if len(matches) != 1:
        raise ValueError(f"phrase {phrase!r} occurs {len(matches)} times (need exactly 1)")
    return matches[0]


def snap(text: str, i: int, j: int) -> tuple[int, int]:
    """Snap string span ``[i, j)`` like the assessors: start on a word char, end after one."""
    while i < j and not is_word_char(text[i]):
        i += 1
    while j > i and not is_word_char(text[j - 1]):
        j -= 1
    if i > 0 and is_word_char(text[i - 1]):
        raise ValueError(f"span starts inside a word: {text[i - 1 : i + 20]!r}")
    return i, j


def highlight(article: Article, first: str, last: str) -> tuple[int, int]:
    """Byte span ``(offset, length)`` of the snapped text from ``first`` to the end of ``last``."""
    a = find(article.text, first)
    b = find(article.text, last, a.start())
    i, j = snap(article.text, a.start(), b.end())
    start, end = article.from_index(i), article.from_index(j)
    return start, end - start


def element_span(article: Article, phrase: str) -> tuple[int, int]:
    """Byte span ``(offset, length)`` of the smallest <p> (or <sec>) containing ``phrase``."""
    tags = ("sec",) if phrase.startswith("sec:") else ("p", "sec")
    phrase = phrase.removeprefix("sec:")
    m = find(article.text, phrase)
    lo, hi = article.from_index(m.start()), article.from_index(m.end())
    best = None
    for e in article.elements:
        if e.tag in tags and e.start <= lo and hi <= e.end and (best is None or e.length < best.length):
            best = e
    if best is None:
        raise ValueError(f"no <{'|'.join(tags)}> holds {phrase!r} in {article.name}")
    return best.start, best.length


def load(name: str) -> Article:
    return Article.from_file(ARTICLES / f"{name}.xml", unit="bytes")


def write_qrels(path: Path) -> None:
    lines = []
    for name, spans in RELEVANT.items():
        article = load(name)
        passages = [highlight(article, first, last) for first, last in spans]
        if not passages:
            lines.append(f"{TOPIC} Q0 {name} 0 {article.doc_length}")
            continue
        rel_size = sum(length for _, length in passages)
        bep = passages[0][0]  # best entry point: the start of the first highlight
        fol = " ".join(f"{offset}:{length}" for offset, length in passages)
        lines.append(f"{TOPIC} Q0 {name} {rel_size} {article.doc_length} {bep} {fol}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_run(run_id: str, ranking: list[tuple[str, list[str] | None]], path: Path) -> None:
    lines = []
    for rank, (name, phrases) in enumerate(ranking, start=1):
        article = load(name)
        rsv = f"{1 - 0.1 * (rank - 1):.2f}"
        spans = [(0, article.length)] if phrases is None else sorted(element_span(article, p) for p in phrases)
        for offset, length in spans:
            lines.append(f"{TOPIC} Q0 {name} {rank} {rsv} {run_id} {offset} {length}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    write_qrels(HERE / "sample.qrels")
    (HERE / "runs").mkdir(exist_ok=True)
    for run_id, ranking in RUNS.items():
        write_run(run_id, ranking, HERE / "runs" / f"{run_id}.run")


if __name__ == "__main__":
    main()
