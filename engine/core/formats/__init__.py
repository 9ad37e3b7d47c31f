"""Readers and writers of INEX files (docs/reference.md section 2), with the policies of its sections 7 and 10.

- :mod:`.qrels`   FOL qrels (2008-2010)
- :mod:`.folrun`  FOL runs ("TREC++", 8 fields; 7 fields with an element XPath; 6 fields = whole article)
- :mod:`.run`     a run and its parts (ranked articles; a FOL run's lines and ranked articles as columns)
- :mod:`.xmlrun`  XML runs of INEX 2006-2008 (``<fol>``, ``<path>``, ``<passage>`` XPointers)
- :mod:`.topics`  INEX topic files and Indri query files (titles)
"""

from ..errors import Diagnostic, InputError
from .lines import read_bytes
from .qrels import Judgement, Qrels, article_length, read_qrels
from .folrun import read_run
from .run import Run, RunArticle
from .run_writer import write_run
from .topics import Topic, read_topics
from .xmlrun import is_xml_run, read_xml_run


def read_any_run(path, strict: bool = False) -> Run:
    """Read a run in either format: XML (2006-2008) if the file starts with ``<``, else FOL.
    The file is read once (a pipe works too). Raises :class:`InputError` naming file and line."""
    data = read_bytes(path)
    return read_xml_run(path, strict, data) if is_xml_run(path, data) else read_run(path, strict, data)

__all__ = [
    "Diagnostic", "InputError", "Judgement", "Qrels", "article_length", "read_qrels", "Run", "RunArticle",
    "read_run", "write_run", "Topic", "read_topics", "read_xml_run", "is_xml_run", "read_any_run",
]
