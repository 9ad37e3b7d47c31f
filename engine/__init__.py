"""readsim from Python: evaluate INEX runs in a notebook, with ``readsim-eval``'s numbers.

The public API (``docs/api.md`` documents each name with shapes, units, errors and an example)::

    import readsim
    qrels = readsim.read_qrels("inex2009-2010.qrels")        # read once, evaluate many runs
    frame = readsim.evaluate(qrels, ["a.run", "b.run"], ["AgP/F(0.25)", "MAiP"])
    c = readsim.compare(qrels, ["a.run", "b.run", "c.run"], ["AgP/F(0.25)"])
    c.to_frame(); c.pairs(); c.to_latex()

- :func:`evaluate` -> a long ``pandas.DataFrame`` (``run``, ``measure``, ``topic``,
  [``article``], ``value``); :func:`compare` -> :class:`Comparison`; :func:`fidelity` -> the
  fidelity tables; :func:`article` -> :class:`ArticleEvaluation` (one article's reading order,
  scores and curve, drawn inline in Jupyter); :func:`sweep` -> a long ``DataFrame`` of a run's
  measures at every value of one parameter; :func:`loss` -> what each ranked article costs
  (a DataFrame, reference section 5.11);
- :func:`read_qrels`, :func:`read_run` -> :class:`Qrels`, :class:`Run` (``to_frame()``);
  :func:`parse_measure`; :class:`Collection` (a folder of articles); :mod:`readsim.elements`
  (the INEX 2002/2003 element metrics); :func:`sample` (the paths of the shipped sample);
- errors are :class:`InputError` (``.path``, ``.line``); warnings about the input are issued
  with :mod:`warnings` in the :class:`InputWarning` category, once per cause.

This folder, ``engine/``, is the ``readsim`` package (``docs/architecture.md``): ``readsim.X`` is
``engine/X``, except ``readsim.app`` (``app/``) and ``readsim.resources`` (``resources/``).
Everything but the names below is internal: :mod:`readsim.core` (the evaluation engine),
:mod:`readsim.operations` (what the command line, the window and these functions share),
:mod:`readsim.cli` (``readsim-eval``) and :mod:`readsim.app` (the window). Importing ``readsim``
loads neither pandas nor scipy nor Qt: each name is imported on first use.
"""

__version__ = "0.1.0"

from readsim.core.errors import InputError, InputWarning

_WHERE = {
    "evaluate": ".operations.evaluate", "read_qrels": ".operations.inputs", "read_run": ".operations.inputs",
    "Qrels": ".operations.inputs", "Run": ".operations.inputs", "compare": ".operations.comparison",
    "Comparison": ".operations.comparison", "fidelity": ".operations.comparison",
    "FidelityTables": ".operations.comparison", "article": ".operations.article",
    "ArticleEvaluation": ".operations.article", "parse_measure": ".operations.evaluate",
    "Collection": ".core.collection", "elements": ".elements", "sample": ".core.samples",
    "sweep": ".operations.sweep", "loss": ".operations.loss", "plot_curves": ".operations.figures",
    "report": ".operations.report",
}

__all__ = ["__version__", "InputError", "InputWarning", *_WHERE]


def __getattr__(name: str):
    """Each public name is imported on first use (PEP 562), so ``import readsim`` stays light."""
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'readsim' has no attribute {name!r}")
    import importlib  # here, so that the package's namespace holds only the public names

    module = importlib.import_module(where, __name__)
    value = module if name == "elements" else getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public API only (``__all__``): ``readsim.core``, ``readsim.operations``,
    ``readsim.cli`` and ``readsim.app`` are internal."""
    return sorted(__all__)
