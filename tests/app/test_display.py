"""``readsim`` on a machine where Qt could not open its window: said before Qt aborts (exit 1).

:func:`readsim.app.display.choose_platform` with the environment, the platform and the library
loader standing in; then the real loader in a child process, with libraries hidden from it by
empty files of the same name on ``LD_LIBRARY_PATH`` (the loader takes the first file it finds and
fails on it: "file too short"), as on a fresh machine that lacks them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from readsim.app import display
from readsim.app import main as app_main

ALL = {library.soname for library in display.GUI + display.XCB + display.WAYLAND}


def loads(*absent: str):
    """A loader that has every library the check asks for but ``absent``."""
    def load(name: str):
        assert name in ALL, name
        if name in absent:
            raise OSError(f"{name}: cannot open shared object file: No such file or directory")
        return object()

    return load


X11 = {"DISPLAY": ":0"}
WAYLAND_SESSION = {"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland", "DISPLAY": ":0"}


def test_every_missing_library_is_named_with_one_install_line():
    said = display.choose_platform(X11, "linux", loads("libxcb-icccm.so.4", "libxcb-keysyms.so.1"))
    assert said.platform is None and said.note is None
    assert said.problem == (
        "the window needs system libraries that Qt's X11 (xcb) platform loads, missing here: libxcb-icccm.so.4, "
        "libxcb-keysyms.so.1; install them with sudo apt-get install libxcb-icccm4 libxcb-keysyms1 (Debian, Ubuntu) "
        "or sudo dnf install xcb-util-wm xcb-util-keysyms (Fedora), or set QT_QPA_PLATFORM=offscreen "
        "(or use --screenshot FILE.png)")


def test_a_fedora_package_shipping_several_libraries_is_named_once():
    said = display.choose_platform(X11, "linux", loads("libxcb-randr.so.0", "libxcb-shape.so.0", "libxcb-sync.so.1"))
    assert "sudo apt-get install libxcb-randr0 libxcb-shape0 libxcb-sync1 (Debian, Ubuntu)" in said.problem
    assert "sudo dnf install libxcb (Fedora)" in said.problem


@pytest.mark.parametrize("environ, absent, expect", [
    (X11, (), display.Choice()),
    ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"}, ("libxcb-cursor.so.0",), "libxcb-cursor0"),
    # an X11 session with a Wayland display beside it: xcb, and Wayland when xcb's libraries are missing
    ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, (), display.Choice()),
    ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, ("libxcb-icccm.so.4",),
     display.Choice(platform="wayland", note="using Wayland: X11 (xcb)'s libraries are missing (libxcb-icccm.so.4)")),
    # the Wayland session: Wayland, or X11 (XWayland) when Wayland's libraries are missing
    (WAYLAND_SESSION, ("libxcb-icccm.so.4",), display.Choice()),
    (WAYLAND_SESSION, ("libwayland-cursor.so.0",),
     display.Choice(platform="xcb", note="using X11 (xcb): Wayland's libraries are missing (libwayland-cursor.so.0)")),
    (WAYLAND_SESSION, ("libwayland-cursor.so.0", "libxcb-icccm.so.4"), "missing here: libwayland-cursor.so.0;"),
    ({"WAYLAND_DISPLAY": "wayland-0"}, (), display.Choice()),
    # a platform the user set is checked, never replaced
    ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "w", "QT_QPA_PLATFORM": "xcb"}, ("libxcb-icccm.so.4",), "libxcb-icccm4"),
    ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "w", "QT_QPA_PLATFORM": "wayland"}, ("libwayland-client.so.0",),
     "libwayland-client0"),
    ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "wayland"}, (), "QT_QPA_PLATFORM=wayland needs WAYLAND_DISPLAY"),
    ({}, (), "the window needs a display"),
    ({"QT_QPA_PLATFORM": "xcb"}, (), "QT_QPA_PLATFORM=xcb needs DISPLAY"),
    ({"QT_QPA_PLATFORM": "offscreen"}, tuple(ALL), display.Choice()),
    ({"QT_QPA_PLATFORM": "xcb:dpi=96", "DISPLAY": ":0"}, ("libGL.so.1",), "libgl1"),
])
def test_the_platform_chosen_on_linux(environ, absent, expect):
    said = display.choose_platform(environ, "linux", loads(*absent))
    if isinstance(expect, display.Choice):
        assert said == expect
    else:
        assert said.platform is None and said.problem is not None and expect in said.problem, said


@pytest.mark.parametrize("platform", ["darwin", "win32"])
def test_other_systems_are_left_to_qt(platform):
    assert display.choose_platform({}, platform, loads(*ALL)) == display.Choice()


def _hidden(tmp_path: Path, *sonames: str) -> Path:
    folder = tmp_path / "hidden"
    folder.mkdir()
    for soname in sonames:
        (folder / soname).write_bytes(b"")
    return folder


def _readsim(tmp_path: Path, environ: dict[str, str]) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items()
           if key not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE")}
    env.update(environ, HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"))
    return subprocess.run([sys.executable, "-m", "readsim.app.main", "--sample"], env=env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the system's loader on Linux")
def test_libraries_hidden_from_the_loader_are_named_before_qt_starts(tmp_path):
    """A fresh machine without libxcb-icccm4 and libxcb-keysyms1: one message naming both (and any
    other this machine lacks), exit 1, where Qt alone would abort (exit 134)."""
    folder = _hidden(tmp_path, "libxcb-icccm.so.4", "libxcb-keysyms.so.1")
    done = _readsim(tmp_path, {"DISPLAY": ":99", "LD_LIBRARY_PATH": str(folder)})
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("readsim: error: the window needs system libraries"), done.stderr
    assert "libxcb-icccm.so.4" in lines[0] and "libxcb-keysyms.so.1" in lines[0]
    assert "sudo apt-get install" in lines[0] and "libxcb-icccm4" in lines[0] and "libxcb-keysyms1" in lines[0]
    assert "xcb-util-wm" in lines[0] and "xcb-util-keysyms" in lines[0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the system's loader on Linux")
def test_the_real_loader_agrees_with_dlopen():
    """On this machine: the check's answer under X11 matches a dlopen of each library."""
    import ctypes

    absent = []
    for library in display.GUI + display.XCB:
        try:
            ctypes.CDLL(library.soname)
        except OSError:
            absent.append(library.soname)
    said = display.choose_platform(X11, "linux")
    assert (said == display.Choice()) == (not absent)
    for soname in absent:
        assert soname in said.problem


def test_main_says_it_and_exits_1_before_qt(monkeypatch, capsys):
    monkeypatch.setattr(app_main, "choose_platform", lambda: display.Choice(
        problem="the window needs a display: run readsim in a desktop session, or set "
                "QT_QPA_PLATFORM=offscreen (or use --screenshot FILE.png)"))
    assert app_main.main(["--sample"]) == 1
    err = capsys.readouterr().err
    assert err == ("readsim: error: the window needs a display: run readsim in a desktop session, or set "
                   "QT_QPA_PLATFORM=offscreen (or use --screenshot FILE.png)\n")


def test_screenshot_needs_no_display(monkeypatch, tmp_path, capsys):
    """--screenshot renders offscreen: the check is not made (a headless machine can render)."""
    def fail():
        raise AssertionError("choose_platform called for --screenshot")

    monkeypatch.setattr(app_main, "choose_platform", fail)
    out = tmp_path / "x.png"
    assert app_main.main(["--screenshot", str(out)]) == 0, capsys.readouterr().err
    assert out.stat().st_size > 10_000
