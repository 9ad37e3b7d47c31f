"""INEX topics: titles (and descriptions) for the GUI and reports.

Reads the INEX topic file ``<inex-topic-file><topic id><title/>...`` (2009-2010), the older
one-topic ``<inex_topic topic_id>`` files (2002-2008), and Indri query files
(``<parameters><query><number/><text/>``, titles only); JSON Lines ``{"topic", "title"}``
(:mod:`.jsonl`) and two-column TSV ``topic<TAB>title`` (docs/reference.md section 2.7).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from ..errors import InputError


@dataclass(frozen=True)
class Topic:
    """One topic: id, title, and the longer texts when the file has them ("" otherwise)."""

    id: str
    title: str
    description: str = ""
    narrative: str = ""


def _text(node, tag: str) -> str:
    child = node.find(tag)
    return " ".join("".join(child.itertext()).split()) if child is not None else ""


def read_topics(path: str | os.PathLike) -> dict[str, Topic]:
    """Read a topic file (XML, or recognised by content: JSON Lines when it starts with ``{``,
    else TSV when it does not start with ``<``); returns ``{topic id: Topic}`` in file order.

    Raises :class:`InputError` for malformed XML or a file with no topic in a known format.
    """
    from ..safe_xml import parse_xml, read_file  # lxml, only when topics are read

    data = read_file(path)  # a regular file only, as before: never blocks on a FIFO or device
    from .jsonl import is_jsonl
    from .xmlrun import is_xml_run

    blank = not data.strip(b" \t\r\n\xef\xbb\xbf")  # an empty file: the XML reader's "empty file, not XML"
    if not blank and is_jsonl(data):
        return _read_jsonl(path, data)
    if not blank and not is_xml_run(path, data):  # XML starts with < (after any byte-order mark)
        return _read_tsv(path, data)
    root = parse_xml(data, os.fspath(path), base_url=os.path.abspath(path)).getroot()
    topics: dict[str, Topic] = {}
    if root.tag == "inex_topic":
        nodes = [root]
    else:
        nodes = [n for n in root.iter("topic", "inex_topic")]
    for node in nodes:
        tid = node.get("id") or node.get("topic_id")
        if tid:
            topics[tid] = Topic(tid, _text(node, "title"), _text(node, "description"), _text(node, "narrative"))
    for query in root.iter("query"):
        number = _text(query, "number")
        text = _text(query, "text")
        if number:
            title = re.sub(r"#\w+\(\s*(.*?)\s*\)$", r"\1", text)
            topics.setdefault(number, Topic(number, title))
    if not topics:
        raise InputError(path, None, "no topics found (expected <inex-topic-file>, <inex_topic> or an Indri <parameters> file)")
    return topics


def _read_tsv(path, data: bytes) -> dict[str, Topic]:
    """``topic<TAB>title`` lines (blank and ``#`` lines skipped); a line without a tab is an
    :class:`InputError` naming it."""
    from .lines import check_controls, read_text

    text = read_text(path, data)
    check_controls(text, path)
    topics: dict[str, Topic] = {}
    for number, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        tid, tab, title = line.partition("\t")
        tid = tid.strip()
        if not tab or not tid or any(c.isspace() for c in tid):
            raise InputError(path, number, "a topics line is topic<TAB>title (or the file is XML or JSON Lines)")
        topics[tid] = Topic(tid, " ".join(title.split()))
    if not topics:
        raise InputError(path, None, "no topics found (expected XML topics, JSON Lines or topic<TAB>title lines)")
    return topics


def _read_jsonl(path, data: bytes) -> dict[str, Topic]:
    """``{"topic", "title"}`` lines as ``{topic id: Topic}`` in file order."""
    from .jsonl import json_lines, name

    topics: dict[str, Topic] = {}
    for number, obj in json_lines(path, data):
        topic = name(obj, "topic", path, number)
        title = obj.get("title")
        if not isinstance(title, str):
            raise InputError(path, number, "missing field 'title'" if title is None else "title must be a string")
        topics[topic] = Topic(topic, " ".join(title.split()))
    if not topics:
        raise InputError(path, None, "no topics found (expected {\"topic\", \"title\"} lines)")
    return topics
