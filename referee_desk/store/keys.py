"""Signing keys (Ed25519) that live in the user's config folder, never in a tournament file.

Two kinds of key, both in ``<config>/keys/``:

- the **desk key** (``desk-ed25519.pem``): made on first use, one per computer account,
  readable only by that account (mode 0600). It signs what a desk does on its own —
  locking a match, the people list after a sign-in registers someone — so a referee
  never types a passphrase;
- the **organizer key** (``organizer-ed25519.pem``): made by the organizer with a
  passphrase (the PEM is encrypted with it). Adopted by a file, it becomes the file's
  key: it endorses the desk keys allowed to sign in that file.

``<config>`` is ``$REFEREE_DESK_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/referee-desk``,
else ``~/.config/referee-desk``. A file only ever holds public keys.
"""

from __future__ import annotations

import contextlib
import getpass
import hashlib
import os
import secrets
import socket
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from referee_desk.store.errors import StoreError

DESK_KEY = "desk-ed25519.pem"
ORGANIZER_KEY = "organizer-ed25519.pem"


def config_dir() -> Path:
    """Where the desk keeps its keys (see the module docstring)."""
    override = os.environ.get("REFEREE_DESK_CONFIG_DIR")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "referee-desk"


def keys_dir() -> Path:
    return config_dir() / "keys"


def public_hex(key: Ed25519PublicKey) -> str:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()


def fingerprint_of(public_key_hex: str) -> str:
    """A key's fingerprint: the first 16 bytes of SHA-256 of its raw public key, in hex."""
    return hashlib.sha256(bytes.fromhex(public_key_hex)).hexdigest()[:32]


def signature_ok(public_key_hex: str, message: bytes, signature_hex: str) -> bool:
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex))
        key.verify(bytes.fromhex(signature_hex), message)
    except (InvalidSignature, ValueError, TypeError):
        return False
    return True


@dataclass(frozen=True, slots=True)
class Signer:
    """A private key at hand: signs messages; ``label`` says whose it is."""

    private_key: Ed25519PrivateKey
    label: str
    role: str  # "desk" or "organizer"

    @property
    def public_key(self) -> str:
        return public_hex(self.private_key.public_key())

    @property
    def fingerprint(self) -> str:
        return fingerprint_of(self.public_key)

    def sign(self, message: bytes) -> str:
        return self.private_key.sign(message).hex()


def _write_private(path: Path, data: bytes, *, exclusive: bool = False) -> bool:
    """Write a private key file durably; with ``exclusive``, only if none exists yet.

    The partial file's name is unique to this call (process, thread, random), so two
    desks making their key at once never share it. Exclusive creation links the
    finished file into place: whoever links first wins and the other one's key is
    never used (it returns False and the caller reads the winner's).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}-{secrets.token_hex(8)}.partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    if not exclusive:
        os.replace(partial, path)
        return True
    try:
        os.link(partial, path)
    except FileExistsError:
        return False
    finally:
        partial.unlink(missing_ok=True)
    return True


def _desk_label() -> str:
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "desk"
    return f"{user}@{socket.gethostname()}"


_desk_cache: dict[Path, Signer] = {}


def desk_signer() -> Signer:
    """This computer account's desk key, made on first use."""
    path = keys_dir() / DESK_KEY
    cached = _desk_cache.get(path)
    if cached is not None and path.exists():
        return cached
    if not path.exists():
        fresh = Ed25519PrivateKey.generate()
        pem = fresh.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        try:
            _write_private(path, pem, exclusive=True)  # another desk may have won: read it
        except OSError as error:
            raise StoreError(
                key="store.desk_key_unwritable",
                params={"path": str(path), "error": str(error.strerror or error)},
            ) from None
    if path.exists():
        try:
            key = serialization.load_pem_private_key(path.read_bytes(), password=None)
        except (ValueError, TypeError, OSError) as error:  # e.g. a folder in its place
            raise StoreError(
                key="store.desk_key_unreadable", params={"path": str(path), "error": str(error)}
            ) from None
        if not isinstance(key, Ed25519PrivateKey):
            raise StoreError(key="store.desk_key_not_ed25519", params={"path": str(path)})
    else:
        raise StoreError(key="store.desk_key_vanished", params={"path": str(path)})
    signer = Signer(key, f"desk {_desk_label()}", "desk")
    _desk_cache[path] = signer
    return signer


def create_organizer_key(passphrase: str, *, replace: bool = False) -> Signer:
    """Make the organizer's key, encrypted with ``passphrase`` (at least 8 characters)."""
    if len(passphrase) < 8:
        raise StoreError(key="store.passphrase_too_short", params={"minimum": 8})
    path = keys_dir() / ORGANIZER_KEY
    if path.exists() and not replace:
        raise StoreError(key="store.organizer_key_exists", params={"path": str(path)})
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(passphrase.encode("utf-8")),
    )
    try:
        _write_private(path, pem)
    except OSError as error:  # the config folder is a file, or under /proc
        raise StoreError(
            key="store.organizer_key_unwritable",
            params={"path": str(path), "error": str(error.strerror or error)},
        ) from None
    return Signer(key, "organizer", "organizer")


def organizer_signer(passphrase: str, path: Path | None = None) -> Signer:
    """The organizer's key, unlocked with its passphrase (``StoreError`` if wrong)."""
    path = path or keys_dir() / ORGANIZER_KEY
    try:
        data = path.read_bytes()
    except OSError:
        raise StoreError(key="store.no_organizer_key", params={"path": str(path)}) from None
    try:
        key = serialization.load_pem_private_key(data, password=passphrase.encode("utf-8"))
    except (ValueError, TypeError):
        raise StoreError(key="store.wrong_passphrase") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise StoreError(key="store.organizer_key_not_ed25519", params={"path": str(path)})
    return Signer(key, "organizer", "organizer")


def _pin_path(tournament_id: str) -> Path:
    digest = hashlib.sha256(tournament_id.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return config_dir() / "known-tournaments" / digest


def pinned(tournament_id: str) -> str | None:
    """The file key this computer saw first for a tournament (trust on first use)."""
    try:
        text = _pin_path(tournament_id).read_text(encoding="ascii").strip()
    except (OSError, UnicodeError):
        return None
    return text if len(text) == 32 else None


def pin(tournament_id: str, fingerprint: str) -> None:
    """Remember a tournament's file key on this computer (best effort, one small file)."""
    path = _pin_path(tournament_id)
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
        partial.write_text(fingerprint, encoding="ascii")
        os.replace(partial, path)
