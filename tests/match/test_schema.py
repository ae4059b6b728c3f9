"""The JSON Schema of events (draft 2020-12) and the payload types."""

from __future__ import annotations

import copy
import json

import pytest
from jsonschema import Draft202012Validator

from referee_desk.match import EVENT_TYPES, SchemaRefused, load_schema, validate_schema
from referee_desk.match.events import PAYLOAD_TYPES, parse_payload


def test_schema_is_valid_draft_2020_12():
    schema = load_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def test_every_event_type_has_a_payload_rule_and_a_dataclass():
    schema = load_schema()
    branches = {b["if"]["properties"]["type"]["const"] for b in schema["allOf"]}
    assert branches == set(EVENT_TYPES) == set(schema["properties"]["type"]["enum"])
    assert set(PAYLOAD_TYPES) == set(EVENT_TYPES)


def test_recorded_events_pass_and_parse(table):
    table.race_hand("N", "H")
    assert len(table.events) > 3
    for event in table.events:
        validate_schema(event.to_dict())  # raises SchemaRefused when it does not match
        parsed = parse_payload(event.type, event.payload)
        assert type(parsed) is PAYLOAD_TYPES[event.type]
        if event.type != "trick":  # plays are parsed into Play values
            for key, value in event.payload.items():
                got = getattr(parsed, key)
                assert (list(got) if isinstance(got, tuple) else got) == value, key


@pytest.mark.parametrize(
    ("path", "value", "needle"),
    [
        (("payload", "seat"), "X", "payload/seat"),
        (("payload", "cards"), ["H11"], "payload/cards/0"),
        (("payload", "kind"), "shout", "payload/kind"),
        (("type",), "bid_typo", "type"),
        (("recorded_at",), "yesterday", "recorded_at"),
        (("seq",), 0, "seq"),
    ],
)
def test_bad_fields_are_refused_with_their_path(table, path, value, needle):
    table.ev("hand_started", {"dealer": None})
    draft = table.rec.draft(
        "bid", {"seat": "N", "kind": "dark", "cards": ["LJ", "H3"]}, table.now()
    )
    data = copy.deepcopy(draft.to_dict())
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(SchemaRefused) as info:
        validate_schema(data)
    assert needle in str(info.value)


def test_unknown_payload_field_is_refused(table):
    draft = table.rec.draft("clock_paused", {"reason": "裁判裁定", "extra": 1}, table.now())
    with pytest.raises(SchemaRefused, match="extra"):
        validate_schema(draft.to_dict())


def test_correction_replace_requires_payload_and_void_forbids_it(table):
    base = table.rec.draft("note", {"text": "x"}, table.now()).to_dict()
    base["type"] = "correction"
    base["payload"] = {"target_seq": 1, "action": "replace", "reason": "typo"}
    with pytest.raises(SchemaRefused):
        validate_schema(base)
    base["payload"] = {"target_seq": 1, "action": "void", "reason": "typo", "payload": {}}
    with pytest.raises(SchemaRefused):
        validate_schema(base)


def test_fast_and_full_validators_agree_on_samples_and_mutations():
    """The compiled quick check never accepts what jsonschema refuses."""
    import json
    from pathlib import Path

    from referee_desk.match.schema_check import _fast, _validator

    fast = _fast()
    if fast is None:
        pytest.skip("fastjsonschema not installed")
    samples = Path(__file__).resolve().parents[2] / "sample_events"
    lines = [json.loads(x) for p in sorted(samples.glob("*.jsonl")) for x in p.open()]
    mutations = []
    for data in lines[:120]:
        for key in list(data["payload"]):
            bad = copy.deepcopy(data)
            bad["payload"][key] = {"nested": True}
            mutations.append(bad)
        extra = copy.deepcopy(data)
        extra["payload"]["zzz"] = 1
        mutations.append(extra)
    for data in lines + mutations:
        full_ok = not list(_validator().iter_errors(data))
        try:
            fast(data)
            fast_ok = True
        except Exception:
            fast_ok = False
        assert fast_ok == full_ok, data


def test_compiling_the_schema_leaves_the_shared_dict_unchanged():
    """fastjsonschema rewrites the ``$ref``s of what it compiles; the match layer hands it
    a deep copy, so ``load_schema()`` stays the file's schema for everyone sharing it."""
    from importlib import resources

    from referee_desk.match import schema_check

    text = resources.files("referee_desk.match.schema").joinpath(schema_check.SCHEMA_FILE)
    on_file = json.loads(text.read_text("utf-8"))
    schema_check._fast.cache_clear()  # compile again, now
    try:
        fast = schema_check._fast()
        assert fast is not None  # fastjsonschema is a dependency: the quick path is on
        assert load_schema() == on_file
    finally:
        schema_check._fast.cache_clear()
