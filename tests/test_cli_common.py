"""readsim.cli.common's guarded streams: the last words of an interrupted command stand on a
line of their own, whatever line the interrupt cut (docs/reference.md 9: exit status 130)."""

from __future__ import annotations

import io

from readsim.cli.common import guarded, warn
from readsim.core.errors import Diagnostic


def interrupted_after(written: str) -> tuple[int, str]:
    err = io.StringIO()

    def work(out, e):
        e.write(written)
        raise KeyboardInterrupt

    return guarded(work, io.StringIO(), err), err.getvalue()


def test_a_line_cut_by_ctrl_c_is_ended_before_interrupted():
    assert interrupted_after("run.run:12: warning: topic 7 appears in") == (
        130, "run.run:12: warning: topic 7 appears in\nreadsim-eval: interrupted\n")


def test_after_whole_lines_no_blank_line_comes_first():
    assert interrupted_after("run.run:12: warning: one\n") == (130, "run.run:12: warning: one\nreadsim-eval: interrupted\n")
    assert interrupted_after("") == (130, "readsim-eval: interrupted\n")


def test_each_warning_is_one_write_of_a_whole_line():
    writes = []

    class Recorder(io.StringIO):
        def write(self, text):
            writes.append(text)
            return super().write(text)

    warn([Diagnostic("q.qrels", 3, "doc_length 50"), Diagnostic("r.run", None, "empty")], Recorder())
    assert writes == ["q.qrels:3: warning: doc_length 50\n", "r.run: warning: empty\n"]
