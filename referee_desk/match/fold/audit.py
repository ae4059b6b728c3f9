"""What a detailed record proves about follows (RULES.md section 5; Guilin chapter 4).

The cards a seat played from a trick to the end of the hand are cards it held when it
followed, so every follow can be judged by the rules core against a known (partial)
hand. The findings are flags for the referee, not rulings.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

from referee_desk.match.fold.hand import TrickCards
from referee_desk.match.fold.memo import card_of, judge_follow, token_suits, top_follow
from referee_desk.rules.errors import RulesError
from referee_desk.rules.ruleset import Ruleset
from referee_desk.rules.seats import Seat
from referee_desk.rules.trump import TrumpContext


@lru_cache(maxsize=1 << 10)
def follow_findings(
    trick_cards: tuple[TrickCards, ...],
    ctx: TrumpContext,
    ruleset: Ruleset,
) -> tuple[tuple[int, str, str], ...]:
    """(seq, article, text) of every follow the rules core judges illegal in a hand.

    The cards a seat played from a trick to the end of the hand are cards it held
    when it followed. Follows that section 5 rule 1 settles by counting alone
    (single leads, or no more cards of the suit than the lead) are not sent to the
    rules core; every other follow is judged by ``rules.follow.check_follow``.
    """
    suits = _Suits(token_suits(ctx), ctx)
    later: dict[Seat, list[str]] = {s: [] for s in Seat}
    # The same cards by effective suit: what a follower held of the lead's suit.
    later_in: dict[Seat, defaultdict[str, list[str]]] = {s: defaultdict(list) for s in Seat}
    found: list[tuple[int, str, str]] = []
    for number in range(len(trick_cards), 0, -1):
        seats, plays, seq = trick_cards[number - 1]
        for seat, cards in zip(seats, plays, strict=True):
            later[seat].extend(cards)
            by_suit = later_in[seat]
            for c in cards:
                by_suit[suits[c]].append(c)
        lead = plays[0]
        n = len(lead)
        suit = suits[lead[0]]
        for i in range(1, len(plays)):
            seat, cards = seats[i], plays[i]
            of_suit = later_in[seat][suit]
            held = len(of_suit)
            if n == 1:
                if not held or suits[cards[0]] == suit:
                    continue  # any single of the suit, or void in it (5.1)
                in_suit = 0
            else:
                in_suit = 0
                for c in cards:
                    if suits[c] == suit:
                        in_suit += 1
                if held <= n and in_suit >= held:
                    continue  # section 5 rule 1: all the cards of the suit are played
                if in_suit == n:
                    if len(set(of_suit)) == held:
                        # No two identical cards of the suit: every n of them have the
                        # same key, so any n cards of the suit follow (section 5).
                        continue
                    if top_follow(lead, cards, ctx):
                        continue  # the greatest key any n cards reach: legal whatever else
            if held > n:
                # Holding more of the suit than the lead, the verdict depends only on the
                # cards of the suit (5: n cards of H with the greatest key) and the play.
                known = (*of_suit, *(c for c in cards if suits[c] != suit))
            else:
                known = tuple(later[seat])
            try:
                verdict = judge_follow(lead, known, cards, ctx, ruleset)
            except RulesError:
                continue
            if not verdict.legal:
                rule = getattr(verdict, "rule", "") or "4"
                found.append((seq, rule, f"{seat.value} in trick {number}: {verdict.reason}"))
    return tuple(sorted(found, key=lambda f: f[0]))


class _Suits(dict[str, str]):
    """Token → effective suit: the canonical table, plus other spellings parsed once."""

    def __init__(self, table: dict[str, str], ctx: TrumpContext) -> None:
        super().__init__(table)
        self.ctx = ctx

    def __missing__(self, token: str) -> str:
        found = self[token] = self.ctx.effective_suit(card_of(token))
        return found
