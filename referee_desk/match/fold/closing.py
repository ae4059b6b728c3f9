"""Closing a hand with its result (RULES.md 7; 2.3 the next deal; 1.5 passing A).

Every way a hand ends with a score (the last trick, a summary, a revoke's penalty
choice, 藏张 choice A) closes it here: the hand's outcome, the levels, the deal's
rotation and, when a side passes A, the match's end.
"""

from __future__ import annotations

from referee_desk.match.fold.hand import FINISHED, HandBook
from referee_desk.match.fold.parts import Fold
from referee_desk.match.values import Consequence, HandOutcome, MatchEnd
from referee_desk.rules.result import HandResult, next_dealer, shuffle_and_cut
from referee_desk.rules.seats import Side


def close_hand(f: Fold, seq: int, hand: HandBook, result: HandResult) -> None:
    books, hands = f.books, f.hands
    ruleset, levels = books.ruleset, books.levels
    assert hand.declarers is not None and hand.defenders is not None
    assert hand.dealer is not None
    winner = hand.declarers if result.kept_deal else hand.defenders
    levels_after = {
        hand.declarers: result.declarer_level,
        hand.defenders: result.defender_level,
    }
    gains = {s: int(levels_after[s]) - int(levels[s]) for s in Side}
    upcoming = next_dealer(hand.dealer, result.deal, ruleset)
    sc = shuffle_and_cut(hand.dealer, result.deal, ruleset)
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
    books.consequences.extend(consequences)
    levels.update(levels_after)
    books.forget_digs()
    hands.next_dealer = upcoming
    hands.deal_holder = winner
    hands.shuffler, hands.cutter = sc.shuffler, sc.cutter
    if not result.passed_a:  # passing A ends the match (1.5): no next hand to announce
        books.consequences.append(
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
    hands.close(hand, FINISHED)
    if result.passed_a:
        books.passed_a = winner
        c = Consequence.make(seq, "1.5", "passed_a_end", winner=winner.value)
        books.set_end(MatchEnd("passed_a", winner, "1.5", c.text, seq, key=c.key, args=c.args))
