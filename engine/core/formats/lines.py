"""Shared helpers for whitespace-separated INEX line formats (qrels, FOL runs).

Every text input follows one policy (``docs/reference.md`` section 2.1):

- a UTF-8 byte-order mark at the start of the file is ignored;
- lines end with LF or CRLF; a carriage return anywhere else, NUL or any other control
  character (C0 but tab, DEL, C1) inside a line is an :class:`InputError` naming file and line
  (``str.split`` would otherwise take some of them as field separators, silently);
- a file that is not UTF-8 is an error naming the line of the first bad byte;
- integers are ASCII digits with an optional sign (no ``1_000``, no other scripts' digits),
  and offsets, lengths and sizes are below :data:`MAX_OFFSET` (2^40).

The file is read whole and checked with one regular-expression scan (C speed), so the check
costs little next to splitting the lines.

**Column-wise reading** (:func:`scan_fields`): an ASCII file is cut into fields by numpy over its
bytes, without a Python loop over lines: one pass finds the field boundaries, another the line
ends, and the wanted columns are then read out as keys (:func:`packed_keys`, names of at most 8
bytes as one ``uint64``; longer names as codes into a vocabulary, :func:`coded_keys`) or integers
(:func:`parse_digits`, plain ASCII digits below 2^40). Keys of two files are compared through
their names when either is coded (:func:`translate_keys`), still column-wise. Whatever that fast
path does not vouch for (a byte outside ASCII, a control character, a sign, a number too long)
makes it answer ``None``, and the caller reads the file line by line with
:func:`numbered_lines`, which names the file and line of whatever is wrong.
"""

from __future__ import annotations

import codecs
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..errors import InputError

MAX_OFFSET = 1 << 40
"""Offsets, lengths and sizes (bytes or characters) must be below this: 2^40, about 10^12."""

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)")
_INTEGER = re.compile(r"[+-]?[0-9]+")


def read_bytes(path: str | os.PathLike) -> bytes:
    """The whole file, read once (so a pipe such as ``<(grep ...)`` works too). Raises
    :class:`InputError` naming the file for a folder or any OS error."""
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except IsADirectoryError:
        raise InputError(path, None, "is a folder, not a file") from None
    except OSError as err:
        raise InputError(path, None, err.strerror or str(err)) from None


def read_text(path: str | os.PathLike, data: bytes | None = None) -> str:
    """The whole file (or its ``data``, already read) as text: UTF-8, a leading byte-order
    mark dropped, CRLF kept.

    Raises :class:`InputError` naming the file (and the line of the first bad byte for text
    that is not UTF-8) for a file that cannot be read, a directory, or text that is not UTF-8.
    """
    if data is None:
        data = read_bytes(path)
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise InputError(path, line, f"not UTF-8 text ({err.reason} at byte {err.start})") from None


def check_controls(text: str, path: str | os.PathLike) -> None:
    """Raise :class:`InputError` at the first control character inside a line of ``text``."""
    bad = _CONTROL.search(text)
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + 1
        char = bad.group()[0]
        raise InputError(path, line, f"control character U+{ord(char):04X} inside a line "
                                     f"(only tab separates fields; lines end with LF or CRLF)")


def numbered_lines(path: str | os.PathLike, data: bytes | None = None) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line_number, fields)`` for each non-blank, non-``#`` line of a text file (or of
    its ``data``, already read).

    Line numbers are 1-based. Raises :class:`InputError` (see the module docstring) if the
    file cannot be read, is not UTF-8 text, or holds a control character inside a line.
    """
    text = read_text(path, data)
    check_controls(text, path)
    for number, line in enumerate(text.split("\n"), 1):
        fields = line.split()
        if fields and not fields[0].startswith("#"):
            yield number, fields


def to_int(text: str, path, line: int, what: str, bound: int | None = MAX_OFFSET) -> int:
    """``int(text)`` for ASCII digits with an optional sign, or an :class:`InputError` naming the
    field; with ``bound`` (default :data:`MAX_OFFSET`), ``abs(value)`` must be below it."""
    if not _INTEGER.fullmatch(text):
        raise InputError(path, line, f"{what} must be an integer, not {text!r}")
    value = int(text)
    if bound is not None and abs(value) >= bound:
        raise InputError(path, line, f"{what} {text} is out of range (must be below 2^{bound.bit_length() - 1})")
    return value


# -- column-wise reading ------------------------------------------------------------------------

_U64 = np.uint64
_KEEP = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=_U64)
"""``_KEEP[k]``: the low ``k`` bytes of a little-endian word (the first ``k`` characters)."""
_ZEROS = np.array([0x3030303030303030 & ((1 << (8 * (8 - k))) - 1) if k < 8 else 0 for k in range(9)], dtype=_U64)
"""``_ZEROS[k]``: ASCII ``0`` in the ``8 - k`` low bytes (leading zeros of a ``k``-digit number)."""
_ASCII_0 = _U64(0x3030303030303030)
_HIGH_NIBBLES = _U64(0xF0F0F0F0F0F0F0F0)
_PLUS_6 = _U64(0x0606060606060606)


@dataclass
class Scan:
    """The fields of a whitespace-separated text file, found column-wise (:func:`scan_fields`).

    ``line[i]`` is the 1-based line number of the i-th data line (blank and ``#`` lines are
    left out) and ``count[i]`` its number of fields; :meth:`field` gives the byte offsets of one
    field of every line (half-open, in ``data``). ``words[p]`` is the little-endian ``uint64``
    made of ``data[p:p + 8]`` (``data`` is padded with 8 NUL bytes), which :func:`packed_keys`
    and :func:`parse_digits` read. ``regular`` is the number of fields of every line when all
    lines have that many, one separator byte apart, and nothing else (the common case: fields
    are then read as strided views, without an index per field); else 0.
    """

    data: bytes
    words: np.ndarray
    line: np.ndarray
    count: np.ndarray
    starts: np.ndarray
    ends: np.ndarray | None  # every field's end, or None when regular
    first: np.ndarray | None  # each line's first field in starts/ends, or None when regular
    line_ends: np.ndarray | None = None  # regular: each line's end (its last field's end)
    regular: int = 0
    newlines: int = 0  # line ends in the file

    def field(self, k: int, rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(starts, ends)`` of field ``k`` (0-based) of the data lines ``rows`` (default all),
        each of which has more than ``k`` fields."""
        if self.regular:
            K = self.regular
            starts = self.starts[k::K]
            ends = self.starts[k + 1::K] - 1 if k + 1 < K else self.line_ends
            return (starts, ends) if rows is None else (starts[rows], ends[rows])
        index = (self.first if rows is None else self.first[rows]) + k
        return self.starts[index], self.ends[index]

    def keys(self, k: int) -> tuple[np.ndarray, Names]:
        """Field ``k`` of every line as keys (names packed into ``uint64`` when short enough,
        else codes, :func:`coded_keys`) with the :class:`Names` that decode them."""
        starts, ends = self.field(k)
        packed = packed_keys(self.words, starts, ends)
        return (packed, Names(True)) if packed is not None else coded_keys(self.words, starts, ends)

    def fields_from(self, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(row, starts, ends)`` of fields ``k``, ``k + 1``, ... of every data line, line by line
        (``row``: the data line of each field)."""
        extra = np.maximum(self.count - k, 0)
        row = np.repeat(np.arange(len(self.count)), extra)
        if not len(row):
            return row, row.copy(), row.copy()
        before = np.cumsum(extra) - extra
        index = np.arange(len(row)) - before[row] + k  # field number within its line
        if self.regular:
            flat = row * self.regular + index
            last = index == self.regular - 1
            ends = np.where(last, self.line_ends[row], self.starts[np.minimum(flat + 1, len(self.starts) - 1)] - 1)
            return row, self.starts[flat], ends
        flat = self.first[row] + index
        return row, self.starts[flat], self.ends[flat]

    def text(self, starts: np.ndarray, ends: np.ndarray) -> list[str]:
        """The fields as Python strings (ASCII)."""
        data = self.data
        return [data[a:b].decode("ascii") for a, b in zip(starts.tolist(), ends.tolist())]


def scan_fields(data: bytes, start: bool = True) -> Scan | None:
    """Cut ``data`` (a whole file, maybe with a byte-order mark; with ``start=False`` a later
    piece of one, whose byte-order mark would be text) into fields column-wise, or
    ``None`` when only the line-by-line reader may judge it: a byte outside ASCII, a control
    character (anything below 32 but tab, LF and CR-before-LF; DEL). Fields are separated by
    spaces, tabs and line ends, as ``str.split`` separates them in ASCII text; blank lines and
    lines whose first field starts with ``#`` are left out, as :func:`numbered_lines` does."""
    body = data[len(codecs.BOM_UTF8):] if start and data.startswith(codecs.BOM_UTF8) else data
    if not body.isascii() or b"\x7f" in body:
        return None
    n = len(body)
    arr = np.frombuffer(body, np.uint8)
    scratch = np.empty(n, dtype=bool)  # one buffer for the passes over the bytes (fresh memory is slow)
    nl = np.flatnonzero(np.equal(arr, 10, out=scratch))
    controls = len(nl)
    if b"\t" in body:
        controls += int(np.count_nonzero(np.equal(arr, 9, out=scratch)))
    carriage = 0
    if b"\r" in body:
        cr = np.flatnonzero(np.equal(arr, 13, out=scratch))
        if cr[-1] + 1 >= n or not np.all(arr[cr + 1] == 10):
            return None  # a carriage return inside a line
        carriage = len(cr)
        controls += carriage
    if int(np.count_nonzero(np.less(arr, 32, out=scratch))) != controls:
        return None
    low = np.empty(n + 1, dtype=bool)  # low[p + 1]: byte p separates fields; low[0]: before the file
    low[0] = True
    np.less_equal(arr, 32, out=low[1:])
    np.logical_not(low[1:], out=scratch)
    starts = np.flatnonzero(np.logical_and(low[:-1], scratch, out=scratch))
    padded = body + bytes(8)
    words = np.ndarray((n + 1,), dtype="<u8", buffer=padded, strides=(1,))
    separators = int(np.count_nonzero(low)) - 1
    line_starts = np.empty(len(nl) + 1, dtype=np.int64)
    line_starts[0] = 0
    line_starts[1:] = nl + 1
    line_ends = np.append(nl, n)
    if n and body.endswith(b"\n"):  # the empty line after the last line end
        line_starts, line_ends = line_starts[:-1], line_ends[:-1]
    lines = len(line_starts)
    # regular: every line has K fields, one separator byte apart, nothing before or after them
    if lines and len(starts) % lines == 0 and separators == len(starts) - lines + len(nl) + carriage \
            and b"#" not in body:
        K = len(starts) // lines
        if np.array_equal(starts[::K], line_starts):
            if carriage:
                line_ends = line_ends - (arr[np.maximum(line_ends - 1, 0)] == 13)
            return Scan(padded, words, np.arange(1, lines + 1), np.full(lines, K), starts, None, None,
                        line_ends, K, len(nl))
    first = np.searchsorted(starts, line_starts)
    count = np.diff(first, append=len(starts))
    data_line = count > 0
    if b"#" in body:
        data_line[data_line] = arr[starts[first[data_line]]] != 35
    if separators == len(starts) - int(np.count_nonzero(count)) + len(nl) + carriage:
        # one separator byte between fields, nothing before or after them on a line
        ends = np.empty_like(starts)
        ends[:-1] = starts[1:] - 1
        has = count > 0
        last = (first + count - 1)[has]
        ends_of_lines = line_ends[has]
        if carriage:
            ends_of_lines = ends_of_lines - (arr[np.maximum(ends_of_lines - 1, 0)] == 13)
        ends[last] = ends_of_lines
    else:  # a field ends at byte p when byte p + 1 separates, or the file ends
        if n:
            np.logical_and(~low[1:-1], low[2:], out=scratch[:-1])
            scratch[-1] = not low[-1]
        ends = np.flatnonzero(scratch) + 1
    rows = np.flatnonzero(data_line)
    return Scan(padded, words, rows + 1, count[rows], starts, ends, first[rows], newlines=len(nl))


def packed_keys(words: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray | None:
    """Each field as one ``uint64`` (its bytes in little-endian order, the rest 0), or ``None``
    if a field is longer than 8 bytes. Two fields are equal exactly when their keys are (no
    field holds a NUL byte); :func:`unpack_keys` gives the names back."""
    lengths = ends - starts
    if len(lengths) and int(lengths.max()) > 8:
        return None
    return words[starts] & _KEEP[lengths]


@dataclass(eq=False)
class Names:
    """Names for keys: packed (:func:`readsim.core.formats.lines.packed_keys`, 8 bytes at most) or
    ids into ``vocabulary``: a list of names (:meth:`encode`) or a numpy ``S`` array of their
    UTF-8 bytes (:func:`coded_keys`, :func:`merge_keys`)."""

    packed: bool
    vocabulary: list[str] | np.ndarray | None = None

    def __call__(self, keys: np.ndarray) -> list[str]:
        if self.packed:
            return unpack_keys(keys)
        vocab = self.vocabulary
        if isinstance(vocab, np.ndarray):
            return [b.decode("utf-8") for b in vocab[np.asarray(keys, dtype=np.intp)].tolist()]
        return [vocab[k] for k in keys.tolist()]

    def utf8(self, keys: np.ndarray) -> np.ndarray:
        """The names of ``keys`` as a numpy ``S`` array of their UTF-8 bytes (equal names, equal
        bytes, whichever way either file was read)."""
        if self.packed:
            return np.ascontiguousarray(keys, dtype="<u8").view("S8")
        vocab = self.vocabulary
        if not isinstance(vocab, np.ndarray):
            vocab = self._utf8_vocabulary
        return vocab[np.asarray(keys, dtype=np.intp)]

    @cached_property
    def _utf8_vocabulary(self) -> np.ndarray:
        """A list ``vocabulary`` as UTF-8 bytes (one Python call per distinct name, once)."""
        return np.array([n.encode("utf-8") for n in self.vocabulary or ()] or [b""], dtype=bytes)

    @classmethod
    def encode(cls, names: list[str]) -> tuple[np.ndarray, Names]:
        """Keys of ``names`` (packed when every name allows it, else ids) and their decoder."""
        ids: dict[str, int] = {}
        codes = [ids.setdefault(n, len(ids)) for n in names]
        vocabulary = list(ids)
        packed = [pack_name(n) for n in vocabulary]
        if all(k is not None for k in packed):
            table = np.array(packed, dtype=np.uint64)
            return table[np.asarray(codes, dtype=np.int64)] if codes else np.zeros(0, np.uint64), cls(True)
        return np.asarray(codes, dtype=np.uint64), cls(False, vocabulary)


def all_equal(words: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> bool:
    """True when every field is the same bytes as the first (any length)."""
    if not len(starts):
        return True
    lengths = ends - starts
    size = int(lengths[0])
    if not np.all(lengths == size):
        return False
    for k in range(0, size, 8):
        keep = _KEEP[min(size - k, 8)]
        w = words[starts + k] & keep
        if not np.all(w == w[0]):
            return False
    return True


NO_KEY = np.uint64((1 << 64) - 1)
"""A key no name has: not a packed name (``0xFF`` is no UTF-8 byte), nor a code."""

_HASH_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F))


def field_words(words: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Each field as ``width`` little-endian ``uint64`` words (as many as the longest field
    needs), its bytes then NULs: ``(width, len(starts))``, word ``j`` of every field in one
    contiguous row (one gather per word)."""
    lengths = ends - starts
    width = max(1, -(-int(lengths.max(initial=0)) // 8))
    cols = np.empty((width, len(starts)), dtype="<u8")
    last = len(words) - 1
    for j in range(width):
        rest = np.minimum(np.maximum(lengths - 8 * j, 0), 8)
        np.bitwise_and(words[np.minimum(starts + 8 * j, last)], _KEEP[rest], out=cols[j])
    return cols


def _as_words(names: np.ndarray, width: int) -> np.ndarray:
    """An ``S`` array as ``(width, len(names))`` ``uint64`` words, NUL-padded (as :func:`field_words`)."""
    out = np.zeros(len(names), dtype=f"S{8 * width}")
    out[...] = names
    return out.view("<u8").reshape(len(names), width).T


def _as_names(cols: np.ndarray) -> np.ndarray:
    """``(width, n)`` words as an ``S`` array of ``n`` names (the inverse of :func:`_as_words`)."""
    return np.ascontiguousarray(cols.T).view(f"S{8 * cols.shape[0]}").reshape(-1)


def _row_hash(cols: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each name of ``(width, n)`` words (uint64 arithmetic wraps)."""
    h = np.zeros(cols.shape[1], dtype=np.uint64)
    for j in range(cols.shape[0]):
        h ^= cols[j]
        h *= _HASH_MIX[j & 1]
        h ^= h >> np.uint64(31)
    return h


def distinct_rows(cols: np.ndarray, runs: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``(codes, heads)`` of the names held as ``(width, n)`` ``uint64`` words: equal names get
    equal codes ``0 .. m - 1`` and ``heads[c]`` is a name of code ``c``. Names are told apart by
    a 64-bit hash (one sort of ``uint64``, far cheaper than sorting strings; with ``runs``, only
    the first of consecutive equal hashes is sorted, as a run's passages of one article follow
    each other), then every name is checked against its code's head word by word, so a
    collision (never seen) falls back to an exact sort."""
    n = cols.shape[1]
    if not n:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    h = _row_hash(cols)
    fresh = np.ones(n, dtype=bool)
    if runs:
        np.not_equal(h[1:], h[:-1], out=fresh[1:])
    first = np.flatnonzero(fresh) if runs else None
    hf = h[first] if runs else h
    order = np.argsort(hf)
    hs = hf[order]
    new = np.empty(len(hs), dtype=bool)
    new[0] = True
    np.not_equal(hs[1:], hs[:-1], out=new[1:])
    codes = np.empty(len(hs), dtype=np.int64)
    codes[order] = np.cumsum(new) - 1
    heads = order[new]
    if runs:
        heads = first[heads]
        codes = codes[np.cumsum(fresh) - 1]
    ref = heads[codes]
    if not all(np.array_equal(cols[j], cols[j][ref]) for j in range(cols.shape[0])):  # two names, one hash
        _, heads, codes = np.unique(_as_names(cols), return_index=True, return_inverse=True)
        codes = codes.reshape(-1)
    return codes, heads


def coded_keys(words: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, Names]:
    """Each field (of any length) as a code into a vocabulary of the distinct fields' UTF-8
    bytes, found column-wise (:func:`distinct_rows`), and the :class:`Names` that decode them."""
    cols = field_words(words, starts, ends)
    codes, heads = distinct_rows(cols, runs=True)
    return codes.astype(np.uint64), Names(False, _as_names(cols[:, heads]))


def _shared_codes(names: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Codes of a vocabulary shared by several ``S`` arrays of names: ``(codes, cuts,
    vocabulary)``, array ``i``'s names coded ``codes[cuts[i]:cuts[i + 1]]``."""
    width = max([1] + [-(-a.dtype.itemsize // 8) for a in names])
    cols = np.concatenate([_as_words(a, width) for a in names], axis=1)
    codes, heads = distinct_rows(cols)
    cuts = np.cumsum([0] + [len(a) for a in names])
    return codes, cuts, _as_names(cols[:, heads])


def merge_keys(parts: list[tuple[np.ndarray, Names]]) -> tuple[np.ndarray, Names]:
    """The keys of several pieces of one file (each with its own :class:`Names`; a coded
    piece uses every code of its vocabulary) as keys of one :class:`Names`: packed if every
    piece's are, else codes into a shared vocabulary."""
    if all(names.packed for _, names in parts):
        return np.concatenate([keys for keys, _ in parts]), Names(True)
    # each piece's distinct keys and each key's place among them (a coded piece's are its codes)
    distinct = [np.unique(keys, return_inverse=True) if names.packed else (np.arange(len(names.vocabulary)), keys)
                for keys, names in parts]
    codes, cuts, vocabulary = _shared_codes([names.utf8(d[0]) for (_, names), d in zip(parts, distinct)])
    keys = [codes[cuts[i]:cuts[i + 1]][np.asarray(d[1], dtype=np.intp).reshape(-1)] for i, d in enumerate(distinct)]
    return np.concatenate(keys).astype(np.uint64), Names(False, vocabulary)


def translate_keys(keys: np.ndarray, names: Names, to_keys: np.ndarray, to_names: Names) -> np.ndarray:
    """``keys`` (decoded by ``names``) as keys of another file: the key among the distinct
    ``to_keys`` (decoded by ``to_names``) of the same name, else :data:`NO_KEY`. Packed keys
    are the same in every file; otherwise names are compared whatever their length, as rows of
    ``uint64`` words, column-wise and once per distinct name: each name's 64-bit hash is looked
    up among the sorted hashes of ``to_keys``' names and a hit is a match only when the words
    are equal too (exact: two of ``to_keys``' names with one hash fall back to coding both
    sides in one shared vocabulary, :func:`distinct_rows`)."""
    if names.packed and to_names.packed:
        return keys
    if not names.packed and len(keys) * 8 >= len(names.vocabulary):  # most of a coded file: every code
        distinct, inverse = np.arange(len(names.vocabulary)), np.asarray(keys, dtype=np.intp)
    else:
        distinct, inverse = np.unique(keys, return_inverse=True)
        inverse = inverse.reshape(-1)
    ours, theirs = names.utf8(distinct), to_names.utf8(to_keys)
    table = np.full(len(distinct), NO_KEY, dtype=np.uint64)
    if len(theirs) and len(ours):
        width = max(-(-ours.dtype.itemsize // 8), -(-theirs.dtype.itemsize // 8))
        a, b = _as_words(ours, width), _as_words(theirs, width)
        ha, hb = _row_hash(a), _row_hash(b)
        order = np.argsort(hb)
        hb = hb[order]
        if np.any(hb[1:] == hb[:-1]):  # two of their names, one hash (never seen): one shared vocabulary
            codes, cuts, vocabulary = _shared_codes([ours, theirs])
            shared = np.full(len(vocabulary), NO_KEY, dtype=np.uint64)
            shared[codes[cuts[1]:]] = to_keys
            return shared[codes[:cuts[1]]][inverse]
        at = np.minimum(np.searchsorted(hb, ha), len(hb) - 1)
        row = order[at]
        hit = hb[at] == ha
        for j in range(width):
            hit &= a[j] == b[j][row]
        table[hit] = to_keys[row[hit]]
    return table[inverse]


def unpack_keys(keys: np.ndarray) -> list[str]:
    """The names of :func:`packed_keys`."""
    return [b.decode("utf-8") for b in np.ascontiguousarray(keys, dtype="<u8").view("S8").tolist()]


def pack_name(name: str) -> int | None:
    """``name``'s key as :func:`packed_keys` makes it (for names read otherwise), or ``None`` if
    its UTF-8 form is longer than 8 bytes."""
    raw = name.encode("utf-8")
    return int.from_bytes(raw, "little") if len(raw) <= 8 and b"\0" not in raw else None


def _digits8(x: np.ndarray, lengths: np.ndarray) -> np.ndarray | None:
    """Values of words holding 1 to 8 ASCII digits (``lengths``) at their start, or ``None`` if
    a byte is not a digit. SWAR: pad with leading zeros, check every byte, then combine the
    digits pairwise (2 -> 4 -> 8 digits) in three multiplications."""
    x = ((x & _KEEP[lengths]) << ((8 - lengths) * 8).astype(_U64)) | _ZEROS[lengths]
    if not (np.all(x & _HIGH_NIBBLES == _ASCII_0) and np.all((x + _PLUS_6) & _HIGH_NIBBLES == _ASCII_0)):
        return None
    x = x - _ASCII_0
    x = (x * _U64(10) + (x >> _U64(8))) & _U64(0x00FF00FF00FF00FF)
    x = (x * _U64(100) + (x >> _U64(16))) & _U64(0x0000FFFF0000FFFF)
    x = (x * _U64(10000) + (x >> _U64(32))) & _U64(0xFFFFFFFF)
    return x.astype(np.int64)


def parse_digits(words: np.ndarray, starts: np.ndarray, ends: np.ndarray, bound: int = MAX_OFFSET) -> np.ndarray | None:
    """The fields as int64, or ``None`` unless every one is plain ASCII digits (no sign) of value
    below ``bound``: then :func:`to_int` on the line-by-line path says what is wrong."""
    lengths = ends - starts
    if not len(lengths):
        return np.zeros(0, dtype=np.int64)
    if int(lengths.max()) > 16:
        return None
    tail = np.minimum(lengths, 8)
    values = _digits8(words[ends - tail], tail)
    if values is None:
        return None
    long = lengths > 8
    if long.any():
        head = _digits8(words[starts[long]], lengths[long] - 8)
        if head is None or int(head.max()) >= (1 << 63) // 10**8 - 1:
            return None
        values[long] += head * 10**8
    if int(values.max()) >= bound:
        return None
    return values
