"""What a detailed record proves about follows (RULES.md section 5; Guilin chapter 4).

The cards a seat played from a trick to the end of the hand are cards it held when it
followed, so every follow can be judged by the rules core against a known (partial)
hand. The findings are flags for the referee, not rulings.
"""

from __future__ import annotations

from functools import lru_cache

from referee_desk.match.fold.hand import TrickCards
from referee_desk.match.fold.memo import card_of, judge_follow, top_follow
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
    suits: dict[str, str] = {}

    def eff(token: str) -> str:
        found = suits.get(token)
        if found is None:
            found = suits[token] = ctx.effective_suit(card_of(token))
        return found

    later: dict[Seat, list[str]] = {s: [] for s in Seat}
    # The same cards by effective suit: what a follower held of the lead's suit.
    later_in: dict[Seat, dict[str, list[str]]] = {s: {} for s in Seat}
    found: list[tuple[int, str, str]] = []
    for number in range(len(trick_cards), 0, -1):
        _leader, plays, seq = trick_cards[number - 1]
        for seat, cards in plays:
            later[seat].extend(cards)
            by_suit = later_in[seat]
            for c in cards:
                s = eff(c)
                if s in by_suit:
                    by_suit[s].append(c)
                else:
                    by_suit[s] = [c]
        lead = plays[0][1]
        suit, n = eff(lead[0]), len(lead)
        for seat, cards in plays[1:]:
            of_suit = later_in[seat].get(suit, ())
            held = len(of_suit)
            in_suit = sum(1 for c in cards if eff(c) == suit)
            if in_suit >= min(n, held) and (n == 1 or held <= n):
                continue  # section 5 rule 1 (or any single of the suit) is met
            if in_suit == n and top_follow(lead, cards, ctx):
                continue  # the greatest key any n cards reach: legal whatever else is held
            if held > n:
                # Holding more of the suit than the lead, the verdict depends only on the
                # cards of the suit (5: n cards of H with the greatest key) and the play.
                known = (*of_suit, *(c for c in cards if eff(c) != suit))
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
