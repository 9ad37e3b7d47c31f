"""readsim's evaluation engine: pure Python (numpy, lxml), no Qt.

Modules, one place for each thing:

- :mod:`.intervals`    sorted half-open interval arrays (passages as ``(k, 2)`` int64 arrays)
- :mod:`.text`         the article text model (SPEC section 2): text, offsets, element spans
- :mod:`.layout`       a readable display of an article and the offset map to display positions
- :mod:`.collection`   a folder of articles, read lazily
- :mod:`.formats`      readers and writers: FOL qrels, FOL and XML runs, topics
- :mod:`.reading`      reading orders as pieces (SPEC section 4)
- :mod:`.docmeasures`  document measures over pieces and their canonical names (SPEC section 5)
- :mod:`.document`     articles' evaluation, all at once from columns (``ArticleColumns``): reading
  orders, scores, curves; one article is a batch of one
- :mod:`.columnwise`   a run's and its qrels' columns joined: the articles' columns for whole runs
- :mod:`.results`      results the columns do not speak for (edited, XML, XPaths), read one by one
- :mod:`.ranked`       a topic's ranked articles (or one) as columns: what the window reads
- :mod:`.listmeasures` list measures of whole runs (gP, AgP, MAP, CE/NCE/ANCE, iP, BEP)
- :mod:`.focused`      the Focused task's ranks: each result line of a run, in file order
- :mod:`.compare`      comparing runs: significance tests, effect sizes, correlations of measures
- :mod:`.fidelity`     fidelity tables of a measure over the simulated runs (:mod:`.simulated`)
- :mod:`.elements`     element retrieval: e/s assessments and the INEX 2002/2003 metrics
- :mod:`.samples`      the sample shipped in ``resources/sample``
- ``api/``             not a module of the engine: the public ``readsim`` package (pyproject maps it),
  imported as ``readsim`` only (``docs/api.md``); its ``_scores`` holds one ranked article's
  scores and the score panel's measures, which ``readsim.article`` and the window share
- :mod:`.cli`          the ``readsim-eval`` command: one module per subcommand (``evaluate``,
  ``compare``, ``fidelity``, ``elements``) over ``common``, built on the ``readsim`` API
"""

__version__ = "0.1.0"
