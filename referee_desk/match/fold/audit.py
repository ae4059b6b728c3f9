"""What a detailed record proves about follows (RULES.md section 5; Guilin chapter 4).

The cards a seat played from a trick to the end of the hand are cards it held when it
followed, so every follow can be judged by the rules core against a known (partial)
hand. The findings are flags for the referee, not rulings.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from referee_desk.match.fold.hand import TrickCards
from referee_desk.match.fold.memo import card_of, judge_follow
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
    later_suits: dict[Seat, Counter[str]] = {s: Counter() for s in Seat}
    found: list[tuple[int, str, str]] = []
    for number in range(len(trick_cards), 0, -1):
        _leader, plays, seq = trick_cards[number - 1]
        for seat, cards in plays:
            later[seat].extend(cards)
            later_suits[seat].update(eff(c) for c in cards)
        lead = plays[0][1]
        suit, n = eff(lead[0]), len(lead)
        for seat, cards in plays[1:]:
            held = later_suits[seat][suit]
            in_suit = sum(1 for c in cards if eff(c) == suit)
            if in_suit >= min(n, held) and (n == 1 or held <= n):
                continue  # section 5 rule 1 (or any single of the suit) is met
            try:
                verdict = judge_follow(lead, tuple(later[seat]), cards, ctx, ruleset)
            except RulesError:
                continue
            if not verdict.legal:
                rule = getattr(verdict, "rule", "") or "4"
                found.append((seq, rule, f"{seat.value} in trick {number}: {verdict.reason}"))
    return tuple(sorted(found, key=lambda f: f[0]))
