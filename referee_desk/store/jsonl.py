"""JSON Lines interchange: one event per line, UTF-8, in ``Event.to_dict()`` form.

Reading is strict and never raises anything but ``ImportRefused`` naming the file,
the line and the reason: hostile or damaged input must not crash the desk. Lines go
through ``strict_json`` (at most 1 MiB and 64 levels deep, no duplicate keys).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee_desk.match.envelope import SCHEMA_VERSION, Event
from referee_desk.store import strict_json
from referee_desk.store.errors import ImportRefused
from referee_desk.store.match_checks import schema_problem

_HEX64 = re.compile(r"[0-9a-f]{64}")

#: field -> (accepted types, required)
_FIELDS: dict[str, tuple[tuple[type, ...], bool]] = {
    "match_id": ((str,), True),
    "seq": ((int,), True),
    "type": ((str,), True),
    "recorded_at": ((str,), True),
    "clock_ms": ((int, type(None)), False),
    "referee": ((str,), True),
    "payload": ((dict,), False),
    "prev_hash": ((str,), True),
    "hash": ((str,), True),
    "schema_version": ((int,), False),
}


@dataclass(frozen=True, slots=True)
class LineEvent:
    """An event read from a JSON Lines file, with where it came from."""

    event: Event
    file: str
    line: int


def event_from_json(text: str) -> Event:
    """Parse and type-check one line; ``ValueError`` with the reason when it is not an event."""
    data = strict_json.loads(text)  # StrictJSONError is a ValueError with the reason
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object (an event), found {type(data).__name__}")
    unknown = sorted(set(data) - set(_FIELDS))
    if unknown:
        raise ValueError(f"unknown field {unknown[0]!r}")
    for name, (types, required) in _FIELDS.items():
        if name not in data:
            if required:
                raise ValueError(f"missing field {name!r}")
            continue
        value = data[name]
        if isinstance(value, bool) or not isinstance(value, types):
            raise ValueError(f"field {name!r} has the wrong type ({type(value).__name__})")
    if not data["match_id"]:
        raise ValueError("empty match_id")
    if data["seq"] < 1:
        raise ValueError(f"seq {data['seq']} is not a positive number")
    version = data.get("schema_version", SCHEMA_VERSION)
    if version > SCHEMA_VERSION:
        raise ValueError(
            f"event schema version {version}: made by a newer Referee Desk "
            f"(this desk reads up to {SCHEMA_VERSION})"
        )
    if version < 1:
        raise ValueError(f"event schema version {version} is not valid")
    for name in ("prev_hash", "hash"):
        if not _HEX64.fullmatch(data[name]):
            raise ValueError(f"field {name!r} is not a SHA-256 hex digest")
    if strict_json.may_hold_surrogates(text):
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except (UnicodeEncodeError, ValueError):
            raise ValueError("text that is not valid Unicode") from None
    return Event.from_dict(data)


def _too_large(name: str, how: str) -> ImportRefused:
    limit = strict_json.MAX_FILE_BYTES // (1024 * 1024)
    return ImportRefused(name, None, f"larger than {limit} MB ({how})")


def _cannot_read(name: str, error: OSError) -> ImportRefused:
    return ImportRefused(name, None, f"cannot read the file ({error.strerror or error})")


def read_bounded(path: str | os.PathLike[str], name: str | None = None) -> bytes:
    """The whole of a file or a pipe, at most ``MAX_FILE_BYTES`` (``ImportRefused``)."""
    name = name or os.fspath(path)
    try:
        size = Path(path).stat().st_size
        if size > strict_json.MAX_FILE_BYTES:
            raise _too_large(name, f"{size:,} bytes")
        with open(path, "rb") as handle:  # bounded: /dev/zero or a pipe has no size
            raw = handle.read(strict_json.MAX_FILE_BYTES + 1)
    except OSError as error:
        raise _cannot_read(name, error) from None
    if len(raw) > strict_json.MAX_FILE_BYTES:
        raise _too_large(name, "read stopped there")
    return raw


def _lines(path: str | os.PathLike[str], name: str, digest: Any) -> Iterator[tuple[int, bytes]]:
    """(line number, bytes) of a regular file, read line by line (never all at once)."""
    budget = strict_json.MAX_FILE_BYTES
    try:
        size = Path(path).stat().st_size
        if size > budget:
            raise _too_large(name, f"{size:,} bytes")
        with open(path, "rb") as handle:
            number = 0
            while True:
                chunk = handle.readline(budget + 1)
                if not chunk:
                    return
                budget -= len(chunk)
                if budget < 0:
                    raise _too_large(name, "read stopped there")
                if digest is not None:
                    digest.update(chunk)
                number += 1
                yield number, chunk[:-1] if chunk.endswith(b"\n") else chunk
    except OSError as error:
        raise _cannot_read(name, error) from None


def iter_jsonl(
    path: str | os.PathLike[str],
    *,
    name: str | None = None,
    check_schema: bool = True,
    digest: Any = None,
) -> Iterator[LineEvent]:
    """The events of a JSON Lines file one by one, read as they come (a regular file is
    never held whole); ``ImportRefused`` for the first bad line. ``name`` is the file as
    the refusal names it; ``digest`` (a ``hashlib`` object) sees every byte read."""
    name = name or os.fspath(path)
    if Path(path).is_file():
        lines: Iterable[tuple[int, bytes]] = _lines(path, name, digest)
    else:  # a pipe or a device: read once, bounded (it cannot be read twice)
        raw = read_bounded(path, name)
        if digest is not None:
            digest.update(raw)
        lines = enumerate(raw.split(b"\n"), start=1)
    for number, chunk in lines:
        if number == 1 and chunk.startswith(b"\xef\xbb\xbf"):
            chunk = chunk[3:]
        if not chunk.strip():
            continue
        try:
            text = chunk.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ImportRefused(name, number, f"not UTF-8 (byte {error.start + 1})") from None
        try:
            event = event_from_json(text)
        except ValueError as error:
            raise ImportRefused(name, number, str(error)) from None
        if check_schema:
            reason = schema_problem(event)
            if reason is not None:
                raise ImportRefused(
                    name,
                    number,
                    f"not a valid {event.type} event: {reason}",
                    match_id=event.match_id,
                    seq=event.seq,
                )
        yield LineEvent(event, name, number)


def read_jsonl(path: str | os.PathLike[str], *, check_schema: bool = True) -> list[LineEvent]:
    """Every event of a JSON Lines file, or ``ImportRefused`` for the first bad line."""
    found = list(iter_jsonl(path, check_schema=check_schema))
    if not found:
        raise ImportRefused(os.fspath(path), None, "no events in the file")
    return found


def dumps_event(event: Event) -> str:
    return json.dumps(event.to_dict(), ensure_ascii=False, separators=(", ", ": "))


def write_jsonl(events: Iterable[Event], path: str | os.PathLike[str]) -> int:
    """Write events one per line (UTF-8), atomically (temp file then rename); count."""
    target = Path(path)
    partial = target.with_name(f".{target.name}.partial")
    count = 0
    with open(partial, "w", encoding="utf-8", newline="\n") as out:
        for event in events:
            out.write(dumps_event(event) + "\n")
            count += 1
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, target)
    return count


def group_by_match(items: Iterable[LineEvent]) -> dict[str, list[LineEvent]]:
    """Events per match, in the order the files hold them (not sorted: order is evidence)."""
    grouped: dict[str, list[LineEvent]] = {}
    for item in items:
        grouped.setdefault(item.event.match_id, []).append(item)
    return grouped
