"""Generate the sample match records in this folder (deterministic: seeded RNG).

Run with ``uv run python sample_events/make_samples.py``. Each match is built by
recording events through ``referee_desk.match.Recorder`` (so every event is
schema-checked and validated as the desk would), with cards dealt from four
shuffled decks by a seeded RNG and plausible times. Writes one ``.jsonl`` per match
(one hash-chained event per line). The matches of the presets of RULES 12
(``qq-four-deck``, ``three-deck``) are written to ``presets/``, so the Guilin
tournament's sample folder keeps its six records.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from referee_desk.match import Recorder, format_time, parse_time
from referee_desk.match.simulate import (
    SimTrick,
    deal,
    deal_with_kitty,
    follow_cards,
    lead_cards,
    play_hand,
)
from referee_desk.rules.cards import (
    LITTLE_JOKER,
    Card,
    Rank,
    Suit,
    format_card,
    format_cards,
    parse_cards,
)
from referee_desk.rules.ruleset import get_ruleset
from referee_desk.rules.seats import Seat, Side
from referee_desk.rules.throws import check_throw
from referee_desk.rules.trick import trick_winner
from referee_desk.rules.trump import TrumpContext

OUT = Path(__file__).resolve().parent
TOURNAMENT = "2026年桂林市职工拖拉机锦标赛"
REFEREES = ["陈建国", "黄丽", "梁志强", "莫小红", "覃海", "韦春燕"]
PLAYERS = [
    "张伟",
    "李娜",
    "王芳",
    "刘洋",
    "陈静",
    "杨磊",
    "赵敏",
    "黄强",
    "周杰",
    "吴婷",
    "徐明",
    "孙丽",
    "马超",
    "朱琳",
    "胡军",
    "郭芳",
    "林峰",
    "何欣",
    "高翔",
    "罗薇",
    "梁斌",
    "宋佳",
    "郑浩",
    "谢颖",
    # the preset matches (RULES 12)
    "唐磊",
    "韩梅",
    "冯刚",
    "邓洁",
    "曹阳",
    "彭丽",
    "曾勇",
    "萧红",
    "田野",
    "潘婷",
    "袁凯",
    "蒋琴",
    "蔡明",
    "余静",
    "杜鹏",
    "叶青",
]
TEAMS = [
    "桂林电子",
    "漓江机械",
    "象山供电",
    "七星邮政",
    "叠彩水务",
    "雁山铁路",
    "临桂教育",
    "秀峰医院",
    "桂林理工",
    "阳朔旅游",
    "灵川农信",
    "荔浦纺织",
    # the preset matches (RULES 12)
    "全州建工",
    "兴安酒业",
    "龙胜茶业",
    "恭城果业",
    "平乐航运",
    "资源电力",
    "永福制药",
    "灌阳农机",
]

#: The preset matches: (tournament name, match id prefix) per ruleset (RULES 12).
PRESET_EVENTS = {
    "qq-four-deck": ("2026年桂林市升级邀请赛（四副牌）", "QQ2026"),
    "three-deck": ("2026年桂林市升级邀请赛（三副牌）", "SF2026"),
}


class Match:
    """Records one match with plausible times, deals and bids."""

    def __init__(
        self, number: int, seed: int, start: str, preset: str = "guilin-2009", **params: Any
    ) -> None:
        self.rng = random.Random(seed)
        self.referee = REFEREES[number % len(REFEREES)]
        self.match_id = f"GL2026-R{1 + number // 3}-T{1 + number % 3 * 2 + number // 3}"
        self.tournament = TOURNAMENT
        if preset != "guilin-2009":
            self.tournament, prefix = PRESET_EVENTS[preset]
            self.match_id = f"{prefix}-R1-T{1 + number % 2}"
        self.rec = Recorder(self.match_id, self.referee)
        self.t = parse_time(start)
        self.ruleset = get_ruleset(preset, params or None)
        names = PLAYERS[number * 4 : number * 4 + 4]
        self.seats = dict(zip("NESW", names, strict=True))
        self.pairs = {"NS": TEAMS[number * 2], "EW": TEAMS[number * 2 + 1]}
        self.round = str(1 + number // 3)
        self.table = str(1 + number % 3 * 2 + number // 3)
        if preset != "guilin-2009":
            self.round, self.table = "1", str(1 + number % 2)

    # -- plumbing ----------------------------------------------------------------------

    def ev(self, type: str, payload: dict[str, Any] | None = None, after: float = 20) -> None:
        jitter = self.rng.uniform(0.8, 1.25) if after > 0 else 1
        self.t += int(after * jitter * 1000) + self.rng.randrange(0, 1000)
        self.rec.record(type, payload or {}, format_time(self.t))

    @property
    def state(self):
        return self.rec.state()

    def write(self, name: str) -> Path:
        path = OUT / name
        path.parent.mkdir(exist_ok=True)
        with path.open("w", encoding="utf-8", newline="\n") as f:
            for event in self.rec.events:
                f.write(json.dumps(event.to_dict(), ensure_ascii=False, sort_keys=True) + "\n")
        return path

    # -- phases ------------------------------------------------------------------------

    def open(self) -> None:
        self.ev(
            "match_opened",
            {
                "tournament": self.tournament,
                "round": self.round,
                "table": self.table,
                "pairs": self.pairs,
                "seats": self.seats,
                "referee": self.referee,
                "ruleset": self.ruleset.to_dict(),
            },
            after=0,
        )
        self.ev("clock_started", after=150)

    def _deal_where(self, ok: Callable[[dict[Seat, list[Card]]], bool]) -> dict[Seat, list[Card]]:
        for _ in range(500):
            hands = deal(self.rng, self.ruleset)
            if ok(hands):
                return hands
        raise RuntimeError("no deal found")  # pragma: no cover

    def race(self, winner: str, *, counter_by: str | None = None) -> dict[Seat, list[Card]]:
        """An opening-method hand (2.1) that ``winner`` wins, maybe over a counter."""
        seat = Seat(winner)
        level = self.state.levels[seat.side]

        def best(hands: dict[Seat, list[Card]], s: Seat) -> tuple[Suit, int]:
            suit, n = most_held_level_suit(hands[s], level)
            return suit, n if LITTLE_JOKER in hands[s] else 0

        def ok(hands: dict[Seat, list[Card]]) -> bool:
            if best(hands, seat)[1] < 2:
                return False
            if counter_by is None:
                return True
            return best(hands, Seat(counter_by))[1] >= 1

        hands = self._deal_where(ok)
        self.ev("hand_started", {"dealer": None}, after=90)
        suit, n = best(hands, seat)
        lv = level.label
        if counter_by is not None:
            other = Seat(counter_by)
            o_suit, _ = best(hands, other)
            o_level = self.state.levels[other.side].label
            self.ev(
                "bid",
                {"seat": other.value, "kind": "dark", "cards": ["LJ", o_suit.value + o_level]},
                after=40,
            )
            self.ev(
                "bid",
                {"seat": seat.value, "kind": "counter", "cards": ["LJ"] + [suit.value + lv] * 2},
                after=25,
            )
        else:
            self.ev(
                "bid",
                {"seat": seat.value, "kind": "dark", "cards": ["LJ", suit.value + lv]},
                after=40,
            )
            if n >= 2 and self.rng.random() < 0.6:
                self.ev(
                    "bid",
                    {"seat": seat.value, "kind": "reinforce", "cards": [suit.value + lv]},
                    after=15,
                )
        for s in seat.play_order_from()[1:]:
            self.ev("bid", {"seat": s.value, "kind": "pass", "cards": []}, after=5)
        self.ev("bidding_closed", {"dealer": seat.value, "trump": suit.value}, after=15)
        return hands

    def nobody_bids(self) -> None:
        """An opening hand where nobody shows LJ plus level cards: redeal (2.1, no_bid)."""
        self.ev("hand_started", {"dealer": None}, after=90)
        for s in Seat.N.play_order_from():
            self.ev("bid", {"seat": s.value, "kind": "pass", "cards": []}, after=20)
        self.ev("redeal", {"reason": "四家均不叫主, 重新洗牌发牌"}, after=30)

    def later(
        self,
        *,
        dealer: str | None = None,
        no_bid: bool = False,
        open_bid_by: str | None = None,
        false_bid_by: str | None = None,
    ) -> None:
        """A later hand: the rotation dealer (or ``dealer``) deals; bids set the trump."""
        due = self.state.next_dealer
        assert due is not None
        actual = Seat(dealer) if dealer else due
        level = self.state.levels[due.side]
        hands = deal(self.rng, self.ruleset)
        self.ev("hand_started", {"dealer": actual.value}, after=120)
        if dealer is not None and actual != due:
            return  # the wrong dealer is discovered later
        trump = "NT"
        if open_bid_by:
            self.ev("open_bid", {"seat": open_bid_by}, after=30)
        if false_bid_by:
            s = Seat(false_bid_by)
            suit = self.rng.choice([x for x in "SHDC"])
            self.ev(
                "bid", {"seat": s.value, "kind": "dark", "cards": [suit + level.label]}, after=35
            )
            self.ev("false_bid", {"seat": s.value}, after=60)
            self.ev("false_bid_trump", {"seat": None, "trump": "NT"}, after=45)
        elif not no_bid:
            bidders = [
                s for s in due.play_order_from() if s.side.value != open_bid_by_side(open_bid_by)
            ]
            trump = self.first_level_bid(hands, bidders, level)
        self.ev("bidding_closed", {"dealer": due.value, "trump": trump}, after=20)

    def summary(
        self,
        before: int,
        last: int = 0,
        cards: int = 1,
        side: str | None = None,
        minutes: float = 24,
    ) -> None:
        hand = self.state.current_hand
        assert hand is not None and hand.declarers is not None
        side = side or hand.declarers.value
        self.ev(
            "hand_summary",
            {
                "defenders_points_before_last": before,
                "last_trick_points": last,
                "last_trick_cards_per_player": cards,
                "last_trick_side": side,
            },
            after=minutes * 60,
        )

    def detailed(self, hands: dict[Seat, list[Card]]) -> None:
        """Record the current hand trick by trick from the dealt cards (legal follows)."""
        hand = self.state.current_hand
        assert hand is not None and hand.dealer is not None and hand.level is not None
        ctx = TrumpContext(hand.level, hand.trump)
        tricks = play_hand(hands, ctx, hand.dealer, self.rng, self.ruleset)
        for i, trick in enumerate(tricks):
            self.ev("trick", trick.payload(), after=self.rng.uniform(18, 45))
            if i == 9:
                self.ev("think_overrun", {"seat": trick.winner.value, "seconds": 17}, after=2)

    def call_time(self) -> None:
        """The referee calls time once the match clock has run out (1.5)."""
        clock = self.state.clock
        remaining = clock.remaining_at(self.t)
        if remaining >= 0:
            self.t += remaining + self.rng.randrange(5_000, 60_000)
            self.rec.record(
                "note",
                {"text": f"比赛时间到 ({self.ruleset.match_minutes}分钟)"},
                format_time(self.t),
            )

    def until(self, minutes: float) -> bool:
        clock = self.state.clock
        return clock.elapsed_at(self.t) < minutes * 60_000

    # -- the presets (RULES 12) --------------------------------------------------------

    def preset_race(self, winner: str, *, counter_by: str | None = None) -> tuple[dict, list]:
        """12.3 抢亮: the opening hand; ``winner`` shows more level cards than the first
        bid (002 九.1: 两张10亮主，三张10反主)."""
        seat = Seat(winner)
        level = self.state.levels[seat.side]

        def best(hands: dict[Seat, list[Card]], s: Seat) -> tuple[Suit, int]:
            return most_held_level_suit(hands[s], level)

        for _ in range(500):
            hands, kitty = deal_with_kitty(self.rng, self.ruleset)
            if best(hands, seat)[1] >= 2 and (
                counter_by is None or best(hands, Seat(counter_by))[1] >= 1
            ):
                break
        self.ev("hand_started", {"dealer": None}, after=90)
        suit, _n = best(hands, seat)
        lv = level.label
        if counter_by is not None:
            o_suit, _ = best(hands, Seat(counter_by))
            self.ev(
                "bid", {"seat": counter_by, "kind": "dark", "cards": [o_suit.value + lv]}, after=40
            )
            self.ev(
                "bid",
                {"seat": winner, "kind": "counter", "cards": [suit.value + lv] * 2},
                after=25,
            )
        else:
            self.ev("bid", {"seat": winner, "kind": "dark", "cards": [suit.value + lv]}, after=40)
        for s in seat.play_order_from()[1:]:
            self.ev("bid", {"seat": s.value, "kind": "pass", "cards": []}, after=5)
        self.ev("bidding_closed", {"dealer": winner, "trump": suit.value}, after=15)
        return hands, kitty

    def preset_later(self) -> tuple[dict, list]:
        """A later hand of a preset: the rotation dealer; the first level cards set trump."""
        due = self.state.next_dealer
        assert due is not None
        level = self.state.levels[due.side]
        hands, kitty = deal_with_kitty(self.rng, self.ruleset)
        self.ev("hand_started", {"dealer": due.value}, after=120)
        trump = self.first_level_bid(hands, bidders=due.play_order_from(), level=level)
        self.ev("bidding_closed", {"dealer": due.value, "trump": trump}, after=20)
        return hands, kitty

    def first_level_bid(
        self, hands: dict[Seat, list[Card]], bidders: Sequence[Seat], level: Rank
    ) -> str:
        """The first of ``bidders`` holding a level card bids its most-held level suit;
        that suit is trump ("NT" when nobody holds one)."""
        for s in bidders:
            suit, n = most_held_level_suit(hands[s], level)
            if n:
                self.ev(
                    "bid",
                    {"seat": s.value, "kind": "dark", "cards": [suit.value + level.label]},
                    after=35,
                )
                return suit.value
        return "NT"

    def bury(self, kitty: list[Card] | None = None, points: int | None = None) -> None:
        """12.1 埋底: the dealer buries the kitty (the cards, or only their points)."""
        hand = self.state.current_hand
        assert hand is not None and hand.dealer is not None
        payload: dict[str, Any] = {"seat": hand.dealer.value}
        if kitty is not None:
            payload["cards"] = [format_card(c) for c in kitty]
        else:
            payload["points"] = points
        self.ev("kitty_buried", payload, after=60)

    def preset_detailed(self, hands: dict[Seat, list[Card]], throw_at: int) -> None:
        """The hand trick by trick with a failed throw at trick ``throw_at`` (12.4), played
        until the defenders win the last trick and dig the kitty (12.5)."""
        hand = self.state.current_hand
        assert hand is not None and hand.dealer is not None and hand.level is not None
        ctx = TrumpContext.for_ruleset(hand.level, hand.trump_label, self.ruleset)
        defenders = hand.declarers.other
        for _ in range(200):
            sim = random.Random(self.rng.random())
            tricks = play_with_throw(hands, ctx, hand.dealer, sim, self.ruleset, throw_at)
            if tricks and tricks[-1][0].winner.side == defenders:
                break
        else:  # pragma: no cover
            raise RuntimeError("no hand found")
        for i, (trick, throw) in enumerate(tricks):
            if throw is not None:
                self.ev("throw_failed", throw, after=self.rng.uniform(15, 30))
            self.ev("trick", trick.payload(), after=self.rng.uniform(18, 45))
            if i == 9:
                self.ev("think_overrun", {"seat": trick.winner.value, "seconds": 14}, after=2)

    def preset_summary(
        self,
        before: int,
        last: int,
        cards: int,
        side: str,
        kitty: int | None = None,
        shape: list[list[int]] | None = None,
        minutes: float = 20,
    ) -> None:
        """The summary form with the kitty's points and the last lead's shape (12.5)."""
        payload: dict[str, Any] = {
            "defenders_points_before_last": before,
            "last_trick_points": last,
            "last_trick_cards_per_player": cards,
            "last_trick_side": side,
        }
        if kitty is not None:
            payload["kitty_points"] = kitty
        if shape is not None:
            payload["last_lead_shape"] = shape
        self.ev("hand_summary", payload, after=minutes * 60)


def play_with_throw(
    hands: dict[Seat, list[Card]],
    ctx: TrumpContext,
    first_leader: Seat,
    rng: random.Random,
    ruleset: Any,
    throw_at: int,
) -> list[tuple[SimTrick, dict[str, Any] | None]]:
    """Play every card; at trick ``throw_at`` the leader throws the top and the bottom
    card of a side suit and an opponent shows a higher card (12.4): the trick is then
    led by the forced component. [] when no such throw could be made."""
    held = {seat: list(cards) for seat, cards in hands.items()}
    out: list[tuple[SimTrick, dict[str, Any] | None]] = []
    leader = first_leader
    number = 0
    while held[leader]:
        throw = None
        if number == throw_at:
            throw = failed_throw(held, leader, ctx)
            if throw is None:
                return []
            lead = tuple(parse_cards(throw["forced"]))
            throw = {k: v for k, v in throw.items() if k != "forced"}
        else:
            lead = lead_cards(held[leader], ctx, rng)
        plays: list[tuple[Seat, tuple[Card, ...]]] = [(leader, lead)]
        for seat in leader.play_order_from()[1:]:
            plays.append((seat, follow_cards(lead, held[seat], ctx, ruleset)))
        for seat, cards in plays:
            for card in cards:
                held[seat].remove(card)
        winner = plays[trick_winner([c for _, c in plays], ctx, ruleset=ruleset)][0]
        out.append((SimTrick(leader, tuple(plays), winner), throw))
        leader = winner
        number += 1
    return out


def failed_throw(
    held: dict[Seat, list[Card]], leader: Seat, ctx: TrumpContext
) -> dict[str, Any] | None:
    for suit in "SHDC":
        mine = sorted(
            (c for c in held[leader] if ctx.effective_suit(c) == suit), key=ctx.power, reverse=True
        )
        if len(mine) < 2 or ctx.power(mine[0]) == ctx.power(mine[-1]):
            continue
        thrown = (mine[0], mine[-1])
        for seat in (leader.next_in_play, leader.partner.next_in_play):
            theirs = [c for c in held[seat] if ctx.effective_suit(c) == suit]
            if not theirs:
                continue
            top = max(theirs, key=ctx.power)
            check = check_throw(thrown, (top,), ctx)
            if check.fails:
                assert check.forced is not None
                return {
                    "seat": leader.value,
                    "thrown": [format_card(c) for c in ctx.sorted(list(thrown))],
                    "shown_by": seat.value,
                    "shown": [format_card(top)],
                    "forced": format_cards(check.forced.cards),
                }
    return None


def most_held_level_suit(cards: list[Card], level: Rank) -> tuple[Suit, int]:
    """The suit of the most level cards in ``cards`` and how many ((S, 0) when none);
    a tie goes to the suit letter last in the alphabet (S, H, D, C)."""
    counts = Counter(c.suit for c in cards if c.rank == level and c.suit)
    if not counts:
        return Suit.S, 0
    return max(counts.items(), key=lambda kv: (kv[1], kv[0].value))


def open_bid_by_side(seat: str | None) -> str | None:
    return None if seat is None else Seat(seat).side.value


# -- the matches -------------------------------------------------------------------------


def pass_a() -> Match:
    """NS pass A; hand 1 recorded trick by trick (216 cards, legal follows)."""
    m = Match(0, seed=20261101, start="2026-11-28T01:00:00.000Z")
    m.open()
    hands = m.race("N")
    m.detailed(hands)
    while m.state.end is None:
        m.later()
        hand = m.state.current_hand
        if hand.declarers == Side.NS:
            m.summary(m.rng.choice([0, 5, 10, 20, 25, 30]), minutes=m.rng.uniform(13, 17))
        else:
            m.summary(m.rng.choice([285, 290, 300, 310]), minutes=m.rng.uniform(13, 17))
    m.ev("match_ended", {"reason": "passed_a", "winner": m.state.end.winner.value}, after=60)
    m.ev("note", {"text": "双方队长签字确认比分"}, after=120)
    return m


def time_out_by_level() -> Match:
    """Time-out decided by level; a redeal; 劳改 choice A; wrong plays by each side; a pause."""
    m = Match(1, seed=20261102, start="2026-11-28T01:05:00.000Z")
    m.open()
    m.nobody_bids()  # no_bid=redeal_first_else_nt: the opening hand is dealt again
    m.race("E")  # EW declarers at 3
    m.summary(125, 15, 2, "EW", minutes=21)  # 125 − 30 = 95 → EW +2 → 5
    m.later()  # W deals
    m.ev("wrong_play", {"seat": "N", "cards_exposed": 2, "cards": ["CK", "CK"]}, after=400)
    m.ev("wrong_play", {"seat": "W", "cards_exposed": 1}, after=300)
    m.summary(150, 10, 1, "NS", minutes=16)  # 150 − 20 + 10 + 10 = 150 → EW +1 → 6
    m.later()  # E deals
    m.ev("clock_paused", {"reason": "南家申诉牌张数, 裁判清点"}, after=500)
    m.ev("note", {"text": "清点后南家牌数无误", "about_seq": None}, after=240)
    m.ev("clock_resumed", after=60)
    m.ev("revoke", {"seat": "S", "kind": "not_following", "trick": 12}, after=380)
    m.ev("penalty_choice", {"seat": "E", "choice": "A"}, after=90)  # EW +2 → 8, keep
    m.later()  # W deals
    m.summary(180, 20, 2, "NS", minutes=24)  # 180 + 40 = 220 → NS take the deal +1 → 4
    while m.until(120):
        m.later()
        m.summary(m.rng.choice([120, 140, 165, 190]), minutes=m.rng.uniform(20, 26))
    m.ev("match_ended", {"reason": "time_out", "winner": m.state.end.winner.value}, after=45)
    return m


def time_out_by_deal() -> Match:
    """Equal levels at time-out: the side holding the deal wins; 劳改 B; an open bid."""
    m = Match(2, seed=20261103, start="2026-11-28T01:10:00.000Z")
    m.open()
    m.race("N", counter_by="E")  # NS declarers at 3
    m.ev("revoke", {"seat": "N", "kind": "withheld", "trick": 9, "defenders_points": 45}, after=600)
    m.ev("penalty_choice", {"seat": "W", "choice": "B"}, after=80)  # 45 + 160 = 205 → EW +1
    m.later(open_bid_by="S")  # W deals, EW at 4
    m.summary(130, 0, 1, "EW", minutes=27)  # EW +1 → 5; E deals
    m.later()
    m.summary(245, 0, 1, "EW", minutes=28)  # NS take the deal +2 → 5; N deals
    m.later()
    m.summary(165, 5, 1, "NS", minutes=31)  # 165 − 5 = 160: EW take +0; W deals next
    m.call_time()
    m.ev("match_ended", {"reason": "time_out", "winner": "EW"}, after=40)
    return m


def false_bid_and_wrong_dealer() -> Match:
    """A wrong dealer (8.5) and the replayed hand; a false bid played in no-trump (8.6)."""
    m = Match(3, seed=20261104, start="2026-11-28T02:30:00.000Z")
    m.open()
    m.race("E")  # EW at 3
    m.summary(140, 0, 1, "EW", minutes=22)  # EW keep +1 → 4; W deals next
    m.later(dealer="N")  # N deals out of turn
    m.ev("wrong_dealer", {"seat": "N"}, after=200)
    m.race("S")  # the replayed hand: the dealer by bidding race, NS at 3
    m.summary(90, 0, 1, "NS", minutes=23)  # NS keep +2 → 5; N deals
    m.later(false_bid_by="W")
    m.summary(215, 0, 1, "EW", minutes=25)  # EW take the deal +1 → 5; W deals
    m.later()
    m.summary(60, 0, 1, "EW", minutes=26)  # EW keep +3 → 8
    while m.until(120):
        m.later()
        m.summary(m.rng.choice([100, 150, 175, 205]), minutes=m.rng.uniform(20, 24))
    m.ev("match_ended", {"reason": "time_out", "winner": m.state.end.winner.value}, after=45)
    return m


def disqualification() -> Match:
    """Conduct warnings escalate to the committee, which disqualifies EW (8.8)."""
    m = Match(4, seed=20261105, start="2026-11-28T03:00:00.000Z")
    m.open()
    m.race("W")
    m.summary(170, 10, 1, "NS", minutes=22)  # NS take +0; N? W.next_in_play deals
    m.later()
    m.ev("conduct_warning", {"seat": "E", "text": "出牌时与同伴交谈"}, after=500)
    m.ev("think_overrun", {"seat": "W", "seconds": 21}, after=200)
    m.ev(
        "committee_ruling",
        {"text": "东西方牌张摆放散乱, 仲裁委员会裁定扣10分", "defenders_points": -10},
        after=120,
    )
    m.summary(130, 0, 1, "NS", minutes=14)
    m.later()
    m.ev("conduct_warning", {"seat": "W", "text": "以手势示意同伴"}, after=700)
    m.ev("clock_paused", {"reason": "上报仲裁委员会"}, after=30)
    m.ev(
        "committee_decision",
        {"side": "EW", "decision": "disqualification", "text": "二次违规, 取消东西方比赛资格"},
        after=900,
    )
    m.ev("match_ended", {"reason": "disqualification", "winner": "NS"}, after=60)
    m.ev("note", {"text": "东西方队长已知悉裁决"}, after=60)
    return m


def forfeit() -> Match:
    """EW forfeit after a pause; a hand summary corrected on the record."""
    m = Match(5, seed=20261106, start="2026-11-28T03:20:00.000Z")
    m.open()
    m.race("S")
    m.summary(100, 0, 1, "NS", minutes=23)  # NS keep +2 → 5
    wrong = m.rec.events[-1].seq
    m.ev(
        "correction",
        {
            "target_seq": wrong,
            "action": "replace",
            "reason": "记分员误记, 防守方实得125分",
            "payload": {
                "defenders_points_before_last": 125,
                "last_trick_points": 0,
                "last_trick_cards_per_player": 1,
                "last_trick_side": "NS",
            },
        },
        after=90,
    )  # NS keep +1 → 4
    m.later()
    m.summary(200, 0, 1, "NS", minutes=25)  # EW take +1 → 4
    m.ev("clock_paused", {"reason": "西家身体不适离场"}, after=60)
    m.ev("forfeit", {"side": "EW", "text": "西家无法继续比赛, 东西方弃权"}, after=1200)
    m.ev("match_ended", {"reason": "forfeit", "winner": "NS"}, after=30)
    return m


# -- the preset matches (RULES 12) -------------------------------------------------------


def summary_hand(m: Match, *, winner: Side, dig: bool = False) -> None:
    """One summary-form hand of a preset that ``winner`` wins: as declarers with the
    defenders low (the declarers take the last trick), or as defenders taking the deal
    (``dig``: they win the last trick and dig the kitty, 12.5)."""
    m.preset_later()
    hand = m.state.current_hand
    assert hand is not None and hand.declarers is not None
    kitty = m.rng.choice([5, 10, 15, 20, 25])
    if m.rng.random() < 0.5:
        m.bury(points=kitty)
    if hand.declarers == winner:
        before = m.rng.choice([0, 5, 10, 20, 30])
        m.preset_summary(before, 10, 1, winner.value, kitty=kitty, minutes=m.rng.uniform(12, 18))
    elif dig:
        before = m.rng.choice([60, 70, 80])
        shape = m.rng.choice([[[2, 1]], [[2, 2]], [[1, 1]]])
        m.preset_summary(
            before, 15, 2, winner.value, kitty=kitty, shape=shape, minutes=m.rng.uniform(12, 18)
        )
    else:
        before = m.rng.choice([180, 190, 200])
        m.preset_summary(before, 0, 1, hand.declarers.value, minutes=m.rng.uniform(12, 18))


def drive_to_a(m: Match, winner: Side, *, fall_back_first: bool = False) -> None:
    """Summary hands until ``winner`` passes A. In qq-four-deck a side at A must dig the
    kitty once before it can pass (12.7); ``fall_back_first`` first wins a hand at A
    without a dig, which sends it back to J (001: 退回到J)."""
    fell_back = False
    while m.state.end is None:
        state = m.state
        at_a = state.levels[winner] == Rank.ACE
        due = state.next_dealer
        assert due is not None
        declaring = due.side == winner
        needs_dig = m.ruleset.a_needs_dig and winner not in state.dug_at_a
        if at_a and declaring and needs_dig and not (fall_back_first and not fell_back):
            # 12.7: lose the deal at A, then dig it back as defenders.
            m.preset_later()
            m.preset_summary(120, 0, 1, winner.value, kitty=10, minutes=m.rng.uniform(12, 18))
            continue
        if at_a and declaring and needs_dig:
            fell_back = True
        summary_hand(m, winner=winner, dig=at_a or m.rng.random() < 0.5)


def qq_detailed() -> Match:
    """qq-four-deck (001): hand 1 trick by trick with a failed throw and a kitty dig,
    then summary hands until NS pass A (12.7: after a dig at A)."""
    m = Match(6, seed=20261107, start="2026-11-29T01:00:00.000Z", preset="qq-four-deck")
    m.open()
    hands, kitty = m.preset_race("N", counter_by="E")
    m.bury(kitty)
    m.preset_detailed(hands, throw_at=3)
    drive_to_a(m, Side.NS)
    m.ev("match_ended", {"reason": "passed_a", "winner": m.state.end.winner.value}, after=60)
    return m


def qq_summary() -> Match:
    """qq-four-deck in summary form: NS reach A, win at A without a dig and fall back to J
    (12.7), then dig at A and pass A; a conduct warning."""
    m = Match(7, seed=20261108, start="2026-11-29T01:10:00.000Z", preset="qq-four-deck")
    m.open()
    m.preset_race("S")
    m.preset_summary(30, 10, 1, "NS", kitty=20, minutes=18)
    m.ev("conduct_warning", {"seat": "E", "text": "出牌时与同伴交谈"}, after=400)
    drive_to_a(m, Side.NS, fall_back_first=True)
    m.ev("match_ended", {"reason": "passed_a", "winner": m.state.end.winner.value}, after=60)
    return m


def three_deck_detailed() -> Match:
    """three-deck (002): hand 1 trick by trick with a failed throw (甩错牌 20) and a kitty
    dig; later a 藏张 with choice B (play continues), then summaries until EW pass A."""
    m = Match(8, seed=20261109, start="2026-11-29T02:00:00.000Z", preset="three-deck")
    m.open()
    hands, kitty = m.preset_race("E")
    m.bury(kitty)
    m.preset_detailed(hands, throw_at=2)
    m.preset_later()
    hand = m.state.current_hand
    assert hand is not None and hand.declarers is not None
    offender = hand.dealer
    chooser = offender.next_in_play
    m.ev("concealment", {"seat": offender.value, "chooser": chooser.value, "choice": "B"}, 600)
    m.preset_summary(90, 10, 1, hand.declarers.value, kitty=15, minutes=14)
    drive_to_a(m, Side.EW)
    m.ev("match_ended", {"reason": "passed_a", "winner": m.state.end.winner.value}, after=60)
    return m


def three_deck_summary() -> Match:
    """three-deck in summary form reaching A: a failed throw recorded in a summary hand
    (−20), a 藏张 with choice A (the hand ends), and 002's 445566 ×64 dig."""
    m = Match(9, seed=20261110, start="2026-11-29T02:10:00.000Z", preset="three-deck")
    m.open()
    m.preset_race("W", counter_by="N")
    m.preset_summary(40, 10, 6, "NS", kitty=10, shape=[[2, 3]], minutes=20)  # ×64
    m.preset_later()
    hand = m.state.current_hand
    assert hand is not None and hand.dealer is not None
    thrower = hand.dealer
    m.ev(
        "throw_failed",
        {
            "seat": thrower.value,
            "thrown": ["HA", "HK", "HK"],
            "shown_by": thrower.next_in_play.value,
            "shown": ["HA", "HA"],
        },
        after=300,
    )
    m.preset_summary(100, 0, 1, hand.declarers.value, kitty=5, minutes=15)
    m.preset_later()
    hand = m.state.current_hand
    assert hand is not None and hand.dealer is not None
    m.ev(
        "concealment",
        {
            "seat": hand.dealer.partner.value,
            "chooser": hand.dealer.next_in_play.value,
            "choice": "A",
        },
        after=700,
    )
    drive_to_a(m, Side.EW)
    m.ev("match_ended", {"reason": "passed_a", "winner": m.state.end.winner.value}, after=60)
    return m


SAMPLES: dict[str, Callable[[], Match]] = {
    "01_pass_a_detailed.jsonl": pass_a,
    "02_time_out_by_level.jsonl": time_out_by_level,
    "03_time_out_equal_levels_deal.jsonl": time_out_by_deal,
    "04_false_bid_wrong_dealer.jsonl": false_bid_and_wrong_dealer,
    "05_conduct_disqualification.jsonl": disqualification,
    "06_forfeit.jsonl": forfeit,
    "presets/07_qq_four_deck_detailed_throw_kitty.jsonl": qq_detailed,
    "presets/08_qq_four_deck_summary_a_fallback.jsonl": qq_summary,
    "presets/09_three_deck_detailed_throw_conceal.jsonl": three_deck_detailed,
    "presets/10_three_deck_summary_pass_a.jsonl": three_deck_summary,
}


def main() -> int:
    for name, build in SAMPLES.items():
        match = build()
        path = match.write(name)
        end = match.state.end
        print(
            f"{path.name}: {len(match.rec.events)} events, "
            f"{end.reason if end else '-'} → {end.winner.value if end else '-'}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
