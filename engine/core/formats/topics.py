"""INEX topics: titles (and descriptions) for the GUI and reports.

Reads the INEX topic file ``<inex-topic-file><topic id><title/>...`` (2009-2010), the older
one-topic ``<inex_topic topic_id>`` files (2002-2008), and Indri query files
(``<parameters><query><number/><text/>``, titles only).
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
    """Read a topic file; returns ``{topic id: Topic}`` in file order.

    Raises :class:`InputError` for malformed XML or a file with no topic in a known format.
    """
    from ..safe_xml import parse_xml  # lxml, only when topics are read

    root = parse_xml(path).getroot()
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
