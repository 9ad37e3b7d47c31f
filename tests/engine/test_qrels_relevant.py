"""``Qrels.relevant_articles``: the relevant articles of a topic in file order, read from the
columns while the topic is as the file said (no judgement built: the coverage check asks it of
every topic at start-up), from the judgements once the topic is edited."""

from __future__ import annotations

import numpy as np

from readsim.core.formats import read_qrels
from readsim.core.formats.qrels import Judgement, JudgedTopic


def test_relevant_articles_in_file_order_without_building_the_judgements(tmp_path):
    # topic 1: b relevant (0:10), z not (rel_size 0), a relevant; topic 2: only c, not relevant
    (tmp_path / "q.qrels").write_text("1 Q0 b 10 50 0 0:10\n2 Q0 c 0 40 0\n1 Q0 z 0 30 0\n1 Q0 a 5 20 0 3:5\n")
    q = read_qrels(tmp_path / "q.qrels")
    assert q.relevant_articles("1") == ["b", "a"]
    assert q.relevant_articles("2") == [] and q.relevant_articles("9") == []
    assert all(isinstance(t, JudgedTopic) and t._items is None for t in q.topics.values())  # none built
    q.topics["1"]["z"] = Judgement("1", "z", 4, 30, None, np.array([[0, 4]]), 3)  # edited: z now relevant
    assert q.relevant_articles("1") == ["b", "z", "a"]


def test_real_qrels_agree_with_the_judgements(inex):
    path = inex / "qrels" / "inex2009-2010.qrels"
    fast, built = read_qrels(path), read_qrels(path)
    for topic, judged in built.topics.items():
        assert fast.relevant_articles(topic) == [a for a, j in judged.items() if j.relevant], topic
    assert sum(len(fast.relevant_articles(t)) for t in fast.topics) == sum(fast.nrel(t) for t in fast.topics)
