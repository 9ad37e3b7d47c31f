"""XML runs of INEX 2006-2008: ``<inex-submission run-id task ...>``.

::

    <inex-submission participant-id="12" run-id="myrun" task="RelevantInContext">
      <topic topic-id="2008001">
        <result><file>12345</file><fol offset="100" length="200"/><rank>1</rank></result>
        <result><file>12345</file><path>/article[1]/bdy[1]/sec[2]</path></result>
        <result><file>678</file><passage start="/article[1]/bdy[1]/p[3]/text()[2].15"
                                         end="/article[1]/bdy[1]/p[4]/text()[1].20"/></result>
      </topic>
    </inex-submission>

As in FOL runs, document order is the rank and a new article rank starts where the file
changes; a result may hold several ``<fol>``, ``<path>`` and ``<passage>`` children, and a
result with none retrieves the whole article. Offsets of ``<fol>`` are in the run's unit;
XPaths and XPointers are converted with the collection (:mod:`readsim.core.result_lines`). Returns the
same :class:`~readsim.core.formats.run.Run` as the FOL reader, with the same policies.
"""

from __future__ import annotations

import codecs
import os

from .. import intervals as iv
from ..errors import Diagnostic, InputError
from .lines import to_int
from .run import Run, RunArticle


def _int(el, attr: str, path: str) -> int:
    """The integer attribute ``attr`` of ``el`` (ASCII digits, below 2^40 in absolute value)."""
    value = el.get(attr)
    if value is None:
        raise InputError(path, el.sourceline, f"<{el.tag}> needs an integer {attr}")
    return to_int(value.strip(), path, el.sourceline, f"<{el.tag}> {attr}")


_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF8, "utf-8"),
         (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


def is_xml_run(path: str | os.PathLike, data: bytes | None = None) -> bool:
    """True if the file (or its ``data``) starts like an XML document: ``<`` after blanks and a
    byte-order mark (UTF-8, UTF-16 or UTF-32, so an XML run in UTF-16 is read as XML, the
    encoding its declaration and mark say, as articles are: docs/reference.md section 2.6);
    False for a file that cannot be read (the FOL reader then names the reason)."""
    if data is None:
        try:
            with open(path, "rb") as fh:
                data = fh.read(512)
        except OSError:
            return False
    head = data[:512]
    for bom, encoding in _BOMS:  # UTF-32 LE before UTF-16 LE: its mark starts with UTF-16's
        if head.startswith(bom):
            return head[len(bom):].decode(encoding, "ignore").lstrip(" \t\r\n").startswith("<")
    return head.lstrip(b" \t\r\n").startswith(b"<")


def read_xml_run(path: str | os.PathLike, strict: bool = False, data: bytes | None = None) -> Run:
    """Read an INEX 2006-2008 XML run (from ``data`` when the file was already read). Raises
    :class:`InputError` naming file and line."""
    path = str(path)
    from ..safe_xml import parse_xml  # lxml, only when an XML run is read

    root = (parse_xml(path) if data is None else parse_xml(data, path)).getroot()
    if root.tag != "inex-submission":
        raise InputError(path, root.sourceline, f"expected <inex-submission>, found <{root.tag}>")
    run = Run(path, root.get("run-id") or os.path.basename(path))
    for topic_el in root.iter("topic"):
        topic = topic_el.get("topic-id") or topic_el.get("id")
        if not topic:
            raise InputError(path, topic_el.sourceline, "<topic> without a topic-id")
        if topic in run.topics:
            message = f"topic {topic} appears in two blocks; merged into its first block"
            if strict:
                raise InputError(path, topic_el.sourceline, message.split(";")[0] + "; rejected (--strict)")
            run.diagnostics.append(Diagnostic(path, topic_el.sourceline, message))
        entries = run.topics.setdefault(topic, [])
        by_article = {e.article: e for e in entries}
        previous = entries[-1].article if entries else None
        for result in topic_el.iter("result"):
            file_el = result.find("file")
            if file_el is None or not (file_el.text or "").strip():
                raise InputError(path, result.sourceline, "<result> without <file>")
            article = file_el.text.strip()
            entry = by_article.get(article)
            if entry is None:
                entry = RunArticle(article, len(entries) + 1, None, [], result.sourceline)
                entries.append(entry)
                by_article[article] = entry
            elif article != previous:
                message = f"topic {topic}: article {article} returns after other articles (interleaved); merged into its first rank"
                if strict:
                    raise InputError(path, result.sourceline, message.split(";")[0] + "; rejected (--strict)")
                run.diagnostics.append(Diagnostic(path, result.sourceline, message))
            previous = article
            entry.lines += (result.sourceline,)
            spans = [] if entry.passages is None else entry.passages.tolist()
            for fol in result.iter("fol"):
                offset, length = _int(fol, "offset", path), _int(fol, "length", path)
                if offset < 0 or length < 0:
                    raise InputError(path, fol.sourceline, f"negative offset or length ({offset} {length})")
                spans.append((offset, offset + length))
            for xp in result.iter("path"):
                if (xp.text or "").strip():
                    entry.xpaths.append(xp.text.strip())
                    entry.xpath_lines += (xp.sourceline,)
            for passage in result.iter("passage"):
                start, end = passage.get("start"), passage.get("end")
                if not start or not end:
                    raise InputError(path, passage.sourceline, "<passage> needs start and end XPointers")
                entry.pointers.append((start, end))
                entry.pointer_lines += (passage.sourceline,)
            if spans:
                if iv.overlaps(spans):
                    run.diagnostics.append(Diagnostic(path, result.sourceline, f"overlapping passages of article {article} (topic {topic}) united"))
                entry.passages = iv.normalize(spans)
    return run
