"""Issue 18 item 5: the tournament's results tables, attacked with only what the attacker has.

The sample tournament of the README (six groups; the desks' records kept under their own
ids and linked on import), with group F's record (#6 beats #7) locked. The attacker
writes the file, its heads journal and its backups, never the desk's config folder.
Either the standings follow the locked record (the outcome cache is checked against
this computer's own derivation), or ``verify`` and opening name the tamper (the draw,
lots and links are under the file's signed guard).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from referee_desk.cli.main import main
from referee_desk.store import StoreError, TournamentFile
from referee_desk.store.rows import INSERT_SQL, to_row
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.simulate import simulate_match
from tests.reliability.test_attacks import drop_journal, verdict

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(str(p) for p in (ROOT / "sample_events").glob("*.jsonl"))
SAMPLE_PAIRS = ROOT / "docs" / "tournament-demo" / "sample_pairs.csv"
GROUP_F = "GF-R1-M01"  # pairs #6 and #7; the sample record GL2026-R2-T6 says #6 won
GROUP_E = "GE-R1-M01"


def sample_cup(path: Path, capsys) -> str:
    """The README's sample tournament, group F's record locked; that record's id."""
    for argv in (
        ["tournament", "create", str(path), "--name", "桂林杯", "--start", "2026-11-28",
         "--tables", "1号桌,2号桌,3号桌,4号桌,5号桌,6号桌", "--referees", "陈建国,王磊,李静",
         "--format", "groups", "--groups", "6", "--advance", "1", "--third-place"],
        ["tournament", "import-pairs", str(path), str(SAMPLE_PAIRS)],
        ["tournament", "draw", str(path), "--seed", "2026"],
        ["tournament", "import-records", str(path), *SAMPLES],
    ):  # fmt: skip
        assert main(argv) == 0, capsys.readouterr()
    with Tournament.open(path) as t:
        record = t.record_id(GROUP_F)
        assert t.state().match(GROUP_F).winner == 6
    with TournamentFile.open(path, create=False) as tf:
        tf.seals.lock(record, "王磊")
    capsys.readouterr()
    code, text = verdict(path, capsys)
    assert code == 0, text  # the genuine file: no false alarm
    return record


def group_f_winner(path: Path) -> int | None:
    with Tournament.open(path) as t:
        return t.state().match(GROUP_F).winner


def winner_in_a_fresh_process(address: str, match_id: str = GROUP_F) -> int | None:
    """The desk's next run on this computer (nothing remembered in memory)."""
    code = (
        "import sys; from referee_desk.tournament.repository import Tournament\n"
        "with Tournament.open(sys.argv[1]) as t: print(t.state().match(sys.argv[2]).winner)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, address, match_id],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return None if done.stdout.strip() == "None" else int(done.stdout)


def raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


def test_a_forged_outcome_cache_does_not_decide_the_match(tmp_path: Path, capsys) -> None:
    """``UPDATE tournament_outcome_cache``: #7 shown beating #6 while the locked record
    says #6 won. The standings follow the record."""
    path = tmp_path / "cup.sqlite"
    sample_cup(path, capsys)
    group_f_winner(path)  # the cache holds this computer's entries now
    conn = raw(path)
    (outcome_json,) = conn.execute(
        "SELECT outcome_json FROM tournament_outcome_cache WHERE match_id = ?", (GROUP_F,)
    ).fetchone()
    forged = json.loads(outcome_json)
    assert forged["winner"] == 6
    forged["winner"] = 7
    forged["levels"] = [[pair, level] for pair, level in zip((6, 7), (1, 12), strict=True)]
    conn.execute(
        "UPDATE tournament_outcome_cache SET outcome_json = ? WHERE match_id = ?",
        (json.dumps(forged, ensure_ascii=False), GROUP_F),
    )
    conn.close()
    assert winner_in_a_fresh_process(str(path)) == 6  # today: 7
    assert main(["tournament", "standings", str(path)]) == 0
    standings = capsys.readouterr().out
    group_f = standings.split("group F", 1)[1].splitlines()
    assert "#6" in group_f[1] and "W 1 L 0" in group_f[1], standings


def test_a_cache_planted_from_scratch_is_replayed(tmp_path: Path, capsys) -> None:
    """Every row rewritten in the cache's own format, keys (chain heads) kept."""
    path = tmp_path / "cup.sqlite"
    sample_cup(path, capsys)
    group_f_winner(path)
    conn = raw(path)
    for match_id, key, outcome_json in conn.execute(
        "SELECT * FROM tournament_outcome_cache"
    ).fetchall():
        forged = json.loads(outcome_json)
        loser = forged["pair_b"] if forged["winner"] == forged["pair_a"] else forged["pair_a"]
        forged["winner"] = loser
        conn.execute(
            "UPDATE tournament_outcome_cache SET head_hash = ?, outcome_json = ? "
            "WHERE match_id = ?",
            (key.split(":")[0] + ":6:7:d2", json.dumps(forged, ensure_ascii=False), match_id),
        )
    conn.close()
    assert winner_in_a_fresh_process(str(path)) == 6


def _repoint_links(conn: sqlite3.Connection, record_f: str) -> None:
    """Swap the records counted for groups E and F (both left "not finished")."""
    links = dict(conn.execute("SELECT match_id, record_id FROM tournament_links"))
    conn.execute("DROP TRIGGER IF EXISTS tournament_links_once")
    conn.execute("DELETE FROM tournament_links WHERE match_id IN (?, ?)", (GROUP_E, GROUP_F))
    conn.execute(
        "INSERT INTO tournament_links VALUES (?, ?, '2026-11-28T10:00:00.000Z', 'import')",
        (links[GROUP_E], GROUP_F),
    )
    conn.execute(
        "INSERT INTO tournament_links VALUES (?, ?, '2026-11-28T10:00:00.000Z', 'import')",
        (record_f, GROUP_E),
    )


def _forged_record_linked(conn: sqlite3.Connection, record_f: str) -> None:
    """A record of their own (#7 wins), under a fresh id, counted for group F instead."""
    opening = json.loads(
        conn.execute(
            "SELECT payload FROM events WHERE match_id = ? AND seq = 1", (record_f,)
        ).fetchone()[0]
    )
    for event in simulate_match("GL2026-R9-T9", opening, "EW", "passed_a"):
        conn.execute(INSERT_SQL, to_row(event))
    conn.execute("DELETE FROM tournament_links WHERE match_id = ?", (GROUP_F,))
    conn.execute(
        "INSERT INTO tournament_links VALUES ('GL2026-R9-T9', ?, '2026-11-28T10:00:00.000Z', "
        "'import')",
        (GROUP_F,),
    )


def _link_deleted(conn: sqlite3.Connection, record_f: str) -> None:
    conn.execute("DELETE FROM tournament_links WHERE match_id = ?", (GROUP_F,))


def _lot_planted(conn: sqlite3.Connection, record_f: str) -> None:
    conn.execute("INSERT INTO tournament_lots VALUES ('F', 7, 1, '2026-11-28T10:00:00Z', '')")


def _draw_rewritten(conn: sqlite3.Connection, record_f: str) -> None:
    """The frozen draw's trigger dropped, group F's pairs swapped."""
    conn.execute("DROP TRIGGER IF EXISTS tournament_matches_frozen")
    slots = conn.execute(
        "SELECT slot_a, slot_b FROM tournament_matches WHERE match_id = ?", (GROUP_F,)
    ).fetchone()
    conn.execute(
        "UPDATE tournament_matches SET slot_a = ?, slot_b = ? WHERE match_id = ?",
        (slots[1], slots[0], GROUP_F),
    )


def _table_reassigned(conn: sqlite3.Connection, record_f: str) -> None:
    conn.execute(
        "UPDATE tournament_matches SET table_name = '6号桌' WHERE match_id = ?", (GROUP_E,)
    )


@pytest.mark.parametrize(
    ("tamper", "table"),
    [
        (_repoint_links, "tournament_links"),
        (_forged_record_linked, "tournament_links"),
        (_link_deleted, "tournament_links"),
        (_lot_planted, "tournament_lots"),
        (_draw_rewritten, "tournament_matches"),
        (_table_reassigned, "tournament_matches"),
    ],
    ids=[
        "links-repointed",
        "forged-record-linked",
        "link-deleted",
        "lot-planted",
        "draw-rewritten",
        "table-reassigned",
    ],
)
def test_organizer_tables_changed_behind_the_desk_are_named(
    tmp_path: Path, capsys, tamper, table: str
) -> None:
    """Links, lots and the draw are under the file's signed guard: ``verify`` and opening
    name the change, and the desk signs nothing over it."""
    path = tmp_path / "cup.sqlite"
    record_f = sample_cup(path, capsys)
    conn = raw(path)
    tamper(conn, record_f)
    conn.close()
    drop_journal(path)
    code, text = verdict(path, capsys)
    assert code != 0 and table in text, text  # today: OK
    with pytest.raises(StoreError, match=table):
        Tournament.open(path)
    with pytest.raises(StoreError, match=table):
        TournamentFile.open(path, create=False)


def test_a_forged_link_is_named_on_a_read_only_open_too(tmp_path: Path, capsys) -> None:
    """Unguarded, the forged link counts the attacker's record (#7 wins the locked match);
    a read-only open (``tournament standings``, exports) names it as well."""
    path = tmp_path / "cup.sqlite"
    record_f = sample_cup(path, capsys)
    conn = raw(path)
    _forged_record_linked(conn, record_f)
    conn.close()
    with pytest.raises(StoreError, match="tournament_links"):
        Tournament.open(path, read_only=True)


def test_the_organizers_own_changes_keep_the_file_sound(tmp_path: Path, capsys) -> None:
    """Lots, assignments and links made through the tournament are signed: no false alarm."""
    path = tmp_path / "cup.sqlite"
    sample_cup(path, capsys)  # its links were made by the import, through the tournament
    with Tournament.open(path) as t:
        t.draw_table.record_lots("A", {1: 1, 12: 2})
        t.draw_table.assign(GROUP_E, table="6号桌")
    code, text = verdict(path, capsys)
    assert code == 0, text
    assert group_f_winner(path) == 6
