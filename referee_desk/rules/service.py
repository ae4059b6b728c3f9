"""The JSON rules service behind ``referee-desk rules`` (Qt-free).

Protocol: JSON Lines. Each input line is one query object; each gets exactly one
answer object on one output line, in order, flushed at once. A query that cannot
be answered gets ``{"error": "..."}`` naming the problem, and the stream goes on.

Every query carries ``op``, ``level`` (``"3"`` … ``"A"``), ``trump`` (``S H D C``
or ``NT``), and optionally ``ruleset`` (default ``guilin-2009``), ``params``
(overrides by RULES.md names) and ``id`` (echoed back). Ops:

- ``unit``: ``cards`` → ``unit`` (kind or null), ``length``, ``each``, ``suit``
- ``follow``: ``lead``, ``hand``, ``play`` → ``legal``, ``rule``, ``reason``,
  ``instead`` (only when illegal)
- ``winner``: ``plays`` (lead first, in play order) → ``winner`` (index)
- ``result``: ``defenders_points``, ``last_trick_points``, ``last_trick_cards``,
  ``last_trick_winner``, ``declarer_level``, ``defender_level`` →
  ``defenders_final``, ``deal``, ``levels_up``, ``declarer_level``,
  ``defender_level``, ``passed_a`` (``level``/``trump`` optional for this op);
  kitty presets (12.5) also need ``kitty_points``, ``last_lead`` (cards of the last
  trick's lead, judged with ``level``/``trump``) and take ``declarers_dug_at_a``
  (12.7), and answer ``multiplier``
- ``throw`` (presets with throws, 12.4): ``lead``, ``shown`` (cards another player
  shows) → ``fails``, ``forced`` (the cards the thrower must play, or null),
  ``components``, ``beaten``

``unit``, ``follow`` and ``winner`` accept throws where the preset allows them
(``unit`` answers ``"throw"`` with its ``components``) and refuse them (4.7) in Guilin.

Rulesets and trump contexts are cached, so a stream of similar queries does not
re-parse them line by line.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import BinaryIO, NoReturn

from referee_desk.rules.cards import Card, format_cards, parse_cards
from referee_desk.rules.errors import RulesError
from referee_desk.rules.follow import check_follow
from referee_desk.rules.levels import parse_ruleset_level
from referee_desk.rules.result import hand_result, kitty_multiplier_of
from referee_desk.rules.ruleset import Ruleset, get_ruleset
from referee_desk.rules.throws import as_throw, check_throw, kitty_components, shape_of
from referee_desk.rules.trick import trick_result
from referee_desk.rules.trump import TrumpContext
from referee_desk.rules.units import Unit, classify

#: One answer line (a JSON object).
Answer = dict[str, object]

#: Keys every query may carry, whatever its op.
_COMMON_KEYS = frozenset({"op", "level", "trump", "ruleset", "params", "id"})

#: Required keys per op (beyond the common ones).
OP_FIELDS: dict[str, tuple[str, ...]] = {
    "unit": ("cards",),
    "follow": ("lead", "hand", "play"),
    "winner": ("plays",),
    "result": (
        "defenders_points",
        "last_trick_points",
        "last_trick_cards",
        "last_trick_winner",
        "declarer_level",
        "defender_level",
    ),
    "throw": ("lead", "shown"),
}

#: Optional keys per op: the kitty presets' result (12.5, 12.7).
OPTIONAL_FIELDS: dict[str, tuple[str, ...]] = {
    "result": ("kitty_points", "last_lead", "declarers_dug_at_a"),
}

#: Ops that judge cards and so need the level and trump.
_CARD_OPS = frozenset({"unit", "follow", "winner", "throw"})

_CACHE_LIMIT = 256

#: Card list separators, as in cards.parse_cards (spaces, commas, 、).
_SPLIT = re.compile(r"[\s,，、]+")


class QueryError(RulesError):
    """A query the service cannot read: missing or mistyped fields, unknown op."""


_JSON_KINDS = {
    list: "an array",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "true/false",
    type(None): "null",
}


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number JSON allows")


class RulesService:
    """Answers queries; holds caches of rulesets, trump contexts and parsed cards."""

    def __init__(self) -> None:
        self._rulesets: dict[tuple[str, tuple[tuple[str, object], ...] | None], Ruleset] = {}
        self._contexts: dict[tuple[object, ...], TrumpContext] = {}
        self._cards: dict[str, tuple[Card, ...]] = {}
        self._tokens: dict[str, Card] = {}
        self._ops: dict[str, Callable[[Mapping[str, object], Ruleset], Answer]] = {
            "unit": self._unit,
            "follow": self._follow,
            "winner": self._winner,
            "result": self._result,
            "throw": self._throw,
        }

    # -- the stream -----------------------------------------------------------

    def answer_line(self, raw: bytes | str) -> Answer:
        """The answer to one input line; never raises."""
        try:
            text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError as exc:
            return {"error": f"the line is not UTF-8 text: {exc.reason} at byte {exc.start}"}
        text = text.strip().lstrip("\ufeff")
        if not text:
            return {"error": "empty line: expected one JSON query object"}
        try:
            query = json.loads(text, parse_constant=_reject_constant)
        except json.JSONDecodeError as exc:
            return {"error": f"bad JSON at column {exc.colno}: {exc.msg}"}
        except (ValueError, RecursionError) as exc:
            return {"error": f"bad JSON: {exc}"}
        return self.answer(query)

    def answer(self, query: object) -> Answer:
        """The answer to one parsed query; errors become ``{"error": ...}``."""
        if not isinstance(query, dict):
            kind = _JSON_KINDS.get(type(query), type(query).__name__)
            return {"error": f"a query must be a JSON object, not {kind}"}
        op = query.get("op")
        prefix = f"{op}: " if isinstance(op, str) and op in self._ops else ""
        try:
            answer = self._dispatch(query)
        except RulesError as exc:
            answer = {"error": f"{prefix}{exc}"}
        except Exception as exc:  # never a traceback on the stream
            answer = {"error": f"{prefix}internal error: {type(exc).__name__}: {exc}"}
        if "id" in query:
            answer["id"] = query["id"]
        return answer

    # -- common fields --------------------------------------------------------

    def _dispatch(self, query: Mapping[str, object]) -> Answer:
        op = query.get("op")
        if op is None:
            raise QueryError(f"missing op: use one of {', '.join(OP_FIELDS)}")
        if not isinstance(op, str) or (handler := self._ops.get(op)) is None:
            raise QueryError(f"unknown op {op!r}: use one of {', '.join(OP_FIELDS)}")
        fields = OP_FIELDS[op]
        optional = OPTIONAL_FIELDS.get(op, ())
        unknown = [
            k for k in query if k not in _COMMON_KEYS and k not in fields and k not in optional
        ]
        if unknown:
            takes = ", ".join((*fields, *(f"{k} (optional)" for k in optional)))
            raise QueryError(
                f"unknown field {', '.join(map(repr, unknown))} (this op takes "
                f"{takes}, plus level, trump, ruleset, params, id)"
            )
        missing = [k for k in fields if k not in query]
        if op in _CARD_OPS:
            missing = [k for k in ("level", "trump") if k not in query] + missing
        if missing:
            raise QueryError(f"missing field {', '.join(missing)}")
        return handler(query, self._ruleset(query))

    def _ruleset(self, query: Mapping[str, object]) -> Ruleset:
        name = query.get("ruleset", "guilin-2009")
        if not isinstance(name, str):
            raise QueryError(f"ruleset must be a preset name, not {name!r}")
        params = query.get("params")
        if params is not None and not isinstance(params, dict):
            raise QueryError("params must be an object of parameter names to values")
        try:
            key = (name, tuple(sorted(params.items())) if params else None)
            hash(key)
        except TypeError:
            return get_ruleset(name, params)  # unhashable value: with_overrides refuses it
        ruleset = self._rulesets.get(key)
        if ruleset is None:
            ruleset = get_ruleset(name, params)
            if len(self._rulesets) >= _CACHE_LIMIT:
                self._rulesets.clear()
            self._rulesets[key] = ruleset
        return ruleset

    def _context(self, query: Mapping[str, object], ruleset: Ruleset) -> TrumpContext:
        level, trump = query["level"], query["trump"]
        try:
            key = (
                level,
                trump,
                ruleset.bridge_level_gap,
                ruleset.fixed_ranks,
                ruleset.trump_tractor_chain,
                ruleset.first_level,
            )
            ctx = self._contexts.get(key)
        except TypeError:
            raise QueryError(
                f"level and trump must be strings, not {level!r} / {trump!r}"
            ) from None
        if ctx is None:
            if isinstance(level, int) and not isinstance(level, bool):
                level = str(level)
            if not isinstance(level, str):
                raise QueryError(f"level must be a string, not {level!r}")
            if not isinstance(trump, str):
                raise QueryError(f"trump must be a string, not {trump!r}")
            ctx = TrumpContext.for_ruleset(level, trump, ruleset)
            if len(self._contexts) >= _CACHE_LIMIT:
                self._contexts.clear()
            self._contexts[key] = ctx
        return ctx

    def _parse(self, value: object, what: str) -> tuple[Card, ...]:
        """Cards from a notation string or a list of card tokens, errors naming ``what``."""
        try:
            if isinstance(value, str):
                cards = self._cards.get(value)
                if cards is None:
                    cards = self._parse_text(value)
                    if len(self._cards) >= 4 * _CACHE_LIMIT:
                        self._cards.clear()
                    self._cards[value] = cards
                return cards
            if isinstance(value, list):
                return parse_cards(value)
        except RulesError as exc:
            raise QueryError(f"{what}: {exc}") from None
        raise QueryError(f"{what} must be a card list (a string or a list of cards)")

    def _parse_text(self, text: str) -> tuple[Card, ...]:
        """parse_cards with a cache of known tokens; any unknown token takes the slow
        path, so errors are exactly parse_cards' errors."""
        tokens = [t for t in _SPLIT.split(text.strip()) if t]
        known = self._tokens
        try:
            return tuple([known[t] for t in tokens])
        except KeyError:
            pass
        parsed = parse_cards(tokens)
        if len(known) >= 16 * _CACHE_LIMIT:
            known.clear()
        known.update(zip(tokens, parsed, strict=True))
        return parsed

    @staticmethod
    def _check_copies(groups: Iterable[tuple[str, tuple[Card, ...]]], ruleset: Ruleset) -> None:
        """1.4: each distinct card exists ``decks`` times; a fifth copy is a data error.

        The error names the card list and the 1-based position of the first copy too many.
        """
        counts: Counter[Card] = Counter()
        for name, group in groups:
            for position, card in enumerate(group, start=1):
                counts[card] += 1
                if counts[card] > ruleset.decks:
                    raise QueryError(
                        f"{name}: card {position}: {card} appears {counts[card]} times; "
                        f"{ruleset.decks} decks hold only {ruleset.decks} (1.4)"
                    )

    # -- ops ------------------------------------------------------------------

    def _unit(self, query: Mapping[str, object], ruleset: Ruleset) -> Answer:
        ctx = self._context(query, ruleset)
        cards = self._parse(query["cards"], "cards")
        if not cards:
            raise QueryError("cards: no cards given")
        self._check_copies((("cards", cards),), ruleset)
        unit = classify(cards, ctx)
        if unit is None and ruleset.throws and len({ctx.effective_suit(c) for c in cards}) == 1:
            throw = as_throw(cards, ctx)
            return {
                "unit": "throw",
                "length": len(throw.components),
                "each": None,
                "suit": throw.suit,
                "components": [_unit_answer(u) for u in throw.components],
            }
        if unit is None:
            return {"unit": None}
        return {
            "unit": str(unit.kind),
            "length": unit.length,
            "each": unit.each,
            "suit": unit.suit,
        }

    def _follow(self, query: Mapping[str, object], ruleset: Ruleset) -> Answer:
        ctx = self._context(query, ruleset)
        lead = self._parse(query["lead"], "lead")
        hand = self._parse(query["hand"], "hand")
        play = self._parse(query["play"], "play")
        if not lead:
            raise QueryError("lead: no cards given")
        self._check_copies((("lead", lead), ("hand", hand)), ruleset)
        verdict = check_follow(lead, hand, play, ctx, ruleset)
        answer: Answer = {
            "legal": bool(verdict.legal),
            "rule": verdict.rule,
            "reason": verdict.reason,
        }
        if not verdict.legal and verdict.instead is not None:
            instead = verdict.instead
            answer["instead"] = instead if isinstance(instead, str) else format_cards(instead)
        return answer

    def _winner(self, query: Mapping[str, object], ruleset: Ruleset) -> Answer:
        ctx = self._context(query, ruleset)
        plays_value = query["plays"]
        if not isinstance(plays_value, list) or not plays_value:
            raise QueryError("plays must be a non-empty list: the lead, then each play in order")
        if len(plays_value) > 4:
            raise QueryError(f"plays: a trick has at most four plays, not {len(plays_value)}")
        plays = [
            self._parse(value, "plays[0] (the lead)" if i == 0 else f"plays[{i}]")
            for i, value in enumerate(plays_value)
        ]
        self._check_copies(((f"plays[{i}]", play) for i, play in enumerate(plays)), ruleset)
        judged = trick_result(plays, ctx, ruleset=ruleset)
        return {"winner": judged.winner, "points": judged.points}

    def _throw(self, query: Mapping[str, object], ruleset: Ruleset) -> Answer:
        """12.4: does the throw fail against the shown cards, and what is forced."""
        ctx = self._context(query, ruleset)
        lead = self._parse(query["lead"], "lead")
        shown = self._parse(query["shown"], "shown")
        if not ruleset.throws:
            raise QueryError(
                f"ruleset {ruleset.name} forbids throws (4.7: a lead must be exactly one unit)"
            )
        if not lead:
            raise QueryError("lead: no cards given")
        if not shown:
            raise QueryError("shown: no cards given")
        self._check_copies((("lead", lead), ("shown", shown)), ruleset)
        check = check_throw(lead, shown, ctx)
        answer: Answer = {
            "fails": check.fails,
            "forced": format_cards(check.forced.cards) if check.forced else None,
            "components": [_unit_answer(u) for u in check.throw.components],
            "beaten": [format_cards(u.cards) for u in check.beaten],
        }
        if len(check.choices) > 1:
            answer["choices"] = [format_cards(u.cards) for u in check.choices]
        if check.fails and ruleset.throw_fail_points:
            answer["points"] = ruleset.throw_fail_points
        return answer

    def _result(self, query: Mapping[str, object], ruleset: Ruleset) -> Answer:
        if "level" in query and "trump" in query:
            self._context(query, ruleset)  # checked, though a result does not use it
        defenders_points = _whole(query["defenders_points"], "defenders_points")
        last_trick_points = _whole(query["last_trick_points"], "last_trick_points")
        last_trick_cards = _whole(query["last_trick_cards"], "last_trick_cards")
        winner = query["last_trick_winner"]
        if not isinstance(winner, str):
            raise QueryError(f"last_trick_winner must be declarers or defenders, not {winner!r}")
        declarer_level = _level_field(query, "declarer_level", ruleset)
        defender_level = _level_field(query, "defender_level", ruleset)
        kitty_points: int | None = None
        kitty_multiplier: int | None = None
        dug_at_a = False
        if ruleset.last_trick == "kitty":
            missing = [k for k in ("kitty_points", "last_lead", "level", "trump") if k not in query]
            if missing:
                raise QueryError(
                    f"missing field {', '.join(missing)} (ruleset {ruleset.name} digs the "
                    "kitty, 12.5: kitty_points and the last lead's cards are needed)"
                )
            ctx = self._context(query, ruleset)
            last_lead = self._parse(query["last_lead"], "last_lead")
            if not last_lead:
                raise QueryError("last_lead: no cards given")
            self._check_copies((("last_lead", last_lead),), ruleset)
            shapes = [shape_of(u) for u in kitty_components(last_lead, ctx)]
            kitty_points = _whole(query["kitty_points"], "kitty_points")
            kitty_multiplier = kitty_multiplier_of(shapes, ruleset)
            dug = query.get("declarers_dug_at_a", False)
            if not isinstance(dug, bool):
                raise QueryError(f"declarers_dug_at_a must be true or false, not {dug!r}")
            dug_at_a = dug
        else:
            extra = [k for k in OPTIONAL_FIELDS["result"] if k in query]
            if extra:
                raise QueryError(
                    f"{', '.join(extra)}: ruleset {ruleset.name} has no kitty (1.4 不垫底牌)"
                )
        result = hand_result(
            last_trick_winner=winner,
            ruleset=ruleset,
            defenders_points=defenders_points,
            last_trick_points=last_trick_points,
            last_trick_cards=last_trick_cards,
            declarer_level=declarer_level,
            defender_level=defender_level,
            kitty_points=kitty_points,
            kitty_multiplier=kitty_multiplier,
            dug_at_a=dug_at_a,
        )
        answer: Answer = {
            "defenders_final": result.defenders_final,
            "deal": str(result.deal),
            "levels_up": result.levels_up,
            "declarer_level": result.declarer_level.label,
            "defender_level": result.defender_level.label,
            "passed_a": result.passed_a,
            "b": result.b,
            "articles": list(result.articles),
        }
        if kitty_multiplier is not None:
            answer["multiplier"] = kitty_multiplier
        return answer


def _level_field(query: Mapping[str, object], name: str, ruleset: Ruleset) -> str:
    """A level field of a result query, as its label (a bare number is accepted)."""
    value = query[name]
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise QueryError(f"{name} must be a level {ruleset.first_level} … A, not {value!r}")
    try:
        parse_ruleset_level(value, ruleset)
    except RulesError as exc:
        raise QueryError(f"{name}: {exc}") from None
    return value


def _unit_answer(unit: Unit) -> Answer:
    return {
        "unit": str(unit.kind),
        "length": unit.length,
        "each": unit.each,
        "cards": format_cards(unit.cards),
    }


def _whole(value: object, name: str) -> int:
    if isinstance(value, bool):
        raise QueryError(f"{name} must be a whole number, not {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise QueryError(f"{name} must be a whole number, not {value!r}")


_DEFAULT = RulesService()


def answer(query: dict[str, object]) -> Answer:
    """The answer to one query (a parsed JSON object); never raises."""
    return _DEFAULT.answer(query)


def encode(answer_obj: Answer) -> bytes:
    """One output line: compact JSON, UTF-8, newline-terminated."""
    try:
        text = json.dumps(answer_obj, ensure_ascii=False, separators=(",", ":"))
    except Exception as exc:  # e.g. an echoed id nested too deep
        text = json.dumps({"error": f"internal error: answer not encodable: {exc}"})
    return text.encode("utf-8") + b"\n"


def serve(instream: BinaryIO, outstream: BinaryIO) -> int:
    """Answer every line of ``instream`` on ``outstream`` until EOF; returns 0."""
    service = RulesService()
    for raw in instream:
        outstream.write(encode(service.answer_line(raw)))
        outstream.flush()
    return 0
