"""A small table simulator for match tests: events with advancing, plausible times."""

from __future__ import annotations

from typing import Any

import pytest

from referee_desk.match import EventRefused, Recorder, format_time, parse_time
from referee_desk.rules.ruleset import get_ruleset

SEATS = {"N": "张伟", "E": "李娜", "S": "王芳", "W": "刘洋"}


class Table:
    """Records events for one match; every event is validated as the desk would."""

    def __init__(
        self, match_id: str = "T1-R1-3", preset: str = "guilin-2009", **params: Any
    ) -> None:
        self.rec = Recorder(match_id, "陈裁判")
        self.t = parse_time("2026-11-29T09:00:00.000Z")
        self.ruleset = get_ruleset(preset, params or None)

    def now(self, seconds: float = 30) -> str:
        self.t += int(seconds * 1000)
        return format_time(self.t)

    def ev(self, type: str, payload: dict[str, Any] | None = None, after: float = 30):
        return self.rec.record(type, payload or {}, self.now(after))

    def refused(self, type: str, payload: dict[str, Any] | None = None, after: float = 30) -> str:
        """The refusal message; the record is unchanged."""
        before = len(self.rec.events)
        with pytest.raises(EventRefused) as info:
            self.ev(type, payload, after)
        assert len(self.rec.events) == before
        return str(info.value)

    @property
    def state(self):
        return self.rec.state()

    @property
    def events(self):
        return self.rec.events

    def open(self) -> Table:
        self.ev(
            "match_opened",
            {
                "tournament": "桂林工会杯 2026",
                "round": "1",
                "table": "3",
                "pairs": {"NS": "红队", "EW": "蓝队"},
                "seats": dict(SEATS),
                "referee": "陈裁判",
                "ruleset": self.ruleset.to_dict(),
            },
            after=0,
        )
        return self

    def start(self) -> Table:
        self.open()
        self.ev("clock_started", after=60)
        return self

    def race_hand(self, dealer: str = "N", suit: str = "H") -> None:
        """An opening-method hand: ``dealer`` bids LJ + one level card and wins the race."""
        self.ev("hand_started", {"dealer": None})
        level = self.state.levels[_side(dealer)].label
        self.ev("bid", {"seat": dealer, "kind": "dark", "cards": ["LJ", suit + level]})
        self.ev("bidding_closed", {"dealer": dealer, "trump": suit})

    def next_hand(self, suit: str = "S", bidder: str | None = None) -> None:
        """A later hand: the rotation dealer deals; ``bidder`` shows one level card."""
        dealer = self.state.next_dealer
        assert dealer is not None
        self.ev("hand_started", {"dealer": dealer.value})
        if bidder is not None:
            level = self.state.levels[dealer.side].label
            self.ev("bid", {"seat": bidder, "kind": "dark", "cards": [suit + level]})
            self.ev("bidding_closed", {"dealer": dealer.value, "trump": suit})
        else:
            self.ev("bidding_closed", {"dealer": dealer.value, "trump": "NT"})

    def summary(self, before: int, last: int = 0, cards: int = 1, side: str = "NS") -> None:
        self.ev(
            "hand_summary",
            {
                "defenders_points_before_last": before,
                "last_trick_points": last,
                "last_trick_cards_per_player": cards,
                "last_trick_side": side,
            },
            after=1500,
        )


def _side(seat: str):
    from referee_desk.rules.seats import Seat

    return Seat(seat).side
