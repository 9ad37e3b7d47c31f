"""The measures' registry: every document measure and every list measure declared once.

A declaration (:class:`DocKind`, :class:`ListKind`) says everything the engine needs of a kind
of measure: its name grammar and parameters with their ranges, how it is computed (a document
measure: one article and a whole batch of articles, side by side; a list measure: one topic's
ranking and, optionally, many rankings at once), its null value, its direction (higher or lower
is better), its section of docs/reference.md and a help line. The declarations themselves are
:mod:`readsim.core.doc_kinds` and :mod:`readsim.core.list_kinds`; this module holds the two tables and the
checks made when a kind is registered (:class:`RegistrationError`, at import: a document measure
without a batch computation never silently takes a slow path).

What reads the tables: parsing and names (:mod:`readsim.core.measure`), the help texts
(:func:`doc_grammar`, :func:`list_grammar`: ``readsim-eval --help``, the parse errors), the
column-wise evaluation (:mod:`readsim.core.listmeasures`), sweeps' parameters (:mod:`readsim.core.parameter_sweep`),
loss's cost kinds (:func:`cost_kinds`, :mod:`readsim.core.costs`) and the explanations
(:mod:`readsim.core.explain`). Where to add a measure: docs/architecture.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

INCONTEXT_POINTS = 11  # ircl_prn.0.00 .. 1.00 of the official tool's -r and -b tasks
FOCUSED_POINTS = 101  # iP[0.00] .. iP[1.00] of its -f task

SIZE, WEIGHT = "size", "weight"
"""The two kinds of parameter: a size in the offset unit (a whole number from 1 to 2^40, held in
``DocMeasure.k``) or a weight (a finite number above 0 and at most 10^6, in ``DocMeasure.weight``)."""


class RegistrationError(TypeError):
    """A declaration the registry refuses (raised at import of the declaring module)."""


@dataclass(frozen=True)
class Param:
    """A parameter of a document measure: ``name`` as the reference writes it (``t``), its kind
    (:data:`SIZE` or :data:`WEIGHT`) and, for an optional trailing one, its ``default``."""

    name: str
    kind: str = SIZE
    default: float | None = None

    @property
    def field(self) -> str:
        """The :class:`~readsim.core.measure.DocMeasure` field holding the value."""
        return "k" if self.kind == SIZE else "weight"


@dataclass(frozen=True)
class DocKind:
    """One kind of document measure (reference section 4).

    ``grammar``: ``"bare"`` (``aveChP``), ``"at"`` (``ChP@k``) or ``"call"`` (``T2IF(t,alpha)``);
    ``article(m, doc, levels)``: the value for one article (a
    :class:`~readsim.core.doc_evaluation.DocumentEvaluation`), ``batch(m, batch, levels)``: the values of a
    :class:`~readsim.core.doc_evaluation.DocumentBatch` (float array), equal to ``article`` on each;
    ``null``: ``"zero"`` or ``"NR"`` (``levels + 1``), the value of a non-relevant article;
    ``needs_qrels``: computed from the qrels' best entry point (``BEP``), not from the reading
    (``article``/``batch`` then take ``(m, bep, has_bep, entry)`` arrays); ``sweep(m, doc, name,
    values, levels)``: an optional closed form over many values of parameter ``name`` (else
    :func:`readsim.core.parameter_sweep.article_sweep` evaluates each value); ``whole``: its values are whole
    numbers (printed without decimals)."""

    kind: str
    grammar: str
    params: tuple[Param, ...]
    article: Callable
    batch: Callable
    section: str
    formula: str
    help: str
    null: str = "zero"
    lower_is_better: bool = False
    needs_qrels: bool = False
    sweep: Callable | None = None
    whole: bool = False

    def null_value(self, levels: int = 4) -> float:
        return float(levels + 1) if self.null == "NR" else 0.0

    @property
    def forms(self) -> tuple[str, ...]:
        """How the name is written, with the parameters' names: ``("T2IF(t)", "T2IF(t,alpha)")``."""
        names = [p.name for p in self.params]
        if self.grammar == "bare":
            return (self.kind,)
        if self.grammar == "at":
            return (f"{self.kind}@{names[0]}",)
        required = sum(p.default is None for p in self.params)
        return tuple(f"{self.kind}({','.join(names[:n])})" for n in range(required, len(names) + 1))


@dataclass(frozen=True)
class ListKind:
    """One kind of list measure (reference section 5).

    ``grammar``: ``"bare"`` (``MAP``), ``"rank"`` (``gP@r``: a rank cutoff), ``"points"``
    (``ircl_prn.x``, ``iP[x]``: a recall point on a grid of ``points`` points, written by
    ``point_form`` with ``{x}``); ``doc``: ``None`` (no document measure), ``"any"`` (``LIST/DOC``)
    , ``"effort"`` (an effort score, LE or ES) or ``"reader"`` (a T2I measure whose t is the reader's tolerance:
    the ranking's ``reads``, reference 5.16); ``topic(ranking, m, levels)``: one topic's value;
    ``table(table, m, levels)``: optional, the value of every ranking of a
    :class:`~readsim.core.listmeasures.RankingTable` at once (float array); ``count``: summed over the
    topics, not averaged; ``focused``: over the run's passages in line order; ``costs``: loss's
    per-article costs are computed for it (reference section 5.11); ``plain``: a rank measure
    also written ``KIND(plain)@r`` (``ListMeasure.plain``); ``replaced(m, relevant, scores, new,
    nrel)``, ``moved(m, relevant, scores, places, nrel)``: optional closed forms of the costs (each
    article's score alone replaced, each article alone moved; :mod:`readsim.core.cost_forms`), else
    loss evaluates every variant (``table``)."""

    kind: str
    grammar: str
    doc: str | None
    topic: Callable
    section: str
    help: str
    table: Callable | None = None
    lower_is_better: bool = False
    count: bool = False
    focused: bool = False
    costs: bool = False
    points: int = 0
    point_form: str = ""
    cutoff_name: str = "r"
    plain: bool = False  # also written KIND(plain)@r (gP: the plain sum / r past the end of a short run)
    replaced: Callable | None = None
    moved: Callable | None = None

    @property
    def forms(self) -> tuple[str, ...]:
        """How the name is written: ``("gP@r/DOC",)``, ``("ircl_prn.0.00/DOC .. ircl_prn.1.00/DOC",)``."""
        tail = {None: "", "any": "/DOC", "effort": "/LE(s)", "reader": "/T2IP(t)"}[self.doc]
        if self.grammar == "rank":
            return (f"{self.kind}@{self.cutoff_name}{tail}",)
        if self.grammar == "points":
            first, last = (self.point_form.format(x=x) for x in ("0.00", "1.00"))
            return (f"{first}{tail} .. {last}{tail}",)
        return (f"{self.kind}{tail}",)


DOC: dict[str, DocKind] = {}
"""Document measures by kind, in declaration order (the help's order)."""
LIST: dict[str, ListKind] = {}
"""List measures by kind, in declaration order."""

_GRAMMARS = {"bare", "at", "call"}


def document_measure(kind: str, grammar: str, params: tuple[Param, ...] = (), *, article: Callable | None = None,
                     batch: Callable | None = None, both: Callable | None = None, **info) -> DocKind:
    """Declare a document measure (``both``: one computation serving one article and a batch).
    Raises :class:`RegistrationError` for a kind declared twice, a grammar that does not fit its
    parameters, or a missing computation: every document measure has a batch computation."""
    if both is not None:
        article = article or both
        batch = batch or both
    if kind in DOC:
        raise RegistrationError(f"document measure {kind} declared twice")
    if article is None or batch is None:
        missing = "batch" if batch is None else "article"
        raise RegistrationError(f"document measure {kind} has no {missing} computation: declare article= and "
                                f"batch= (or both=); every document measure is computed column-wise")
    if grammar not in _GRAMMARS or (grammar == "bare") != (not params) or (grammar == "at" and len(params) != 1):
        raise RegistrationError(f"document measure {kind}: grammar {grammar!r} does not fit parameters {params}")
    fields = [p.field for p in params]
    if len(set(fields)) != len(fields):
        raise RegistrationError(f"document measure {kind}: at most one size and one weight parameter")
    seen_default = False
    for p in params:
        if p.default is None and seen_default:
            raise RegistrationError(f"document measure {kind}: a parameter without default after an optional one")
        seen_default = seen_default or p.default is not None
    DOC[kind] = out = DocKind(kind, grammar, tuple(params), article, batch, **info)
    return out


def list_measure(kind: str, grammar: str, doc: str | None, topic: Callable, **info) -> ListKind:
    """Declare a list measure. Raises :class:`RegistrationError` for a kind declared twice, an
    unknown grammar or document-measure requirement, or a per-article cost on one without S."""
    if kind in LIST:
        raise RegistrationError(f"list measure {kind} declared twice")
    if grammar not in ("bare", "rank", "points") or doc not in (None, "any", "effort", "reader"):
        raise RegistrationError(f"list measure {kind}: unknown grammar {grammar!r} or doc {doc!r}")
    if info.get("costs") and (doc is None or info.get("table") is None):
        raise RegistrationError(f"list measure {kind}: costs need a document measure S and a table computation")
    LIST[kind] = out = ListKind(kind, grammar, doc, topic, **info)
    return out


def doc_kind(kind: str) -> DocKind:
    """The declaration of document measure ``kind`` (``KeyError`` if none)."""
    return DOC[kind]


def list_kind(kind: str) -> ListKind:
    """The declaration of list measure ``kind`` (``KeyError`` if none)."""
    return LIST[kind]


def doc_grammar() -> str:
    """Every document measure's forms: ``aveChP, ChP@k, ..., BEP(d)``."""
    return ", ".join(form for d in DOC.values() for form in d.forms)


def list_grammar() -> str:
    """Every list measure's forms, a plain variant after its measure: ``gP@r/DOC, gP(plain)@r/DOC, ...``."""
    forms = []
    for d in LIST.values():
        forms += d.forms
        if d.plain:
            forms += [f.replace("@", "(plain)@", 1) for f in d.forms]
    return ", ".join(forms)


def cost_kinds() -> tuple[str, ...]:
    """The list measures whose per-article costs ``readsim-eval loss`` computes, those without a
    rank cutoff first (``AgP, gP, CE, NCE, ANCE``)."""
    return tuple(sorted((k for k, d in LIST.items() if d.costs), key=lambda k: LIST[k].grammar != "bare"))


def effort_kinds() -> tuple[str, ...]:
    """The document measures that are effort scores (lower is better): what CE, NCE, ANCE cumulate."""
    return tuple(k for k, d in DOC.items() if d.lower_is_better)


def parameter_kinds() -> dict[str, str]:
    """Every parameter name of the document measures and its kind (:data:`SIZE` or :data:`WEIGHT`)."""
    out: dict[str, str] = {}
    for d in DOC.values():
        for p in d.params:
            out.setdefault(p.name, p.kind)
    return out
