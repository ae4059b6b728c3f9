"""The match record: events, their validation and replay into the state of a match.

See docs/match-api.md. No SQLite and no Qt here.
"""

from referee_desk.match.clock import ClockState, format_duration, format_time, parse_time
from referee_desk.match.drafting import Recorder, append, new_event, seal, validate
from referee_desk.match.envelope import GENESIS_HASH, SCHEMA_VERSION, Event, verify_chain
from referee_desk.match.errors import EventRefused, MatchError, ReplayFailed, SchemaRefused
from referee_desk.match.events import AFTER_END_TYPES, EVENT_TYPES, parse_payload, payload_of
from referee_desk.match.replay import Replayer, replay, replayer_for
from referee_desk.match.schema_check import load_schema, validate_schema
from referee_desk.match.state import (
    Bid,
    Consequence,
    Flag,
    HandOutcome,
    HandState,
    LastTrick,
    MatchEnd,
    MatchInfo,
    MatchState,
    Note,
    TrickRecord,
    Violation,
)

__all__ = [
    "AFTER_END_TYPES",
    "EVENT_TYPES",
    "GENESIS_HASH",
    "SCHEMA_VERSION",
    "Bid",
    "ClockState",
    "Consequence",
    "Event",
    "EventRefused",
    "Flag",
    "HandOutcome",
    "HandState",
    "LastTrick",
    "MatchEnd",
    "MatchError",
    "MatchInfo",
    "MatchState",
    "Note",
    "Recorder",
    "ReplayFailed",
    "Replayer",
    "SchemaRefused",
    "TrickRecord",
    "Violation",
    "append",
    "format_duration",
    "format_time",
    "load_schema",
    "new_event",
    "parse_payload",
    "parse_time",
    "payload_of",
    "replay",
    "replayer_for",
    "seal",
    "validate",
    "validate_schema",
    "verify_chain",
]
