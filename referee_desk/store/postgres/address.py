"""Telling a server address from a file name, and hiding its password in messages.

No psycopg here, so the CLI can tell the two apart without loading the driver.
"""

from __future__ import annotations

import re


def is_server_url(text: str) -> bool:
    """Whether ``text`` names a PostgreSQL server rather than a file."""
    return str(text).startswith(("postgresql://", "postgres://"))


def redact(url: str) -> str:
    """The address without its password, for messages."""
    return re.sub(r"^([a-z]+://[^:/@]*):[^@/]*@", r"\1:***@", url)
