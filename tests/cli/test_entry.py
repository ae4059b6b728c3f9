"""The ``referee-desk`` entry point: help, dispatch, Qt-free headless commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from referee_desk.cli.main import SUBCOMMANDS

SCRIPT = Path(sys.executable).parent / "referee-desk"


def _run(args: list[str], stdin: bytes = b"", **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        args, input=stdin, capture_output=True, timeout=120, env={**os.environ, **env}
    )


def test_help_lists_every_subcommand() -> None:
    proc = _run([str(SCRIPT), "--help"])
    assert proc.returncode == 0, proc.stderr.decode()
    text = proc.stdout.decode()
    assert "usage: referee-desk" in text
    for name in SUBCOMMANDS:
        assert name in text


def test_rules_help() -> None:
    proc = _run([str(SCRIPT), "rules", "--help"])
    assert proc.returncode == 0
    assert "JSON Lines" in proc.stdout.decode()


def test_rules_never_imports_qt() -> None:
    """The headless rules service must run where Qt cannot (no display, no libGL)."""
    code = textwrap.dedent(
        """
        import sys
        from referee_desk.cli.main import main
        status = main(["rules"])
        qt = sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6"))
        print(json.dumps({"status": status, "qt": qt}), file=sys.stderr)
        """
    )
    query = b'{"op":"unit","level":"5","trump":"H","cards":"H6 H6"}\n'
    proc = _run([sys.executable, "-c", "import json\n" + code], stdin=query)
    assert proc.returncode == 0, proc.stderr.decode()
    assert json.loads(proc.stdout)["unit"] == "pair"
    report = json.loads(proc.stderr.decode().strip().splitlines()[-1])
    assert report == {"status": 0, "qt": []}


def test_a_missing_subcommand_module_is_a_one_line_error() -> None:
    code = textwrap.dedent(
        """
        import sys
        from referee_desk.cli import main as entry
        entry.SUBCOMMANDS["replay"] = ("referee_desk.cli.cmd_not_there", "replay")
        sys.exit(entry.main(["replay", "x.jsonl"]))
        """
    )
    proc = _run([sys.executable, "-c", code])
    assert proc.returncode == 2
    err = proc.stderr.decode().strip()
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1
    assert "'replay' is not available" in err
    assert "referee_desk.cli.cmd_not_there" in err


def test_no_subcommand_starts_the_desk() -> None:
    """``referee-desk`` with no arguments opens the desk window and keeps running."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    with subprocess.Popen(
        [str(SCRIPT)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    ) as proc:
        deadline = time.monotonic() + 4
        while time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        running = proc.poll() is None
        proc.terminate()
        try:
            _, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
    assert running, err.decode()
    assert b"Traceback" not in err
