"""Do the inputs fit together? Warnings about qrels, runs and a collection that do not match.

Each file may be fine on its own and still be useless with the others: an empty qrels file, a
run whose topics the qrels never judged (a 2008 run against 2009 qrels), a collection folder
that lacks the run's articles. :func:`check_coverage` finds these and returns them as
:class:`~readsim.core.errors.Diagnostic` warnings (the work goes on); the CLI prints them,
the window shows them in its log and status bar. Every message gives a count and the first
few ids (:data:`FIRST`), in file order, and its wording matches the warnings of
:func:`readsim.core.listmeasures.evaluate` (``... not in the qrels; ignored``, ``... no
relevant article; excluded from the mean``).

:func:`check_input_path` is the check to make before opening a file the user named: it turns
a missing file, a folder, a FIFO or a device into an :class:`~readsim.core.errors.InputError`
(``path: reason``) without opening it, so a reader never blocks on a named pipe;
:func:`run_paths` lists a folder of runs (``readsim-eval compare --runs DIR``, the Runs window).

Pure Python; no Qt.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import Diagnostic, InputError
from .formats.qrels import Qrels
from .formats.run import Run

if TYPE_CHECKING:  # the XML model (lxml) is imported only where an article is read
    from .collection import Collection

FIRST = 3
"""How many ids a message lists after ``first:``."""

KINDS = ("collection", "qrels", "run", "topics", "segments")


def first_ids(ids: Sequence[str], first: int = FIRST) -> str:
    """``"a, b, c"``: the first ``first`` of ``ids`` (``", ..."`` is not added; the count says it)."""
    return ", ".join(str(i) for i in ids[:first])


def check_coverage(qrels: Qrels | None, runs: Run | Iterable[Run] = (), collection: Collection | None = None,
                   *, names: AbstractSet[str] | None = None, first: int = FIRST) -> list[Diagnostic]:
    """Warnings about inputs that do not fit together, in this order:

    1. ``qrels`` holds no judgement at all (an empty file): every article is non-relevant;
    2. judged topics with no relevant article (count, first ids; excluded from the mean);
    3. ``collection`` holds no article (no ``*.xml`` file anywhere below its folder);
    4. per run (``runs`` is one :class:`Run` or several): a run with no result line; topics of
       the run not judged in the qrels (count, first ids; "none ... is in the qrels" when it is
       every topic); articles of the run the collection lacks (count of distinct article ids,
       first ids);
    5. relevant articles the collection lacks, over the runs' topics (all judged topics when no
       run is given): count and first ids, once.

    Checks that need an absent input are skipped (no qrels: 1, 2 and the topic checks; no
    collection: 3 and the article checks; an empty qrels file: 2 and the topic checks, as 1 says
    it all; an empty collection: the article checks). ``names`` is the collection's set of
    article names when the caller already has it (else :meth:`Collection.names` walks the
    folder once). ``first``: how many ids each message lists.

    Returns a list of :class:`Diagnostic` (path: the file or folder the warning is about, no
    line); never raises for well-formed inputs. Cost: O(result lines + judgements) set
    look-ups, plus one walk of the collection folder when ``names`` is not given.
    """
    run_list = [runs] if isinstance(runs, Run) else list(runs)
    out: list[Diagnostic] = []
    empty_qrels = qrels is not None and not any(qrels.topics.values())
    if qrels is not None:
        if empty_qrels:
            out.append(Diagnostic(qrels.path, None, "no judgement (the qrels file is empty); "
                                  "every article counts as non-relevant and every mean is 0"))
        else:
            no_rel = [t for t in sorted(qrels.topics) if qrels.nrel(t) == 0]
            if no_rel:
                what = f"judged topic {no_rel[0]} has" if len(no_rel) == 1 else \
                    f"{len(no_rel)} judged topics (first: {first_ids(no_rel, first)}) have"
                out.append(Diagnostic(qrels.path, None, f"{what} no relevant article; excluded from the mean"))
    have: AbstractSet[str] | None = None
    if collection is not None:
        have = names if names is not None else set(collection.names())
        if not have:
            out.append(Diagnostic(str(collection.root), None, "no article (no .xml, .txt, .md or .html file) in the collection folder"))
    for run in run_list:
        out += _run_coverage(run, None if empty_qrels else qrels, collection, have or None, first)
    if qrels is not None and not empty_qrels and collection is not None and have:
        if run_list:
            topics, scope = dict.fromkeys(t for run in run_list for t, e in run.topics.items() if e), "of the run's topics "
        else:
            topics, scope = dict.fromkeys(qrels.topics), ""
        out += _relevant_coverage(qrels, topics, scope, collection, have, first)
    return out


def _run_coverage(run: Run, qrels: Qrels | None, collection: Collection | None,
                  have: AbstractSet[str] | None, first: int) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    topics = [t for t, entries in run.topics.items() if entries]
    if not topics:
        return [Diagnostic(run.path, None, "no result line (the run is empty); every mean is 0")]
    if qrels is not None:
        unjudged = [t for t in topics if t not in qrels.topics]
        if unjudged and len(unjudged) == len(topics):
            what = f"topic {topics[0]} of the run is not" if len(topics) == 1 else \
                f"none of the {len(topics)} topics of the run (first: {first_ids(topics, first)}) is"
            out.append(Diagnostic(run.path, None, f"{what} in the qrels; every mean is 0"))
        elif unjudged:
            what = f"topic {unjudged[0]} of the run is" if len(unjudged) == 1 else \
                f"{len(unjudged)} topics of the run (first: {first_ids(unjudged, first)}) are"
            out.append(Diagnostic(run.path, None, f"{what} not in the qrels; ignored"))
    if have is None:
        return out
    root = collection.root if collection is not None else ""
    articles = list(dict.fromkeys(a for t in topics for a in run.article_names(t)))
    missing = [a for a in articles if a not in have]
    if missing:
        out.append(missing_articles(run.path, articles, missing, root,
                                    "scored from the qrels and the run alone (not shown, not clipped)", first))
    return out


def missing_articles(path: str, articles: Sequence[str], missing: Sequence[str], root, consequence: str,
                     first: int = FIRST) -> Diagnostic:
    """The one warning about the ``missing`` articles of a run (its distinct ``articles``, file
    order) that the collection folder ``root`` lacks: the count, the first ids, then
    ``consequence`` (what becomes of them). List and element evaluation both word it so."""
    if len(articles) == 1:
        what = f"article {missing[0]}, the only one of the run, is not"
    elif len(missing) == len(articles):
        what = f"none of the {len(articles)} articles of the run (first: {first_ids(missing, first)}) is"
    else:
        what = f"{len(missing)} of the {len(articles)} articles of the run (first: {first_ids(missing, first)}) " \
            + ("is not" if len(missing) == 1 else "are not")
    return Diagnostic(path, None, f"{what} in the collection {root}; {consequence}")


def _relevant_coverage(qrels: Qrels, topics: Iterable[str], scope: str, collection: Collection,
                       have: AbstractSet[str], first: int) -> list[Diagnostic]:
    relevant = list(dict.fromkeys(a for t in topics for a in qrels.relevant_articles(t)))
    lacking = [a for a in relevant if a not in have]
    if not lacking:
        return []
    return [Diagnostic(qrels.path, None, f"{len(lacking)} of the {len(relevant)} relevant articles {scope}"
                       f"(first: {first_ids(lacking, first)}) {'is' if len(lacking) == 1 else 'are'} not in the "
                       f"collection {collection.root}; "
                       "they have no text to show or clip")]


def check_input_path(path: str | os.PathLike, kind: str, pipes: bool = False) -> Path:
    """Check, without opening it, that ``path`` can be read as a ``kind`` input
    (``collection``: a folder; ``qrels``, ``run``, ``topics``, ``segments``: a regular file, or with
    ``pipes=True`` also a FIFO, for a command line's ``<(grep ...)``).

    Returns the path. Raises :class:`InputError` (``path: reason``, no line) when it does not
    exist, is a folder where a file is wanted (or the reverse), is a FIFO (opening one blocks
    until a writer comes: the window refuses them), a device or a socket, or is not readable
    by this process.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    p = Path(path)
    if kind in ("collection", "qrels") and isinstance(path, str) and path.startswith("irds:"):
        return p  # an ir_datasets dataset (reference 2.15): named, not a path
    try:
        mode = p.stat().st_mode
    except FileNotFoundError:
        raise InputError(path, None, f"{'collection folder' if kind == 'collection' else kind + ' file'} not found") from None
    except OSError as err:
        raise InputError(path, None, f"cannot read: {err.strerror or err}") from None
    if kind == "collection":
        from .archives import is_archive
        from .jsonl_documents import is_jsonl

        if stat.S_ISREG(mode) and (is_archive(p) or is_jsonl(p)):  # reference 2.10: an archive, 2.13: JSON Lines
            wanted = os.R_OK
        elif not stat.S_ISDIR(mode):
            raise InputError(path, None, "not a folder nor an archive (a collection is a folder of article XML "
                             "files, or a .zip, .tar, .tar.gz, .tgz, .tar.bz2 or .tar.xz archive of them, or a "
                             ".jsonl or .jsonl.gz file of documents)")
        else:
            wanted = os.R_OK | os.X_OK
    else:
        if stat.S_ISDIR(mode):
            raise InputError(path, None, f"is a folder, not a {kind} file")
        if not (stat.S_ISREG(mode) or (pipes and stat.S_ISFIFO(mode))):
            what = ("a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a special file")
            raise InputError(path, None, f"is {what}, not a regular {kind} file")
        wanted = os.R_OK
    if not os.access(p, wanted):
        raise InputError(path, None, "cannot read: permission denied")
    return p


def run_paths(files: list[str], folder: str | None) -> list[str]:
    """The run files: ``files``, then every file of ``folder`` not starting with ``.``, by name.
    Raises :class:`InputError` for a folder that is missing, not a folder, or holds no file."""
    paths = [str(f) for f in files]
    if folder is not None:
        d = Path(folder)
        if not d.is_dir():
            raise InputError(folder, None, "not a folder (--runs takes a folder of run files)" if d.exists()
                             else "run folder not found")
        found = sorted(str(p) for p in d.iterdir() if not p.name.startswith(".") and p.is_file())
        if not found:
            raise InputError(folder, None, "no run file in the folder")
        paths += found
    return paths
