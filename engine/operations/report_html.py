"""The HTML of ``readsim-eval report`` (docs/reference.md section 9.9): a :class:`ReportData`
(:mod:`readsim.operations.report`) laid out as one self-contained page: inline CSS and SVG, no
script, no link outside the page, every text from the inputs escaped (``html.escape``). The
tables carry classes and ``data-`` attributes (``means``, ``pairs``, ``topics``, ``loss``, each
with ``data-measure``; rows with ``data-run`` or ``data-topic``) so that a program can read the
numbers back; numbers are printed as ``readsim-eval compare`` prints them (4 decimals).
"""

from __future__ import annotations

import html
import math

from readsim.core.report_numbers import format_number, format_signed

from readsim.operations.report_data import LOSS_FIELDS, ReportData

GOOD, BAD = "#d4efdc", "#f8d7d4"
STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 1.5em auto;
       max-width: 76em; padding: 0 1em; color: #1a1a1a; line-height: 1.4; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; } h2 { font-size: 1.2em; margin-top: 1.8em;
       border-bottom: 1px solid #dde3ec; } h3 { font-size: 1.05em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
th, td { border: 1px solid #dde3ec; padding: 0.15em 0.5em; text-align: right; }
th { background: #eef1f6; } td.run, td.topic, th.run, td.text { text-align: left; }
table.provenance td, table.files td { text-align: left; } code { font-size: 0.9em; }
.scroll { max-height: 32em; overflow: auto; display: inline-block; border: 1px solid #dde3ec; }
.scroll table { margin: 0; } .scroll th { position: sticky; top: 0; }
figure { margin: 0.5em 0 1.5em; } figure svg { max-width: 100%; height: auto; }
figcaption, .note { color: #555; font-size: 0.9em; } nav a { margin-right: 1em; }
.sig { color: #187a35; font-weight: bold; } .views { display: flex; gap: 1em; flex-wrap: wrap; }
.views > div { flex: 1 1 30em; min-width: 0; }
"""


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _table(cls: str, head: list[str], rows: list[str], measure: str | None = None) -> str:
    attr = f" data-measure='{_e(measure)}'" if measure is not None else ""
    return (f"<table class='{cls}'{attr}><thead><tr>{''.join(f'<th>{h}</th>' for h in head)}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def _p(value: float) -> str:
    return "-" if value is None or math.isnan(value) else ("<0.001" if value < 0.001 else f"{value:.3f}")


def _tint(gain: float) -> str:
    return "" if abs(round(gain, 4)) == 0 else f" style='background:{GOOD if gain > 0 else BAD}'"


def report_page(data: ReportData) -> str:
    """The whole page: the provenance, then one section per part of the report."""
    c = data.comparison
    title = f"readsim report: {len(c.runs)} runs on {len(c.topics)} topics"
    parts = [("provenance", "Provenance", _provenance(data)), ("measures", "Measures", _measures(c)),
             ("significance", "Significance", _significance(c)), ("topics", "Per topic", _topics(data)),
             ("curves", "Curves", _curve(data)), ("loss", "Where each run loses", _loss(data)),
             ("articles", "Articles of the topics that differ most", _articles(data))]
    nav = "".join(f"<a href='#{key}'>{_e(name)}</a>" for key, name, _ in parts)
    body = "".join(f"<section id='{key}'><h2>{_e(name)}</h2>{content}</section>" for key, name, content in parts)
    return (f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>{_e(title)}</title>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'><style>{STYLE}</style></head>"
            f"<body><h1>{_e(title)}</h1><nav>{nav}</nav>{body}</body></html>\n")


def _provenance(data: ReportData) -> str:
    rows = [f"<tr><th class='run'>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in data.provenance]
    files = [f"<tr><td>{_e(role)}</td><td><code>{_e(path)}</code></td>"
             f"<td>{'folder' if size is None else f'{size:,} bytes'}</td>"
             f"<td><code>{'not checksummed' if digest is None else _e(digest)}</code></td></tr>"
             for role, path, size, digest in data.files]
    notes = "".join(f"<p class='note'>{_e(n)}</p>" for n in data.notes if not n.startswith("articles:"))
    return (f"<table class='provenance'><tbody>{''.join(rows)}</tbody></table>"
            + _table("files", ["input", "file", "size", "SHA-256"], files) + notes)


def _measures(c) -> str:
    out = [f"<p class='note'>{len(c.topics)} paired topics"
           + (f"; left out (not in every run): {_e(', '.join(c.left_out))}" if c.left_out else "")
           + f"; {(1 - c.alpha) * 100:g}% {_e(c.ci_method)} intervals of each run's mean.</p>"]
    for k, m in enumerate(c.measures):
        rows = [f"<tr data-run='{_e(c.runs[i])}'><td class='rank'>{c.rank[k, i]}</td><td class='run'>{_e(c.runs[i])}</td>"
                f"<td class='mean'>{format_number(c.means[k, i])}</td><td class='low'>{format_number(c.ci[k, i, 0])}</td>"
                f"<td class='high'>{format_number(c.ci[k, i, 1])}</td></tr>" for i in c.order[k]]
        out.append(f"<h3>{_e(m)} ({'lower' if c.lower_is_better[k] else 'higher'} is better)</h3>"
                   + _table("means", ["rank", "run", "mean", "low", "high"], rows, m))
    return "".join(out)


def _significance(c) -> str:
    test = {"bootstrap": f"paired bootstrap test ({c.resamples} resamples, seed {c.seed})", "t": "paired t-test",
            "randomization": f"paired randomization test ({c.resamples} resamples, seed {c.seed})",
            "tukey": f"randomised Tukey HSD over all runs ({c.resamples} trials, seed {c.seed})"}[c.test]
    sides = "two-sided" if c.test == "tukey" else "one-tailed in the ranking's direction"
    level = f"{100 * (1 - c.alpha):g}%"
    out = [f"<p class='note'>Every pair, {sides}: {_e(test)}, alpha {c.alpha:g}, "
           f"{_e('no correction' if c.correction == 'none' else c.correction + ' correction')}. diff: the mean "
           f"per-topic difference (better minus worse, oriented), with its two-sided {level} interval "
           f"(reference 12.1); d_z: Cohen's d of the differences.</p>"]
    for k, m in enumerate(c.measures):
        sig, total = c.significant_count(k)
        rows = [f"<tr><td class='run better'>{_e(c.runs[p.better])}</td><td class='run worse'>{_e(c.runs[p.worse])}</td>"
                f"<td class='diff'>{format_signed(p.diff)}</td><td class='ci_low'>{format_signed(p.ci_low)}</td>"
                f"<td class='ci_high'>{format_signed(p.ci_high)}</td><td class='effect'>{format_signed(p.effect, 2)}</td>"
                f"<td class='wtl'>{p.wins}/{p.ties}/{p.losses}</td><td class='p'>{_p(p.p)}</td>"
                f"<td class='p_adjusted'>{_p(p.p_adjusted)}</td>"
                f"<td class='significant'>{'<span class=sig>yes</span>' if p.significant else 'no'}</td></tr>"
                for p in c.pairs(k)]
        out.append(f"<h3>{_e(m)}: {sig} of {total} pairs significant</h3>"
                   + _table("pairs", ["better", "worse", "diff", "low", "high", "d_z", "topics better/equal/worse", "p",
                                      "p adjusted", "significant"], rows, m))
    return "".join(out)


def _topics(data: ReportData) -> str:
    c = data.comparison
    figures = "".join(f"<figure>{svg}<figcaption>{_e(caption)}</figcaption></figure>" for caption, svg in data.plots)
    topics, ref, diff = c.per_topic(0)
    order = [int(i) for i in c.order[0]]
    best = order[0]
    head = ["topic"]
    for i in order:
        head.append(_e(c.runs[i]))
        if i != best:
            head.append(_e(f"{c.runs[i]} − {c.runs[best]}" if len(order) == 2 else f"− {c.runs[best]}"))
    sign = -1.0 if c.lower_is_better[0] else 1.0
    rows = []
    for t in topics:
        cells = [f"<td class='topic'>{_e(c.topics[t])}</td>"]
        for i in order:
            cells.append(f"<td class='value' data-run='{_e(c.runs[i])}'>{format_number(c.scores[0, i, t])}</td>")
            if i != best:
                cells.append(f"<td class='diff' data-run='{_e(c.runs[i])}'{_tint(sign * diff[i, t])}>"
                             f"{format_signed(diff[i, t])}</td>")
        rows.append(f"<tr data-topic='{_e(c.topics[t])}'>{''.join(cells)}</tr>")
    note = (f"<p class='note'>Under {_e(c.measures[0])}: the bars are each run's per-topic difference to the "
            f"best-ranked run (green: the run does better on the topic, red: worse), sorted; the dashed line is "
            f"the mean difference, the band its 95% paired t interval. The table lists every paired topic, where a "
            f"run beats the best-ranked run most first (as <code>readsim-eval compare --per-topic</code>).</p>")
    return note + figures + f"<div class='scroll'>{_table('topics', head, rows, c.measures[0])}</div>"


def _curve(data: ReportData) -> str:
    return (f"<figure>{data.curve}<figcaption>Interpolated generalized precision at the 11 generalized recall "
            f"points, each point a run's mean over its own topics (<code>readsim-eval figure curve</code>)."
            f"</figcaption></figure>") if data.curve else ""


def _loss(data: ReportData) -> str:
    if not data.losses:
        return "<p class='note'>no loss split</p>"
    names = {"as_is": "as is", "browse": "browse", "fetch": "fetch", "interaction": "together",
             "unretrieved": "unretrieved", "perfect": "all relevant ideal"}
    rows = [f"<tr data-run='{_e(run)}'><td class='run'>{_e(run)}</td><td class='topics'>{data.loss_topics[run]}</td>"
            + "".join(f"<td class='{f}'>{format_number(v[f])}</td>" for f in LOSS_FIELDS) + "</tr>"
            for run, v in data.losses.items()]
    note = (f"<p class='note'>Means over each run's paired topics of <code>readsim-eval loss -m "
            f"{_e(data.loss_measure)}</code>'s topic rows (reference 5.11): browse = what ideal passages would gain "
            f"(the passage selector), fetch = what the ideal ordering would gain (the ranker), together = what "
            f"both gain beyond the two, unretrieved = what the relevant articles the run does not rank would "
            f"gain.</p>")
    return note + _table("loss", ["run", "topics", *(names[f] for f in LOSS_FIELDS)], rows, data.loss_measure)


def _articles(data: ReportData) -> str:
    if not data.articles:
        return "".join(f"<p class='note'>{_e(n)}</p>" for n in data.notes if "articles" in n) or \
            "<p class='note'>no article drawn</p>"
    out = [f"<p class='note'>{_e(n)}</p>" for n in data.notes if n.startswith("articles:")]
    for topic, caption, views in data.articles:
        shown = "".join(f"<div><h4>{_e(name)}</h4>{view}</div>" for name, view in views)
        out.append(f"<h3>topic {_e(topic)}</h3><p class='note'>{_e(caption)}</p><div class='views'>{shown}</div>")
    return "".join(out)
