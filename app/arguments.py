"""``readsim``'s command line: the parser (:func:`parser`) and the checks of its values, paths and
combinations (:func:`check_usage`, :func:`check_paths`, :func:`check_view`, ...), exit 2 for bad
usage as :mod:`readsim.app.main` describes. No Qt here: :mod:`readsim.app.main` imports it after
its start-up guard."""

from __future__ import annotations

import argparse
from pathlib import Path

from readsim.core import streams
from readsim.core.measure import option
from readsim.core.coverage import check_input_path
from readsim.core.errors import InputError
from readsim.core.measure import parse_count, parse_real
from readsim.core.reading import READING_MODES, Mode

from .render_args import add_render_arguments, check_render_usage
from .settings_keys import THEMES
from readsim.core.sandbox import SUFFIX as SANDBOX_SUFFIX
from .view_args import BETA_RANGE, MAX_SCREEN, OFFSET_RANGE, SCREEN_RANGE, STEP_RANGE


def _screen(text: str) -> int:
    return parse_count(text, "S", *SCREEN_RANGE)


def _tolerance(text: str) -> int:
    return parse_count(text, "T", *SCREEN_RANGE)


def _beta(text: str) -> float:
    return parse_real(text, "B", *BETA_RANGE)


def _step(text: str) -> int:
    return parse_count(text, "K", *STEP_RANGE)


def _entry(text: str) -> int:
    return parse_count(text, "OFFSET", *OFFSET_RANGE)


READINGS = READING_MODES  # the window's (session.MODES)


class _Parser(argparse.ArgumentParser):
    """argparse's parser whose help is written to standard output unguarded: a write error
    (a full device, a closed output, a closed pipe) reaches :func:`_main` as ``OSError`` instead
    of being dropped by argparse (:func:`_output_failed` tells it)."""

    def print_help(self, file=None) -> None:
        if file is not None:
            super().print_help(file)
            return
        out = streams.output()
        out.write(self.format_help())
        out.flush()


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="readsim",
                                usage="%(prog)s [VIEW.readsim | --sample | --lesson NAME | --collection DIR --qrels FILE "
                                "--run FILE ...] [options] (every option: readsim --help)",
                                description="Reading-order simulator for focused retrieval "
                                "(INEX Relevant in Context): read an article the way a run's matching chain leads.",
                                epilog="Exit status: 0 ok; 1 an input error while loading (with --screenshot) or an "
                                "OS error (path: reason: a missing, unreadable or wrong-kind path, the screenshot's folder "
                                "cannot be created, the image cannot be written, a screenshot path that is not a regular "
                                "file or is one of the inputs; no display, or a system library of Qt's platform missing), or a --figure or "
                                "--record that cannot be made (a bad range or width, a suffix it cannot write); 2 bad usage: "
                                "an option value out of range or options that do not go together (named in the message); "
                                "130 interrupted.")
    p.add_argument("view", nargs="?", metavar="VIEW.readsim", help="a saved view (File > Save view): its files, topic, "
                   "article, settings, step, edits and docks; options given with it win over its values; or a sandbox "
                   "file, NAME.readsim-sandbox (File > New sandbox): its text as the article, in characters")
    p.add_argument("--lesson", metavar="NAME", help="open a lesson: a shipped lesson's name or a lesson file's path "
                   "(its view and its steps beside the article)")
    p.add_argument("--list-lessons", action="store_true", help="print the shipped lessons, one a line (name, then "
                   "title, in columns), and exit")
    p.add_argument("--collection", metavar="DIR", help="the articles: a folder of XML files (flat or nested), or a .zip, "
                   ".tar, .tar.gz, .tar.bz2 or .tar.xz archive of them, or a folder of archives")
    p.add_argument("--qrels", metavar="FILE", help="FOL qrels")
    p.add_argument("--run", metavar="FILE", action="append", default=[], help="FOL run (repeat for several)")
    p.add_argument("--topics", metavar="FILE", help="INEX topic file (titles)")
    p.add_argument("--segments", metavar="FILE", help="a segment table (JSON Lines {id, doc, start, end}): every text "
                   "run is then a segment run, 'topic Q0 segment rank score run' (reference 2.14)")
    p.add_argument("--topic", metavar="T", help="topic to show (default: the run's first topic ranking a relevant article the collection has)")
    p.add_argument("--article", metavar="A", help="article to open (default: the best-ranked relevant one)")
    p.add_argument("--unit", choices=("bytes", "chars"), default=None, help="offset unit (default: chars with a collection of documents that are not article XML, else bytes)")
    p.add_argument("--sample", action="store_true", help="open the shipped sample (default without files)")
    p.add_argument("--reading", choices=[m.value for m in READINGS], default=None,
                   help="reading mode (default natural); entry: each article from its entry point (a Best in "
                   "Context line's offset, else its first passage) to the end, then from the start")
    p.add_argument("--entry", type=option(_entry), default=None, metavar="OFFSET",
                   help="the opened article's entry point (in the unit), as if set by Alt+click in its text; "
                   "implies --reading entry")
    p.add_argument("--screen", type=option(_screen), default=None, metavar="S",
                   help=f"screen size in characters, 1 to {MAX_SCREEN:,} (default 300)")
    p.add_argument("--tolerance", type=option(_tolerance), default=None, metavar="T",
                   help=f"T2I tolerance in characters, 1 to {MAX_SCREEN:,} (default 300)")
    p.add_argument("--beta", type=option(_beta), default=None, metavar="B",
                   help="F-score beta, {:g} to {:g} (default 0.25)".format(*BETA_RANGE))
    p.add_argument("--present", action="store_true", help="open in presentation mode (View > Presentation): large "
                   "text, the article and the scores only, for a room or a projector; with --screenshot, a slide")
    p.add_argument("--theme", choices=THEMES, default=None,
                   help="light or dark (or the system's) for this run only, pictures included; View > Theme "
                        "keeps the window's own choice (default: that choice; for a picture, the system's)")
    p.add_argument("--screenshot", metavar="PNG", help="render the window offscreen to a .png or .svg file (its folder is created), written atomically, and exit")
    p.add_argument("--step", type=option(_step), default=None, metavar="K",
                   help="with --screenshot or --figure (only): screens read forward, 0 or more (default 0)")
    add_render_arguments(p)
    return p


def check_args(args: argparse.Namespace) -> list[str]:
    """Problems with the given paths (``path: reason``, exit 1, as ``readsim-eval``) and then
    with the options' combination (exit 2, see :func:`check_usage`), as messages."""
    return check_paths(args) + check_usage(args)


def check_paths(args: argparse.Namespace) -> list[str]:
    """Paths that cannot be read, as ``path: reason`` (empty if fine): exit 1, as
    ``readsim-eval`` (:func:`readsim.core.coverage.check_input_path`, which opens nothing)."""
    out = []
    for kind, path in (("collection", args.collection), ("qrels", args.qrels), ("topics", args.topics),
                       ("segments", args.segments), *(("run", r) for r in args.run)):
        if path:
            try:
                check_input_path(path, kind)
            except InputError as exc:
                out.append(str(exc))
    return out


def check_usage(args: argparse.Namespace) -> list[str]:
    """Options that do not go together, or a screenshot that is not .png or .svg (empty if
    fine): bad usage, exit 2."""
    out = _empty_values(args)
    shot = Path(args.screenshot) if args.screenshot else None
    if shot is not None and not shot.is_dir() and shot.suffix.lower() not in (".png", ".svg"):
        out.append(f"--screenshot {args.screenshot}: the image must end in .png or .svg")
    out += check_render_usage(args)
    if args.step is not None and not (args.screenshot or args.figure):
        out.append("--step K goes with --screenshot or --figure (the screens read forward before the picture); "
                   "in the window, use the reader's controls")
    if args.entry is not None and args.reading not in (None, Mode.ENTRY.value):
        out.append(f"--entry sets the entry point of the entry reading mode: it does not go with --reading {args.reading}")
    opened = [name for name, given in (("a view", args.view is not None), ("--lesson", args.lesson is not None),
                                       ("--sample", args.sample),
                                       ("files", args.run or args.collection or args.qrels or args.topics)) if given]
    if (args.view is not None or args.lesson is not None) and len(opened) > 1:
        out.append(f"give one of a view, --lesson, --sample or files, not {' and '.join(opened)}")
    elif args.sample and (args.run or args.collection or args.qrels or args.topics):
        out.append("--sample opens the shipped sample: give it alone (its runs are in the Run box), or give files instead")
    elif (args.collection or args.qrels or args.topics) and not args.run:
        out.append("give at least one --run FILE with --collection/--qrels/--topics")
    return out


_NAMED = (("VIEW.readsim", "view", "a view file"), ("--collection", "collection", "a folder or an archive"),
          ("--qrels", "qrels", "a file"), ("--topics", "topics", "a file"), ("--segments", "segments", "a file"),
          ("--topic", "topic", "a topic"),
          ("--article", "article", "an article"), ("--screenshot", "screenshot", "an image file"),
          ("--figure", "figure", "a file"), ("--record", "record", "a file"), ("--range", "range", "START:END"))


def _empty_values(args: argparse.Namespace) -> list[str]:
    """Options given an empty value (``--topic ''``, ``readsim ''``): bad usage, exit 2, rather
    than the option silently left out (the sample opened, the window shown instead of a
    screenshot). An empty ``--lesson`` is :func:`check_lesson`'s (it names the lessons)."""
    given = [(flag, getattr(args, name), what) for flag, name, what in _NAMED]
    given += [("--run", run, "a file") for run in args.run]
    return [f"{flag} {value!r}: give {what}, not an empty value" for flag, value, what in given
            if value is not None and not value.strip()]


def check_lesson(args: argparse.Namespace) -> list[str]:
    """An unknown or empty ``--lesson`` name (bad usage, exit 2); sets ``args.view`` to the
    lesson's view."""
    if args.lesson is None:
        return []
    from .lessons import find

    try:
        args.view = str(find(args.lesson).view)
    except LookupError as exc:
        return [f"--lesson {exc}"]
    return []


def check_view(args: argparse.Namespace) -> list[str]:
    """Read the view file (``args.view``) into ``args.view_data``, or a sandbox file (a name
    ending in ``.readsim-sandbox``) into ``args.sandbox_data``; its problem as ``FILE: field
    NAME: reason`` (exit 1, :func:`readsim.app.view_file.read_view`,
    :func:`readsim.core.sandbox.read_sandbox`)."""
    args.view_data = args.sandbox_data = None
    if not args.view:
        return []
    if str(args.view).endswith(SANDBOX_SUFFIX):  # a sandbox file (reference 9.2.2)
        from readsim.core.sandbox import read_sandbox

        try:
            args.sandbox_data = read_sandbox(args.view)
        except InputError as exc:
            return [str(exc)]
        except OSError as exc:
            return [f"{args.view}: {exc.strerror or exc}"]
        return []
    from .view_file import ViewError, read_view

    try:
        args.view_data = read_view(args.view)
    except ViewError as exc:
        return [str(exc)]
    return []


def check_view_options(args: argparse.Namespace) -> list[str]:
    """The options given with a view win over its values (:func:`readsim.app.view_args.apply_to_view`);
    a ``--unit`` other than the view's is bad usage, exit 2."""
    from .view_args import apply_to_view

    if getattr(args, "sandbox_data", None) is not None and args.unit == "bytes":
        return [f"--unit bytes: the sandbox {args.view} has its offsets in characters: give --unit chars or none"]
    return apply_to_view(args)
