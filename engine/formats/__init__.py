"""Readers and writers of INEX files (SPEC section 3), with SPEC section 7's policies.

- :mod:`.qrels`   FOL qrels (2008-2010)
- :mod:`.run`     FOL runs ("TREC++", 8 fields; 7 fields with an element XPath; 6 fields = whole article)
- :mod:`.topics`  INEX topic files and Indri query files (titles)
"""

from ..errors import Diagnostic, InputError
from .qrels import Judgement, Qrels, read_qrels
from .run import Run, RunArticle, read_run, write_run
from .topics import Topic, read_topics

__all__ = [
    "Diagnostic", "InputError", "Judgement", "Qrels", "read_qrels", "Run", "RunArticle",
    "read_run", "write_run", "Topic", "read_topics",
]
