"""The shipped sample (resources/sample): it parses cleanly, its qrels follow the real data's
conventions, and its three runs score in the order they were written to score.

Numbers asserted here are worked by hand from the offsets in ``sample.qrels`` and ``runs/*.run``
(written by ``resources/sample/generate.py``) and from the measures' definitions (Arvola et al.
2010), not copied from the engine's output.
"""

from __future__ import annotations

import pytest

from readsim.core.collection import Collection
from readsim.core.doc_evaluation import evaluate_document
from readsim.core.formats import read_qrels, read_run, read_topics
from readsim.core.samples import sample
from readsim.core.text import Article, is_word_char

TOPIC = "2026001"
ARTICLES = ("900001", "900002", "900003", "900004")
RELEVANT = ("900001", "900002", "900003")
LONG = "900001"  # "Fresnel lens", ~3,200 bytes of text


@pytest.fixture(scope="module")
def paths():
    return sample()


@pytest.fixture(scope="module")
def qrels(paths):
    return read_qrels(paths.qrels)


@pytest.fixture(scope="module")
def collection(paths):
    return Collection(paths.collection)


@pytest.fixture(scope="module")
def runs(paths):
    return {run.run_id: run for run in (read_run(p) for p in paths.runs)}


def evaluation(qrels, collection, run, article, mode="natural"):
    j = qrels.judgement(TOPIC, article)
    entry = run.article(TOPIC, article)
    return evaluate_document(
        j.passages, entry.passages, j.doc_length, mode, text_length=collection.article(article).length
    )


# -- the files ------------------------------------------------------------------------------
def test_sample_paths_exist(paths):
    assert paths.topic == TOPIC
    assert paths.collection.is_dir()
    assert paths.qrels.is_file() and paths.topics.is_file()
    assert [p.name for p in paths.runs] == ["good-passages.run", "misses.run", "whole-articles.run"]
    assert all(p.is_file() for p in paths.runs)
    assert sorted(Collection(paths.collection).names()) == list(ARTICLES)


def test_articles_parse_without_the_dtd(paths):
    # The collection's DTD is deliberately not shipped: &nbsp; must come from the HTML table.
    assert not (paths.collection.parent / "article.dtd").exists()
    titles = {}
    for name in ARTICLES:
        a = Article.from_file(paths.collection / f"{name}.xml")
        titles[name] = a.title
        assert a.doc_length <= a.length
        assert [e.tag for e in a.elements[:2]] == ["article", "header"]
        assert any(e.tag == "sec" for e in a.elements)
    assert titles == {
        "900001": "Fresnel lens",
        "900002": "Lighthouse",
        "900003": "Augustin-Jean Fresnel",
        "900004": "Foghorn",
    }
    fresnel = Article.from_file(paths.collection / "900001.xml")
    assert "920\u00a0mm" in fresnel.text


def test_byte_and_character_offsets_differ(paths):
    path = paths.collection / "900003.xml"
    in_bytes, in_chars = Article.from_file(path, "bytes"), Article.from_file(path, "chars")
    # Non-ASCII in 900003: "–" (3 bytes), "É" (2), "é" (2), "’" (3): 6 bytes more than characters.
    assert in_bytes.doc_length - in_chars.doc_length == 6
    # The relevant passage 836:440 (bytes) has "–" and "É" before it (+3) and "é" inside (+1).
    assert in_bytes.substring(836, 836 + 440) == in_chars.substring(833, 833 + 439)
    long_b, long_c = (Article.from_file(paths.collection / f"{LONG}.xml", u) for u in ("bytes", "chars"))
    # 900001: "–" (+2), two "’" (+2 each), three no-break spaces (+1 each).
    assert long_b.doc_length - long_c.doc_length == 9


def test_topic_title(paths):
    topics = read_topics(paths.topics)
    assert list(topics) == [TOPIC]
    assert topics[TOPIC].title == "lighthouse lens"
    assert "lighthouse" in topics[TOPIC].narrative


# -- the qrels ------------------------------------------------------------------------------
def test_qrels_parse_cleanly(qrels):
    assert qrels.diagnostics == []
    assert set(qrels.topics) == {TOPIC}
    assert sorted(qrels.relevant_articles(TOPIC)) == list(RELEVANT)
    assert qrels.nrel(TOPIC) == 3
    non_relevant = qrels.judgement(TOPIC, "900004")
    assert non_relevant is not None and not non_relevant.relevant


def test_qrels_doc_length_matches_the_articles(qrels, collection):
    for name in ARTICLES:
        assert qrels.judgement(TOPIC, name).doc_length == collection.article(name).doc_length


def test_qrels_passages_are_snapped_like_the_assessors(qrels, collection):
    for name in RELEVANT:
        a = collection.article(name)
        for start, end in qrels.relevant(TOPIC, name).tolist():
            i, j = a.to_index(start, "start"), a.to_index(end, "end")
            assert a.from_index(i) == start and a.from_index(j) == end  # on character boundaries
            assert is_word_char(a.text[i]) and (i == 0 or not is_word_char(a.text[i - 1]))
            assert is_word_char(a.text[j - 1])


def test_relevant_passages_hold_the_highlighted_sentences(qrels, collection):
    def passages(name):
        a = collection.article(name)
        return [" ".join(a.substring(s, e).split()) for s, e in qrels.relevant(TOPIC, name).tolist()]

    fresnel = passages("900001")
    assert len(fresnel) == 3
    assert fresnel[0].startswith("It is named after the French physicist Augustin-Jean Fresnel (1788–1827)")
    assert fresnel[0].endswith("the first such lenses for lighthouses in the 1820s")
    assert fresnel[1].startswith("Before the Fresnel lens, lighthouses concentrated their light")
    assert "rings of catadioptric prisms above and below it" in fresnel[1]
    assert fresnel[1].endswith("focal distance of 150 mm and marks piers and small channels")  # &nbsp; split away
    assert fresnel[2].startswith("To give each light its own signature")
    assert fresnel[2].endswith("a small clockwork could turn several tonnes of glass")
    assert passages("900002") == [
        "From the 1820s the Fresnel lens replaced the reflectors: its glass rings and prisms gather "
        "the light of a single lamp into a narrow, horizontal beam that can be seen from much farther away"
    ]
    (lenses,) = passages("900003")
    assert lenses.startswith("In 1819 Fresnel joined the French lighthouse commission")
    assert lenses.endswith("After his death his brother Léonor continued the work")
    # At least one highlight is not at the start of its article: the whole first section is unjudged.
    assert qrels.relevant(TOPIC, LONG)[1, 0] > 1000


# -- the runs -------------------------------------------------------------------------------
def test_runs_parse_cleanly(runs):
    assert set(runs) == {"good-passages", "whole-articles", "misses"}
    for run in runs.values():
        assert run.diagnostics == []
        assert sorted(e.article for e in run.topics[TOPIC]) == list(ARTICLES)
    order = {rid: [e.article for e in run.topics[TOPIC]] for rid, run in runs.items()}
    assert order["good-passages"] == ["900001", "900003", "900002", "900004"]
    assert order["misses"][0] == "900004"


def test_whole_articles_retrieve_the_full_text(runs, collection):
    for e in runs["whole-articles"].topics[TOPIC]:
        assert e.passages.tolist() == [[0, collection.article(e.article).length]]


def test_good_passages_beat_misses(runs, qrels, collection):
    for name in RELEVANT:
        good = evaluation(qrels, collection, runs["good-passages"], name)
        miss = evaluation(qrels, collection, runs["misses"], name)
        assert good.set_scores(0.25)[2] > miss.set_scores(0.25)[2] == 0.0  # misses overlap nothing
        assert good.ave_chp() > miss.ave_chp()
        assert good.le(300) <= miss.le(300)
    long_good = evaluation(qrels, collection, runs["good-passages"], LONG)
    long_whole = evaluation(qrels, collection, runs["whole-articles"], LONG)
    assert long_whole.ave_chp() <= long_good.ave_chp()


def test_set_precision_worked_by_hand(runs, qrels, collection):
    # good-passages retrieves 900001's section "Use in lighthouses": 1351:1520, i.e. [1351, 2871).
    # Relevant: 414:146, 1374:1113, 2493:376 (rel_size 1635). [1374, 2487) and [2493, 2869) lie
    # inside T, [414, 560) outside: |R n T| = 1113 + 376 = 1489, |T| = 1520.
    doc = evaluation(qrels, collection, runs["good-passages"], LONG)
    p, r, f = doc.set_scores(0.25)
    assert p == pytest.approx(1489 / 1520)
    assert r == pytest.approx(1489 / 1635)
    b2 = 0.25**2
    assert f == pytest.approx((1 + b2) * p * r / (b2 * p + r))


def test_localizing_effort_worked_by_hand(runs, qrels, collection):
    # good-passages on 900001: the chain starts at 1351; the first relevant byte, 1374, is the
    # 24th read: LE(300) = 1. Read from the start (document mode, or the whole article), the
    # first relevant byte 414 is the 415th read: LE(300) = ceil(415 / 300) = 2.
    good = evaluation(qrels, collection, runs["good-passages"], LONG)
    assert good.first_relevant() == 24 and good.le(300) == 1
    assert evaluation(qrels, collection, runs["good-passages"], LONG, "document").le(300) == 2
    assert evaluation(qrels, collection, runs["whole-articles"], LONG).le(300) == 2


def test_average_character_precision_worked_by_hand(runs, qrels, collection):
    # 900003, relevant 836:440 = [836, 1276).
    # good-passages retrieves 834:443 = [834, 1277): the reader reads 2 non-relevant bytes, then
    # the 440 relevant ones; the k-th relevant byte is read at position k + 2, so
    # aveChP = (1/440) * sum_{k=1..440} k / (k + 2).
    good = evaluation(qrels, collection, runs["good-passages"], "900003")
    assert good.ave_chp() == pytest.approx(sum(k / (k + 2) for k in range(1, 441)) / 440)
    # whole-articles reads from byte 0: 836 non-relevant bytes first. misses retrieves 460:352 =
    # [460, 812), then (natural mode) [0, 460) and [812, ...): again 352 + 460 + 24 = 836
    # non-relevant bytes before the first relevant one, so both score
    # (1/440) * sum_{k=1..440} k / (k + 836).
    expected = sum(k / (k + 836) for k in range(1, 441)) / 440
    assert evaluation(qrels, collection, runs["whole-articles"], "900003").ave_chp() == pytest.approx(expected)
    assert evaluation(qrels, collection, runs["misses"], "900003").ave_chp() == pytest.approx(expected)


def test_non_relevant_article_scores_nothing(runs, qrels, collection):
    for run in runs.values():
        doc = evaluation(qrels, collection, run, "900004")
        assert doc.nrc == 0
        assert doc.ave_chp() == 0.0 and doc.set_scores(0.25) == (0.0, 0.0, 0.0)
        assert doc.le(300, levels=4) == 5  # NR = L + 1
