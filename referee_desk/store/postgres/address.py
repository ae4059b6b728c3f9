"""Telling a server address from a file name, and hiding its password in messages.

No psycopg here, so the CLI can tell the two apart without loading the driver.
"""

from __future__ import annotations

import re
from urllib.parse import unquote


def is_server_url(text: str) -> bool:
    """Whether ``text`` names a PostgreSQL server rather than a file."""
    return str(text).startswith(("postgresql://", "postgres://"))


#: ``scheme://user:`` and the password up to the *last* ``@``: a password typed with a
#: raw ``@``, ``/``, ``?`` or ``#`` in it stays hidden whole.
_USERINFO = re.compile(r"^([a-z]+://[^:/@?#]*):(.*)@")
_QUERY_PASSWORD = re.compile(r"([?&]password=)([^&]*)", re.IGNORECASE)


def redact(url: str) -> str:
    """The address without its password, for messages."""
    shown = _USERINFO.sub(lambda m: f"{m.group(1)}:***@", url, count=1)
    return _QUERY_PASSWORD.sub(r"\1***", shown)


def secret_parts(url: str) -> list[str]:
    """The password of ``url`` and every piece of it a parser may quote back, longest first.

    libpq names the token it could not read (``invalid percent-encoded token: "…"``) or
    the host it took from a password's raw ``@`` (``failed to resolve host 'cr'``).
    """
    secrets: list[str] = []
    found = _USERINFO.match(url)
    if found:
        secrets.append(found.group(2))
    secrets += [m.group(2) for m in _QUERY_PASSWORD.finditer(url)]
    parts: set[str] = set()
    for secret in secrets:
        parts.update({secret, unquote(secret)})
        parts.update(re.split(r"[@:/?#&=]", secret))
    return sorted((p for p in parts if len(p) >= 2), key=len, reverse=True)


#: How to write a password's special characters in an address (libpq's URI syntax).
ESCAPES_HINT = "write the characters @ : / ? # % of a password as %40 %3A %2F %3F %23 %25"


def has_raw_at(url: str) -> bool:
    """Whether the password holds a raw ``@`` (libpq then takes part of it for the host)."""
    found = _USERINFO.match(url)
    return bool(found and "@" in found.group(2))


def scrub(text: str, url: str) -> str:
    """``text`` (a driver's message about ``url``) without any piece of the password."""
    for part in secret_parts(url):
        text = text.replace(part, "***")
    return text
