"""Issue 13, hostile and odd input through a server address.

Names with quotes, ``%``, ``?``, backslashes, emoji and CJK Extension B characters come
back from the server byte for byte as from a file (the ``?``→``%s`` translation touches
statements, never parameters); over-long names are refused the same way on both; a
password with ``@ : / ? # %`` works when written as the address syntax wants it, and no
piece of it is ever printed by a tournament or export command, however it was typed.
"""

from __future__ import annotations

import csv
import re
from urllib.parse import quote

import psycopg
import pytest
from psycopg import sql

from referee_desk.cli.main import main
from referee_desk.store.postgres.address import redact, scrub
from referee_desk.store.postgres.tables import to_format
from referee_desk.tournament.repository import Tournament

WEIRD = "O'Brien \"Q\" 100% ?x? \\back\\slash 🀄️ 𠀀𪚥 %s %(x)s $1 ''; DROP TABLE x;--"
PAIR_NAMES = [
    (WEIRD[:59], "𠀀𠀁𠀂𪚥", "?"),
    ("%", "\\", "'"),
    ("a?b%c", "%%??", "俱乐部%s"),
    ("😀👍🏽", '"', "\\'"),
]


@pytest.fixture
def cli(capsys):
    """Run one command in this process: (exit code, stdout, stderr)."""

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def ok(cli):
    def run(*argv: str) -> str:
        code, out, err = cli(*argv)
        assert code == 0, (argv, err)
        return out

    return run


def test_the_translation_touches_placeholders_only() -> None:
    assert to_format("SELECT ? WHERE a LIKE '100%'") == "SELECT %s WHERE a LIKE '100%%'"


def test_odd_names_round_trip_byte_for_byte_as_from_a_file(hall, tmp_path, ok) -> None:
    pairs = tmp_path / "pairs.csv"
    with pairs.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["player1", "player2", "club"])
        writer.writerows(PAIR_NAMES)
    cup = str(tmp_path / "cup.sqlite")
    for where in (cup, hall.organizer_url):
        ok(
            "tournament",
            "create",
            where,
            "--name",
            WEIRD,
            "--venue",
            "?%s\\",
            "--tables",
            "桌?,桌%",
        )
        ok("tournament", "import-pairs", where, str(pairs))
        ok("tournament", "draw", where, "--seed", "3")
    for action in ("pairs", "matches", "standings"):
        assert ok("tournament", action, cup) == ok("tournament", action, hall.organizer_url)
    with Tournament.open(cup) as a, Tournament.open(hall.organizer_url) as b:
        assert a.info == b.info and a.info.name == WEIRD and a.info.venue == "?%s\\"
        assert a.pairs.all() == b.pairs.all()
        assert [(p.player1, p.player2, p.club) for p in b.pairs.all()] == PAIR_NAMES
    with psycopg.connect(hall.organizer_url) as conn:
        stored = conn.execute(
            "SELECT convert_to(name, 'UTF8') FROM referee_desk_organizer.tournament_info"
        ).fetchone()[0]
    assert bytes(stored) == WEIRD.encode("utf-8")


def test_over_long_names_are_refused_the_same_way(hall, tmp_path, cli, ok) -> None:
    long_pairs = tmp_path / "long.csv"
    long_pairs.write_text("player1,player2\n" + "长" * 61 + ",b\n", encoding="utf-8")
    cup = str(tmp_path / "cup.sqlite")
    refusals = []
    for where in (cup, hall.organizer_url):
        ok("tournament", "create", where, "--name", "杯" * 2000)  # a title is not a name
        code, _, err = cli("tournament", "import-pairs", where, str(long_pairs))
        assert code == 1
        refusals.append(err)
        assert "a name of 61 characters; at most 60 are allowed" in err
    assert refusals[0] == refusals[1]
    with Tournament.open(hall.organizer_url) as t:
        assert t.pairs.all() == [] and t.info.name == "杯" * 2000


#: Passwords an organizer may choose; their letter runs must never be printed.
PASSWORDS = ("Qx7@Zr9:Kp%Wm", "Ab%zzSECRETb", "SEC@RET", "Wq3@Mv8/Lz5?Hn6#Tb4%Yu", "Jk:Lm%25No")


def _pieces(password: str) -> list[str]:
    return [p for p in re.split(r"[@:/?#%]", password) if len(p) >= 2] + [
        password,
        quote(password, safe=""),
    ]


def _set_password(hall, password: str) -> None:
    with psycopg.connect(hall.admin_url, autocommit=True) as admin:
        admin.execute(
            sql.SQL("ALTER ROLE {} PASSWORD {}").format(
                sql.Identifier(hall.report.organizer.role), sql.Literal(password)
            )
        )


def test_a_password_with_address_characters_works_escaped_and_never_shows(
    hall, tmp_path, ok
) -> None:
    password = PASSWORDS[3]  # every character the address syntax gives a meaning
    _set_password(hall, password)
    role, where = hall.report.organizer.role, hall.organizer_url.split("@", 1)[1]
    escaped = f"postgresql://{role}:{quote(password, safe='')}@{where}"
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("player1,player2\n甲,乙\n丙,丁\n戊,己\n", encoding="utf-8")
    printed = [
        ok(*argv)
        for argv in (
            ("tournament", "create", escaped, "--name", "桂林杯"),
            ("tournament", "import-pairs", escaped, str(pairs)),
            ("tournament", "draw", escaped, "--seed", "1"),
            ("tournament", "standings", escaped),
            ("export", "results", escaped, "-o", str(tmp_path / "results.pdf")),
            ("export", "bracket", escaped, "-o", str(tmp_path / "bracket.xlsx")),
        )
    ]
    assert (tmp_path / "results.pdf").stat().st_size > 0
    text = "\n".join(printed)
    assert [piece for piece in _pieces(password) if piece in text] == [], text


def test_a_password_typed_raw_into_the_address_never_shows(hall, tmp_path, cli) -> None:
    """Before, a raw ``/`` or ``?`` printed the whole password, a raw ``@`` its tail, a
    raw ``%`` came back in libpq's "invalid percent-encoded token" message."""
    ok_url = hall.organizer_url
    code, _, err = cli("tournament", "create", ok_url, "--name", "桂林杯")
    assert code == 0, err
    role, where = hall.report.organizer.role, hall.organizer_url.split("@", 1)[1]
    for password in PASSWORDS:
        _set_password(hall, password)
        raw = f"postgresql://{role}:{password}@{where}"
        printed = []
        for argv in (
            ("tournament", "standings", raw),
            ("tournament", "import-records", raw),
            ("export", "match", raw, "--match", "KO-R1-M001", "-o", str(tmp_path / "m.pdf")),
        ):
            code, out, err = cli(*argv)
            printed += [out, err]
            if code != 0:
                assert len(err.strip().splitlines()) == 1, err
        text = "\n".join(printed)
        assert [piece for piece in _pieces(password) if piece in text] == [], text


def test_redaction_hides_a_raw_password_whole() -> None:
    for password in PASSWORDS:
        url = f"postgresql://org:{password}@127.0.0.1:5432/cup"
        assert redact(url) == "postgresql://org:***@127.0.0.1:5432/cup"
    assert redact("postgresql://org@h/cup?password=Zz9Yy8&sslmode=disable") == (
        "postgresql://org@h/cup?password=***&sslmode=disable"
    )
    assert redact("postgresql://org@h:5432/cup") == "postgresql://org@h:5432/cup"
    url = "postgresql://org:Ab%zzSECRETb@h/cup"
    assert scrub('invalid percent-encoded token: "Ab%zzSECRETb"', url) == (
        'invalid percent-encoded token: "***"'
    )


def test_a_text_holding_u0000_reaches_the_server_as_it_is_in_the_file(hall, tmp_path, cli) -> None:
    """A note with U+0000 is valid JSON (``\\u0000``) and the desk's file keeps it; before,
    the server's check parsed the text as jsonb, which refuses that escape, so the match
    was refused for ever ("not JSON") by both the desk's sync and the organizer's import."""
    from referee_desk.store import TournamentFile
    from referee_desk.store.jsonl import write_jsonl
    from referee_desk.store.postgres.server import TournamentServer
    from referee_desk.store.synthetic import draft

    texts = ("a\x00b", "\x1b[31m红\x00", "x\u2028y\ufeff")
    with TournamentFile.open(tmp_path / "desk.sqlite", tournament_id="cup-2026") as tf:
        for match_id in ("R1-T1", "R1-T2"):
            for n in range(2 + len(texts)):
                tf.append(draft(match_id, n, text=texts[n - 2] if n >= 2 else None))
        write_jsonl(tf.events("R1-T2"), tmp_path / "R1-T2.jsonl")
        write_jsonl(tf.events("R1-T1"), tmp_path / "R1-T1.jsonl")
        kept = {m: [e.hash for e in tf.events(m)] for m in ("R1-T1", "R1-T2")}
    assert cli("sync", str(tmp_path / "desk.sqlite"), hall.desk_urls[0])[0] == 0
    assert cli("tournament", "create", hall.organizer_url, "--name", "杯")[0] == 0
    code, out, err = cli(
        "tournament", "import-records", hall.organizer_url, str(tmp_path / "R1-T2.jsonl")
    )
    assert code == 0 and "added 0 events in 0 matches; 1 matches unchanged" in out, err
    with TournamentServer.open(hall.organizer_url) as server:
        for match_id, hashes in kept.items():
            events = server.events(match_id)
            assert [e.hash for e in events] == hashes
            assert [e.payload.get("text") for e in events[2:]] == list(texts)


def test_no_tournament_export_or_server_command_prints_a_piece_of_a_password(
    hall, tmp_path, cli
) -> None:
    """Every action, on every kind of address a person may get wrong: written raw, a wrong
    password, an unreachable port, a password as a query parameter."""
    password = PASSWORDS[3]
    _set_password(hall, password)
    role, where = hall.report.organizer.role, hall.organizer_url.split("@", 1)[1]
    database = where.rsplit("/", 1)[1]
    addresses = {
        f"postgresql://{role}:{quote(password, safe='')}@{where}": _pieces(password),
        f"postgresql://{role}:{password}@{where}": _pieces(password),
        f"postgresql://{role}:Xy9Wrongpass@{where}": ["Xy9Wrongpass"],
        f"postgresql://{role}:Zq8Portpass@127.0.0.1:1/{database}": ["Zq8Portpass"],
        f"postgresql://{role}@{where}?password=Pp6Querypass": ["Pp6Querypass"],
    }
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("player1,player2\n甲,乙\n丙,丁\n", encoding="utf-8")
    for url, secret in addresses.items():
        out_dir = tmp_path / f"out{len(secret)}{len(url)}"
        for argv in (
            ("tournament", "create", url, "--name", "杯"),
            ("tournament", "import-pairs", url, str(pairs)),
            ("tournament", "add-pair", url, "戊", "己"),
            ("tournament", "pairs", url),
            ("tournament", "draw", url),
            ("tournament", "matches", url),
            ("tournament", "standings", url),
            ("tournament", "assign", url, "KO-R1-M001", "--table", "1号桌"),
            ("tournament", "import-records", url),
            ("tournament", "link", url, "T1", "KO-R1-M001"),
            ("tournament", "lots", url, "A", "1=1"),
            ("tournament", "opening", url, "KO-R1-M001"),
            ("tournament", "simulate", url, "-o", str(out_dir / "sim")),
            ("export", "bracket", url, "-o", str(out_dir / "b.xlsx")),
            ("export", "results", url, "-o", str(out_dir / "r.pdf")),
            ("export", "match", url, "--match", "KO-R1-M001", "-o", str(out_dir / "m.pdf")),
            ("export", "scoresheet", url, "--match", "KO-R1-M001", "-o", str(out_dir / "s.pdf")),
            ("export", "round-pack", url, "--round", "1", "-o", str(out_dir / "p.pdf")),
            ("export", "players", url, "-o", str(out_dir / "i.pdf")),
            ("export", "jsonl", url, "-o", str(out_dir / "x.jsonl")),
            ("verify", url),
            ("server", "publish", url),
            ("server", "status", url),
        ):
            code, out, err = cli(*argv)
            assert "Traceback" not in err, (argv, err)
            if code != 0:
                assert len(err.strip().splitlines()) == 1, (argv, err)
            assert [piece for piece in secret if piece in out + err] == [], (argv, out, err)
