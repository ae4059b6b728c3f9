"""Memoised parsing and rules-core calls shared by every replay in the process.

A desk re-replays the same record many times (each keystroke of review mode, each
import check), so event times, card tokens, typed payloads and the rules core's
judgements are kept by plain-value keys. ``caches.clear_caches()`` empties them all (the
benchmark's cold case; nothing else needs it since the keys are the values); it lives in
``caches`` so this module imports none of its users.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from functools import cache, lru_cache
from typing import Any

from referee_desk.match import events as ev
from referee_desk.match.clock import format_time, parse_time
from referee_desk.match.envelope import Event
from referee_desk.rules.cards import DECK, Card, Rank, Suit, format_card, parse_card
from referee_desk.rules.follow import FollowVerdict, check_follow, is_top_follow
from referee_desk.rules.ruleset import Ruleset
from referee_desk.rules.seats import Seat
from referee_desk.rules.trick import TrickResult, trick_result
from referee_desk.rules.trump import TrumpContext

#: A trump context as plain values (level, trump letter or None, bridge_level_gap), and
#: for the section-12 card systems also (fixed ranks above, below the level, chain).
CtxKey = tuple[Any, ...]

SEAT_BY_NAME = {seat.value: seat for seat in Seat}
#: The canonical token of each card, by ``Card.index``.
_CANON = tuple(format_card(c) for c in DECK)
PLAY_ORDER = {seat: seat.play_order_from() for seat in Seat}


@lru_cache(maxsize=1 << 16)
def event_ms(text: str) -> int:
    """``parse_time`` memoised (each event's time is read several times per replay)."""
    return parse_time(text)


@cache
def card_of(token: str) -> Card:
    return parse_card(token)


@cache
def canon(token: str) -> str:
    """The canonical notation of a card token (``♥10`` → ``H10``)."""
    return format_card(parse_card(token))


def cards_of(tokens: Iterable[str]) -> tuple[Card, ...]:
    return tuple(map(card_of, tokens))


def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


PARSED: dict[str, tuple[dict[str, Any], Any]] = {}
PARSED_MAX = 1 << 16


def parsed_payload(event: Event) -> Any:
    """The typed payload, memoised for the very same event object (re-replays repeat it).

    The memo is keyed by the sealed hash and used only when the payload is the same
    object, so an event read again from a file (or altered) is parsed afresh.
    """
    key = event.hash
    if not key:
        return ev.parse_payload(event.type, event.payload)
    found = PARSED.get(key)
    if found is not None and found[0] is event.payload:
        return found[1]
    if len(PARSED) >= PARSED_MAX:
        PARSED.clear()
    parsed = ev.parse_payload(event.type, event.payload)
    PARSED[key] = (event.payload, parsed)
    return parsed


@cache
def ctx_of(key: CtxKey) -> TrumpContext:
    level, trump, gap = key[:3]
    suit = None if trump is None else Suit(trump)
    if len(key) == 3:
        return TrumpContext(Rank(level), suit, gap)
    above, below, chain = key[3:]
    return TrumpContext(
        Rank(level),
        suit,
        gap,
        tuple(map(Rank, above)),
        tuple(map(Rank, below)),
        chain,
    )


def ctx_key_of(level: Rank, trump: str | None, ruleset: Ruleset) -> CtxKey:
    """The plain-value key of a hand's trump context under ``ruleset`` (12.1, 12.2)."""
    ctx = TrumpContext.for_ruleset(level, "NT" if trump is None else trump, ruleset)
    if ctx.is_guilin_system:
        return (int(level), trump, ruleset.bridge_level_gap)
    return (
        int(level),
        trump,
        ruleset.bridge_level_gap,
        tuple(map(int, ctx.fixed_above)),
        tuple(map(int, ctx.fixed_below)),
        ctx.trump_chain,
    )


@cache
def suit_memo(key: CtxKey) -> Suits:
    """A shared token → effective-suit memo for one trump context (see ``Suits``)."""
    ctx = ctx_of(key)
    return Suits(token_suits(ctx), ctx)


class Suits(dict[str, str]):
    """Token → effective suit: pre-filled with the canonical token of each of the 54
    cards (what the fold stores), so lookups hit; other spellings parsed once."""

    def __init__(self, table: dict[str, str], ctx: TrumpContext) -> None:
        super().__init__(table)
        self.ctx = ctx

    def __missing__(self, token: str) -> str:
        found = self[token] = self.ctx.effective_suit(card_of(token))
        return found


@lru_cache(maxsize=256)
def token_suits(ctx: TrumpContext) -> dict[str, str]:
    """Canonical card token → effective suit in ``ctx`` (callers may add spellings)."""
    suit = ctx.tables.suit
    return {_CANON[c.index]: suit[c.index] for c in DECK}


@lru_cache(maxsize=1 << 16)
def judge_trick(
    plays: tuple[tuple[str, ...], ...],
    ctx_key: CtxKey,
    discarded: tuple[int, ...],
    rules: Ruleset | None = None,
) -> TrickResult:
    """The rules core's trick judgement, memoised: replays of one record repeat it.

    Keyed by plain values (card tokens, level, trump) so a cache hit costs little.
    ``rules`` is the ruleset when it allows throws or drops the bomb tiers (12.2, 12.4),
    None for Guilin's trick rules.
    """
    cards = [map(card_of, p) for p in plays]  # trick_result makes each play a tuple once
    if rules is None:
        return trick_result(cards, ctx_of(ctx_key), discarded=discarded)
    return trick_result(cards, ctx_of(ctx_key), discarded=discarded, ruleset=rules)


@lru_cache(maxsize=1 << 16)
def judge_follow(
    lead: tuple[str, ...],
    held: tuple[str, ...],
    play: tuple[str, ...],
    ctx: TrumpContext,
    ruleset: Ruleset,
) -> FollowVerdict:
    """The rules core's follow verdict, memoised like :func:`judge_trick`."""
    return check_follow(cards_of(lead), cards_of(held), cards_of(play), ctx, ruleset)


@lru_cache(maxsize=1 << 16)
def top_follow(lead: tuple[str, ...], play: tuple[str, ...], ctx: TrumpContext) -> bool:
    """``rules.follow.is_top_follow`` on card tokens, memoised."""
    return is_top_follow(cards_of(lead), cards_of(play), ctx)


def to_epoch_ms(now: str | datetime | int) -> int:
    if isinstance(now, int):
        return now
    if isinstance(now, datetime):
        return parse_time(format_time(now))
    return parse_time(now)
