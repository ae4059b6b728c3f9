"""The preset sample matches (sample_events/presets/): each replayed result is checked
against an independent walk that applies RULES.md 12 itself (12.1 kitty, 12.4 −20,
12.5 kitty × m, 12.6 tables, 12.7 dig at A and the fall back to J, 12.8 藏张)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee_desk.match import Event, SchemaRefused, replay, validate_schema, verify_chain
from referee_desk.rules.cards import parse_cards
from referee_desk.rules.ruleset import get_ruleset
from referee_desk.rules.trick import trick_winner
from referee_desk.rules.trump import TrumpContext

PRESETS = Path(__file__).resolve().parents[2] / "sample_events" / "presets"
FILES = {
    "07_qq_four_deck_detailed_throw_kitty.jsonl": "qq-four-deck",
    "08_qq_four_deck_summary_a_fallback.jsonl": "qq-four-deck",
    "09_three_deck_detailed_throw_conceal.jsonl": "three-deck",
    "10_three_deck_summary_pass_a.jsonl": "three-deck",
}
LADDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
OTHER = {"NS": "EW", "EW": "NS"}
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
NEXT = {"N": "W", "W": "S", "S": "E", "E": "N"}
POINTS = {"5": 5, "10": 10, "K": 10}


def load(name: str) -> list[Event]:
    with (PRESETS / name).open(encoding="utf-8") as f:
        return [Event.from_dict(json.loads(line)) for line in f if line.strip()]


def card_points(tokens) -> int:
    return sum(POINTS.get(t[1:], 0) for t in tokens if t not in ("BJ", "LJ"))


class PresetWalk:
    """RULES 12 arithmetic re-stated from the text for the preset samples."""

    def __init__(self, events: list[Event], preset: str) -> None:
        self.rules = get_ruleset(preset)
        self.level = {"NS": 0, "EW": 0}
        self.dug: set[str] = set()
        self.end: str | None = None
        self.next_dealer: str | None = None
        for e in events:
            getattr(self, "on_" + e.type, lambda p: None)(e.payload)

    def on_match_opened(self, p):
        self.params = p["ruleset"]["params"]
        assert self.params["match_minutes"] is None  # 12.8: no time limit

    def on_hand_started(self, p):
        self.dealer = p["dealer"]
        self.adjust = 0
        self.captured = 0
        self.kitty = None
        self.tricks = []

    def on_bidding_closed(self, p):
        self.dealer = p["dealer"]
        self.declarers = SIDE[self.dealer]
        self.trump = p["trump"]

    def on_kitty_buried(self, p):
        self.kitty = card_points(p["cards"]) if p.get("cards") else p["points"]

    def on_throw_failed(self, p):  # 12.4 [P throw_fail_points]
        n = self.params["throw_fail_points"]
        self.adjust += n if SIDE[p["seat"]] == self.declarers else -n

    def on_concealment(self, p):  # 12.8
        if p["choice"] == "B":
            n = self.params["conceal_points"]
            self.adjust += n if SIDE[p["seat"]] == self.declarers else -n
        elif SIDE[p["seat"]] == self.declarers:
            self.settle_levels(OTHER[self.declarers], 0, at_a_declaring=False)
        else:
            self.settle_levels(self.declarers, 1, at_a_declaring=False)

    def multiplier(self, shapes) -> int:
        """12.5: by_shape single ×2, pair/triple/bomb ×4, k ranks ×2^k; power ×2^cards."""
        if self.params["kitty_multiplier"] == "by_shape":
            return max(2**k if k > 1 else (2 if t == 1 else 4) for t, k in shapes)
        return max(2 ** (t * k) for t, k in shapes)

    def on_trick(self, p):
        self.tricks.append(p)
        per = 54 * self.params["decks"] - self.params["kitty"]
        played = sum(len(x["cards"]) for t in self.tricks for x in t["plays"])
        ctx = TrumpContext.for_ruleset(self.level_of(self.declarers), self.trump, self.rules)
        plays = [parse_cards(x["cards"]) for x in p["plays"]]
        winner = SIDE[p["plays"][trick_winner(plays, ctx, ruleset=self.rules)]["seat"]]
        points = sum(card_points(x["cards"]) for x in p["plays"])
        if played < per:
            if winner != self.declarers:
                self.captured += points
            return
        lead = p["plays"][0]["cards"]
        assert len(set(lead)) == 1  # the simulator leads one card or identical cards
        self.finish(points, winner, [(len(lead), 1)])

    def on_hand_summary(self, p):
        self.captured = p["defenders_points_before_last"]
        if p.get("kitty_points") is not None:
            self.kitty = p["kitty_points"]
        shapes = [tuple(x) for x in p.get("last_lead_shape", [])]
        self.finish(p["last_trick_points"], p["last_trick_side"], shapes)

    def level_of(self, side: str) -> str:
        return LADDER[self.level[side]]

    def finish(self, last_points: int, last_side: str, shapes) -> None:
        d = self.captured + self.adjust
        defenders = OTHER[self.declarers]
        if last_side == defenders:  # 12.5: + the trick's points + kitty × m
            d += last_points + self.kitty * self.multiplier(shapes)
            if self.level[defenders] == 12:
                self.dug.add(defenders)  # 12.7: a dig at A
        table = max(d, 0)  # 12.6: D ≤ 0 counts as 0
        stage, step = self.params["stage"], self.params["step"]
        b = (table - stage) // step
        if b >= 0:
            gain = b
            side = defenders
        else:
            gain = -b + (self.params["shutout_bonus"] if table == 0 else 0)
            side = self.declarers
        if self.params["max_gain"] is not None:
            gain = min(gain, self.params["max_gain"])
        self.settle_levels(side, gain, at_a_declaring=side == self.declarers)

    def settle_levels(self, side: str, gain: int, *, at_a_declaring: bool) -> None:
        if self.level[side] == 12 and gain and at_a_declaring:
            if self.params["a_needs_dig"] and side not in self.dug:
                self.level[side] = LADDER.index(self.params["a_fallback"])  # 12.7: back to J
            else:
                self.end = side  # pass A
        else:
            self.level[side] = min(self.level[side] + gain, 12)
        self.dug = {s for s in self.dug if self.level[s] == 12}


@pytest.mark.parametrize(("name", "preset"), list(FILES.items()))
def test_preset_sample_replays_as_the_independent_walk(name: str, preset: str) -> None:
    events = load(name)
    assert verify_chain(events) is None
    state = replay(events)
    assert state.ruleset.name == state.preset == preset
    walk = PresetWalk(events, preset)
    assert state.end is not None and state.end.reason == "passed_a"
    assert state.end.winner.value == walk.end
    assert {s.value: lv.label for s, lv in state.levels.items()} == {
        s: LADDER[i] for s, i in walk.level.items()
    }
    assert not state.flags


def test_preset_samples_show_what_issue_12_asks() -> None:
    """Issue 12: per preset one match trick by trick with a failed throw and a kitty dig,
    one in summary form reaching A; 藏张 both ways; 001's fall back to J; 002's ×64."""
    seen: dict[str, set[str]] = {}
    for name in FILES:
        state = replay(load(name))
        arts = {c.article for c in state.consequences}
        texts = " ".join(c.text for c in state.consequences)
        detailed = [h for h in state.hands if h.form == "detailed"]
        seen[name] = arts
        if "detailed" in name:
            assert detailed and detailed[0].throw_failures and detailed[0].kitty is not None
            assert detailed[0].kitty.cards  # the buried cards were entered
            assert detailed[0].last_trick is not None and detailed[0].last_trick.multiplier
            assert detailed[0].last_trick.side == detailed[0].declarers.other  # a dig
        else:
            assert not detailed
        if name.startswith("08"):
            assert "12.7" in arts and "back to J" in texts
        if name.startswith("10"):
            assert "10×64" in texts  # 002 九.2: 445566 ×64
    conceal = {e.payload["choice"] for name in FILES for e in load(name) if e.type == "concealment"}
    assert conceal == {"A", "B"}
    assert all("12.5" in arts and "12.1" in arts for arts in seen.values())


def test_the_forced_component_leads_the_next_trick() -> None:
    """12.4: after the failed throw the thrower leads only the forced component."""
    events = load("07_qq_four_deck_detailed_throw_kitty.jsonl")
    i = next(i for i, e in enumerate(events) if e.type == "throw_failed")
    failed, trick = events[i], events[i + 1]
    state = replay(events[: i + 1])
    forced = state.current_hand.forced_lead
    assert trick.type == "trick" and trick.payload["leader"] == failed.payload["seat"]
    assert (tuple(sorted(trick.payload["plays"][0]["cards"])),) == forced


@pytest.mark.parametrize("name", list(FILES))
def test_preset_samples_pass_the_json_schema(name: str) -> None:
    """Every event of a preset sample matches the schema, and the check is not a no-op."""
    events = load(name)
    for event in events:
        validate_schema(event.to_dict())  # raises SchemaRefused naming the field
    assert replay(events, check_schema=True) == replay(events)
    bad = events[-1].to_dict()
    bad["payload"] = {**bad["payload"], "no_such_field": 1}
    with pytest.raises(SchemaRefused, match="no_such_field"):
        validate_schema(bad)
