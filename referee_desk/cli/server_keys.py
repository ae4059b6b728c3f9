"""``server keys``: the signing keys whose seals the server takes, and the keys desks offer.

Registers keys from tournament files, from ``--key`` and from offers the organizer
names (``--approve FINGERPRINT``) or answers for one by one at a terminal
(``--approve all``); then lists every registered key and the offers still waiting, per
table (a table offering many keys is a sign of forgery: one desk has one key).
"""

from __future__ import annotations

import argparse
import sys

from referee_desk.cli.terminal import ask, can_ask, printable

#: Offers listed per table; the rest are counted (a table may have been made to offer many).
LISTED_PER_TABLE = 10


def keys(args: argparse.Namespace) -> int:
    """Register keys (from files, --key, offers named or answered for), then list them all."""
    from referee_desk.store import TournamentFile
    from referee_desk.store.postgres.seals import (
        approve_offers,
        key_offers,
        register_file_signers,
        register_signer,
        signers,
    )
    from referee_desk.store.postgres.server import TournamentServer

    named = [f for f in args.approve if f.lower() != "all"]
    asking = len(named) < len(args.approve)
    if asking and not can_ask():
        print(
            "server keys: --approve all asks about each offered key at a terminal; here name "
            "each key you compared with its desk's `referee-desk keys show`: "
            "--approve FINGERPRINT (nothing registered)",
            file=sys.stderr,
        )
        return 1
    with TournamentServer.open(args.url) as server:
        for path in args.files:
            with TournamentFile.open(path, create=False, read_only=True) as tf:
                for added in register_file_signers(server, tf):
                    print(f"registered key {added.fingerprint} ({added.label}) from {path}")
        for public_key in args.key:
            if register_signer(server, public_key, args.label, "desk"):
                print(f"registered key {public_key[:16]}… ({args.label})")
        offers = [] if server.is_desk else key_offers(server)
        if asking:
            named += _answered(offers)
        for offer in approve_offers(server, named) if named else []:
            print(f"registered key {offer.fingerprint} offered by {_offered_by(offer)}")
        known = signers(server)
        print(f"{server.shown}: {len(known)} signing keys registered")
        for key in known:
            print(f"  key {key.fingerprint} ({printable(key.label)}, {key.role})")
        if server.is_desk:
            return 0
        _list_offers(key_offers(server))
    return 0


def _offered_by(offer) -> str:
    """``1号桌 (cup_t01), labelled 'desk …', at …``: who offered a key, safe to print."""
    who = f"{printable(offer.table)} ({offer.offered_by})" if offer.table else offer.offered_by
    return f"{who}, labelled {printable(offer.label, 60)!r}, at {offer.offered_at}"


def _per_table(offers) -> dict[str, list]:
    tables: dict[str, list] = {}
    for offer in offers:
        tables.setdefault(offer.offered_by, []).append(offer)
    return tables


def _list_offers(offers) -> None:
    for role, theirs in _per_table(offers).items():
        table = printable(theirs[0].table) or role
        many = (
            f"; {len(theirs)} keys from one table: one desk has one key, so all but the "
            "laptops you saw there are forged"
            if len(theirs) > 1
            else ""
        )
        print(f"  offered by {table} ({role}), not registered: {len(theirs)}{many}")
        for offer in theirs[:LISTED_PER_TABLE]:
            print(f"    key {offer.fingerprint} ({_offered_by(offer)})")
        if len(theirs) > LISTED_PER_TABLE:
            print(f"    … and {len(theirs) - LISTED_PER_TABLE} more from {table}")
    if offers:
        print(
            "  compare a fingerprint with the desk's `referee-desk keys show`, then "
            "--approve FINGERPRINT (or --approve all to be asked about each)"
        )


def _answered(offers) -> list[str]:
    """The fingerprints the organizer says yes to, asked key by key with its table."""
    chosen: list[str] = []
    for role, theirs in _per_table(offers).items():
        table = printable(theirs[0].table) or role
        print(f"{table} ({role}) offered {len(theirs)} key(s):", file=sys.stderr)
        for offer in theirs:
            print(f"  key {offer.fingerprint} ({_offered_by(offer)})", file=sys.stderr)
            answer = ask(
                "  the same fingerprint as `referee-desk keys show` on that desk? "
                "register it? [y/n/q]",
                ("y", "n", "q", "yes", "no", "quit"),
            )
            if answer in (None, "q", "quit"):
                return chosen
            if answer in ("y", "yes"):
                chosen.append(offer.fingerprint)
    return chosen
