"""XML runs (INEX 2006-2008): <fol>, <path> and <passage> XPointers, resolved with the collection."""

from __future__ import annotations

import numpy as np
import pytest

from readsim.core.collection import Collection
from readsim.core.errors import InputError
from readsim.core.formats import read_any_run, read_xml_run
from readsim.core.result_lines import retrieved_passages
from readsim.core.text import Article

ARTICLE = b"""<article><header><title>Lens</title></header><bdy>
<p>Hello <b>big</b> world.</p><p>Second para.</p></bdy></article>"""
# text: "Lens" [0,4), "\n" (bdy's own text), "Hello big world." [5,21), "Second para." [21,33)


@pytest.fixture()
def coll(tmp_path):
    folder = tmp_path / "articles"
    folder.mkdir()
    (folder / "42.xml").write_bytes(ARTICLE)
    return Collection(folder)


def write(tmp_path, body: str):
    path = tmp_path / "run.xml"
    path.write_text(f'<inex-submission participant-id="1" run-id="xr" task="RelevantInContext">{body}</inex-submission>')
    return path


def test_fol_path_and_xpointer_passages_resolve_to_offsets(tmp_path, coll):
    art = Article.from_bytes(ARTICLE)
    # "Lens" + "\n" (bdy's own text) + "Hello " + "big" + " world." + "Second para."
    assert art.text == "Lens\nHello big world.Second para."
    path = write(tmp_path, """<topic topic-id="7">
      <result><file>42</file><fol offset="0" length="4"/></result>
      <result><file>42</file><path>/article[1]/bdy[1]/p[2]</path>
              <passage start="/article[1]/bdy[1]/p[1]/text()[2].1" end="/article[1]/bdy[1]/p[1]/text()[2].6"/></result>
    </topic>""")
    run = read_any_run(path)
    assert run.run_id == "xr" and run.diagnostics == []
    (entry,) = run.topics["7"]
    spans = retrieved_passages(run, "7", entry, coll)
    # fol [0,4) "Lens"; p[2] = "Second para." = [21, 33); text()[2] of p[1] is " world." at 14:
    # .1 -> 15, .6 -> 20: "world"
    assert spans.tolist() == [[0, 4], [15, 20], [21, 33]]
    assert art.text[15:20] == "world"


def test_xpointers_need_the_collection(tmp_path):
    path = write(tmp_path, """<topic topic-id="7"><result><file>42</file>
        <passage start="/article[1]/bdy[1]/p[1]" end="/article[1]/bdy[1]/p[2]"/></result></topic>""")
    run = read_xml_run(path)
    with pytest.raises(InputError, match="need the collection"):
        retrieved_passages(run, "7", run.topics["7"][0], None)


def test_interleaved_xml_results_merge_with_a_warning_and_strict_rejects(tmp_path):
    body = """<topic topic-id="7">
      <result><file>1</file><fol offset="0" length="4"/></result>
      <result><file>2</file><fol offset="0" length="4"/></result>
      <result><file>1</file><fol offset="10" length="4"/></result></topic>"""
    run = read_xml_run(write(tmp_path, body))
    assert [e.article for e in run.topics["7"]] == ["1", "2"]
    assert np.array_equal(run.topics["7"][0].passages, [[0, 4], [10, 14]])
    assert any("interleaved" in d.message for d in run.diagnostics)
    with pytest.raises(InputError, match="rejected"):
        read_xml_run(write(tmp_path, body), strict=True)


def test_a_result_without_passages_retrieves_the_whole_article(tmp_path):
    run = read_xml_run(write(tmp_path, '<topic topic-id="7"><result><file>1</file></result></topic>'))
    assert run.topics["7"][0].whole


def test_bad_fol_names_the_line(tmp_path):
    path = write(tmp_path, '<topic topic-id="7">\n<result><file>1</file>\n<fol offset="x" length="4"/></result></topic>')
    with pytest.raises(InputError) as err:
        read_xml_run(path)
    assert str(err.value).startswith(f"{path}:3:")


def test_seven_field_fol_lines_resolve_element_paths(tmp_path, coll):
    from readsim.core.formats import read_run

    path = tmp_path / "run.txt"
    path.write_text("7 Q0 42 1 1.0 r /article[1]/bdy[1]/p[2]\n7 Q0 42 1 1.0 r /article[1]/header[1]/title[1]\n")
    run = read_run(path)
    spans = retrieved_passages(run, "7", run.topics["7"][0], coll)
    assert spans.tolist() == [[0, 4], [21, 33]]  # "Lens" and "Second para." (see above)
    bad = tmp_path / "bad.txt"
    bad.write_text("7 Q0 42 1 1.0 r /article[1]/bdy[1]/p[9]\n")
    run = read_run(bad)
    with pytest.raises(InputError, match=r"bad.txt:1: article 42 has no element"):
        retrieved_passages(run, "7", run.topics["7"][0], coll)
