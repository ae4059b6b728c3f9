"""Helpers for the reliability tests: run desk processes, read what they committed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

WRITER = Path(__file__).with_name("crash_writer.py")
ROOT = Path(__file__).resolve().parents[2]


def start_writer(path: Path, name: str, matches: int, *extra: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, str(WRITER), str(path), name, str(matches), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )


def committed(lines: list[str]) -> list[tuple[str, int, str]]:
    """(match, seq, hash) of each complete ``committed`` line (a cut-off last line is not)."""
    found = []
    for line in lines:
        if not line.endswith("\n"):
            continue
        parts = line.split()
        if len(parts) == 4 and parts[0] == "committed" and len(parts[3]) == 64:
            found.append((parts[1], int(parts[2]), parts[3]))
    return found
