"""Strict JSON for hostile input: bounded lines, bounded nesting, one value per key.

Python's ``json`` accepts a duplicate key (the last one wins, so the value a reader
sees can differ from the one a hash covered), recurses until ``RecursionError`` on
deep nesting, and returns lone surrogates (``"\\ud800"``) that fail later when
written. Every line the desk reads from outside (JSON Lines records, rules queries)
goes through ``loads`` first, which refuses all of these with a one-line reason.

Limits (stated in the README and ``docs/store-api.md``): a line holds at most
``MAX_LINE_BYTES`` bytes and nests at most ``MAX_DEPTH`` arrays/objects deep; a JSON
Lines file holds at most ``MAX_FILE_BYTES``.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: The longest input line accepted (1 MiB): an event or a query is a few kilobytes.
MAX_LINE_BYTES = 1024 * 1024

#: The deepest nesting of arrays and objects accepted in one line.
MAX_DEPTH = 64

#: The largest JSON Lines file read whole (a whole tournament's record is a few MB).
MAX_FILE_BYTES = 256 * 1024 * 1024

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


class StrictJSONError(ValueError):
    """The line is not acceptable JSON; ``str()`` is the one-line reason."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise StrictJSONError(f"duplicate key {key!r} (a record holds each field once)")
        result[key] = value
    return result


def _constant(name: str) -> Any:
    raise StrictJSONError(f"{name} is not valid JSON")


def depth(text: str) -> int:
    """How deep arrays and objects nest in ``text`` (strings ignored)."""
    deepest = level = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub('""', text)):
        if bracket in "[{":
            level += 1
            deepest = max(deepest, level)
        else:
            level -= 1
    return deepest


def may_hold_surrogates(text: str) -> bool:
    """Could JSON parsed from ``text`` hold a lone surrogate? Only through a ``\\u``
    escape, or when ``text`` itself holds one (a ``str`` not read as UTF-8)."""
    if "\\u" in text:
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def loads(line: str | bytes, *, max_bytes: int = MAX_LINE_BYTES) -> Any:
    """Parse one line of JSON, or raise ``StrictJSONError`` saying why not."""
    size = len(line) if isinstance(line, bytes) else len(line.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise StrictJSONError(f"line of {size:,} bytes is longer than the limit of {max_bytes:,}")
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as error:
            raise StrictJSONError(f"not UTF-8 (byte {error.start + 1})") from None
    # Nesting is at most the number of opening brackets (those in strings included):
    # only a line with more than the limit needs counting properly.
    openers = line.count("[") + line.count("{")
    nested = depth(line) if openers > MAX_DEPTH else 0
    if nested > MAX_DEPTH:
        raise StrictJSONError(f"nested {nested} levels deep; the limit is {MAX_DEPTH}")
    try:
        data = json.loads(line, object_pairs_hook=_pairs, parse_constant=_constant)
    except StrictJSONError:
        raise
    except RecursionError:
        raise StrictJSONError(f"nested too deeply (the limit is {MAX_DEPTH})") from None
    except ValueError as error:
        raise StrictJSONError(f"not JSON ({error})") from None
    if not may_hold_surrogates(line):
        return data
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as error:
        bad = ascii(error.object[error.start : error.end]).strip("'")
        raise StrictJSONError(f"text that is not valid Unicode (a lone surrogate {bad})") from None
    return data
