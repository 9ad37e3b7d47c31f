"""``readsim.loss``: where a run loses and what each ranked article costs (reference section
5.11), as a DataFrame, with ``readsim-eval loss``'s numbers: both are
:func:`readsim.core.costs.run_costs` over the topics :func:`loss_topics` chooses, after the
warnings of :func:`loss_warnings`. The window's topic view and loss panel, which have the ranked
articles' evaluations already, call the engine's split and costs of one topic themselves
(:func:`readsim.core.costs.loss_split`, :func:`~readsim.core.costs.article_costs`: the very
functions ``run_costs`` applies to each topic).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from readsim.core.coverage import check_coverage
from readsim.core.errors import Diagnostic
from readsim.core.costs import COST_KINDS, run_costs
from readsim.core.measure import ListMeasure, UnknownMeasure, parse_list_measure

from readsim.operations.checks import topic_ids, whole
from readsim.operations.evaluate import _check, _collection, _lengths, unsaid
from readsim.operations.inputs import as_qrels, as_run, warn

if TYPE_CHECKING:
    from readsim.core.collection import Collection
    from readsim.core.formats import Qrels, Run

TOPIC_COLUMNS = ["run", "topic", "measure", "nrel", "ranked", "as_is", "ideal_passages", "ideal_ranking", "ideal",
                 "perfect", "browse", "fetch", "interaction", "unretrieved"]
ARTICLE_COLUMNS = ["run", "topic", "article", "rank", "relevant", "ideal_rank", "score", "ideal_score",
                   "browse_cost", "rank_cost"]
VS_COLUMNS = ["vs_rank", "vs_score", "vs_rank_cost", "vs_browse_cost"]




def loss_topics(judged: Qrels, run: Run, topics: Sequence[str] | None = None) -> tuple[list[str], list]:
    """The topics :func:`loss` and ``readsim-eval loss`` report on, and the warnings to issue:
    ``topics`` (each must be judged with a relevant article: :class:`readsim.InputError`
    otherwise), or by default every topic of ``run`` (in its order) the qrels judge with a
    relevant article, with the plain evaluation's warnings
    (:func:`readsim.core.listmeasures.topics_evaluated`: "no topic of the run is judged" for
    an empty run or one of unjudged topics)."""
    from readsim.core.errors import InputError
    from readsim.core.listmeasures import topics_evaluated

    if topics is None:
        evaluated, diagnostics = topics_evaluated(judged, run, none="no loss to report")
        keep = set(evaluated)
        return [t for t in run.topics if t in keep], diagnostics
    for t in topics:
        if judged.nrel(t) < 1:
            why = "judge no relevant article for" if t in judged.topics else "do not judge"
            raise InputError(judged.path, None, f"the qrels {why} topic {t}")
    return list(dict.fromkeys(topics)), []



def loss_warnings(judged: Qrels, run: Run, vs: Run | None = None, collection: Collection | None = None
                  ) -> list[Diagnostic]:
    """What :func:`loss` and ``readsim-eval loss`` warn about before choosing their topics, in
    order: the inputs' own warnings and the coverage check's
    (:func:`readsim.core.coverage.check_coverage`: an empty qrels or run, unjudged topics,
    articles the collection lacks); :func:`loss_topics` adds the topics' own."""
    runs = [run] if vs is None else [run, vs]
    return judged.diagnostics + [d for r in runs for d in r.diagnostics] + check_coverage(judged, runs, collection)


def loss(qrels, run, measure="AgP/F(0.25)", *, per: str = "article", vs=None, topics=None,
         reading: str = "natural", collection=None, unit: str | None = None, levels: int = 4):
    """What each ranked article of ``run`` costs (``per="article"``: one row per topic and ranked
    article, :data:`ARTICLE_COLUMNS`, plus :data:`VS_COLUMNS` with ``vs``), or where the run loses
    on each topic (``per="topic"``: :data:`TOPIC_COLUMNS`, plus ``vs_run`` and ``vs_as_is``).

    ``measure``: AgP, gP@r, CE@r, NCE@r or ANCE@r over a document measure (default the official
    ``AgP/F(0.25)``); ``vs``: a competitor's run (path, ``readsim.Run`` or DataFrame); ``topics``:
    topic ids (default every topic of the run the qrels judge with a relevant article). Costs are
    gains (positive: what the run gives away; negated differences for CE/NCE/ANCE); ``vs_*`` are
    NaN for an article the competitor does not rank (``vs_rank`` 0). Raises ``ValueError`` for a
    measure without costs or a bad option, :class:`readsim.InputError` on bad input or a topic
    the qrels do not judge with a relevant article."""
    import pandas as pd

    _check(per, reading, unit, pers=("article", "topic"))
    levels = whole("levels", levels, 1)
    if not isinstance(measure, (str, ListMeasure)):
        raise ValueError(f"measure must be a list measure's name such as 'AgP/F(0.25)', not {measure!r}")
    m = measure if isinstance(measure, ListMeasure) else parse_list_measure(measure)
    if m.kind not in COST_KINDS or m.doc is None:
        raise UnknownMeasure(f"no per-article costs for {m.name}: give one of {', '.join(COST_KINDS)} over a "
                             f"document measure")
    judged = as_qrels(qrels)
    mine = as_run(run)
    other = as_run(vs) if vs is not None else None
    found = _collection(collection, unit)
    judged = _lengths(judged, found)
    said = loss_warnings(judged, mine, other, found)
    wanted, diagnostics = loss_topics(judged, mine, None if topics is None else topic_ids("topics", topics))
    warn(said + unsaid(diagnostics, said))
    rows = []
    for t, c, v in run_costs(judged, mine, m, wanted, reading, found, levels, other):
        if per == "topic":
            row = [mine.run_id, t, m.name, c.loss.nrel, len(c.loss.articles), c.as_is, c.ideal_passages,
                   c.ideal_ranking, c.ideal, c.perfect, c.browse, c.fetch, c.interaction, c.unretrieved]
            rows.append(row + ([] if v is None else [v.run, v.as_is]))
            continue
        for k, a in enumerate(c.loss.articles):
            row = [mine.run_id, t, a, k + 1, bool(c.loss.relevant[k]), int(c.ideal_rank[k]), float(c.loss.scores[k]),
                   float(c.loss.ideal_scores[k]), float(c.browse_cost[k]), float(c.rank_cost[k])]
            if v is not None:
                row += [int(v.vs_rank[k]), float(v.vs_score[k]), float(v.vs_rank_cost[k]), float(v.vs_browse_cost[k])]
            rows.append(row)
    columns = (TOPIC_COLUMNS + ([] if other is None else ["vs_run", "vs_as_is"]) if per == "topic"
               else ARTICLE_COLUMNS + ([] if other is None else VS_COLUMNS))
    return pd.DataFrame(rows, columns=columns)


# public: loss (readsim.loss); the rest is the core
__all__ = ["loss", "loss_topics", "loss_warnings"]
