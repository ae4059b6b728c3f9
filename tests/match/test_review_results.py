"""Review: hand results from summaries (7.1-7.3), levels, the deal, rotation and 2.3.

Every expected value is worked out by hand from RULES.md 7:
b = ⌊(D − 160) / 40⌋; b ≥ 0 → defenders take the deal and go up b; b < 0 → declarers
keep the deal and go up −b; no gain passes A; kept → dealer's partner deals next,
taken → the player after the dealer in play order N → W → S → E.
"""

from __future__ import annotations

import pytest
from test_review_helpers import Desk, started

from referee_desk.rules.seats import Seat, Side

# One hand won in the race by N (NS declarers at 3, EW defenders at 3).
# (before, last points, cards each, last-trick side, D, NS, EW, holder, next dealer, article)
SINGLE_HAND = [
    # 7.2: 100 → b = ⌊−60/40⌋ = −2 → NS +2, keep (连庄); next: N's partner S.
    (100, 0, 1, "NS", 100, "5", "3", "NS", "S", "7.2"),
    # RULES 11 worked check: 155 − 25×2 = 105 → b = −2 → declarers +2.
    (155, 25, 2, "NS", 105, "5", "3", "NS", "S", "7.2"),
    # 155 → b = ⌊−5/40⌋ = −1 → +1 (120–155: +1).
    (155, 0, 1, "NS", 155, "4", "3", "NS", "S", "7.2"),
    # 120 → b = −1 → +1.
    (120, 0, 1, "NS", 120, "4", "3", "NS", "S", "7.2"),
    # 115 → b = ⌊−45/40⌋ = −2 → +2 (80–115: +2).
    (115, 0, 1, "NS", 115, "5", "3", "NS", "S", "7.2"),
    # 40 → b = −3 → +3 (40–75).
    (40, 0, 1, "NS", 40, "6", "3", "NS", "S", "7.2"),
    # 35 → b = ⌊−125/40⌋ = −4 → +4 (0–35).
    (35, 0, 1, "NS", 35, "7", "3", "NS", "S", "7.2"),
    # 0 → b = −4 → +4.
    (0, 0, 1, "NS", 0, "7", "3", "NS", "S", "7.2"),
    # 30 − 35×1 = −5 → b = ⌊−165/40⌋ = −5 → +5 (−40…−5: +5).
    (30, 35, 1, "NS", -5, "8", "3", "NS", "S", "7.2"),
    # 0 − 40 = −40 → b = −5 → +5.
    (0, 40, 1, "NS", -40, "8", "3", "NS", "S", "7.2"),
    # 5 − 25×2 = −45 → b = ⌊−205/40⌋ = −6 → +6.
    (5, 25, 2, "NS", -45, "9", "3", "NS", "S", "7.2"),
    # 240 − 50×4 = 40 → b = −3 → +3 (a declarers' dig of quadruples).
    (240, 50, 4, "NS", 40, "6", "3", "NS", "S", "7.2"),
    # 7.1: 120 + 20×2 = 160 → b = 0: EW take the deal (上台), +0; next after N: W.
    (120, 20, 2, "EW", 160, "3", "3", "EW", "W", "7.1"),
    # 195 → b = 0 → EW +0, take.
    (195, 0, 1, "NS", 195, "3", "3", "EW", "W", "7.1"),
    # 200 → b = 1 → EW +1 (200–235: +1).
    (200, 0, 1, "NS", 200, "3", "4", "EW", "W", "7.1"),
    # 235 → b = 1.
    (235, 0, 1, "NS", 235, "3", "4", "EW", "W", "7.1"),
    # 200 − 20×2 = 160: declarers' dig brings the defenders down to the stage; EW +0.
    (200, 20, 2, "NS", 160, "3", "3", "EW", "W", "7.1"),
    # 100 + 100×3 = 400 → b = 6 → EW +6, no cap on b (7.1).
    (100, 100, 3, "EW", 400, "3", "9", "EW", "W", "7.1"),
]


@pytest.mark.parametrize(
    ("before", "last", "cards", "side", "final", "ns", "ew", "holder", "nxt", "article"),
    SINGLE_HAND,
)
def test_single_hand_result(before, last, cards, side, final, ns, ew, holder, nxt, article):
    """7.1-7.3 and RULES 7: the result of one summary-form hand and what follows it."""
    d = started()
    d.race("N", "H")
    d.summary(before, last, cards, side)
    s = d.state
    hand = s.hands[-1]
    assert hand.status == "finished"
    assert hand.result.defenders_final == final
    # 7.3: the last trick's signed change to the defenders' points.
    dig = last * cards if side == "EW" else -last * cards
    assert hand.last_trick.score == dig
    assert d.levels() == (ns, ew)
    assert s.deal_holder == Side(holder)
    assert hand.result.winner == Side(holder)
    assert hand.result.taken == (holder == "EW")
    assert s.next_dealer == Seat(nxt)
    # 2.3: 由赢家洗牌，输家过牌 — the winners shuffle, the losers cut.
    assert s.shuffler.side == Side(holder) and s.cutter.side == Side(holder).other
    lines = d.lines()
    assert any(line.startswith(article + ":") for line in lines), lines
    assert any(line.startswith("7.3:") for line in lines), lines
    assert any(line.startswith("2.3:") for line in lines), lines


def test_ew_declarers_dig_and_keep():
    """7.3: the defenders NS win the last trick: +L×c; 0 + 10×4 = 40 → EW +3, keep; E's
    partner W deals next."""
    d = started()
    d.race("E", "S")
    d.summary(0, 10, 4, "NS")
    s = d.state
    assert s.hands[-1].result.defenders_final == 40
    assert d.levels() == ("3", "6")
    assert (s.deal_holder, s.next_dealer) == (Side.EW, Seat.W)


def test_taken_deal_after_e_goes_to_n():
    """RULES 7: taken → the player after the dealer counter-clockwise; after E comes N."""
    d = started()
    d.race("E", "S")
    d.summary(165)
    s = d.state
    assert (s.deal_holder, s.next_dealer) == (Side.NS, Seat.N)
    assert d.levels() == ("3", "3")


# Five hands in a row (7.1, 7.2, rotation, 2.3): (dealer, trump, summary, NS, EW, holder, next)
FLOW = [
    # 1 race N: D = 100 → NS +2 → 5, keep; next S (partner).
    ("N", "H", (100, 0, 1, "NS"), "5", "3", "NS", "S"),
    # 2 S at 5: D = 235 → b = 1 → EW +1 → 4, take; after S in N→W→S→E: E.
    ("S", "NT", (235, 0, 1, "NS"), "5", "4", "EW", "E"),
    # 3 E at 4: D = 155 → b = −1 → EW +1 → 5, keep; next W.
    ("E", "D", (155, 0, 1, "EW"), "5", "5", "EW", "W"),
    # 4 W at 5: 120 + 20×2 (NS defenders dig) = 160 → NS take, +0; after W: S.
    ("W", "C", (120, 20, 2, "NS"), "5", "5", "NS", "S"),
    # 5 S at 5: 30 − 35×1 (declarers NS dig) = −5 → b = −5 → NS +5 → 10; next N.
    ("S", "S", (30, 35, 1, "NS"), "10", "5", "NS", "N"),
]


def test_five_hand_flow_levels_deal_rotation_shuffle():
    d = started()
    for i, (dealer, trump, summ, ns, ew, holder, nxt) in enumerate(FLOW):
        if i == 0:
            d.race(dealer, trump)
        else:
            assert d.state.next_dealer == Seat(dealer)
            bidder = {"NT": None}.get(trump, Seat(dealer).partner.value)
            assert d.rotation_hand(trump, bidder) == dealer
            hand = d.state.current_hand
            assert hand.declarers == Seat(dealer).side
        d.summary(*summ)
        s = d.state
        assert d.levels() == (ns, ew), f"hand {i + 1}"
        assert s.deal_holder == Side(holder), f"hand {i + 1}"
        assert s.next_dealer == Seat(nxt), f"hand {i + 1}"
        assert (s.shuffler.side, s.cutter.side) == (Side(holder), Side(holder).other)
    assert [h.number for h in d.state.hands] == [1, 2, 3, 4, 5]
    assert d.state.end is None


def _ns_at_a() -> Desk:
    """Two hands: N dealer D = 0 − 25×2 = −50 → b = ⌊−210/40⌋ = −6 → NS +6 → 9;
    S dealer D = −50 again → +6, capped at A.

    RULES 7: no gain takes a side past A; NS at A must still win a hand at A.
    """
    d = started()
    d.race("N", "H")
    d.summary(0, 25, 2, "NS")
    assert d.levels() == ("9", "3")
    d.rotation_hand()
    d.summary(0, 25, 2, "NS")
    assert d.levels() == ("A", "3")
    assert d.state.end is None and d.state.passed_a is None
    assert d.state.next_dealer == Seat.N
    return d


def test_cap_at_a_does_not_pass_a():
    """RULES 7 [P must_play_a=true]: a gain stops at A; it takes a hand at A to pass it."""
    d = _ns_at_a()
    assert any(line.startswith("1.5:") and "A" in line for line in d.lines())


def test_pass_a_as_declarers_wins_at_once():
    """1.5 / RULES 10: 哪一方率先打过"A"即为胜利 — the first side to pass A wins at once."""
    d = _ns_at_a()
    d.rotation_hand()
    d.summary(150)  # b = −1: NS keep the deal at A with the defenders below 160 → pass A
    s = d.state
    assert s.passed_a == Side.NS
    assert (s.end.reason, s.end.winner, s.end.article) == ("passed_a", Side.NS, "1.5")
    assert s.locked
    assert "ended" in d.refused("hand_started", {"dealer": "S"})
    d.refused("match_ended", {"reason": "passed_a", "winner": "EW"})
    d.ev("match_ended", {"reason": "passed_a", "winner": "NS"})
    assert d.state.end.recorded


def test_defenders_at_a_taking_the_deal_do_not_pass_a():
    """RULES 7: a side at A passes A only by winning a hand at A *as declarers*."""
    d = _ns_at_a()
    d.rotation_hand()  # N deals, NS declarers at A
    d.summary(200)  # b = 1: EW take the deal, +1 → 4; next W
    assert d.levels() == ("A", "4")
    d.rotation_hand()  # W deals, EW declarers at 4, NS defend at A
    d.summary(300)  # b = 3: NS take the deal, stay at A (cap), no pass
    s = d.state
    assert d.levels() == ("A", "4")
    assert s.end is None and s.passed_a is None
    assert (s.deal_holder, s.next_dealer) == (Side.NS, Seat.S)
    d.rotation_hand()  # S deals at A
    d.summary(155)  # b = −1 → pass A
    assert d.state.end.reason == "passed_a" and d.state.end.winner == Side.NS


def test_a_declarers_losing_the_hand_at_a_do_not_pass():
    """RULES 7: at A the declarers must keep the deal (defenders below 160) to pass A."""
    d = _ns_at_a()
    d.rotation_hand()
    d.summary(160)  # b = 0: EW take the deal, +0
    assert d.state.end is None
    assert d.levels() == ("A", "3")
    assert d.state.deal_holder == Side.EW


# -- refusals: a hand result that cannot be ------------------------------------------------


def test_hand_result_before_a_hand_starts_is_refused():
    """Issue 3: a hand result before a hand starts is refused."""
    d = started()
    d.refused("hand_summary", _summary(100))
    d.ev("hand_started", {"dealer": None})
    d.refused("hand_summary", _summary(100))  # still bidding: no trump, no declarers
    d.ev("bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]})
    d.ev("bidding_closed", {"dealer": "N", "trump": "H"})
    d.ev("hand_summary", _summary(100))
    d.refused("hand_summary", _summary(100))  # that hand is over; no second result
    d.refused("penalty_choice", {"seat": "E", "choice": "A"})  # no revoke


def _summary(before, last=0, cards=1, side="NS"):
    return {
        "defenders_points_before_last": before,
        "last_trick_points": last,
        "last_trick_cards_per_player": cards,
        "last_trick_side": side,
    }


@pytest.mark.parametrize(
    "payload",
    [
        # RULES 7: point cards are 5, 10 and K (5 or 10 points each): every count of
        # points is a multiple of 5.
        pytest.param(_summary(157), id="before-not-a-multiple-of-5"),
        pytest.param(_summary(100, 7, 1), id="last-not-a-multiple-of-5"),
        # RULES 7: 400 points in all; the defenders' points before the last trick and
        # the points in the last trick are different cards.
        pytest.param(_summary(390, 20, 2), id="more-than-400-points"),
        # The last trick of singles holds at most four 10-point cards.
        pytest.param(_summary(100, 45, 1), id="last-single-trick-over-40"),
    ],
)
def test_impossible_summary_is_refused(payload):
    """RULES 7: a summary whose points no deal of 4 decks can produce is a data-entry error."""
    d = started()
    d.race("N", "H")
    d.refused("hand_summary", payload)
    assert d.state.current_hand.status == "playing"


# -- detailed form: the last trick is derived (7.3) ---------------------------------------


def _trick(leader, *plays, last=False):
    payload = {"leader": leader, "plays": [{"seat": s, "cards": list(c)} for s, c in plays]}
    if last:
        payload["last"] = True
    return payload


@pytest.mark.parametrize(
    ("mode", "final", "ns"),
    [
        # multiply: 10 + 30×2 = 70 → b = ⌊−90/40⌋ = −3 → NS +3 → 6.
        ("multiply", 70, "6"),
        # bonus: the ordinary capture of L is added too: 10 + 30 + 60 = 100 → −2 → 5.
        ("bonus", 100, "5"),
    ],
)
def test_detailed_hand_last_trick_dig(mode, final, ns):
    """7.3: 按照最后一次出牌的张数的倍数来计分 [P last_trick]; the defenders' points and the
    last trick are derived from the tricks, not typed.

    Level 3, trump ♥, N declares. Trick 1: E wins with ♠K (10 to the defenders EW).
    Last trick (pairs): E leads ♦KK, N ♦55, W ♦66, S ♦77 — E wins L = 30, c = 2.
    """
    d = started(last_trick=mode)
    d.race("N", "H")
    d.ev("trick", _trick("N", ("N", ["S4"]), ("W", ["S6"]), ("S", ["S7"]), ("E", ["SK"])))
    assert d.state.current_hand.defenders_points == 10
    d.ev(
        "trick",
        _trick(
            "E",
            ("E", ["DK", "DK"]),
            ("N", ["D5", "D5"]),
            ("W", ["D6", "D6"]),
            ("S", ["D7", "D7"]),
            last=True,
        ),
    )
    s = d.state
    hand = s.hands[-1]
    assert hand.form == "detailed" and hand.status == "finished"
    assert (hand.last_trick.points, hand.last_trick.cards_per_player) == (30, 2)
    assert hand.last_trick.side == Side.EW
    assert hand.result.defenders_final == final
    assert d.levels() == (ns, "3")
    assert s.next_dealer == Seat.S
    # RULES issue 3: the record proves that nobody played 54 cards in this hand.
    assert sum(1 for f in s.flags if f.article == "8.3") == 4


def test_summary_refused_in_a_detailed_hand():
    """The result of a trick-by-trick hand is derived, never typed."""
    d = started()
    d.race("N", "H")
    d.ev("trick", _trick("N", ("N", ["S4"]), ("W", ["S6"]), ("S", ["S7"]), ("E", ["SK"])))
    d.refused("hand_summary", _summary(100))


def test_consequences_name_their_articles_in_json():
    """Issue 3: every consequence carries its article (``"8.3 B: +160 …"``, ``"7.1"``)."""
    d = started()
    d.race("N", "H")
    d.ev("revoke", {"seat": "N", "kind": "withheld", "defenders_points": 45})
    d.ev("penalty_choice", {"seat": "W", "choice": "B"})
    doc = d.state.to_json()
    lines = [c["line"] for c in doc["consequences"]]
    assert any(line.startswith("8.3 B: +160 to defenders") for line in lines), lines
    assert any(line.startswith("7.1:") for line in lines), lines
    assert all(c["article"] for c in doc["consequences"])


@pytest.mark.parametrize("points", [-20, 403, 405])
def test_impossible_revoke_points_are_refused(points):
    """RULES 7 / 8.3 B: the defenders' captured points are 0 … 400 in steps of 5 (8.2 and
    8.11 adjustments are recorded separately, docs/events.md)."""
    d = started()
    d.race("N", "H")
    d.refused("revoke", {"seat": "E", "kind": "withheld", "defenders_points": points})


@pytest.mark.parametrize(
    ("params", "summary", "final", "ns", "ew"),
    [
        # [P stage=120, step=30]: D = 150 → b = ⌊30/30⌋ = 1 → EW +1, take.
        ({"stage": 120, "step": 30}, (150, 0, 1, "NS"), 150, "3", "4"),
        # [P stage=120, step=30]: D = 110 → b = ⌊−10/30⌋ = −1 → NS +1, keep.
        ({"stage": 120, "step": 30}, (110, 0, 1, "NS"), 110, "4", "3"),
        # [P last_trick=bonus]: 100 + 20 + 20×2 = 160 → b = 0 → EW take, +0.
        ({"last_trick": "bonus"}, (100, 20, 2, "EW"), 160, "3", "3"),
        # [P last_trick=bonus] only changes the defenders' dig: 200 − 20×2 = 160.
        ({"last_trick": "bonus"}, (200, 20, 2, "NS"), 160, "3", "3"),
    ],
)
def test_result_parameters(params, summary, final, ns, ew):
    """RULES 7: b = ⌊(D − stage)/step⌋ [P stage, step]; 7.3 [P last_trick]."""
    d = started(**params)
    d.race("N", "H")
    d.summary(*summary)
    assert d.state.hands[-1].result.defenders_final == final
    assert d.levels() == (ns, ew)
