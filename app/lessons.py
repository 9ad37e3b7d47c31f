"""The lessons: those shipped with readsim (``resources/lessons``), each a saved view on the
shipped sample (``NAME.readsim``, :mod:`readsim.app.view_file`) and a short text (``NAME.md``,
shown as plain text), and the user's, each one lesson file (a view with its ``lesson``, written
by File ▸ Save as lesson into the user's lessons folder). Either text is in the syntax of
:mod:`readsim.app.lesson_text`: what the lesson shows, then steps, each of which may set the view
and ask a question.

The text's first line is the lesson's title (a leading ``#`` is dropped). Help ▸ Lessons lists
them, ``readsim --list-lessons`` prints the shipped ones as ``NAME  TITLE`` one a line,
``readsim --lesson NAME`` opens one (``NAME``: a shipped lesson's name or a lesson file's
path). Pure Python: no Qt (the dock is :mod:`readsim.app.widgets.lesson_dock`; the user's
folder is :func:`readsim.app.widgets.lesson_editor.user_folder`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from .lesson_text import LessonText, parse
from .view_file import SUFFIX, read_view

#: the order lessons are listed in (a lesson file not named here comes after, by name)
ORDER = ("reading-orders", "t2i-tolerance", "screen-size", "passages-vs-documents", "fetch-and-browse",
         "element-overlap")

_ITEM = re.compile(r"(- |\d+\. )")  # a list item's start


@dataclass(frozen=True)
class Lesson:
    """A lesson: ``name`` (the file stem), ``view`` (its ``.readsim`` file) and ``text_path``
    (a shipped lesson's ``.md`` file; None: the text is the view's ``lesson``)."""

    name: str
    view: Path
    text_path: Path | None = None

    def text(self) -> str:
        """The lesson's text (UTF-8). Raises ``OSError`` naming the file if it cannot be read,
        :class:`~readsim.core.errors.InputError` for a lesson file that is not one."""
        if self.text_path is not None:
            return self.text_path.read_text(encoding="utf-8")
        return read_view(self.view).lesson or self.name

    def parsed(self) -> LessonText:
        """The text's title, intro and steps (:func:`readsim.app.lesson_text.parse`); raises as
        :meth:`text` and :class:`~readsim.app.lesson_text.LessonError` naming the file and line."""
        return parse(self.text(), str(self.text_path or self.view))

    def body(self) -> str:
        """The text a student reads after the title (:meth:`LessonText.shown`), paragraphs
        unwrapped (:func:`unwrap`)."""
        return unwrap(self.parsed().shown()).strip("\n")

    def title(self) -> str:
        """The text's first line, less a leading ``#`` (the file's stem when it has none)."""
        return self.parsed().title or self.name


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


def user_lessons(folder: Path | None) -> list[Lesson]:
    """The lesson files (``*.readsim``, regular files) in the user's lessons ``folder``, by name;
    none when it is None or missing."""
    if folder is None or not folder.is_dir():
        return []
    try:
        found = [p for p in folder.glob("*" + SUFFIX) if p.is_file()]
    except OSError:
        return []
    return [Lesson(p.stem, p) for p in sorted(found)]


def find(name: str) -> Lesson:
    """The shipped lesson ``name``, or the lesson file at the path ``name`` (one with a ``/`` or
    ending in ``.readsim``). Raises ``LookupError`` naming the lessons there are."""
    for lesson in lessons():
        if lesson.name == name:
            return lesson
    path = Path(name)
    if name.strip() and ("/" in name or name.endswith(SUFFIX) or path.is_file()):
        if not path.is_file():
            raise LookupError(f"no lesson file {name!r} (not found or not a regular file)")
        return Lesson(path.stem, path.resolve())
    raise LookupError(f"no lesson named {name!r}; the lessons are: {', '.join(x.name for x in lessons())}")
