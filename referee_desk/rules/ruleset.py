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

LastTrickMode = Literal["multiply", "bonus"]
RotationMode = Literal["partner_or_next"]
NoBidMode = Literal["redeal_first_else_nt"]
RevokeEstablished = Literal["next_trick"]
TimeOutMode = Literal["finish_hand", "stop"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "last_trick": ("multiply", "bonus"),
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
}


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
    match_minutes: int = 120
    at_time_out: TimeOutMode = "finish_hand"

    def with_overrides(self, overrides: Mapping[str, Any] | None) -> Ruleset:
        """A copy with parameters replaced; unknown names or bad values are refused."""
        if not overrides:
            return self
        if not isinstance(overrides, Mapping):
            raise UnknownParameterError("params must be an object of parameter names to values")
        fields = {f.name: f for f in dataclasses.fields(self) if f.name != "name"}
        clean: dict[str, Any] = {}
        for key, value in overrides.items():
            if key not in fields:
                known = ", ".join(sorted(fields))
                raise UnknownParameterError(f"unknown parameter {key!r}; known: {known}")
            clean[key] = _check_value(key, value, getattr(self, key))
        return dataclasses.replace(self, **clean)

    def parameters(self) -> dict[str, Any]:
        """Parameter values by name (without the preset name), in declaration order."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "name"}

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "params": self.parameters()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        return get_ruleset(str(data.get("name", "guilin-2009")), data.get("params"))


def _check_value(key: str, value: Any, default: Any) -> Any:
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise UnknownParameterError(f"parameter {key!r} must be true or false, not {value!r}")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise UnknownParameterError(f"parameter {key!r} must be a whole number, not {value!r}")
        if key in ("decks", "step", "think_seconds", "match_minutes") and value <= 0:
            raise UnknownParameterError(f"parameter {key!r} must be positive, not {value}")
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

PRESETS: dict[str, Ruleset] = {GUILIN_2009.name: GUILIN_2009}


def get_ruleset(name: str = "guilin-2009", overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """The named preset with overrides applied."""
    try:
        base = PRESETS[name]
    except KeyError:
        raise UnknownRulesetError(
            f"unknown ruleset {name!r}; known: {', '.join(sorted(PRESETS))}"
        ) from None
    return base.with_overrides(overrides)
