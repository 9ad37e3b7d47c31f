"""The command line's reader options, and how they meet a view (``readsim VIEW.readsim
--topic T --reading worst``, ``readsim --lesson NAME --screen 2000``): the options given win
over the view's own values, as explicit flags override a file (docs/reference.md section 9.2).

The parser leaves an option it was not given at None, so that a value given on purpose
(``--screen 300``, the default's own value) is told from one not given: :func:`reader_settings`
fills in the defaults for a window without a view; :func:`apply_to_view` puts the given ones into
the view read from the file. Plain data, no Qt.
"""

from __future__ import annotations

import argparse

from readsim.core.measure import MAX_LEVELS, MAX_SIZE, MAX_WEIGHT
from readsim.core.reading import Mode

# The bounds the command line's options and a view's fields (readsim.app.view_file) share, one
# table for both: a value the command line refuses is refused in a view too.
MAX_SCREEN = 10_000_000  # the Reader controls' range for the screen size and the T2I tolerance
SCREEN_RANGE = (1, MAX_SCREEN)  # --screen S, settings.screen; --tolerance T, settings.tolerance
BETA_RANGE = (0.01, 10.0)  # --beta B, settings.beta: the Reader controls' range for F's beta
STEP_RANGE = (0, MAX_SIZE)  # --step K, step
OFFSET_RANGE = (0, MAX_SIZE)  # --entry OFFSET, entries[].offset, edits[].passages: offsets in the unit
ALPHA_RANGE = (0.0, MAX_WEIGHT)  # settings.alpha: T2IF's alpha as the measure grammar takes it, above 0
LEVELS_RANGE = (1, MAX_LEVELS)  # settings.levels: LE's levels L, as the measure grammar and --levels

DEFAULTS = {"screen": 300, "tolerance": 300, "beta": 0.25}
"""The reader options' defaults (``--screen``, ``--tolerance``, ``--beta``)."""


def _reading(args: argparse.Namespace) -> str | None:
    """The reading mode the options ask for: ``--reading``, or ``entry`` implied by ``--entry``."""
    return args.reading or (Mode.ENTRY.value if args.entry is not None else None)


def reader_settings(args: argparse.Namespace) -> dict:
    """The reader's settings from the options, defaults where not given: ``mode``, ``screen``,
    ``tolerance``, ``beta`` (the keywords of ``Session.set_settings``)."""
    out = {"mode": _reading(args) or Mode.NATURAL.value}
    for name in ("screen", "tolerance", "beta"):
        value = getattr(args, name)
        out[name] = DEFAULTS[name] if value is None else value
    return out


def apply_to_view(args: argparse.Namespace) -> list[str]:
    """Put the options given (``--topic``, ``--article``, ``--reading``, ``--entry``'s reading,
    ``--screen``, ``--tolerance``, ``--beta``) into ``args.view_data`` (a
    :class:`~readsim.app.view_file.View`, or None: nothing to do). A ``--topic`` or ``--article``
    other than the view's starts at the first screen (the view's step was its own article's) and,
    for a topic without ``--article``, at the topic's default article. Returns the problems
    (bad usage, exit 2): a ``--unit`` other than the view's, whose offsets (entry points, edits)
    are in its own unit."""
    view = getattr(args, "view_data", None)
    if view is None:
        return []
    if args.unit is not None and args.unit != view.unit:
        return [f"--unit {args.unit}: the view {args.view} has its offsets in {view.unit} (entry points, "
                f"edits): give --unit {view.unit} or none"]
    if args.topic is not None and args.topic != view.topic:
        view.topic, view.article, view.step = args.topic, None, 0
    if args.article is not None and args.article != view.article:
        view.article, view.step = args.article, 0
    reading = _reading(args)
    if reading is not None:
        view.settings["mode"] = reading
    for name in ("screen", "tolerance", "beta"):
        if getattr(args, name) is not None:
            view.settings[name] = getattr(args, name)
    return []
