"""Every follow the later plays prove illegal is flagged when it becomes provable (issue 19
item 9): trick by trick, once, at the trick whose plays prove it; a flag, not a ruling.

RULES 9.3 (Guilin 8.3, 劳改): "having a card and not playing it, not following as section 5
requires, following wrongly … discovered once the next trick has begun". The cards a seat
plays from a trick on are cards it held when it followed there (section 5's H).
"""

from __future__ import annotations

from match_table import Table
from test_presets_match import preset_table, race

from referee_desk.match.state import Flag

ORDER = {"N": "NWSE", "W": "WSEN", "S": "SENW", "E": "ENWS"}


def trick(t: Table, leader: str, plays: dict[str, str], last: bool = False) -> int:
    """Record one trick (cards as space-separated tokens); its seq."""
    payload = {
        "leader": leader,
        "plays": [{"seat": s, "cards": plays[s].split()} for s in ORDER[leader]],
        **({"last": True} if last else {}),
    }
    return t.ev("trick", payload, after=20).seq


def follow_flags(t: Table) -> list[Flag]:
    """The flags about follows (not the card counts of a hand closed early)."""
    return [f for f in t.state.flags if " cards in hand " not in f.text]


def guilin() -> Table:
    t = Table().start()
    t.race_hand("N", "H")  # level 3, hearts trump; N leads the first trick
    return t


def test_a_discard_on_a_single_lead_is_flagged_when_the_suit_is_played():
    """The repro: N discards on a ♣ lead in trick 5 and plays ♣J in trick 6. RULES 5.1:
    "|H| ≤ n: play all of H" (a single lead: any card of the suit); 9.3 (8.3) "having a
    card and not playing it". Flagged once, right after trick 6, naming trick 6's seq."""
    t = guilin()
    trick(t, "N", {"N": "SA", "W": "S4", "S": "S5", "E": "S6"})
    trick(t, "N", {"N": "DA", "W": "D5", "S": "D6", "E": "D7"})
    trick(t, "N", {"N": "CA", "W": "C4", "S": "C5", "E": "C6"})
    trick(t, "N", {"N": "S7", "W": "S8", "S": "S9", "E": "SK"})  # E wins and leads
    trick(t, "E", {"E": "CA", "N": "D4", "W": "C7", "S": "C8"})  # N discards on ♣
    assert follow_flags(t) == []  # N may have held no club: nothing proven yet
    seq = trick(t, "E", {"E": "CK", "N": "CJ", "W": "C9", "S": "C10"})
    assert [(f.seq, f.article, f.text) for f in follow_flags(t)] == [
        (seq, "8.3", "N plays C in trick 6 after showing void in it")
    ]
    trick(t, "E", {"E": "CQ", "N": "CJ", "W": "C9", "S": "C10"}, last=True)
    assert len(follow_flags(t)) == 1  # once: not again as "N in trick 5", not at the end


def test_a_pair_lead_followed_by_singles_is_flagged_when_a_pair_is_shown():
    """RULES 5 (4.1): "pair lead: pair > two singles" — 出对子时，有对子必须跟对子. W follows
    ♠K K with ♠4 5 and shows ♠9 in trick 2 and another ♠9 in trick 3: flagged after trick 3
    (not after trick 2, when W's spades were all different), once, to the hand's end."""
    t = guilin()
    trick(t, "N", {"N": "SK SK", "W": "S4 S5", "S": "S6 S6", "E": "S7 S8"})
    trick(t, "N", {"N": "SA", "W": "S9", "S": "D5", "E": "D6"})
    assert follow_flags(t) == []
    seq = trick(t, "N", {"N": "SA", "W": "S9", "S": "D7", "E": "D8"})
    flags = follow_flags(t)
    assert [(f.seq, f.article) for f in flags] == [(seq, "4.1")]
    assert flags[0].text.startswith("W in trick 1: must play a pair in ♠"), flags
    trick(t, "N", {"N": "SA", "W": "S4", "S": "D9", "E": "D10"})
    trick(t, "N", {"N": "SA", "W": "S5", "S": "DJ", "E": "DQ"}, last=True)
    assert follow_flags(t) == flags


def test_a_tractor_lead_followed_short_of_pairs_is_flagged_when_provable():
    """RULES 5 (4.2): "tractor of k pairs: key = P(F)" — four-pair … > two pairs > pair +
    2. W follows ♠Q Q J J with ♠4 4 5 6 and later shows ♠8 8: it held two pairs."""
    t = guilin()
    trick(t, "N", {"N": "SQ SQ SJ SJ", "W": "S4 S4 S5 S6", "S": "D5 D6 D7 D8", "E": "C4 C5 C6 C7"})
    trick(t, "N", {"N": "SA", "W": "S8", "S": "D9", "E": "C8"})
    assert follow_flags(t) == []
    seq = trick(t, "N", {"N": "SA", "W": "S8", "S": "D10", "E": "C9"})
    flags = follow_flags(t)
    assert [(f.seq, f.article) for f in flags] == [(seq, "4.2")], flags
    assert flags[0].text.startswith("W in trick 1: "), flags


def _triple_lead(t: Table) -> None:
    trick(t, "N", {"N": "SK SK SK", "W": "S4 S5 S6", "S": "D5 D6 D7", "E": "C4 C5 C6"})
    trick(t, "N", {"N": "SA", "W": "S8", "S": "D8", "E": "C7"})
    trick(t, "N", {"N": "SA", "W": "S8", "S": "D9", "E": "C8"})  # W held ♠8 8, a free pair


def test_a_triple_lead_waits_on_the_tractor_exemption():
    """RULES 5, 4.5 [P triple_lead_spares_tractors=true]: "when H holds no triple, a pair is
    required only if H has a pair that is not part of a tractor … of H; otherwise any 3
    cards of H are legal" (不用去拆拖拉机). W's ♠8 8 alone proves nothing yet: once W also
    shows ♠9 9, 8899 is a tractor and W's ♠4 5 6 was legal. No flag at any point."""
    t = guilin()
    _triple_lead(t)
    assert follow_flags(t) == []
    trick(t, "N", {"N": "SA", "W": "S9", "S": "D10", "E": "C9"})
    trick(t, "N", {"N": "HA", "W": "S9", "S": "H4", "E": "H5"}, last=True)
    assert follow_flags(t) == []


def test_a_triple_lead_is_flagged_once_a_triple_is_shown():
    """RULES 5 (4.5): "triple lead: triple > pair + 1 > singles"; a holding with three
    identical cards is past the exemption for good, so W's third ♠8 proves it at once."""
    t = guilin()
    _triple_lead(t)
    seq = trick(t, "N", {"N": "HA", "W": "S8", "S": "H4", "E": "H5"})
    flags = follow_flags(t)
    assert [(f.seq, f.article) for f in flags] == [(seq, "4.5")], flags
    assert flags[0].text.startswith("W in trick 1: "), flags


def test_a_triple_lead_left_with_a_free_pair_is_flagged_at_the_hands_end():
    """RULES 5 (4.5): the hand over, W's ♠8 8 stayed a pair outside any tractor, so the
    pair + 1 duty stands: flagged with the last trick (the first trick that proves it)."""
    t = guilin()
    _triple_lead(t)
    seq = trick(t, "N", {"N": "HA", "W": "D4", "S": "H4", "E": "H5"}, last=True)
    flags = follow_flags(t)
    assert [(f.seq, f.article) for f in flags] == [(seq, "4.5")], flags


def test_guilin_without_the_exemption_flags_the_triple_lead_at_once():
    """RULES 5 with [P triple_lead_spares_tractors=false]: pair + 1 is due whenever H holds
    a pair; W's second ♠8 proves it."""
    t = Table(triple_lead_spares_tractors=False).start()
    t.race_hand("N", "H")
    trick(t, "N", {"N": "SK SK SK", "W": "S4 S5 S6", "S": "D5 D6 D7", "E": "C4 C5 C6"})
    trick(t, "N", {"N": "SA", "W": "S8", "S": "D8", "E": "C7"})
    seq = trick(t, "N", {"N": "SA", "W": "S8", "S": "D9", "E": "C8"})
    assert [(f.seq, f.article) for f in follow_flags(t)] == [(seq, "4.5")]


def test_a_throw_followed_short_of_its_pair_is_flagged_when_provable():
    """RULES 12.4: "Following a standing throw … meet the largest component's duty as well
    as the holding allows, then the next one's with what is left". qq-four-deck: N throws
    ♦A A K (a pair and a single); W plays ♦3 5 8 and later shows ♦7 7: flagged then."""
    t = preset_table("qq-four-deck")
    race(t, "N", "H")  # level 2, hearts trump
    trick(t, "N", {"N": "DA DA DK", "W": "D3 D5 D8", "S": "C3 C4 C5", "E": "S3 S4 S5"})
    trick(t, "N", {"N": "CA", "W": "D7", "S": "C6", "E": "C7"})
    assert follow_flags(t) == []
    seq = trick(t, "N", {"N": "CA", "W": "D7", "S": "C8", "E": "C9"})
    flags = follow_flags(t)
    assert [(f.seq, f.article) for f in flags] == [(seq, "12.4")], flags
    assert flags[0].text.startswith("W in trick 1: "), flags


def test_a_throw_with_a_triple_follows_the_exemption_to_the_hands_end():
    """RULES 12.4 "(4.5's triple exemption applies to a triple component, judged on the
    whole holding)" and the issue's case (there level 5, NT; here level 2, hearts trump:
    diamonds are a side suit either way): S throws ♦A A 10 10 10, E plays ♦3 8 J J Q and
    shows the other ♦3 in trick 2. Its ♦3 3 and J J could still be inside tractors, so the
    flag comes with the hand's last trick."""
    t = preset_table("qq-four-deck")
    race(t, "S", "H")
    lead = "DA DA D10 D10 D10"
    trick(t, "S", {"S": lead, "E": "D3 D8 DJ DJ DQ", "N": "C3 C3 C4 C4 C6", "W": "C7 C7 C8 C8 C9"})
    trick(t, "S", {"S": "DK", "E": "D3", "N": "C10", "W": "CJ"})
    assert follow_flags(t) == []
    seq = trick(t, "S", {"S": "DK", "E": "D4", "N": "CQ", "W": "CK"}, last=True)
    flags = follow_flags(t)
    assert [(f.seq, f.article) for f in flags] == [(seq, "12.4")], flags
    assert flags[0].text.startswith("E in trick 1: "), flags


def test_a_triple_lead_followed_by_a_pair_is_flagged_when_a_third_copy_is_shown():
    """RULES 5 (4.5): "triple lead: triple > pair + 1 > singles". W follows ♠K K K with
    ♠5 5 6; more pairs shown later change nothing (pair + 1 is the best without a triple),
    the third ♠5 proves W held a triple."""
    t = guilin()
    trick(t, "N", {"N": "SK SK SK", "W": "S5 S5 S6", "S": "D5 D6 D7", "E": "C4 C5 C6"})
    trick(t, "N", {"N": "SA", "W": "S8", "S": "D8", "E": "C7"})
    trick(t, "N", {"N": "SA", "W": "S8", "S": "D9", "E": "C8"})  # a second pair: still legal
    assert follow_flags(t) == []
    seq = trick(t, "N", {"N": "HA", "W": "S5", "S": "H4", "E": "H5"})
    flags = follow_flags(t)
    assert [(f.seq, f.article) for f in flags] == [(seq, "4.5")], flags


def test_a_bomb_lead_followed_by_a_triple_is_flagged_when_the_fourth_copy_is_shown():
    """RULES 5 (4.4): "bomb lead: bomb > triple + 1 > two-pair tractor > two pairs > …".
    W follows ♠K K K K with ♠5 5 5 6 and later shows the fourth ♠5."""
    t = guilin()
    trick(t, "N", {"N": "SK SK SK SK", "W": "S5 S5 S5 S6", "S": "D5 D6 D7 D8", "E": "C4 C5 C6 C7"})
    trick(t, "N", {"N": "SA", "W": "S6", "S": "D9", "E": "C8"})  # a pair of ♠6: still legal
    assert follow_flags(t) == []
    seq = trick(t, "N", {"N": "SA", "W": "S5", "S": "D10", "E": "C9"})
    flags = follow_flags(t)
    assert [(f.seq, f.article) for f in flags] == [(seq, "4.4")], flags
