"""The two units of offsets and lengths in qrels and runs (reference 2.1): UTF-8 ``bytes`` of an
article's text (INEX's, the default) or Unicode ``chars`` (code points). A module of its own so
that a command reading qrels and runs learns them without importing the XML model
(:mod:`readsim.core.text`, :mod:`readsim.core.safe_xml` and lxml)."""

UNITS = ("bytes", "chars")
