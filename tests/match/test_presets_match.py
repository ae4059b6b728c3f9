"""The presets in the match record (RULES.md 12; seeds 001 and 002): levels from 2, no
time limit, open bidding, the kitty, failed throws, 藏张 and the dig at A."""

from __future__ import annotations

import pytest
from match_table import Table

from referee_desk.match import EventRefused
from referee_desk.rules.cards import Rank
from referee_desk.rules.seats import Side


def preset_table(preset: str, **params) -> Table:
    return Table(preset=preset, **params).start()


def race(t: Table, dealer: str = "N", suit: str = "H", cards: int = 1) -> None:
    """12.3 抢亮: the opening hand's bid shows level cards only."""
    t.ev("hand_started", {"dealer": None})
    level = t.state.levels[Side.NS if dealer in "NS" else Side.EW].label
    t.ev("bid", {"seat": dealer, "kind": "dark", "cards": [suit + level] * cards})
    t.ev("bidding_closed", {"dealer": dealer, "trump": suit})


def summary(t: Table, before: int, last: int, cards: int, side: str, **extra) -> None:
    payload = {
        "defenders_points_before_last": before,
        "last_trick_points": last,
        "last_trick_cards_per_player": cards,
        "last_trick_side": side,
        **extra,
    }
    t.ev("hand_summary", payload, after=900)


def refusal(t: Table, type: str, payload: dict) -> EventRefused:
    before = len(t.events)
    with pytest.raises(EventRefused) as info:
        t.ev(type, payload)
    assert len(t.events) == before
    return info.value


# ------------------------------------------------------------------ 12.1, 12.8 the match


@pytest.mark.parametrize("preset", ["qq-four-deck", "three-deck"])
def test_levels_start_at_two_and_there_is_no_time_limit(preset: str) -> None:
    """12.1 [P levels=2..A] (002: 首盘从2打起); 12.8 [P match_minutes=none]."""
    t = preset_table(preset)
    assert t.state.levels == {Side.NS: Rank.TWO, Side.EW: Rank.TWO}
    assert t.state.preset == preset and not t.state.clock.has_limit
    race(t)
    summary(t, 100, 0, 1, "NS", kitty_points=0)
    t.ev("hand_started", {"dealer": t.state.next_dealer.value}, after=600 * 60)  # 10 h later
    assert t.state.end is None


def test_guilin_keeps_its_start_and_limit() -> None:
    t = Table().start()
    assert t.state.levels[Side.NS] == Rank.THREE and t.state.clock.has_limit


# ------------------------------------------------------------------ 12.3 bidding


def test_presets_bid_level_cards_without_a_joker() -> None:
    """12.3: `qq-four-deck` and `three-deck` bid openly by showing level cards, no LJ."""
    t = preset_table("qq-four-deck")
    t.ev("hand_started", {"dealer": None})
    err = refusal(t, "bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H2"]})
    assert err.key == "bid.no_joker_in_preset" and "12.3" in str(err)
    t.ev("bid", {"seat": "N", "kind": "dark", "cards": ["H2"]})
    assert refusal(t, "open_bid", {"seat": "E"}).key == "bid.open_in_preset"
    g = Table().start()
    g.ev("hand_started", {"dealer": None})
    assert "LJ" in g.refused("bid", {"seat": "N", "kind": "dark", "cards": ["H3"]})


def test_counters_need_more_cards_at_most_decks() -> None:
    """12.3 / 002 九.1: 南家用两张10亮主，西家可用三张10反主，东家则不能再用两张10反主;
    四张10 cannot happen with three decks (*decided*: at most `decks`)."""
    t = preset_table("three-deck")
    t.ev("hand_started", {"dealer": None})
    t.ev("bid", {"seat": "S", "kind": "dark", "cards": ["H2", "H2"]})
    t.ev("bid", {"seat": "W", "kind": "counter", "cards": ["S2", "S2", "S2"]})
    assert "more level cards" in t.refused(
        "bid", {"seat": "E", "kind": "counter", "cards": ["D2", "D2"]}
    )
    assert "only 3 copies" in t.refused(
        "bid", {"seat": "E", "kind": "counter", "cards": ["D2"] * 4}
    )


# ------------------------------------------------------------------ 12.1 / 12.5 kitty


def test_kitty_buried_cards_or_points() -> None:
    """12.1: the desk records the buried cards when entered, or only their points."""
    t = preset_table("three-deck")
    race(t, "N")
    bad = {"seat": "E", "cards": ["S3"] * 6}
    assert refusal(t, "kitty_buried", bad).key == "kitty.not_dealer"
    assert refusal(t, "kitty_buried", {"seat": "N", "cards": ["S3"]}).key == "kitty.card_count"
    four = {"seat": "N", "cards": ["S3"] * 4 + ["S4", "S5"]}
    assert refusal(t, "kitty_buried", four).key == "kitty.too_many_copies"
    mismatch = {"seat": "N", "cards": ["S3", "S4", "S5", "SK", "S10", "S9"], "points": 20}
    assert refusal(t, "kitty_buried", mismatch).key == "kitty.points_mismatch"
    assert refusal(t, "kitty_buried", {"seat": "N"}).key == "kitty.points_missing"
    t.ev("kitty_buried", {"seat": "N", "cards": ["S3", "S4", "S5", "SK", "S10", "S9"]})
    kitty = t.state.current_hand.kitty
    assert kitty is not None and kitty.points == 25 and len(kitty.cards) == 6
    assert refusal(t, "kitty_buried", {"seat": "N", "points": 10}).key == "kitty.twice"
    g = Table().start()
    g.race_hand("N", "H")
    assert "Guilin 2009 has no kitty" in g.refused("kitty_buried", {"seat": "N", "points": 10})


def test_summary_dig_multiplies_the_kitty() -> None:
    """12.5 power_of_cards (002 九.2): 445566 ×64; the trick's own points count as any."""
    t = preset_table("three-deck")
    race(t, "N")
    t.ev("kitty_buried", {"seat": "N", "points": 10})
    err = refusal(
        t,
        "hand_summary",
        {
            "defenders_points_before_last": 40,
            "last_trick_points": 10,
            "last_trick_cards_per_player": 6,
            "last_trick_side": "EW",
        },
    )
    assert err.key == "kitty.shape_needed"
    summary(t, 40, 10, 6, "EW", last_lead_shape=[[2, 3]])
    hand = t.state.hands[-1]
    assert hand.result.defenders_final == 40 + 10 + 10 * 64
    assert hand.last_trick.multiplier == 64 and hand.last_trick.lead_shape == ((2, 3),)


def test_summary_kitty_is_refused_without_a_kitty() -> None:
    g = Table().start()
    g.race_hand("N", "H")
    msg = g.refused(
        "hand_summary",
        {
            "defenders_points_before_last": 40,
            "last_trick_points": 0,
            "last_trick_cards_per_player": 1,
            "last_trick_side": "EW",
            "kitty_points": 10,
        },
    )
    assert "no kitty" in msg


def test_the_declarers_winning_the_last_trick_leave_the_kitty() -> None:
    """12.5: when the declarers win the last trick nothing changes (no 反抠); 12.6 qq:
    40–75 → declarers +1."""
    t = preset_table("qq-four-deck")
    race(t, "N")
    summary(t, 40, 20, 2, "NS", kitty_points=25)
    result = t.state.hands[-1].result
    assert result.defenders_final == 40 and result.gains[Side.NS] == 1


# ------------------------------------------------------------------ 12.4 failed throws


def test_failed_throw_is_checked_and_forces_the_lead() -> None:
    """12.4: `SA SK` against a shown `SA`: the single K is beaten (the A is equal), so
    the thrower leads only the K; 001 takes no points."""
    t = preset_table("qq-four-deck")
    race(t, "N")
    base = {"seat": "N", "thrown": ["SA", "SK"], "shown_by": "W", "shown": ["SA"]}
    assert refusal(t, "throw_failed", {**base, "seat": "E"}).key == "throw.not_leader"
    assert refusal(t, "throw_failed", {**base, "shown_by": "S"}).key == "throw.shown_by_partner"
    assert refusal(t, "throw_failed", {**base, "shown": ["SQ"]}).key == "throw.stands"
    not_throw = {**base, "thrown": ["SA", "HK"]}
    assert refusal(t, "throw_failed", not_throw).key == "throw.not_a_throw"
    assert refusal(t, "throw_failed", {**base, "forced": ["SA"]}).key == "throw.bad_forced"
    t.ev("throw_failed", base)
    hand = t.state.current_hand
    failure = hand.throw_failures[0]
    assert failure.forced == ("SK",) and failure.points == 0 and hand.forced_lead == (("SK",),)
    wrong = {
        "leader": "N",
        "plays": [
            {"seat": "N", "cards": ["SQ"]},
            {"seat": "W", "cards": ["S3"]},
            {"seat": "S", "cards": ["S4"]},
            {"seat": "E", "cards": ["S5"]},
        ],
    }
    assert refusal(t, "trick", wrong).key == "throw.forced_lead"
    wrong["plays"][0]["cards"] = ["SK"]
    t.ev("trick", wrong)
    assert t.state.current_hand.forced_lead == ()


def test_failed_throw_costs_twenty_in_three_deck() -> None:
    """12.4 [P throw_fail_points=20] (002 八.2: 甩错牌…一次扣罚20分): from the defenders
    when a defender threw."""
    t = preset_table("three-deck")
    race(t, "N")
    t.ev(
        "trick",
        {
            "leader": "N",
            "plays": [
                {"seat": "N", "cards": ["C3"]},
                {"seat": "W", "cards": ["CA"]},
                {"seat": "S", "cards": ["C4"]},
                {"seat": "E", "cards": ["C5"]},
            ],
        },
    )
    t.ev(
        "throw_failed",
        {"seat": "W", "thrown": ["DK", "DK", "DQ"], "shown_by": "N", "shown": ["DA", "DA"]},
    )
    hand = t.state.current_hand
    assert hand.throw_failures[0].points == -20
    assert hand.defenders_points == 5 - 20
    assert hand.throw_failures[0].forced == ("DQ",)
    assert any(v.article == "12.4" for v in t.state.violations)


@pytest.mark.parametrize(
    ("preset", "trump", "thrown", "shown", "pairs"),
    [
        ("qq-four-deck", "S", "SA SA C2 C2 D2 D2", "S2 S2", ("C2", "D2")),
        ("three-deck", "S", "SA SA C2 C2 H2 H2", "S2 S2", ("C2", "H2")),
        ("qq-four-deck", "C", "H2 H2 CA CA D2 D2", "C2 C2 LJ LJ", ("D2", "H2")),
        ("three-deck", "C", "H2 H2 CA CA D2 D2", "C2 C2 LJ LJ", ("D2", "H2")),
    ],
)
def test_equal_beaten_components_either_may_be_named(
    preset: str, trump: str, thrown: str, shown: str, pairs: tuple[str, str]
) -> None:
    """12.4 "Two beaten components equal in size and rank: either; the referee names
    it"; 12.2 "Two off-suit level pairs of different suits are equal": the trump-suit A
    pair chains with either off-suit level pair, so either pair is the beaten one
    (issue 19: `D2 D2` was refused, "the thrower leads … C2 C2, not D2 D2")."""
    base = {"seat": "N", "thrown": thrown.split(), "shown_by": "E", "shown": shown.split()}
    for card in pairs:
        t = preset_table(preset)
        race(t, "N", trump)
        assert refusal(t, "throw_failed", base).key == "throw.name_forced"
        t.ev("throw_failed", {**base, "forced": [card, card]})
        hand = t.state.current_hand
        assert hand.throw_failures[0].forced == (card, card)
        assert hand.forced_lead == ((card, card),)
    t = preset_table(preset)
    race(t, "N", trump)
    assert refusal(t, "throw_failed", {**base, "forced": ["SA", "SA"]}).key == "throw.bad_forced"


def test_guilin_refuses_throw_failures() -> None:
    g = Table().start()
    g.race_hand("N", "H")
    msg = g.refused(
        "throw_failed", {"seat": "N", "thrown": ["SA", "SK"], "shown_by": "W", "shown": ["SA"]}
    )
    assert "4.7" in msg


# ------------------------------------------------------------------ 12.8 藏张


def test_concealment_choice_a_ends_the_hand() -> None:
    """12.8 (002 八.1 判敌方自动下台或己方自动升级): offenders declaring → the defenders
    take the deal (+0); offenders defending → the declarers +1 and keep it."""
    t = preset_table("three-deck")
    race(t, "N")
    assert refusal(t, "concealment", {"seat": "N", "chooser": "S", "choice": "A"}).key == (
        "conceal.chooser_side"
    )
    t.ev("concealment", {"seat": "S", "chooser": "E", "choice": "A"})
    result = t.state.hands[-1].result
    assert result.taken and result.winner == Side.EW and result.gains[Side.EW] == 0
    t.ev("hand_started", {"dealer": t.state.next_dealer.value})
    t.ev("bidding_closed", {"dealer": t.state.next_dealer.value, "trump": "NT"})
    declarers = t.state.current_hand.declarers
    offender = "N" if declarers == Side.EW else "E"
    chooser = "E" if offender == "N" else "N"
    t.ev("concealment", {"seat": offender, "chooser": chooser, "choice": "A"})
    result = t.state.hands[-1].result
    assert not result.taken and result.gains[declarers] == 1


def test_concealment_choice_b_moves_sixty_and_play_goes_on() -> None:
    """12.8 B [P conceal_points=60] (002: 扣除60分或增加60分，比赛仍继续)."""
    t = preset_table("three-deck")
    race(t, "N")
    t.ev("concealment", {"seat": "W", "chooser": "N", "choice": "B"})
    hand = t.state.current_hand
    assert hand is not None and hand.defenders_points == -60
    assert hand.concealments[0].points == -60
    summary(t, 100, 0, 1, "NS", kitty_points=0)
    assert t.state.hands[-1].result.defenders_final == 40


def test_concealment_and_revoke_belong_to_their_rulesets() -> None:
    """12.8: 藏张 replaces 劳改 in three-deck; qq-four-deck keeps Guilin's 劳改."""
    t = preset_table("three-deck")
    race(t, "N")
    revoke = {"seat": "W", "kind": "withheld"}
    assert refusal(t, "revoke", revoke).key == "conceal.replaces_revoke"
    q = preset_table("qq-four-deck")
    race(q, "N")
    conceal = {"seat": "W", "chooser": "N", "choice": "B"}
    assert refusal(q, "concealment", conceal).key == "conceal.not_in_ruleset"
    q.ev("revoke", revoke)


# ------------------------------------------------------------------ 12.7 level A


def test_qq_a_without_a_dig_falls_back_to_j() -> None:
    """12.7 (001): 当一方打到A时，必须至少抠一次底才能算通过…退回到J."""
    t = preset_table("qq-four-deck")
    race(t, "N")
    t.ev("committee_ruling", {"text": "测试：南北方级数调至A", "level_changes": {"NS": 12}})
    assert t.state.levels[Side.NS] == Rank.ACE
    summary(t, 40, 0, 1, "NS", kitty_points=0)  # NS win at A as declarers, no dig
    assert t.state.levels[Side.NS] == Rank.JACK and t.state.end is None
    assert any(c.article == "12.7" for c in t.state.consequences)


def test_qq_a_after_a_dig_passes_a() -> None:
    t = preset_table("qq-four-deck")
    race(t, "E")  # EW declare, NS defend
    t.ev("committee_ruling", {"text": "测试：南北方级数调至A", "level_changes": {"NS": 12}})
    summary(t, 60, 10, 1, "NS", kitty_points=10, last_lead_shape=[[1, 1]])  # NS dig at A
    assert Side.NS in t.state.dug_at_a
    t.ev("hand_started", {"dealer": t.state.next_dealer.value})
    t.ev("bidding_closed", {"dealer": t.state.next_dealer.value, "trump": "NT"})
    summary(t, 40, 0, 1, "NS", kitty_points=0)
    assert t.state.end is not None and t.state.end.winner == Side.NS


def test_nobody_bids_in_the_opening_hand_redeals() -> None:
    """12.3: nobody bids: opening hand redealt (as Guilin's default)."""
    t = preset_table("qq-four-deck")
    t.ev("hand_started", {"dealer": None})
    assert "redeal" in t.refused("bidding_closed", {"dealer": "N", "trump": "NT"})
    t.ev("redeal", {"reason": "四家均未亮牌"})
    assert t.state.hands[-1].status == "voided"


@pytest.mark.parametrize(
    ("type", "payload"),
    [
        ("concealment", {"seat": "W", "chooser": "N", "choice": "C"}),
        ("kitty_buried", {"seat": "N", "points": 7}),
        ("throw_failed", {"seat": "N", "thrown": ["SA"], "shown_by": "W", "shown": ["SA"]}),
        ("throw_failed", {"seat": "N", "thrown": ["SA", "SK"], "shown_by": "W"}),
    ],
)
def test_schema_refuses_malformed_preset_events(type: str, payload: dict) -> None:
    """docs/events.md: the JSON Schema of the new events (choice A/B, points in 5s, a
    throw of two or more cards, the shown cards required)."""
    from referee_desk.match import SchemaRefused

    t = preset_table("three-deck")
    race(t, "N")
    with pytest.raises(SchemaRefused):
        t.ev(type, payload)


def test_equal_beaten_components_are_named_by_the_referee() -> None:
    """12.4: two beaten components equal in size and rank: either; the referee names it.
    Level 5, trump ♥: the throw ♠5 ♦5 (two off-suit level cards, equal) against a shown
    ♥5 (the trump-suit level card beats both)."""
    t = preset_table("qq-four-deck")
    t.ev("hand_started", {"dealer": None})
    t.ev("committee_ruling", {"text": "测试：南北方级数调至5", "level_changes": {"NS": 3}})
    t.ev("bid", {"seat": "N", "kind": "dark", "cards": ["H5"]})
    t.ev("bidding_closed", {"dealer": "N", "trump": "H"})
    base = {"seat": "N", "thrown": ["S5", "D5"], "shown_by": "E", "shown": ["H5"]}
    assert refusal(t, "throw_failed", base).key == "throw.name_forced"
    t.ev("throw_failed", {**base, "forced": ["D5"]})
    assert t.state.current_hand.forced_lead == (("D5",),)


@pytest.mark.parametrize(("preset", "article"), [("three-deck", "12.8"), ("qq-four-deck", "8.3")])
def test_a_play_after_showing_void_cites_the_presets_rule(preset: str, article: str) -> None:
    """RULES 12.8: in three-deck a card held back is 藏张 (not 劳改, 8.3); qq keeps 8.3."""
    t = preset_table(preset)
    race(t, "N", "H")
    t.ev(
        "trick",
        {
            "leader": "N",
            "plays": [
                {"seat": "N", "cards": ["SA"]},
                {"seat": "W", "cards": ["C4"]},  # W shows void in spades ...
                {"seat": "S", "cards": ["S6"]},
                {"seat": "E", "cards": ["S8"]},
            ],
        },
    )
    t.ev(
        "trick",
        {
            "leader": "N",
            "plays": [
                {"seat": "N", "cards": ["SK"]},
                {"seat": "W", "cards": ["S9"]},  # ... and plays one after all
                {"seat": "S", "cards": ["S7"]},
                {"seat": "E", "cards": ["D8"]},
            ],
        },
    )
    void = [f for f in t.state.flags if "after showing void" in str(f)]
    assert void and all(f.article == article for f in void)
