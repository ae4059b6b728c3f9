"""Issue 17 item 9 for the store: a raise site passes a phrasebook key and params only.

The refusal's English line (its ``str()``) is the book's English
(``phrasebook.STORE_REFUSALS``), the same words the English desk shows; the Chinese desk
words the same key. Sites that still write their own English (``keyed``) are listed
below with the reason they wait.
"""

from __future__ import annotations

import ast
import re
import sqlite3
import string
from pathlib import Path

import pytest

from referee_desk import store
from referee_desk.match import new_event
from referee_desk.phrasebook import (
    ACCESS_REASONS,
    STORE_ACTIONS,
    STORE_REFUSALS,
    render,
    render_action,
    render_reason,
)
from referee_desk.phrasebook.glossary import EVENT_NAMES, PERSON_ROLE_NAMES
from referee_desk.store import AccessRefused, Session, StoreError, StoreWriteError, TournamentFile
from referee_desk.store.jsonl import write_jsonl
from referee_desk.store.keys import create_organizer_key
from referee_desk.store.synthetic import draft, record

STORE = Path(store.__file__).resolve().parent
#: (file, key) of raise sites allowed to write an English line of their own: none left.
STILL_KEYED: dict[str, set[str] | None] = {}


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
        if (name, key) == ("people.py", None):  # ``People._refuse``: its callers, below
            continue
        if (name, key) == ("appender.py", None):  # ``People.authorize``'s key: test below
            continue
        if call.args:
            problems.append(f"{name}:{line} {key}: English at the raise site as well")
        if key not in STORE_REFUSALS:
            problems.append(f"{name}:{line} {key}: not in the book")
            continue
        given = keywords.get("params")
        values: dict[str, object] = {}
        if isinstance(given, ast.Dict):
            for k, v in zip(given.keys, given.values, strict=True):
                if k is None:  # a ``**`` splat: what it holds is known at run time only
                    values |= {n: _RAW.get(n, "x") for n in _params_of(key)}
                elif (n := _constant(k)) is not None:
                    values[n] = _constant(v) or _RAW.get(n, "x")
        for language in ("en", "zh_CN"):
            try:
                render(key, values, language)
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
    assert render(error.key, error.params, "zh_CN") == "主办方密钥的密码至少需要 8 个字符"


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


def _placeholders(template: str) -> dict[str, str]:
    """name -> kind of every ``{name:kind}`` of a template."""
    found: dict[str, str] = {}
    for _text, name, spec, _conv in string.Formatter().parse(template):
        if name:
            found.setdefault(name, spec or "")
    return found


#: Raw values as the store passes them, for params that name a kind of thing; a line
#: shows the glossary's name for these (a person's role, an action), never the raw value.
_RAW = {"role": "committee", "wanted": "referee", "who_role": "organizer", "type": "clock_started"}
_RAW |= {"action": "register", "why": "store.not_the_referee"}
_KINDS = {"role": "person_role", "wanted": "person_role", "who_role": "person_role"}
_KINDS |= {"type": "event", "action": "access_action", "why": "access_reason"}
#: The action a key's line names, where it is not ``register``.
_ACTION_OF = {"store.import_refused": "import"}
#: Latin a Chinese line may carry besides its params: notations and formats.
_LATIN_OK = {"PIN", "SQLite", "Ed25519"}


def _params_of(key: str) -> set[str]:
    """Every param a key's line names: its own, its action's and its reason's."""
    en, zh = STORE_REFUSALS[key]
    names = set(_placeholders(en)) | set(_placeholders(zh))
    if "action" in names:
        names |= set(_placeholders(STORE_ACTIONS[_ACTION_OF.get(key, _RAW["action"])][0]))
    if "why" in names:
        names |= set(_placeholders(ACCESS_REASONS[_RAW["why"]][0]))
    return names


def _shown(name: str, values: dict[str, object], language: str) -> str:
    """How a param's value appears in a line of ``language``."""
    kind = _KINDS.get(name)
    if kind == "person_role":
        return PERSON_ROLE_NAMES[language][str(values[name])]
    if kind == "event":
        return EVENT_NAMES.get(language, {}).get(str(values[name]), str(values[name]))
    if kind == "access_action":
        return render_action(str(values[name]), values, language)
    if kind == "access_reason":
        return render_reason(str(values[name]), values, language)
    return str(values[name])


@pytest.mark.parametrize("key", sorted(STORE_REFUSALS))
def test_the_chinese_line_names_every_param_of_the_english(key: str) -> None:
    """Each store refusal's Chinese carries the same params as its English (no param
    dropped: each value is in the line, an action's own params too) and no English
    words but the params and a few notations (PIN, SQLite, Ed25519)."""
    en, zh = STORE_REFUSALS[key]
    assert set(_placeholders(en)) == set(_placeholders(zh)), key
    names = _params_of(key)
    values: dict[str, object] = {
        name: _RAW.get(name, f"值{number}号") for number, name in enumerate(sorted(names))
    }
    values |= {"action": _ACTION_OF.get(key, _RAW["action"])} if "action" in names else {}
    for language in ("en", "zh_CN"):
        line = render(key, values, language)
        rest = line
        for name in sorted(names):
            shown = _shown(name, values, language)
            assert shown in line, f"{key} {language}: {name} ({shown}) missing in {line}"
            rest = rest.replace(shown, " ")
        if language == "zh_CN":
            latin = set(re.findall(r"[A-Za-z][A-Za-z0-9]*", rest)) - _LATIN_OK
            assert not latin, f"{key}: English {sorted(latin)} in {line}"
            assert re.search(r"[\u4e00-\u9fff]", rest), f"{key}: no Chinese in {line}"


@pytest.mark.parametrize("action", sorted(STORE_ACTIONS))
def test_every_action_names_its_params_in_both_languages(action: str) -> None:
    en, zh = STORE_ACTIONS[action]
    assert set(_placeholders(en)) == set(_placeholders(zh))
    values = {"name": "王磊", "match": "r1-t1", "role": "committee", "seq": 4, "type": "note"}
    assert render_action(action, values, "en") == en.format(**values)
    chinese = render_action(action, values, "zh_CN")
    assert not set(re.findall(r"[A-Za-z]{3,}", chinese.replace("r1-t1", ""))), chinese


@pytest.mark.parametrize("key", sorted(ACCESS_REASONS))
def test_every_reason_names_its_params_in_both_languages(key: str) -> None:
    en, zh = ACCESS_REASONS[key]
    assert set(_placeholders(en)) == set(_placeholders(zh))
    # The Chinese names the match once: "比赛 m1：已锁定", not "比赛 m1：比赛已锁定".
    said = zh.removeprefix("比赛")
    assert STORE_REFUSALS[key] == (f"match {{match}}: {en}", f"比赛 {{match}}：{said}")
    assert "比赛 {match}：比赛" not in STORE_REFUSALS[key][1]


def test_peoples_refusals_word_every_change_from_the_book(tmp_path: Path) -> None:
    """``People._refuse``'s sites pass a key and params only: the refusal's line is the
    book's English, the same words as before, byte for byte, and the refusal log keeps
    the action and the reason apart as it always did; the Chinese desk words each."""
    lines: list[tuple[str | None, str, dict[str, object]]] = []

    def refused(attempt) -> None:
        with pytest.raises(AccessRefused) as error:
            attempt()
        assert str(error.value) == render(error.value.key, error.value.params, "en")
        assert render(error.value.key, error.value.params, "zh_CN")
        lines.append((error.value.key, str(error.value), error.value.params))

    forged = Session("组委", "organizer", "ab" * 16)
    with TournamentFile.open(tmp_path / "cup.sqlite", tournament_id="phrases") as tf:
        record(tf, "r1-t1", 3, referee="王磊")
        tf.people.add_person("王磊", "referee", "739155")
        refused(lambda: tf.people.add_person("王磊", "referee", "000000"))
        tf.people.add_person("周主任", "committee", "246810")
        refused(lambda: tf.people.add_person("钱主任", "committee", "246810"))
        refused(lambda: tf.seals.lock("r1-t1", "x", session=None))
        refused(lambda: tf.seals.lock("r1-t1", "x", session=Session("周主任", "committee")))
        tf.people.add_person("李裁判", "referee", "111111")
        li = tf.people.login("李裁判", "111111")
        refused(lambda: tf.seals.lock("r1-t1", "x", session=li))
        tf.people.add_person("组委", "organizer", "135790")
        refused(lambda: tf.people.add_person("赵", "referee", "1"))
        refused(lambda: tf.people.add_person("赵", "referee", "1", by=forged))
        refused(lambda: tf.people.add_person("赵", "committee", "1", by=li))
        refused(lambda: tf.people.assign_referee("r1-t1", "李裁判"))
        refused(lambda: tf.people.assign_referee("r1-t1", "李裁判", by=forged))
        refused(lambda: tf.people.assign_referee("r1-t1", "李裁判", by=li))
        logged = [
            (r["match_id"], r["person"], r["action"], r["reason"]) for r in tf.people.refusals()
        ]
    assert [(key, line) for key, line, _params in lines] == [
        ("store.already_registered", "register 王磊 as referee: 王磊 is registered already"),
        (
            "store.first_committee_only",
            "register 钱主任 as committee: only the first committee member registers "
            "without the organizer",
        ),
        ("store.sign_in_to_lock", "lock match r1-t1: sign in with your PIN to lock a match"),
        (
            "store.sign_in_not_issued",
            "lock match r1-t1: this sign-in was not issued by this file",
        ),
        ("store.lock_not_the_referee", "lock match r1-t1: 李裁判 is not this match's referee"),
        ("store.organizer_needed", "register 赵 as referee: an organizer must sign in first"),
        (
            "store.sign_in_not_issued",
            "register 赵 as referee: this sign-in was not issued by this file",
        ),
        (
            "store.organizer_only",
            "register 赵 as committee: 李裁判 is referee; only the organizer may do this",
        ),
        ("store.organizer_needed", "assign 李裁判 to match r1-t1: an organizer must sign in first"),
        (
            "store.sign_in_not_issued",
            "assign 李裁判 to match r1-t1: this sign-in was not issued by this file",
        ),
        (
            "store.organizer_only",
            "assign 李裁判 to match r1-t1: 李裁判 is referee; only the organizer may do this",
        ),
    ]
    # The refusal log: as before, the action and the reason apart (a lock's with its match).
    where = [(None, None), (None, None), ("r1-t1", None), ("r1-t1", "周主任")]
    where += [("r1-t1", "李裁判"), (None, None), (None, "组委"), (None, "李裁判")]
    where += [(None, None), (None, "组委"), (None, "李裁判")]
    assert logged == [
        (match, person, *line.split(": ", 1))
        for (match, person), (_key, line, _params) in zip(where, lines, strict=True)
    ]
    assert render(lines[7][0], lines[7][2], "zh_CN") == (
        "登记 赵 为仲裁委员：李裁判 的身份是裁判；只有主办方可以这样做"
    )
    assert render(lines[4][0], lines[4][2], "zh_CN") == "锁定比赛 r1-t1：李裁判 不是这场比赛的裁判"


def test_every_refuse_site_names_a_key_of_the_form_the_log_needs() -> None:
    """Each ``self._refuse("store....", ...)`` names a book key whose English is
    "<action>: <reason>", so the refusal log can keep the two apart."""
    keys = [
        _constant(call.args[0])
        for name, _line, call in _calls()
        if name == "people.py" and getattr(call.func, "attr", "") == "_refuse"
    ]
    assert len(keys) == 8
    for key in keys:
        assert key in STORE_REFUSALS, key
        en, zh = STORE_REFUSALS[key]
        assert en.startswith("{action:access_action}: ") and zh.startswith(
            "{action:access_action}："
        )


def test_every_reason_to_refuse_an_event_is_the_books(tmp_path: Path) -> None:
    """``People.authorize``'s reasons are the book's English (``ACCESS_REASONS``), the
    words the refusal log writes; the appender says them of the match ("match M: ...",
    its own line, which the book's ``store.*`` line matches where its params suffice) and
    an import of its event (``store.import_refused``, key and params only)."""
    refused: list[StoreError] = []

    def attempt(action) -> None:
        with pytest.raises(AccessRefused) as error:
            action()
        refused.append(error.value)

    def ruling(tf: TournamentFile, match_id: str) -> object:
        return new_event(
            tf.events(match_id),
            "committee_ruling",
            {"text": "改判"},
            "x",
            "2026-11-29T14:00:00.000Z",
        )

    forged = Session("周主任", "committee", "ab" * 16)
    with TournamentFile.open(tmp_path / "cup.sqlite", tournament_id="phrases") as tf:
        record(tf, "m1", 3, referee="王裁判")
        attempt(lambda: tf.append(ruling(tf, "m1")))
        for name, role, pin in [("王裁判", "referee", "739155"), ("李裁判", "referee", "111111")]:
            tf.people.add_person(name, role, pin)
        tf.people.add_person("周主任", "committee", "246810")
        tf.people.add_person("组委", "organizer", "135790")
        boss, wang = tf.people.login("组委", "135790"), tf.people.login("王裁判", "739155")
        li, zhou = tf.people.login("李裁判", "111111"), tf.people.login("周主任", "246810")
        tf.people.assign_referee("m1", "王裁判", by=boss)
        attempt(lambda: tf.append(draft("m1", 3), by=forged))
        attempt(lambda: tf.append(draft("m1", 3)))
        attempt(lambda: tf.append(draft("m1", 1), by=zhou))
        attempt(lambda: tf.append(draft("m1", 3), by=boss))
        attempt(lambda: tf.append(draft("m1", 3), by=li))
        tf.seals.lock("m1", "周主任", session=zhou)
        attempt(lambda: tf.append(ruling(tf, "m1"), by=wang))
        attempt(lambda: tf.append(draft("m1", 1), by=wang))
        attempt(lambda: tf.append(draft("m1", 3)))
        attempt(lambda: tf.append(draft("m1", 3), by=li))
        appended = len(refused)
        with TournamentFile.open(tmp_path / "desk.sqlite", tournament_id="phrases") as desk:
            record(desk, "m9", 4, referee="王裁判")
            write_jsonl(desk.events("m9"), tmp_path / "m9.jsonl")
        tf.people.assign_referee("m9", "王裁判", by=boss)
        for by in (None, forged, zhou, li):
            attempt(lambda by=by: tf.import_jsonl([tmp_path / "m9.jsonl"], by=by))
        logged = [r["reason"] for r in tf.people.refusals()]
    at_desk, imported = refused[:appended], refused[appended:]
    assert [e.key for e in at_desk] == [
        "store.committee_needed",
        "store.session_forged",
        "store.sign_in_needed",
        "store.referee_enters_this",
        "store.not_a_referee",
        "store.not_the_referee",
        "store.locked_committee_only",
        "store.locked",
        "store.sign_in_to_note",
        "store.locked_not_the_referee",
    ]
    # The log writes the reason, the appender its line: "match M: " + the book's English.
    assert [f"match m1: {reason}" for reason in logged] == [str(e) for e in at_desk]
    for error in at_desk:
        assert error.key is not None
        en, zh = STORE_REFUSALS[error.key]
        assert set(_placeholders(en) | _placeholders(zh)) <= set(error.params), error.key
        assert render(error.key, error.params, "en") == str(error)
        assert render(error.key, error.params, "zh_CN").startswith("比赛 m1：")
    assert str(at_desk[3]) == (
        "match m1: the committee does not enter clock_started events; the referee does"
    )
    # The role and the match's referee come with the key: the Chinese desk names them.
    assert str(at_desk[4]) == "match m1: 组委 (organizer) may not enter match events"
    assert render("store.not_a_referee", at_desk[4].params, "zh_CN").startswith("比赛 m1：组委（")
    assert str(at_desk[5]) == "match m1: 李裁判 is not this match's referee (王裁判 is)"
    assert render("store.not_the_referee", at_desk[5].params, "zh_CN") == (
        "比赛 m1：李裁判 不是这场比赛的裁判（裁判是 王裁判）"
    )
    assert render(at_desk[3].key or "", at_desk[3].params, "zh_CN") == (
        "比赛 m1：仲裁委员会不录入“开始计时”事件，由裁判录入"
    )
    assert [e.params["why"] for e in imported] == [
        "store.sign_in_needed",
        "store.session_forged",
        "store.referee_enters_this",
        "store.not_the_referee",
    ]
    for error in imported:
        assert error.key == "store.import_refused"
        assert str(error) == render(error.key, error.params, "en")
        assert str(error) == (
            "import match_opened into match m9 (event 1): "
            + render_reason(error.params["why"], error.params)
        )
    assert str(imported[3]) == (
        "import match_opened into match m9 (event 1): 李裁判 is not this match's referee "
        "(王裁判 is)"
    )
    assert render("store.import_refused", imported[3].params, "zh_CN") == (
        "导入比赛 m9 的第 1 条事件（开赛）：李裁判 不是这场比赛的裁判（裁判是 王裁判）"
    )


#: The lines the opening and saving sites wrote themselves before they passed a key
#: (issue 17 item 9): the book's English must say them byte for byte.
_F, _E = "/t/杯赛.sqlite", "disk I/O error"
_WAS = {
    "store.no_such_file": f"{_F}: no such tournament file",
    "store.is_a_folder": f"{_F}: is a folder, not a tournament file",
    "store.not_a_regular_file": (
        f"{_F}: not a regular file (a device, pipe or socket), not a tournament file"
    ),
    "store.unreadable": f"{_F}: cannot be read ({_E})",
    "store.not_a_tournament_file": f"{_F}: not a Referee Desk tournament file",
    "store.not_a_tournament_file_sqlite": f"{_F}: not a Referee Desk tournament file ({_E})",
    "store.sqlite_not_a_tournament_file": (
        f"{_F}: an SQLite file, but not a Referee Desk tournament file"
    ),
    "store.read_only_with_wal": (
        f"{_F}: read-only, with recent events still in 杯赛.sqlite-wal; copy both files "
        "to a folder you can write to and open the copy"
    ),
    "store.damaged_sqlite": f"{_F}: damaged: SQLite reports: {_E}",
    "store.not_saved": (
        f"not saved: the file could not be written ({_E}): {_F}; the record is unchanged"
    ),
    "store.not_saved_disk_full": f"not saved: the disk is full: {_F}; the record is unchanged",
    "store.not_saved_read_only": (
        f"not saved: the file is read-only: {_F}; the record is unchanged"
    ),
    "store.read_only": f"not saved: the file is read-only: {_F}",
    "store.disk_was_full": (
        f"not saved: the disk was full when {_F} was opened; free some space and open it again"
    ),
    "store.read_only_disk_was_full": (
        f"not saved: the disk was full when {_F} was opened; free some space and open it "
        "again (so it opened for reading only)"
    ),
}


@pytest.mark.parametrize("key", sorted(_WAS))
def test_an_opening_or_saving_line_is_what_the_site_wrote(key: str) -> None:
    params = {"file": _F, "error": _E, "detail": _E, "wal": "杯赛.sqlite-wal"}
    error = StoreWriteError(key=key, params=params) if "saved" in _WAS[key] else None
    line = str(error) if error is not None else str(StoreError(key=key, params=params))
    assert line == _WAS[key]


def test_the_write_errors_say_their_lines(tmp_path: Path) -> None:
    """``write_error`` and a read-only file's refusal, through the code that raises them."""
    from referee_desk.store.file_core import FileCore, write_error

    file = tmp_path / "cup.sqlite"
    full = write_error(file, sqlite3.OperationalError("database or disk is full"))
    assert (full.key, str(full)) == (
        "store.not_saved_disk_full",
        f"not saved: the disk is full: {file}; the record is unchanged",
    )
    locked = write_error(file, sqlite3.OperationalError("attempt to write a readonly database"))
    assert str(locked) == f"not saved: the file is read-only: {file}; the record is unchanged"
    other = write_error(file, sqlite3.OperationalError("disk I/O error"))
    assert str(other) == (
        f"not saved: the file could not be written (disk I/O error): {file}; "
        "the record is unchanged"
    )
    core = FileCore(file, sqlite3.connect(":memory:"), read_only=True)
    assert str(core.read_only_error()) == f"not saved: the file is read-only: {file}"
    core.why_read_only = StoreWriteError(
        key="store.disk_was_full", params={"file": str(file), "detail": "full"}
    )
    assert str(core.read_only_error()) == (
        f"not saved: the disk was full when {file} was opened; free some space and open it "
        "again (so it opened for reading only)"
    )
    assert render(core.read_only_error().key or "", {"file": str(file)}, "zh_CN") == (
        f"未保存：打开 {file} 时磁盘已满；请腾出空间后重新打开（因此以只读方式打开）"
    )
    core.connection.close()
