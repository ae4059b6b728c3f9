"""Where a server password comes from, so it never has to be typed on a command line.

A command line is readable by every user of the computer (``/proc/PID/cmdline``, ``ps``)
for as long as the command runs (``sync --follow`` runs all day). So an address is
written without its password (``postgresql://cup_t01@192.168.1.10:5432/cup``) and the
password is found, in this order: the address itself (still accepted), ``PGPASSWORD``,
the pass file (``PGPASSFILE``, else ``~/.pgpass``, libpq's own format and lookup), and
last a question at the terminal when the command has one (``set_prompt``). A pass file
others can read is refused with the fix, not silently skipped as libpq does.

No psycopg here: the CLI sets the prompt without loading the driver.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from referee_desk.store.postgres.errors import BadServerAddress, ServerLoginRefused

#: Asks for the password of an address (shown without password); None: no answer.
Prompt = Callable[[str], "str | None"]

_prompt: Prompt | None = None
#: Passwords typed at the prompt in this process, by address: a reconnect asks no again.
_typed: dict[str, str] = {}


def set_prompt(prompt: Prompt | None) -> None:
    """Who asks for a password the address and the pass file do not hold (the CLI's
    terminal); None: nobody, the server's refusal is reported as it is."""
    global _prompt
    _prompt = prompt


def has_password(url: str) -> bool:
    """Whether the address carries its password (``user:password@`` or ``?password=``)."""
    try:
        parts = urlsplit(url)
        return parts.password is not None or "password" in parse_qs(parts.query)
    except ValueError:  # malformed (``[::1`` …): no pass file, no prompt; the driver says why
        return True


def pass_file() -> Path:
    """The pass file libpq reads: ``PGPASSFILE``, else ``~/.pgpass`` (Windows:
    ``%APPDATA%\\postgresql\\pgpass.conf``)."""
    named = os.environ.get("PGPASSFILE")
    if named:
        return Path(named)
    if os.name == "nt":
        return Path(os.environ.get("APPDATA", Path.home())) / "postgresql" / "pgpass.conf"
    return Path.home() / ".pgpass"


def check_pass_file(shown: str) -> None:
    """Refuse a pass file that others can read (libpq would skip it with a warning)."""
    path = pass_file()
    if os.name != "posix":
        return
    try:
        mode = path.stat().st_mode
    except OSError:
        return  # no pass file: the prompt, or the server's "no password supplied"
    if stat.S_ISREG(mode) and mode & 0o077:
        raise ServerLoginRefused(
            f"{shown}: the pass file {path} can be read by other users of this computer "
            f"(mode {stat.S_IMODE(mode):04o}); make it yours only: chmod 600 {path}"
        )


def typed(url: str) -> str | None:
    """A password already typed for ``url`` in this process."""
    return _typed.get(url)


def ask(url: str, shown: str) -> str | None:
    """Ask for the password of ``url`` (once per process); None without a prompt."""
    if _prompt is None:
        return None
    answer = _prompt(shown)
    if answer:
        _typed[url] = answer
    return answer or None


def forget(url: str) -> None:
    """A typed password the server refused: ask again next time."""
    _typed.pop(url, None)


@dataclass(frozen=True, slots=True)
class PassEntry:
    """One line of a pass file: ``host:port:database:user:password``."""

    host: str
    port: str
    database: str
    user: str

    @classmethod
    def of(cls, url: str) -> PassEntry:
        parts = urlsplit(url)
        try:
            port = str(parts.port or 5432)
        except ValueError:
            raise BadServerAddress(f"{url.split('@')[-1]}: not a valid port") from None
        if not parts.username:
            raise BadServerAddress(
                f"{parts.hostname}: the address names no user (postgresql://user@host:port/db)"
            )
        return cls(
            host=parts.hostname or "localhost",
            port=port,
            database=unquote(parts.path.lstrip("/")) or unquote(parts.username),
            user=unquote(parts.username),
        )

    def key(self) -> str:
        return ":".join(_escape(p) for p in (self.host, self.port, self.database, self.user))

    def line(self, password: str) -> str:
        return f"{self.key()}:{_escape(password)}"


def _fields(line: str) -> list[str]:
    """A pass file line's five fields (``\\:`` and ``\\\\`` unescaped)."""
    fields: list[str] = []
    current, escaped = "", False
    for ch in line:
        if escaped:
            current, escaped = current + ch, False
        elif ch == "\\":
            escaped = True
        elif ch == ":" and len(fields) < 4:
            fields.append(current)
            current = ""
        else:
            current += ch
    return [*fields, current]


def known(url: str) -> str | None:
    """The password of ``url``: in the address, else the pass file's first matching line
    (libpq's rules: ``*`` matches anything), else one typed in this process."""
    if has_password(url):
        return unquote(urlsplit(url).password or "")
    try:
        entry = PassEntry.of(url)
    except (ValueError, BadServerAddress):
        return None
    wanted = (entry.host, entry.port, entry.database, entry.user)
    try:
        lines = pass_file().read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = _fields(line)
        if len(fields) == 5 and all(f in ("*", w) for f, w in zip(fields, wanted, strict=False)):
            return fields[4]
    return typed(url)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace(":", "\\:")


def remember(url: str, password: str, path: Path | None = None) -> Path:
    """Keep the password of ``url`` in the pass file (replacing that address's line).

    The file is written whole beside itself, mode 0600, and moved into place.
    """
    if "\n" in password or "\r" in password:
        raise ServerLoginRefused("a password cannot hold a line break")
    path = path or pass_file()
    entry = PassEntry.of(url)
    try:
        kept = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        kept = []
    lines = [line for line in kept if not line.startswith(entry.key() + ":")]
    lines.append(entry.line(password))
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}-{secrets.token_hex(6)}")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, ("\n".join(lines) + "\n").encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.replace(partial, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    return path
