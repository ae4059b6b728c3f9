"""Two branches of a forked match side by side, event by event from the fork on."""

from __future__ import annotations

import unicodedata

from referee_desk.match.envelope import Event

#: Columns of each branch's side.
WIDTH = 52


def describe(event: Event) -> str:
    """One short line: the event's seq, type and its payload's main fields."""
    payload = event.payload
    parts = [f"{k}={payload[k]}" for k in list(payload)[:3] if not isinstance(payload[k], dict)]
    return f"{event.seq} {event.type} " + " ".join(parts)


def _fit(text: str, width: int) -> str:
    out, used = "", 0
    for char in text:
        w = 2 if unicodedata.east_asian_width(char) in "WF" else 1
        if used + w > width - 1:
            return out + "…" + " " * (width - used - 1)
        out, used = out + char, used + w
    return out + " " * (width - used)


def side_by_side(server: list[Event], desk: list[Event], desk_name: str) -> list[str]:
    """Lines: the server's event | the desk's event, the same seq on one line."""
    lines = [f"  {_fit('server', WIDTH)} | {desk_name}"]
    lines.append(f"  {'-' * WIDTH} | {'-' * WIDTH}")
    for index in range(max(len(server), len(desk))):
        left = describe(server[index]) if index < len(server) else ""
        right = describe(desk[index]) if index < len(desk) else ""
        lines.append(f"  {_fit(left, WIDTH)} | {right}")
    return lines
