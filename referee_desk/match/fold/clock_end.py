"""The match clock and the end of the match (RULES.md sections 1 and 10; Guilin 1.5).

The clock is derived from event times, so a replay is deterministic (its values are
owned by ``clock_book.ClockBook``). A time-out ends the match by level, at equal levels by the deal;
``match_ended`` only records an end the fold has already derived.
"""

from __future__ import annotations

from dataclasses import replace

from referee_desk.match import events as ev
from referee_desk.match.clock import Pause, format_duration
from referee_desk.match.envelope import Event
from referee_desk.match.errors import EventRefused
from referee_desk.match.fold.hand import BIDDING, PLAYING, REVOKED, VOIDED
from referee_desk.match.fold.parts import Fold
from referee_desk.match.values import Consequence, HandState, MatchEnd
from referee_desk.phrasebook import render
from referee_desk.rules.levels import compare_levels
from referee_desk.rules.seats import Side

# -- handlers ---------------------------------------------------------------------------


def on_clock_started(f: Fold, event: Event, p: ev.EmptyPayload, at: int) -> None:
    clock = f.clock
    if clock.started_at_ms is not None:
        raise EventRefused(key="clock.already_started")
    clock.started_at_ms = at
    clock.running_since_ms = at


def on_clock_paused(f: Fold, event: Event, p: ev.ClockPausedPayload, at: int) -> None:
    clock = f.clock
    if clock.started_at_ms is None:
        raise EventRefused(key="clock.pause_not_started")
    if clock.running_since_ms is None:
        raise EventRefused(key="clock.already_paused")
    clock.elapsed_before_ms = clock.elapsed(at)
    clock.running_since_ms = None
    clock.paused_reason = p.reason
    clock.pauses.append(Pause(at, None, p.reason, event.seq))


def on_clock_resumed(f: Fold, event: Event, p: ev.EmptyPayload, at: int) -> None:
    clock = f.clock
    if clock.started_at_ms is None or clock.running_since_ms is not None:
        raise EventRefused(key="clock.not_paused")
    clock.running_since_ms = at
    clock.paused_reason = None
    last = clock.pauses[-1]
    clock.pauses[-1] = replace(last, ended_ms=at)
    f.books.consequences.append(
        Consequence.make(
            event.seq,
            "1.5",
            "clock_paused",
            duration=format_duration(at - last.started_ms),
            reason=last.reason,
        )
    )


def on_match_ended(f: Fold, event: Event, p: ev.MatchEndedPayload, at: int) -> None:
    books = f.books
    end = books.end
    if end is None:
        clock = f.clock.reading(at)
        if not clock.started:
            raise EventRefused(key="end.clock_never_started")
        raise EventRefused(
            key="end.not_ended", params={"remaining": format_duration(clock.remaining_at(at))}
        )
    if p.reason != end.reason or Side(p.winner) != end.winner:
        raise EventRefused(
            key="end.mismatch",
            params={
                "reason": end.reason,
                "winner": end.winner.value,
                "claimed": p.reason,
                "claimed_winner": p.winner,
            },
        )
    books.set_end(replace(end, recorded=True))
    books.consequences.append(
        Consequence.make(
            event.seq, end.article, "match_ended", winner=end.winner.value, reason=end.reason
        )
    )


# -- the 1.5 time-out -------------------------------------------------------------------


def time_out_check(f: Fold, at: int, seq: int) -> None:
    """End the match if its time has run out at ``at`` and 1.5 decides the end."""
    if f.books.end is None and f.clock.time_up(at):
        derived = time_out_end(f, at, seq, dry=False)
        if derived is not None and derived[0] is not None:
            f.books.set_end(derived[0])


def time_out_end(
    f: Fold, at: int, seq: int, *, dry: bool
) -> tuple[MatchEnd | None, HandState | None] | None:
    """The time-out end (1.5) if the record has reached it, else None.

    With ``at_time_out=finish_hand`` a hand in progress is played out first; with
    ``stop`` it is voided. A hand ended by a 劳改 is no longer in progress (8.3: the
    hand ends at once): under either mode the non-offending side's choice settles it
    first. At equal levels with no side holding the deal (the bidding race never
    finished), 1.5 cannot decide: the end is ``(None, hand)`` and awaits the
    arbitration committee (8.11, docs/events.md). ``dry`` computes without changing
    the fold.
    """
    books, hands = f.books, f.hands
    hand = hands.current
    current = hand.frozen() if hand is not None else None
    if hand is not None and hand.status == REVOKED:
        return None
    in_progress = hand is not None and hand.status in (BIDDING, PLAYING)
    if in_progress and books.ruleset.at_time_out == "finish_hand":
        return None
    holder = hands.deal_holder
    if in_progress:
        assert hand is not None and current is not None
        reason = render("time_out_voided_hand", (), "en")
        current = replace(current, status=VOIDED, void_reason=reason)
        if hand.declarers is not None:
            holder = hand.declarers
        if not dry:
            hand.void_reason = reason
            hands.close(hand, VOIDED)
            books.consequences.append(
                Consequence.make(seq, "1.5", "time_out_voided_hand", hand.number)
            )
    minutes = f.clock.limit_ms // 60_000
    levels = books.levels
    ns, ew = levels[Side.NS], levels[Side.EW]
    order = compare_levels(ns, ew)
    if order:
        winner = Side.NS if order > 0 else Side.EW
        key = "time_out_by_level"
        args = {
            "minutes": minutes,
            "winner": winner.value,
            "level": levels[winner].label,
            "other_level": levels[winner.other].label,
        }
    elif holder is not None:
        winner = holder
        key = "time_out_by_deal"
        args = {"minutes": minutes, "level": ns.label, "winner": winner.value}
    else:
        if not dry and not books.time_out_undecided:
            books.time_out_undecided = True
            books.consequences.append(
                Consequence.make(seq, "1.5", "time_out_undecided", minutes=minutes, level=ns.label)
            )
        return None, current
    c = Consequence.make(seq, "1.5", key, **args)
    end = MatchEnd("time_out", winner, "1.5", c.text, seq, key=c.key, args=c.args)
    if not dry:
        books.consequences.append(c)
    return end, current
