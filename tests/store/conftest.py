"""Fixtures for the store tests: real tournament files in a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from referee_desk.store import TournamentFile


@pytest.fixture
def tfile(tmp_path: Path) -> Iterator[TournamentFile]:
    tf = TournamentFile.open(tmp_path / "cup.sqlite", tournament_id="cup-2026")
    yield tf
    tf.close()
