"""``readsim.article``: one ranked article's evaluation, as the window shows it.

The reading order, the document scores and the precision curve come from the API's core for
articles (:mod:`readsim.operations.article_reading`: :func:`~readsim.operations.article_reading.ranked_article`,
:func:`~readsim.operations.article_reading.panel_scores`, reference sections 3-4), through which the window scores
its ranked list, its open article and its score panel; the window holds an
:class:`ArticleEvaluation` of its open article for the score panel and the Explain dock; :meth:`ArticleEvaluation._repr_html_` draws the article's text with the window's marks
(relevant: yellow background, retrieved: blue underline, both: green background, the matching
chain's passages numbered in document order, reference section 3) as plain HTML and SVG, so a
notebook and a browser show it without Qt. Text from the article reaches the page escaped.
"""

from __future__ import annotations

import dataclasses
import html
import importlib.util
import subprocess
import sys
from functools import cached_property
from pathlib import Path

import numpy as np

from readsim.core import intervals as iv
from readsim.core.doc_evaluation import DocumentEvaluation, Settings
from readsim.core.errors import InputError
from readsim.core.explain import Explanation, explain
from readsim.core.layout import layout
from readsim.core.reading import Mode
from readsim.core.result_lines import Join
from readsim.core.units import unit_of

from readsim.operations.checks import one_id, real, whole
from readsim.operations.evaluate import _check, _collection, _lengths
from readsim.operations.inputs import as_qrels, as_run, warn
from readsim.operations.article_reading import panel_scores, ranked_article

RELEVANT, BOTH, RETRIEVED = "#ffe680", "#a8e6a1", "#1f5fbf"  # the window's colours (app/widgets/article_view.py)


class ArticleEvaluation:
    """One article of a run for one topic: ``topic``, ``article``, ``run_id``, ``reading``
    (the mode), ``settings`` (screen, tolerance, beta, entry), ``scores`` (canonical measure
    name -> value, the window's score panel: aveChP, ChP@s, ChR@s, T2IP(t), T2IR(t), T2IF(t),
    LE(s), ES(s), P_set, R_set, F(beta)), ``relevant`` and ``retrieved`` (``(k, 2)`` int64
    ``[start, end)`` arrays in the qrels' unit; ``retrieved`` is None for a whole-article
    result). ``evaluation`` is the engine's object (internal).

    Built by :func:`article`, and by the window from its open article's evaluation (its score
    panel shows ``scores``, its Explain dock ``explain``); the constructor is internal."""

    def __init__(self, evaluation: DocumentEvaluation, settings: Settings, topic: str, article: str, run_id: str,
                 article_text=None, files: dict | None = None, bep: int | None = None,
                 entry_point: int | None = None):
        self.evaluation = evaluation
        self.settings = settings
        self.topic = topic
        self.article = article
        self.run_id = run_id
        self.reading = evaluation.mode.value
        self.relevant = evaluation.relevant
        self.retrieved = evaluation.retrieved
        self._text = article_text  # readsim.core.text.Article, when the collection has it
        self._files = files or {}
        self._bep, self._entry_point = bep, entry_point  # for BEP(d): the qrels' and the run's (reference §4.7)

    @cached_property
    def scores(self) -> dict[str, float]:
        """Canonical measure name -> value: the score panel's (:func:`readsim.operations.article_reading.panel_scores`)."""
        return panel_scores(self.evaluation, self.settings)

    def __repr__(self) -> str:
        return f"<readsim.ArticleEvaluation topic {self.topic} article {self.article} ({self.reading}): {self.scores}>"

    def explain(self, measure) -> Explanation:
        """The formula of document ``measure`` (a name such as ``"T2IF(300)"`` or a parsed
        measure) with this article's numbers (reference §4): an :class:`Explanation` whose
        ``terms`` are the formula's quantities (``label``, ``value``, ``spans``: the
        characters each counts, a ``(k, 2)`` int64 array of offsets in the unit) and whose
        ``total``, the formula evaluated on them, is the score (``scores[name]`` for the
        panel's measures). ``BEP(d)`` uses the qrels' best entry point and the run's entry
        point. Raises ``ValueError`` naming ``measure`` for a list measure or an unknown name."""
        return explain(measure, self.evaluation, self.settings.levels, bep=self._bep, entry=self._entry_point,
                       unit=self._files.get("unit", "bytes"))

    def chain(self) -> np.ndarray:
        """The matching chain's passages (``(k, 2)``, the unit, document order; numbered 1..k
        in the window); empty in the ``document`` and ``entry`` modes, which ignore them."""
        ev = self.evaluation
        return iv.EMPTY if ev.mode in (Mode.DOCUMENT, Mode.ENTRY) else ev.retrieved_spans

    @property
    def reading_order(self):
        """The pieces the reader reads, in order: ``start``, ``end`` (the unit), ``relevant``,
        ``in_chain`` (inside a passage of the matching chain), ``read_start``, ``read_end``
        (positions in the reading, from 0)."""
        import pandas as pd

        pieces = self.evaluation.pieces
        start = np.asarray([p.start for p in pieces], dtype=np.int64)
        end = np.asarray([p.end for p in pieces], dtype=np.int64)
        chain = self.chain()
        k = np.searchsorted(chain[:, 0], start, side="right") - 1 if len(chain) else np.full(len(start), -1)
        in_chain = (k >= 0) & (start < np.where(k >= 0, chain[np.maximum(k, 0), 1], 0)) if len(chain) else \
            np.zeros(len(start), dtype=bool)
        read_end = np.cumsum(end - start)
        return pd.DataFrame({"start": start, "end": end, "relevant": [p.relevant for p in pieces],
                             "in_chain": in_chain, "read_start": read_end - (end - start), "read_end": read_end})

    def curve(self, samples: int = 400):
        """Precision and recall against the text read (``read``, 1 .. n, in the unit): a frame
        with columns ``read``, ``precision``, ``recall``, exact at every row (every piece
        boundary plus about ``samples`` evenly spaced positions)."""
        import pandas as pd

        x, p, r = self.evaluation.curve(samples)
        return pd.DataFrame({"read": x.astype(np.int64), "precision": p, "recall": r})

    def to_frame(self):
        """The scores in long form: ``run``, ``measure``, ``topic``, ``article``, ``value`` (as
        :func:`readsim.evaluate` with ``per="article"``)."""
        import pandas as pd

        names = list(self.scores)
        n = len(names)
        return pd.DataFrame({"run": [self.run_id] * n, "measure": names, "topic": [self.topic] * n,
                             "article": [self.article] * n, "value": [float(self.scores[m]) for m in names]})

    def show(self) -> subprocess.Popen:
        """Open the window (``readsim``) on this article in a new process and return it.
        Needs PySide6 and the qrels, run and collection as files. Raises ``RuntimeError``
        without Qt, ``ValueError`` when an input was a DataFrame (no file to open)."""
        if importlib.util.find_spec("PySide6") is None:
            raise RuntimeError("the window needs PySide6 (pip install readsim installs it)")
        f = self._files
        if not all(Path(str(f.get(k, ""))).is_file() for k in ("qrels", "run")):
            raise ValueError("show() opens the window on files: give the qrels and the run as paths or read ones")
        s = self.settings
        argv = [sys.executable, "-m", "readsim.app.main", "--qrels", str(f["qrels"]), "--run", str(f["run"]),
                "--topic", self.topic, "--article", self.article, "--reading", self.reading, "--screen", str(s.screen),
                "--tolerance", str(s.tolerance), "--beta", repr(s.beta)]
        if f.get("collection") is not None:
            argv += ["--collection", str(f["collection"]), "--unit", f["unit"]]
        if self.evaluation.mode is Mode.ENTRY:
            argv += ["--entry", str(s.entry)]
        return subprocess.Popen(argv)

    # -- HTML ----------------------------------------------------------------------------
    def _repr_html_(self) -> str:
        """The article as the window draws it (plain HTML, escaped text), the scores table and
        the precision and recall curve (inline SVG)."""
        head = (f"<div><b>topic {html.escape(self.topic)}, article {html.escape(self.article)}</b> "
                f"({html.escape(self.run_id)}, {html.escape(self.reading)} reading)</div>")
        scores = "".join(f"<tr><td>{html.escape(m)}</td><td>{_shown(m, v)}</td></tr>" for m, v in self.scores.items())
        table = f"<table><thead><tr><th>measure</th><th>value</th></tr></thead><tbody>{scores}</tbody></table>"
        legend = (f"<div><span style='background:{RELEVANT}'>relevant</span> · "
                  f"<span style='border-bottom:2px solid {RETRIEVED}'>retrieved</span> · "
                  f"<span style='background:{BOTH}'>both</span> · <sup style='color:{RETRIEVED}'>1</sup> "
                  f"matching chain's passages in order</div>")
        text = self._text_html() if self._text is not None else \
            "<p><i>the collection does not hold this article: no text to show</i></p>"
        return (f"<div class='readsim-article'>{head}<div style='display:flex;gap:1em;align-items:flex-start'>"
                f"{table}{self._svg()}</div>{legend}<div style='max-height:30em;overflow:auto;border:1px solid #ccc;"
                f"padding:0.5em'>{text}</div></div>")

    def _svg(self, width: int = 360, height: int = 180) -> str:
        c = self.curve(200)
        if not len(c):
            return "<svg width='0' height='0'></svg>"
        n = float(c["read"].iloc[-1])
        pad = 30

        def points(column: str) -> str:
            xs = pad + (c["read"].to_numpy() / n) * (width - 2 * pad)
            ys = height - pad - c[column].to_numpy() * (height - 2 * pad)
            return " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys))

        return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' role='img' "
                f"aria-label='precision and recall against text read'>"
                f"<rect x='{pad}' y='{pad}' width='{width - 2 * pad}' height='{height - 2 * pad}' fill='none' "
                f"stroke='#999'/><polyline points='{points('precision')}' fill='none' stroke='{RETRIEVED}'/>"
                f"<polyline points='{points('recall')}' fill='none' stroke='#1a7f37'/>"
                f"<text x='{pad}' y='{pad - 8}' font-size='11'><tspan fill='{RETRIEVED}'>precision</tspan> "
                f"<tspan fill='#1a7f37'>recall</tspan></text>"
                f"<text x='{pad}' y='{height - 8}' font-size='11'>0</text>"
                f"<text x='{width - pad}' y='{height - 8}' font-size='11' text-anchor='end'>{int(n)} read</text>"
                f"<text x='{pad - 4}' y='{pad + 4}' font-size='11' text-anchor='end'>1</text></svg>")

    def _text_html(self) -> str:
        """Every block of the laid-out article, cut where a mark starts or ends."""
        lay = layout(self._text)
        ev = self.evaluation
        rel, ret = ev.relevant, ev.retrieved_spans
        classes = [(lay.spans_to_display(iv.subtract(rel, ret)), f"background:{RELEVANT}"),
                   (lay.spans_to_display(iv.subtract(ret, rel)), f"border-bottom:2px solid {RETRIEVED}"),
                   (lay.spans_to_display(iv.intersect(rel, ret)), f"background:{BOTH};border-bottom:2px solid {RETRIEVED}")]
        chain = self.chain()
        numbers: dict[int, list[int]] = {}
        if len(chain):
            starts, ends = lay.to_display(chain[:, 0], "start"), lay.to_display(chain[:, 1], "end")
            for k, (a, b) in enumerate(zip(starts.tolist(), ends.tolist()), 1):
                if b > a:
                    numbers.setdefault(a, []).append(k)
        whole = "\n".join(b.text for b in lay.blocks)
        units = np.frombuffer(whole.encode("utf-16-le"), dtype=np.uint16)
        low = np.concatenate([[0], np.cumsum((units >= 0xDC00) & (units <= 0xDFFF))])  # UTF-16 -> str index

        def index(pos: int) -> int:
            return pos - int(low[min(pos, len(units))])

        cuts = {0, len(units)}
        for spans, _ in classes:
            cuts.update(spans.ravel().tolist())
        cuts.update(numbers)
        for b in lay.blocks:
            cuts.add(b.start)
        cuts = sorted(c for c in cuts if 0 <= c <= len(units))
        style_at = []
        for a in cuts[:-1]:
            style = ""
            for spans, css in classes:
                k = np.searchsorted(spans[:, 0], a, side="right") - 1 if len(spans) else -1
                if k >= 0 and a < spans[k, 1]:
                    style = css
            style_at.append(style)
        tags = {"title": "h3", "heading": "h4"}
        out, block = [], 0
        blocks = lay.blocks
        for (a, b), style in zip(zip(cuts[:-1], cuts[1:]), style_at):
            while block + 1 < len(blocks) and blocks[block + 1].start <= a:
                block += 1
            if blocks and a == blocks[block].start:
                if out:
                    out.append(f"</{tags.get(blocks[block - 1].kind, 'p')}>")
                out.append(f"<{tags.get(blocks[block].kind, 'p')}>")
            for k in numbers.get(a, []):
                out.append(f"<sup style='color:#fff;background:{RETRIEVED};border-radius:3px;padding:0 2px'>{k}</sup>")
            piece = html.escape(whole[index(a):index(b)].rstrip("\n"))
            out.append(f"<span style='{style}'>{piece}</span>" if style else piece)
        if blocks:
            out.append(f"</{tags.get(blocks[-1].kind, 'p')}>")
        return "".join(out)


def _shown(measure: str, value: float) -> str:
    """A score as the window prints it: LE and ES are whole numbers of ranks, the rest 4 decimals."""
    return str(int(value)) if measure.startswith(("LE(", "ES(")) else f"{value:.4f}"


def article(qrels, run, *, topic, article, collection=None, screen: int = 300, tolerance: int = 300,
            beta: float = 0.25, reading: str = "natural", entry: int | None = None, unit: str | None = None,
            levels: int = 4) -> ArticleEvaluation:
    """Evaluate one ranked ``article`` of ``run`` for ``topic``, as the window does.

    ``qrels``, ``run``, ``collection``, ``unit``: as :func:`readsim.evaluate` (the collection
    gives the text to draw and resolves XPaths); ``screen`` (LE, ES, ChP@s, ChR@s) and
    ``tolerance`` (T2I) in characters of the unit; ``beta``: the set-based F's weight;
    ``reading``: ``natural``, ``document``, ``best`` or ``entry``; ``entry``: the entry point
    (a unit offset) for the ``entry`` mode, default the run's (its Best in Context offset, else
    its first passage). Raises :class:`readsim.InputError` when the run does not rank the
    article for the topic, or on bad input."""
    _check("all", reading, unit)
    screen, tolerance, levels = whole("screen", screen, 0), whole("tolerance", tolerance, 0), whole("levels", levels, 1)
    beta, entry = real("beta", beta), whole("entry", entry, 0, none=True)
    topic, article_name = one_id("topic", topic), one_id("article", article)
    judged = as_qrels(qrels)
    engine_run = as_run(run)
    found = _collection(collection, unit)
    judged = _lengths(judged, found)
    result = next((e for e in engine_run.topics.get(topic, ()) if e.article == article_name), None)
    if result is None:
        raise InputError(engine_run.path, None, f"topic {topic}: the run does not rank article {article_name}")
    join = Join()
    natural = ranked_article(judged, engine_run, topic, result, found, join=join)
    warn(join.diagnostics)
    mode = Mode(reading)
    if mode is Mode.ENTRY and entry is not None:  # an entry point of one's own, as the window's (app/rows.py)
        natural = dataclasses.replace(natural, entry=int(entry))
    ev = natural.in_mode(mode)
    settings = Settings(mode, int(screen), int(tolerance), beta=float(beta), levels=levels, entry=ev.entry)
    text = found.article(article_name) if found is not None and article_name in found else None
    files = {"qrels": judged.path, "run": engine_run.path, "collection": found.root if found is not None else None,
             "unit": found.unit if found is not None else unit_of(unit, None)}
    judgement = judged.judgement(topic, article_name)
    return ArticleEvaluation(ev, settings, topic, article_name, engine_run.run_id, text, files,
                             judgement.bep if judgement is not None else None, result.entry_point)
