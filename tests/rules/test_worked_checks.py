"""RULES.md section 11, worked checks about units, following and tricks.

(The hand-result check — 155 points, last trick of pairs — belongs to the result tests.)
"""

from __future__ import annotations

from itertools import combinations, pairwise

from referee_desk.rules.cards import parse_cards
from referee_desk.rules.follow import check_follow, follow_requirement
from referee_desk.rules.trick import trick_winner
from referee_desk.rules.trump import TrumpContext
from referee_desk.rules.units import UnitKind, classify


def kind(cards: str, ctx: TrumpContext) -> UnitKind | None:
    u = classify(parse_cards(cards), ctx)
    return None if u is None else u.kind


def test_level_4_spades_33_55_is_not_a_tractor_55_66_is() -> None:
    """11: Level 4, trump ♠: ♥33 ♥55 is not a tractor; ♥55 ♥66 is."""
    ctx = TrumpContext.of("4", "S")
    assert kind("H3 H3 H5 H5", ctx) is None
    assert kind("H5 H5 H6 H6", ctx) is UnitKind.TRACTOR


def test_level_5_hearts_22aakk_aakkqq_aaakkkqqq() -> None:
    """11: Level 5, trump ♥: ♥22♥AA♥KK no tractor; ♥AA♥KK♥QQ is; ♥AAA♥KKK♥QQQ bulldozer."""
    ctx = TrumpContext.of("5", "H")
    assert kind("H2 H2 HA HA HK HK", ctx) is None
    assert kind("HA HA HK HK HQ HQ", ctx) is UnitKind.TRACTOR
    assert kind("HA HA HA HK HK HK HQ HQ HQ", ctx) is UnitKind.BULLDOZER


def test_jokers_are_the_highest_trump_tractor() -> None:
    """11: BJ BJ LJ LJ is the highest trump tractor; LJ LJ + trump-suit level pair is none."""
    ctx = TrumpContext.of("9", "S")
    jokers = parse_cards("BJ BJ LJ LJ")
    assert kind("BJ BJ LJ LJ", ctx) is UnitKind.TRACTOR
    assert kind("LJ LJ S9 S9", ctx) is None
    # every other two-pair trump tractor in this context loses to the jokers, led or not
    trump_ranks = ["A", "K", "Q", "J", "10", "8", "7", "6", "5", "4", "3"]
    checked = 0
    for high, low in pairwise(trump_ranks):
        other = parse_cards(f"S{high} S{high} S{low} S{low}")
        if classify(other, ctx) is None:
            assert (high, low) == ("10", "8")  # the level 9 gap (3.1)
            continue
        checked += 1
        assert trick_winner([other, jokers], ctx) == 1
        assert trick_winner([jokers, other], ctx) == 0
    assert checked == 9
    # ... also against a side-suit tractor lead it ruffs
    assert trick_winner([parse_cards("HA HA HK HK"), parse_cards("SA SA SK SK"), jokers], ctx) == 2


def test_level_9_bomb_and_ruff() -> None:
    """11 / 6.4 / 6.5: lead ♥AA♥KK: ♥6666 beats it; a trump tractor then does not beat
    the ♥6666, a trump bomb does. Lead ♥AA♥KK, ♠33♠44 ruffs, ♥7777 after it: ♠ stays."""
    ctx = TrumpContext.of("9", "S")
    lead, bomb = parse_cards("HA HA HK HK"), parse_cards("H6 H6 H6 H6")
    assert trick_winner([lead, bomb], ctx) == 1
    assert trick_winner([lead, bomb, parse_cards("S3 S3 S4 S4")], ctx) == 1
    assert trick_winner([lead, bomb, parse_cards("BJ BJ LJ LJ")], ctx) == 1
    assert trick_winner([lead, bomb, parse_cards("S3 S3 S3 S3")], ctx) == 2
    ruff = parse_cards("S3 S3 S4 S4")
    assert trick_winner([lead, ruff, parse_cards("H7 H7 H7 H7")], ctx) == 1


def test_bulldozer_lead_must_be_followed_by_the_bulldozer() -> None:
    """11 / 4.6: lead ♥888999; holding ♥555666 and ♥JJQQKK the follower must play ♥555666."""
    ctx = TrumpContext.of("10", "S")
    lead = parse_cards("H8 H8 H8 H9 H9 H9")
    hand = parse_cards("H5 H5 H5 H6 H6 H6 HJ HJ HQ HQ HK HK S3 C4")
    assert check_follow(lead, hand, parse_cards("H5 H5 H5 H6 H6 H6"), ctx).legal
    wrong = check_follow(lead, hand, parse_cards("HJ HJ HQ HQ HK HK"), ctx)
    assert not wrong.legal and wrong.rule == "4.6"
    assert sorted(wrong.instead or ()) == sorted(parse_cards("H5 H5 H5 H6 H6 H6"))
    # the bulldozer is the only legal six-card play of ♥
    hearts = [c for c in hand if c.suit is not None and c.suit.value == "H"]
    legal = {
        tuple(sorted(p)) for p in combinations(hearts, 6) if check_follow(lead, hand, p, ctx).legal
    }
    assert legal == {tuple(sorted(parse_cards("H5 H5 H5 H6 H6 H6")))}


def test_eight_card_tractor_lead_three_pair_tractor_plus_pair() -> None:
    """11 / 4.3: 8-card tractor lead; holding a three-pair tractor, a pair and other cards
    of the suit but no four-pair tractor, the follower must play tractor + pair."""
    ctx = TrumpContext.of("9", "S")
    lead = parse_cards("HA HA HK HK HQ HQ HJ HJ")
    hand = parse_cards("H3 H3 H4 H4 H5 H5 H8 H8 H10 H6 H7 C3 C4")
    req = follow_requirement(lead, hand, ctx)
    assert req.key == (0, (3, 1))
    assert check_follow(lead, hand, parse_cards("H3 H3 H4 H4 H5 H5 H8 H8"), ctx).legal
    for wrong in ("H3 H3 H4 H4 H8 H8 H6 H7", "H3 H3 H4 H4 H5 H5 H6 H7", "H3 H3 H4 H4 H5 H5 H8 C3"):
        verdict = check_follow(lead, hand, parse_cards(wrong), ctx)
        assert not verdict.legal and verdict.rule == "4.3", wrong
