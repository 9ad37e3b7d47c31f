"""A lesson's text and its steps: the small syntax of the step editor dock, of a shipped
lesson's ``NAME.md`` and of a lesson file's ``lesson.source`` (docs/reference.md section 9.2.1).

::

    # Title                            (the first line; a leading # is dropped)
    Text before the first step: what the lesson shows.

    ## A step's title
    The step's text.
    set: reading=worst screen=2000 tolerance=50 dock=explain
    ask: T2IF(300) within 0.05         (a number; close when |answer - value| <= 0.05)
    ask: LE(300) choice 0 | 1 | 2      (a choice; the right one is the choice nearest the value)

``set:`` (the reading mode, the screen size and T2I tolerance in characters of the unit, a
dock's ``objectName`` to open) and ``ask:`` (one document measure of reference section 4,
written as section 6 names it) belong to a step, at most one of each. The answer is never
stored: the window computes it from its state when the student reaches the step.

:func:`parse` raises :class:`LessonError` (an :class:`~readsim.core.errors.InputError`:
``WHERE:LINE: reason``) for anything else. Pure Python: no Qt.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from readsim.core.errors import InputError
from readsim.core.measure import parse_measure
from readsim.core.reading import READING_MODES

from .view_args import SCREEN_RANGE

MAX_CHARS = 256 * 1024  # a lesson's text: a few kilobytes; refuse more before parsing
MAX_STEPS = 100
MAX_CHOICES = 10
MAX_NUMBER = 1e12  # a tolerance or a choice: finite and at most this in size
MODES = tuple(m.value for m in READING_MODES)
SET_KEYS = ("reading", "screen", "tolerance", "dock")
_DOCK = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
_DIRECTIVE = re.compile(r"(set|ask):(.*)", re.IGNORECASE)


class LessonError(InputError):
    """A lesson's text that cannot be read: ``WHERE:LINE: reason``."""


@dataclass(frozen=True)
class Question:
    """``measure``: the canonical name of a document measure (``T2IF(300)``); ``kind``:
    ``number`` (close within ``tolerance``, in the measure's own units) or ``choice`` (one of
    ``choices``; the right one is the nearest to the value, :meth:`right_choice`)."""

    measure: str
    kind: str
    tolerance: float = 0.0
    choices: tuple[float, ...] = ()

    def right_choice(self, value: float) -> float:
        """The choice nearest ``value`` (the first of two as near)."""
        return min(self.choices, key=lambda c: abs(c - value))

    def close(self, answer: float, value: float) -> bool:
        """Whether ``answer`` counts as right for the computed ``value``: within the tolerance
        (``number``), or the right choice (``choice``)."""
        if self.kind == "choice":
            return answer == self.right_choice(value)
        return abs(answer - value) <= self.tolerance + 1e-12 * max(1.0, abs(value))

    def line(self) -> str:
        """The question as an ``ask:`` line."""
        if self.kind == "choice":
            return f"ask: {self.measure} choice " + " | ".join(_num(c) for c in self.choices)
        return f"ask: {self.measure} within {_num(self.tolerance)}"


@dataclass(frozen=True)
class Step:
    """One step: ``title``, ``text`` (plain text), ``settings`` (``reading``, ``screen``,
    ``tolerance``: what it sets), ``dock`` (a dock to open, or None), ``question`` (or None),
    ``line`` (its heading's line number)."""

    title: str
    text: str
    settings: dict = field(default_factory=dict)
    dock: str | None = None
    question: Question | None = None
    line: int = 0


@dataclass(frozen=True)
class LessonText:
    """A parsed lesson: ``title``, ``intro`` (the text before the first step) and ``steps``."""

    title: str
    intro: str
    steps: tuple[Step, ...]

    def shown(self) -> str:
        """The text a student reads (after the title): the intro, then each step's title and
        text; the ``set:``/``ask:`` lines left out."""
        parts = [self.intro] if self.intro else []
        parts += [f"Step {i}: {s.title}\n\n{s.text}".rstrip() for i, s in enumerate(self.steps, 1)]
        return "\n\n".join(parts)


def _num(x: float) -> str:
    return f"{x:g}"


def _number(text: str, where: str, line: int, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise LessonError(where, line, f"{what} must be a number, not {text.strip()[:40]!r}") from None
    if not math.isfinite(value) or abs(value) > MAX_NUMBER:
        raise LessonError(where, line, f"{what} must be a finite number of at most {MAX_NUMBER:g}, not {text.strip()[:40]}")
    return value


def _set(rest: str, where: str, line: int) -> tuple[dict, str | None]:
    settings: dict = {}
    dock = None
    items = rest.split()
    if not items:
        raise LessonError(where, line, "set: names nothing; write e.g. set: reading=worst screen=2000")
    for item in items:
        key, eq, value = item.partition("=")
        key = key.lower()
        if not eq or key not in SET_KEYS:
            raise LessonError(where, line, f"set: {item[:40]!r}: write KEY=VALUE with KEY one of {', '.join(SET_KEYS)}")
        if key in settings or (key == "dock" and dock is not None):
            raise LessonError(where, line, f"set: {key} given twice")
        if key == "reading":
            if value not in MODES:
                raise LessonError(where, line, f"set: reading must be one of {', '.join(MODES)}, not {value[:40]!r}")
            settings["mode"] = value
        elif key == "dock":
            if not _DOCK.fullmatch(value):
                raise LessonError(where, line, f"set: dock must be a dock's name (letters, digits, _), not {value[:40]!r}")
            dock = value
        else:
            low, high = SCREEN_RANGE
            if not value.isdigit() or not low <= int(value) <= high:
                raise LessonError(where, line, f"set: {key} must be a whole number from {low:,} to {high:,} (characters "
                                  f"of the unit), not {value[:40]!r}")
            settings[key] = int(value)
    return settings, dock


def _ask(rest: str, where: str, line: int) -> Question:
    m = re.fullmatch(r"\s*(\S+)\s+(within|choice)\s+(.+?)\s*", rest, re.IGNORECASE)
    if m is None:
        raise LessonError(where, line, "ask: write MEASURE within TOLERANCE, or MEASURE choice A | B | C")
    try:
        measure = parse_measure(m.group(1))
    except ValueError as exc:
        raise LessonError(where, line, f"ask: {exc}") from None
    if measure.declaration.needs_qrels:
        raise LessonError(where, line, f"ask: {measure.name} is not shown for one article; ask a measure of the "
                          "Scores panel or the Explain dock")
    if m.group(2).lower() == "within":
        tolerance = _number(m.group(3), where, line, "ask: the tolerance")
        if tolerance < 0:
            raise LessonError(where, line, f"ask: the tolerance must be 0 or more, not {_num(tolerance)}")
        return Question(measure.name, "number", tolerance=tolerance)
    raw = m.group(3).split("|")
    if not 2 <= len(raw) <= MAX_CHOICES:
        raise LessonError(where, line, f"ask: a choice has 2 to {MAX_CHOICES} numbers separated by |, not {len(raw)}")
    choices = tuple(_number(c, where, line, "ask: a choice") for c in raw)
    if len(set(choices)) != len(choices):
        raise LessonError(where, line, "ask: the choices must differ")
    return Question(measure.name, "choice", choices=choices)


def parse(text: str, where: str = "lesson") -> LessonText:
    """Parse a lesson's text (see the module); ``where`` names it in errors (a file's path, or
    ``lesson steps`` for the editor). Raises :class:`LessonError` naming the line."""
    if len(text) > MAX_CHARS:
        raise LessonError(where, None, f"longer than {MAX_CHARS:,} characters: not a lesson")
    lines = text.splitlines()
    title, start = "", 0
    first = next((i for i, s in enumerate(lines) if s.strip()), None)
    if first is not None and not lines[first].startswith("##") and not _DIRECTIVE.match(lines[first].strip()):
        title, start = lines[first].lstrip("#").strip(), first + 1
    intro: list[str] = []
    steps: list[dict] = []
    for n, raw in enumerate(lines[start:], start + 1):
        stripped = raw.strip()
        if raw.startswith("## "):
            if len(steps) == MAX_STEPS:
                raise LessonError(where, n, f"more than {MAX_STEPS} steps")
            if not stripped[3:].strip():
                raise LessonError(where, n, "a step's heading needs a title: ## TITLE")
            steps.append({"title": stripped[3:].strip(), "text": [], "settings": {}, "dock": None, "question": None,
                          "line": n, "set": False})
            continue
        m = _DIRECTIVE.match(stripped)
        if m is None:
            (steps[-1]["text"] if steps else intro).append(raw)
            continue
        if not steps:
            raise LessonError(where, n, f"{m.group(1).lower()}: belongs to a step: start one with ## TITLE first")
        step = steps[-1]
        if m.group(1).lower() == "set":
            if step["set"]:
                raise LessonError(where, n, "a step has at most one set: line")
            step["settings"], step["dock"] = _set(m.group(2), where, n)
            step["set"] = True
        else:
            if step["question"] is not None:
                raise LessonError(where, n, "a step has at most one ask: line")
            step["question"] = _ask(m.group(2), where, n)
    made = tuple(Step(s["title"], "\n".join(s["text"]).strip("\n"), s["settings"], s["dock"], s["question"], s["line"])
                 for s in steps)
    return LessonText(title, "\n".join(intro).strip("\n"), made)
