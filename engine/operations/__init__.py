"""What the command line, the window and the Python API share (``readsim.operations``, the folder
``engine/operations/``): inputs read and checked once, evaluations run on the engine
(:mod:`readsim.core`), plain results returned. ``readsim-eval`` (:mod:`readsim.cli`) and the
window (:mod:`readsim.app`) call these modules; the public functions of ``import readsim`` are
defined here too (those returning ``pandas`` objects import pandas on first use).

- :mod:`.inputs`          qrels and runs from files, objects or DataFrames (``read_qrels``, ``read_run``)
- :mod:`.checks`          the public functions' argument checks: one rule for every option
- :mod:`.evaluate`        ``readsim.evaluate`` and its pandas-free core, ``evaluations``
- :mod:`.article_reading` one ranked article's reading order and scores (the window's ranked list,
  open article and score panel, and ``readsim.article``)
- :mod:`.article`         ``readsim.article``: ``ArticleEvaluation``
- :mod:`.comparison`      ``readsim.compare`` and ``readsim.fidelity``
- :mod:`.loss`            ``readsim.loss`` and its pandas-free core
- :mod:`.sweep`           ``readsim.sweep`` and its pandas-free core
- :mod:`.cwl_files`       a run's reader as C/W/L: cwl-eval's input files and readsim's expected values
- :mod:`.equivalent`      the window's equivalent command: the ``readsim-eval`` line and the
  Python lines that print what it shows (View ▸ Equivalent command)
- :mod:`.figures`         figures with matplotlib (extra ``plots``): the difference plot, the runs' curves
- :mod:`.report`          the HTML report's numbers (``readsim-eval report``, ``readsim.report``)
- :mod:`.report_data`     what the report shows, as plain data
- :mod:`.report_html`     the HTML report's page: self-contained, escaped, numbers readable back
"""
