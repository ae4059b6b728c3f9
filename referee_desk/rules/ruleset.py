"""Ruleset parameters (every [P name=default] of RULES.md) and named presets.

A ruleset is frozen for a match when it opens; every printed result states its
values. Overrides are checked by name and type so a typo never passes silently.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from referee_desk.rules.errors import UnknownParameterError, UnknownRulesetError

LastTrickMode = Literal["multiply", "bonus", "kitty"]
KittyMultiplier = Literal["none", "by_shape", "power_of_cards"]
LevelsMode = Literal["3..A", "2..A"]
FixedRanks = Literal["2", "none", "10", "10+2"]
RotationMode = Literal["partner_or_next"]
NoBidMode = Literal["redeal_first_else_nt"]
RevokeEstablished = Literal["next_trick"]
TimeOutMode = Literal["finish_hand", "stop"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "last_trick": ("multiply", "bonus", "kitty"),
    "kitty_multiplier": ("none", "by_shape", "power_of_cards"),
    "levels": ("3..A", "2..A"),
    "fixed_trump_ranks": ("2", "none", "10", "10+2"),
    "a_fallback": ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"),
    "rotation": ("partner_or_next",),
    "no_bid": ("redeal_first_else_nt",),
    "revoke_established": ("next_trick",),
    "at_time_out": ("finish_hand", "stop"),
}

#: Where each parameter is decided (RULES.md section / Guilin article).
PARAMETER_ARTICLES: dict[str, str] = {
    "decks": "1.4",
    "bridge_level_gap": "3.1",
    "triple_lead_spares_tractors": "4.5",
    "last_trick": "7.3",
    "stage": "7.1",
    "step": "7.1",
    "must_play_a": "1.5",
    "rotation": "8.5",
    "no_bid": "2.1",
    "misplay_points_per_card": "8.2",
    "revoke_established": "8.3",
    "think_seconds": "8.9",
    "overrun_counts_as_warning": "8.9",
    "match_minutes": "1.5",
    "at_time_out": "1.5",
    "kitty": "12.1",
    "levels": "12.1",
    "fixed_trump_ranks": "12.1",
    "twos_fixed_in_three_deck": "12.1",
    "bombs_beat_tractors": "12.2",
    "trump_tractor_chain": "12.2",
    "throws": "12.4",
    "throw_fail_points": "12.4",
    "kitty_multiplier": "12.5",
    "shutout_bonus": "12.6",
    "max_gain": "12.6",
    "table_floor_at_zero": "12.6",
    "a_needs_dig": "12.7",
    "a_fallback": "12.7",
    "concealment": "12.8",
    "conceal_points": "12.8",
    "race_needs_lj": "12.3",
}

#: Parameters of RULES.md section 12 (the presets). A Guilin ruleset lists them only
#: when an override changes them, so Guilin records (and the samples) keep the exact
#: parameter set they were frozen with.
PRESET_PARAMETERS: tuple[str, ...] = (
    "kitty",
    "levels",
    "fixed_trump_ranks",
    "twos_fixed_in_three_deck",
    "bombs_beat_tractors",
    "trump_tractor_chain",
    "throws",
    "throw_fail_points",
    "kitty_multiplier",
    "shutout_bonus",
    "max_gain",
    "table_floor_at_zero",
    "a_needs_dig",
    "a_fallback",
    "concealment",
    "conceal_points",
    "race_needs_lj",
)

#: Parameters that may be ``null`` (no value): no cap, no time limit.
_OPTIONAL = frozenset({"max_gain", "match_minutes"})


@dataclass(frozen=True, slots=True)
class Ruleset:
    """All ruleset parameters, defaulting to the Guilin 2009 values."""

    name: str = "guilin-2009"
    decks: int = 4
    bridge_level_gap: bool = False
    triple_lead_spares_tractors: bool = True
    last_trick: LastTrickMode = "multiply"
    stage: int = 160
    step: int = 40
    must_play_a: bool = True
    rotation: RotationMode = "partner_or_next"
    no_bid: NoBidMode = "redeal_first_else_nt"
    misplay_points_per_card: int = 10
    revoke_established: RevokeEstablished = "next_trick"
    think_seconds: int = 10
    overrun_counts_as_warning: bool = False
    match_minutes: int | None = 120
    at_time_out: TimeOutMode = "finish_hand"
    # -- RULES.md section 12 (the guilin values; the presets below change them) --------
    kitty: int = 0
    levels: LevelsMode = "3..A"
    fixed_trump_ranks: FixedRanks = "2"
    twos_fixed_in_three_deck: bool = False
    bombs_beat_tractors: bool = True
    trump_tractor_chain: bool = False
    throws: bool = False
    throw_fail_points: int = 0
    kitty_multiplier: KittyMultiplier = "none"
    shutout_bonus: int = 0
    max_gain: int | None = None
    table_floor_at_zero: bool = False
    a_needs_dig: bool = False
    a_fallback: str = "J"
    concealment: bool = False
    conceal_points: int = 60
    race_needs_lj: bool = True
    """2.1: a bid in the bidding race shows one LJ; 12.3: the presets bid level cards only."""

    def __post_init__(self) -> None:
        if (54 * self.decks - self.kitty) % 4:
            raise UnknownParameterError(
                f"kitty {self.kitty} does not leave four equal hands of {self.decks} decks "
                f"({54 * self.decks} cards)"
            )
        if self.kitty >= 54 * self.decks:
            raise UnknownParameterError(f"kitty {self.kitty} is more than the cards dealt")

    @property
    def hand_size(self) -> int:
        """Cards each player holds after the deal (12.1: (54·decks − kitty) / 4)."""
        return (54 * self.decks - self.kitty) // 4

    @property
    def fixed_ranks(self) -> tuple[str, ...]:
        """The fixed trump ranks besides the jokers (12.1), highest first."""
        value = self.fixed_trump_ranks
        if value == "10" and self.twos_fixed_in_three_deck:
            value = "10+2"
        return () if value == "none" else tuple(value.split("+"))

    @property
    def first_level(self) -> str:
        """The level both sides start at (12.1 levels; a fixed rank is never a level)."""
        first = self.levels.split("..")[0]
        return "3" if first == "2" and "2" in self.fixed_ranks else first

    def with_overrides(self, overrides: Mapping[str, object] | None) -> Ruleset:
        """A copy with parameters replaced; unknown names or bad values are refused."""
        if not overrides:
            return self
        if not isinstance(overrides, Mapping):
            raise UnknownParameterError("params must be an object of parameter names to values")
        fields = {f.name: f for f in dataclasses.fields(self) if f.name != "name"}
        # Any: each value is checked against its field's default by name, and
        # dataclasses.replace takes them by name (no static type per name here).
        clean: dict[str, Any] = {}
        for key, value in overrides.items():
            if key not in fields:
                known = ", ".join(sorted(fields))
                raise UnknownParameterError(f"unknown parameter {key!r}; known: {known}")
            clean[key] = _check_value(key, value, getattr(self, key))
        return dataclasses.replace(self, **clean)

    def parameters(self) -> dict[str, object]:
        """Parameter values by name (without the preset name), in declaration order.

        A ``guilin-2009`` ruleset leaves out the section-12 parameters still at their
        Guilin values (records frozen before section 12 existed stay identical).
        """
        guilin = self.name == "guilin-2009"
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name != "name"
            and not (guilin and f.name in PRESET_PARAMETERS and getattr(self, f.name) == f.default)
        }

    def all_parameters(self) -> dict[str, object]:
        """Every parameter value by name, section-12 ones included."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "name"}

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "params": self.parameters()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        """From ``to_dict``'s shape as parsed JSON (a match_opened payload's ruleset)."""
        return get_ruleset(str(data.get("name", "guilin-2009")), data.get("params"))


def _check_value(key: str, value: object, default: object) -> object:
    if key in _OPTIONAL:
        if value is None:
            return None
        default = 0
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise UnknownParameterError(f"parameter {key!r} must be true or false, not {value!r}")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise UnknownParameterError(f"parameter {key!r} must be a whole number, not {value!r}")
        if key in ("decks", "step", "think_seconds", "match_minutes", "max_gain") and value <= 0:
            raise UnknownParameterError(f"parameter {key!r} must be positive, not {value}")
        if key == "decks" and value not in (3, 4):
            raise UnknownParameterError(f"parameter 'decks' must be 3 or 4, not {value}")
        if value < 0:
            raise UnknownParameterError(f"parameter {key!r} cannot be negative, not {value}")
        return value
    choices = _CHOICES[key]
    if value not in choices:
        raise UnknownParameterError(
            f"parameter {key!r} must be one of {', '.join(choices)}, not {value!r}"
        )
    return value


GUILIN_2009 = Ruleset()

#: Seed 001 (four decks, online-room rules), RULES.md section 12.
QQ_FOUR_DECK = Ruleset(
    name="qq-four-deck",
    decks=4,
    kitty=8,
    levels="2..A",
    fixed_trump_ranks="none",
    bombs_beat_tractors=False,
    bridge_level_gap=True,
    trump_tractor_chain=True,
    throws=True,
    throw_fail_points=0,
    last_trick="kitty",
    kitty_multiplier="by_shape",
    stage=80,
    step=40,
    shutout_bonus=1,
    max_gain=3,
    table_floor_at_zero=True,
    a_needs_dig=True,
    a_fallback="J",
    match_minutes=None,
    race_needs_lj=False,
)

#: Seed 002 (three decks), RULES.md section 12.
THREE_DECK = Ruleset(
    name="three-deck",
    decks=3,
    kitty=6,
    levels="2..A",
    fixed_trump_ranks="10",
    bombs_beat_tractors=False,
    bridge_level_gap=True,
    trump_tractor_chain=True,
    throws=True,
    throw_fail_points=20,
    last_trick="kitty",
    kitty_multiplier="power_of_cards",
    stage=120,
    step=60,
    shutout_bonus=1,
    max_gain=None,
    table_floor_at_zero=True,
    concealment=True,
    conceal_points=60,
    match_minutes=None,
    race_needs_lj=False,
)

PRESETS: dict[str, Ruleset] = {r.name: r for r in (GUILIN_2009, QQ_FOUR_DECK, THREE_DECK)}


def get_ruleset(
    name: str = "guilin-2009", overrides: Mapping[str, object] | None = None
) -> Ruleset:
    """The named preset with overrides applied."""
    try:
        base = PRESETS[name]
    except KeyError:
        raise UnknownRulesetError(
            f"unknown ruleset {name!r}; known: {', '.join(sorted(PRESETS))}"
        ) from None
    return base.with_overrides(overrides)
