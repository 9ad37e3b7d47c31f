"""FOL runs (INEX 2009-2010 "TREC++"): ``topic Q0 file rank rsv run_id offset length``.

The line order is the rank: the rank and rsv columns are not trusted, and a new article
rank starts where the file changes. A 7-field line carries an element XPath in column 7
instead of ``offset length`` (resolved with the collection, see :mod:`readsim.core.result_lines`); a
6-field line retrieves the whole article. Offsets are in the run's unit (UTF-8 bytes for
the real INEX 2009/2010 runs).

Policies (docs/reference.md sections 2.3 and 7), each a :class:`Diagnostic` (or, with ``strict=True``, an
:class:`InputError`, as the official tool rejects such runs, but a split topic, which it accepts):

- an article that reappears later in its topic (interleaved with other articles) is merged
  into its first rank;
- a topic split into two blocks is merged into its first block;
- overlapping passages of one article are united;
- a negative offset or length, or too few fields, is always an :class:`InputError`.

**How it is read.** Into the columns of :mod:`readsim.core.formats.run` (how a run is held). The
columns are read from the file's bytes by numpy (:func:`readsim.core.formats.lines.scan_fields`);
a file that path does not vouch for (a bad or unusual line) is read line by line, which names the
file and line of any error. Both give the same columns, so every policy above lives in one place
(:func:`_analyse`).
"""

from __future__ import annotations

import os

import numpy as np

from .. import intervals as iv
from ..errors import Diagnostic, InputError
from .limits import restrict
from .lines import Names, all_equal, merge_keys, numbered_lines, packed_keys, parse_digits, scan_fields, to_int
from .run import WHOLE_LINE, XPATH_LINE, Run, RunColumns, RunLines, TopicEntries

END_LIKE_MIN = 10


def read_run(path: str | os.PathLike, strict: bool = False, data: bytes | None = None,
             task: str | None = None) -> Run:
    """Read a FOL run (from ``data`` when the file was already read); with ``task`` (a key of
    :data:`readsim.core.formats.limits.TASKS`) its lines cut to the task's limit, with a warning
    when it goes over (reference 5.14). Raises :class:`InputError` (``file:line: reason``) on bad
    lines, ``ValueError`` for an unknown ``task``."""
    path = str(path)
    if data is None:
        from .lines import read_bytes

        data = read_bytes(path)
    lines = _scan_lines(data)
    if lines is None:
        lines = _read_lines(path, data)
    short = _short_lines(path, lines, data)
    if task is not None:
        lines, over = restrict(path, lines, task)
        short += over
    run = _analyse(path, lines, strict)
    run.diagnostics[:0] = short
    return run


def _short_lines(path: str, cols: RunLines, data: bytes) -> list[Diagnostic]:
    """Lines that look cut short (reference 2.3): a 7-field line whose column 7 is not an
    absolute XPath (an offset without its length) is an error; so is a 6-field line that is the
    file's last line, without a line end, when every other line has 8 fields (the file was cut).
    Other 6-field lines among 8-field ones are legal whole-article lines (readsim writes them for
    an article retrieved whole): one warning naming the first and the count, since a damaged
    line reads the same."""
    for row, xpath in cols.xpaths.items():
        if not xpath.startswith("/"):
            raise InputError(path, int(cols.line[row]), f"column 7 is not an XPath ({xpath!r}; an XPath starts with /): "
                             "a passage line needs 8 fields, offset and length (was the line cut short?)")
    six = np.flatnonzero(cols.kind == 6)
    passages = int(np.count_nonzero(cols.kind == 8))
    if not len(six) or not passages:
        return []
    first = int(cols.line[six[0]])
    if len(six) == 1 and passages == len(cols.kind) - 1 and not data.endswith(b"\n") \
            and first == data.count(b"\n") + 1:
        raise InputError(path, first, "the file ends inside a line: its last line has 6 fields and no line end, "
                         "every other line 8 (offset length); the file looks cut short")
    what = "1 whole-article line (6 fields)" if len(six) == 1 else f"{len(six):,} whole-article lines (6 fields)"
    return [Diagnostic(path, first, f"{what} among {passages:,} passage lines (8 fields), the first here: each "
                       f"retrieves its article whole; a passage line cut short reads the same")]


CHUNK = 1 << 19
"""Bytes of a run file read column-wise at a time (cut at a line end): the arrays of one chunk
stay in the processor's cache and their memory is used again by the next chunk; only the
columns of the lines are kept (512 KB: 8-10% faster than 2 MB on 540,000 and 1,800,000 lines)."""


def _scan_lines(data: bytes) -> RunLines | None:
    """The columns of a run file read column-wise (chunk by chunk), or ``None`` if a line needs
    the line-by-line reader (a wrong number of fields, a number that is not plain digits, a
    character outside ASCII, ...), which then names it or reads it."""
    if len(data) > CHUNK:
        lines = _scan_chunks(data)
        if lines is not None:
            return lines
    part = _scan_chunk(data)
    return None if part is None else part[0]


def _scan_chunks(data: bytes) -> RunLines | None:
    """:func:`_scan_lines` chunk by chunk, or ``None`` when the chunks do not join simply
    (several run ids): the file is then read in one piece. Names of any length join
    (:func:`~readsim.core.formats.lines.merge_keys`)."""
    parts: list[RunLines] = []
    pos = lines = rows = 0
    while pos < len(data):
        cut = data.find(b"\n", pos + CHUNK)
        cut = len(data) if cut < 0 else cut + 1
        part = _scan_chunk(data[pos:cut], pos == 0)
        if part is None:
            return None
        chunk, newlines = part
        one_id = not chunk.run_id_names.packed and len(chunk.run_id_names.vocabulary) == 1
        if not (one_id or not len(chunk.line)):
            return None
        chunk.line += lines
        chunk.xpaths = {k + rows: x for k, x in chunk.xpaths.items()}
        parts.append(chunk)
        lines += newlines
        rows += len(chunk.line)
        pos = cut
    names = {p.run_id_names.vocabulary[0] for p in parts if len(p.line)}
    if len(names) > 1:
        return None
    cat = np.concatenate
    topic, topic_names = merge_keys([(p.topic, p.topic_names) for p in parts])
    article, article_names = merge_keys([(p.article, p.article_names) for p in parts])
    return RunLines(cat([p.line for p in parts]), topic, article,
                    cat([p.kind for p in parts]), cat([p.start for p in parts]), cat([p.end for p in parts]),
                    np.zeros(rows, dtype=np.uint64), topic_names, article_names,
                    Names(False, sorted(names) or [""]), {k: x for p in parts for k, x in p.xpaths.items()})


def _scan_chunk(data: bytes, start: bool = True) -> tuple[RunLines, int] | None:
    """:func:`_scan_lines` for one piece of the file (``start``: the file's first): the columns
    and the number of line ends."""
    sc = scan_fields(data, start)
    if sc is None:
        return None
    count = sc.count
    if len(count) and (int(count.min()) < 6 or int(count.max()) > 8):
        return None
    words = sc.words
    topic, topic_names = sc.keys(0)
    article, article_names = sc.keys(2)
    run_starts, run_ends = sc.field(5)
    if all_equal(words, run_starts, run_ends):  # one run id (the common case): one name
        run_id, run_id_names = np.zeros(len(run_starts), dtype=np.uint64), Names(False, sc.text(run_starts[:1], run_ends[:1]))
    else:
        run_id = packed_keys(words, run_starts, run_ends)
        run_id_names = Names(True)
        if run_id is None:
            run_id, run_id_names = Names.encode(sc.text(run_starts, run_ends))
    n = len(count)
    kind = count.astype(np.int8)
    if sc.regular == 8:
        offset = parse_digits(words, *sc.field(6))
        length = parse_digits(words, *sc.field(7))
        if offset is None or length is None:
            return None
        return RunLines(sc.line, topic, article, kind, offset, offset + length, run_id, topic_names, article_names,
                        run_id_names, {}), sc.newlines
    start = np.full(n, WHOLE_LINE[0], dtype=np.int64)
    end = np.full(n, WHOLE_LINE[1], dtype=np.int64)
    rows8 = np.flatnonzero(count == 8)
    if len(rows8):
        offset = parse_digits(words, *sc.field(6, rows8))
        length = parse_digits(words, *sc.field(7, rows8))
        if offset is None or length is None:
            return None
        start[rows8] = offset
        end[rows8] = offset + length
    rows7 = np.flatnonzero(count == 7)
    xpaths = {}
    if len(rows7):
        start[rows7], end[rows7] = XPATH_LINE
        xpaths = dict(zip(rows7.tolist(), sc.text(*sc.field(6, rows7))))
    return RunLines(sc.line, topic, article, kind, start, end, run_id, topic_names, article_names, run_id_names,
                    xpaths), sc.newlines


def _read_lines(path: str, data: bytes) -> RunLines:
    """The columns of a run file read line by line; raises :class:`InputError` naming the
    first bad line."""
    numbers: list[int] = []
    topics: list[str] = []
    articles: list[str] = []
    run_ids: list[str] = []
    kinds: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    xpaths: dict[int, str] = {}
    for number, f in numbered_lines(path, data):
        if len(f) < 6:
            raise InputError(path, number, f"a run line needs 6 to 8 fields (topic Q0 file rank rsv run_id [offset length | xpath]), found {len(f)}")
        if len(f) > 8:
            raise InputError(path, number, f"a run line has at most 8 fields, found {len(f)}")
        if len(f) == 8:
            offset = to_int(f[6], path, number, "offset")
            length = to_int(f[7], path, number, "length")
            if offset < 0 or length < 0:
                raise InputError(path, number, f"negative offset or length ({offset} {length})")
            start, end = offset, offset + length
        elif len(f) == 7:
            xpaths[len(numbers)] = f[6]
            start, end = XPATH_LINE
        else:
            start, end = WHOLE_LINE
        numbers.append(number)
        topics.append(f[0])
        articles.append(f[2])
        run_ids.append(f[5])
        kinds.append(len(f))
        starts.append(start)
        ends.append(end)
    topic, topic_names = Names.encode(topics)
    article, article_names = Names.encode(articles)
    run_id, run_id_names = Names.encode(run_ids)
    return RunLines(np.asarray(numbers, dtype=np.int64), topic, article, np.asarray(kinds, dtype=np.int8),
                    np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64), run_id, topic_names,
                    article_names, run_id_names, xpaths)


def _repeats(keys: np.ndarray, cuts: np.ndarray) -> bool:
    """True if a key occurs twice within one of the segments ``keys[cuts[i]:cuts[i + 1]]``."""
    bounds = np.append(cuts, len(keys)).tolist()
    for a, b in zip(bounds[:-1], bounds[1:]):
        if b - a > 1:
            k = np.sort(keys[a:b])
            if np.any(k[1:] == k[:-1]):
                return True
    return False


def _first_appearance(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(ids, unique keys, first index)``: ids numbered by first appearance in ``keys``."""
    unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[inverse.reshape(-1)], unique[order], first[order]


def _analyse(path: str, cols: RunLines, strict: bool, lengths: bool = True) -> Run:
    """Group the result lines into ranked articles and apply the policies of docs/reference.md
    sections 2.3 and 7 (``lengths``: the file wrote lengths, which may be end offsets in
    disguise; False for runs that name their ends, :mod:`readsim.core.formats.jsonl`)."""
    diagnostics: list[Diagnostic] = []

    def problem(line: int, message: str, official: bool = True) -> None:
        """``official``: the official INEX tool rejects this too (not a split topic, reference 7)."""
        if strict:
            reason = message.split(";")[0]
            raise InputError(path, line, f"{reason}; rejected (--strict)" + (", as the official INEX tool does" if official else ""))
        diagnostics.append(Diagnostic(path, line, message))

    n = len(cols.line)
    line, kind, start, end = cols.line, cols.kind, cols.start, cols.end
    # column 8 that looks like an end offset: never smaller than column 7 on enough lines
    eight = kind == 8
    offset = start[eight]
    length = end[eight] - offset
    positive = offset > 0
    end_like = positive & (length >= offset)
    if lengths and int(np.count_nonzero(end_like)) >= END_LIKE_MIN and not np.any(positive & (length < offset)):
        first = int(line[eight][np.argmax(end_like)])
        diagnostics.append(Diagnostic(path, first, f"column 8 looks like an end offset rather than a length: it is "
                                      f"never smaller than column 7 on {int(np.count_nonzero(end_like))} lines "
                                      "with a positive offset"))
    # topics: blocks of consecutive lines; a topic whose block is not its first is split
    blocks = iv.starts_of_changes(cols.topic)
    block_tid, topic_keys, first_block = _first_appearance(cols.topic[blocks])
    topics = cols.topic_names(topic_keys)
    again = np.flatnonzero(first_block[block_tid] != np.arange(len(blocks)))
    if len(again):
        _, where = np.unique(block_tid[again], return_index=True)
        for b in np.sort(again[where]).tolist():
            problem(int(line[blocks[b]]), f"topic {topics[block_tid[b]]} appears in two blocks; merged into its first block",
                    official=False)
    tid = np.repeat(block_tid, np.diff(blocks, append=n)) if n else np.zeros(0, dtype=np.int64)
    # ranked articles: runs of lines with one (topic, article); an article that comes back
    # (a run whose (topic, article) was seen before) joins its first run's group
    runs = iv.starts_of_changes(cols.topic, cols.article)
    run_tid, run_key = tid[runs], cols.article[runs]
    simple = len(again) == 0 and not _repeats(run_key, np.searchsorted(runs, blocks))
    if simple:  # the common case: topics in one block each, no article twice in a topic: a group per run
        run_gid = group_first_run = np.arange(len(runs))
    else:
        order = iv.pair_order(run_tid, run_key)
        new = np.ones(len(runs), dtype=bool)
        new[1:] = (run_tid[order][1:] != run_tid[order][:-1]) | (run_key[order][1:] != run_key[order][:-1])
        group_first_run = order[new]  # the earliest run of each (topic, article): stable sort
        sorted_group = np.cumsum(new) - 1
        rank_order = np.argsort(run_tid[group_first_run] * max(len(runs), 1) + group_first_run, kind="stable")
        gid_of_sorted = np.empty(len(rank_order), dtype=np.int64)
        gid_of_sorted[rank_order] = np.arange(len(rank_order))
        run_gid = np.empty(len(runs), dtype=np.int64)
        run_gid[order] = gid_of_sorted[sorted_group]
        group_first_run = group_first_run[rank_order]
    group_tid = run_tid[group_first_run]
    G = len(group_first_run)
    # an article coming back after another one (interleaved): runs that are not its first
    back = np.zeros(0, dtype=np.int64) if simple else np.flatnonzero(group_first_run[run_gid] != np.arange(len(runs)))
    if len(back):
        back_topics = iv.distinct(run_tid[back])
        problem(int(line[runs[back[0]]]), f"{len(back)} result lines in {len(back_topics)} topics (first: topic "
                                          f"{topics[run_tid[back[0]]]}) return to an article ranked earlier "
                                          "(interleaved articles); merged into the article's first rank")
    # run id: the most common (the first seen among equals)
    run_ids = cols.run_id
    run_id = os.path.basename(path)
    if n:
        if np.all(run_ids == run_ids[0]):
            run_id = cols.run_id_names(run_ids[:1])[0]
        else:
            ids, _, first_seen = _first_appearance(run_ids)
            counts = np.bincount(ids)
            best = int(np.argmax(counts))  # ties: the first id seen
            run_id = cols.run_id_names(run_ids[first_seen[best]:first_seen[best] + 1])[0]
            diagnostics.append(Diagnostic(path, None, f"{len(counts)} run ids in one file; using {run_id!r}"))
    # each group's lines, in file order
    run_lengths = np.diff(runs, append=n)
    line_gid = np.repeat(run_gid, run_lengths) if n else np.zeros(0, dtype=np.int64)
    by_group = None
    if simple:
        line_ptr = np.append(runs, n)
    else:
        if np.any(line_gid[1:] < line_gid[:-1]):
            by_group = np.argsort(line_gid, kind="stable")
            line_gid = line_gid[by_group]
        line_ptr = np.zeros(G + 1, dtype=np.int64)
        np.cumsum(np.bincount(line_gid, minlength=G), out=line_ptr[1:])

    def grouped(column: np.ndarray) -> np.ndarray:
        return column if by_group is None else column[by_group]

    g_lines, g_kind, g_start, g_end = grouped(line), grouped(kind), grouped(start), grouped(end)
    if n and int(kind.min()) == 8:  # offsets and lengths only (the common case)
        whole = has_xpath = np.zeros(G, dtype=bool)
        has_span = np.ones(G, dtype=bool)
        keep = g_end > g_start
    else:
        whole = np.bincount(line_gid[g_kind == 6], minlength=G) > 0
        has_xpath = np.bincount(line_gid[g_kind == 7], minlength=G) > 0
        is_span = g_kind == 8
        has_span = np.bincount(line_gid[is_span], minlength=G) > 0
        keep = is_span & (g_end > g_start)
    xpath_lists: dict[int, list[str]] = {}
    if cols.xpaths:
        rows = np.flatnonzero(g_kind == 7)
        source = rows if by_group is None else by_group[rows]
        for r, s in zip(rows.tolist(), source.tolist()):
            xpath_lists.setdefault(int(line_gid[r]), []).append(cols.xpaths[s])
    # passages: every group's non-empty spans, united; overlapping ones found on the way
    every = bool(keep.all())
    p_gid, p_start, p_end = (line_gid, g_start, g_end) if every else (line_gid[keep], g_start[keep], g_end[keep])
    if every and n == G:  # one line per group, each a non-empty span: nothing to unite
        pass_start, pass_end, pass_gid, overlapping = p_start, p_end, p_gid, np.zeros(0, dtype=np.int64)
    else:
        if len(p_gid) and np.any((p_gid[1:] == p_gid[:-1]) & (p_start[1:] < p_start[:-1])):
            o = np.argsort((p_gid << iv.SHIFT) + p_start) if G < 1 << (63 - iv.SHIFT) else np.lexsort((p_start, p_gid))
            p_gid, p_start, p_end = p_gid[o], p_start[o], p_end[o]
        pass_start, pass_end, pass_gid, overlapping = iv.normalize_groups(p_gid, p_start, p_end, G)
    if every and len(pass_gid) == n:  # each line its own passage
        pass_ptr = line_ptr
    else:
        pass_ptr = np.zeros(G + 1, dtype=np.int64)
        np.cumsum(np.bincount(pass_gid, minlength=G), out=pass_ptr[1:])
    if len(overlapping):
        g = int(overlapping[0])
        name = cols.article_names(cols.article[runs[group_first_run[g:g + 1]]])[0]
        problem(int(line[runs[group_first_run[g]]]), f"overlapping passages of article {name} (topic {topics[group_tid[g]]}) united")
        if len(overlapping) > 1:
            diagnostics.append(Diagnostic(path, None, f"{len(overlapping)} articles in all have overlapping passages (united)"))
    topic_ptr = np.zeros(len(topics) + 1, dtype=np.int64)
    np.cumsum(np.bincount(group_tid, minlength=len(topics)), out=topic_ptr[1:])
    for a in (g_lines, g_start, g_end, line_gid, pass_start, pass_end):
        a.flags.writeable = False
    columns = RunColumns(topics, topic_ptr, cols.article[runs[group_first_run]], cols.article_names,
                         g_lines[line_ptr[:-1]] if G else np.zeros(0, dtype=np.int64), whole, has_xpath, has_span,
                         line_ptr, g_lines, g_start, g_end, line_gid, pass_ptr, pass_start, pass_end, xpath_lists)
    run = Run(path, run_id, {t: TopicEntries(columns, k) for k, t in enumerate(topics)}, diagnostics)
    return run
