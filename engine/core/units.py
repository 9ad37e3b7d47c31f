"""The two units of offsets and lengths in qrels and runs (reference 2.1): UTF-8 ``bytes`` of an
article's text (INEX's, the default) or Unicode ``chars`` (code points). A module of its own so
that a command reading qrels and runs learns them without importing the XML model
(:mod:`readsim.core.text`, :mod:`readsim.core.safe_xml` and lxml); :func:`unit_of`, the unit
when none is given."""

UNITS = ("bytes", "chars")
#: the help of every ``--unit`` option: without it the unit is the collection's
#: (:func:`unit_of`, reference 2.13)
UNIT_HELP = ("offset unit of qrels and runs (default: chars with a collection of documents that are not article "
             "XML, else bytes)")


def unit_of(unit: str | None, collection) -> str:
    """The unit of offsets and lengths (reference 2.13): ``unit`` when given (``--unit``),
    else ``collection``'s (a :class:`readsim.core.collection.Collection`, whose ``unit=None``
    decides it: ``chars`` for a collection that holds no article XML, ``bytes`` for INEX's),
    else ``bytes`` (``collection`` None). The one rule every command, the window and the API
    follow for ``unit=None``."""
    if unit is not None:
        return unit
    return collection.unit if collection is not None else "bytes"
