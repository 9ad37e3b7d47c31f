"""Topic files (docs/reference.md section 2.7): inex-topic-file, inex_topic, Indri query files."""

from __future__ import annotations

import pytest

from readsim.core.errors import InputError
from readsim.core.formats import read_topics


def write(tmp_path, text: str, name: str = "t.xml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_inex_topic_file(tmp_path):
    path = write(tmp_path, """<?xml version="1.0"?>
<inex-topic-file>
<topic id="2026001" ct_no="1">
  <title>reading  order</title>
  <castitle>//article[about(., reading order)]</castitle>
  <description>how people
  read</description>
  <narrative>Anything about reading &amp; effort.</narrative>
</topic>
<topic id="2026002"><title>second</title></topic>
</inex-topic-file>
""")
    topics = read_topics(path)
    assert list(topics) == ["2026001", "2026002"]
    t = topics["2026001"]
    assert (t.id, t.title, t.description, t.narrative) == (
        "2026001", "reading order", "how people read", "Anything about reading & effort.")
    assert topics["2026002"].description == ""


def test_inex_topic_one_per_file(tmp_path):
    path = write(tmp_path, """<?xml version="1.0"?>
<inex_topic topic_id="289" query_type="CO">
  <title>emperor "Napoleon I" Polish</title>
  <description>Find information about Napoleon's relations with Poland.</description>
  <narrative>Relevant: anything.</narrative>
</inex_topic>
""")
    topics = read_topics(path)
    assert list(topics) == ["289"]
    assert topics["289"].title == 'emperor "Napoleon I" Polish'
    assert topics["289"].description.startswith("Find information")


def test_indri_query_file(tmp_path):
    path = write(tmp_path, """<parameters>
  <query><number>7</number><text>#combine( nobel prize )</text></query>
  <query><number>8</number><text>plain words</text></query>
</parameters>
""")
    topics = read_topics(path)
    assert topics["7"].title == "nobel prize"
    assert topics["8"].title == "plain words"


def test_no_topics_or_bad_xml(tmp_path):
    with pytest.raises(InputError):
        read_topics(write(tmp_path, "<something><else/></something>"))
    with pytest.raises(InputError) as err:
        read_topics(write(tmp_path, "<inex-topic-file>\n<topic id='1'>\n</inex-topic-file>", "bad.xml"))
    assert err.value.line is not None and str(err.value).startswith(str(tmp_path / "bad.xml"))


def test_real_topic_files(inex):
    topics = read_topics(inex / "topics" / "inex2009-topics.xml")
    assert len(topics) == 115  # data README
    assert topics["2009001"].title == "Nobel prize"
    assert topics["2009001"].description == "information about Nobel prize"
    titles = read_topics(inex / "topics" / "inex2009-2010-titles.indri.xml")
    assert len(titles) == 120
    assert titles["2009001"].title == "nobel prize"
