"""``readsim-eval --elements``: element assessments and the INEX 2002/2003 element metrics.

::

    readsim-eval QRELS --collection DIR --elements [--format tsv|jsonl] [--e-cuts A,B] [--s-cuts A,B]
    readsim-eval QRELS --collection DIR --elements --write-assessments FILE
    readsim-eval QRELS [RUN ...] --collection DIR --elements [--simulated perfect|ancestors ...] [-m MEASURE ...] [-q] [-c]

QRELS is a FOL qrels file (the assessments are then derived from its highlighting, see
:mod:`readsim.core.element_retrieval.assessments`) or an assessments XML (read as it is; a file starting with
``<``). Without runs, one row per assessed element: ``topic article xpath size rsize e s`` (tab
separated, after a header row ``#topic<TAB>article<TAB>...`` naming the columns; ``--format
jsonl``: objects with these keys), sizes in the ``--unit``; ``--write-assessments FILE`` writes
them as XML instead (atomically, only over a regular file that is none of the command's inputs:
:func:`readsim.core.atomic.check_output`; ``-`` writes the XML to standard output). With RUNs (element runs:
7-field XPath lines or XML ``<path>`` runs, every line one ranked element) or ``--simulated``
runs, the element measures (``AP_2002/gen`` ...; default the six AP measures) as
``readsim-eval`` prints list measures: a ``runid`` row, then ``measure<TAB>topic<TAB>value``,
``all`` for the mean. A ``-m`` measure naming an element metric sends the command here even
without ``--elements``. Simulated runs use the topics whose relevant articles are all in the
collection (run topics too when RUNs are given); ``-c`` averages over every assessed topic.

Exit status as ``readsim-eval`` (:mod:`.common`): 1 bad input (``file:line: reason``), 2 bad usage (an unknown or
mixed measure, a missing ``--collection``, bad cut points).
"""

from __future__ import annotations

import argparse
import json
import os
import re
from typing import TextIO

from .common import EXIT_USAGE, check_paths, open_collection, warn, write_evaluation

_LOOKS = re.compile(r"\s*(?:AP|iP)_20")


def wants_elements(args) -> bool:
    """True when the command line asks for element work: ``--elements``, ``--simulated``,
    ``--write-assessments`` or a ``-m`` measure that starts like an element measure."""
    return bool(getattr(args, "elements", False) or getattr(args, "simulated", None)
                or getattr(args, "write_assessments", None)
                or any(_LOOKS.match(m) for m in (getattr(args, "measures", None) or ())))


def cuts_type(text: str):
    """argparse ``type=`` of ``--e-cuts``/``--s-cuts``: ``1/3,2/3`` -> two fractions."""
    from readsim.core.element_retrieval.assessments import parse_cuts

    try:
        return parse_cuts(text, "cut points")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run_elements(args, out: TextIO, err: TextIO) -> int:
    from readsim.core.element_retrieval import evaluate_elements
    from readsim.operations.inputs import diagnostics_to
    from readsim.elements import derive_assessments

    from readsim.core.element_retrieval import (DEFAULT_MEASURES, Cuts, parse_element_measure, read_assessments,
                            read_element_run, simulated_element_run, write_assessments)
    from readsim.core.element_retrieval.assessments import complete_topics, is_assessments_xml
    from readsim.core.measure import UnknownMeasure

    def usage(message: str) -> int:
        print(f"readsim-eval: {message}", file=err)
        return EXIT_USAGE

    if not args.collection:
        return usage("element evaluation (--elements, --simulated, element measures) needs --collection DIR: "
                     "the articles give every element's span")
    for flag, on in (("--per-article", args.per_article), ("--check", args.check)):
        if on:
            return usage(f"{flag} cannot be combined with element evaluation")
    ignored = [flag for flag, on in (("--as-documents", args.as_documents), ("--plain-gp", args.plain_gp),
                                     ("--reading", args.reading != "natural"), ("--levels", args.levels != 4)) if on]
    if ignored:
        print(f"readsim-eval: warning: {', '.join(ignored)} ignored: element measures read no passages", file=err)
    try:
        measures = [parse_element_measure(m) for m in (args.measures or DEFAULT_MEASURES)]
    except UnknownMeasure as exc:
        others = [m for m in (args.measures or ()) if not _LOOKS.match(m)]
        if others:
            return usage(f"{others[0].strip()} is not an element measure; element measures (AP_2002/gen, "
                         "AP_2003o/strict, iP_2003s[0.50]/gen ...) cannot be mixed with article measures")
        return usage(str(exc))
    measures = list(dict.fromkeys(measures))
    cuts = Cuts(getattr(args, "e_cuts", None) or Cuts().exh, getattr(args, "s_cuts", None) or Cuts().spec)
    simulated = list(dict.fromkeys(getattr(args, "simulated", None) or ()))
    inputs = [("qrels", args.qrels), *(("run", r) for r in args.runs), ("collection", args.collection)]
    check_paths(inputs)
    if args.write_assessments and args.write_assessments != "-":
        from readsim.core.atomic import check_output

        check_output(args.write_assessments, inputs)  # before any work; atomic_write checks again
    collection = open_collection(args.collection, args.unit, err)
    runs = []
    for path in args.runs:
        run = read_element_run(path, collection, strict=args.strict)
        warn(run.diagnostics, err)
        runs.append(run)
    data = _head(args.qrels)
    if is_assessments_xml(data):
        assessments = read_assessments(args.qrels, collection, cuts, None if os.path.isfile(args.qrels) else data)
        warn(assessments.diagnostics, err)
    else:
        qrels = _qrels(args.qrels, data)
        warn(qrels.diagnostics, err)
        if (not runs and not simulated) or args.complete:
            topics = list(qrels.topics)
        else:
            wanted = set(complete_topics(qrels, collection)) if simulated else set()
            for run in runs:
                wanted.update(run.topics)
            topics = [t for t in qrels.topics if t in wanted]
        with diagnostics_to(lambda diagnostics: warn(diagnostics, err)):
            assessments = derive_assessments(qrels, collection, topics, cuts)  # the API's, its warnings here
    if args.write_assessments:
        if args.write_assessments == "-":
            from readsim.core.element_retrieval.assessments import assessments_xml

            out.write_binary(assessments_xml(assessments, collection))
            where = "standard output"
        else:
            write_assessments(assessments, args.write_assessments, collection)
            where = args.write_assessments
        count = sum(len(a.listed) for t in assessments.topics.values() for a in t.articles.values())
        print(f"readsim-eval: wrote {count} assessed elements of {len(assessments.topics)} topics to {where}",
              file=err)
    if not runs and not simulated:
        if not args.write_assessments:
            _print_rows(assessments, args.format, out)
        return 0
    if simulated:
        complete = assessments.complete_topics()
        if not complete:
            from readsim.core.errors import InputError

            raise InputError(args.collection, None, "no topic has all its relevant articles in the collection: "
                                                    "the simulated runs need complete topics")
        runs += [simulated_element_run(name, assessments, complete) for name in simulated]
    for run in runs:
        result = evaluate_elements(assessments, run, measures, args.complete)
        warn(result.diagnostics, err)
        write_evaluation(result, args.per_topic, args.format, out)
    return 0


def _head(path) -> bytes:
    """The first 512 bytes of a regular file (enough to tell XML from FOL), or the whole of
    anything else (a pipe can be read only once)."""
    from readsim.core.formats.lines import read_bytes

    if os.path.isfile(path):
        try:
            with open(path, "rb") as fh:
                return fh.read(512)
        except OSError:
            pass  # read_bytes names the reason
    return read_bytes(path)


def _qrels(path, data: bytes):
    """FOL qrels from ``path``, or from ``data`` when that is the whole of a pipe."""
    from readsim.core.formats import qrels as fol

    if os.path.isfile(path):
        return fol.read_qrels(path)
    cols = fol._scan(data)  # a pipe: parse the bytes already read (read_qrels would read it again)
    return fol._qrels(str(path), cols if cols is not None else fol._read_lines(path, data))


COLUMNS = ("topic", "article", "xpath", "size", "rsize", "e", "s")


def _print_rows(assessments, fmt: str, out: TextIO) -> None:
    """One row per assessed element: tsv after a ``#topic<TAB>article...`` header row, or jsonl."""
    rows: list[str] = [] if fmt == "jsonl" else ["#" + "\t".join(COLUMNS) + "\n"]
    for r in assessments.rows():
        if fmt == "jsonl":
            rows.append(json.dumps(dict(zip(COLUMNS, (r.topic, r.article, r.xpath, r.size, r.rsize, r.e, r.s))))
                        + "\n")
        else:
            rows.append(f"{r.topic}\t{r.article}\t{r.xpath}\t{r.size}\t{r.rsize}\t{r.e}\t{r.s}\n")
        if len(rows) >= 4096:
            out.write("".join(rows))
            rows.clear()
    if rows:
        out.write("".join(rows))
