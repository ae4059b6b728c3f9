"""What a detailed record proves about follows (RULES.md section 5; Guilin chapter 4).

The cards a seat plays from a trick on are cards it held when it followed there, so
every follow can be judged by the rules core against a known (partial) holding. The
audit runs trick by trick: after each trick it judges again only the follows of the
seats that have just shown more of that follow's suit, and flags a follow the moment
the holding proven so far makes it illegal (a flag for the referee, not a ruling).
A holding proven so far is part of the real one and duties only grow with it, so an
illegal verdict stays illegal; the one exception is 4.5's triple exemption (a pair is
required only while it is not inside a tractor), which such a follow waits out.

A follow that left the lead's suit is not audited here: it is wrong exactly when the
seat later plays that suit, which ``play._void_flags`` flags (8.3, 12.8) at that very
trick, so each wrong follow is flagged once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from referee_desk.match.fold.memo import Suits, card_of, judge_follow, token_suits, top_follow
from referee_desk.rules.errors import RulesError
from referee_desk.rules.ruleset import Ruleset
from referee_desk.rules.seats import Seat
from referee_desk.rules.trump import TrumpContext
from referee_desk.rules.units import UnitKind, classify

#: A finding: (article, text), the text naming the seat and the trick of the follow.
Finding = tuple[str, str]
#: A detailed trick as plain values: seats in play order (the leader first), canonical
#: card tokens per play, seq.
TrickCards = tuple[tuple[Seat, ...], tuple[tuple[str, ...], ...], int]


@dataclass(slots=True)
class _Open:
    """A follow all in the lead's suit that a larger holding could still prove wrong."""

    number: int
    seat: Seat
    lead: tuple[str, ...]
    play: tuple[str, ...]
    #: The seat's cards of the lead's suit proven held when it followed (the play first).
    held: list[str]
    #: How many of each card ``held`` has.
    counts: dict[str, int]
    #: The count at which one more copy of a card can change the verdict (see ``_need``).
    need: int
    #: An illegal verdict that 4.5's exemption could still overturn: (article, text).
    pending: Finding | None = None


@dataclass
class FollowAudit:
    """The follows of one detailed hand still open to proof, by seat and effective suit."""

    ctx: TrumpContext
    ruleset: Ruleset
    suits: dict[str, str] = field(init=False)
    #: Seat → effective suit → its open follows (a seat with none has no entry).
    open: dict[Seat, dict[str, list[_Open]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.suits = Suits(token_suits(self.ctx), self.ctx)

    def add(
        self, number: int, seats: Sequence[Seat], plays: Sequence[tuple[str, ...]]
    ) -> list[Finding]:
        """Fold trick ``number`` in; the follows it proves illegal, in trick order."""
        suits = self.suits
        found: list[tuple[int, Finding]] = []
        open_follows = self.open
        if open_follows:
            for seat, cards in zip(seats, plays, strict=True):
                by_suit = open_follows.get(seat)
                if by_suit is None:
                    continue
                for suit in {suits[c] for c in cards} if len(cards) > 1 else (suits[cards[0]],):
                    follows = by_suit.get(suit)
                    if follows:
                        shown = [c for c in cards if suits[c] == suit]
                        self._shown(follows, shown, found)
                        if not follows:
                            del by_suit[suit]
                            if not by_suit:
                                del open_follows[seat]
        lead = plays[0]
        n = len(lead)
        if n > 1:
            suit = suits[lead[0]]
            for i in range(1, len(plays)):
                cards = plays[i]
                if any(suits[c] != suit for c in cards) or top_follow(lead, cards, self.ctx):
                    continue  # left the suit (see the module's docstring), or legal whatever
                counts: dict[str, int] = {}
                for c in cards:
                    counts[c] = counts.get(c, 0) + 1
                need = _need(lead, counts)
                follow = _Open(number, seats[i], lead, cards, list(cards), counts, need)
                self.open.setdefault(seats[i], {}).setdefault(suit, []).append(follow)
        if not found:
            return []
        found.sort(key=_first)
        return [f for _, f in found]

    def finish(self) -> list[Finding]:
        """At the hand's end: the verdicts that waited on 4.5's exemption, now final
        (judged again on the whole holding shown, for the wording)."""
        found = [
            (f.number, self._judge(f) or f.pending)
            for by_suit in self.open.values()
            for follows in by_suit.values()
            for f in follows
            if f.pending is not None
        ]
        self.open.clear()
        found.sort(key=lambda f: f[0])
        return [f for _, f in found]

    def _shown(
        self, follows: list[_Open], cards: list[str], found: list[tuple[int, Finding]]
    ) -> None:
        """More cards of the suit shown by the seat: judge its open follows again.

        Only a card the holding already has can change a verdict: section 5's keys
        (tuple size, pair profile, tractors; 12.4's per component) and 4.5's free pair
        are made of identical cards, so one more single changes none of them.
        """
        kept: list[_Open] = []
        for f in follows:
            f.held.extend(cards)
            counts = f.counts
            need = f.need
            again = False
            for c in cards:
                n = counts[c] = counts.get(c, 0) + 1
                if n >= need:
                    again = True
            if not again:
                kept.append(f)
                continue
            finding = self._judge(f)
            if finding is None:
                f.pending = None
                kept.append(f)
            elif self._final(f):
                found.append((f.number, finding))
            else:
                f.pending = finding
                kept.append(f)
        follows[:] = kept

    def _judge(self, f: _Open) -> Finding | None:
        try:
            verdict = judge_follow(f.lead, tuple(f.held), f.play, self.ctx, self.ruleset)
        except RulesError:
            return None
        if verdict.legal:
            return None
        rule = getattr(verdict, "rule", "") or "4"
        return rule, f"{f.seat.value} in trick {f.number}: {verdict.reason}"

    def _final(self, f: _Open) -> bool:
        """Can no later card make this illegal follow legal? Only 4.5's exemption can
        (RULES 5: a triple lead, or a throw's triple component under 12.4), and it
        never applies once the holding has three identical cards."""
        if not self.ruleset.triple_lead_spares_tractors:
            return True
        lead = f.lead
        if max(lead.count(c) for c in set(lead)) < 3:
            return True  # no triple in the lead
        if len(lead) > 3:
            unit = classify([card_of(c) for c in lead], self.ctx)
            if unit is not None and unit.kind is not UnitKind.TRIPLE:
                return True  # a bomb or a bulldozer: no exemption
        held = f.held
        return max(held.count(c) for c in set(held)) >= 3


def _first(found: tuple[int, Finding]) -> int:
    return found[0]


def _need(lead: tuple[str, ...], play_counts: dict[str, int]) -> int:
    """The copies of one card the holding must reach before the verdict can change.

    RULES 5: a pair, triple or bomb lead of t cards ranks the follows by (tuple size up to
    t, pair profile). A follow holding t − 1 identical cards (pair + 1 to a triple, 4.5;
    triple + 1 to a bomb, 4.4) has every pair profile an n-card play with that tuple size
    can have, so only a card held t times beats it. Otherwise any second copy may.
    """
    t = len(lead)
    if t > 2 and lead.count(lead[0]) == t and max(play_counts.values()) == t - 1:
        return t
    return 2


def follow_findings(
    trick_cards: Sequence[TrickCards], ctx: TrumpContext, ruleset: Ruleset
) -> tuple[tuple[int, str, str], ...]:
    """(seq, article, text) of every follow that ``trick_cards`` (a whole hand) proves
    illegal, each at the seq of the trick whose plays first prove it, as the fold
    flags them trick by trick (follows that left the suit excepted, see above)."""
    audit = FollowAudit(ctx, ruleset)
    found: list[tuple[int, str, str]] = []
    for number, (seats, plays, seq) in enumerate(trick_cards, start=1):
        found += [(seq, *f) for f in audit.add(number, seats, plays)]
    if trick_cards:
        found += [(trick_cards[-1][2], *f) for f in audit.finish()]
    return tuple(found)
