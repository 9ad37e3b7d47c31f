"""Readers and writers of INEX files (docs/reference.md section 2), with the policies of its sections 7 and 10.

- :mod:`.qrels`   FOL qrels (2008-2010)
- :mod:`.folrun`  FOL runs ("TREC++", 8 fields; 7 fields with an element XPath; 6 fields = whole article)
- :mod:`.limits`  INEX 2010's restricted tasks and Efficiency task: a FOL run's limits checked and cut
- :mod:`.run`     a run and its parts (ranked articles; a FOL run's lines and ranked articles as columns)
- :mod:`.xmlrun`  XML runs of INEX 2006-2008 (``<fol>``, ``<path>``, ``<passage>`` XPointers)
- :mod:`.topics`  INEX topic files and Indri query files (titles); JSON Lines and TSV titles
- :mod:`.jsonl`   JSON Lines spans: qrels, runs and topics (``{"topic", "doc", "start", "end"}``)
- :mod:`.csvqrels` Chroma's chunking-evaluation questions CSV as qrels
- :mod:`.segments` segment runs (``topic Q0 segment rank score run``) with their segment table
"""

from ..errors import Diagnostic, InputError
from .lines import read_bytes
from .qrels import Judgement, Qrels, article_length
from .qrels import read_qrels as read_fol_qrels
from .folrun import read_run
from .limits import TASKS, task_limit
from .run import Run, RunArticle
from .run_writer import write_run
from .topics import Topic, read_topics
from .xmlrun import is_xml_run, read_xml_run
from .jsonl import is_jsonl, read_jsonl_qrels, read_jsonl_run
from .csvqrels import is_questions_csv, read_questions_csv
from .segments import SegmentTable, read_segment_run, read_segments


def read_qrels(path, data: bytes | None = None, min_grade: int = 1) -> Qrels:
    """Read qrels in any format, recognised by content (from ``data`` when the file was already
    read; ``irds:DATASET``: an ir_datasets dataset's span qrels, reference 2.15): JSON Lines
    spans if the first non-blank line starts with ``{``, Chroma's questions CSV
    if the first line is a header with ``references`` and ``corpus_id``, else FOL; spans of grade
    >= ``min_grade`` are the relevant text (graded formats). Raises :class:`InputError` naming
    file and line."""
    if data is None:
        from ..irds import is_irds, read_irds_qrels

        if is_irds(path):  # an ir_datasets dataset's span qrels (reference 2.15)
            return read_irds_qrels(path, min_grade)
        data = read_bytes(path)
    if is_jsonl(data):
        return read_jsonl_qrels(path, data, min_grade)
    if is_questions_csv(data):
        return read_questions_csv(path, data, min_grade)
    return read_fol_qrels(path, data)


def read_any_run(path, strict: bool = False, task: str | None = None,
                 segments: SegmentTable | None = None) -> Run:
    """Read a run in any format: XML (2006-2008) if the file starts with ``<``, JSON Lines spans
    if its first non-blank line starts with ``{`` (:mod:`.jsonl`), else FOL; with ``segments``
    (a :class:`SegmentTable`), a text run that is not JSON Lines is a segment run
    (:mod:`.segments`, reference 2.14); with ``task`` (INEX 2010's restricted and Efficiency
    tasks, :mod:`.limits`) a FOL run is cut to the task's limit. The file is read once (a pipe
    works too). Raises :class:`InputError` naming file and line (and for a ``task`` given with a
    run that is not FOL), ``ValueError`` for an unknown ``task``."""
    data = read_bytes(path)
    if task is not None:
        task_limit(task)
        if is_jsonl(data) or is_xml_run(path, data) or segments is not None:
            raise InputError(path, None, f"--task {task} checks FOL runs (INEX 2010's format) only")
        return read_run(path, strict, data, task)
    if is_jsonl(data):
        return read_jsonl_run(path, strict, data)
    if segments is not None and not is_xml_run(path, data):
        return read_segment_run(path, segments, strict, data)
    return read_xml_run(path, strict, data) if is_xml_run(path, data) else read_run(path, strict, data)

__all__ = [
    "Diagnostic", "InputError", "Judgement", "Qrels", "article_length", "read_qrels", "Run", "RunArticle",
    "read_run", "write_run", "TASKS", "task_limit", "Topic", "read_topics", "read_xml_run", "is_xml_run", "read_any_run",
    "is_jsonl", "read_jsonl_run", "read_jsonl_qrels", "read_fol_qrels", "is_questions_csv", "read_questions_csv",
    "SegmentTable", "read_segments", "read_segment_run",
]
