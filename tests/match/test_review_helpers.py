"""Review helpers: a referee's desk driven through the public match API only.

The review tests (``test_review_*.py``) derive every expected value from
``/work/shared/RULES.md`` by hand and write it as a literal; this module only
records events (``referee_desk.match.Recorder``) with explicit, plausible times so
that clock tests can place an event at an exact match-clock reading.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee_desk.match import EventRefused, MatchState, Recorder, format_time, parse_time
from referee_desk.rules.ruleset import get_ruleset
from referee_desk.rules.seats import Side

T0 = "2026-11-29T09:00:00.000Z"
#: The clock starts one minute after the match is opened.
CLOCK_START_MS = parse_time(T0) + 60_000
MIN = 60_000

#: RULES.md 2: levels 3 4 5 6 7 8 9 10 J Q K A (written out here, not taken from the code).
LADDER = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def up(label: str, n: int) -> str:
    """``label`` moved up ``n`` levels, stopping at A (RULES.md 7, must_play_a=true)."""
    return LADDER[min(LADDER.index(label) + n, len(LADDER) - 1)]


class Desk:
    """One match record; every event goes through Recorder (schema + state check)."""

    def __init__(self, match_id: str = "REVIEW-1", **params: Any) -> None:
        self.rec = Recorder(match_id, "审查裁判")
        self.t = parse_time(T0)
        self.ruleset = get_ruleset("guilin-2009", params or None)

    # -- time --------------------------------------------------------------------------

    def wall(self, ms: int) -> None:
        """Set the wall time to an absolute epoch ms (never backwards)."""
        assert ms >= self.t, "events are recorded in time order"
        self.t = ms

    def at_clock(self, minutes: float) -> None:
        """Place the next event at ``minutes`` after the clock start (valid with no pauses)."""
        self.wall(CLOCK_START_MS + int(minutes * MIN))

    # -- recording ---------------------------------------------------------------------

    def ev(self, type: str, payload: dict[str, Any] | None = None, after: float = 20):
        """Record an event ``after`` seconds after the previous one (0: same instant)."""
        self.t += int(after * 1000)
        return self.rec.record(type, payload or {}, format_time(self.t))

    def refused(self, type: str, payload: dict[str, Any] | None = None, after: float = 20) -> str:
        """The refusal message of an event; the record must stay unchanged."""
        before = len(self.rec.events)
        with pytest.raises(EventRefused) as info:
            self.ev(type, payload, after)
        assert len(self.rec.events) == before, "a refused event left a trace in the record"
        return str(info.value)

    def accepts(self, type: str, payload: dict[str, Any] | None = None, after: float = 20) -> bool:
        """True if the event is accepted (and then recorded), False if refused."""
        try:
            self.ev(type, payload, after)
        except EventRefused:
            return False
        return True

    @property
    def state(self) -> MatchState:
        return self.rec.state()

    # -- building blocks ---------------------------------------------------------------

    def start(self) -> Desk:
        self.ev(
            "match_opened",
            {
                "tournament": "桂林工会杯 审查",
                "round": "2",
                "table": "7",
                "pairs": {"NS": "红队", "EW": "蓝队"},
                "seats": {"N": "赵一", "E": "钱二", "S": "孙三", "W": "李四"},
                "referee": "审查裁判",
                "ruleset": self.ruleset.to_dict(),
            },
            after=0,
        )
        self.ev("clock_started", after=60)
        return self

    def race(self, dealer: str, suit: str = "H", count: int = 1) -> None:
        """An opening-method hand won by ``dealer`` with LJ + ``count`` level cards (2.1)."""
        self.ev("hand_started", {"dealer": None})
        level = self.level(Side.NS if dealer in "NS" else Side.EW)
        cards = ["LJ"] + [suit + level] * count
        self.ev("bid", {"seat": dealer, "kind": "dark", "cards": cards})
        self.ev("bidding_closed", {"dealer": dealer, "trump": suit})

    def rotation_hand(self, trump: str = "NT", bidder: str | None = None) -> str:
        """A later hand dealt by the rotation dealer; returns that dealer (2.2)."""
        dealer = self.state.next_dealer
        assert dealer is not None, "the next hand is a bidding race"
        self.ev("hand_started", {"dealer": dealer.value})
        if trump != "NT":
            level = self.state.current_hand.level.label
            self.ev(
                "bid", {"seat": bidder or dealer.value, "kind": "dark", "cards": [trump + level]}
            )
        self.ev("bidding_closed", {"dealer": dealer.value, "trump": trump})
        return dealer.value

    def summary(self, before: int, last: int = 0, cards: int = 1, side: str = "NS", after=1200):
        """A summary-form result (7.3): points before the last trick and the last trick."""
        return self.ev(
            "hand_summary",
            {
                "defenders_points_before_last": before,
                "last_trick_points": last,
                "last_trick_cards_per_player": cards,
                "last_trick_side": side,
            },
            after=after,
        )

    def level(self, side: Side) -> str:
        return self.state.levels[side].label

    def levels(self) -> tuple[str, str]:
        """(NS, EW) levels as labels."""
        s = self.state
        return s.levels[Side.NS].label, s.levels[Side.EW].label

    def lines(self) -> list[str]:
        """Every derived consequence as printed, ``"article: text"``."""
        return [str(c) for c in self.state.consequences]


def started(**params: Any) -> Desk:
    return Desk(**params).start()


def review_bug(reason: str, raises: type[BaseException] | tuple[type[BaseException], ...]):
    """Mark a review test that fails because of a code bug found by this review.

    Strict: once the code is fixed the test passes, the XPASS fails the run, and the
    marker must be removed. ``raises`` pins the expected failure so that an unrelated
    error (a broken helper, an import error) is not silently counted as the known bug.
    """
    return pytest.mark.xfail(strict=True, raises=raises, reason=f"review finding: {reason}")


#: The failure of ``Desk.refused`` when the code accepts what it must refuse.
NOT_REFUSED = pytest.fail.Exception
