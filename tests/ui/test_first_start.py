"""First start: the real ``referee-desk`` opens a window on X11 (xcb), and when Qt's xcb
platform plugin cannot load, the desk says in one line which library is missing and how
to install it, instead of Qt's abort (issue 19, "First start")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee_desk.ui.platform_check import (
    DEBIAN_PACKAGES,
    missing_libraries,
    package_for,
    platform_problem,
    xcb_plugin,
)

README = Path(__file__).resolve().parents[2] / "README.md"
needs_x = pytest.mark.skipif(
    shutil.which("Xvfb") is None or shutil.which("xdotool") is None,
    reason="Xvfb and xdotool are needed (Debian: xvfb xdotool)",
)


def _real_plugin() -> Path:
    plugin = xcb_plugin({})
    assert plugin is not None and plugin.is_file()
    return plugin


def _broken_plugin(tmp_path: Path) -> Path:
    """A copy of the real libqxcb.so whose NEEDED entry names a libxcb-icccm that does not
    exist (same length, so the ELF stays valid); Qt's own libraries stay reachable."""
    real = _real_plugin()
    qt = tmp_path / "Qt"
    (qt / "plugins" / "platforms").mkdir(parents=True)
    (qt / "lib").symlink_to(real.parents[2] / "lib")
    data = real.read_bytes()
    assert data.count(b"libxcb-icccm.so.4\0") == 1
    broken = qt / "plugins" / "platforms" / "libqxcb.so"
    broken.write_bytes(data.replace(b"libxcb-icccm.so.4\0", b"libxcb-icccm.so.0\0"))
    return broken


def _desk_env(display: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("QT_")}
    env.pop("WAYLAND_DISPLAY", None)
    env["QT_QPA_PLATFORM"] = "xcb"
    if display is not None:
        env["DISPLAY"] = display
    return env


def test_readme_apt_line_lists_every_library_the_xcb_plugin_needs() -> None:
    line = next(
        ln for ln in README.read_text(encoding="utf-8").splitlines() if "apt-get install" in ln
    )
    listed = set(line.split())
    assert set(DEBIAN_PACKAGES.values()) <= listed, set(DEBIAN_PACKAGES.values()) - listed
    assert "fonts-wqy-microhei" in listed


def test_every_system_library_of_the_plugin_has_its_package() -> None:
    ldd = subprocess.run(["ldd", str(_real_plugin())], capture_output=True, text=True, check=True)
    system = [
        ln.split()[0]
        for ln in ldd.stdout.splitlines()
        if "=>" in ln and "PySide6" not in ln and "/lib" in ln
    ]
    libc = ("libc.so", "libm.so", "libgcc_s", "libpthread", "libdl.so", "ld-linux", "librt.")
    # direct needs of the plugin and of Qt's libraries; their own deps come with the packages
    readelf = subprocess.run(
        ["readelf", "-d", str(_real_plugin())], capture_output=True, text=True, check=True
    ).stdout
    direct = [ln.split("[")[1].rstrip("]") for ln in readelf.splitlines() if "NEEDED" in ln]
    for library in direct:
        if library.startswith("libQt6") or library.startswith(libc):
            continue
        assert library in system
        assert package_for(library), f"{library} has no Debian package in DEBIAN_PACKAGES"


def test_the_real_plugin_misses_nothing_here() -> None:
    assert missing_libraries(_real_plugin()) == []
    assert platform_problem(_desk_env(":0")) is None


def test_a_missing_library_is_named_with_its_apt_command(tmp_path: Path) -> None:
    broken = _broken_plugin(tmp_path)
    assert missing_libraries(broken) == ["libxcb-icccm.so.0"]
    env = _desk_env(":0") | {"QT_QPA_PLATFORM_PLUGIN_PATH": str(broken.parent)}
    assert platform_problem(env) == (
        "referee-desk: Qt's xcb platform plugin cannot load: libxcb-icccm.so.0 is missing; "
        "install with: sudo apt-get install libxcb-icccm4"
    )
    assert platform_problem(env | {"QT_QPA_PLATFORM": "offscreen"}) is None


def _free_display() -> int:
    for number in range(90, 200):
        if (
            not Path(f"/tmp/.X11-unix/X{number}").exists()
            and not Path(f"/tmp/.X{number}-lock").exists()
        ):
            return number
    raise RuntimeError("no free X display number")


@pytest.fixture
def xvfb() -> Iterator[str]:
    number = _free_display()
    server = subprocess.Popen(
        ["Xvfb", f":{number}", "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    socket = Path(f"/tmp/.X11-unix/X{number}")
    deadline = time.monotonic() + 20
    while not socket.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert socket.exists(), "Xvfb did not start"
    yield f":{number}"
    server.terminate()
    server.wait(timeout=10)


def _desk_command() -> list[str]:
    return [
        sys.executable,
        "-c",
        "import sys; from referee_desk.cli.main import main; sys.exit(main())",
    ]


@needs_x
def test_the_broken_plugin_gives_one_line_not_qts_abort(tmp_path: Path, xvfb: str) -> None:
    broken = _broken_plugin(tmp_path)
    env = _desk_env(xvfb) | {"QT_QPA_PLATFORM_PLUGIN_PATH": str(broken.parent)}
    env["REFEREE_DESK_CONFIG_DIR"] = str(tmp_path / "config")
    done = subprocess.run(
        [*_desk_command(), str(tmp_path / "t.sqlite"), "--settings", str(tmp_path / "desk.ini")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2
    assert lines == [
        "referee-desk: Qt's xcb platform plugin cannot load: libxcb-icccm.so.0 is missing; "
        "install with: sudo apt-get install libxcb-icccm4"
    ]


@needs_x
def test_the_real_desk_maps_its_window_on_xcb(tmp_path: Path, xvfb: str) -> None:
    env = _desk_env(xvfb)
    env["REFEREE_DESK_CONFIG_DIR"] = str(tmp_path / "config")
    env["XDG_CONFIG_HOME"] = str(tmp_path / "xdg")  # the user's settings, kept private
    desk = subprocess.Popen(
        _desk_command(),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        found = ""
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and desk.poll() is None:
            search = subprocess.run(
                ["xdotool", "search", "--onlyvisible", "--pid", str(desk.pid), "--name", "."],
                env=env,
                capture_output=True,
                text=True,
            )
            found = search.stdout.strip()
            if found:
                break
            time.sleep(0.5)
        assert desk.poll() is None, desk.communicate(timeout=10)
        assert found, "no window of the desk was mapped"
        info = subprocess.run(
            ["xwininfo", "-id", found.splitlines()[0]], env=env, capture_output=True, text=True
        ).stdout
        assert "Map State: IsViewable" in info
    finally:
        desk.terminate()
        desk.wait(timeout=20)
