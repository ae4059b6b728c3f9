"""The sample matches in sample_events/: each replayed result is checked against an
independent walk of the record that applies the article arithmetic itself
(7.1-7.3, 8.2, 8.3, 8.8, 8.10, 8.11, 1.5), not the replay's own numbers."""

from __future__ import annotations

import importlib.util
import json
from datetime import datetime
from pathlib import Path

import pytest

from referee_desk.match import Event, replay, verify_chain
from referee_desk.rules.cards import parse_cards, points_of
from referee_desk.rules.trick import trick_winner
from referee_desk.rules.trump import TrumpContext

SAMPLES = Path(__file__).resolve().parents[2] / "sample_events"
LADDER = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
NEXT = {"N": "W", "W": "S", "S": "E", "E": "N"}  # counter-clockwise play order
SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
OTHER = {"NS": "EW", "EW": "NS"}

EXPECTED_FILES = {
    "01_pass_a_detailed.jsonl": "passed_a",
    "02_time_out_by_level.jsonl": "time_out",
    "03_time_out_equal_levels_deal.jsonl": "time_out",
    "04_false_bid_wrong_dealer.jsonl": "time_out",
    "05_conduct_disqualification.jsonl": "disqualification",
    "06_forfeit.jsonl": "forfeit",
}


def load(name: str) -> list[Event]:
    with (SAMPLES / name).open(encoding="utf-8") as f:
        return [Event.from_dict(json.loads(line)) for line in f if line.strip()]


def ms(text: str) -> int:
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


class Walk:
    """An independent, minimal walk of a record: levels, deal and the end."""

    def __init__(self, events: list[Event]) -> None:
        self.level = {"NS": 0, "EW": 0}
        self.end: tuple[str, str] | None = None
        self.holder: str | None = None
        self.hand = False
        self.misplay = 10
        self.limit = 120 * 60_000
        self.running_since: int | None = None
        self.elapsed = 0
        self.warnings = {"NS": 0, "EW": 0}
        self.started = False
        fixes = {}
        for e in events:
            if e.type == "correction":
                fixes[e.payload["target_seq"]] = e.payload
        for e in events:
            fix = fixes.get(e.seq)
            if fix and fix["action"] == "void":
                continue
            payload = fix["payload"] if fix else e.payload
            at = ms(e.recorded_at)
            if self.end is None and not self.hand and self.time_up(at):
                self.time_out()
            getattr(self, "on_" + e.type, lambda p, at: None)(payload, at)

    # clock (1.5)
    def time_up(self, at: int) -> bool:
        if not self.started:
            return False
        run = self.elapsed + (at - self.running_since if self.running_since is not None else 0)
        return run >= self.limit

    def time_out(self) -> None:
        ns, ew = self.level["NS"], self.level["EW"]
        self.end = ("time_out", "NS" if ns > ew else "EW" if ew > ns else self.holder)

    def on_match_opened(self, p, at):
        self.misplay = p["ruleset"]["params"]["misplay_points_per_card"]
        self.limit = p["ruleset"]["params"]["match_minutes"] * 60_000

    def on_clock_started(self, p, at):
        self.started = True
        self.running_since = at

    def on_clock_paused(self, p, at):
        self.elapsed += at - self.running_since
        self.running_since = None

    def on_clock_resumed(self, p, at):
        self.running_since = at

    # hands
    def on_hand_started(self, p, at):
        self.hand, self.dealer, self.adj, self.captured = True, p["dealer"], 0, 0
        self.played = 0
        self.race = p["dealer"] is None

    def on_bidding_closed(self, p, at):
        self.dealer = p["dealer"]
        self.declarers = SIDE[self.dealer]
        self.ctx = TrumpContext.of(LADDER[self.level[self.declarers]], p["trump"])
        if self.race:
            self.holder = self.declarers

    def on_wrong_play(self, p, at):  # 8.2
        sign = 1 if SIDE[p["seat"]] == self.declarers else -1
        self.adj += sign * self.misplay * p["cards_exposed"]

    def on_committee_ruling(self, p, at):  # 8.11
        for side, n in p.get("level_changes", {}).items():
            self.level[side] += n
        self.adj += p.get("defenders_points") or 0

    def on_hand_summary(self, p, at):  # 7.3
        dig = p["last_trick_points"] * p["last_trick_cards_per_player"]
        sign = 1 if p["last_trick_side"] != self.declarers else -1
        self.settle(p["defenders_points_before_last"] + self.adj + sign * dig)

    def on_trick(self, p, at):
        plays = [parse_cards(x["cards"]) for x in p["plays"]]
        seats = [x["seat"] for x in p["plays"]]
        winner = seats[trick_winner(plays, self.ctx)]
        self.played += len(plays[0])
        pts = points_of(c for cards in plays for c in cards)
        if not p.get("last") and self.played < 54:
            if SIDE[winner] != self.declarers:
                self.captured += pts
            return
        sign = 1 if SIDE[winner] != self.declarers else -1
        self.settle(self.captured + self.adj + sign * pts * len(plays[0]))

    def on_revoke(self, p, at):
        self.offender = SIDE[p["seat"]]
        self.revoke_points = p.get("defenders_points")

    def on_penalty_choice(self, p, at):  # 8.3
        chooser = OTHER[self.offender]
        if p["choice"] == "A":
            self.level[chooser] = min(11, self.level[chooser] + 2)
            self.after_hand(chooser)
        else:
            delta = 160 if self.offender == self.declarers else -160
            self.settle(self.revoke_points + self.adj + delta)

    def settle(self, d: int) -> None:  # 7.1, 7.2, 1.5
        b = (d - 160) // 40
        winner = OTHER[self.declarers] if b >= 0 else self.declarers
        gain = abs(b)
        if winner == self.declarers and self.level[winner] == 11 and gain > 0:
            self.end = ("passed_a", winner)
        self.level[winner] = min(11, self.level[winner] + gain)
        self.after_hand(winner)

    def after_hand(self, winner: str) -> None:
        self.hand = False
        self.holder = winner

    def on_wrong_dealer(self, p, at):  # 8.5
        self.hand = False

    def on_redeal(self, p, at):  # 2.1, no_bid
        self.hand = False

    def on_conduct_warning(self, p, at):
        self.warnings[SIDE[p["seat"]]] += 1

    def on_committee_decision(self, p, at):  # 8.8
        assert self.warnings[p["side"]] >= 2
        if p["decision"] == "disqualification":
            self.end = ("disqualification", OTHER[p["side"]])

    def on_forfeit(self, p, at):  # 8.10
        self.end = ("forfeit", OTHER[p["side"]])


def test_there_are_at_least_six_samples():
    assert sorted(p.name for p in SAMPLES.glob("*.jsonl")) == sorted(EXPECTED_FILES)


@pytest.mark.parametrize("name", sorted(EXPECTED_FILES))
def test_sample_replays_to_its_independently_computed_result(name):
    events = load(name)
    assert verify_chain(events) is None
    state = replay(events, check_schema=True)
    walk = Walk(events)
    assert walk.end is not None
    assert (state.end.reason, state.end.winner.value) == walk.end
    assert walk.end[0] == EXPECTED_FILES[name]
    assert {s.value: lv.label for s, lv in state.levels.items()} == {
        s: LADDER[i] for s, i in walk.level.items()
    }
    ended = [e for e in events if e.type == "match_ended"]
    assert len(ended) == 1 and (ended[0].payload["reason"], ended[0].payload["winner"]) == walk.end
    assert state.end.recorded


def test_sample_with_a_whole_hand_trick_by_trick():
    events = load("01_pass_a_detailed.jsonl")
    state = replay(events)
    detailed = [h for h in state.hands if h.form == "detailed"]
    assert detailed and detailed[0].cards_played == {s: 54 for s in detailed[0].cards_played}
    cards = [c for e in events if e.type == "trick" for p in e.payload["plays"] for c in p["cards"]]
    assert len(cards) == 216
    assert not state.flags


def test_samples_use_every_event_type():
    """The Guilin samples and the preset samples (RULES 12) together use every type."""
    from referee_desk.match import EVENT_TYPES

    names = [*EXPECTED_FILES, *(f"presets/{p.name}" for p in (SAMPLES / "presets").glob("*"))]
    used = {e.type for name in names for e in load(name)}
    assert used == set(EVENT_TYPES)


def test_samples_cover_every_violation():
    kinds = {v.article for name in EXPECTED_FILES for v in replay(load(name)).violations}
    assert {"8.1", "8.2", "8.3", "8.5", "8.6", "8.8", "8.9", "8.10"} <= kinds
    choices = {
        e.payload["choice"]
        for name in EXPECTED_FILES
        for e in load(name)
        if e.type == "penalty_choice"
    }
    assert choices == {"A", "B"}


def test_generator_is_deterministic():
    spec = importlib.util.spec_from_file_location("make_samples", SAMPLES / "make_samples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, build in module.SAMPLES.items():
        lines = [
            json.dumps(e.to_dict(), ensure_ascii=False, sort_keys=True) for e in build().rec.events
        ]
        committed = (SAMPLES / name).read_text(encoding="utf-8").splitlines()
        assert lines == committed, name
