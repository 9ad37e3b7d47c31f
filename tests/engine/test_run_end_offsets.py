"""A FOL run whose 8th column holds end offsets instead of lengths is flagged (reference section 2.3)."""

from __future__ import annotations

from readsim.core.formats import read_run


def test_end_offsets_in_column_8_are_flagged(tmp_path):
    # every line: column 8 >= column 7 > 0, as end offsets would be (e.g. 15 25, 25 60)
    path = tmp_path / "ends.run"
    path.write_text("".join(f"1 Q0 a{i} {i} 1.0 r {i * 10 + 5} {i * 10 + 50}\n" for i in range(1, 15)))
    (d,) = read_run(path).diagnostics
    assert d.line == 1 and "end offset rather than a length" in d.message and "14 lines" in d.message


def test_lengths_shorter_than_their_offset_are_not_flagged(tmp_path):
    path = tmp_path / "lengths.run"
    lines = [f"1 Q0 a{i} {i} 1.0 r {i * 10 + 5} {i * 10 + 50}\n" for i in range(1, 15)]
    lines.append("1 Q0 b 15 1.0 r 900 40\n")  # a length of 40 at offset 900: not an end offset
    path.write_text("".join(lines))
    assert read_run(path).diagnostics == []


def test_the_real_run_is_not_flagged(inex):
    run = read_run(inex / "runs" / "bert-passages.run")
    assert not any("end offset" in d.message for d in run.diagnostics)
