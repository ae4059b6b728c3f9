"""The result of a hand (RULES.md section 7, Guilin chapter 7) and what follows it.

Pure functions from the figures a referee enters to the defenders' final score, who
holds the deal, the levels gained and the next dealer. Every step is returned as a
:class:`Consequence` naming its article, so a printed result can show its working.
The match layer calls :func:`hand_result` at the end of a hand, and
:func:`result_from_final_score` / :func:`result_from_levels_up` for the revoke
penalties (8.3 B / 8.3 A).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from referee_desk.rules.cards import Rank
from referee_desk.rules.errors import RulesError
from referee_desk.rules.levels import gain_levels, parse_ruleset_level
from referee_desk.rules.ruleset import GUILIN_2009, Ruleset
from referee_desk.rules.seats import Seat, Side
from referee_desk.rules.wording import Args, make_args, render

#: Cards in one deck, and the most points one card carries (7: 10 and K).
_CARDS_PER_DECK = 54
_MAX_CARD_POINTS = 10
_POINTS_PER_DECK = 100
_PLAYERS = 4


class Role(StrEnum):
    """The two sides of a hand (glossary: 庄家方 declarers, 防守方 defenders)."""

    DECLARERS = "declarers"
    DEFENDERS = "defenders"

    @property
    def other(self) -> Role:
        return Role.DEFENDERS if self is Role.DECLARERS else Role.DECLARERS


class HandResultError(RulesError):
    """Figures of a hand's result that cannot be right (named in the message)."""


def parse_role(value: Role | str, what: str = "side") -> Role:
    """``"declarers"`` or ``"defenders"`` (also 庄家/防守方 and 攻方/守方)."""
    if isinstance(value, Role):
        return value
    text = str(value).strip().lower()
    aliases = {
        "庄家": Role.DECLARERS,
        "庄家方": Role.DECLARERS,
        "攻方": Role.DECLARERS,
        "防守方": Role.DEFENDERS,
        "守方": Role.DEFENDERS,
    }
    if text in aliases:
        return aliases[text]
    try:
        return Role(text)
    except ValueError:
        raise HandResultError(f"{what} must be declarers or defenders, not {value!r}") from None


@dataclass(frozen=True, slots=True)
class Consequence:
    """One applied article and what it did, e.g. ``7.2: defenders 105 → declarers +2``.

    ``key`` and ``args`` word it in any language (:mod:`referee_desk.rules.wording`);
    ``text`` is the English wording of the same template.
    """

    article: str
    text: str
    key: str = ""
    args: Args = ()

    @classmethod
    def make(cls, article: str, key: str, **args: Any) -> Consequence:
        """A consequence worded by the phrasebook (English ``text`` from its template)."""
        stored = make_args(**args)
        return cls(article, render(key, stored, "en"), key, stored)

    def __str__(self) -> str:
        return f"{self.article}: {self.text}"


@dataclass(frozen=True, slots=True)
class HandResult:
    """Everything a hand's result decides.

    ``defenders_final`` (D) and ``b`` are None when a penalty set the levels directly
    (8.3 A). ``deal`` is the side that holds the deal for the next hand, which is also
    the side that won the hand; ``levels_up`` is what that side earned (7.1, 7.2, or
    the penalty), ``levels_moved`` how far it actually went up the ladder (less at
    the cap at A). Levels are given by role in the hand just played.
    """

    defenders_final: int | None
    b: int | None
    deal: Role
    levels_up: int
    levels_moved: int
    declarer_level_before: Rank
    defender_level_before: Rank
    declarer_level: Rank
    defender_level: Rank
    passed_a: bool
    consequences: tuple[Consequence, ...]

    @property
    def winner(self) -> Role:
        """The side that won the hand (2.3: it shuffles for the next one)."""
        return self.deal

    @property
    def kept_deal(self) -> bool:
        """True for 连庄 (declarers keep the deal), False for 上台 (defenders take it)."""
        return self.deal is Role.DECLARERS

    def level_of(self, role: Role | str) -> Rank:
        """A side's level after the hand, by its role in the hand just played."""
        role = parse_role(role)
        return self.declarer_level if role is Role.DECLARERS else self.defender_level

    def side_of(self, role: Role | str, declarer_side: Side) -> Side:
        """The seating side (N–S or E–W) that had ``role`` in the hand just played."""
        return declarer_side if parse_role(role) is Role.DECLARERS else declarer_side.other

    def levels_by_side(self, declarer_side: Side) -> dict[Side, Rank]:
        """Levels after the hand by seating side, given which side declared."""
        return {
            declarer_side: self.declarer_level,
            declarer_side.other: self.defender_level,
        }

    @property
    def articles(self) -> tuple[str, ...]:
        """The consequences as text (``"7.3: …"``), in the order applied."""
        return tuple(str(c) for c in self.consequences)


def _whole(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise HandResultError(f"{what} must be a whole number, not {value!r}")
    return value


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def _num(n: int) -> str:
    """A score as printed: a true minus sign for negatives."""
    return str(n) if n >= 0 else f"−{-n}"


def stage_offset(defenders_final: int, ruleset: Ruleset = GUILIN_2009) -> int:
    """b = floor((D − stage) / step) (7.1, 7.2): ≥ 0 defenders take the deal, < 0 not.

    12.6 [P table_floor_at_zero]: D ≤ 0 counts as 0 for the table.
    """
    final = _whole(defenders_final, "defenders' final score")
    if ruleset.table_floor_at_zero:
        final = max(final, 0)
    return (final - ruleset.stage) // ruleset.step


def kitty_multiplier_of(shapes: Iterable[tuple[int, int]], ruleset: Ruleset) -> int:
    """The kitty multiplier m of the last lead (12.5) from its units' shapes.

    ``shapes`` are (identical cards per rank, ranks) of the lead's unit, or of each
    component of a throw. ``by_shape`` (001): single ×2; pair, triple, bomb ×4; a
    tractor or bulldozer of k ranks ×2^k. ``power_of_cards`` (002): ×2^c with c the
    card count of the largest unit. For a throw the greatest multiplier counts.
    """
    items = list(shapes)
    if not items:
        raise HandResultError("the last lead's shape is missing (12.5)")
    for each, length in items:
        if isinstance(each, bool) or isinstance(length, bool):
            raise HandResultError(f"bad last-lead shape {each}×{length}")
        if not (1 <= each <= ruleset.decks and 1 <= length <= 13) or (each == 1 and length > 1):
            raise HandResultError(
                f"bad last-lead shape: {length} rank(s) of {each} identical card(s) "
                f"cannot be one unit with {ruleset.decks} decks"
            )
    if ruleset.kitty_multiplier == "power_of_cards":
        return 2 ** max(each * length for each, length in items)
    if ruleset.kitty_multiplier == "by_shape":
        return max(2**length if length > 1 else (2 if each == 1 else 4) for each, length in items)
    raise HandResultError("this ruleset has no kitty multiplier (last_trick is not kitty)")


def kitty_dig(
    defenders_points: int,
    last_trick_points: int,
    last_trick_winner: Role | str,
    kitty_points: int,
    multiplier: int,
    ruleset: Ruleset,
) -> tuple[int, Consequence]:
    """The defenders' final score after the last trick with a kitty (12.5).

    Defenders win it: the trick's points as any trick's, plus the kitty's points × m.
    Declarers win it: nothing changes (no 反抠).
    """
    points = _whole(defenders_points, "defenders' points before the last trick")
    trick_points = _whole(last_trick_points, "last-trick points")
    kitty = _whole(kitty_points, "kitty points")
    m = _whole(multiplier, "kitty multiplier")
    winner = parse_role(last_trick_winner, "last-trick winner")
    most = min(ruleset.kitty * _MAX_CARD_POINTS, _POINTS_PER_DECK * ruleset.decks)
    if kitty < 0 or kitty % 5 or kitty > most:
        raise HandResultError(
            f"kitty points must be a multiple of 5 from 0 to {most} "
            f"({ruleset.kitty} cards), not {kitty}"
        )
    if m < 2 or m & (m - 1):
        raise HandResultError(f"the kitty multiplier must be 2, 4, 8, …, not {m}")
    if trick_points < 0 or trick_points % 5:
        raise HandResultError(
            f"last-trick points must be a multiple of 5 and not negative, not {trick_points}"
        )
    if winner is Role.DECLARERS:
        step = Consequence.make("12.5", "kitty_declarers", kitty=kitty, before=points, final=points)
        return points, step
    dig = kitty * m
    final = points + trick_points + dig
    step = Consequence.make(
        "12.5",
        "kitty_defenders",
        points=trick_points,
        kitty=kitty,
        m=m,
        dig=dig,
        before=points,
        final=final,
    )
    return final, step


def last_trick_dig(
    defenders_points: int,
    last_trick_points: int,
    last_trick_cards: int,
    last_trick_winner: Role | str,
    ruleset: Ruleset = GUILIN_2009,
) -> tuple[int, Consequence]:
    """The defenders' final score after the last trick (7.3 反抠) and its working.

    The last trick's winner scores L × c (L: points in the trick, c: cards each
    player played). Defenders: added to their points before the last trick (with
    ``last_trick=bonus`` the ordinary capture of L is added as well). Declarers:
    subtracted from the defenders' points, which may go negative.
    """
    points = _whole(defenders_points, "defenders' points before the last trick")
    cards = _whole(last_trick_cards, "last-trick cards per player")
    trick_points = _whole(last_trick_points, "last-trick points")
    winner = parse_role(last_trick_winner, "last-trick winner")
    per_player_max = _CARDS_PER_DECK * ruleset.decks // _PLAYERS
    if not 1 <= cards <= per_player_max:
        raise HandResultError(
            f"last-trick cards per player must be 1 to {per_player_max}, not {cards}"
        )
    if trick_points < 0 or trick_points % 5:
        raise HandResultError(
            f"last-trick points must be a multiple of 5 and not negative, not {trick_points}"
        )
    most = min(_MAX_CARD_POINTS * _PLAYERS * cards, _POINTS_PER_DECK * ruleset.decks)
    if trick_points > most:
        raise HandResultError(
            f"last-trick points {trick_points} cannot be held by {_PLAYERS} × {cards} cards "
            f"(at most {most})"
        )
    dig = trick_points * cards
    figures = {"points": trick_points, "cards": cards, "before": points}
    if trick_points == 0:
        # 7.3 changes nothing: say so rather than print "−0×1 = −0".
        final = points
        step = Consequence.make("7.3", "last_trick_no_points", final=final, **figures)
    elif winner is Role.DECLARERS:
        final = points - dig
        step = Consequence.make("7.3", "last_trick_declarers", dig=dig, final=final, **figures)
    elif ruleset.last_trick == "bonus":
        gain = trick_points + dig
        final = points + gain
        step = Consequence.make(
            "7.3", "last_trick_defenders_bonus", gain=gain, final=final, **figures
        )
    else:
        final = points + dig
        step = Consequence.make("7.3", "last_trick_defenders", dig=dig, final=final, **figures)
    return final, step


def hand_result(
    *,
    defenders_points: int,
    last_trick_points: int,
    last_trick_cards: int,
    last_trick_winner: Role | str,
    declarer_level: Rank | str,
    defender_level: Rank | str,
    ruleset: Ruleset = GUILIN_2009,
    kitty_points: int | None = None,
    kitty_multiplier: int | None = None,
    dug_at_a: bool = False,
) -> HandResult:
    """The result of a hand played to the end (7.1-7.3, 1.5; 12.5-12.7).

    ``defenders_points`` are the points the defenders hold before the last trick
    (after any wrong-play adjustments, 8.2); the last trick is then dug (7.3, or the
    kitty of 12.5 with ``kitty_points`` × ``kitty_multiplier``) and the final score D
    settles the deal and the levels. ``dug_at_a``: the declarers have dug the kitty
    since they reached A (12.7 a_needs_dig).
    """
    if ruleset.last_trick == "kitty":
        if kitty_points is None or kitty_multiplier is None:
            raise HandResultError(
                "this ruleset digs the kitty (12.5): the kitty's points and the last "
                "lead's shape are needed"
            )
        cards = _whole(last_trick_cards, "last-trick cards per player")
        if not 1 <= cards <= ruleset.hand_size:
            raise HandResultError(
                f"last-trick cards per player must be 1 to {ruleset.hand_size}, not {cards}"
            )
        final, dig = kitty_dig(
            defenders_points,
            last_trick_points,
            last_trick_winner,
            kitty_points,
            kitty_multiplier,
            ruleset,
        )
    else:
        if kitty_points is not None:
            raise HandResultError(f"ruleset {ruleset.name} has no kitty (1.4 不垫底牌)")
        final, dig = last_trick_dig(
            defenders_points, last_trick_points, last_trick_cards, last_trick_winner, ruleset
        )
    return result_from_final_score(
        final, declarer_level, defender_level, ruleset, prior=(dig,), dug_at_a=dug_at_a
    )


def result_from_final_score(
    defenders_final: int,
    declarer_level: Rank | str,
    defender_level: Rank | str,
    ruleset: Ruleset = GUILIN_2009,
    *,
    prior: tuple[Consequence, ...] = (),
    dug_at_a: bool = False,
) -> HandResult:
    """The result from the defenders' final score D (7.1, 7.2; also 8.3 B).

    b = floor((D − stage) / step). b ≥ 0: the defenders take the deal (上台) and go
    up b levels, no cap (7.1). b < 0: the declarers keep the deal (连庄) and go up
    −b levels (7.2, negative scores by the same rule). The cap at A and passing A
    follow :mod:`referee_desk.rules.levels`. ``prior`` are consequences the caller
    already applied (the last-trick dig, a penalty), kept first. 12.6: D ≤ 0 may
    count as 0 (``table_floor_at_zero``), a shutout adds ``shutout_bonus`` levels for
    the declarers and ``max_gain`` caps any gain.
    """
    final = _whole(defenders_final, "defenders' final score")
    declarers = parse_ruleset_level(declarer_level, ruleset)
    defenders = parse_ruleset_level(defender_level, ruleset)
    b = stage_offset(final, ruleset)
    steps = list(prior)
    table = max(final, 0) if ruleset.table_floor_at_zero else final
    if table != final:
        steps.append(Consequence.make("12.6", "table_floor", final=final))
    if b >= 0:
        gain = b
        steps.append(Consequence.make("7.1", "stage_take", final=table, stage=ruleset.stage, b=b))
        role = Role.DEFENDERS
    else:
        gain = -b
        steps.append(Consequence.make("7.2", "stage_keep", final=table, gain=gain))
        role = Role.DECLARERS
        if ruleset.shutout_bonus and table <= 0:
            gain += ruleset.shutout_bonus
            steps.append(Consequence.make("12.6", "shutout_bonus", bonus=ruleset.shutout_bonus))
    if ruleset.max_gain is not None and gain > ruleset.max_gain:
        steps.append(
            Consequence.make("12.6", "max_gain", role=str(role), gain=gain, cap=ruleset.max_gain)
        )
        gain = ruleset.max_gain
    return _apply_gain(
        role, gain, declarers, defenders, ruleset, final, b, tuple(steps), dug_at_a=dug_at_a
    )


def result_from_levels_up(
    side: Role | str,
    levels: int,
    declarer_level: Rank | str,
    defender_level: Rank | str,
    ruleset: Ruleset = GUILIN_2009,
    *,
    article: str = "8.3 A",
    prior: tuple[Consequence, ...] = (),
) -> HandResult:
    """A result where a side goes up ``levels`` and holds the deal (8.3 A: two levels).

    Defenders who gain this way also take the deal; declarers keep it. The cap at A
    applies. With ``must_play_a`` such a gain never passes A: passing A takes a hand
    won at A as declarers with the defenders below the stage (1.5), which this is
    not (8.3 B, which sets D, can pass A). Without ``must_play_a``, any gain past A
    passes it. ``article`` names the rule that ordered the gain.
    """
    role = parse_role(side)
    gain = _whole(levels, "levels to gain")
    declarers = parse_ruleset_level(declarer_level, ruleset)
    defenders = parse_ruleset_level(defender_level, ruleset)
    key = "levels_up_keep" if role is Role.DECLARERS else "levels_up_take"
    if gain < 0:
        raise HandResultError(f"levels never go down: cannot gain {gain} levels")
    step = Consequence.make(article, key, role=str(role), gain=gain)
    return _apply_gain(role, gain, declarers, defenders, ruleset, None, None, (*prior, step))


def _apply_gain(
    role: Role,
    gain: int,
    declarers: Rank,
    defenders: Rank,
    ruleset: Ruleset,
    final: int | None,
    b: int | None,
    consequences: tuple[Consequence, ...],
    *,
    dug_at_a: bool = False,
) -> HandResult:
    before = declarers if role is Role.DECLARERS else defenders
    kept_at_a = role is Role.DECLARERS and final is not None
    after = gain_levels(before, gain, ruleset, kept_deal_at_a=kept_at_a, dug_at_a=dug_at_a)
    steps = list(consequences)
    if after.fell_back:
        steps.append(
            Consequence.make("12.7", "a_fallback", role=str(role), after=after.level.label)
        )
    elif after.passed_a:
        steps.append(Consequence.make("1.5", "pass_a", role=str(role)))
    elif gain and int(before) + gain > int(after.level):
        steps.append(
            Consequence.make(
                "1.5",
                "cap_at_a",
                role=str(role),
                before=before.label,
                gain=gain,
                after=after.level.label,
            )
        )
    if after.level != before:
        steps.append(
            Consequence.make(
                "7", "level_change", role=str(role), before=before.label, after=after.level.label
            )
        )
    new_declarers = after.level if role is Role.DECLARERS else declarers
    new_defenders = after.level if role is Role.DEFENDERS else defenders
    return HandResult(
        defenders_final=final,
        b=b,
        deal=role,
        levels_up=gain,
        levels_moved=max(int(after.level) - int(before), 0),
        declarer_level_before=declarers,
        defender_level_before=defenders,
        declarer_level=new_declarers,
        defender_level=new_defenders,
        passed_a=after.passed_a,
        consequences=tuple(steps),
    )


def next_dealer(dealer: Seat, deal: Role | str, ruleset: Ruleset = GUILIN_2009) -> Seat:
    """Who deals the next hand (RULES.md 7, rotation=partner_or_next; cf. 8.5).

    Declarers keep the deal → the dealer's partner; defenders take it → the player
    after the dealer in play order (counter-clockwise), a defender.
    """
    if ruleset.rotation != "partner_or_next":  # pragma: no cover - one mode exists
        raise HandResultError(f"unknown rotation {ruleset.rotation!r}")
    if parse_role(deal, "deal") is Role.DECLARERS:
        return dealer.partner
    return dealer.next_in_play


@dataclass(frozen=True, slots=True)
class ShuffleCut:
    """Who shuffles and who cuts for the next hand (2.3)."""

    shuffler: Seat
    cutter: Seat


def shuffle_and_cut(dealer: Seat, deal: Role | str, ruleset: Ruleset = GUILIN_2009) -> ShuffleCut:
    """2.3: 由赢家洗牌，输家过牌 (the winners shuffle, the losers cut).

    The text names sides, not seats; the desk decides: the next dealer (always on the
    winning side, see :func:`next_dealer`) shuffles, and the loser who plays just
    before the next dealer in play order cuts.
    """
    upcoming = next_dealer(dealer, deal, ruleset)
    cutter = next(seat for seat in Seat if seat.next_in_play is upcoming)
    return ShuffleCut(shuffler=upcoming, cutter=cutter)
