"""What the draw closes: registration (adding, removing, re-seeding a pair), the choice
of settings and ruleset, and a second draw.

One place words the refusal and checks it inside a writing transaction, so each table's
part (``PairRegistry``, ``InfoTable``, ``DrawTable``) refuses on its own whichever path
asks, the handle or the part used directly, and sees a draw another organizer session
made meanwhile (on a server its write's lock waits for the draw's).
"""

from __future__ import annotations

from typing import Any

from referee_desk.tournament.errors import DrawError


def closed(what: str) -> DrawError:
    """The refusal of ``what`` once the draw is made (one wording for every path)."""
    return DrawError(f"the draw is made: cannot {what} any more")


def refuse_if_drawn_in(conn: Any, what: str) -> None:
    """Refuse ``what`` if this transaction sees the draw's row."""
    if conn.execute("SELECT 1 FROM tournament_draw WHERE id = 1").fetchone() is not None:
        raise closed(what)
