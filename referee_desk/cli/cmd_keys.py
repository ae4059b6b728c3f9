"""``referee-desk keys``: the signing keys that seal locked matches.

``show [FILE]``           this desk's key (and, with FILE, the file's keys and trust)
``organizer-create``      make the organizer's key, protected by a passphrase
``adopt FILE``            make the organizer's key the file's key (endorses the desks so far)
``register FILE``         put this desk's public key into FILE (for the organizer to endorse)
``endorse FILE KEY``      the organizer vouches for another desk's key in FILE
``trust FILE``            accept FILE's current key on this computer (after checking it
                          against the fingerprint on the match report)

The passphrase is asked for on the terminal, or read from ``REFEREE_DESK_PASSPHRASE``
(scripts). Exit 0 done, 1 refused (one line on stderr).
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="keys_action", metavar="ACTION", required=True)
    show = sub.add_parser("show", help="this desk's key, and a file's keys")
    show.add_argument("file", nargs="?")
    sub.add_parser("organizer-create", help="make the organizer's key (with a passphrase)")
    for name, text in (
        ("adopt", "make the organizer's key the file's key"),
        ("register", "put this desk's public key into the file"),
    ):
        sub.add_parser(name, help=text).add_argument("file")
    sub.add_parser("trust", help="accept the file's current key on this computer").add_argument(
        "file"
    )
    endorse = sub.add_parser("endorse", help="the organizer vouches for a desk's key")
    endorse.add_argument("file")
    endorse.add_argument("key", metavar="FINGERPRINT")


def _passphrase(confirm: bool = False) -> str:
    given = os.environ.get("REFEREE_DESK_PASSPHRASE")
    if given is not None:
        return given
    if not sys.stdin.isatty():
        raise ValueError("no terminal to ask for the passphrase: set REFEREE_DESK_PASSPHRASE")
    first = getpass.getpass("organizer key passphrase: ")
    if confirm and getpass.getpass("again: ") != first:
        raise ValueError("the two passphrases differ")
    return first


def run(args: argparse.Namespace) -> int:
    from referee_desk.store import StoreError, StoreWriteError, TournamentFile, keys

    try:
        action = args.keys_action
        if action == "show":
            desk = keys.desk_signer()
            print(f"this desk: key {desk.fingerprint} ({desk.label}) in {keys.keys_dir()}")
            if args.file:
                with TournamentFile.open(args.file, create=False, read_only=True) as tf:
                    print(f"{args.file}: file key {tf.key_fingerprint or 'none yet'}")
                    for info in tf.seals.signers():
                        trust = "trusted" if info.trusted else f"NOT trusted: {info.why_not}"
                        print(f"  key {info.fingerprint} ({info.label}, {info.role}): {trust}")
            return 0
        if action == "trust":
            with TournamentFile.open(args.file, create=False, read_only=True, check=False) as tf:
                problem = tf.checks.chains() or tf.checks.witness_problem()
                if problem is not None:
                    raise ValueError(f"{args.file}: damaged: {problem}")
                key = tf.seals.accept_key()
                print(f"{args.file}: this computer now knows it by key {key}")
            return 0
        if action == "organizer-create":
            signer = keys.create_organizer_key(_passphrase(confirm=True))
            print(f"organizer key {signer.fingerprint} in {keys.keys_dir()}; back it up")
            return 0
        with TournamentFile.open(args.file, create=False) as tf:
            if action == "register":
                print(f"registered this desk's key {tf.seals.register_desk_key()} in {args.file}")
            elif action == "adopt":
                tf.seals.adopt_organizer_key(keys.organizer_signer(_passphrase()))
                print(f"{args.file}: file key is now the organizer's {tf.key_fingerprint}")
            else:
                tf.seals.endorse_desk_key(keys.organizer_signer(_passphrase()), args.key)
                print(f"{args.file}: key {args.key} endorsed by the organizer")
        return 0
    except (StoreError, StoreWriteError, ValueError) as error:
        print(f"keys {args.keys_action} refused: {error}", file=sys.stderr)
        return 1
