"""Whether Qt's xcb platform plugin can load, checked before a QApplication exists.

Without one of its system libraries Qt aborts with a long message that names the
plugin, not the library; the desk instead prints one line naming what is missing and
the apt command that installs it. Nothing here imports Qt: the check must run first.
"""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

#: library name (without ".so.N") -> the Debian 12 package that ships it. These are the
#: libraries the PySide6 wheel's libqxcb.so (and the Qt libraries it loads) need from
#: the system; README's apt line installs every one of them.
DEBIAN_PACKAGES: dict[str, str] = {
    "libEGL": "libegl1",
    "libGL": "libgl1",
    "libfontconfig": "libfontconfig1",
    "libfreetype": "libfreetype6",
    "libglib-2.0": "libglib2.0-0",
    "libgthread-2.0": "libglib2.0-0",
    "libdbus-1": "libdbus-1-3",
    "libX11": "libx11-6",
    "libX11-xcb": "libx11-xcb1",
    "libxcb": "libxcb1",
    "libxcb-cursor": "libxcb-cursor0",
    "libxcb-icccm": "libxcb-icccm4",
    "libxcb-image": "libxcb-image0",
    "libxcb-keysyms": "libxcb-keysyms1",
    "libxcb-randr": "libxcb-randr0",
    "libxcb-render": "libxcb-render0",
    "libxcb-render-util": "libxcb-render-util0",
    "libxcb-shape": "libxcb-shape0",
    "libxcb-shm": "libxcb-shm0",
    "libxcb-sync": "libxcb-sync1",
    "libxcb-util": "libxcb-util1",
    "libxcb-xfixes": "libxcb-xfixes0",
    "libxcb-xkb": "libxcb-xkb1",
    "libxkbcommon": "libxkbcommon0",
    "libxkbcommon-x11": "libxkbcommon-x11-0",
    "libzstd": "libzstd1",
    "libstdc++": "libstdc++6",
}

_NOT_FOUND = re.compile(r"^\s*(\S+)\s*=>\s*not found", re.MULTILINE)
_CANNOT_OPEN = re.compile(r"(\S+\.so[.\d]*): cannot open shared object file")


def package_for(library: str) -> str | None:
    """The Debian package shipping LIBRARY (e.g. ``libxcb-icccm.so.4``), None if not known."""
    return DEBIAN_PACKAGES.get(library.split(".so", 1)[0])


def missing_libraries(plugin: Path) -> list[str]:
    """The shared libraries PLUGIN needs that the dynamic loader cannot find."""
    ldd = shutil.which("ldd")
    if ldd is not None:
        done = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, check=False)
        return list(dict.fromkeys(_NOT_FOUND.findall(done.stdout)))
    try:  # no ldd: loading the plugin names the first library missing
        ctypes.CDLL(str(plugin))
    except OSError as exc:
        found = _CANNOT_OPEN.search(str(exc))
        return [found.group(1)] if found else []
    return []


def xcb_plugin(env: Mapping[str, str]) -> Path | None:
    """The libqxcb.so Qt would load: QT_QPA_PLATFORM_PLUGIN_PATH's, else PySide6's."""
    override = env.get("QT_QPA_PLATFORM_PLUGIN_PATH")
    if override:
        return Path(override) / "libqxcb.so"
    import importlib.util

    spec = importlib.util.find_spec("PySide6")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"


def wants_xcb(env: Mapping[str, str], platform: str = sys.platform) -> bool:
    """Whether Qt will try the xcb plugin first (on Linux, unless told or on Wayland)."""
    if not platform.startswith("linux"):
        return False
    chosen = env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if chosen:
        return chosen == "xcb"
    return not env.get("WAYLAND_DISPLAY")


def platform_problem(env: Mapping[str, str] | None = None) -> str | None:
    """One line naming the libraries the xcb plugin misses and how to install them, or None."""
    env = os.environ if env is None else env
    if not wants_xcb(env):
        return None
    plugin = xcb_plugin(env)
    if plugin is None or not plugin.is_file():
        return None
    missing = missing_libraries(plugin)
    if not missing:
        return None
    packages = list(dict.fromkeys(p for p in map(package_for, missing) if p))
    install = (
        f"; install with: sudo apt-get install {' '.join(packages)}"
        if packages
        else "; reinstall PySide6-Essentials (uv sync)"
    )
    return (
        f"referee-desk: Qt's xcb platform plugin cannot load: "
        f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing{install}"
    )
