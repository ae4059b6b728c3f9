"""Playing a hand out: detailed tricks or a summary, and the hand's result (RULES.md 6-7).

A detailed hand is judged by the rules core trick by trick (winner, points); the
defenders' points and the last trick are derived, not typed. A summary hand gives
the defenders' points before the last trick and the last trick itself. Either way
``rules.result`` turns the score into levels, and ``closing.close_hand`` closes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee_desk.match import events as ev
from referee_desk.match.envelope import Event
from referee_desk.match.errors import EventRefused
from referee_desk.match.fold.audit import FollowAudit
from referee_desk.match.fold.closing import close_hand
from referee_desk.match.fold.hand import PLAYING, HandBook
from referee_desk.match.fold.memo import PLAY_ORDER, SEAT_BY_NAME, canon, cards_of, judge_trick
from referee_desk.match.fold.parts import Fold
from referee_desk.match.fold.presets import (
    check_forced_lead,
    kitty_figures,
    lead_shape,
    summary_kitty,
)
from referee_desk.match.fold.trick_input import PreparedTrick
from referee_desk.match.values import Flag, LastTrick, TrickRecord
from referee_desk.rules.result import Role, hand_result
from referee_desk.rules.seats import Seat, Side
from referee_desk.rules.units import classify


def on_trick(f: Fold, event: Event, prepared: PreparedTrick, at: int) -> None:
    books, clock = f.books, f.clock
    hand = f.hands.current
    if (
        clock.started_at_ms is None
        or clock.running_since_ms is None
        or hand is None
        or hand.status != PLAYING
    ):
        clock.need_running()  # each raises the refusal that applies
        hand = f.hands.need(PLAYING)
    if hand.form == "summary":
        raise EventRefused(key="trick.summary_form")
    leader = SEAT_BY_NAME[prepared.leader]
    if leader != hand.next_leader:
        assert hand.next_leader is not None
        raise EventRefused(key="trick.wrong_leader", params={"leader": hand.next_leader.value})
    seats = prepared.seats
    if seats is None:
        seats = tuple(SEAT_BY_NAME[play["seat"]] for play in prepared.raw_plays)  # raises
    order = PLAY_ORDER[leader]
    if seats != order:
        seen: set[Seat] = set()
        for seat in seats:
            if seat in seen:
                raise EventRefused(key="trick.plays_twice", params={"seat": seat.value})
            seen.add(seat)
        raise EventRefused(
            key="trick.play_order", params={"order": " ".join(s.value for s in order)}
        )
    # Canonical tokens: cheap to hash and count; Cards only inside the rules calls.
    plays = prepared.plays
    if plays is None:
        plays = tuple(tuple(map(canon, play["cards"])) for play in prepared.raw_plays)
    size = len(plays[0])
    if not prepared.even:
        for seat, cards in zip(seats, plays, strict=True):
            if len(cards) != size:
                raise EventRefused(
                    key="trick.card_count",
                    params={"seat": seat.value, "count": len(cards), "size": size},
                )
    if hand.forced_lead:
        check_forced_lead(hand, plays[0])
    ruleset = books.ruleset
    played = hand.played
    decks = ruleset.decks
    # Copies of each card played once this trick is in; stored when every check has passed.
    totals: dict[str, int] = {}
    for cards in plays:
        for token in cards:
            so_far = totals.get(token)
            totals[token] = (played.get(token, 0) if so_far is None else so_far) + 1
    if totals and max(totals.values()) > decks:  # then name the first card over
        for token, total in totals.items():
            if total > decks:
                raise EventRefused(
                    key="cards.too_many_played",
                    params={"copy": decks + 1, "card": token, "decks": decks},
                )
    per_player = ruleset.hand_size
    cards_played = hand.cards_played
    if max(cards_played.values()) + size > per_player:  # then name the first seat over
        for seat in seats:
            if cards_played[seat] + size > per_player:
                raise EventRefused(
                    key="trick.too_many_cards",
                    params={
                        "seat": seat.value,
                        "count": cards_played[seat] + size,
                        "per_player": per_player,
                    },
                )
    ctx = hand.trump_ctx or hand.ctx(ruleset)
    result = judge_trick(plays, hand.ctx_key, prepared.discarded, books.trick_rules)
    winner = seats[result.winner]
    number = len(hand.tricks) + 1
    # What the record proves: a seat void in a suit that later plays it (8.3), and
    # any other follow the cards now seen prove illegal (4.x, 12.4), as it is proven.
    article = "12.8" if ruleset.concealment else "8.3"  # 藏张 or 劳改
    _void_flags(books.flags, article, hand, event.seq, number, seats, plays)
    audit = hand.audit
    if audit is None:
        audit = hand.audit = FollowAudit(ctx, ruleset)
    found = audit.add(number, seats, plays)
    if found:
        _follow_flags(books.flags, hand, event.seq, found)
    played.update(totals)
    for seat in seats:
        cards_played[seat] += size
    hand.tricks.append(
        TrickRecord(
            number,
            event.seq,
            leader,
            prepared.as_recorded,
            winner,
            result.points,
            # throw: only where throws are allowed (12.4); elsewhere a lead is one unit
            # (4.7), or judge_trick has refused it.
            size > 1 and ruleset.throws and classify(cards_of(plays[0]), ctx) is None,
        )
    )
    hand.form = "detailed"
    if hand.forced_lead:  # the forced lead is played (checked above)
        hand.forced_lead, hand.forced_seat = (), None
    hand.next_leader = winner
    last = prepared.last or min(cards_played.values()) >= per_player
    if not last:
        if winner.side == hand.defenders:
            hand.captured += result.points
        return
    for seat, n in cards_played.items():
        if n != per_player:
            books.flags.append(
                Flag(
                    event.seq,
                    hand.number,
                    article,
                    f"{seat.value} played {n} cards in hand {hand.number}, not {per_player}",
                )
            )
    _follow_flags(books.flags, hand, event.seq, audit.finish())
    shape = lead_shape(plays[0], ctx) if ruleset.last_trick == "kitty" else ()
    _finish_by_score(f, event.seq, hand, result.points, size, winner.side, shape)


def _void_flags(
    flags: list[Flag],
    article: str,
    hand: HandBook,
    seq: int,
    number: int,
    seats: Sequence[Seat],
    plays: Sequence[tuple[str, ...]],
) -> None:
    """8.3 / 12.8: a seat that showed void in a suit and plays it later; note new voids."""
    suits = hand.suits
    assert suits is not None  # the hand's trump context is set before its first trick
    void_in = hand.void_in
    if len(plays[0]) == 1:  # single cards (most tricks): one suit per play, no sets
        played = [suits[cards[0]] for cards in plays]
        lead_suit = played[0]
        if void_in:
            for seat, suit in zip(seats, played, strict=True):
                voids = void_in.get(seat)
                if voids and suit in voids:
                    flags.append(Flag(seq, hand.number, article, _void_text(seat, suit, number)))
                    voids.discard(suit)
        for i in range(1, len(played)):
            if played[i] != lead_suit:
                void_in.setdefault(seats[i], set()).add(lead_suit)
        return
    lead_suit = suits[plays[0][0]]
    if void_in:
        for seat, cards in zip(seats, plays, strict=True):
            voids = void_in.get(seat)
            if not voids:
                continue
            shown = {suits[c] for c in cards}
            for suit in sorted(shown & voids):
                flags.append(Flag(seq, hand.number, article, _void_text(seat, suit, number)))
                voids.discard(suit)
    for i in range(1, len(plays)):
        for c in plays[i]:
            if suits[c] != lead_suit:
                void_in.setdefault(seats[i], set()).add(lead_suit)
                break


def _void_text(seat: Seat, suit: str, number: int) -> str:
    return f"{seat.value} plays {suit} in trick {number} after showing void in it"


def _follow_flags(
    flags: list[Flag], hand: HandBook, seq: int, found: list[tuple[str, str]]
) -> None:
    """Flag the follows the trick at ``seq`` proves illegal (a flag, not a ruling)."""
    for rule, text in found:
        flags.append(Flag(seq, hand.number, rule, text))


def on_hand_summary(f: Fold, event: Event, p: ev.HandSummaryPayload, at: int) -> None:
    books = f.books
    f.clock.need_running()
    hand = f.hands.need(PLAYING)
    if hand.form == "detailed":
        raise EventRefused(key="summary.detailed_form")
    books.check_captured(p.defenders_points_before_last)
    total = p.defenders_points_before_last + p.last_trick_points
    if total > books.all_points:
        raise EventRefused(
            key="summary.too_many_points",
            params={
                "before": p.defenders_points_before_last,
                "last": p.last_trick_points,
                "sum": total,
                "total": books.all_points,
                "decks": books.ruleset.decks,
            },
        )
    shape = summary_kitty(books.ruleset, hand, p)
    hand.form = "summary"
    hand.captured = p.defenders_points_before_last
    _finish_by_score(
        f,
        event.seq,
        hand,
        p.last_trick_points,
        p.last_trick_cards_per_player,
        Side(p.last_trick_side),
        shape,
    )


def _finish_by_score(
    f: Fold,
    seq: int,
    hand: HandBook,
    points: int,
    cards_each: int,
    side: Side,
    shape: tuple[tuple[int, int], ...] = (),
) -> None:
    books = f.books
    assert hand.declarers is not None and hand.defenders is not None
    role = Role.DECLARERS if side == hand.declarers else Role.DEFENDERS
    before = hand.defenders_points
    kitty: dict[str, Any] = {}
    if books.ruleset.last_trick == "kitty":
        kitty = kitty_figures(books, hand, role, shape)
    result = hand_result(
        defenders_points=before,
        last_trick_points=points,
        last_trick_cards=cards_each,
        last_trick_winner=role,
        declarer_level=books.levels[hand.declarers],
        defender_level=books.levels[hand.defenders],
        ruleset=books.ruleset,
        **kitty,
    )
    assert result.defenders_final is not None
    hand.last_trick = LastTrick(
        points,
        cards_each,
        side,
        result.defenders_final - before,
        kitty.get("kitty_points"),
        kitty.get("kitty_multiplier"),
        shape,
    )
    if books.ruleset.a_needs_dig and role is Role.DEFENDERS:
        books.note_dig(hand.defenders)
    close_hand(f, seq, hand, result)
