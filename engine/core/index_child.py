"""The child process that builds one archive's article index (reference 2.10), run by
:func:`readsim.core.article_index.build_in_child` as
``python -m readsim.core.index_child KIND ARCHIVE INDEX FINGERPRINT``.

It imports the archive readers (ratarmountcore and its compiled decompressors for a tar), so
that the process which waits for it never does so for a build. Its standard output carries only
the JSON lines :func:`~readsim.core.article_index.build_in_child` reads (progress at most
every 50 ms, then ``["done"]`` or the error); anything a library prints goes to standard error.
SIGTERM (a Cancel) stops the build: the temporary index file is removed on the way out. So does
a parent that died (a window closed during a build): the next progress line meets a broken pipe.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

from .errors import InputError

#: seconds between two progress lines
EVERY = 0.05


def main(argv: list[str]) -> int:
    kind, source, where, print_ = argv
    out = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)  # a library's prints go to standard error, never into the protocol
    sys.stdout = sys.stderr
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    last = [0.0]

    def progress(done: int, total: int, what: str) -> None:
        now = time.monotonic()
        if now - last[0] >= EVERY:
            last[0] = now
            out.write(json.dumps(["progress", done, total, what]) + "\n")

    from .archives import archive_class

    try:
        archive_class(source).build_index(Path(source), Path(where), print_, progress)
    except InputError as err:
        out.write(json.dumps(["input", err.path, err.line, err.reason]) + "\n")
        return 1
    except OSError as err:
        out.write(json.dumps(["os", err.errno, err.strerror or str(err), None if err.filename is None else os.fsdecode(err.filename)])
                  + "\n")
        return 1
    out.write('["done"]\n')
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
