"""How the file stamps times: ISO 8601 UTC with milliseconds."""

from __future__ import annotations

from datetime import UTC, datetime


def utc_now() -> str:
    """Now as an ISO 8601 UTC string with milliseconds (how the file stamps times)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
