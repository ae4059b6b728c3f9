"""Seals on the server: the organizer registers signing keys, desks push their locks.

The server checks every seal on insert (``ddl.v2_seals``: the key registered, the
head the server's event, the Ed25519 signature over ``signatures.seal_message``); this
module only moves rows and, for ``verify``, checks them again here with the store's own
``keys.signature_ok`` so the two checks can be compared.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import psycopg

from referee_desk.store import TournamentFile
from referee_desk.store.keys import fingerprint_of, signature_ok
from referee_desk.store.postgres.errors import ServerRefused
from referee_desk.store.postgres.marks import Conflict
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.seals import Seal
from referee_desk.store.signatures import SCHEME, seal_message

_INSERT_SEAL = (
    "INSERT INTO referee_desk.seals (match_id, head_seq, head_hash, tournament_id, sealed_at,"
    " sealed_by, key_fingerprint, scheme, signature) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
    " ON CONFLICT (match_id, signature) DO NOTHING"
)


@dataclass(frozen=True, slots=True)
class ServerSigner:
    """A public key the organizer registered on the server."""

    fingerprint: str
    public_key: str
    label: str
    role: str


@dataclass(frozen=True, slots=True)
class ServerSeal:
    """A lock as the server holds it, and whether it verifies here too."""

    match_id: str
    head_seq: int
    head_hash: str
    tournament_id: str
    sealed_at: str
    sealed_by: str
    key_fingerprint: str
    signer_label: str
    valid: bool


def register_signer(server: TournamentServer, public_key: str, label: str, role: str) -> bool:
    """Register a public key (organizer); False when it was already there."""
    public_key = public_key.strip().lower()
    if re.fullmatch(r"[0-9a-f]{64}", public_key) is None:
        raise ServerRefused(
            f"{server.shown}: not a public key: {public_key[:80]!r} (an Ed25519 public key is "
            "64 hex digits)"
        )
    fingerprint = fingerprint_of(public_key)
    try:
        with server.connection.transaction():
            cursor = server.connection.execute(
                "INSERT INTO referee_desk.signers (fingerprint, public_key, label, role) "
                "VALUES (%s, %s, %s, %s) ON CONFLICT (fingerprint) DO NOTHING",
                (fingerprint, public_key, label, role),
            )
            return cursor.rowcount == 1
    except psycopg.errors.InsufficientPrivilege:
        raise ServerRefused(
            f"{server.shown}: only the organizer registers signing keys (not {server.role})"
        ) from None
    except psycopg.errors.CheckViolation as error:
        raise ServerRefused(f"{server.shown}: not a public key: {_line(error)}") from None


def register_file_signers(server: TournamentServer, tf: TournamentFile) -> list[ServerSigner]:
    """Register every key the tournament file trusts; the keys newly registered."""
    added = []
    for info in tf.seals.signers():
        if not info.trusted:
            continue
        public_key = tf.signatures.public_key(info.fingerprint)
        if public_key and register_signer(server, public_key, info.label, info.role):
            added.append(ServerSigner(info.fingerprint, public_key, info.label, info.role))
    return added


def signers(server: TournamentServer) -> list[ServerSigner]:
    rows = server.connection.execute(
        "SELECT fingerprint, public_key, label, role FROM referee_desk.signers "
        "ORDER BY registered_at, fingerprint"
    ).fetchall()
    server.connection.rollback()
    return [ServerSigner(*r) for r in rows]


def seals(server: TournamentServer) -> list[ServerSeal]:
    """Every seal the server holds (a desk: of its own matches), checked again here."""
    keys = {s.fingerprint: s for s in signers(server)}
    rows = server.connection.execute(
        "SELECT match_id, head_seq, head_hash, tournament_id, sealed_at, sealed_by,"
        " key_fingerprint, signature FROM referee_desk.seals ORDER BY id"
    ).fetchall()
    server.connection.rollback()
    found = []
    for match_id, seq, head_hash, tid, at, by, fingerprint, signature in rows:
        key = keys.get(fingerprint)
        message = seal_message(tid, match_id, seq, head_hash, at, by)
        valid = key is not None and signature_ok(key.public_key, message, signature)
        label = key.label if key is not None else "?"
        found.append(ServerSeal(match_id, seq, head_hash, tid, at, by, fingerprint, label, valid))
    return found


@dataclass(frozen=True, slots=True)
class KeyOffer:
    """A desk's public key offered for registration (the organizer approves it)."""

    fingerprint: str
    public_key: str
    label: str
    offered_by: str
    #: the table whose address offered it ("" for a role that is no table's)
    table: str = ""
    offered_at: str = ""


def offer_key(server: TournamentServer, public_key: str, label: str) -> None:
    """A desk offers its key; nothing happens for a key already offered or a non-desk."""
    if not server.is_desk:
        return
    try:
        with server.connection.transaction():
            server.connection.execute(
                "INSERT INTO referee_desk.key_offers (fingerprint, public_key, label) "
                "VALUES (%s, %s, %s)",
                (fingerprint_of(public_key), public_key, label),
            )
    except (
        psycopg.errors.UniqueViolation,  # offered before (desks may not read the offers)
        psycopg.errors.InsufficientPrivilege,
        psycopg.errors.CheckViolation,
        ValueError,
    ):
        return


def key_offers(server: TournamentServer) -> list[KeyOffer]:
    """Keys desks offered that are not registered yet, each with its table (organizer)."""
    rows = server.connection.execute(
        "SELECT o.fingerprint, o.public_key, o.label, o.offered_by, "
        "coalesce(d.table_label, ''), to_char(o.offered_at, 'YYYY-MM-DD HH24:MI:SS') "
        "FROM referee_desk.key_offers o LEFT JOIN referee_desk.desks d ON d.role = o.offered_by "
        "WHERE NOT EXISTS (SELECT 1 FROM referee_desk.signers s "
        "WHERE s.fingerprint = o.fingerprint) ORDER BY o.offered_at, o.fingerprint"
    ).fetchall()
    server.connection.rollback()
    return [KeyOffer(*r) for r in rows]


def approve_offers(server: TournamentServer, fingerprints: list[str]) -> list[KeyOffer]:
    """Register the offered keys named by their fingerprints; the ones registered.

    Only named keys: a desk with a table's password can offer any number of keys, so
    nothing registers "all" of them. The organizer compares each fingerprint with the one
    the desk shows (``referee-desk keys show``), or is asked key by key (``server keys``).
    """
    offers = key_offers(server)
    wanted = {f.strip().lower() for f in fingerprints}
    missing = sorted(wanted - {o.fingerprint for o in offers})
    if missing:
        raise ServerRefused(f"{server.shown}: no key offered with fingerprint {missing[0][:32]}")
    chosen = [o for o in offers if o.fingerprint in wanted]
    for offer in chosen:
        register_signer(server, offer.public_key, f"{offer.label} ({offer.offered_by})", "desk")
    return chosen


def push_seal(
    server: TournamentServer,
    tournament_id: str,
    seal: Seal,
    public_key: str | None = None,
    label: str = "",
) -> bool | Conflict:
    """Send one lock; True when sent, False when the server had it, or why it refused.

    Refused for want of a registered key, the desk offers ``public_key`` to the organizer.
    """
    row = (
        seal.match_id,
        seal.head_seq,
        seal.head_hash,
        tournament_id,
        seal.sealed_at,
        seal.sealed_by,
        seal.key_fingerprint or "",
        seal.scheme or SCHEME,
        seal.signature,
    )
    try:
        with server.connection.transaction():
            cursor = server.connection.execute(_INSERT_SEAL, row)
            return cursor.rowcount == 1
    except (
        psycopg.errors.RaiseException,
        psycopg.errors.InsufficientPrivilege,
        psycopg.errors.CheckViolation,
    ) as error:
        reason = _server_reason(error)
        if public_key and "is not registered on the server" in reason:
            offer_key(server, public_key, label)
        return Conflict(seal.match_id, seal.head_seq, "seal", reason)


def _server_reason(error: psycopg.Error) -> str:
    diag = getattr(error, "diag", None)
    primary = getattr(diag, "message_primary", None) if diag is not None else None
    return primary or _line(error)


def _line(error: BaseException) -> str:
    return " ".join(str(error).split())
