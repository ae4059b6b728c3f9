"""The rules core: pure card logic of RULES.md (no I/O, no Qt).

Public names are re-exported here; import-light (only rules modules).
"""

from referee_desk.rules.cards import (
    DECK,
    Card,
    Rank,
    Suit,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
    parse_level,
    points_of,
)
from referee_desk.rules.errors import (
    CardNotationError,
    IllegalInputError,
    RulesError,
    UnknownParameterError,
    UnknownRulesetError,
)
from referee_desk.rules.follow import (
    FollowMode,
    FollowRequirement,
    FollowVerdict,
    best_follow,
    check_follow,
    follow_requirement,
    is_legal_follow,
    legal_follows,
    required_shape,
)
from referee_desk.rules.profile import best_selection, pair_profile, tuple_size
from referee_desk.rules.ruleset import (
    GUILIN_2009,
    PRESETS,
    QQ_FOUR_DECK,
    THREE_DECK,
    Ruleset,
    get_ruleset,
)
from referee_desk.rules.throws import Throw, ThrowCheck, as_throw, check_throw, components_of
from referee_desk.rules.trick import (
    TrickResult,
    competes,
    lead_unit,
    trick_result,
    trick_winner,
)
from referee_desk.rules.trump import TRUMP, TrumpContext
from referee_desk.rules.units import Unit, UnitKind, classify

__all__ = [
    "DECK",
    "GUILIN_2009",
    "PRESETS",
    "QQ_FOUR_DECK",
    "THREE_DECK",
    "TRUMP",
    "Card",
    "CardNotationError",
    "FollowMode",
    "FollowRequirement",
    "FollowVerdict",
    "IllegalInputError",
    "Rank",
    "RulesError",
    "Ruleset",
    "Suit",
    "Throw",
    "ThrowCheck",
    "TrickResult",
    "TrumpContext",
    "Unit",
    "UnitKind",
    "UnknownParameterError",
    "UnknownRulesetError",
    "as_throw",
    "best_follow",
    "best_selection",
    "check_follow",
    "check_throw",
    "classify",
    "competes",
    "components_of",
    "follow_requirement",
    "format_card",
    "format_cards",
    "get_ruleset",
    "is_legal_follow",
    "lead_unit",
    "legal_follows",
    "pair_profile",
    "parse_card",
    "parse_cards",
    "parse_level",
    "points_of",
    "required_shape",
    "trick_result",
    "trick_winner",
    "tuple_size",
]
