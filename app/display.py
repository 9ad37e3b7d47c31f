"""Before Qt starts: can this machine show the window, and on which Qt platform (reference 9.2).

Qt aborts the process (SIGABRT, exit 134) when its platform plugin cannot load, with a hint that
names one library at most. :func:`choose_platform` asks the system's loader first, library by
library (``dlopen``: :class:`ctypes.CDLL`), for every system library the chosen plugin loads, and
either picks a platform that works or says what is missing, all of it, with the one install line
for Debian/Ubuntu and for Fedora. Only Linux is checked; on other systems Qt's own plugins ship
with the wheel.

The library lists are the ``NEEDED`` entries of PySide6's ``libQt6Gui``, ``libqxcb`` (with
``libQt6XcbQpa``) and ``libqwayland`` (with ``libQt6WaylandClient``) that are not part of the
wheel (``readelf -d``), each with the package that ships it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Library:
    """A system library by its ``soname`` and the packages that ship it."""

    soname: str
    debian: str
    fedora: str


#: what Qt's GUI module loads on any platform but offscreen's own needs (it links them)
GUI = (
    Library("libGL.so.1", "libgl1", "libglvnd-glx"),
    Library("libEGL.so.1", "libegl1", "libglvnd-egl"),
    Library("libfontconfig.so.1", "libfontconfig1", "fontconfig"),
    Library("libxkbcommon.so.0", "libxkbcommon0", "libxkbcommon"),
    Library("libX11.so.6", "libx11-6", "libX11"),
)
#: what the xcb (X11) platform plugin loads besides :data:`GUI`
XCB = (
    Library("libX11-xcb.so.1", "libx11-xcb1", "libX11-xcb"),
    Library("libxcb.so.1", "libxcb1", "libxcb"),
    Library("libxcb-cursor.so.0", "libxcb-cursor0", "xcb-util-cursor"),
    Library("libxcb-icccm.so.4", "libxcb-icccm4", "xcb-util-wm"),
    Library("libxcb-image.so.0", "libxcb-image0", "xcb-util-image"),
    Library("libxcb-keysyms.so.1", "libxcb-keysyms1", "xcb-util-keysyms"),
    Library("libxcb-randr.so.0", "libxcb-randr0", "libxcb"),
    Library("libxcb-render.so.0", "libxcb-render0", "libxcb"),
    Library("libxcb-render-util.so.0", "libxcb-render-util0", "xcb-util-renderutil"),
    Library("libxcb-shape.so.0", "libxcb-shape0", "libxcb"),
    Library("libxcb-shm.so.0", "libxcb-shm0", "libxcb"),
    Library("libxcb-sync.so.1", "libxcb-sync1", "libxcb"),
    Library("libxcb-util.so.1", "libxcb-util1", "xcb-util"),
    Library("libxcb-xfixes.so.0", "libxcb-xfixes0", "libxcb"),
    Library("libxcb-xkb.so.1", "libxcb-xkb1", "libxcb"),
    Library("libxkbcommon-x11.so.0", "libxkbcommon-x11-0", "libxkbcommon-x11"),
)
#: what the wayland platform plugin loads besides :data:`GUI`
WAYLAND = (
    Library("libwayland-client.so.0", "libwayland-client0", "libwayland-client"),
    Library("libwayland-cursor.so.0", "libwayland-cursor0", "libwayland-cursor"),
)
NEEDS = {"xcb": GUI + XCB, "wayland": GUI + WAYLAND}


@dataclass(frozen=True)
class Choice:
    """What :func:`choose_platform` decided: ``platform`` to set as ``QT_QPA_PLATFORM`` (None: leave
    Qt's choice), ``problem`` (the window cannot open: say it, exit 1) and ``note`` (a line to show,
    e.g. that Wayland is used because X11's libraries are missing)."""

    platform: str | None = None
    problem: str | None = None
    note: str | None = None


def missing(libraries, load: Callable[[str], object]) -> list[Library]:
    """The libraries of ``libraries`` the loader cannot open, in their order."""
    absent = []
    for library in libraries:
        try:
            load(library.soname)
        except OSError:
            absent.append(library)
    return absent


def install_line(absent: list[Library]) -> str:
    """``sudo apt-get install A B (Debian, Ubuntu) or sudo dnf install C (Fedora)``: each package once."""
    debian = " ".join(dict.fromkeys(library.debian for library in absent))
    fedora = " ".join(dict.fromkeys(library.fedora for library in absent))
    return f"sudo apt-get install {debian} (Debian, Ubuntu) or sudo dnf install {fedora} (Fedora)"


def _platform_of(environ: Mapping[str, str]) -> str:
    """The platform ``QT_QPA_PLATFORM`` names (its first, without options), or ''."""
    return environ.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()


def choose_platform(environ: Mapping[str, str] | None = None, platform: str | None = None,
                    load: Callable[[str], object] | None = None) -> Choice:
    """Which Qt platform can open the window here, or why none can (reference 9.2).

    On Linux without ``QT_QPA_PLATFORM``: a Wayland session (``WAYLAND_DISPLAY`` and
    ``XDG_SESSION_TYPE=wayland``) uses Wayland, any other session with ``DISPLAY`` X11 (xcb), as Qt
    does; where the chosen platform's libraries (:data:`NEEDS`) are not all there and the other
    platform's display and libraries are, the other is used with a note; where neither works, the
    problem names every missing library of the chosen platform with the install line. A platform
    the user set is checked, never replaced. ``environ``, ``platform`` (``sys.platform``) and
    ``load`` (``ctypes.CDLL``) stand in for the real ones in tests."""
    environ = os.environ if environ is None else environ
    if not (platform or sys.platform).startswith("linux"):
        return Choice()
    if load is None:
        import ctypes

        load = ctypes.CDLL
    display, wayland = environ.get("DISPLAY"), environ.get("WAYLAND_DISPLAY")
    chosen = _platform_of(environ)
    if chosen and chosen not in NEEDS:
        return Choice()  # offscreen, vnc, eglfs...: the user's choice, Qt's own checks
    if chosen == "xcb" and not display:
        return Choice(problem="QT_QPA_PLATFORM=xcb needs DISPLAY (an X server): run readsim in a desktop session")
    if chosen == "wayland" and not wayland:
        return Choice(problem="QT_QPA_PLATFORM=wayland needs WAYLAND_DISPLAY: run readsim in a Wayland session")
    if not chosen and not display and not wayland:
        return Choice(problem="the window needs a display: run readsim in a desktop session, or set "
                              "QT_QPA_PLATFORM=offscreen (or use --screenshot FILE.png)")
    user_set = bool(chosen)
    if not chosen:
        chosen = "wayland" if wayland and environ.get("XDG_SESSION_TYPE") == "wayland" or not display else "xcb"
    absent = missing(NEEDS[chosen], load)
    if not absent:
        return Choice()
    other = "xcb" if chosen == "wayland" else "wayland"
    other_display = display if other == "xcb" else wayland
    if not user_set and other_display and not missing(NEEDS[other], load):
        names = ", ".join(library.soname for library in absent)
        return Choice(platform=other, note=f"using {_NAMES[other]}: {_NAMES[chosen]}'s libraries are missing ({names})")
    names = ", ".join(library.soname for library in absent)
    return Choice(problem=(f"the window needs system libraries that Qt's {_NAMES[chosen]} platform loads, missing "
                           f"here: {names}; install them with {install_line(absent)}, or set "
                           "QT_QPA_PLATFORM=offscreen (or use --screenshot FILE.png)"))


_NAMES = {"xcb": "X11 (xcb)", "wayland": "Wayland"}
