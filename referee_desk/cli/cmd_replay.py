"""``referee-desk replay FILE [--match ID] [--json] [--at TIME]``: print a match's state.

FILE is a JSON Lines match record (``.jsonl``) or a tournament's SQLite file. The
text output lists levels, hands, violations, flags and the result, each
consequence with its article; ``--json`` prints one JSON document. Bad input ends
with exit status 1 (2 for an unreadable file) and a one-line reason on stderr,
never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path

from referee_desk.match import Event, EventRefused, MatchState, replay, verify_chain
from referee_desk.match.clock import format_duration
from referee_desk.store import StoreError, strict_json
from referee_desk.store.opener import is_server_address, open_store, shown

SQLITE_MAGIC = b"SQLite format 3\x00"


class ReplayInputError(ValueError):
    """A file or match that cannot be replayed (the message is the one-line reason)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="match record (.jsonl) or tournament file (SQLite)")
    parser.add_argument("--match", dest="match_id", help="match id (when FILE holds several)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument(
        "--at", dest="at", help="read the clock at this UTC time (ISO 8601), default: last event"
    )


def run(args: argparse.Namespace) -> int:
    name = shown(args.file)  # a server's address never with its password
    try:
        # Kept: a file is told by its first bytes (a JSON Lines record is no store) and
        # what it cannot give is the input's fault (exit 1); a server is read through
        # the one opener and its refusals are the server's (exit 2).
        events = (
            _read_store(args.file, args.match_id)
            if is_server_address(args.file)
            else load_events(Path(args.file), args.match_id)
        )
        broken = verify_chain(events)
        if broken is not None:
            raise ReplayInputError(
                f"{name}: hash chain broken at seq {events[broken].seq} "
                f"(match {events[broken].match_id})"
            )
        state = replay(events, now=args.at, check_schema=True)
    except (ReplayInputError, EventRefused) as exc:
        print(f"referee-desk replay: {name}: {_one_line(exc)}", file=sys.stderr)
        return 1
    except (ValueError, TypeError, RecursionError) as exc:  # a record no check foresaw
        print(f"referee-desk replay: {name}: not replayable: {_one_line(exc)}", file=sys.stderr)
        return 1
    except StoreError as exc:  # the server refused or cannot be reached
        print(f"referee-desk replay: {_one_line(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"referee-desk replay: {name}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    try:
        text = (
            json.dumps(state.to_json(), ensure_ascii=False, indent=2)
            if args.json
            else "\n".join(describe(state))
        )
        # A lone surrogate the record let through is shown escaped, never a traceback.
        print(text.encode("utf-8", "backslashreplace").decode("utf-8"))
    except (ValueError, RecursionError) as exc:
        print(f"referee-desk replay: {name}: cannot print: {_one_line(exc)}", file=sys.stderr)
        return 1
    return 0


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


# -- reading ------------------------------------------------------------------------------


def load_events(path: Path, match_id: str | None) -> list[Event]:
    """The events of one match from a .jsonl or a tournament file."""
    if not path.exists():
        raise ReplayInputError("no such file")
    if path.is_dir():
        raise ReplayInputError("is a folder, not a file")
    with path.open("rb") as f:
        head = f.read(16)
    by_match = _read_sqlite(path, match_id) if head == SQLITE_MAGIC else _read_jsonl(path)
    return _choose(by_match, match_id)


def _read_jsonl(path: Path) -> dict[str, list[Event]]:
    by_match: dict[str, list[Event]] = {}
    if path.stat().st_size > strict_json.MAX_FILE_BYTES:
        limit = strict_json.MAX_FILE_BYTES // (1024 * 1024)
        raise ReplayInputError(f"larger than {limit} MB: not a match record")
    with path.open("rb") as handle:  # bounded: /dev/zero or a pipe reports no size
        raw = handle.read(strict_json.MAX_FILE_BYTES + 1)
    if len(raw) > strict_json.MAX_FILE_BYTES:
        limit = strict_json.MAX_FILE_BYTES // (1024 * 1024)
        raise ReplayInputError(f"larger than {limit} MB (read stopped there): not a match record")
    for number, chunk in enumerate(raw.split(b"\n"), start=1):
        if number == 1 and chunk.startswith(b"\xef\xbb\xbf"):
            chunk = chunk[3:]
        if not chunk.strip():
            continue
        try:
            data = strict_json.loads(chunk)
        except strict_json.StrictJSONError as exc:
            raise ReplayInputError(f"line {number}: {exc}") from None
        if not isinstance(data, dict):
            raise ReplayInputError(f"line {number}: expected a JSON object (an event)")
        try:
            event = Event.from_dict(data)
        except (KeyError, TypeError) as exc:
            raise ReplayInputError(f"line {number}: missing or bad field {exc}") from None
        if not isinstance(event.match_id, str):
            raise ReplayInputError(f"line {number}: match_id must be text")
        by_match.setdefault(event.match_id, []).append(event)
    if not by_match:
        raise ReplayInputError("no events in the file")
    return by_match


def _read_store(address: str, match_id: str | None) -> list[Event]:
    """The events of one match from a tournament server (through the one opener)."""
    with open_store(address, read_only=True) as store:
        ids = store.records.match_ids()
        if not ids:
            raise ReplayInputError("no match records on the server")
        chosen = match_id if match_id is not None else (ids[0] if len(ids) == 1 else None)
        events = store.records.events(chosen) if chosen in ids else []
        return _choose({chosen: events} if events else {m: [] for m in ids}, match_id)


def _read_sqlite(path: Path, match_id: str | None) -> dict[str, list[Event]]:
    try:
        from referee_desk.store import TournamentFile
    except ImportError:
        raise ReplayInputError(
            "reading tournament files needs referee_desk.store, which is not available"
        ) from None
    try:
        tf = TournamentFile.open(path, create=False, read_only=True)
    except ValueError as exc:
        raise ReplayInputError(_one_line(exc)) from None
    except Exception as exc:  # the store's own errors: report, never a traceback
        raise ReplayInputError(_one_line(exc)) from None
    try:
        ids = [match_id] if match_id is not None else tf.match_ids()
        return {mid: tf.events(mid) for mid in ids if mid in set(tf.match_ids())}
    finally:
        tf.close()


def _choose(by_match: dict[str, list[Event]], match_id: str | None) -> list[Event]:
    if match_id is not None:
        if match_id not in by_match:
            known = ", ".join(sorted(by_match)) or "none"
            raise ReplayInputError(f"no match {match_id!r} in the file (matches: {known})")
        return sorted(by_match[match_id], key=lambda e: e.seq)
    if len(by_match) > 1:
        raise ReplayInputError(
            f"the file holds {len(by_match)} matches ({', '.join(sorted(by_match))}); "
            "choose one with --match"
        )
    (events,) = by_match.values()
    return sorted(events, key=lambda e: e.seq)


# -- text output ----------------------------------------------------------------------------


def describe(state: MatchState) -> Iterable[str]:
    """The state as readable lines (every consequence with its article)."""
    info = state.info
    yield f"Match {state.match_id}"
    if info is not None:
        yield (
            f"  {info.tournament} · round {info.round} · table {info.table} · "
            f"referee {info.referee}"
        )
        for side, pair in info.pairs.items():
            names = " / ".join(f"{s.value} {n}" for s, n in info.seats.items() if s.side == side)
            yield f"  {side.value}: {pair} ({names})"
    params = ", ".join(f"{k}={v}" for k, v in state.ruleset.parameters().items())
    yield f"  ruleset {state.ruleset.name}: {params}"
    clock = state.clock
    status = "running" if clock.running else ("paused" if clock.paused else "not started")
    if clock.paused and clock.paused_reason:
        status += f" ({clock.paused_reason})"
    remaining = clock.remaining_ms
    left = (
        f"{format_duration(remaining)} remaining"
        if remaining >= 0
        else f"time up ({format_duration(-remaining)} over)"
    )
    limit = f"of {clock.limit_ms // 60_000} min, {left}" if clock.has_limit else "(no time limit)"
    yield (
        f"Clock: {format_duration(clock.elapsed_ms)} elapsed {limit}, "
        f"{status}; {len(clock.pauses)} pause(s)"
    )
    levels = ", ".join(f"{side.value} {level.label}" for side, level in state.levels.items())
    yield f"Levels: {levels}"
    nxt = state.next_dealer.value if state.next_dealer else "by bidding race"
    holder = state.deal_holder.value if state.deal_holder else "-"
    shuffle = (
        f"; {state.shuffler.value} shuffles, {state.cutter.value} cuts"
        if state.shuffler and state.cutter
        else ""
    )
    yield f"Deal: held by {holder}; next dealer {nxt}{shuffle}"
    warnings = ", ".join(f"{s.value} {n}" for s, n in state.warnings.items())
    yield f"Warnings (8.8): {warnings}" + (
        f"; referred to the committee: {', '.join(sorted(s.value for s in state.referred))}"
        if state.referred
        else ""
    )
    yield "Hands:"
    if not state.hands:
        yield "  (none)"
    for hand in state.hands:
        who = (
            f"dealer {hand.dealer.value}, declarers {hand.declarers.value} at "
            f"{hand.level.label}, trump {hand.trump_label or '?'}"
            if hand.dealer and hand.declarers and hand.level
            else "bidding race"
        )
        form = f", {hand.form}" if hand.form else ""
        tricks = f", {len(hand.tricks)} tricks" if hand.tricks else ""
        yield f"  Hand {hand.number} [{hand.status}{form}{tricks}]: {who}"
        if hand.bids:
            bids = "; ".join(
                f"{b.seat.value} {b.kind}" + (f" {' '.join(b.cards)}" if b.cards else "")
                for b in hand.bids
            )
            yield f"    bids: {bids}"
        for v in hand.violations:
            yield f"    {v.article}: {v.detail}"
        if hand.void_reason:
            yield f"    voided: {hand.void_reason}"
        if hand.result is not None:
            r = hand.result
            final = "" if r.defenders_final is None else f"defenders {r.defenders_final}; "
            deal = "take the deal" if r.taken else "keep the deal"
            yield f"    result: {final}{r.winner.value} {deal}"
            for c in r.consequences:
                yield f"      {c}"
    if state.violations:
        yield "Violations:"
        for v in state.violations:
            hand = f"hand {v.hand}, " if v.hand else ""
            yield f"  seq {v.seq} ({hand}{v.side.value}) {v.article} {v.kind}: {v.detail}"
    if state.flags:
        yield "Flags (what the record proves):"
        for f in state.flags:
            yield f"  seq {f.seq}: {f}"
    if state.corrections:
        yield "Corrections:"
        for c in state.corrections:
            yield f"  seq {c.seq}: {c.action} event {c.target_seq} ({c.reason})"
    if state.notes:
        yield "Notes:"
        for n in state.notes:
            about = f" (about event {n.about_seq})" if n.about_seq else ""
            yield f"  seq {n.seq}{about}: {n.text}"
    other = [c for c in state.consequences if c.article in ("8.8", "8.9", "8.10", "8.11", "1.5")]
    if other:
        yield "Other consequences:"
        for c in other:
            yield f"  seq {c.seq}: {c}"
    if state.end is None:
        yield "Result: match in progress"
    else:
        recorded = "recorded" if state.end.recorded else "derived, not yet recorded"
        yield (
            f"Result: {state.end.winner.value} win — {state.end.reason} ({recorded}); {state.end}"
        )
