"""Opening the match (its details and ruleset, 1.1) and the referee's notes."""

from __future__ import annotations

from referee_desk.match import events as ev
from referee_desk.match.clock import limit_of
from referee_desk.match.envelope import Event
from referee_desk.match.errors import EventRefused
from referee_desk.match.fold.parts import Fold
from referee_desk.match.values import MatchInfo, Note
from referee_desk.rules.levels import first_level
from referee_desk.rules.ruleset import Ruleset
from referee_desk.rules.seats import Seat, Side


def on_match_opened(f: Fold, event: Event, p: ev.MatchOpenedPayload, at: int) -> None:
    books = f.books
    if books.info is not None:
        raise EventRefused(key="match.already_opened")
    ruleset = Ruleset.from_dict(p.ruleset)
    books.use_ruleset(ruleset)
    missing = sorted(set(ruleset.parameters()) - set(p.ruleset.get("params") or {}))
    if missing:
        raise EventRefused(key="match.ruleset_incomplete", params={"missing": ", ".join(missing)})
    f.clock.limit_ms = limit_of(ruleset.match_minutes)
    books.levels = {side: first_level(ruleset) for side in Side}
    books.info = MatchInfo(
        tournament=p.tournament,
        round=p.round,
        table=p.table,
        pairs={Side(k): v for k, v in p.pairs.items()},
        seats={Seat(k): v for k, v in p.seats.items()},
        referee=p.referee,
    )


def on_note(f: Fold, event: Event, p: ev.NotePayload, at: int) -> None:
    if p.about_seq is not None and p.about_seq >= event.seq:
        raise EventRefused(key="note.about_not_earlier", params={"about": p.about_seq})
    f.books.notes.append(Note(event.seq, p.text, p.about_seq))
