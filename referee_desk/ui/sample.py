"""The sample tournament a newcomer sees: ``sample_events/*.jsonl`` imported into a
fresh tournament file in a temporary folder (the originals are never touched)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from referee_desk.store import TournamentFile
from referee_desk.store.interchange import import_jsonl

SAMPLE_DIR = Path(__file__).resolve().parents[2] / "sample_events"


def sample_files(directory: Path = SAMPLE_DIR) -> list[Path]:
    return sorted(directory.glob("*.jsonl")) if directory.is_dir() else []


def build_sample_tournament(target_dir: Path | None = None, directory: Path = SAMPLE_DIR) -> Path:
    """A new tournament file holding every sample match; returns its path."""
    folder = Path(target_dir) if target_dir else Path(tempfile.mkdtemp(prefix="referee-desk-"))
    path = folder / "sample-tournament.sqlite"
    with TournamentFile.open(path) as tf:
        files = sample_files(directory)
        if files:
            import_jsonl(tf, files)
    return path


def liveliest_match(tf: TournamentFile) -> str | None:
    """The sample match to show first: one still in play if any, else the longest."""
    from referee_desk import match as match_api

    best: tuple[int, int, str] | None = None
    for match_id in tf.match_ids():
        events = tf.events(match_id)
        try:
            state = match_api.replay(events)
        except ValueError:
            continue
        key = (1 if state.end is None else 0, len(events), match_id)
        if best is None or key > best:
            best = key
    return None if best is None else best[2]
