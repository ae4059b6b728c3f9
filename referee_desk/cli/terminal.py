"""What the command line echoes and asks: text made safe for a terminal, yes/no questions.

One place, so a desk-chosen label or a hostile match id never moves the cursor or
clears the screen, and every question is asked only where a person can answer it.
"""

from __future__ import annotations

import sys

#: Longest text echoed on one line; a longer one (a 900 KB match id) is cut.
MAX_ECHO = 400


def printable(text: str, limit: int = MAX_ECHO) -> str:
    """``text`` safe for a terminal: control characters escaped (``\\x1b``), long lines cut."""
    safe = "".join(
        ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text
    )
    if len(safe) > limit:
        safe = f"{safe[:limit]}… ({len(safe) - limit:,} more characters)"
    return safe


def can_ask() -> bool:
    """Whether a person is at the terminal to answer (stdin and stderr are terminals)."""
    return sys.stdin.isatty() and sys.stderr.isatty()


def ask(question: str, answers: tuple[str, ...]) -> str | None:
    """The answer (one of ``answers``, lower case) typed at the terminal; None at end of input."""
    while True:
        print(question, end=" ", file=sys.stderr, flush=True)
        line = sys.stdin.readline()
        if not line:
            return None
        answer = line.strip().lower()
        if answer in answers:
            return answer


def warn_if_password_in(address: str, command: str) -> None:
    """A long-running command given an address with its password says once that every
    user of the computer can read it (``ps``) for as long as it runs, and what to do."""
    from referee_desk.store.opener import is_server_address
    from referee_desk.store.postgres.address import redact
    from referee_desk.store.postgres.password import has_password

    if not is_server_address(address) or not has_password(address):  # a file has none
        return
    plain = redact(address).replace(":***@", "@", 1)
    print(
        f"{command}: the password in this address can be read by every user of this "
        "computer while the command runs; keep it in the pass file instead: "
        f"referee-desk server remember {plain}, then give the address without it",
        file=sys.stderr,
        flush=True,
    )
