"""Ruleset parameters and overrides (RULES.md: every [P name=default])."""

from __future__ import annotations

import dataclasses

import pytest

from referee_desk.rules.errors import RulesError, UnknownParameterError, UnknownRulesetError
from referee_desk.rules.ruleset import GUILIN_2009, PARAMETER_ARTICLES, Ruleset, get_ruleset


def test_guilin_defaults_are_the_values_rules_md_names() -> None:
    """RULES.md 7: [P last_trick=multiply], [P stage=160, step=40], [P must_play_a=true],
    [P rotation=partner_or_next]; 1.4 [P decks=4]."""
    params = GUILIN_2009.parameters()
    assert params["last_trick"] == "multiply"
    assert (params["stage"], params["step"]) == (160, 40)
    assert params["must_play_a"] is True
    assert params["rotation"] == "partner_or_next"
    assert params["decks"] == 4
    assert GUILIN_2009.name == "guilin-2009"


def test_every_parameter_names_its_article() -> None:
    assert set(PARAMETER_ARTICLES) == set(GUILIN_2009.all_parameters())


@pytest.mark.parametrize(
    "overrides",
    [
        {"stage": 120},
        {"step": 30},
        {"last_trick": "bonus"},
        {"must_play_a": False},
        {"stage": 200, "step": 50, "last_trick": "bonus", "must_play_a": False},
    ],
)
def test_overrides_replace_only_what_they_name(overrides: dict[str, object]) -> None:
    ruleset = get_ruleset("guilin-2009", overrides)
    for name, value in GUILIN_2009.parameters().items():
        assert getattr(ruleset, name) == overrides.get(name, value)
    # The preset itself is frozen and unchanged.
    assert GUILIN_2009.stage == 160
    with pytest.raises(dataclasses.FrozenInstanceError):
        ruleset.stage = 1  # type: ignore[misc]


def test_no_overrides_give_the_preset_itself() -> None:
    assert get_ruleset() is GUILIN_2009
    assert get_ruleset("guilin-2009", {}) is GUILIN_2009


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        ({"stages": 160}, ["unknown parameter 'stages'", "stage"]),
        ({"name": "other"}, ["unknown parameter 'name'"]),
        ({"stage": "160"}, ["'stage'", "whole number"]),
        ({"stage": 160.0}, ["'stage'", "whole number"]),
        ({"stage": True}, ["'stage'", "whole number"]),
        ({"stage": -40}, ["'stage'", "negative"]),
        ({"step": 0}, ["'step'", "positive"]),
        ({"decks": 0}, ["'decks'", "positive"]),
        ({"must_play_a": 1}, ["'must_play_a'", "true or false"]),
        ({"must_play_a": "false"}, ["'must_play_a'", "true or false"]),
        ({"last_trick": "triple"}, ["'last_trick'", "multiply", "bonus"]),
        ({"rotation": "clockwise"}, ["'rotation'", "partner_or_next"]),
    ],
)
def test_bad_overrides_are_refused_with_clear_errors(
    overrides: dict[str, object], words: list[str]
) -> None:
    with pytest.raises(UnknownParameterError) as caught:
        get_ruleset("guilin-2009", overrides)
    for word in words:
        assert word in str(caught.value)
    assert isinstance(caught.value, RulesError)


def test_params_must_be_a_mapping() -> None:
    with pytest.raises(UnknownParameterError, match="params must be an object"):
        GUILIN_2009.with_overrides([("stage", 120)])  # type: ignore[arg-type]


def test_unknown_ruleset_names_the_known_ones() -> None:
    with pytest.raises(UnknownRulesetError, match=r"unknown ruleset 'guilin-2010'.*guilin-2009"):
        get_ruleset("guilin-2010")


def test_round_trip_through_a_dict() -> None:
    ruleset = get_ruleset(overrides={"stage": 200, "last_trick": "bonus"})
    again = Ruleset.from_dict(ruleset.to_dict())
    assert again == ruleset
