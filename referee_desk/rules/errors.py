"""Typed errors of the rules core: each is a ValueError a caller can catch by kind."""


class RulesError(ValueError):
    """Base of every error the rules core raises for bad input."""


class CardNotationError(RulesError):
    """A card token or card list that the section-1 notation does not accept."""


class UnknownParameterError(RulesError):
    """A ruleset parameter name or value that the ruleset does not know."""


class UnknownRulesetError(RulesError):
    """A ruleset (preset) name that does not exist."""


class IllegalInputError(RulesError):
    """Input a rule check cannot judge: a lead that is not one unit, a play of the
    wrong size, or cards the hand does not hold."""
