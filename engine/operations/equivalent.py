"""The equivalent command of what the window shows (View ▸ Equivalent command, docs/window.md):
the ``readsim-eval`` line and the Python lines (``readsim.article``, ``readsim.evaluate``) that
print the score panel's numbers for the open article and the topic view's for the topic.

No Qt and no file access: the window hands over its state as a :class:`ShownState` (files,
topic, article, reading mode, unit, screen, tolerance, alpha, beta, levels, an entry point of
its own, the measures shown, what is unsaved) and :func:`article_command` and
:func:`topic_command` turn it into text (:class:`Equivalent`). The shell line is quoted for a
POSIX shell (:func:`shlex.quote`); the Python lines quote with :func:`repr`. What has no
file-based equivalent (unsaved edits, an input that is no file, an entry point set in the
window, an article the run does not rank) is said in :attr:`Equivalent.notes`, naming it and
what the lines reproduce instead.

The lines print ``measure<TAB>value`` rows (the shell line keeps ``readsim-eval``'s own
columns, reference section 9.1: ``measure, topic, article, value`` with ``--per-article`` and
``measure, topic, value`` with ``-q``, six decimals), filtered to the topic (and article) by
``awk``.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

PROGRAM = "readsim-eval"
DEFAULT_LEVELS = 4  # readsim-eval's --levels and readsim.article's levels by default
PYTHON_WIDTH = 88  # characters: the Python lines are broken before this


@dataclass(frozen=True)
class ShownState:
    """What the window shows, as plain data.

    ``qrels``, ``run``, ``collection``: paths (None: not open; a name in angle brackets, such
    as ``<qrels DataFrame>``: not a file); ``unit``: ``bytes`` or ``chars``; ``topic``,
    ``article``: ids (None: none open); ``reading``: the mode's name; ``screen``,
    ``tolerance`` (units of the offsets), ``alpha``, ``beta``, ``levels``: the reader's
    settings; ``entry``: the open article's entry point when it was set in the window (a unit
    offset; None: the run's); ``topic_entries``: entry points set in the window for articles of
    the topic, which the ``entry`` reading of the topic view uses; ``article_measures``,
    ``topic_measures``: canonical names of the measures the score panel and the topic view
    show; ``ranked``: the run ranks the open article; ``unsaved``: what is unsaved (say
    ``"run r1: unsaved passage edits"``; None: nothing)."""

    qrels: str | None
    run: str | None
    collection: str | None = None
    unit: str = "bytes"
    topic: str | None = None
    article: str | None = None
    reading: str = "natural"
    screen: int = 300
    tolerance: int = 300
    alpha: float = 1.0
    beta: float = 0.25
    levels: int = DEFAULT_LEVELS
    entry: int | None = None
    topic_entries: bool = False
    article_measures: tuple[str, ...] = ()
    topic_measures: tuple[str, ...] = ()
    ranked: bool = True
    unsaved: str | None = None


@dataclass(frozen=True)
class Equivalent:
    """One command's text: ``shell``, the ``readsim-eval`` line ("" when there is none);
    ``python``, the Python lines ("" when there are none); ``notes``, sentences saying what in
    the window's state the lines do not reproduce, and what they reproduce instead."""

    shell: str
    python: str
    notes: tuple[str, ...] = ()


def article_command(state: ShownState) -> Equivalent:
    """The command that prints the score panel's numbers of the open article: ``readsim-eval
    QRELS RUN --per-article -m ...`` (reference section 9.1) filtered to the topic and article,
    and ``readsim.article(...)`` (docs/api.md). Empty lines with a note when no article is open,
    when an input is not a file, or when the run does not rank the article (the panel then
    shows what it would score if retrieved whole, which neither scores)."""
    notes = list(_unsaved(state))
    missing = _missing(state)
    if missing or state.topic is None or state.article is None:
        return Equivalent("", "", tuple(notes + (missing or ["no article is open"])))
    if not state.ranked:
        notes.append(f"run {_base(state.run)} does not rank article {state.article} for topic {state.topic}: the "
                     "score panel shows what it would score if retrieved whole, which readsim-eval and "
                     "readsim.article do not score (they score the ranked articles); the topic's command is "
                     "reproducible")
        return Equivalent("", "", tuple(notes))
    measures = list(state.article_measures)
    argv = [PROGRAM, state.qrels, state.run, "--per-article", *_measure_options(measures), *_reading_options(state)]
    shell = _join(argv) + " | " + _awk(state.topic, state.article)
    if state.entry is not None and state.reading == "entry":
        notes.append(f"you set article {state.article}'s entry point at {state.entry:,} ({state.unit}): readsim-eval "
                     "starts each article at the run's entry point, so its line gives the run's numbers; "
                     f"the Python lines (entry={state.entry}) give the window's")
    return Equivalent(shell, _article_python(state, measures), tuple(notes))


def topic_command(state: ShownState) -> Equivalent:
    """The command that prints the topic view's list scores for the topic: ``readsim-eval QRELS
    RUN -q -m ...`` (reference section 9.1) filtered to the topic, and ``readsim.evaluate(...,
    per="topic")`` (docs/api.md). Empty lines with a note when no topic is open or an input is
    not a file."""
    notes = list(_unsaved(state))
    missing = _missing(state)
    if missing or state.topic is None or not state.topic_measures:
        return Equivalent("", "", tuple(notes + (missing or ["no topic is open"])))
    measures = list(state.topic_measures)
    argv = [PROGRAM, state.qrels, state.run, "-q", *_measure_options(measures), *_reading_options(state)]
    shell = _join(argv) + " | " + _awk(state.topic)
    if state.topic_entries and state.reading == "entry":
        notes.append(f"you set entry points in articles of topic {state.topic}: readsim-eval and readsim.evaluate "
                     "start each article at the run's entry point, so the lines give the run's numbers")
    if state.levels != DEFAULT_LEVELS:
        notes.append(f"readsim.evaluate has no levels option: its LE and ES use L = {DEFAULT_LEVELS}, the window's "
                     f"L = {state.levels}; the readsim-eval line (--levels {state.levels}) gives the window's")
    lines = [*_python_head(state),
             _wrapped("measures = [", [repr(m) for m in measures], "]"),
             _wrapped("scores = readsim.evaluate(", ["qrels", "run", "measures", "per='topic'", *_python_options(state)],
                      ")"),
             f"shown = scores[scores.topic == {state.topic!r}]",
             "for measure, value in zip(shown.measure, shown.value):",
             "    print(measure, value, sep='\\t')"]
    return Equivalent(shell, "\n".join(lines) + "\n", tuple(notes))


# -- the parts -------------------------------------------------------------------------------
def _missing(state: ShownState) -> list[str]:
    """Why the state has no file-based command: an input not open, or not a file."""
    out = []
    for kind, path in (("qrels", state.qrels), ("run", state.run)):
        if path is None:
            out.append(f"no {kind} file is open")
        elif path.startswith("<"):
            out.append(f"the {kind} {'are' if kind == 'qrels' else 'is'} {path}, not a file: no command can read "
                       "it (write it to a file, as Qrels.to_frame() and Run.to_frame() give its rows, and open that)")
    if state.collection is not None and state.collection.startswith("<"):
        out.append(f"the collection is {state.collection}, not a folder or an archive")
    return out


def _unsaved(state: ShownState) -> list[str]:
    if state.unsaved is None:
        return []
    return [f"{state.unsaved}: the lines score the files as saved (the values shown as 'was' under the scores); "
            "save the run (File ▸ Save run) for lines that give the edited numbers"]


def _measure_options(measures: list[str]) -> list[str]:
    return [part for m in measures for part in ("-m", m)]


def _reading_options(state: ShownState) -> list[str]:
    argv = ["--reading", state.reading]
    if state.collection is not None:
        argv += ["--collection", state.collection]
    argv += ["--unit", state.unit]
    if state.levels != DEFAULT_LEVELS:
        argv += ["--levels", str(state.levels)]
    return argv


def _python_options(state: ShownState) -> list[str]:
    collection = [f"collection={state.collection!r}"] if state.collection is not None else []
    return [f"reading={state.reading!r}", *collection, f"unit={state.unit!r}"]


def _article_python(state: ShownState, measures: list[str]) -> str:
    args = ["qrels", "run", f"topic={state.topic!r}", f"article={state.article!r}", *_python_options(state),
            f"screen={state.screen}", f"tolerance={state.tolerance}", f"beta={state.beta!r}"]
    if state.levels != DEFAULT_LEVELS:
        args.append(f"levels={state.levels}")
    if state.entry is not None and state.reading == "entry":
        args.append(f"entry={state.entry}")
    lines = [*_python_head(state), _wrapped("a = readsim.article(", args, ")")]
    if state.alpha == 1.0:
        lines += ["for measure, value in a.scores.items():", "    print(measure, value, sep='\\t')"]
    else:  # the panel's T2IF has the window's alpha; readsim.article scores alpha 1, explain any
        lines += [_wrapped("for measure in [", [repr(m) for m in measures], "]:"),
                  "    print(measure, a.scores[measure] if measure in a.scores else a.explain(measure).total, sep='\\t')"]
    return "\n".join(lines) + "\n"


def _python_head(state: ShownState) -> list[str]:
    return ["import readsim", "", f"qrels = {state.qrels!r}", f"run = {state.run!r}"]


def _wrapped(head: str, items: list[str], tail: str, width: int = PYTHON_WIDTH) -> str:
    """``head`` + ``items`` separated by commas + ``tail``, broken after a comma before a line
    would pass ``width`` characters, the next lines indented under the first item."""
    lines, line = [], head
    for k, item in enumerate(items):
        piece = item + (", " if k < len(items) - 1 else tail)
        if line != head and len(line) + len(piece.rstrip()) > width:
            lines.append(line.rstrip())
            line = " " * len(head)
        line += piece
    return "\n".join([*lines, line]) if items else head + tail


def _join(argv: list[str]) -> str:
    return " ".join(shlex.quote(str(a)) for a in argv)


def _awk(topic: str, article: str | None = None) -> str:
    """``awk`` keeping the rows of ``topic`` (and ``article``): -v values have their
    backslashes doubled, as awk reads escape sequences in them."""
    argv = ["awk", "-F", "\\t", "-v", "t=" + topic.replace("\\", "\\\\")]
    test = "$2 == t"
    if article is not None:
        argv += ["-v", "a=" + article.replace("\\", "\\\\")]
        test += " && $3 == a"
    return _join(argv + [test])


def _base(path: str | None) -> str:
    return (path or "").replace("\\", "/").rsplit("/", 1)[-1]
