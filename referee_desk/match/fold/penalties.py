"""Violations and penalties of chapter 8 (RULES.md section 9).

8.1 open bid, 8.2 wrong play, 8.3 劳改 (revoke) and the non-offending side's choice
A or B, 8.5 wrong dealer, 8.6 false bid and its trump choice, 8.8 conduct and the
committee, 8.9 thinking time, 8.10 forfeit, 8.11 committee rulings. Each consequence
names its article.
"""

from __future__ import annotations

from referee_desk.match import events as ev
from referee_desk.match.envelope import Event
from referee_desk.match.errors import EventRefused
from referee_desk.match.fold.closing import close_hand
from referee_desk.match.fold.hand import BIDDING, PLAYING, REVOKED
from referee_desk.match.fold.memo import cards_of, signed
from referee_desk.match.fold.parts import Fold, void_hand
from referee_desk.match.values import Consequence, MatchEnd
from referee_desk.rules.levels import ladder_of
from referee_desk.rules.result import Consequence as RulesConsequence
from referee_desk.rules.result import Role, result_from_final_score, result_from_levels_up
from referee_desk.rules.seats import Seat, Side

# -- bidding: 8.1, 8.6 -------------------------------------------------------------


def on_open_bid(f: Fold, event: Event, p: ev.SeatPayload, at: int) -> None:
    if not f.books.ruleset.race_needs_lj:
        raise EventRefused(key="bid.open_in_preset", params={"ruleset": f.books.ruleset.name})
    hand = f.hands.need(BIDDING)
    seat = Seat(p.seat)
    side = seat.side
    if side in hand.lost_bid_right:
        raise EventRefused(key="open_bid.already_lost", params={"side": side.value})
    if side.other in hand.lost_bid_right:
        # 8.1: 由对方来决定是不是反牌（能够明叫）— after the offending side's open bid the
        # opponents may bid openly; that is no violation and costs them nothing.
        raise EventRefused(
            key="open_bid.answer_allowed",
            params={"side": side.value, "other": side.other.value},
        )
    hand.lost_bid_right.add(side)
    c = Consequence.make(
        event.seq, "8.1", "open_bid", hand.number, seat=seat.value, side=side.value
    )
    f.books.violation(event.seq, f.hands.current, "open_bid", "8.1", seat, side, c.text)
    f.books.consequences.append(c)


def on_false_bid(f: Fold, event: Event, p: ev.SeatPayload, at: int) -> None:
    hand = f.hands.need(BIDDING)
    seat = Seat(p.seat)
    if hand.false_bid_side is not None:
        raise EventRefused(key="false_bid.already")
    hand.false_bid_side = seat.side
    c = Consequence.make(
        event.seq,
        "8.6",
        "false_bid",
        hand.number,
        seat=seat.value,
        other=seat.side.other.value,
    )
    f.books.violation(event.seq, f.hands.current, "false_bid", "8.6", seat, seat.side, c.text)
    f.books.consequences.append(c)


def on_false_bid_trump(f: Fold, event: Event, p: ev.FalseBidTrumpPayload, at: int) -> None:
    hand = f.hands.need(BIDDING)
    if hand.false_bid_side is None:
        raise EventRefused(key="false_bid.none")
    if hand.false_bid_trump is not None:
        raise EventRefused(key="false_bid.trump_named")
    if p.seat is None:
        if p.trump != "NT":
            raise EventRefused(key="false_bid.nobody_names_nt")
        c = Consequence.make(event.seq, "8.6", "false_bid_no_trump", hand.number)
    else:
        seat = Seat(p.seat)
        if seat.side == hand.false_bid_side:
            raise EventRefused(
                key="false_bid.trump_by_offender",
                params={"seat": seat.value, "side": seat.side.value},
            )
        c = Consequence.make(
            event.seq, "8.6", "false_bid_trump", hand.number, seat=seat.value, trump=p.trump
        )
    hand.false_bid_trump = p.trump
    f.books.consequences.append(c)


# -- play: 8.2, 8.3, 8.5 -----------------------------------------------------------


def on_wrong_play(f: Fold, event: Event, p: ev.WrongPlayPayload, at: int) -> None:
    hand = f.hands.need(PLAYING)
    seat = Seat(p.seat)
    if p.cards and len(p.cards) != p.cards_exposed:
        raise EventRefused(
            key="wrong_play.count_mismatch",
            params={"exposed": p.cards_exposed, "listed": len(p.cards)},
        )
    if p.cards:
        cards_of(p.cards)
    assert hand.declarers is not None
    amount = f.books.ruleset.misplay_points_per_card * p.cards_exposed
    declarer = seat.side == hand.declarers
    delta = amount if declarer else -amount
    hand.adjustment += delta
    c = Consequence.make(
        event.seq,
        "8.2",
        "wrong_play",
        hand.number,
        seat=seat.value,
        role=str(Role.DECLARERS if declarer else Role.DEFENDERS),
        cards=p.cards_exposed,
        per_card=f.books.ruleset.misplay_points_per_card,
        delta=delta,
    )
    f.books.violation(event.seq, f.hands.current, "wrong_play", "8.2", seat, seat.side, c.text)
    f.books.consequences.append(c)


def on_revoke(f: Fold, event: Event, p: ev.RevokePayload, at: int) -> None:
    if f.books.ruleset.concealment:
        raise EventRefused(key="conceal.replaces_revoke", params={"ruleset": f.books.ruleset.name})
    hand = f.hands.need(PLAYING)
    seat = Seat(p.seat)
    if p.trick is not None and hand.form == "detailed" and p.trick > len(hand.tricks):
        raise EventRefused(key="revoke.trick_not_recorded", params={"trick": p.trick})
    if hand.form == "detailed":
        points = hand.defenders_points
        if p.defenders_points is not None and p.defenders_points != hand.captured:
            raise EventRefused(
                key="revoke.points_differ",
                params={"points": p.defenders_points, "captured": hand.captured},
            )
    else:
        if p.defenders_points is not None:
            f.books.check_captured(p.defenders_points)
        points = hand.adjustment + (p.defenders_points or 0)
        if p.defenders_points is not None:
            hand.captured = p.defenders_points
    hand.status = REVOKED
    hand.revoke_side = seat.side
    known = hand.form == "detailed" or p.defenders_points is not None
    hand.revoke_points = points if known else None
    args = {"seat": seat.value, "kind": p.kind, "hand": hand.number}
    args["other"] = seat.side.other.value
    if p.trick is not None:
        args["trick"] = p.trick
    key = "revoke" if p.trick is None else "revoke_in_trick"
    c = Consequence.make(event.seq, "8.3", key, hand.number, **args)
    f.books.violation(event.seq, f.hands.current, "revoke", "8.3", seat, seat.side, c.text)
    f.books.consequences.append(c)


def on_penalty_choice(f: Fold, event: Event, p: ev.PenaltyChoicePayload, at: int) -> None:
    hand = f.hands.need(REVOKED)
    seat = Seat(p.seat)
    offender = hand.revoke_side
    assert offender is not None and hand.declarers is not None and hand.defenders is not None
    if seat.side == offender:
        raise EventRefused(
            key="revoke.choice_by_offender", params={"seat": seat.value, "side": offender.value}
        )
    chooser = offender.other
    role = Role.DECLARERS if chooser == hand.declarers else Role.DEFENDERS
    dec_level, def_level = f.books.levels[hand.declarers], f.books.levels[hand.defenders]
    if p.choice == "A":
        result = result_from_levels_up(
            role, 2, dec_level, def_level, f.books.ruleset, article="8.3 A"
        )
    else:
        if hand.revoke_points is None:
            raise EventRefused(key="revoke.b_needs_points")
        delta = 160 if offender == hand.declarers else -160
        final = hand.revoke_points + delta
        step = RulesConsequence.make(
            "8.3 B", "revoke_b", delta=delta, before=hand.revoke_points, final=final
        )
        result = result_from_final_score(
            final,
            dec_level,
            def_level,
            f.books.ruleset,
            prior=(step,),
            dug_at_a=hand.declarers in f.books.dug_at_a,
        )
    close_hand(f, event.seq, hand, result)


def on_wrong_dealer(f: Fold, event: Event, p: ev.SeatPayload, at: int) -> None:
    hand = f.hands.need(BIDDING, PLAYING, REVOKED)
    seat = Seat(p.seat)
    if hand.race:
        raise EventRefused(key="wrong_dealer.race")
    if hand.dealer == hand.due_dealer:
        assert hand.dealer is not None
        raise EventRefused(
            key="wrong_dealer.not_wrong",
            params={"seat": hand.dealer.value, "hand": hand.number},
        )
    if seat != hand.dealer:
        assert hand.dealer is not None
        raise EventRefused(
            key="wrong_dealer.other_seat",
            params={"dealer": hand.dealer.value, "hand": hand.number, "seat": seat.value},
        )
    c = Consequence.make(
        event.seq, "8.5", "wrong_dealer", hand.number, seat=seat.value, hand=hand.number
    )
    f.books.violation(event.seq, f.hands.current, "wrong_dealer", "8.5", seat, seat.side, c.text)
    void_hand(f, hand, event.seq, "8.5", "hand_voided_wrong_dealer", seat=seat.value)
    f.books.consequences.append(c)
    f.hands.next_dealer = None


# -- conduct and the committee: 8.8-8.11 -------------------------------------------


def _conduct(f: Fold, event: Event, seat: Seat, text: str, article: str) -> None:
    side = seat.side
    f.books.warnings[side] += 1
    n = f.books.warnings[side]
    number = f.hands.number
    if n == 1:
        c = Consequence.make(event.seq, "8.8", "conduct_warning", number, side=side.value)
    else:
        c = Consequence.make(event.seq, "8.8", "conduct_referred", number, side=side.value, n=n)
        f.books.referred.add(side)
    detail = f"{seat.value}: {text}"
    f.books.violation(event.seq, f.hands.current, "conduct_warning", article, seat, side, detail)
    f.books.consequences.append(c)


def on_conduct_warning(f: Fold, event: Event, p: ev.ConductWarningPayload, at: int) -> None:
    _conduct(f, event, Seat(p.seat), p.text, "8.8")


def on_committee_decision(f: Fold, event: Event, p: ev.CommitteeDecisionPayload, at: int) -> None:
    side = Side(p.side)
    if side not in f.books.referred:
        raise EventRefused(key="committee.not_referred", params={"side": side.value})
    f.books.referred.discard(side)
    if p.decision == "disqualification":
        c = Consequence.make(
            event.seq,
            "8.8",
            "disqualified",
            side=side.value,
            other=side.other.value,
            text=p.text,
        )
        f.books.consequences.append(c)
        f.books.set_end(
            MatchEnd(
                "disqualification", side.other, "8.8", c.text, event.seq, key=c.key, args=c.args
            )
        )
        if f.hands.current is not None:
            void_hand(f, f.hands.current, event.seq, "8.8", "hand_voided_disqualification")
    else:
        f.books.consequences.append(
            Consequence.make(event.seq, "8.8", "committee_decision", side=side.value, text=p.text)
        )


def on_think_overrun(f: Fold, event: Event, p: ev.ThinkOverrunPayload, at: int) -> None:
    seat = Seat(p.seat)
    text = f"{seat.value} thought {p.seconds} s (limit {f.books.ruleset.think_seconds} s per play)"
    if p.seconds <= f.books.ruleset.think_seconds:
        raise EventRefused(
            key="overrun.within_time",
            params={"seconds": p.seconds, "limit": f.books.ruleset.think_seconds},
        )
    f.books.overruns[seat.side] += 1
    f.books.violation(event.seq, f.hands.current, "think_overrun", "8.9", seat, seat.side, text)
    f.books.consequences.append(
        Consequence.make(
            event.seq,
            "8.9",
            "think_overrun",
            f.hands.number,
            seat=seat.value,
            seconds=p.seconds,
            limit=f.books.ruleset.think_seconds,
        )
    )
    if f.books.ruleset.overrun_counts_as_warning:
        _conduct(f, event, seat, "thinking-time overrun (overrun_counts_as_warning)", "8.9")


def on_forfeit(f: Fold, event: Event, p: ev.ForfeitPayload, at: int) -> None:
    side = Side(p.side)
    c = Consequence.make(event.seq, "8.10", "forfeit", side=side.value, other=side.other.value)
    f.books.violation(event.seq, f.hands.current, "forfeit", "8.10", None, side, p.text or c.text)
    f.books.consequences.append(c)
    f.books.set_end(
        MatchEnd("forfeit", side.other, "8.10", c.text, event.seq, key=c.key, args=c.args)
    )
    if f.hands.current is not None:
        void_hand(f, f.hands.current, event.seq, "8.10", "hand_voided_forfeit")


def on_committee_ruling(f: Fold, event: Event, p: ev.CommitteeRulingPayload, at: int) -> None:
    changes = {Side(k): v for k, v in (p.level_changes or {}).items() if v}
    new_levels = dict(f.books.levels)
    ladder = ladder_of(f.books.ruleset)
    for side, n in changes.items():
        index = ladder.index(f.books.levels[side]) + n
        if not 0 <= index < len(ladder):
            raise EventRefused(
                key="committee.off_ladder",
                params={
                    "side": side.value,
                    "level": f.books.levels[side].label,
                    "change": signed(n),
                    "lowest": ladder[0].label,
                },
            )
        new_levels[side] = ladder[index]
    if p.defenders_points is not None:
        hand = f.hands.current
        if hand is None or hand.status not in (PLAYING, REVOKED):
            raise EventRefused(key="committee.points_need_hand")
        hand.adjustment += p.defenders_points
        if hand.revoke_points is not None:
            hand.revoke_points += p.defenders_points
    args: dict[str, str | int | bool] = {"text": p.text}
    for side, n in changes.items():
        args[f"{side.value}_levels"] = n
        args[f"{side.value}_before"] = f.books.levels[side].label
        args[f"{side.value}_after"] = new_levels[side].label
    if p.defenders_points is not None:
        args["has_points"] = True
        args["points"] = p.defenders_points
    f.books.levels = new_levels
    f.books.consequences.append(
        Consequence.make(
            event.seq,
            "8.11",
            "committee_ruling",
            f.hands.number,
            **args,
        )
    )
