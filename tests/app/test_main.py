"""The ``readsim`` entry point: --screenshot on real data and on the sample, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from readsim.app.main import main
from readsim.core.samples import sample

from helpers.gui import keep_shot, real_args


def assert_png(path: Path) -> None:
    img = QImage(str(path))
    assert not img.isNull() and img.width() >= 1000 and img.height() >= 700
    assert path.stat().st_size > 30_000  # a rendered window, not a blank image
    colours = {img.pixel(x, y) for x in range(0, img.width(), 37) for y in range(0, img.height(), 23)}
    assert len(colours) > 20


def test_screenshot_of_real_data(inex, tmp_path, capsys):
    out = tmp_path / "test-real-worst.png"
    code = main([*real_args(inex), "--topic", "2009074", "--article", "23724", "--reading", "worst",
                 "--screen", "2000", "--tolerance", "300", "--beta", "0.25", "--step", "2", "--screenshot", str(out)])
    assert code == 0, capsys.readouterr().err
    assert_png(out)
    keep_shot(out)


def test_screenshot_of_the_sample(tmp_path, capsys):
    s = sample()
    if not (s.qrels.is_file() and s.runs):
        pytest.skip("the sample is not there yet")
    out = tmp_path / "test-sample.png"
    assert main(["--screenshot", str(out)]) == 0, capsys.readouterr().err
    assert_png(out)
    keep_shot(out)


def test_theme_dark_draws_a_dark_picture_and_leaves_the_process_light(tmp_path, capsys):
    from readsim.app.appearance import appearance

    def lightness(path: Path) -> float:
        img = QImage(str(path))
        px = [img.pixelColor(x, y).lightnessF() for x in range(0, img.width(), 41) for y in range(0, img.height(), 29)]
        return sorted(px)[len(px) // 2]  # the median: the window's background

    dark, light = tmp_path / "dark.png", tmp_path / "light.png"
    assert main(["--theme", "dark", "--size", "1280x720", "--screenshot", str(dark)]) == 0, capsys.readouterr().err
    assert appearance().theme == "system"  # this run's theme only
    assert main(["--theme", "light", "--size", "1280x720", "--screenshot", str(light)]) == 0, capsys.readouterr().err
    assert lightness(dark) < 0.35 < 0.75 < lightness(light)
    keep_shot(dark)


def test_bad_path_is_a_clear_error(tmp_path, capsys):
    code = main(["--collection", str(tmp_path / "nope"), "--qrels", str(tmp_path / "missing.qrels"),
                 "--run", str(tmp_path / "missing.run"), "--screenshot", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert code == 1  # an OS error, as readsim-eval says it
    assert f"readsim: error: {tmp_path / 'nope'}: collection folder not found" in err
    assert "missing.qrels: qrels file not found" in err and "Traceback" not in err
    assert not (tmp_path / "x.png").exists()


def test_bad_qrels_line_names_file_and_line(inex, tmp_path, capsys):
    bad = tmp_path / "bad.qrels"
    bad.write_text("2009074 Q0 23724 0 100\n2009074 Q0 1164 12\n", encoding="utf-8")
    args = real_args(inex)
    args[args.index("--qrels") + 1] = str(bad)
    code = main([*args, "--screenshot", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert f"readsim: error: {bad}:2: a qrels line needs at least 5 fields" in err


def test_unknown_topic_is_an_error(inex, tmp_path, capsys):
    code = main([*real_args(inex), "--topic", "1999999", "--screenshot", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert code == 1 and "topic 1999999 is not in run" in err


def test_bad_option_value(capsys):
    assert main(["--reading", "sideways"]) == 2
    assert "invalid choice" in capsys.readouterr().err


def test_sample_with_files_is_a_usage_error(capsys):
    from readsim.app.main import main

    assert main(["--sample", "--run", "x.run", "--screenshot", "x.png"]) == 2
    assert "--sample opens the shipped sample" in capsys.readouterr().err
