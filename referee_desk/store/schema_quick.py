"""A quick yes for one event type's payload: its schema rule compiled to one expression.

``verify`` checks the schema of every event of a record; a compiled validator per
event type (fastjsonschema) spends most of its time in calls between the functions it
generates for each ``$ref``. Here a payload rule of the match layer's event schema is
compiled to a single Python expression (every ``$ref`` inlined, no call, no exception)
that is True only when the payload satisfies the rule. It may say False where the
schema says yes (it is stricter: ``^...$`` patterns must match the whole text, an
``integer`` must be an ``int``), never True where the schema says no; a False is only
a doubt, decided by the full check (``match_checks.schema_problem``). A rule using a
keyword it does not know compiles to None (the full check alone decides).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

#: Keywords that only annotate.
_NOTES = frozenset({"title", "description", "$comment", "examples", "default"})

#: JSON Schema type -> the expression true for it (``{v}`` is the value). ``exact``:
#: the same answer as the schema (``integer`` also admits ``1.0`` there: not exact).
_TYPES = {
    "string": ("type({v}) is str", True),
    "object": ("type({v}) is dict", True),
    "array": ("type({v}) is list", True),
    "boolean": ("type({v}) is bool", True),
    "null": ("{v} is None", True),
    "integer": ("type({v}) is int", False),
}


class _Unsupported(Exception):
    """The rule uses something this compiler does not translate."""


class _Compiler:
    def __init__(self, defs: Mapping[str, Any]) -> None:
        self.defs = defs
        self.names: dict[str, Any] = {"_MISSING": _MISSING}
        self.counter = 0

    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"{stem}{self.counter}"

    def constant(self, value: Any) -> str:
        name = self.fresh("_k")
        self.names[name] = value
        return name

    def rule(self, rule: Any, v: str, depth: int = 0) -> tuple[str, bool]:
        """(expression, exact?) true only when ``v`` satisfies ``rule``."""
        if depth > 32:
            raise _Unsupported("nested too deeply")
        if rule is True or rule == {}:
            return "True", True
        if not isinstance(rule, dict):
            raise _Unsupported(repr(rule))
        parts: list[str] = []
        exact = True
        keys = set(rule) - _NOTES
        if keys & {"if", "then", "else"}:
            parts.append(self.conditional(rule, v, depth))
            keys -= {"if", "then", "else"}
        if keys & {"properties", "required", "additionalProperties"}:
            text, ok = self.object(rule, v, depth)
            parts.append(text)
            exact &= ok
            keys -= {"properties", "required", "additionalProperties"}
        for key in sorted(keys):
            text, ok = self.keyword(key, rule[key], v, depth)
            parts.append(text)
            exact &= ok
        if not parts:
            return "True", True
        return "(" + " and ".join(parts) + ")", exact

    def keyword(self, key: str, value: Any, v: str, depth: int) -> tuple[str, bool]:
        if key == "$ref":
            if not isinstance(value, str) or not value.startswith("#/$defs/"):
                raise _Unsupported(key)
            name = value[len("#/$defs/") :]
            if name not in self.defs:
                raise _Unsupported(value)
            return self.rule(self.defs[name], v, depth + 1)
        if key == "type":
            types = value if isinstance(value, list) else [value]
            if not types or any(t not in _TYPES for t in types):
                raise _Unsupported(f"type {value!r}")
            texts = [_TYPES[t][0].format(v=v) for t in types]
            return "(" + " or ".join(texts) + ")", all(_TYPES[t][1] for t in types)
        if key == "enum":
            if not isinstance(value, list) or not all(type(x) is str for x in value):
                raise _Unsupported("enum of other than strings")
            return f"(type({v}) is str and {v} in {self.constant(frozenset(value))})", True
        if key == "const":
            if type(value) is str:
                return f"(type({v}) is str and {v} == {self.constant(value)})", True
            if value is None or type(value) is bool:
                return f"({v} is {value!r})", True
            raise _Unsupported("const")
        if key in ("minLength", "maxLength"):
            bound = _count(value)
            op = ">=" if key == "minLength" else "<="
            return f"(type({v}) is not str or len({v}) {op} {bound})", True
        if key in ("minItems", "maxItems"):
            bound = _count(value)
            op = ">=" if key == "minItems" else "<="
            return f"(type({v}) is not list or len({v}) {op} {bound})", True
        if key in ("minimum", "maximum", "multipleOf"):
            bound = _count(value)
            test = {
                "minimum": f"{v} >= {bound}",
                "maximum": f"{v} <= {bound}",
                "multipleOf": f"{v} % {bound} == 0" if bound > 0 else "False",
            }[key]
            # a float is a number too: a doubt here (not exact)
            return f"((type({v}) is int and {test}) or type({v}) not in (int, float))", False
        if key == "pattern":
            if not isinstance(value, str) or not (value.startswith("^") and value.endswith("$")):
                raise _Unsupported("pattern")
            name = self.constant(re.compile(value[1:-1]).fullmatch)
            # the whole text must match: stricter than a search for ^...$ ($ before "\n")
            return f"(type({v}) is not str or {name}({v}) is not None)", False
        if key == "items":
            item = self.fresh("_i")
            text, exact = self.rule(value, item, depth + 1)
            return f"(type({v}) is not list or all({text} for {item} in {v}))", exact
        if key == "prefixItems":
            if not isinstance(value, list):
                raise _Unsupported(key)
            texts, exact = [], True
            for index, sub in enumerate(value):
                text, ok = self.rule(sub, f"{v}[{index}]", depth + 1)
                texts.append(f"(len({v}) <= {index} or {text})")
                exact &= ok
            inner = " and ".join(texts) or "True"
            return f"(type({v}) is not list or ({inner}))", exact
        if key == "allOf":
            if not isinstance(value, list) or not value:
                raise _Unsupported(key)
            compiled = [self.rule(sub, v, depth + 1) for sub in value]
            return "(" + " and ".join(t for t, _ in compiled) + ")", all(e for _, e in compiled)
        if key in ("oneOf", "anyOf", "not"):
            subs = [value] if key == "not" else value
            if not isinstance(subs, list) or not subs:
                raise _Unsupported(key)
            compiled = [self.rule(sub, v, depth + 1) for sub in subs]
            if not all(e for _, e in compiled):
                raise _Unsupported(f"{key} over a rule compiled less than exactly")
            texts = [t for t, _ in compiled]
            if key == "not":
                return f"(not {texts[0]})", True
            if key == "anyOf":
                return "(" + " or ".join(texts) + ")", True
            return "((" + ") + (".join(texts) + ") == 1)", True
        raise _Unsupported(key)

    def object(self, rule: dict[str, Any], v: str, depth: int) -> tuple[str, bool]:
        properties = rule.get("properties", {})
        required = rule.get("required", [])
        extra = rule.get("additionalProperties", True)
        if not isinstance(properties, dict) or not isinstance(required, list):
            raise _Unsupported("properties")
        if extra not in (True, False) or not all(type(k) is str for k in required):
            raise _Unsupported("additionalProperties")
        parts: list[str] = []
        exact = True
        for name in required:
            parts.append(f"{self.constant(name)} in {v}")
        if extra is False:
            parts.append(f"{v}.keys() <= {self.constant(frozenset(properties))}")
        for name, sub in properties.items():
            value = self.fresh("_v")
            text, ok = self.rule(sub, value, depth + 1)
            exact &= ok
            if text != "True":
                key = self.constant(name)
                parts.append(f"(({value} := {v}.get({key}, _MISSING)) is _MISSING or {text})")
        inner = " and ".join(parts) or "True"
        return f"(type({v}) is not dict or ({inner}))", exact

    def conditional(self, rule: dict[str, Any], v: str, depth: int) -> str:
        if "if" not in rule:
            return "True"  # then / else without if: ignored, as JSON Schema does
        test, exact = self.rule(rule["if"], v, depth + 1)
        if not exact:
            raise _Unsupported("if over a rule compiled less than exactly")
        then = self.rule(rule.get("then", True), v, depth + 1)[0]
        other = self.rule(rule.get("else", True), v, depth + 1)[0]
        return f"(({then}) if {test} else ({other}))"


_MISSING: Any = object()


def _count(value: Any) -> int:
    if type(value) is not int or value < 0:
        raise _Unsupported(f"bound {value!r}")
    return value


def compile_rule(rule: Any, defs: Mapping[str, Any]) -> Callable[[Any], bool] | None:
    """``rule`` (with its ``$defs``) as one function: True only when a value satisfies
    it; None when the rule uses what this compiler does not translate."""
    compiler = _Compiler(defs)
    try:
        text, _ = compiler.rule(rule, "value")
    except (_Unsupported, re.error, RecursionError):
        return None
    source = f"def check(value):\n    return {text}\n"
    scope: dict[str, Any] = dict(compiler.names)
    exec(compile(source, "<payload rule>", "exec"), scope)  # our own text, from the schema
    check: Callable[[Any], bool] = scope["check"]
    return check
