"""The lessons shipped with readsim (``resources/lessons``): each a saved view on the shipped
sample (``NAME.readsim``, :mod:`readsim.app.view_file`) and a short text (``NAME.md``, shown as
plain text): what the lesson shows, then numbered steps to try.

The text's first line is the lesson's title (a leading ``#`` is dropped). Help ▸ Lessons lists
them, ``readsim --list-lessons`` prints ``NAME  TITLE`` one a line, ``readsim --lesson NAME``
opens one. Pure Python: no Qt (the dock is :mod:`readsim.app.widgets.lesson_dock`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

#: the order lessons are listed in (a lesson file not named here comes after, by name)
ORDER = ("reading-orders", "t2i-tolerance", "screen-size", "passages-vs-documents", "fetch-and-browse",
         "element-overlap")

_ITEM = re.compile(r"(- |\d+\. )")  # a list item's start


@dataclass(frozen=True)
class Lesson:
    """A shipped lesson: ``name`` (the file stem), ``view`` (its ``.readsim`` file) and ``text``
    (its ``.md`` file's path)."""

    name: str
    view: Path
    text_path: Path

    def text(self) -> str:
        """The lesson's text (UTF-8). Raises ``OSError`` naming the file if it cannot be read."""
        return self.text_path.read_text(encoding="utf-8")

    def body(self) -> str:
        """The text after the title line, paragraphs unwrapped (:func:`unwrap`)."""
        lines = self.text().splitlines()
        return unwrap("\n".join(lines[1:])).strip("\n")

    def title(self) -> str:
        """The text's first line, less a leading ``#``."""
        first = next((line for line in self.text().splitlines() if line.strip()), self.name)
        return first.lstrip("#").strip()


def unwrap(text: str) -> str:
    """``text`` with each paragraph and list item on one line (the files are wrapped at 96
    columns; the dock wraps to its width): a line is joined to the one before unless either is
    blank or it starts a list item (``- ``, ``1. ``)."""
    out: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        item = _ITEM.match(stripped) is not None
        if out and out[-1] and stripped and not item:
            out[-1] += " " + stripped
        else:
            out.append(stripped)
    return "\n".join(out)


def folder() -> Path:
    """Where the lessons are (inside the installed package)."""
    package = __package__.rsplit(".", 1)[0] + ".resources"  # readsim.resources
    return Path(str(resources.files(package).joinpath("lessons")))


def lessons() -> list[Lesson]:
    """Every shipped lesson with both its files, in :data:`ORDER`."""
    root = folder()
    found = [Lesson(p.stem, p, p.with_suffix(".md")) for p in root.glob("*.readsim") if p.with_suffix(".md").is_file()]
    rank = {name: i for i, name in enumerate(ORDER)}
    return sorted(found, key=lambda lesson: (rank.get(lesson.name, len(ORDER)), lesson.name))


def find(name: str) -> Lesson:
    """The lesson ``name``. Raises ``LookupError`` naming the lessons there are."""
    for lesson in lessons():
        if lesson.name == name:
            return lesson
    raise LookupError(f"no lesson named {name!r}; the lessons are: {', '.join(x.name for x in lessons())}")
