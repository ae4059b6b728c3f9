"""The section-5 key of a set of cards against a lead (or a throw's component).

One definition for following a unit (``follow``) and a throw's components
(``throw_follow``): the tuple size or bulldozer match first, then the pair profile.
"""

from __future__ import annotations

from referee_desk.rules.cards import Card
from referee_desk.rules.follow_text import TUPLE_LEADS, Key
from referee_desk.rules.profile import pair_profile, tuple_size
from referee_desk.rules.trump import TrumpContext
from referee_desk.rules.units import Unit, UnitKind, classify


def key_of(cards: tuple[Card, ...], lead: Unit, ctx: TrumpContext) -> Key:
    """The section-5 key of a set F of the lead's suit, by lead type."""
    profile = pair_profile(cards, ctx)
    if lead.kind in TUPLE_LEADS:
        return (min(tuple_size(cards), lead.each), profile)
    if lead.kind is UnitKind.BULLDOZER:
        unit = classify(cards, ctx)
        same = (
            unit is not None
            and unit.kind is UnitKind.BULLDOZER
            and (unit.each, unit.length) == (lead.each, lead.length)
        )
        return (1 if same else 0, profile)
    return (0, profile)
