"""Hostile article XML: what a collection folder may hold, loaded as the app and the
CLI load it (``Collection(folder).article(name)``), each under a timeout guard so that a read
of stdin or a FIFO fails the row instead of hanging the suite.

- ``SAME``: the article's text, length, doc_length and every element's (xpath, tag, depth,
  span) equal the clean input's (``data["clean"]``, :data:`CLEAN` by default; real INEX
  articles for the ``real_*`` rows), and ``expect`` is in the text; for the generated deep
  articles ``expect`` is ``(length, doc_length, elements, deepest depth)``, worked out from
  the generator.
- ``ERROR``: an :class:`InputError` whose path is the article file, whose line is
  ``data["line"]`` (``None`` for a whole-file problem) and whose reason holds ``expect``.
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from readsim.core.collection import Collection
from readsim.core.errors import InputError
from readsim.core.safe_xml import MAX_ARTICLE_BYTES
from readsim.core.text import MAX_ELEMENTS, MAX_TEXT_CHARS

from helpers.hostile_articles import CLEAN, TRUNCATED, clean, deep_wide

from .cases import ERROR, SAME, Case


DECODED = "Fresnel\u00a0lens"  # &nbsp; decoded from the collection's DTD or the built-in table


class Env:
    """A collection laid out as INEX's: ``top/articles/<name>.xml`` and ``top/article.dtd``."""

    def __init__(self, base: Path):
        self.top = base / "coll"
        self.articles = self.top / "articles"
        self.articles.mkdir(parents=True)
        self.file = self.articles / "a.xml"

    def write(self, data: bytes, name: str = "a.xml") -> Path:
        path = self.articles / name
        path.write_bytes(data)
        return path


def guarded(fn, seconds: float = 60.0):
    """``fn()`` in a daemon thread; fail (not hang) if it does not return within ``seconds``."""
    box: dict = {}

    def run():
        try:
            box["value"] = fn()
        except BaseException as err:  # noqa: BLE001 (handed to the test thread)
            box["error"] = err

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"blocked for {seconds} s (reading a FIFO or stdin?)"
    if "error" in box:
        raise box["error"]
    return box["value"]


def numbers(art) -> tuple:
    return art.text, art.length, art.doc_length, [(e.xpath, e.tag, e.depth, e.start, e.end) for e in art.elements]


# -- builders: each writes the hostile article as a.xml (and whatever else it needs) -------------

def write(data: bytes):
    return lambda env, inex: env.write(data)


def doctype(system_id: str):
    return write(clean(doctype=f'<!DOCTYPE article SYSTEM "{system_id}">'))


def other_dtd_file(env, inex):
    (env.articles / "evil.dtd").write_text('<!ENTITY nbsp "EVIL"><!ENTITY readsim "EVIL">')
    env.write(clean(doctype='<!DOCTYPE article SYSTEM "evil.dtd">'))


def article_dtd_elsewhere(env, inex):
    other = env.top.parent / "elsewhere"
    other.mkdir()
    (other / "article.dtd").write_text('<!ENTITY nbsp "EVIL">')
    env.write(clean(doctype='<!DOCTYPE article SYSTEM "../../elsewhere/article.dtd">'))


def fifo_dtd(env, inex):
    os.mkfifo(env.articles / "entities.dtd")
    env.write(clean(doctype='<!DOCTYPE article SYSTEM "entities.dtd">'))


def own_dtd_used(env, inex):
    (env.top / "article.dtd").write_text('<!ENTITY nbsp "&#160;"><!ENTITY readsim "own DTD">')
    env.write(clean(word="&readsim;"))


def own_dtd_folder(env, inex):
    (env.top / "article.dtd").mkdir()
    env.write(clean())


def own_dtd_fifo(env, inex):
    os.mkfifo(env.top / "article.dtd")
    env.write(clean())


def own_dtd_broken_link(env, inex):
    (env.top / "article.dtd").symlink_to(env.top / "gone.dtd")
    env.write(clean())


def folder_article(env, inex):
    env.file.mkdir()


def dangling(env, inex):
    env.file.symlink_to(env.articles / "missing.xml")


def fifo_article(env, inex):
    os.mkfifo(env.file)


def sparse_huge(env, inex):
    with open(env.file, "wb") as f:
        f.truncate(MAX_ARTICLE_BYTES + 1)  # sparse: nothing is written, and nothing may be read


def deep_numbers(levels: int, per_level: int, word: bytes = b"word") -> tuple:
    length = levels * (per_level * len(word) + 1)
    return (length, length - 1, 2 + levels * (per_level + 1), levels + (2 if per_level else 1))


def laughs() -> bytes:
    ents = "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">\n' for i in range(1, 10))
    return f'<?xml version="1.0"?>\n<!DOCTYPE article [\n<!ENTITY lol0 "lol">\n{ents}]>\n<article><p>&lol9;</p></article>\n'.encode()


def real_copy(name: str, transform):
    def build(env, inex):
        env.write(transform((inex / "articles" / f"{name}.xml").read_bytes()))
    return build


def real_clean(name: str):
    """The real article as it is, with the real collection's DTD beside it (as in the data)."""
    def build(env, inex):
        shutil.copy(inex / "article.dtd", env.top / "article.dtd")
        shutil.copy(inex / "articles" / f"{name}.xml", env.file)
    return build


BOM = b"\xef\xbb\xbf"
CLEAN_LATIN1 = CLEAN.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"').replace("&nbsp;", "\u00a0")

CASES = [
    # -- encodings and line ends: the same numbers as the clean article ---------------------
    Case("bom", "a UTF-8 byte-order mark before the XML declaration", SAME, DECODED, {"build": write(BOM + clean())}),
    Case("crlf", "CRLF line ends (XML reads them as LF: offsets follow the parsed text)", SAME, DECODED,
         {"build": write(clean().replace(b"\n", b"\r\n"))}),
    Case("bom_crlf", "a BOM and CRLF line ends", SAME, DECODED, {"build": write(BOM + clean().replace(b"\n", b"\r\n"))}),
    Case("utf16", "UTF-16 with its byte-order mark (declared UTF-16)", SAME, DECODED,
         {"build": write(CLEAN.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16"))}),
    Case("latin1_declared", "ISO-8859-1 bytes, declared so, no-break space as a byte", SAME, DECODED,
         {"build": write(CLEAN_LATIN1.encode("latin-1"))}),
    Case("no_doctype", "no DOCTYPE at all, &nbsp; used: the built-in HTML entity table", SAME, DECODED,
         {"build": write(clean(doctype=""))}),
    # -- DOCTYPE system ids that must not be read: the built-in entity table instead ---------
    Case("doctype_dev_stdin", "DOCTYPE names /dev/stdin (stdin a silent pipe): not read, no block", SAME, DECODED,
         {"build": doctype("/dev/stdin"), "stdin": True}),
    Case("doctype_dev_zero", "DOCTYPE names /dev/zero (endless): not read", SAME, DECODED, {"build": doctype("/dev/zero")}),
    Case("doctype_fifo", "DOCTYPE names a FIFO beside the article: not opened, no block", SAME, DECODED, {"build": fifo_dtd}),
    Case("doctype_other_file", "DOCTYPE names another local DTD that redefines &nbsp;: ignored", SAME, DECODED,
         {"build": other_dtd_file}),
    Case("doctype_other_article_dtd", "DOCTYPE names an article.dtd outside the collection: ignored", SAME, DECODED,
         {"build": article_dtd_elsewhere}),
    Case("doctype_passwd", "DOCTYPE names file:///etc/passwd: not read", SAME, DECODED, {"build": doctype("file:///etc/passwd")}),
    Case("doctype_url", "DOCTYPE names an http URL: no network", SAME, DECODED,
         {"build": doctype("http://readsim.invalid/article.dtd")}),
    # -- the collection's own DTD ---------------------------------------------------------------
    Case("own_dtd_used", "the collection's own ../article.dtd defines &readsim;: used", SAME, "own DTD",
         {"build": own_dtd_used, "clean": clean(word="own DTD")}),
    Case("own_dtd_folder", "../article.dtd is a folder: the built-in table", SAME, DECODED, {"build": own_dtd_folder}),
    Case("own_dtd_fifo", "../article.dtd is a FIFO: not opened, the built-in table", SAME, DECODED, {"build": own_dtd_fifo}),
    Case("own_dtd_broken_link", "../article.dtd is a broken symbolic link: the built-in table", SAME, DECODED,
         {"build": own_dtd_broken_link}),
    # -- entities ------------------------------------------------------------------------------
    Case("xxe", "an external entity on file:///etc/passwd, used on line 5", ERROR, "undefined entity &x;",
         {"build": write(b'<?xml version="1.0"?>\n<!DOCTYPE article [\n<!ENTITY x SYSTEM "file:///etc/passwd">\n]>\n'
                         b"<article><p>b&x;c</p></article>\n"), "line": 5}),
    Case("xxe_parameter", "an external parameter entity on /dev/stdin, used on line 4", ERROR, "undefined entity &p;",
         {"build": write(b'<?xml version="1.0"?>\n<!DOCTYPE article [\n<!ENTITY % p SYSTEM "/dev/stdin">\n%p;\n]>\n'
                         b"<article><p>b</p></article>\n"), "line": 4, "stdin": True}),
    Case("billion_laughs", "nested entities expanding to 10^9 'lol's", ERROR, "entity bomb", {"build": write(laughs()), "line": None}),
    Case("quadratic_blowup", "one 100 KB entity used 10,000 times on line 4", ERROR, "entity bomb",
         {"build": write(b'<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY x "' + b"y" * 100_000 + b'">]>\n<a>\n'
                         + b"&x;" * 10_000 + b"</a>\n"), "line": None}),
    Case("undefined_entity", "&foo; used on line 2, no DOCTYPE", ERROR, "undefined entity &foo;",
         {"build": write(b"<article>\n<p>a&foo;b</p>\n</article>\n"), "line": 2}),
    Case("undefined_entity_dtd", "&foo; used on line 13, defined nowhere (built-in table)", ERROR, "undefined entity &foo;",
         {"build": write(clean(word="&foo;")), "line": 13}),
    # -- not XML -------------------------------------------------------------------------------
    Case("empty", "an empty file", ERROR, "empty file", {"build": write(b""), "line": 1}),
    Case("blank", "only blank lines", ERROR, "empty file", {"build": write(b"\n\n  \n"), "line": 4}),
    Case("not_xml", "plain text, not XML", ERROR, "not well-formed XML", {"build": write(b"Fresnel lens\nby A. Fresnel\n"), "line": 1}),
    Case("truncated", "XML cut after an opening <p> on line 13", ERROR, "not well-formed XML", {"build": write(TRUNCATED), "line": 13}),
    Case("mismatched_tag", "</article> closes <p> on line 3", ERROR, "not well-formed XML",
         {"build": write(b"<article>\n<p>one</p>\n<p>two</article>\n"), "line": 3}),
    Case("binary", "binary junk (NUL bytes)", ERROR, "binary file", {"build": write(bytes(range(256)) * 4), "line": 1}),
    Case("not_utf8", "Latin-1 bytes without an encoding declaration, on line 2", ERROR, "not well-formed XML",
         {"build": write(b"<article>\n<p>tr\xe8s</p>\n</article>\n"), "line": 2}),
    # -- not a readable file -------------------------------------------------------------------
    Case("folder", "a folder named a.xml", ERROR, "is a folder", {"build": folder_article, "line": None}),
    Case("dangling_symlink", "a.xml a symbolic link to a missing file", ERROR, "broken symbolic link",
         {"build": dangling, "line": None}),
    Case("fifo_article", "a.xml is a FIFO: refused, not read (no block)", ERROR, "not a regular file",
         {"build": fifo_article, "line": None}),
    # -- size and shape: linear, within budgets --------------------------------------------------
    Case("deep_2000", "2,000 nested sections, 10 leaves each", SAME, deep_numbers(2000, 10),
         {"build": write(deep_wide(2000, 10)), "seconds": 30}),
    Case("deep_wide_2mb", "2,000 levels, 200,000 leaves, 2.2 MB: parsed, no hang (guard 30 s)", SAME, deep_numbers(2000, 100),
         {"build": write(deep_wide(2000, 100)), "seconds": 30}),
    Case("too_deep", "2,100 nested sections: beyond libxml2's 2,048 levels, stops on line 2048", ERROR,
         "nested deeper than 2048", {"build": write(deep_wide(2100, 0)), "line": 2048}),
    Case("over_elements", f"{MAX_ELEMENTS + 1:,} elements (4 MB of <a/>)", ERROR, f"over the budget of {MAX_ELEMENTS:,}",
         {"build": write(b"<article>" + b"<a/>" * MAX_ELEMENTS + b"</article>"), "line": None}),
    Case("over_text", f"{MAX_TEXT_CHARS + 1:,} characters of text", ERROR, f"over the budget of {MAX_TEXT_CHARS:,}",
         {"build": write(b"<article>" + b"x" * (MAX_TEXT_CHARS + 1) + b"</article>"), "line": None}),
    Case("over_bytes", "a file 1 byte over the 32 MiB budget (sparse, never read)", ERROR,
         f"over the budget of {MAX_ARTICLE_BYTES:,} bytes", {"build": sparse_huge, "line": None}),
    # -- real INEX articles, changed: the same numbers as the original with its DTD ----------------
    Case("real_bom", "real article 1164 with a BOM prepended", SAME, "Artificial intelligence",
         {"build": real_copy("1164", lambda b: BOM + b), "real": "1164"}),
    Case("real_crlf", "real article 10025826 (79 &nbsp;, non-ASCII) with CRLF line ends, no DTD", SAME, "\u00a0",
         {"build": real_copy("10025826", lambda b: b.replace(b"\n", b"\r\n")), "real": "10025826"}),
]


@pytest.mark.parametrize("case", CASES, ids=Case.name)
def test_article(case: Case, tmp_path: Path, request):
    inex = request.getfixturevalue("inex") if "real" in case.data else None
    if case.data.get("stdin"):
        request.getfixturevalue("stdin_silent")
    env = Env(tmp_path / "hostile")
    case.data["build"](env, inex)
    load = lambda: Collection(env.articles).article("a")  # noqa: E731 (what the app and the CLI call)
    if case.outcome == ERROR:
        with pytest.raises(InputError) as caught:
            guarded(load)
        err = caught.value
        assert err.path == str(env.file)
        assert err.line == case.data["line"]
        assert case.expect in err.reason
        where = f"{env.file}:{err.line}" if err.line else str(env.file)
        assert str(err).startswith(f"{where}: ")
        return
    assert case.outcome == SAME
    if isinstance(case.expect, tuple):  # generated shapes: numbers worked out from the generator
        # a hang guard, no clock read: parsed and its element index built (inside the guard) within
        # data["seconds"], 10x the aim of 3 s (a quadratic walk would take minutes); how long it
        # takes is measured in bench/bench_loading.py
        def shape_of():
            art = load()
            return art, (art.length, art.doc_length, len(art.elements), max(e.depth for e in art.elements))

        art, shape = guarded(shape_of, seconds=case.data["seconds"])
        assert shape == case.expect
        deepest = max(art.elements, key=lambda e: e.depth)
        assert art.span(deepest.xpath) == (deepest.start, deepest.end)
        return
    art = guarded(load)
    got = numbers(art)
    assert case.expect in art.text
    base = Env(tmp_path / "clean")
    if "real" in case.data:
        real_clean(case.data["real"])(base, inex)
    else:
        base.write(case.data.get("clean", clean()))
    want = numbers(Collection(base.articles).article("a"))
    assert got == want
