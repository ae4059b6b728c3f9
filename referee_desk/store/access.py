"""Who may change what: referee PINs as salted scrypt hashes, and roles.

A PIN is never stored: only a random salt and ``hashlib.scrypt`` of the PIN,
with the cost parameters written beside it so they can be raised later.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

#: Roles a person can hold in a tournament file.
ROLES = ("referee", "committee", "organizer")

#: Event types the arbitration committee may add (also after a match is locked).
COMMITTEE_EVENT_TYPES = frozenset({"committee_ruling", "committee_decision", "note"})

#: Event types only the committee may add once a match is locked.
COMMITTEE_ONLY_TYPES = frozenset({"committee_ruling", "committee_decision"})

#: Event types that can follow a lock at all (a note by the match's referee too).
AFTER_LOCK_TYPES = COMMITTEE_EVENT_TYPES

_N, _R, _P = 2**14, 8, 1
KDF = f"scrypt:n={_N},r={_R},p={_P},dklen=32"


#: Failed sign-ins of one name before it is locked out, and the first lockout (seconds);
#: each further failure doubles it, up to ``LOCKOUT_MAX``.
LOCKOUT_AFTER = 5
LOCKOUT_FIRST = 30
LOCKOUT_MAX = 15 * 60


def lockout_seconds(failures: int) -> int:
    """How long a name stays locked after ``failures`` wrong PINs in a row (0: not)."""
    if failures < LOCKOUT_AFTER:
        return 0
    return min(LOCKOUT_MAX, LOCKOUT_FIRST * 2 ** (failures - LOCKOUT_AFTER))


@dataclass(frozen=True, slots=True)
class Session:
    """A person signed in with their PIN (what ``TournamentFile.login`` returns).

    Only sessions the open file issued count: ``token`` is a random value the file
    remembers, so a ``Session`` built by hand (or from another file) is refused.
    """

    name: str
    role: str
    token: str = field(default="", repr=False)


def new_token() -> str:
    return secrets.token_hex(16)


def _scrypt(pin: str, salt: bytes, kdf: str) -> bytes:
    params = dict(item.split("=") for item in kdf.removeprefix("scrypt:").split(","))
    return hashlib.scrypt(
        pin.encode("utf-8"),
        salt=salt,
        n=int(params["n"]),
        r=int(params["r"]),
        p=int(params["p"]),
        dklen=int(params["dklen"]),
        maxmem=256 * 1024 * 1024,
    )


def hash_pin(pin: str) -> tuple[str, str, str]:
    """(salt, hash, kdf) for a new PIN; the salt is 16 random bytes."""
    if not pin or len(pin) < 4:
        raise ValueError("a PIN needs at least 4 characters")
    salt = secrets.token_bytes(16)
    return salt.hex(), _scrypt(pin, salt, KDF).hex(), KDF


def pin_matches(pin: str, salt_hex: str, hash_hex: str, kdf: str) -> bool:
    """Constant-time comparison of ``pin`` with a stored hash."""
    if not kdf.startswith("scrypt:"):
        return False
    computed = _scrypt(pin, bytes.fromhex(salt_hex), kdf)
    return hmac.compare_digest(computed, bytes.fromhex(hash_hex))
