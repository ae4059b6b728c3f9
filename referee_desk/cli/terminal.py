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
