"""ir_datasets datasets as a collection and as qrels (readsim.core.irds, docs/reference.md section
2.15), on datasets registered here from local files: nothing is downloaded. Skipped without the
package ir-datasets (the test extra installs it)."""

from __future__ import annotations

import io
import json
import sys
from typing import NamedTuple

import pytest

import readsim
from readsim.cli import main
from readsim.core.collection import Collection
from readsim.core.errors import InputError
from readsim.core.formats import read_qrels

SPANS, PLAIN, BODIES, QRELS_ONLY = ("irds:readsim-test/spans", "irds:readsim-test/plain", "irds:readsim-test/bodies",
                                    "irds:readsim-test/qrels-only")


class Doc(NamedTuple):
    doc_id: str
    title: str
    text: str


class Page(NamedTuple):  # no field named text: its first string field after the id and title is
    doc_id: str
    title: str
    page: str
    views: int


class SpanQrel(NamedTuple):
    query_id: str
    doc_id: str
    relevance: int
    start: int | None
    end: int | None


@pytest.fixture(scope="module")
def irds(tmp_path_factory):
    """The datasets above, registered once from files in a temporary folder (ir_datasets' home
    there too)."""
    home = tmp_path_factory.mktemp("irds")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("IR_DATASETS_HOME", str(home / "home"))
        ir_datasets = pytest.importorskip("ir_datasets")
    from ir_datasets.datasets.base import Dataset
    from ir_datasets.formats import BaseQrels, JsonlDocs, TrecQrels
    from ir_datasets.util import LocalDownload

    class SpanQrels(BaseQrels):
        def __init__(self, rows):
            self.rows = rows

        def qrels_iter(self):
            return iter(self.rows)

        def qrels_cls(self):
            return SpanQrel

        def qrels_defs(self):
            return {0: "not relevant", 1: "relevant"}

    def jsonl(name: str, rows: list[dict]):
        path = home / name
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        return LocalDownload(path)

    docs = JsonlDocs(jsonl("docs.jsonl", [{"doc_id": "a", "title": "Café", "text": "é日本 word"},
                                          {"doc_id": "b", "title": "B", "text": "0123456789"}]), doc_cls=Doc)
    spans = SpanQrels([SpanQrel("1", "a", 1, 1, 3), SpanQrel("1", "b", 2, 2, 6), SpanQrel("1", "b", 1, 4, 8),
                       SpanQrel("2", "b", 0, None, None)])
    (home / "plain.qrels").write_text("1 0 a 1\n", encoding="utf-8")
    pages = JsonlDocs(jsonl("pages.jsonl", [{"doc_id": "p", "title": "T", "page": "the page", "views": 3}]),
                      doc_cls=Page)
    register = ir_datasets.registry.register
    register(SPANS[5:], Dataset(docs, spans))
    register(PLAIN[5:], Dataset(docs, TrecQrels(LocalDownload(home / "plain.qrels"), {1: "relevant"})))
    register(BODIES[5:], Dataset(pages))
    register(QRELS_ONLY[5:], Dataset(spans))
    return home


def test_documents_by_id_in_both_units(irds):
    chars, byts = Collection(SPANS, "chars"), Collection(SPANS, "bytes")
    assert chars.names() == ["a", "b"] and "a" in chars and "z" not in chars
    a = chars.article("a")
    # é日本 word: 8 characters; é 2 + 日 3 + 本 3 + ' word' 5 = 13 bytes
    assert (a.text, a.length, a.doc_length, a.title) == ("é日本 word", 8, 8, "Café")
    assert byts.article("a").length == 13 and byts.article("a").substring(2, 5) == "日"
    assert chars.article("b").substring(2, 6) == "2345"
    with pytest.raises(KeyError):
        chars.article("z")


def test_text_is_the_first_string_field_without_a_text_field(irds):
    page = Collection(BODIES, "chars").article("p")
    assert (page.text, page.length, page.title) == ("the page", 8, "T")


def test_span_qrels_worked_by_hand(irds):
    qrels = read_qrels(SPANS)
    got = {t: {d: (j.rel_size, j.doc_length, j.passages.tolist()) for d, j in by.items()} for t, by in qrels.topics.items()}
    # topic 1: a [1,3) = 2; b [2,6) grade 2 and [4,8) grade 1 united to [2,8) = 6; doc_length the
    # largest end of the document's spans (2.11): a 3, b 8; topic 2: b judged non-relevant
    assert got == {"1": {"a": (2, 3, [[1, 3]]), "b": (6, 8, [[2, 8]])}, "2": {"b": (0, 8, [])}}
    # --min-grade 2: only b's grade-2 span is relevant; a (grade 1 only) is judged non-relevant
    with pytest.warns(readsim.InputWarning, match=r"^irds:readsim-test/spans:2: warning: overlapping passages united"):
        assert readsim.read_qrels(SPANS).topics == ["1", "2"]  # the API reads it too, record 2 named as its line
    high = read_qrels(SPANS, min_grade=2).topics["1"]
    assert (high["a"].rel_size, high["b"].rel_size, high["b"].passages.tolist()) == (0, 4, [[2, 6]])


def run_cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def test_readsim_eval_on_a_dataset(irds, tmp_path):
    run = tmp_path / "r.jsonl"
    run.write_text(json.dumps({"topic": "1", "doc": "b", "start": 0, "end": 4, "run": "r"}) + "\n", encoding="utf-8")
    code, out, err = run_cli(SPANS, run, "--collection", SPANS, "--unit", "chars", "--per-article",
                             "-m", "P_set", "-m", "R_set")
    # b: retrieved [0,4), relevant [2,8): 2 of 4 retrieved are relevant, 2 of 6 relevant retrieved
    assert code == 0, err
    assert out.splitlines() == ["P_set\t1\tb\t0.500000", "R_set\t1\tb\t0.333333"]


@pytest.mark.parametrize("name, reason", [
    ("irds:readsim-test/none", "ir_datasets has no dataset 'readsim-test/none'"),
    (QRELS_ONLY, "this dataset has no documents"),
])
def test_collection_errors_name_the_dataset(irds, name, reason):
    with pytest.raises(InputError) as err:
        Collection(name)
    assert err.value.path == name and reason in err.value.reason


def test_qrels_errors_name_the_dataset(irds, tmp_path):
    with pytest.raises(InputError, match=r"^irds:readsim-test/plain: its qrels carry no offsets \(fields: query_id, "
                                         r"doc_id, relevance, iteration\)"):
        read_qrels(PLAIN)
    with pytest.raises(InputError, match="this dataset has no qrels"):
        read_qrels(BODIES)
    run = tmp_path / "r.run"
    run.write_text("1 Q0 a 1 1 r 0 1\n", encoding="utf-8")
    code, out, err = run_cli("irds:readsim-test/none", run)
    assert code == 1 and out == "" and err.startswith("readsim-eval: irds:readsim-test/none: ir_datasets has no dataset")


def test_ir_datasets_missing_is_a_message(monkeypatch):
    monkeypatch.setitem(sys.modules, "ir_datasets", None)  # import ir_datasets now raises ImportError
    with pytest.raises(InputError) as err:
        Collection(SPANS)
    assert str(err.value) == ("irds:readsim-test/spans: reading ir_datasets datasets needs the package ir-datasets: "
                              "pip install 'readsim[irds]'")
