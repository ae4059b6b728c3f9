"""JSON Schema validation of events (schema/events.schema.json, draft 2020-12).

``jsonschema`` (and ``importlib.resources``, which brings pathlib, tempfile and the
compression modules) is imported on first use: a replay without the schema check (the
desk's cold open of a record) never needs it, and it is half of the match layer's
import time.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import TYPE_CHECKING, Any

from referee_desk.match.errors import SchemaRefused

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

SCHEMA_FILE = "events.schema.json"


@cache
def load_schema() -> dict[str, Any]:
    """The event schema as a dict (package data of ``referee_desk.match.schema``).

    One dict shared by every caller (cached): read it, never change it; a compiler that
    rewrites what it compiles (fastjsonschema) gets a deep copy."""
    from importlib import resources

    text = resources.files("referee_desk.match.schema").joinpath(SCHEMA_FILE).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _validator() -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    schema = load_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@cache
def _fast() -> Any:
    """The same schema compiled by fastjsonschema (a quick yes), or None if unavailable.

    ``jsonschema`` keeps the last word: anything the compiled check doubts is checked
    again by it, which also gives the readable message.
    """
    try:
        import fastjsonschema
    except ImportError:
        return None
    try:
        # A deep copy of its own: fastjsonschema rewrites the ``$ref``s of the schema it
        # compiles in place, and ``load_schema()`` is one dict shared by every reader.
        schema = {k: v for k, v in copy.deepcopy(load_schema()).items() if k != "$schema"}
        return fastjsonschema.compile(schema)
    except Exception:
        return None


def validate_schema(event_dict: dict[str, Any]) -> None:
    """Raise SchemaRefused naming the first problem (with its JSON path)."""
    if not isinstance(event_dict, dict):
        raise SchemaRefused(key="event.not_an_object")
    fast = _fast()
    if fast is not None:
        try:
            fast(event_dict)
            return
        except Exception:
            pass
    errors = sorted(_validator().iter_errors(event_dict), key=lambda e: len(list(e.path)))
    if errors:
        # Prefer the deepest message under the payload: it names the field.
        best = max(errors, key=lambda e: len(list(e.absolute_path)))
        best = _deepest(best)
        path = "/".join(str(p) for p in best.absolute_path) or "(event)"
        seq = event_dict.get("seq") if isinstance(event_dict.get("seq"), int) else None
        etype = event_dict.get("type") if isinstance(event_dict.get("type"), str) else None
        field = next((str(p) for p in reversed(best.absolute_path) if isinstance(p, str)), "")
        if best.validator == "required" and isinstance(best.instance, dict):
            field = next((str(f) for f in best.validator_value if f not in best.instance), field)
        raise SchemaRefused(
            f"{path}: {best.message}",
            seq=seq,
            event_type=etype,
            key="schema.invalid",
            params={"field": field or path, "problem": str(best.validator), "path": path},
        )


def _deepest(error: Any) -> Any:
    while error.context:
        error = max(error.context, key=lambda e: len(list(e.absolute_path)))
    return error
