"""When and how a document is printed: the printed-at time, the venue's zone, the paper.

Every document prints the time it was printed and stores it as the PDF's
CreationDate, so two provisional printouts can be told apart. Tests and archives
that need byte-identical files pass ``reproducible=True`` with a fixed
``printed_at``: the PDF's document id is then fixed as well. Times recorded in UTC
are printed in the tournament's zone (``+08:00`` unless the organizer says other:
an offset such as ``-05:00`` or an IANA name such as ``Asia/Shanghai``, read by
``zoneinfo`` from the system or, where it has none (Windows), the ``tzdata``
package). Printed times always carry their offset, which for a named zone is the
offset at that time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

#: The default zone of a venue (China Standard Time).
DEFAULT_TZ = timezone(timedelta(hours=8))
PAPERS = ("A4", "A3")


class OptionError(ValueError):
    """A print option the organizer gave that cannot be used (bad zone, paper)."""


def parse_tz(text: str | None) -> tzinfo:
    """``+08:00``, ``-05:30``, ``UTC+8``, ``Z`` (a fixed offset) or an IANA name."""
    if text is None or not str(text).strip():
        return DEFAULT_TZ
    raw = str(text).strip()
    value = raw.upper().removeprefix("UTC").removeprefix("GMT")
    if value in ("", "Z"):
        return UTC
    found = re.fullmatch(r"([+-])(\d{1,2})(?::?(\d{2}))?", value)
    if not found:
        return _named_zone(raw)
    sign = 1 if found.group(1) == "+" else -1
    hours, minutes = int(found.group(2)), int(found.group(3) or 0)
    if hours > 14 or minutes >= 60:
        raise OptionError(f"time zone {text!r}: offset out of range")
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def _named_zone(text: str) -> tzinfo:
    if "/" in text and not text.startswith(("/", ".")) and ".." not in text:
        try:
            return ZoneInfo(text)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    raise OptionError(
        f"time zone {text!r}: use an offset such as +08:00 or -05:00, "
        "or a zone name such as Asia/Shanghai"
    )


def zone_text(tz: tzinfo, at: datetime | None = None) -> str:
    """``+08:00`` at ``at`` (default now): never a zone name, the printout says the offset."""
    when = (at or _now()).astimezone(tz)
    offset = when.utcoffset() or timedelta(0)
    total = int(offset.total_seconds() // 60)
    sign = "+" if total >= 0 else "-"
    return f"{sign}{abs(total) // 60:02d}:{abs(total) % 60:02d}"


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class PrintOptions:
    printed_at: datetime = field(default_factory=_now)
    tz: tzinfo = DEFAULT_TZ
    reproducible: bool = False
    paper: str = "A4"

    def __post_init__(self) -> None:
        if self.paper not in PAPERS:
            raise OptionError(f"paper {self.paper!r}: use one of {', '.join(PAPERS)}")
        if self.printed_at.tzinfo is None:
            object.__setattr__(self, "printed_at", self.printed_at.replace(tzinfo=UTC))

    @property
    def printed_local(self) -> datetime:
        return self.printed_at.astimezone(self.tz)

    def printed_text(self) -> str:
        """``打印于 printed 2026-11-28 16:05 +08:00``."""
        local = self.printed_local
        return f"打印于 printed {local:%Y-%m-%d %H:%M} {zone_text(self.tz, local)}"

    def local(self, recorded_at: str, seconds: bool = True) -> str:
        """A recorded UTC time (``2026-11-28T06:05:01.000Z``) as local date, time and zone."""
        try:
            when = datetime.fromisoformat(recorded_at.replace("Z", "+00:00"))
        except ValueError:
            return recorded_at
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        fmt = "%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M"
        return f"{when.astimezone(self.tz).strftime(fmt)} {zone_text(self.tz, when)}"


def fixed(when: str = "2026-11-28T08:00:00+00:00", **kw) -> PrintOptions:
    """Byte-stable options for tests and archives: a fixed time, a fixed document id."""
    return PrintOptions(printed_at=datetime.fromisoformat(when), reproducible=True, **kw)
