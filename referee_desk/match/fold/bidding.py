"""Starting a hand and its bidding (RULES.md section 8; Guilin 2.1-2.3).

The opening hand is a bidding race (one LJ plus level cards); later hands are dealt
by rotation and bid with level cards only. A counter needs more level cards than the
standing bid; no card is shown more often than the decks hold it.
"""

from __future__ import annotations

from collections import Counter

from referee_desk.match import events as ev
from referee_desk.match.envelope import Event
from referee_desk.match.errors import EventRefused
from referee_desk.match.fold.hand import BIDDING, PLAYING, HandBook
from referee_desk.match.fold.memo import cards_of
from referee_desk.match.fold.parts import Fold, void_hand
from referee_desk.match.values import Bid, Consequence, Flag
from referee_desk.rules.cards import LITTLE_JOKER, Card, Rank, Suit, format_cards
from referee_desk.rules.ruleset import Ruleset
from referee_desk.rules.seats import Seat, Side
from referee_desk.rules.trump import parse_trump


def on_hand_started(f: Fold, event: Event, p: ev.HandStartedPayload, at: int) -> None:
    clock, hands, books = f.clock, f.hands, f.books
    clock.need_running()
    if hands.current is not None:
        raise EventRefused(
            key="hand.still_in_progress",
            params={"hand": hands.current.number, "status": hands.current.status},
        )
    if clock.time_up(at):
        raise EventRefused(key="hand.time_up", params={"minutes": clock.limit_ms // 60_000})
    due = hands.next_dealer
    race = due is None
    dealer = Seat(p.dealer) if p.dealer is not None else None
    if race and dealer is not None:
        raise EventRefused(key="hand.race_dealer_null")
    if not race and dealer is None:
        assert due is not None
        raise EventRefused(key="hand.name_dealer", params={"dealer": due.value})
    hand = hands.start(event.seq, race, dealer)
    if dealer is not None:
        hand.declarers = dealer.side
        hand.level = books.levels[dealer.side]
        if dealer != due:
            assert due is not None
            books.flags.append(
                Flag(
                    event.seq,
                    hand.number,
                    "8.5",
                    f"{dealer.value} deals hand {hand.number} but {due.value} is due by rotation",
                )
            )


def _bid_level(levels: dict[Side, Rank], hand: HandBook, seat: Seat) -> Rank:
    if hand.level is not None:
        return hand.level
    return levels[seat.side]  # bidding race: each side shows its own level cards


def on_bid(f: Fold, event: Event, p: ev.BidPayload, at: int) -> None:
    f.clock.need_running()
    hand = f.hands.need(BIDDING)
    ruleset = f.books.ruleset
    seat = Seat(p.seat)
    cards = cards_of(p.cards)
    if hand.false_bid_side is not None:
        raise EventRefused(key="bid.after_false_bid")
    if p.kind == "pass":
        if cards:
            raise EventRefused(key="bid.pass_no_cards")
        hand.bids.append(Bid(event.seq, seat, "pass", (), None, 0))
        return
    if seat.side in hand.lost_bid_right:
        raise EventRefused(key="bid.lost_right", params={"side": seat.side.value})
    level = _bid_level(f.books.levels, hand, seat)
    standing = hand.standing
    if p.kind == "reinforce":
        if standing is None:
            raise EventRefused(key="bid.no_standing_to_reinforce")
        if standing.seat != seat:
            raise EventRefused(key="bid.reinforce_not_own", params={"seat": standing.seat.value})
        if not cards or any(c.rank != level or c.suit != standing.suit for c in cards):
            raise EventRefused(
                key="bid.reinforce_cards",
                params={
                    "level": level.label,
                    "suit": standing.suit.value if standing.suit else "?",
                },
            )
        _check_shown(ruleset, hand, seat, cards, add=True)
        count = standing.count + len(cards)
        bid = Bid(event.seq, seat, "reinforce", p.cards, standing.suit, count)
        hand.bids.append(bid)
        hand.standing = bid
        return
    suit, count = _bid_shape(ruleset, hand, cards, level)
    if p.kind == "dark":
        if standing is not None:
            raise EventRefused(key="bid.standing_exists", params={"seat": standing.seat.value})
    else:  # counter
        if standing is None:
            raise EventRefused(key="bid.no_standing_to_counter")
        if standing.seat == seat:
            raise EventRefused(key="bid.counter_own", params={"seat": seat.value})
        if count <= standing.count:
            raise EventRefused(
                key="bid.counter_not_higher",
                params={"count": count, "standing": standing.count},
            )
    _check_shown(ruleset, hand, seat, cards, add=False)
    bid = Bid(event.seq, seat, p.kind, p.cards, suit, count)
    hand.bids.append(bid)
    hand.standing = bid


def _bid_shape(
    ruleset: Ruleset, hand: HandBook, cards: tuple[Card, ...], level: Rank
) -> tuple[Suit, int]:
    jokers = [c for c in cards if c.is_joker]
    levels = [c for c in cards if not c.is_joker]
    shown = format_cards(cards) or "no cards"
    if hand.race and ruleset.race_needs_lj:
        if jokers != [LITTLE_JOKER]:
            raise EventRefused(key="bid.race_shape", params={"cards": shown, "level": level.label})
    elif jokers:
        if hand.race:
            raise EventRefused(
                key="bid.no_joker_in_preset",
                params={"ruleset": ruleset.name, "cards": shown},
            )
        raise EventRefused(key="bid.level_cards_only", params={"cards": shown})
    if not levels or any(c.rank != level for c in levels):
        raise EventRefused(
            key="bid.needs_level_cards", params={"cards": shown, "level": level.label}
        )
    suits = {c.suit for c in levels}
    if len(suits) != 1:
        raise EventRefused(key="bid.one_suit", params={"cards": shown})
    suit = suits.pop()
    assert suit is not None
    return suit, len(levels)


def _check_shown(
    ruleset: Ruleset, hand: HandBook, seat: Seat, cards: tuple[Card, ...], *, add: bool
) -> None:
    mine = Counter(cards)
    had = hand.shown.get(seat, Counter())
    merged = had + mine if add else had | mine
    for card, count in merged.items():
        total = count + sum(c[card] for s, c in hand.shown.items() if s != seat)
        if total > ruleset.decks:
            raise EventRefused(
                key="cards.too_many_shown",
                params={"card": str(card), "total": total, "decks": ruleset.decks},
            )
    hand.shown[seat] = merged


def on_bidding_closed(f: Fold, event: Event, p: ev.BiddingClosedPayload, at: int) -> None:
    f.clock.need_running()
    hand = f.hands.need(BIDDING)
    dealer = Seat(p.dealer)
    trump = p.trump
    standing = hand.standing
    if hand.false_bid_side is not None:
        if hand.false_bid_trump is None:
            raise EventRefused(key="bidding.false_bid_trump_first")
        expected_trump = hand.false_bid_trump
        if hand.race and dealer.side == hand.false_bid_side:
            raise EventRefused(
                key="bidding.false_bid_race_dealer",
                params={"side": hand.false_bid_side.other.value},
            )
        note = "8.6"
    elif standing is not None:
        assert standing.suit is not None
        expected_trump = standing.suit.value
        if hand.race and dealer != standing.seat:
            raise EventRefused(
                key="bidding.race_dealer_is_standing", params={"seat": standing.seat.value}
            )
        note = "2.1"
    else:
        if hand.race:
            raise EventRefused(key="bidding.race_nobody_bid")
        expected_trump = "NT"
        note = "no_bid"
    if trump != expected_trump:
        raise EventRefused(
            key="bidding.trump_mismatch", params={"expected": expected_trump, "trump": trump}
        )
    if not hand.race and dealer != hand.dealer:
        assert hand.dealer is not None
        raise EventRefused(
            key="bidding.dealer_mismatch",
            params={"dealer": hand.dealer.value, "seat": dealer.value},
        )
    hand.dealer = dealer
    hand.declarers = dealer.side
    hand.level = f.books.levels[dealer.side]
    hand.trump = parse_trump(trump)
    hand.trump_decided = True
    hand.status = PLAYING
    hand.next_leader = dealer
    if hand.race:
        f.hands.deal_holder = dealer.side
    f.books.consequences.append(
        Consequence.make(
            event.seq,
            note,
            "bidding_closed",
            hand.number,
            hand=hand.number,
            dealer=dealer.value,
            side=dealer.side.value,
            level=hand.level.label,
            trump=trump,
        )
    )


def on_redeal(f: Fold, event: Event, p: ev.ReasonPayload, at: int) -> None:
    hand = f.hands.need(BIDDING)
    void_hand(f, hand, event.seq, "2.1", "hand_voided_redeal", reason=p.reason)
