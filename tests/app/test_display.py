"""``readsim`` on a machine where Qt could not open its window: said before Qt aborts (exit 1).

:func:`readsim.app.main.display_problem` with the environment, the platform and the library
loader standing in: Qt 6.5 and later need libxcb-cursor.so.0 for the xcb (X11) platform, and
every platform but offscreen needs a display.
"""

from __future__ import annotations

import pytest

from readsim.app import main as app_main


def loads(available: bool):
    def load(name: str):
        assert name == "libxcb-cursor.so.0"
        if not available:
            raise OSError(f"{name}: cannot open shared object file: No such file or directory")
        return object()

    return load


@pytest.mark.parametrize("environ, available, expect", [
    ({"DISPLAY": ":0"}, False, "install libxcb-cursor0 (Debian, Ubuntu) or xcb-util-cursor (Fedora)"),
    ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"}, False, "libxcb-cursor0"),
    ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, False, "libxcb-cursor0"),  # an X11 session: xcb
    ({"DISPLAY": ":0"}, True, None),
    ({"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland", "DISPLAY": ":0"}, False, None),  # Wayland
    ({}, True, "the window needs a display"),
    ({"QT_QPA_PLATFORM": "xcb"}, True, "QT_QPA_PLATFORM=xcb needs DISPLAY"),
    ({"QT_QPA_PLATFORM": "offscreen"}, False, None),
    ({"QT_QPA_PLATFORM": "wayland"}, False, None),
])
def test_display_problem_on_linux(environ, available, expect):
    said = app_main.display_problem(environ, "linux", loads(available))
    if expect is None:
        assert said is None
    else:
        assert said is not None and expect in said, said


@pytest.mark.parametrize("platform", ["darwin", "win32"])
def test_other_systems_are_left_to_qt(platform):
    assert app_main.display_problem({}, platform, loads(False)) is None


def test_this_machine_has_the_library_when_it_has_x11():
    """The real loader: on this Linux machine with a DISPLAY, the answer matches a dlopen."""
    import ctypes
    import sys

    if not sys.platform.startswith("linux"):
        pytest.skip("Linux only")
    try:
        ctypes.CDLL("libxcb-cursor.so.0")
        present = True
    except OSError:
        present = False
    said = app_main.display_problem({"DISPLAY": ":0"}, "linux")
    assert (said is None) == present


def test_main_says_it_and_exits_1_before_qt(monkeypatch, capsys):
    monkeypatch.setattr(app_main, "display_problem", lambda: "the window needs a display: run readsim in a "
                        "desktop session, or set QT_QPA_PLATFORM=offscreen (or use --screenshot FILE.png)")
    assert app_main.main(["--sample"]) == 1
    err = capsys.readouterr().err
    assert err == ("readsim: error: the window needs a display: run readsim in a desktop session, or set "
                   "QT_QPA_PLATFORM=offscreen (or use --screenshot FILE.png)\n")


def test_screenshot_needs_no_display(monkeypatch, tmp_path, capsys):
    """--screenshot renders offscreen: the check is not made (a headless machine can render)."""
    def fail():
        raise AssertionError("display_problem called for --screenshot")

    monkeypatch.setattr(app_main, "display_problem", fail)
    out = tmp_path / "x.png"
    assert app_main.main(["--screenshot", str(out)]) == 0, capsys.readouterr().err
    assert out.stat().st_size > 10_000
