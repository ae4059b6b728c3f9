"""Playing a hand out: detailed tricks or a summary, and the hand's result (RULES.md 6-7).

A detailed hand is judged by the rules core trick by trick (winner, points); the
defenders' points and the last trick are derived, not typed. A summary hand gives
the defenders' points before the last trick and the last trick itself. Either way
``rules.result`` turns the score into levels, the deal and who shuffles and cuts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee_desk.match import events as ev
from referee_desk.match.envelope import Event
from referee_desk.match.errors import EventRefused
from referee_desk.match.fold.audit import FollowAudit
from referee_desk.match.fold.hand import FINISHED, PLAYING, HandBook
from referee_desk.match.fold.memo import PLAY_ORDER, SEAT_BY_NAME, canon, cards_of, judge_trick
from referee_desk.match.fold.presets import PresetPlay
from referee_desk.match.fold.trick_input import PreparedTrick
from referee_desk.match.state import (
    Consequence,
    Flag,
    HandOutcome,
    LastTrick,
    MatchEnd,
    TrickRecord,
)
from referee_desk.rules.result import HandResult, Role, hand_result, next_dealer, shuffle_and_cut
from referee_desk.rules.seats import Seat, Side
from referee_desk.rules.units import classify


class Play(PresetPlay):
    """Handlers: trick, hand_summary; closing a hand with its result."""

    def _on_trick(self, event: Event, prepared: PreparedTrick, at: int) -> None:
        hand = self.hand
        if (
            self.clock_started_at is None
            or self.running_since is None
            or hand is None
            or hand.status != PLAYING
        ):
            self._need_running_clock()  # each raises the refusal that applies
            hand = self._need_hand(PLAYING)
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
            self._check_forced_lead(hand, plays[0])
        played = hand.played
        decks = self.ruleset.decks
        copies: dict[str, int] = {}
        for cards in plays:
            for token in cards:
                copies[token] = copies.get(token, 0) + 1
        for token, count in copies.items():
            if played.get(token, 0) + count > decks:
                raise EventRefused(
                    key="cards.too_many_played",
                    params={"copy": decks + 1, "card": token, "decks": decks},
                )
        per_player = self.ruleset.hand_size
        cards_played = hand.cards_played
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
        ctx = hand.ctx(self.ruleset)
        result = judge_trick(plays, hand.ctx_key, prepared.discarded, self._trick_rules)
        winner = seats[result.winner]
        number = len(hand.tricks) + 1
        # What the record proves: a seat void in a suit that later plays it (8.3), and
        # any other follow the cards now seen prove illegal (4.x, 12.4), as it is proven.
        self._void_flags(hand, event.seq, number, seats, plays)
        audit = hand.audit
        if audit is None:
            audit = hand.audit = FollowAudit(ctx, self.ruleset)
        self._follow_flags(hand, event.seq, audit.add(number, seats, plays))
        for token, count in copies.items():
            played[token] = played.get(token, 0) + count
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
                # Only where throws are allowed (12.4): elsewhere a lead is one unit (4.7),
                # or judge_trick has refused it.
                throw=size > 1
                and self.ruleset.throws
                and classify(cards_of(plays[0]), ctx) is None,
            )
        )
        hand.form = "detailed"
        hand.forced_lead, hand.forced_seat = (), None
        hand.next_leader = winner
        last = prepared.last or min(hand.cards_played.values()) >= per_player
        if not last:
            if winner.side == hand.defenders:
                hand.captured += result.points
            return
        for seat, n in hand.cards_played.items():
            if n != per_player:
                self.flags.append(
                    Flag(
                        event.seq,
                        hand.number,
                        "12.8" if self.ruleset.concealment else "8.3",
                        f"{seat.value} played {n} cards in hand {hand.number}, not {per_player}",
                    )
                )
        self._follow_flags(hand, event.seq, audit.finish())
        shape = self._lead_shape(plays[0], ctx) if self.ruleset.last_trick == "kitty" else ()
        self._finish_by_score(event.seq, hand, result.points, size, winner.side, shape)

    def _void_flags(
        self,
        hand: HandBook,
        seq: int,
        number: int,
        seats: Sequence[Seat],
        plays: Sequence[tuple[str, ...]],
    ) -> None:
        memo = hand._suits
        eff = hand.suit_of
        lead_suit = memo.get(plays[0][0]) or eff(plays[0][0])
        void_in = hand.void_in
        if void_in:
            for seat, cards in zip(seats, plays, strict=True):
                voids = void_in.get(seat)
                if not voids:
                    continue
                played = {memo.get(c) or eff(c) for c in cards}
                for suit in sorted(played & voids):
                    self.flags.append(
                        Flag(
                            seq,
                            hand.number,
                            "12.8" if self.ruleset.concealment else "8.3",  # 藏张 or 劳改
                            f"{seat.value} plays {suit} in trick {number} after showing void in it",
                        )
                    )
                    voids.discard(suit)
        for i in range(1, len(plays)):
            for c in plays[i]:
                if (memo.get(c) or eff(c)) != lead_suit:
                    void_in.setdefault(seats[i], set()).add(lead_suit)
                    break

    def _follow_flags(self, hand: HandBook, seq: int, found: list[tuple[str, str]]) -> None:
        """Flag the follows the trick at ``seq`` proves illegal (a flag, not a ruling)."""
        for rule, text in found:
            self.flags.append(Flag(seq, hand.number, rule, text))

    def _on_hand_summary(self, event: Event, p: ev.HandSummaryPayload, at: int) -> None:
        self._need_running_clock()
        hand = self._need_hand(PLAYING)
        if hand.form == "detailed":
            raise EventRefused(key="summary.detailed_form")
        self._check_captured(p.defenders_points_before_last, "defenders_points_before_last")
        total = p.defenders_points_before_last + p.last_trick_points
        if total > self._all_points:
            raise EventRefused(
                key="summary.too_many_points",
                params={
                    "before": p.defenders_points_before_last,
                    "last": p.last_trick_points,
                    "sum": total,
                    "total": self._all_points,
                    "decks": self.ruleset.decks,
                },
            )
        shape = self._summary_kitty(hand, p)
        hand.form = "summary"
        hand.captured = p.defenders_points_before_last
        self._finish_by_score(
            event.seq,
            hand,
            p.last_trick_points,
            p.last_trick_cards_per_player,
            Side(p.last_trick_side),
            shape,
        )

    def _finish_by_score(
        self,
        seq: int,
        hand: HandBook,
        points: int,
        cards_each: int,
        side: Side,
        lead_shape: tuple[tuple[int, int], ...] = (),
    ) -> None:
        assert hand.declarers is not None and hand.defenders is not None
        role = Role.DECLARERS if side == hand.declarers else Role.DEFENDERS
        before = hand.defenders_points
        kitty: dict[str, Any] = {}
        if self.ruleset.last_trick == "kitty":
            kitty = self._kitty_figures(hand, role, lead_shape)
        result = hand_result(
            defenders_points=before,
            last_trick_points=points,
            last_trick_cards=cards_each,
            last_trick_winner=role,
            declarer_level=self.levels[hand.declarers],
            defender_level=self.levels[hand.defenders],
            ruleset=self.ruleset,
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
            lead_shape,
        )
        if self.ruleset.a_needs_dig and role is Role.DEFENDERS:
            self._note_dig(hand.defenders)
        self._close_hand(seq, hand, result)

    def _close_hand(self, seq: int, hand: HandBook, result: HandResult) -> None:
        assert hand.declarers is not None and hand.defenders is not None
        assert hand.dealer is not None
        winner = hand.declarers if result.kept_deal else hand.defenders
        levels_after = {
            hand.declarers: result.declarer_level,
            hand.defenders: result.defender_level,
        }
        gains = {s: int(levels_after[s]) - int(self.levels[s]) for s in Side}
        upcoming = next_dealer(hand.dealer, result.deal, self.ruleset)
        sc = shuffle_and_cut(hand.dealer, result.deal, self.ruleset)
        sides = {"declarers_side": hand.declarers.value, "defenders_side": hand.defenders.value}
        consequences = tuple(
            Consequence.make(seq, c.article, c.key, hand.number, **dict(c.args), **sides)
            if c.key
            else Consequence(seq, c.article, c.text, hand.number)
            for c in result.consequences
        )
        hand.result = HandOutcome(
            defenders_final=result.defenders_final,
            winner=winner,
            taken=not result.kept_deal,
            gains=gains,
            levels_after=levels_after,
            next_dealer=upcoming,
            shuffler=sc.shuffler,
            cutter=sc.cutter,
            passed_a=result.passed_a,
            consequences=consequences,
        )
        self.consequences.extend(consequences)
        self.levels.update(levels_after)
        self._forget_digs()
        self.next_dealer = upcoming
        self.deal_holder = winner
        self.shuffler, self.cutter = sc.shuffler, sc.cutter
        if not result.passed_a:  # passing A ends the match (1.5): no next hand to announce
            self.consequences.append(
                Consequence.make(
                    seq,
                    "2.3",
                    "next_hand",
                    hand.number,
                    dealer=upcoming.value,
                    shuffler=sc.shuffler.value,
                    cutter=sc.cutter.value,
                )
            )
        hand.status = FINISHED
        self.hands.append(hand.frozen())
        self.hand = None
        if result.passed_a:
            self.passed_a = winner
            c = Consequence.make(seq, "1.5", "passed_a_end", winner=winner.value)
            self._set_end(MatchEnd("passed_a", winner, "1.5", c.text, seq, key=c.key, args=c.args))
