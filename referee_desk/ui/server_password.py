"""The server password kept apart from the preferences, readable only by the user.

QSettings is a plain INI/registry store anyone with the account's files can read and
that people copy between computers; the password of the desk's server address lives
instead in ``<config>/server-passwords.json`` (mode 0600, written whole and replaced
atomically), beside the desk's signing key. ``DeskSettings`` is its only user: it keeps
the address without password and asks here for the password of that address.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

from referee_desk.store import keys

FILE_NAME = "server-passwords.json"

_WITH_PASSWORD = re.compile(r"^(?P<head>[a-z]+://[^:/@]*):(?P<password>[^@/]*)@(?P<tail>.*)$")


@dataclass(frozen=True, slots=True)
class SplitAddress:
    """A server address cut in two: the address without password, and the password."""

    address: str
    password: str | None


def split_password(url: str) -> SplitAddress:
    """``postgresql://u:pw@h/db`` -> (``postgresql://u@h/db``, ``pw``); no password: None."""
    found = _WITH_PASSWORD.match(url)
    if found is None:
        return SplitAddress(url, None)
    return SplitAddress(f"{found['head']}@{found['tail']}", found["password"])


def join_password(address: str, password: str | None) -> str:
    """Put the password back into an address written without one."""
    if not password:
        return address
    found = re.match(r"^(?P<head>[a-z]+://[^:/@]*)@(?P<tail>.*)$", address)
    if found is None:  # no user part to attach a password to
        return address
    return f"{found['head']}:{password}@{found['tail']}"


def passwords_path() -> Path:
    return keys.config_dir() / FILE_NAME


class PasswordFile:
    """Passwords by address (without password), in one file only the user can read."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else passwords_path()

    def get(self, address: str) -> str | None:
        value = self._read().get(address)
        return value if isinstance(value, str) else None

    def put(self, address: str, password: str | None) -> None:
        """Keep (or, with None, forget) the password of ``address``."""
        known = self._read()
        if password is None:
            if address not in known:
                return
            del known[address]
        elif known.get(address) == password:
            return
        else:
            known[address] = password
        self._write(known)

    def _read(self) -> dict[str, object]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, known: dict[str, object]) -> None:
        """Write a new file readable by the user only, then move it into place."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_name(f"{self.path.name}.{os.getpid()}-{secrets.token_hex(6)}")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, json.dumps(known, ensure_ascii=False, indent=1).encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.replace(partial, self.path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                partial.unlink()
        with contextlib.suppress(OSError):  # an older file made before 0600 was used
            os.chmod(self.path, 0o600)
