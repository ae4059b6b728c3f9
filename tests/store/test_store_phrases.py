"""Issue 17 item 9 for the store: a raise site passes a phrasebook key and params only.

The refusal's English line (its ``str()``) is the book's English
(``phrasebook.STORE_REFUSALS``), the same words the English desk shows; the Chinese desk
words the same key. Sites that still write their own English (``keyed``) are listed
below with the reason they wait.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from referee_desk import store
from referee_desk.phrasebook import STORE_REFUSALS, render
from referee_desk.store import AccessRefused, StoreError, StoreWriteError, TournamentFile
from referee_desk.store.keys import create_organizer_key

STORE = Path(store.__file__).resolve().parent
#: (file, key) of raise sites that still write an English line of their own, and why.
#: The storeperf files are being rewritten by their owner; ``people.py``'s refusal reasons
#: are also written into the file's refusal log (and ``authorize`` hands its reasons to
#: ``appender.py``); ``tournament_file.py``'s ``why_read_only`` has its key copied by
#: ``file_core.py`` onto another line.
STILL_KEYED = {
    "appender.py": None,
    "checks.py": None,
    "event_log.py": None,
    "file_core.py": None,
    "opening.py": None,
    "people.py": {None},
    "tournament_file.py": {"store.not_saved_disk_full"},
}


def _calls() -> list[tuple[str, int, ast.Call]]:
    calls = []
    for path in sorted(STORE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls += [(path.name, n.lineno, n) for n in ast.walk(tree) if isinstance(n, ast.Call)]
    return calls


def _constant(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def test_keyed_raise_sites_pass_no_english() -> None:
    """A call with ``key=`` passes no reason of its own; its key is in the book and its
    params are those the key's templates take, in both languages."""
    sites = [
        (name, line, call)
        for name, line, call in _calls()
        if any(k.arg == "key" for k in call.keywords)
        and (getattr(call.func, "id", "") or getattr(call.func, "attr", "")).endswith(
            ("Error", "Refused", "File")
        )
    ]
    assert len(sites) >= 30
    problems = []
    for name, line, call in sites:
        keywords = {k.arg: k.value for k in call.keywords}
        key = _constant(keywords["key"])
        if call.args:
            problems.append(f"{name}:{line} {key}: English at the raise site as well")
        if key not in STORE_REFUSALS:
            problems.append(f"{name}:{line} {key}: not in the book")
            continue
        given = keywords.get("params")
        names = [_constant(k) for k in given.keys] if isinstance(given, ast.Dict) else []
        for language in ("en", "zh_CN"):
            try:
                render(key, {n: "x" for n in names if n}, language)
            except ValueError as error:
                problems.append(f"{name}:{line} {key} {language}: {error}")
    assert not problems, "\n".join(problems)


def test_only_the_listed_sites_still_write_their_own_english() -> None:
    left: dict[str, set[str | None]] = {}
    for name, _line, call in _calls():
        if isinstance(call.func, ast.Attribute) and call.func.attr == "keyed":
            left.setdefault(name, set()).add(_constant(call.args[0]) if call.args else None)
    unexpected = {
        name: keys
        for name, keys in left.items()
        if name not in STILL_KEYED or (STILL_KEYED[name] is not None and keys - STILL_KEYED[name])
    }
    assert not unexpected, f"new raise sites writing their own English: {unexpected}"


def test_a_store_refusal_says_in_english_what_the_book_says(tmp_path: Path) -> None:
    """A wrong PIN: the refusal's own line is the book's English, word for word, and the
    Chinese desk words the same key (the words it has always shown)."""
    with TournamentFile.open(tmp_path / "cup.sqlite", tournament_id="phrases") as tf:
        tf.people.add_person("王磊", "referee", "2468")
        with pytest.raises(AccessRefused) as refused:
            tf.people.login("王磊", "1357")
    error = refused.value
    assert error.key == "store.wrong_pin" and error.params == {"name": "王磊"}
    assert (
        str(error)
        == render(error.key, error.params, "en")
        == STORE_REFUSALS[error.key][0].format(name="王磊")
    )
    assert str(error) == "sign in as 王磊: wrong name or PIN"
    assert render(error.key, error.params, "zh_CN") == "以 王磊 登录：姓名或 PIN 不对"


def test_a_keys_refusal_says_the_same_line_as_before() -> None:
    with pytest.raises(StoreError) as refused:
        create_organizer_key("short")
    error = refused.value
    assert error.key == "store.passphrase_too_short"
    assert str(error) == "the organizer key's passphrase needs at least 8 characters"
    assert str(error) == render(error.key, error.params, "en")
    assert render(error.key, error.params, "zh_CN") == "密码至少需要 8 个字符"


def test_a_key_the_book_cannot_word_is_a_bug_not_a_refusal() -> None:
    with pytest.raises(KeyError):
        StoreError(key="store.no_such_key")
    with pytest.raises(KeyError):
        AccessRefused(key="store.wrong_pin")  # its template needs {name}
    with pytest.raises(KeyError):
        StoreWriteError(key="store.not_created_disk_full", params={})
    with pytest.raises(TypeError):
        StoreError()
    assert str(StoreError("a line of its own")) == "a line of its own"
    assert StoreWriteError("x").key == "store.not_saved"  # the write error's default key
