"""Typed errors of the rules core, split by what the caller got (issue 17).

``RulesProblem`` is the root. A *refusal* (``RulesError``, also named ``RulesRefused``)
means the input is wrong and is worded for the user; a *failure* (``RulesFailed``)
means the rules core itself went wrong (a bug) and is reported with its cause, never
as a refusal. Every refusal is a ValueError (as callers have always caught it); a
failure is not, so ``except RulesError`` never swallows a bug.
"""


class RulesProblem(Exception):
    """Root of every error the rules core raises."""


class RulesError(RulesProblem, ValueError):
    """A refusal: input the rules core does not accept (worded for the user)."""


#: The refusal root under the name that says what it is.
RulesRefused = RulesError


class RulesFailed(RulesProblem, RuntimeError):
    """A failure: the rules core reached a state its own invariants exclude (a bug)."""


class CardNotationError(RulesError):
    """A card token or card list that the section-1 notation does not accept."""


class UnknownParameterError(RulesError):
    """A ruleset parameter name or value that the ruleset does not know."""


class UnknownRulesetError(RulesError):
    """A ruleset (preset) name that does not exist."""


class IllegalInputError(RulesError):
    """Input a rule check cannot judge: a lead that is not one unit, a play of the
    wrong size, or cards the hand does not hold."""
