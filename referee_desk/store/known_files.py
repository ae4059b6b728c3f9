"""What this computer remembers about the tournament files it has seen (trust on first use).

Kept in the config folder (``<config>/known-files/``), which someone holding only the
file, its journal and its backups cannot reach. Three small records, each one file:

- by **place** (the file's resolved path): the file key seen there;
- by **tournament id**: the file key of that tournament (also after the file moved);
- by **place and file key**: the highest guard generation seen there, so a guard copied
  back from an older copy (a rolling backup) is refused. (Per place: a copy elsewhere,
  e.g. a backup opened where it lies, is its own file.)

Every open and every ``verify`` whose guard holds records what it saw ("first sight"),
on every computer, not only on the one that created the file. Writing is best effort
(a config folder that cannot be written only costs this protection).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from referee_desk.store.keys import config_dir


@dataclass(frozen=True, slots=True)
class Known:
    """What this computer saw of a file: its key (None: never seen) and guard generation."""

    key: str | None
    generation: int


def _folder() -> Path:
    return config_dir() / "known-files"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _place(path: Path) -> str:
    try:
        return os.fspath(path.resolve())
    except (OSError, RuntimeError):
        return os.fspath(path.absolute())


def _read(name: str) -> dict[str, object]:
    try:
        data = json.loads((_folder() / name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _update(name: str, change: dict[str, object], *, keep_higher: str | None = None) -> None:
    """Merge ``change`` into record ``name`` under an exclusive lock (racing desks)."""
    with contextlib.suppress(OSError):
        folder = _folder()
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / ".lock", "a+b") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            current = _read(name)
            if keep_higher is not None:
                old = current.get(keep_higher)
                if isinstance(old, int) and old >= int(change[keep_higher]):  # type: ignore[call-overload]
                    change = {k: v for k, v in change.items() if k != keep_higher}
            if all(current.get(k) == v for k, v in change.items()):
                return  # already recorded: opening a known file writes nothing here
            current.update(change)
            partial = folder / f"{name}.{os.getpid()}.partial"
            partial.write_text(json.dumps(current), encoding="utf-8")
            os.replace(partial, folder / name)


def key_at(path: Path) -> str | None:
    """The file key this computer saw at this place, or None."""
    key = _read(f"place-{_digest(_place(path))}").get("key")
    return key if isinstance(key, str) else None


def key_of(tournament_id: str) -> str | None:
    """The file key this computer saw for this tournament, or None."""
    key = _read(f"tournament-{_digest(tournament_id)}").get("key")
    return key if isinstance(key, str) else None


def generation(path: Path, key: str) -> int:
    """The highest guard generation seen at this place under this key (0: none)."""
    value = _read(f"guard-{key}-{_digest(_place(path))}").get("generation")
    return value if isinstance(value, int) else 0


def remember(path: Path, tournament_id: str, key: str, guard_generation: int) -> None:
    """Record a file whose guard holds: its key at this place and tournament, its generation."""
    _update(f"place-{_digest(_place(path))}", {"key": key, "tournament": tournament_id})
    _update(f"tournament-{_digest(tournament_id)}", {"key": key})
    _update(
        f"guard-{key}-{_digest(_place(path))}",
        {"generation": guard_generation},
        keep_higher="generation",
    )


def accept(path: Path, tournament_id: str, key: str, guard_generation: int) -> None:
    """Accept a file on purpose (``keys trust``, restoring a backup): replace what was seen."""
    _update(f"place-{_digest(_place(path))}", {"key": key, "tournament": tournament_id})
    _update(f"tournament-{_digest(tournament_id)}", {"key": key})
    _update(f"guard-{key}-{_digest(_place(path))}", {"generation": guard_generation})
