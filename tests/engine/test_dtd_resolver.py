"""The DOCTYPE policy of docs/reference.md section 2.8 holds when articles are parsed in threads.

lxml (6.1) swaps libxml2's process-wide external-entity loader around every parse; overlapping
parses could end with libxml2's own loader in place while another parse was before its DOCTYPE,
which then loaded the DTD without asking ``_DTDResolver`` (``failed to load
".../inex.tar.gz/article.dtd": Not a directory`` in an archive, a FIFO opened in a folder).
That state is per process and settles after the first overlap, so every check runs in a fresh
process: 4 threads start together on the real INEX articles. Each article's line-2 comment is
padded with 1 MB of spaces (lines keep their numbers) so that a parse spends long before its
DOCTYPE, where the skip happened: without the fix most processes show it.
"""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from readsim.core.safe_xml import parse_xml, xml_parser

THREADS = 4
ARTICLES = 8
RUNS = 4  # fresh processes per check (without the fix about 3 in 4 show the skip)
HANG_GUARD = 120  # seconds; one process takes about a second

SCRIPT = r"""
import json, os, sys, threading, time
from readsim.core import safe_xml

mode, tmp, articles = sys.argv[1], sys.argv[2], sys.argv[3:]
counts = threading.local()
resolve = safe_xml._DTDResolver.resolve
def counting(self, url, pubid, context):
    counts.n += 1
    return resolve(self, url, pubid, context)
safe_xml._DTDResolver.resolve = counting

fifo = os.path.join(tmp, "dtd.fifo")
archive = os.path.join(tmp, "inex.tar.gz")  # a regular file: libxml2 cannot open a path inside it
folder = os.path.join(tmp, "articles")
jobs = []
for path in articles:
    data = open(path, "rb").read().replace(b"-->", b" " * 1_000_000 + b"-->", 1)
    name = os.path.basename(path)
    if mode == "fifo":
        data = data.replace(b'"../article.dtd"', b'"' + fifo.encode() + b'"', 1)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)
    jobs.append((name, data))
mapping = {os.path.join(archive, "article.dtd"): open(os.path.join(tmp, "article.dtd"), "rb").read()}
paths = safe_xml.dtd_paths(os.path.join(folder, "x.xml"), folder)

out = {"parses": 0, "skipped": [], "errors": [], "texts": {}}
start = threading.Barrier(int(os.environ["THREADS"]))
def work():
    start.wait()
    for name, data in jobs:
        counts.n = 0
        try:
            if mode == "archive":
                tree = safe_xml.parse_xml(data, name, dtds=mapping,
                                          base_url=os.path.join(archive, "articles", name))
            else:
                tree = safe_xml.parse_xml(os.path.join(folder, name), dtds=paths)
            out["texts"][name] = "".join(tree.getroot().itertext())
        except Exception as err:
            out["errors"].append(str(err)[:300])
        if counts.n != 1:
            out["skipped"].append(f"{name}: resolver asked {counts.n} times")
        out["parses"] += 1
threads = [threading.Thread(target=work, daemon=True) for _ in range(int(os.environ["THREADS"]))]
for t in threads:
    t.start()
deadline = time.monotonic() + 60
for t in threads:
    t.join(max(0.0, deadline - time.monotonic()))
if any(t.is_alive() for t in threads):
    print(json.dumps({"hung": True}), flush=True)
    os._exit(3)
print(json.dumps(out))
"""


def _threaded_parses(mode: str, tmp_path, articles: list[str]) -> dict:
    for run in range(RUNS):
        tmp = tmp_path / f"run{run}"
        (tmp / "articles").mkdir(parents=True)
        (tmp / "inex.tar.gz").write_bytes(b"not a folder")
        (tmp / "article.dtd").write_bytes(Path(_dtd_of(articles[0])).read_bytes())
        if mode == "fifo":
            os.mkfifo(tmp / "dtd.fifo")
        proc = subprocess.run([sys.executable, "-c", SCRIPT, mode, str(tmp), *articles], capture_output=True,
                              text=True, timeout=HANG_GUARD, env={**os.environ, "THREADS": str(THREADS)})
        assert proc.returncode == 0, f"run {run}: {proc.stdout[-500:]} {proc.stderr[-2000:]}"
        out = json.loads(proc.stdout)
        assert out["skipped"] == [] and out["errors"] == [], f"run {run}: {out['skipped']} {out['errors']}"
        assert out["parses"] == THREADS * len(articles)
    return out


def _dtd_of(article: str) -> str:
    """The collection's DTD, which the article's ``../article.dtd`` names."""
    return os.path.join(os.path.dirname(os.path.dirname(article)), "article.dtd")


@pytest.fixture()
def real_articles(inex):
    names = sorted(p for p in (inex / "articles").iterdir() if p.suffix == ".xml")[:ARTICLES]
    for path in names:  # the real DOCTYPE on line 3 after a comment on line 2, as padded above
        lines = path.read_bytes().split(b"\n")
        assert lines[1].startswith(b"<!--") and b'SYSTEM "../article.dtd"' in lines[2]
    return [str(p) for p in names]


@pytest.mark.parametrize("mode", ["archive", "folder"])
def test_every_threaded_parse_asks_the_resolver(mode, tmp_path, real_articles):
    """The collection DTD given as bytes (an archive's member) and as paths (a folder): every
    parse in 4 threads asks the resolver exactly once, and none fails."""
    _threaded_parses(mode, tmp_path, real_articles)


def test_a_doctype_naming_a_fifo_is_never_opened_under_threads(tmp_path, real_articles):
    """A DOCTYPE naming a FIFO (no writer: opening it would block for ever) in articles parsed by
    4 threads: the resolver serves the built-in table, so each text is the one the real DTD
    gives (&nbsp; and the other XHTML entities decode the same)."""
    out = _threaded_parses("fifo", tmp_path, real_articles)
    for path in real_articles:
        expected = parse_xml(path, dtds=[os.path.realpath(_dtd_of(path))]).getroot().itertext()
        assert out["texts"][os.path.basename(path)] == "".join(expected)


def test_the_loader_in_place_between_parses_is_lxmls_dispatch():
    """After the first parser is made, the process-wide loader outside any parse is the one
    lxml installs during a parse (seen from inside a resolver), so no swap can skip resolvers.
    Read through libxml2's ``xmlGetExternalEntityLoader`` where lxml's module exports it."""
    try:
        get = ctypes.CDLL(etree.__file__).xmlGetExternalEntityLoader
    except (OSError, AttributeError):
        pytest.skip("libxml2's symbols are not exported by this lxml build")
    get.restype = ctypes.c_void_p
    during = []

    class Spy(etree.Resolver):
        def resolve(self, url, pubid, context):
            during.append(get())
            return self.resolve_string("", context)

    xml_parser()
    parser = etree.XMLParser(load_dtd=True, no_network=True)
    parser.resolvers.add(Spy())
    etree.fromstring(b'<!DOCTYPE a SYSTEM "spy"><a/>', parser)
    assert len(during) == 1 and get() == during[0]
