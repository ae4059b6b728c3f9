"""Events of the presets (RULES.md section 12): the kitty, failed throws and 藏张.

- ``kitty_buried`` (12.1): the dealer's buried cards, or only their points; the
  defenders dig them when they win the last trick (12.5).
- ``throw_failed`` (12.4): another player shows cards that beat a component of a
  throw; the thrower leads only the smallest beaten component (checked on the next
  trick) and ``throw_fail_points`` move (002: −20 for a defender's failed throw).
- ``concealment`` (12.8, 002 八.1 藏张): the non-offending side's choice A ends the
  hand, B moves ``conceal_points`` and play continues.

Also the helpers the play handlers use: the forced lead, the last lead's shape and the
kitty figures of the result.
"""

from __future__ import annotations

from typing import Any

from referee_desk.match import events as ev
from referee_desk.match.envelope import Event
from referee_desk.match.errors import EventRefused
from referee_desk.match.fold.books import MatchBooks
from referee_desk.match.fold.closing import close_hand
from referee_desk.match.fold.hand import PLAYING, HandBook
from referee_desk.match.fold.memo import canon, cards_of
from referee_desk.match.fold.parts import Fold
from referee_desk.match.values import Concealment, Consequence, Kitty, ThrowFailure
from referee_desk.rules.cards import points_of
from referee_desk.rules.errors import IllegalInputError, RulesError
from referee_desk.rules.result import Role, kitty_multiplier_of, result_from_levels_up
from referee_desk.rules.ruleset import Ruleset
from referee_desk.rules.seats import Seat
from referee_desk.rules.throws import check_throw, kitty_components, shape_of
from referee_desk.rules.trump import TrumpContext


def _tokens(cards: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(map(canon, cards)))


# -- 12.1 the kitty --------------------------------------------------------------


def on_kitty_buried(f: Fold, event: Event, p: ev.KittyBuriedPayload, at: int) -> None:
    f.clock.need_running()
    rules = f.books.ruleset
    if not rules.kitty:
        raise EventRefused(key="kitty.none", params={"ruleset": rules.name})
    hand = f.hands.need(PLAYING)
    seat = Seat(p.seat)
    if seat != hand.dealer:
        assert hand.dealer is not None
        raise EventRefused(
            key="kitty.not_dealer", params={"dealer": hand.dealer.value, "seat": seat.value}
        )
    if hand.kitty is not None:
        raise EventRefused(key="kitty.twice", params={"hand": hand.number, "seq": hand.kitty.seq})
    tokens = tuple(map(canon, p.cards))
    if tokens:
        if len(tokens) != rules.kitty:
            raise EventRefused(
                key="kitty.card_count", params={"expected": rules.kitty, "given": len(tokens)}
            )
        for token in set(tokens):
            total = hand.played.get(token, 0) + tokens.count(token)
            if total > rules.decks:
                raise EventRefused(
                    key="kitty.too_many_copies", params={"card": token, "copies": rules.decks}
                )
        points = points_of(cards_of(tokens))
        if p.points is not None and p.points != points:
            raise EventRefused(
                key="kitty.points_mismatch", params={"points": points, "given": p.points}
            )
        for token in tokens:
            hand.played[token] = hand.played.get(token, 0) + 1
    else:
        if p.points is None:
            raise EventRefused(key="kitty.points_missing")
        points = p.points
        _check_kitty_points(rules, points)
    hand.kitty = Kitty(event.seq, seat, tokens, points)
    f.books.consequences.append(
        Consequence.make(
            event.seq,
            "12.1",
            "kitty_buried",
            hand.number,
            seat=seat.value,
            cards=len(tokens) or rules.kitty,
            points=points,
            known=bool(tokens),
        )
    )


def _check_kitty_points(rules: Ruleset, points: int) -> None:
    most = min(10 * rules.kitty, 100 * rules.decks)
    if points < 0 or points % 5 or points > most:
        raise EventRefused(key="kitty.bad_points", params={"points": points, "most": most})


def lead_shape(lead: tuple[str, ...], ctx: TrumpContext) -> tuple[tuple[int, int], ...]:
    """12.5: the last lead's units (its components for a throw) as shapes."""
    return tuple(shape_of(u) for u in kitty_components(cards_of(lead), ctx))


def summary_kitty(
    rules: Ruleset, hand: HandBook, p: ev.HandSummaryPayload
) -> tuple[tuple[int, int], ...]:
    """The summary form's kitty points and last-lead shape (12.5), checked."""
    if rules.last_trick != "kitty":
        if p.kitty_points is not None or p.last_lead_shape:
            raise EventRefused(key="summary.no_kitty", params={"ruleset": rules.name})
        return ()
    shape = tuple((int(e), int(k)) for e, k in p.last_lead_shape)
    if shape:
        try:
            kitty_multiplier_of(shape, rules)
        except RulesError as exc:
            raise EventRefused(key="summary.bad_shape", params={"error": str(exc)}) from None
    if p.kitty_points is not None:
        _check_kitty_points(rules, p.kitty_points)
        if hand.kitty is not None and hand.kitty.points != p.kitty_points:
            raise EventRefused(
                key="summary.kitty_differs",
                params={"given": p.kitty_points, "recorded": hand.kitty.points},
            )
        if hand.kitty is None:
            assert hand.dealer is not None
            hand.kitty = Kitty(hand.seq, hand.dealer, (), p.kitty_points)
    hand.forced_lead, hand.forced_seat = (), None
    return shape


def kitty_figures(
    books: MatchBooks, hand: HandBook, role: Role, shape: tuple[tuple[int, int], ...]
) -> dict[str, Any]:
    """kitty_points, kitty_multiplier and dug_at_a for ``rules.result.hand_result``."""
    dug = hand.declarers in books.dug_at_a
    if role is Role.DECLARERS:
        points = hand.kitty.points if hand.kitty is not None else 0
        m = kitty_multiplier_of(shape, books.ruleset) if shape else 2
        return {"kitty_points": points, "kitty_multiplier": m, "dug_at_a": dug}
    if hand.kitty is None:
        raise EventRefused(key="kitty.needed")
    if not shape:
        raise EventRefused(key="kitty.shape_needed")
    m = kitty_multiplier_of(shape, books.ruleset)
    return {"kitty_points": hand.kitty.points, "kitty_multiplier": m, "dug_at_a": dug}


# -- 12.4 failed throws ----------------------------------------------------------


def on_throw_failed(f: Fold, event: Event, p: ev.ThrowFailedPayload, at: int) -> None:
    f.clock.need_running()
    rules = f.books.ruleset
    if not rules.throws:
        raise EventRefused(key="throw.forbidden", params={"ruleset": rules.name})
    hand = f.hands.need(PLAYING)
    seat, shown_by = Seat(p.seat), Seat(p.shown_by)
    if hand.form != "summary" and hand.next_leader is not None and seat != hand.next_leader:
        raise EventRefused(
            key="throw.not_leader",
            params={"leader": hand.next_leader.value, "seat": seat.value},
        )
    if shown_by.side == seat.side:
        raise EventRefused(
            key="throw.shown_by_partner",
            params={"seat": seat.value, "shown_by": shown_by.value},
        )
    thrown, shown = tuple(map(canon, p.thrown)), tuple(map(canon, p.shown))
    for token in set(thrown) | set(shown):
        total = hand.played.get(token, 0) + thrown.count(token) + shown.count(token)
        if total > rules.decks:
            raise EventRefused(
                key="throw.too_many_copies", params={"card": token, "copies": rules.decks}
            )
    ctx = hand.ctx(rules)
    try:
        check = check_throw(cards_of(thrown), cards_of(shown), ctx)
    except IllegalInputError:
        raise EventRefused(key="throw.not_a_throw", params={"cards": " ".join(thrown)}) from None
    if not check.fails:
        raise EventRefused(
            key="throw.stands", params={"throw": " ".join(thrown), "shown": " ".join(shown)}
        )
    choices = tuple(_tokens(tuple(map(str, u.cards))) for u in check.choices)
    if p.forced:
        forced = _tokens(p.forced)
        if forced not in choices:
            raise EventRefused(
                key="throw.bad_forced",
                params={"choices": " / ".join(" ".join(c) for c in choices)},
            )
    elif len(choices) > 1:
        raise EventRefused(
            key="throw.name_forced",
            params={"choices": " / ".join(" ".join(c) for c in choices)},
        )
    else:
        forced = choices[0]
    assert hand.declarers is not None
    declarer = seat.side == hand.declarers
    amount = rules.throw_fail_points
    delta = amount if declarer else -amount
    hand.adjustment += delta
    if hand.form != "summary":
        hand.forced_lead, hand.forced_seat = (forced,), seat
    beaten = tuple(tuple(map(str, u.cards)) for u in check.beaten)
    hand.throw_failures.append(
        ThrowFailure(event.seq, seat, shown_by, thrown, shown, beaten, forced, delta)
    )
    c = Consequence.make(
        event.seq,
        "12.4",
        "throw_failed" if not amount else "throw_failed_points",
        hand.number,
        seat=seat.value,
        shown_by=shown_by.value,
        thrown=" ".join(thrown),
        shown=" ".join(shown),
        forced=" ".join(forced),
        role=str(Role.DECLARERS if declarer else Role.DEFENDERS),
        delta=delta,
    )
    if amount:
        f.books.violation(event.seq, hand, "throw_failed", "12.4", seat, seat.side, c.text)
    f.books.consequences.append(c)


def check_forced_lead(hand: HandBook, lead: tuple[str, ...]) -> None:
    """After a failed throw the thrower leads only the forced component (12.4)."""
    if tuple(sorted(lead)) in hand.forced_lead:
        return
    assert hand.forced_seat is not None
    forced = " or ".join(" ".join(c) for c in hand.forced_lead)
    raise EventRefused(
        key="throw.forced_lead", params={"seat": hand.forced_seat.value, "forced": forced}
    )


# -- 12.8 藏张 ------------------------------------------------------------------------


def on_concealment(f: Fold, event: Event, p: ev.ConcealmentPayload, at: int) -> None:
    rules = f.books.ruleset
    if not rules.concealment:
        raise EventRefused(key="conceal.not_in_ruleset", params={"ruleset": rules.name})
    hand = f.hands.need(PLAYING)
    seat, chooser = Seat(p.seat), Seat(p.chooser)
    if chooser.side == seat.side:
        raise EventRefused(
            key="conceal.chooser_side",
            params={"chooser": chooser.value, "side": seat.side.value},
        )
    assert hand.declarers is not None and hand.defenders is not None
    declarer = seat.side == hand.declarers
    delta = 0
    if p.choice == "B":
        delta = rules.conceal_points if declarer else -rules.conceal_points
        hand.adjustment += delta
    hand.concealments.append(Concealment(event.seq, seat, chooser, p.choice, delta))
    c = Consequence.make(
        event.seq,
        "12.8",
        "concealment_b" if p.choice == "B" else "concealment_a",
        hand.number,
        seat=seat.value,
        chooser=chooser.value,
        role=str(Role.DECLARERS if declarer else Role.DEFENDERS),
        delta=delta,
    )
    f.books.violation(event.seq, hand, "concealment", "12.8", seat, seat.side, c.text)
    f.books.consequences.append(c)
    if p.choice == "A":
        role, gain = (Role.DEFENDERS, 0) if declarer else (Role.DECLARERS, 1)
        result = result_from_levels_up(
            role,
            gain,
            f.books.levels[hand.declarers],
            f.books.levels[hand.defenders],
            rules,
            article="12.8 A",
        )
        close_hand(f, event.seq, hand, result)
