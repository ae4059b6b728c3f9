"""Typed errors of the tournament layer: each is a ValueError a caller can catch by kind."""


class TournamentError(ValueError):
    """Base of every error the tournament layer raises for bad input."""


class PairError(TournamentError):
    """A registered pair (or a pair list being imported) that cannot be accepted."""


class DrawError(TournamentError):
    """A draw that cannot be made, or a change that the frozen draw forbids."""


class OutcomeError(TournamentError):
    """A match outcome that does not fit the match it claims to decide."""
