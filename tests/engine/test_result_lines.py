"""The doc_length check of ``readsim-eval --check`` (readsim.core.result_lines.check_lengths,
docs/reference.md section 1.4), by hand."""

from __future__ import annotations

from readsim.core.collection import Collection
from readsim.core.formats import read_qrels
from readsim.core.result_lines import check_lengths


def test_every_qrels_line_of_a_listed_article_is_checked_each_article_read_once(tmp_path, monkeypatch):
    """Article a (13 characters, doc_length 13) is judged for 150 topics, b (20 characters, 17
    without its trailing dots) for one, x is not in the collection: 151 checks in the qrels'
    order, a read once, x never looked up; progress after the 100th line, of 152."""
    folder = tmp_path / "articles"
    folder.mkdir()
    (folder / "a.xml").write_text("<article><p>thirteen char</p></article>", encoding="utf-8")
    (folder / "b.xml").write_text("<article><p>twenty characters...</p></article>", encoding="utf-8")
    lines = [f"{t} Q0 a 5 {13 if t % 2 else 14} 0 0:5\n" for t in range(1, 151)]
    lines.insert(3, "1 Q0 b 0 17\n")
    lines.insert(7, "2 Q0 x 0 40\n")
    (tmp_path / "q.qrels").write_text("".join(lines), encoding="utf-8")
    coll = Collection(folder)
    read, looked = [], []
    article = Collection.article
    monkeypatch.setattr(Collection, "article", lambda self, name: read.append(name) or article(self, name))
    monkeypatch.setattr(Collection, "__contains__", lambda self, name: looked.append(name))
    steps = []
    checks = check_lengths(read_qrels(tmp_path / "q.qrels"), coll, lambda done, total: steps.append((done, total)))
    assert len(checks) == 151 and looked == []
    assert sorted(read) == ["a", "b"]
    by = {(c.topic, c.article): (c.qrels_length, c.computed_length) for c in checks}
    assert by[("1", "b")] == (17, 17) and by[("1", "a")] == (13, 13) and by[("2", "a")] == (14, 13)
    assert ("2", "x") not in by
    assert steps == [(100, 152)]
