"""ir_datasets datasets as a collection and as qrels (docs/reference.md section 2.15).

``irds:DATASET`` names a dataset of the ir_datasets package (the optional extra
``readsim[irds]``) wherever a collection or a qrels file is given: ``--collection
irds:msmarco-passage``, ``--qrels irds:DATASET``. Nothing here downloads by itself: ir_datasets
reads what its registry says the dataset is (files it downloaded before, or local files a
program registered).

- **Documents**: a document's id is ``doc_id``; its text the first of the fields ``text``,
  ``body``, ``contents``, ``passage`` it has, else its first field (besides ``doc_id`` and
  ``title``) that holds a string; its ``title`` (when it has one) is shown,
  not counted. The text counts exactly as a JSON Lines document's (reference 2.13). A document
  is read through the dataset's docstore (``docs_store().get``), built by ir_datasets on first
  use; the list of ids, asked for by the coverage checks, is read once by iterating the
  documents.
- **Qrels** whose records carry offsets (fields ``start`` and ``end``, or ``start`` or
  ``offset`` with ``length``) are read as JSON Lines span qrels (2.11): ``query_id`` the topic,
  ``doc_id`` the document, ``relevance`` the grade; a record without offsets and of grade 0
  judges its document non-relevant. Qrels without offsets are an error saying so.

Errors are :class:`InputError` naming ``irds:DATASET``: ir_datasets not installed, an unknown
dataset, a dataset without documents or qrels, a document without text, a record's offsets
that are not whole numbers (naming the record's number from 1 as its line).
"""

from __future__ import annotations

import threading

from .errors import InputError
from .formats.lines import MAX_OFFSET

PREFIX = "irds:"
OFFSET_FIELDS = (("start", "end"), ("start", "length"), ("offset", "length"))
#: a document's text: the first of these fields it has (else its first string field)
TEXT_FIELDS = ("text", "body", "contents", "passage")


def is_irds(path) -> bool:
    """Whether ``path`` names an ir_datasets dataset (``irds:DATASET``)."""
    return isinstance(path, str) and path.startswith(PREFIX)


def load(name: str):
    """The ir_datasets dataset of ``irds:DATASET``. Raises :class:`InputError` naming it when
    ir_datasets is not installed or does not know the dataset."""
    dataset = name[len(PREFIX):]
    try:
        import ir_datasets
    except ImportError:
        raise InputError(name, None, "reading ir_datasets datasets needs the package ir-datasets: "
                                     "pip install 'readsim[irds]'") from None
    try:
        return ir_datasets.load(dataset)
    except KeyError:
        raise InputError(name, None, f"ir_datasets has no dataset {dataset!r} (see ir_datasets' catalogue, "
                                     "or register yours first)") from None


def _text(doc, label: str) -> tuple[str, str | None]:
    """``(text, title)`` of an ir_datasets document: the first of :data:`TEXT_FIELDS` it has as
    a string, else its first string field other than ``doc_id`` and ``title``."""
    fields = doc._asdict() if hasattr(doc, "_asdict") else vars(doc)
    text = next((fields[k] for k in TEXT_FIELDS if isinstance(fields.get(k), str)), None)
    if text is None:
        text = next((v for k, v in fields.items() if k not in ("doc_id", "title") and isinstance(v, str)), None)
    if text is None:
        raise InputError(label, None, f"document {doc.doc_id!r} has no text field (fields: {', '.join(fields)})")
    title = fields.get("title")
    return text, title if isinstance(title, str) and title is not text else None


class IrdsDocuments:
    """The documents of an ir_datasets dataset, by ``doc_id`` (the interface of
    :class:`readsim.core.jsonl_documents.JsonlDocuments`: ``lookup``, ``names``, ``article``).
    Raises :class:`InputError` naming ``irds:DATASET`` (see the module docstring)."""

    def __init__(self, name: str):
        self.label = name
        self._dataset = load(name)
        if not self._dataset.has_docs():
            raise InputError(name, None, "this dataset has no documents")
        self._store = None
        self._names: list[str] | None = None
        self._lock = threading.Lock()

    def _get(self, name: str):
        """The document ``name`` or None (the docstore built by ir_datasets on first use)."""
        with self._lock:
            if self._store is None:
                self._store = self._dataset.docs_store()
            try:
                return self._store.get(name)
            except KeyError:
                return None

    def lookup(self, name: str):
        """The document ``name`` (an ir_datasets record) or None."""
        return self._get(name)

    def names(self) -> list[str]:
        """Every document id, sorted (the documents are iterated once)."""
        with self._lock:
            if self._names is None:
                self._names = sorted({str(d.doc_id) for d in self._dataset.docs_iter()})
            return self._names

    def article(self, name: str, unit: str):
        """The document ``name`` as a :class:`~readsim.core.documents.TextArticle`. Raises
        ``KeyError`` if absent."""
        from .documents import TextArticle  # the XML model: only where a document is read

        doc = self._get(name)
        if doc is None:
            raise KeyError(name)
        text, title = _text(doc, self.label)
        return TextArticle(name, text, unit, f"{self.label}:{name}", title=title, kind="text")


def _whole(value, label: str, number: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(label, number, f"{what} must be a whole number, not {value!r}")
    if not 0 <= value < MAX_OFFSET:
        raise InputError(label, number, f"{what} {value} is out of range (0 to 2^40)")
    return value


def read_irds_qrels(name: str, min_grade: int = 1):
    """The qrels of ``irds:DATASET`` whose records carry offsets, as JSON Lines span qrels
    (reference 2.11 and 2.15): a :class:`~readsim.core.formats.qrels.Qrels`. Raises
    :class:`InputError` naming it (no qrels, no offsets, a bad record: its number as the line)."""
    from .formats.jsonl import span_qrels

    dataset = load(name)
    if not dataset.has_qrels():
        raise InputError(name, None, "this dataset has no qrels")
    fields = dataset.qrels_cls()._fields
    pair = next(((a, b) for a, b in OFFSET_FIELDS if a in fields and b in fields), None)
    if pair is None:
        raise InputError(name, None, f"its qrels carry no offsets (fields: {', '.join(fields)}): readsim needs "
                                     "span qrels (start and end, or start or offset with length)")
    spans = []
    for number, q in enumerate(dataset.qrels_iter(), 1):
        grade = _whole(q.relevance, name, number, "relevance") if q.relevance is not None else 1
        a, b = getattr(q, pair[0]), getattr(q, pair[1])
        if grade == 0 and a is None and b is None:
            start = end = -1  # judged non-relevant, no span
        else:
            start = _whole(a, name, number, pair[0])
            end = _whole(b, name, number, pair[1]) + (start if pair[1] == "length" else 0)
            if end < start or end >= MAX_OFFSET:
                raise InputError(name, number, f"end {end} is before start {start}" if end < start
                                 else f"end {end} is out of range (must be below 2^40)")
        spans.append((number, str(q.query_id), str(q.doc_id), start, end, grade, None))
    return span_qrels(name, spans, min_grade)
