"""A sandbox article: a short text typed or pasted, its relevant text and its retrieved passages
marked by hand, as a collection of one plain-text document, qrels and a run (docs/reference.md
section 9.2.2).

- :class:`Sandbox`: the text (a ``str``), the relevant spans and the retrieved passages, each a
  tuple of ``(start, end)`` pairs in **characters**, 0-based, end exclusive; the retrieved
  passages in the order given (their rank order in the run file).
- :func:`read_sandbox` / :func:`sandbox_json`: the ``.readsim-sandbox`` file (JSON, UTF-8) read
  with every field checked (an :class:`~readsim.core.errors.InputError` ``FILE: field NAME:
  reason``), and written back.
- :func:`save_sandbox`: a folder that ``readsim`` and ``readsim-eval`` read as they read any
  data: ``doc.txt`` (the collection: the folder), ``sandbox.qrels`` and ``sandbox.qrels.jsonl``,
  ``sandbox.run`` and ``sandbox.run.jsonl``, and the ``.readsim-sandbox`` file itself; every
  file written atomically (:mod:`readsim.core.atomic`), never through a symbolic link.

The article is ``doc``, the topic ``sandbox``, the run ``sandbox``; offsets are characters, the
unit of a collection of plain text (reference 2.13).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from . import atomic
from .errors import InputError

FORMAT = "readsim-sandbox"
VERSION = 1
SUFFIX = ".readsim-sandbox"
TOPIC = "sandbox"
ARTICLE = "doc"
RUN_ID = "sandbox"
MAX_CHARS = 200_000  # a sandbox is a short text: the longest article a class types or pastes
MAX_FILE_BYTES = 4 * MAX_CHARS + 1_000_000  # the text in UTF-8 (at most 4 bytes a character) and its spans
MAX_SPANS = 1_000
MAX_DIGITS = 30  # an integer's digits; every offset is below 200,000
_FIELDS = ("format", "version", "text", "relevant", "retrieved", "note")

#: the names of the files :func:`save_sandbox` writes, by kind
FILES = {"collection": "doc.txt", "qrels": "sandbox.qrels", "qrels_jsonl": "sandbox.qrels.jsonl",
         "run": "sandbox.run", "run_jsonl": "sandbox.run.jsonl", "sandbox": "sandbox" + SUFFIX}

Span = tuple[int, int]


@dataclass(frozen=True)
class Sandbox:
    """One article typed by hand: ``text`` (at most :data:`MAX_CHARS` characters), ``relevant``
    (the assessor's spans) and ``retrieved`` (the run's passages, in rank order), ``(start, end)``
    pairs in characters, 0-based, end exclusive, ``0 <= start < end <= len(text)``; ``note``:
    a line shown with it (where the example comes from)."""

    text: str
    relevant: tuple[Span, ...] = ()
    retrieved: tuple[Span, ...] = ()
    note: str = ""

    def problem(self) -> str | None:
        """Why this sandbox cannot be evaluated (``field NAME: reason``), or None."""
        if not self.text:
            return "field text: is empty: type or paste a text"
        if len(self.text) > MAX_CHARS:
            return f"field text: has {len(self.text):,} characters; a sandbox holds at most {MAX_CHARS:,}"
        if self.text[0] == "\ufeff":
            return "field text: starts with a byte-order mark (U+FEFF), which a text file does not keep"
        for i, ch in enumerate(self.text):
            if "\ud800" <= ch <= "\udfff":
                return f"field text: character {i} is a lone surrogate (U+{ord(ch):04X}), not text"
        for kind in ("relevant", "retrieved"):
            spans = getattr(self, kind)
            if len(spans) > MAX_SPANS:
                return f"field {kind}: has {len(spans):,} spans; at most {MAX_SPANS:,}"
            for k, (start, end) in enumerate(spans):
                if not 0 <= start < end <= len(self.text):
                    return (f"field {kind}[{k}]: [{start}, {end}] is not a span of the text: give "
                            f"0 <= start < end <= {len(self.text)} (characters, end exclusive)")
        return None


def shipped_examples() -> list[Path]:
    """The shipped sandbox files (``resources/sandbox/*.readsim-sandbox``, seed 003's worked
    examples), sorted by name."""
    package = __package__.rsplit(".", 1)[0] + ".resources"  # readsim.resources
    root = Path(str(resources.files(package).joinpath("sandbox")))
    return sorted(root.glob("*" + SUFFIX))


def _fail(path, name: str, reason: str) -> InputError:
    return InputError(path, None, f"field {name}: {reason}" if name else reason)


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a whole number of more than {MAX_DIGITS} digits")
    return int(text)


def _constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def _spans(path, name: str, value) -> tuple[Span, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise _fail(path, name, f"must be a list of [start, end] pairs, not {type(value).__name__}")
    out = []
    for k, pair in enumerate(value):
        where = f"{name}[{k}]"
        if not (isinstance(pair, list) and len(pair) == 2):
            raise _fail(path, where, f"must be a [start, end] pair of whole numbers, not {json.dumps(pair)[:60]}")
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in pair):
            raise _fail(path, where, f"start and end must be whole numbers, not {json.dumps(pair)[:60]}")
        out.append((pair[0], pair[1]))
    return tuple(out)


def parse_sandbox(path, raw: bytes) -> Sandbox:
    """A sandbox from the bytes of a ``.readsim-sandbox`` file named ``path``.

    Raises :class:`InputError` ``PATH: field NAME: reason`` (``PATH: reason`` for the file as a
    whole): more than :data:`MAX_FILE_BYTES` bytes, not UTF-8, not JSON (or nested too deep, a
    number of more than 30 digits, ``NaN``), not an object with ``"format": "readsim-sandbox"``,
    a version above 1, an unknown field, a text that is not a string or is empty, too long, holds a
    lone surrogate or starts with U+FEFF, spans that are not ``[start, end]`` pairs of whole
    numbers with ``0 <= start < end <= len(text)``, more than 1,000 spans."""
    if len(raw) > MAX_FILE_BYTES:
        raise _fail(path, "", f"{len(raw):,} bytes: a sandbox file is at most {MAX_FILE_BYTES:,}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise _fail(path, "", f"not UTF-8 text (byte {err.start}: {err.reason})") from err
    try:
        obj = json.loads(text, parse_int=_integer, parse_constant=_constant)
    except RecursionError as err:
        raise _fail(path, "", "not a sandbox: JSON nested too deep") from err
    except ValueError as err:
        raise _fail(path, "", f"not JSON: {err}") from err
    if not isinstance(obj, dict):
        raise _fail(path, "", f"not a sandbox: a JSON object is needed, not {type(obj).__name__}")
    if obj.get("format") != FORMAT:
        raise _fail(path, "format", f'must be "{FORMAT}", not {json.dumps(obj.get("format"))[:60]}')
    version = obj.get("version", VERSION)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _fail(path, "version", f"must be a whole number from 1, not {json.dumps(version)[:40]}")
    if version > VERSION:
        raise _fail(path, "version", f"is {version}; this readsim reads sandbox version {VERSION}")
    for key in obj:
        if key not in _FIELDS:
            raise _fail(path, key[:60], f"unknown field (a sandbox has {', '.join(_FIELDS)})")
    body = obj.get("text")
    if not isinstance(body, str):
        raise _fail(path, "text", f"must be a string, not {type(body).__name__}")
    note = obj.get("note", "")
    if not isinstance(note, str):
        raise _fail(path, "note", f"must be a string, not {type(note).__name__}")
    box = Sandbox(body, _spans(path, "relevant", obj.get("relevant")),
                  _spans(path, "retrieved", obj.get("retrieved")), note[:500])
    problem = box.problem()
    if problem is not None:
        raise InputError(path, None, problem)
    return box


def read_sandbox(path: str | os.PathLike) -> Sandbox:
    """The sandbox in the file ``path`` (:func:`parse_sandbox`; ``OSError`` when it cannot be
    read, ``InputError`` when it is not a regular file or is too large)."""
    name = os.fspath(path)
    if os.path.exists(name) and not os.path.isfile(name):  # a FIFO would block, a device never end
        raise _fail(name, "", "not a regular file")
    with open(name, "rb") as fh:
        raw = fh.read(MAX_FILE_BYTES + 1)
    return parse_sandbox(name, raw)


def sandbox_json(box: Sandbox) -> str:
    """The ``.readsim-sandbox`` file of ``box``: JSON, one span a line, ending in a line feed."""
    def spans(values) -> str:
        return "[" + ", ".join(f"[{s}, {e}]" for s, e in values) + "]"

    head = {"format": FORMAT, "version": VERSION}
    if box.note:
        head["note"] = box.note
    lines = [json.dumps(head, ensure_ascii=False)[:-1] + ",",
             f' "text": {json.dumps(box.text, ensure_ascii=False)},',
             f' "relevant": {spans(box.relevant)},', f' "retrieved": {spans(box.retrieved)}}}']
    return "\n".join(lines) + "\n"


def _union(spans) -> list[Span]:
    out: list[list[int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return [(s, e) for s, e in out]


def qrels_lines(box: Sandbox) -> tuple[str, str]:
    """The qrels of ``box`` as ``(FOL, JSON Lines)`` text (reference 2.2, 2.11): one judgement of
    article ``doc`` for topic ``sandbox``, its passages the union of the relevant spans, its
    doc_length the text's length in characters, its best entry point the first relevant
    character; judged non-relevant (rel_size 0, grade 0) when
    nothing is marked relevant."""
    n, rel = len(box.text), _union(box.relevant)
    size = sum(e - s for s, e in rel)
    bep = f" {rel[0][0]}" if rel else ""  # the best entry point: the first relevant character
    fol = f"{TOPIC} Q0 {ARTICLE} {size} {n}{bep}" + "".join(f" {s}:{e - s}" for s, e in rel) + "\n"
    if rel:
        rows = [{"topic": TOPIC, "doc": ARTICLE, "start": s, "end": e, "grade": 1, "doc_length": n, "bep": rel[0][0]}
                for s, e in rel]
    else:
        rows = [{"topic": TOPIC, "doc": ARTICLE, "grade": 0, "doc_length": n}]
    return fol, "".join(json.dumps(r) + "\n" for r in rows)


def run_lines(box: Sandbox) -> tuple[str, str]:
    """The run of ``box`` as ``(FOL, JSON Lines)`` text (reference 2.3, 2.11): article ``doc`` at
    rank 1 of topic ``sandbox``, one line per retrieved passage in the order given; nothing
    retrieved is the line ``offset 0 length 0`` (the article keeps its rank, 2.3)."""
    passages = list(box.retrieved) or [(0, 0)]
    fol = "".join(f"{TOPIC} Q0 {ARTICLE} 1 1 {RUN_ID} {s} {e - s}\n" for s, e in passages)
    rows = [{"topic": TOPIC, "doc": ARTICLE, "start": s, "end": e, "rank": 1, "run": RUN_ID} for s, e in passages]
    return fol, "".join(json.dumps(r) + "\n" for r in rows)


def _refuse_link(path: Path) -> None:
    if path.is_symlink():
        raise OSError(0, "is a symbolic link: a sandbox is never written through a link", str(path))


def save_sandbox(box: Sandbox, folder: str | os.PathLike) -> dict[str, Path]:
    """Write ``box`` into ``folder`` (created if missing, its parent must exist; an existing one
    may hold only the files of :data:`FILES`, as a sandbox saved before) as the files of
    :data:`FILES`; returns their paths by kind. ``readsim-eval --collection FOLDER --qrels
    FOLDER/sandbox.qrels FOLDER/sandbox.run`` then scores it (in characters, the collection's
    unit). Every file is written atomically.

    Raises ``ValueError`` with :meth:`Sandbox.problem`'s text for a sandbox that cannot be
    evaluated; ``OSError`` naming the path when the folder or one of the files is a symbolic
    link (never written through) or is not a regular file, ``FileExistsError`` naming the folder
    when it holds other files (they would be read as the collection's documents), or when a write
    fails."""
    problem = box.problem()
    if problem is not None:
        raise ValueError(problem)
    root = Path(folder)
    _refuse_link(root)
    if not root.exists():
        root.mkdir()
    elif not root.is_dir():
        raise NotADirectoryError(20, "Not a directory", str(root))
    else:
        others = sorted(p.name for p in root.iterdir() if p.name not in FILES.values())
        if others:
            shown = ", ".join(others[:3]) + (", …" if len(others) > 3 else "")
            raise FileExistsError(17, f"holds other files ({shown}): the folder is the sandbox's collection; "
                                      "choose a new or empty folder", str(root))
    paths = {kind: root / name for kind, name in FILES.items()}
    for path in paths.values():
        _refuse_link(path)
    qrels_fol, qrels_jsonl = qrels_lines(box)
    run_fol, run_jsonl = run_lines(box)
    contents = {"collection": box.text, "qrels": qrels_fol, "qrels_jsonl": qrels_jsonl,
                "run": run_fol, "run_jsonl": run_jsonl, "sandbox": sandbox_json(box)}
    for kind, path in paths.items():
        atomic.write_text(path, contents[kind], newline="")
    return paths
