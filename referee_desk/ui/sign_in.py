"""Who is at the desk: the referee's and the committee's sign-in against the store.

A file with nobody registered (the sample tournament, a club's first file) lets the
first sign-in set the PIN: the name is registered with the PIN they choose (stored as
a salted scrypt hash by the store). Once an organizer is registered, only the people
the organizer registered can sign in. Every refused sign-in is recorded by the store.
"""

from __future__ import annotations

from referee_desk.store import Session, TournamentFile


def may_self_register(tf: TournamentFile) -> bool:
    """Without an organizer in the file, a new name registers itself with its PIN."""
    return not tf.people.people_with_role("organizer")


def referee_sign_in(tf: TournamentFile, name: str, pin: str) -> Session | None:
    """The referee's session; None when the file has no PINs and none was entered.

    Raises ``AccessRefused`` (recorded) for a wrong PIN, ``ValueError`` for a PIN too short.
    """
    if not pin and not tf.people.access_enabled():
        return None
    if pin and tf.people.person_role(name) is None and may_self_register(tf):
        tf.people.add_person(name, "referee", pin)
    return tf.people.login(name, pin)


def committee_sign_in(tf: TournamentFile, name: str, pin: str) -> Session:
    """A committee member's session (``AccessRefused``, recorded, for anyone else).

    The first committee member of a file without an organizer registers with their PIN.
    """
    first = not tf.people.people_with_role("committee") and tf.people.person_role(name) is None
    if first and may_self_register(tf):
        tf.people.add_person(name, "committee", pin)
    return tf.people.login(name, pin, role="committee")
