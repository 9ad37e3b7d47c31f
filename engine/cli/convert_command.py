"""``readsim-eval convert``: qrels, runs and collections from one format to another
(docs/reference.md section 9.8).

``readsim-eval convert qrels IN OUT``, ``convert run IN OUT`` (FOL <-> JSON Lines spans, the
direction from ``--to`` or OUT's suffix: ``.jsonl`` is JSON Lines, anything else FOL; without
either, the other format than IN's) and ``convert collection IN OUT`` (INEX article XML in a
folder or archive -> a JSON Lines file of documents, ``OUT.jsonl`` or ``OUT.jsonl.gz``, or a
folder of ``ID.txt`` files, ``--to txt``), each text giving the article's offsets in ``--unit``.
The converted files evaluate to the same numbers (:mod:`readsim.core.conversions`). Every file is
written atomically, never through a symbolic link nor over anything but a regular file, never
over an input. Exit status as ``readsim-eval`` (:mod:`.common`).
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable, Sequence
from typing import TextIO

from readsim.core.units import UNITS
from .common import EXIT_STATUS_HELP, EXIT_USAGE, Parser, check_paths, min_grade, MIN_GRADE_HELP, option, progress, warn

KINDS = ("qrels", "run", "collection")


def build_parser() -> Parser:
    p = Parser(
        "readsim-eval convert",
        "Convert qrels or a run between FOL and JSON Lines spans, or an INEX collection (a folder or archive of "
        "article XML) to a JSON Lines file of documents or a folder of ID.txt files whose texts give the "
        "articles' offsets. The converted files evaluate to the same numbers.",
        "Format: --to, else OUT's suffix (.jsonl, .jsonl.gz: JSON Lines; for a collection anything else is a "
        "folder of .txt files; for qrels and runs anything else is FOL), else the other format than IN's. "
        "Files are written atomically, never through a symbolic link nor over an input. " + EXIT_STATUS_HELP)
    p.add_argument("kind", choices=KINDS, help="what IN holds")
    p.add_argument("input", metavar="IN", help="the qrels or run file, or the collection (folder or archive)")
    p.add_argument("output", metavar="OUT", help="the file to write (a folder for --to txt)")
    p.add_argument("--to", choices=("fol", "jsonl", "txt"), help="the output format (default: from OUT's suffix)")
    p.add_argument("--unit", choices=UNITS,
                   help="collection: the offset unit the texts must keep (default: the collection's, bytes for "
                   "article XML, characters for other documents)")
    p.add_argument("--min-grade", type=option(min_grade), default=1, metavar="G", help=MIN_GRADE_HELP)
    p.add_argument("--strict", action="store_true", help="runs: reject runs the official INEX tool rejects")
    return p


def main(argv: Sequence[str], out: TextIO, err: TextIO) -> int:
    """``readsim-eval convert ...``; returns the exit status. Raises :class:`InputError` and
    ``OSError`` for the error guard to print as one line."""
    args = build_parser().parse(argv, out, err)
    if isinstance(args, int):
        return args
    to = args.to or _format_of(args.kind, args.output)
    allowed = ("jsonl", "txt") if args.kind == "collection" else ("fol", "jsonl")
    if to is not None and to not in allowed:
        print(f"readsim-eval: convert: --to {to}: a {args.kind} converts to {' or '.join(allowed)}", file=err)
        return EXIT_USAGE
    check_paths([("collection" if args.kind == "collection" else args.kind, args.input)])
    if args.kind == "collection":
        return _collection(args, to or "txt", err)
    return _lines(args, to, err)


def _format_of(kind: str, output: str) -> str | None:
    name = output.lower()
    if name.endswith((".jsonl", ".jsonl.gz")):
        return "jsonl"
    if kind == "collection":
        return "txt"
    return "fol" if name.endswith((".qrels", ".run", ".txt", ".fol")) else None


def _target(path: str, inputs) -> None:
    """Refuse an output that is a symbolic link, is not a regular file, or is an input."""
    from readsim.core.atomic import check_output, not_regular

    what = not_regular(path)
    if what is not None:
        raise OSError(errno.EINVAL, f"is {what}: never written through or over", path)
    check_output(path, inputs)


def _write(path: str, lines: Iterable[str], gz: bool = False) -> int:
    """Write ``lines`` to ``path`` atomically (gzip-compressed when ``gz``); their count."""
    from readsim.core.atomic import atomic_write

    count = 0
    with atomic_write(path, "wb") as fh:
        if gz:
            import gzip
            sink = gzip.GzipFile(fileobj=fh, mode="wb", mtime=0)
        else:
            sink = fh
        block: list[bytes] = []
        for line in lines:
            block.append(line.encode("utf-8"))
            count += 1
            if len(block) >= 4096:
                sink.write(b"".join(block))
                block.clear()
        sink.write(b"".join(block))
        if gz:
            sink.close()
    return count


def _lines(args, to: str | None, err: TextIO) -> int:
    from readsim.core import conversions as cv
    from readsim.core.formats import is_jsonl
    from readsim.core.formats.lines import read_bytes

    data = read_bytes(args.input)
    if to is None:
        to = "fol" if is_jsonl(data) else "jsonl"
    _target(args.output, [(args.kind, args.input)])
    notes: list[str] = []
    if args.kind == "qrels":
        qrels, lines = (cv.qrels_to_jsonl(args.input, data) if to == "jsonl"
                        else cv.qrels_to_fol(args.input, data, args.min_grade))
        warn(qrels.diagnostics, err)
    elif to == "jsonl":
        run, lines, notes = cv.run_to_jsonl(args.input, args.strict, data)
        warn(run.diagnostics, err)
    else:
        run, lines = cv.run_to_fol(args.input, args.strict, data)
        warn(run.diagnostics, err)
    for note in notes:
        print(f"readsim-eval: convert: {note}", file=err)
    count = _write(args.output, lines)
    print(f"readsim-eval: convert: {args.output}: {count:,} lines ({'JSON Lines' if to == 'jsonl' else 'FOL'})",
          file=err)
    return 0


def _collection(args, to: str, err: TextIO) -> int:
    from readsim.core import conversions as cv
    from readsim.core.atomic import atomic_write, not_regular
    from .common import open_collection

    inputs = [("collection", args.input)]
    if to == "jsonl":
        _target(args.output, inputs)
    else:
        what = not_regular(args.output)
        if what is not None and what != "a folder":
            raise OSError(errno.EINVAL, f"is {what}, not a folder: never written through", args.output)
        if os.path.exists(args.output) and os.path.samefile(args.output, args.input):
            raise OSError(errno.EINVAL, "is the collection this command reads; give another folder", args.output)
        os.makedirs(args.output, exist_ok=True)
    collection = open_collection(args.input, args.unit, err)
    report = progress(err, "converting")
    documents = cv.collection_documents(collection, collection.unit, report)
    if to == "jsonl":
        count = _write(args.output, (cv.document_line(*doc) for doc in documents),
                       gz=args.output.lower().endswith(".gz"))
    else:
        count = 0
        for doc_id, _, text in documents:
            path = os.path.join(args.output, cv.txt_name(doc_id))
            _target(path, inputs)
            with atomic_write(path, "wb") as fh:
                fh.write(cv.txt_bytes(doc_id, text))
            count += 1
    where = args.output if to == "jsonl" else os.path.join(args.output, "ID.txt")
    print(f"readsim-eval: convert: {where}: {count:,} documents ({'JSON Lines' if to == 'jsonl' else 'text files'})",
          file=err)
    return 0
