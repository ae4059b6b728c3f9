"""The sample tournament a newcomer sees: ``sample_events/*.jsonl`` imported into a
fresh tournament file in a temporary folder (the originals are never touched)."""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime
from pathlib import Path

from referee_desk.match.envelope import Event
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


def start_live_demo(tf: TournamentFile, now: datetime | None = None) -> str | None:
    """Re-enter the start of a sample match as a new match happening now.

    The first events of the longest sample (up to a moment when a hand is being
    played) are drafted again with the same payloads and the same spacing, ending at
    ``now``; the store checks and seals each one. A newcomer thus sees a live match
    with its clock running, not a finished record from another day.
    """
    from referee_desk import match as match_api

    source_id = _longest(tf)
    if source_id is None:
        return None
    events = tf.events(source_id)
    replayer = match_api.Replayer()
    cut = None
    for index, event in enumerate(events):
        replayer.apply(event)
        state = replayer.state()
        if state.end is not None:
            break
        hand = state.current_hand
        if hand is not None and hand.status == "playing" and len(state.hands) >= 2:
            cut = index + 1
    if cut is None:
        return None
    moment = now or datetime.now(UTC)
    last = _parse(events[cut - 1].recorded_at)
    new_id = f"{source_id}-live-{moment.strftime('%H%M%S')}"
    chain: list[Event] = []
    for event in events[:cut]:
        when = moment - (last - _parse(event.recorded_at))
        draft = match_api.new_event(
            chain, event.type, event.payload, referee=event.referee, now=when, match_id=new_id
        )
        chain.append(tf.append(draft, expected_seq=len(chain) + 1))
    return new_id


def _parse(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _longest(tf: TournamentFile) -> str | None:
    counts = [(len(tf.events(m)), m) for m in tf.match_ids()]
    return max(counts)[1] if counts else None


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
