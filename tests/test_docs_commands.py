"""The documentation's command examples are the commands' real output, and its links resolve.

Pages: README.md, docs/*.md and bench/README.md.

Which blocks are run (the rule is mechanical, by fence language):

- every fenced block of language ``console`` in README.md and docs/*.md. Its lines that begin
  with ``$ `` are commands (a line ending in ``\\`` continues on the next line); the lines after a
  command, up to the next command or the block's end, are its output. Blocks that are not checked
  (install commands, window launches, usage summaries) use another language (``sh``) and hold no
  ``$ `` prompt: a ``$ `` line in any other block fails ``test_prompts_only_in_console_blocks``.
- the examples of docs/reference.md, which run on the shipped sample from its folder
  (``resources/sample``): its plain fenced blocks whose first line begins with ``$ readsim-eval``.

How a block is run: each command in its own ``bash -c`` (a plain ``readsim-eval ARGS
2>/dev/null``, without pipes, redirections or worker processes: through ``readsim.cli.main`` in
the test's process, as bash would run it: ``$D``/``$C`` and globs expanded, in the same folder),
in order, in a fresh temporary folder
(so a command may write a file the next one reads), with ``D`` set to the real INEX data folder
(the ``inex`` fixture of tests/conftest.py: ``READSIM_DATA``, default ``../shared/data/inex``) and
this interpreter's folder first on ``PATH`` (so ``readsim-eval`` and ``python3`` are this
checkout's). Each command must exit 0. Two more, for docs/your-own-data.md: ``C`` is Chroma's
chunking data (the ``chroma`` fixture: ``READSIM_CHROMA_DATA``, default
``../shared/data/chroma-chunking``), and a block naming ``resources/rag`` finds a copy of the shipped
RAG example there (the page's commands run from the project's root; the copy keeps the checkout
clean of what they write). A block of one command that another block shows too, word for word
(README.md's first example is docs/evaluator.md's), runs once: its output, from the same fresh
folder and data, is compared with each page's.

How output is compared: exactly, line by line, as standard error followed by standard output
(the examples that show warnings print them before any result; most examples discard standard
error with ``2>/dev/null``). Two rules, both visible in the pages:

- the data folder's absolute path in the output is written ``$D`` (``$C`` for Chroma's; warnings
  name files as given);
- a line ``[...]`` in the shown output stands for one or more lines left out (the shown lines
  before it must begin the output, those after it end it, in order). Use it sparingly.

Links: every relative link and picture of these pages (outside code) must name an existing file,
and an anchor (``page.md#anchor`` or ``#anchor``) a heading of that page (GitHub's anchors:
lower case, punctuation dropped, spaces as hyphens).
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINKED_PAGES = [*PAGES, ROOT / "bench" / "README.md"]
REFERENCE = ROOT / "docs" / "reference.md"
SAMPLE = ROOT / "resources" / "sample"
ELISION = "[...]"
FENCE = re.compile(r"^( *)```(\S*)\s*$")


@dataclass
class Block:
    page: Path
    line: int  # 1-based line of the opening fence
    lang: str
    lines: list[str]
    commands: list[tuple[str, list[str]]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def fenced_blocks(page: Path) -> list[Block]:
    blocks: list[Block] = []
    current: Block | None = None
    indent = 0
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        m = FENCE.match(line)
        if current is None:
            if m:
                indent = len(m.group(1))
                current = Block(page, number, m.group(2), [])
        elif m and not m.group(2):
            blocks.append(current)
            current = None
        else:
            current.lines.append(line[indent:] if line[:indent].strip() == "" else line)
    assert current is None, f"{page}: a fence opened at line {current.line} is never closed"
    return blocks


def parse_commands(block: Block) -> Block:
    """Fill ``block.commands``: ``(command, expected output lines)`` in order."""
    lines = block.lines
    i = 0
    while i < len(lines):
        line = lines[i]
        assert line.startswith("$ "), f"{block.name}: output before the first command: {line!r}"
        command = line[2:]
        while command.endswith("\\"):
            i += 1
            command = command + "\n" + lines[i]  # bash reads the continuation as shown
        i += 1
        output = []
        while i < len(lines) and not lines[i].startswith("$ "):
            output.append(lines[i])
            i += 1
        block.commands.append((command, output))
    return block


def checked_blocks() -> list[Block]:
    out = []
    for page in PAGES:
        for block in fenced_blocks(page):
            if block.lang == "console":
                out.append(parse_commands(block))
            elif page == REFERENCE and block.lang == "" and block.lines and block.lines[0].startswith("$ readsim-eval"):
                out.append(parse_commands(block))
    return out


BLOCKS = checked_blocks()


def matches(expected: list[str], actual: list[str]) -> bool:
    """Exact equality, where a line ``[...]`` in ``expected`` stands for one or more lines."""
    parts: list[list[str]] = [[]]
    for line in expected:
        if line.strip() == ELISION:
            parts.append([])
        else:
            parts[-1].append(line)
    if len(parts) == 1:
        return expected == actual
    first, *middle, last = parts
    if actual[:len(first)] != first:
        return False
    start, end = len(first), len(actual) - len(last)
    if end < start or (last and actual[end:] != last):
        return False
    for part in middle:  # each in order, at least one line left out before it
        for at in range(start + 1, end - len(part) + 1):
            if actual[at:at + len(part)] == part:
                start = at + len(part)
                break
        else:
            return False
    return start < end  # at least one line left out before the last part


def test_elision_rule():
    real = ["a", "b", "c", "d", "e"]
    assert matches(["a", "b", "c", "d", "e"], real)
    assert matches(["a", "[...]", "e"], real)
    assert matches(["a", "[...]", "c", "[...]", "e"], real)
    assert not matches(["a", "[...]", "b", "c", "d", "e"], real)  # nothing left out
    assert not matches(["a", "e"], real)
    assert not matches(["+a", "[...]", "e"], real)
    assert not matches(["a", "[...]", "d"], real)  # the last shown lines end the output


#: a command run in this process: ``readsim-eval ARGS 2>/dev/null``, ARGS without shell syntax
#: but quotes, ``$D``/``$C`` and ``*`` globs (and no worker processes)
IN_PROCESS = re.compile(r"readsim-eval\s+((?:[^|&;<>`$\\]|\$[DC]\b)+?)\s+2>/dev/null")


def run_in_process(args: str, cwd: Path, data: Path | None, chroma: Path | None) -> list[str] | None:
    """``readsim-eval ARGS 2>/dev/null`` as bash runs it, through the command line's ``main`` in
    this process (its standard output; the import of scipy or matplotlib paid once per test
    process, not once per command). None when ARGS need the shell or start worker processes."""
    import glob
    import io
    import shlex

    from readsim.cli import main

    for name, value in (("D", data), ("C", chroma)):
        if re.search(rf"\${name}\b", args) and value is None:
            return None
        args = re.sub(rf"\${name}\b", lambda _m, v=value: shlex.quote(str(v)), args)
    argv: list[str] = []
    for word in shlex.split(args):
        hits = sorted(glob.glob(word, root_dir=cwd)) if "*" in word else []
        argv += hits or [word]
    if any(a in ("-j", "--jobs") or a.startswith("--jobs=") for a in argv):
        return None
    out, err = io.StringIO(), io.StringIO()
    here = Path.cwd()
    os.chdir(cwd)
    try:
        code = main(argv, out, err)
    finally:
        os.chdir(here)
    assert code == 0, f"exit status {code} of\nreadsim-eval {args}\n{err.getvalue()}"
    text = out.getvalue()
    for folder, name in ((data, "$D"), (chroma, "$C")):
        if folder is not None:
            text = text.replace(str(folder), name)
    return text.splitlines()


def run(command: str, cwd: Path, data: Path | None, chroma: Path | None = None) -> list[str]:
    simple = IN_PROCESS.fullmatch(command.replace("\\\n", " ").strip())
    if simple is not None:
        lines = run_in_process(simple.group(1), cwd, data, chroma)
        if lines is not None:
            return lines
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    if data is not None:
        env["D"] = str(data)
    if chroma is not None:
        env["C"] = str(chroma)
    done = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True,
                          encoding="utf-8", timeout=600)
    assert done.returncode == 0, f"exit status {done.returncode} of\n{command}\n{done.stderr}"
    text = done.stderr + done.stdout
    if data is not None:
        text = text.replace(str(data), "$D")
    if chroma is not None:
        text = text.replace(str(chroma), "$C")
    return text.splitlines()


def test_the_pages_have_command_examples():
    pages = {b.page.name for b in BLOCKS}
    assert {"README.md", "evaluator.md", "reference.md"} <= pages, pages
    assert len(BLOCKS) >= 10


#: the output of a block of one command, by what it depends on (the command, its folder, the data):
#: a block that repeats another's command word for word compares its output without running it again
_ONE_COMMAND_OUTPUT: dict[tuple, list[str]] = {}


@pytest.mark.parametrize("block", BLOCKS, ids=[b.name for b in BLOCKS])
def test_command_output_is_real(block: Block, request, tmp_path):
    uses_data = any("$D" in command for command, _ in block.commands)
    uses_chroma = any("$C" in command for command, _ in block.commands)
    chroma = None
    if block.page == REFERENCE:
        assert not uses_data and not uses_chroma, f"{block.name}: the reference's examples run on the sample"
        cwd, data = SAMPLE, None
    else:
        data = request.getfixturevalue("inex").resolve() if uses_data else None
        chroma = request.getfixturevalue("chroma").resolve() if uses_chroma else None
        cwd = tmp_path
        if any("resources/rag" in command for command, _ in block.commands):
            shutil.copytree(ROOT / "resources" / "rag", tmp_path / "resources" / "rag",
                            ignore=shutil.ignore_patterns("__pycache__", "*.sqlite"))
    # the folder as the block finds it: the sample's, or a fresh one (with the RAG copy or not)
    start = cwd if cwd == SAMPLE else ("fresh", (cwd / "resources").exists())
    for command, expected in block.commands:
        assert not re.match(r"\s*[DC]=", command), f"{block.name}: set D and C once, in a sh block at the top of the page"
        if len(block.commands) == 1:  # nothing after it reads what it writes
            key = (command, start, data, chroma)
            if key not in _ONE_COMMAND_OUTPUT:
                _ONE_COMMAND_OUTPUT[key] = run(command, cwd, data, chroma)
            actual = _ONE_COMMAND_OUTPUT[key]
        else:
            actual = run(command, cwd, data, chroma)
        if not matches(expected, actual):
            diff = "\n".join(difflib.unified_diff(expected, actual, "shown", "real", lineterm=""))
            pytest.fail(f"{block.name}: the shown output of\n$ {command}\nis not its real output:\n{diff}",
                        pytrace=False)


def test_prompts_only_in_console_blocks():
    checked = {(b.page, b.line) for b in BLOCKS}
    for page in PAGES:
        for block in fenced_blocks(page):
            if (block.page, block.line) in checked:
                continue
            prompts = [line for line in block.lines if line.startswith("$ ")]
            assert not prompts, (f"{page.relative_to(ROOT)}:{block.line}: a command shown with a prompt must be in "
                                 f"a ```console block (checked), or lose its '$ ' (```sh): {prompts[0]!r}")


# -- links -----------------------------------------------------------------------------------------
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def prose(page: Path) -> str:
    """The page without fenced blocks and inline code."""
    out, inside = [], False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            out.append(re.sub(r"`[^`]*`", "", line))
    return "\n".join(out)


def slug(heading: str) -> str:
    text = re.sub(r"`|\*\*|\*|_(?=\W)|(?<=\W)_", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    inside = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            inside = not inside
            continue
        m = re.match(r"#{1,6} (.*)", line)
        if m and not inside:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else f"{base}-{n}")
    return out


def test_slugs_as_github_makes_them():
    assert slug("## `readsim.evaluate`".lstrip("# ")) == "readsimevaluate"
    assert slug("5.11 Where a run loses, and what each article costs") == "511-where-a-run-loses-and-what-each-article-costs"
    assert slug("Testing a measure's fidelity") == "testing-a-measures-fidelity"


@pytest.mark.parametrize("page", LINKED_PAGES, ids=[str(p.relative_to(ROOT)) for p in LINKED_PAGES])
def test_relative_links_resolve(page: Path):
    for target in LINK.findall(prose(page)):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        assert where.exists(), f"{page.relative_to(ROOT)}: the link {target} names no file"
        if anchor and where.suffix == ".md":
            assert anchor in anchors(where), f"{page.relative_to(ROOT)}: the link {target}: no such heading"
