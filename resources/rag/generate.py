"""Regenerate the RAG citation example's qrels, topics and runs from its documents.

Run from the project root after editing a document (``--check`` only checks that the files on
disk are what this script writes)::

    .venv/bin/python resources/rag/generate.py [--check]

Every offset is computed here from the documents' text, never typed by hand: an assessor's
highlight runs from the start of a first phrase to the end of a last phrase; a citing system's
span is a sentence or a paragraph found by a phrase it contains, or a highlight shifted by a
number of characters. Offsets are in characters (Unicode code points, as Python indexes a
``str``), 0-based, end exclusive: evaluate with ``--unit chars``. Before writing, every span is
checked: a highlight's text starts with its first phrase and ends with its last, a sentence or
paragraph span holds its phrase, and every phrase occurs exactly once in its document.

Writes ``topics.jsonl``, ``qrels.jsonl`` and ``runs/*.jsonl``. The documents (``docs/*.txt``) are
written by hand.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOCS = HERE / "docs"

TOPICS: dict[str, str] = {
    "1": "Who invented the espresso machine?",
    "2": "What water temperature is best for brewing coffee?",
    "3": "Where was coffee first drunk?",
    "4": "What is the crema on an espresso?",
    "5": "How much caffeine is in a cup of coffee?",
}

# The assessor's highlights: topic -> [(doc, grade, first phrase, last phrase)]. Grade 2 is the
# answer, grade 1 supporting text; a grade-0 line judges a document non-relevant (no span).
QRELS: dict[str, list[tuple[str, int, str, str]]] = {
    "1": [
        ("espresso", 2, "The first machine that brewed coffee", "at the General Exposition of Turin that year."),
        ("espresso", 1, "Luigi Bezzera of Milan", "sold the machines from 1905."),
    ],
    "2": [
        ("brewing", 2, "The usual advice is 90–96 °C", "hotter water extracts bitter compounds."),
        ("brewing", 1, "At high altitude water boils", "is already in the right range."),
        ("tea", 0, "", ""),
    ],
    "3": [
        ("origins", 2, "The earliest reliable evidence of coffee drinking", "to stay awake during night prayers."),
        ("origins", 1, "The coffee plant, Coffea arabica", "the highlands of south-western Ethiopia."),
    ],
    "4": [
        ("espresso", 2, "made crema: a layer of fine foam", "forms on top of the shot."),
        ("espresso", 1, "Crema holds oils", "it fades within a minute or two."),
        ("brewing", 1, "Freshly roasted beans give more foam", "first water touches the grounds."),
    ],
    "5": [
        ("brewing", 2, "A cup of brewed coffee of 240 millilitres", "about 95 milligrams of caffeine"),
        ("brewing", 1, "a single shot of espresso", "about 63 milligrams."),
    ],
}

# The citing systems: run -> topic -> [(doc, how, phrase)] in rank order. how: "sentence" (the
# sentence holding the phrase), "paragraph" (the paragraph holding it), "span" (exactly the
# phrase), or "shift N" (the assessor's highlight beginning with the phrase, moved N characters).
RUNS: dict[str, dict[str, list[tuple[str, str, str]]]] = {
    # Cites the sentences that answer, in the right documents, first.
    "precise": {
        "1": [("espresso", "sentence", "The first machine that brewed coffee"),
              ("espresso", "sentence", "Luigi Bezzera of Milan")],
        "2": [("brewing", "sentence", "The usual advice is 90–96 °C")],
        "3": [("origins", "sentence", "The earliest reliable evidence"),
              ("origins", "span", "grows wild in the highlands of south-western Ethiopia.")],
        "4": [("espresso", "sentence", "made crema: a layer of fine foam"),
              ("espresso", "sentence", "Crema holds oils")],
        "5": [("brewing", "span", "A cup of brewed coffee of 240 millilitres holds about 95 milligrams of caffeine"),
              ("tea", "sentence", "A cup of black tea")],
    },
    # Cites whole paragraphs (often the neighbouring one), a non-relevant document first, or the
    # right passage shifted by some characters.
    "paragraphs": {
        "1": [("espresso", "paragraph", "Espresso is coffee brewed"),
              ("espresso", "paragraph", "Luigi Bezzera of Milan")],
        "2": [("tea", "paragraph", "Green tea is brewed at"),
              ("brewing", "paragraph", "The usual advice is"),
              ("brewing", "paragraph", "At high altitude")],
        "3": [("origins", "shift 60", "The earliest reliable evidence of coffee drinking"),
              ("origins", "shift -40", "The coffee plant, Coffea arabica")],
        "4": [("brewing", "paragraph", "Freshly roasted beans"),
              ("espresso", "paragraph", "made crema")],
        "5": [("espresso", "paragraph", "Espresso is coffee brewed"),
              ("brewing", "paragraph", "A cup of brewed coffee")],
    },
}


def read_docs() -> dict[str, str]:
    # newline="" keeps the text exactly as stored (offsets count every character, reference 2.13)
    out = {}
    for path in sorted(DOCS.glob("*.txt")):
        with path.open(encoding="utf-8", newline="") as f:
            out[path.stem] = f.read()
    return out


def find_once(text: str, phrase: str, doc: str) -> int:
    at = text.find(phrase)
    if at < 0 or text.find(phrase, at + 1) >= 0:
        raise ValueError(f"{doc}: the phrase {phrase!r} must occur exactly once (found {text.count(phrase)})")
    return at


def paragraphs(text: str) -> list[tuple[int, int]]:
    """The paragraphs: runs of non-blank lines, from their first character to their last."""
    return [(m.start(), m.end()) for m in re.finditer(r"\S(?:.|\n(?!\s*\n))*\S|\S", text)]


def sentences(text: str) -> list[tuple[int, int]]:
    """The sentences inside each paragraph: up to a full stop, question or exclamation mark."""
    out = []
    for start, end in paragraphs(text):
        for m in re.finditer(r"[^\s].*?(?:[.?!](?=\s|$)|$)", text[start:end], re.S):
            out.append((start + m.start(), start + m.end()))
    return out


def enclosing(units: list[tuple[int, int]], at: int, length: int, what: str, doc: str) -> tuple[int, int]:
    for start, end in units:
        if start <= at and at + length <= end:
            return start, end
    raise ValueError(f"{doc}: no {what} holds the phrase at {at}")


def highlight(text: str, doc: str, first: str, last: str) -> tuple[int, int]:
    start = find_once(text, first, doc)
    end = text.index(last, start) + len(last)
    return start, end


def build() -> dict[str, str]:
    """The files this script writes: path relative to this folder -> content."""
    docs = read_docs()
    lines = [json.dumps({"topic": t, "title": title}, ensure_ascii=False) for t, title in TOPICS.items()]
    files = {"topics.jsonl": "\n".join(lines) + "\n"}

    qrels = []
    for topic, spans in QRELS.items():
        for doc, grade, first, last in spans:
            text = docs[doc]
            line = {"topic": topic, "doc": doc}
            if grade > 0:
                start, end = highlight(text, doc, first, last)
                cut = text[start:end]
                assert cut.startswith(first) and cut.endswith(last), (doc, first, last)
                line |= {"start": start, "end": end}
            line |= {"grade": grade, "doc_length": len(text)}
            qrels.append(json.dumps(line, ensure_ascii=False))
    files["qrels.jsonl"] = "\n".join(qrels) + "\n"

    for run, topics in RUNS.items():
        out = []
        for topic, cited in topics.items():
            for rank, (doc, how, phrase) in enumerate(cited, 1):
                text = docs[doc]
                at = find_once(text, phrase, doc)
                if how == "span":
                    start, end = at, at + len(phrase)
                elif how in ("sentence", "paragraph"):
                    units = sentences(text) if how == "sentence" else paragraphs(text)
                    start, end = enclosing(units, at, len(phrase), how, doc)
                elif how.startswith("shift "):
                    first, last = next((f, la) for d, g, f, la in QRELS[topic] if d == doc and f == phrase)
                    start, end = highlight(text, doc, first, last)
                    shift = int(how.split()[1])
                    start, end = max(0, start + shift), min(len(text), end + shift)
                else:
                    raise ValueError(how)
                assert 0 <= start < end <= len(text)
                assert how.startswith("shift") or phrase in text[start:end], (run, topic, phrase)
                score = round(1.0 - 0.1 * rank, 2)
                out.append(json.dumps({"topic": topic, "doc": doc, "start": start, "end": end, "rank": rank,
                                       "score": score, "run": run}, ensure_ascii=False))
        files[f"runs/{run}.jsonl"] = "\n".join(out) + "\n"
    return files


def spans_text() -> list[tuple[str, str, int, str]]:
    """Each highlight of the qrels files on disk with its text: (topic, doc, grade, text)."""
    docs = read_docs()
    out = []
    for line in (HERE / "qrels.jsonl").read_text(encoding="utf-8").splitlines():
        q = json.loads(line)
        if q["grade"] > 0:
            out.append((q["topic"], q["doc"], q["grade"], docs[q["doc"]][q["start"]:q["end"]]))
    return out


def stale() -> list[str]:
    """The files on disk that differ from what :func:`build` writes (empty: all up to date)."""
    return [name for name, content in build().items()
            if not (HERE / name).is_file() or (HERE / name).read_text(encoding="utf-8") != content]


def main(argv: list[str]) -> int:
    if "--check" in argv:
        bad = stale()
        for name in bad:
            print(f"{HERE / name}: not what generate.py writes; run it", file=sys.stderr)
        return 1 if bad else 0
    for name, content in build().items():
        (HERE / name).parent.mkdir(exist_ok=True)
        with (HERE / name).open("w", encoding="utf-8", newline="\n") as f:
            f.write(content)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
