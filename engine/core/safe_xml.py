"""Safe, bounded article parsing (docs/reference.md section 2.8): regular files read without blocking, the
budgets of reading and parsing, the collection's own DTD or the built-in entity table, and
lxml's entity loader pinned for parses in threads. The article text model built from the parsed
tree is :mod:`readsim.core.text`.

**What is read.** :func:`read_file` reads only a regular file (never a FIFO, device, socket or
folder, so nothing blocks), within :data:`MAX_ARTICLE_BYTES`. lxml parses it with no network, no
external entities (``<!ENTITY x SYSTEM "file:///etc/passwd">`` is never read: ``&x;`` is an
error) and libxml2's entity-amplification guard (a "billion laughs" file is an error, not
gigabytes). A DOCTYPE's system id is loaded only when it names the collection's **own**
``article.dtd``: a regular file of that name in the article's folder or a folder above it, up to
the parent of the collection folder (where the INEX articles' ``../article.dtd`` points; see
:func:`dtd_paths`). Every other id -- ``/dev/stdin``, a FIFO, another local file, a URL, an
``article.dtd`` that is a folder or a FIFO -- gets the built-in entity table
:data:`BUILTIN_DTD`, the packaged copy of the collection's DTD: the real ``article.dtd``
declares exactly the XHTML 1.0 entity sets, the 253 entities of :mod:`html.entities` (checked
by a test), so ``&nbsp;`` decodes the same with or without it, and in an article with no
DOCTYPE at all (parsed again with the built-in table, lines unchanged). This holds for articles
parsed in threads too (see :func:`_pin_loader`).
"""

from __future__ import annotations

import html.entities
import os
import re
import stat
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from urllib.parse import unquote, urlsplit

from lxml import etree

from .errors import InputError

# -- budgets of reading and parsing (the text's own: readsim.core.text) -----------------------
# In the real INEX 2009 data the largest article file is 612 KB, the most elements 10,654 and
# the longest text 103,259 characters; a valid
# but hostile article of 2,000 levels, 200,000 leaves and 2 MB parses in about a second.
# Beyond a budget an article is an InputError naming the budget, never minutes or gigabytes.

MAX_ARTICLE_BYTES = 32 * 1024 * 1024
"""Largest article file read, in bytes (checked before parsing): 32 MiB, 50 times the largest
real article. It bounds the parsed tree: an element costs at least 4 bytes of file."""

MAX_DEPTH = 2048
"""Deepest element nesting: libxml2's own limit (with ``huge_tree``, which readsim turns on so
that 2,000 levels parse; without it the limit is 256). Deeper is an error naming the line."""

MAX_DTD_BYTES = 1024 * 1024
"""Largest collection DTD read (the real one is 33 KB); a bigger one is ignored for the built-in table."""

DTD_NAME = "article.dtd"

BUILTIN_DTD = "".join(
    f'<!ENTITY {name} "&#{code};">\n'
    for name, code in sorted(html.entities.name2codepoint.items())
    if name not in ("amp", "lt", "gt", "quot", "apos")
)
"""The built-in entity table: the XHTML 1.0 entity sets as a DTD (what the collection's
``article.dtd`` declares), served for every DOCTYPE that is not the collection's own DTD."""


def read_file(path: str | os.PathLike, max_bytes: int | None = None) -> bytes:
    """The bytes of the regular file ``path``, without ever blocking.

    The path is checked to be a regular file before it is opened (a FIFO, a device such as
    ``/dev/stdin``, or a socket is refused without being opened), then opened non-blocking and
    checked again (the file may have changed in between) before it is read. ``max_bytes`` (``None``: no
    limit) is a budget checked before reading. Raises :class:`InputError` naming ``path``: no
    such file, a broken symbolic link, a folder, not a regular file, unreadable, over the budget.
    """
    label = os.fspath(path)
    try:  # checked before opening: a device (an article.dtd linked to /dev/...) is never opened
        before = os.stat(path).st_mode
    except OSError:
        before = None  # os.open below names the reason
    if before is not None and not stat.S_ISREG(before):
        if stat.S_ISDIR(before):
            raise InputError(label, None, "is a folder, not a file")
        raise InputError(label, None, "not a regular file (a FIFO, device or socket): not read")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        if os.path.islink(path):
            raise InputError(label, None, f"broken symbolic link (to {os.readlink(path)}, which does not exist)") from None
        raise InputError(label, None, "file not found") from None
    except IsADirectoryError:
        raise InputError(label, None, "is a folder, not a file") from None
    except OSError as err:
        raise InputError(label, None, f"cannot read: {err.strerror or err}") from None
    try:
        mode = os.fstat(fd)
        if stat.S_ISDIR(mode.st_mode):
            raise InputError(label, None, "is a folder, not a file")
        if not stat.S_ISREG(mode.st_mode):
            raise InputError(label, None, "not a regular file (a FIFO, device or socket): not read")
        if max_bytes is not None and mode.st_size > max_bytes:
            raise InputError(label, None, f"{mode.st_size:,} bytes, over the budget of {max_bytes:,} bytes")
        with open(fd, "rb", closefd=False) as f:
            data = f.read() if max_bytes is None else f.read(max_bytes + 1)
    except OSError as err:
        raise InputError(label, None, f"cannot read: {err.strerror or err}") from None
    finally:
        os.close(fd)
    if max_bytes is not None and len(data) > max_bytes:  # the file grew while we read it
        raise InputError(label, None, f"over the budget of {max_bytes:,} bytes")
    return data


def dtd_paths(article: str | os.PathLike, collection: str | os.PathLike | None = None) -> list[str]:
    """Where the collection's own DTD may be: ``article.dtd`` in the article's folder and every
    folder above it up to the parent of ``collection`` (default: the article's folder), real
    paths (symbolic links resolved). ``../article.dtd`` of an INEX article is among them."""
    folder = Path(os.path.realpath(Path(article).parent))
    top = Path(os.path.realpath(collection)) if collection is not None else folder
    out = [folder / DTD_NAME]
    if folder == top or top in folder.parents:
        up = folder
        while up != top:
            up = up.parent
            out.append(up / DTD_NAME)
        out.append(top.parent / DTD_NAME)  # where the articles' ../article.dtd points
    else:  # an article outside the collection folder: its own folder and the one above
        out.append(folder.parent / DTD_NAME)
    return list(dict.fromkeys(os.path.realpath(p) for p in out))


_URL_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:")


def _local_path(url: str | None) -> str | None:
    """The local file a system id names, or None for a URL (``http:``, ``ftp:``, ...)."""
    if not url:
        return None
    if url.startswith("file:"):
        parts = urlsplit(url)
        return unquote(parts.path) if parts.netloc in ("", "localhost") else None
    if _URL_SCHEME.match(url):  # a scheme of 2+ letters (a Windows drive "C:" is one letter)
        return None
    return url


class _DTDResolver(etree.Resolver):
    """Serve the collection's own DTD when a DOCTYPE names it, the built-in table otherwise.

    Never returns ``None`` (which would let libxml2 open the id itself: a FIFO, a device, a URL)."""

    def __init__(self, allowed: Iterable[str] | Mapping[str, bytes | None]):
        super().__init__()
        self.allowed = frozenset(allowed)
        self.contents = allowed if isinstance(allowed, Mapping) else {}  # a DTD inside an archive

    def resolve(self, url, pubid, context):  # lxml API
        path = _local_path(url)
        if path is not None and self.allowed:
            for candidate in dict.fromkeys((path, unquote(path))):
                if os.path.basename(candidate) != DTD_NAME:
                    continue
                real = os.path.realpath(candidate)
                if real in self.allowed:
                    try:
                        data = self.contents.get(real)
                        return self.resolve_string(data if data is not None else read_file(real, MAX_DTD_BYTES), context)
                    except InputError:  # a folder, a FIFO, too big: the built-in table
                        break
        return self.resolve_string(BUILTIN_DTD, context)


class _Gate(etree.Resolver):
    """A resolver that holds its parse inside libxml2 until :attr:`leave` is set (for :func:`_pin_loader`)."""

    def __init__(self):
        super().__init__()
        self.inside = threading.Event()  # set when the parse reaches the resolver (or ends)
        self.leave = threading.Event()

    def resolve(self, url, pubid, context):  # lxml API
        self.inside.set()
        self.leave.wait(_PIN_TIMEOUT)
        return self.resolve_string("", context)

    def parse_in_thread(self) -> threading.Thread:
        """Start a parse of a few bytes in a new thread; return once it is held here (or ended)."""
        def run():
            try:
                parser = etree.XMLParser(no_network=True, resolve_entities="internal", load_dtd=True)
                parser.resolvers.add(self)
                etree.fromstring(b'<!DOCTYPE a SYSTEM "readsim:pin"><a/>', parser)
            except etree.LxmlError:
                pass  # not expected; the pin is then not made (single-threaded parsing is unaffected)
            finally:
                self.inside.set()
        thread = threading.Thread(target=run, name="readsim-pin-loader", daemon=True)
        thread.start()
        self.inside.wait(_PIN_TIMEOUT)
        return thread


_PIN_TIMEOUT = 10.0  # seconds; a guard only: each step takes microseconds
_pin_lock = threading.Lock()
_pinned = False


def _pin_loader() -> None:
    """Make lxml's resolver dispatch libxml2's process-wide external-entity loader for good.

    lxml (6.1, parser.pxi ``_ParserContext.prepare``/``cleanup``) installs its dispatcher, which
    asks the parser's resolvers, as libxml2's **process-wide** loader for the span of each parse,
    and puts back at the end the loader it found at the start. Parses in threads overlap: when a
    parse that found libxml2's own loader ends while another one is before its DOCTYPE, the
    other one's DTD is opened by libxml2 itself, :class:`_DTDResolver` never asked (reference
    section 2.8 broken: ``failed to load ".../inex.tar.gz/article.dtd"``, or a FIFO opened).
    Once the loader found at the start of every parse is lxml's dispatcher, that swap writes
    back what it read and no parse can skip its resolvers. This makes the state so, once per
    process, before the first parse: parse A is held inside its resolver (the dispatcher is in
    place), parse B starts (so B finds the dispatcher) and is held too, A ends (putting back what
    it found), then B ends and puts back the dispatcher. Both parses are a few bytes."""
    global _pinned
    with _pin_lock:
        if _pinned:
            return
        first, second = _Gate(), _Gate()
        threads = [first.parse_in_thread()]
        threads.append(second.parse_in_thread())
        for gate, thread in zip((first, second), threads):
            gate.leave.set()
            thread.join(_PIN_TIMEOUT)
        _pinned = True


def xml_parser(dtds: Iterable[str] | Mapping[str, bytes | None] = ()) -> etree.XMLParser:
    """A new safe parser: no network, internal entities only, the built-in entity table.

    A DOCTYPE's DTD is read only when it is one of ``dtds`` (real paths, see :func:`dtd_paths`)
    and a regular file; every other system id gets :data:`BUILTIN_DTD`. A mapping gives the
    DTD's bytes for a path inside an archive (a value of None: read the file). ``huge_tree`` lets
    nesting reach :data:`MAX_DEPTH`; sizes are bounded by the budgets, and libxml2's entity
    amplification guard stays on.
    """
    if not _pinned:
        _pin_loader()  # parses in threads always ask the resolver
    parser = etree.XMLParser(no_network=True, resolve_entities="internal", load_dtd=True, huge_tree=True)
    parser.resolvers.add(_DTDResolver(dtds))
    return parser


_UNDEFINED = re.compile(r"Entity '([^']*)' not defined")
_WHERE = re.compile(r", line \d+, column \d+$")  # the line goes beside the reason, not in it


def _syntax_reason(err: etree.XMLSyntaxError, data: bytes) -> str:
    """A user's wording of libxml2's message (the line is reported beside it)."""
    msg = _WHERE.sub("", err.msg or str(err))
    if not data.strip():
        return "empty file, not XML"
    m = _UNDEFINED.search(msg)
    if m:
        return (f"undefined entity &{m.group(1)}; (not in the DTD nor the built-in HTML table; "
                "external entities are never read)")
    if "Excessive depth" in msg:
        return f"elements nested deeper than {MAX_DEPTH} levels (budget readsim.core.safe_xml.MAX_DEPTH)"
    if "amplification" in msg:
        return "entity expansion too large (an entity bomb): not expanded"
    if "Document is empty" in msg and b"\x00" in data[:4096]:
        return "a binary file, not XML"
    return f"not well-formed XML: {msg}"


def parse_xml(
    source: str | os.PathLike | bytes,
    name: str | None = None,
    *,
    dtds: Iterable[str] | Mapping[str, bytes | None] = (),
    max_bytes: int | None = None,
    base_url: str | None = None,
) -> etree._ElementTree:
    """Parse an XML file (path) or document (bytes) safely (see :func:`xml_parser`).

    A path is read with :func:`read_file` (regular files only, ``max_bytes`` budget; relative
    system ids resolve against the file's folder). ``dtds``: the DTD files a DOCTYPE may load.
    Raises :class:`InputError` naming the file, and the line for malformed XML (an undefined
    or external entity, an entity bomb, nesting beyond :data:`MAX_DEPTH` included).
    ``base_url``: where the bytes' relative system ids resolve (an article inside an archive).
    """
    if isinstance(source, bytes):
        label, data, base = name or "<bytes>", source, base_url
        if max_bytes is not None and len(data) > max_bytes:
            raise InputError(label, None, f"{len(data):,} bytes, over the budget of {max_bytes:,} bytes")
    else:
        label = name or os.fspath(source)
        data = read_file(source, max_bytes)
        base = os.path.abspath(source)
    try:
        return etree.fromstring(data, xml_parser(dtds), base_url=base).getroottree()
    except etree.XMLSyntaxError as err:
        line = err.lineno if getattr(err, "lineno", None) else None
        if "amplification" in (err.msg or ""):
            line = None  # libxml2 gives the line inside the entity's text, not the document's
        if _UNDEFINED.search(err.msg or ""):
            tree = _with_builtin_doctype(data, base)
            if tree is not None:
                return tree
        raise InputError(label, line, _syntax_reason(err, data)) from None
    except (etree.LxmlError, ValueError) as err:
        raise InputError(label, None, f"not XML: {err}") from None


def _with_builtin_doctype(data: bytes, base: str | None) -> etree._ElementTree | None:
    """An undefined entity in a document without a DOCTYPE (``&nbsp;`` in a bare article):
    parse it again with a DOCTYPE naming the built-in table (docs/reference.md section 2.8: without the DTD,
    the HTML entity table), inserted after the XML declaration on the same line, so lines
    keep their numbers. None when that does not parse either (the first error stands)."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in data[:4]:
        return None  # UTF-16/32: not ASCII-compatible, leave the first error
    at = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    if data.startswith(b"<?xml", at):
        end = data.find(b"?>", at)
        if end < 0:
            return None
        at = end + 2
    patched = data[:at] + b'<!DOCTYPE article SYSTEM "readsim:builtin-entities">' + data[at:]
    try:
        return etree.fromstring(patched, xml_parser(), base_url=base).getroottree()
    except (etree.LxmlError, ValueError):
        return None
