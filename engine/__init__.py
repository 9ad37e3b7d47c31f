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

Everything else (``readsim.core``, ``readsim.app``, this package's underscored modules) is
internal. Importing ``readsim`` loads neither pandas nor scipy nor Qt: each name is imported on
first use.
"""

if __name__ != "readsim":  # this folder is engine/operations: in an editable install it is also on engine's path
    raise ImportError(f"{__name__} is the readsim package itself: import readsim")

from readsim import __version__
from readsim.core.errors import InputError, InputWarning

_WHERE = {
    "evaluate": "._evaluate", "read_qrels": "._inputs", "read_run": "._inputs", "Qrels": "._inputs",
    "Run": "._inputs", "compare": "._compare", "Comparison": "._compare", "fidelity": "._compare",
    "FidelityTables": "._compare", "article": "._article", "ArticleEvaluation": "._article",
    "parse_measure": "._evaluate", "Collection": "readsim.core.collection", "elements": ".elements",
    "sample": "readsim.core.samples", "sweep": "._sweep", "loss": "._loss",
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
    """The public API only (``__all__``): ``readsim.core`` and the underscored modules are
    internal."""
    return sorted(__all__)
