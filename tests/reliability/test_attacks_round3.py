"""Issue 18, round three: the tournament file's results tables attacked again, with only
what the README's attacker has (the file, its heads journal and its backups; never the
desk's config folder), after the defences of item 5 landed.

Each test names what it proves. ``sample_cup`` is the README's sample tournament with
group F's record (#6 梁斌/郑浩 beats #7 宋佳/谢颖) locked.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from referee_desk.cli.main import main
from referee_desk.store import StoreError, TournamentFile
from referee_desk.tournament.repository import Tournament
from tests.reliability.test_attacks import drop_journal, verdict
from tests.reliability.test_attacks_results import (
    GROUP_F,
    _repoint_links,
    raw,
    sample_cup,
    winner_in_a_fresh_process,
)


def _named_everywhere(path: Path, capsys, table: str) -> str:
    """``verify`` and every open (writable, read-only) name ``table``; verify's text."""
    code, text = verdict(path, capsys)
    assert code != 0 and table in text, text
    with pytest.raises(StoreError, match=table):
        Tournament.open(path)
    with pytest.raises(StoreError, match=table):
        Tournament.open(path, read_only=True)
    with pytest.raises(StoreError, match=table):
        TournamentFile.open(path, create=False)
    return text


def _group_f_lines(path: Path, capsys) -> list[str]:
    assert main(["tournament", "standings", str(path)]) == 0
    return capsys.readouterr().out.split("group F", 1)[1].splitlines()[1:3]


def test_pair_names_swapped_behind_the_desk_are_named(tmp_path: Path, capsys) -> None:
    """The hole found: the pairs were not under the guard. Swapping the names of #6 and
    #7 made every standing say 宋佳/谢颖 won the locked match, and ``verify`` said OK.
    Now the pairs are guarded (``GUARDED_TABLES``): the swap is named, the open refused."""
    path = tmp_path / "cup.sqlite"
    sample_cup(path, capsys)
    assert "梁斌 / 郑浩" in _group_f_lines(path, capsys)[0]
    conn = raw(path)
    six, seven = (
        conn.execute(
            "SELECT player1, player2, club FROM tournament_pairs WHERE pair_id = ?", (n,)
        ).fetchone()
        for n in (6, 7)
    )
    conn.execute(
        "UPDATE tournament_pairs SET player1 = ?, player2 = ?, club = ? WHERE pair_id = 6", seven
    )
    conn.execute(
        "UPDATE tournament_pairs SET player1 = ?, player2 = ?, club = ? WHERE pair_id = 7", six
    )
    conn.close()
    drop_journal(path)
    _named_everywhere(path, capsys, "tournament_pairs")


def test_the_organizers_own_pair_edit_keeps_the_file_sound(tmp_path: Path, capsys) -> None:
    """A name corrected through the tournament (after the draw) is signed: no false alarm."""
    path = tmp_path / "cup.sqlite"
    sample_cup(path, capsys)
    with Tournament.open(path) as t:
        six = t.pair_map()[6]
        t.update_pair(type(six)(6, "梁斌斌", six.player2, six.club, six.seed))
    code, text = verdict(path, capsys)
    assert code == 0, text
    assert "梁斌斌" in _group_f_lines(path, capsys)[0]


def test_a_file_from_before_puts_its_pairs_under_the_guard_on_open(tmp_path: Path, capsys) -> None:
    """A file whose guard list predates the pairs (the four tables of item 5) gains the
    pairs on its next writable open, signed; a later swap is then named."""
    path = tmp_path / "cup.sqlite"
    sample_cup(path, capsys)
    with TournamentFile.open(path, create=False) as tf, tf.trust.signed_change() as conn:
        conn.execute(
            "UPDATE meta SET value = ? WHERE key = 'guarded_tables'",
            (json.dumps(["tournament_draw", "tournament_links", "tournament_lots",
                         "tournament_matches"]),),
        )  # fmt: skip
    with Tournament.open(path):
        pass
    conn = raw(path)
    (names,) = conn.execute("SELECT value FROM meta WHERE key = 'guarded_tables'").fetchone()
    assert "tournament_pairs" in json.loads(names)
    conn.execute("UPDATE tournament_pairs SET player1 = '冒名' WHERE pair_id = 7")
    conn.close()
    _named_everywhere(path, capsys, "tournament_pairs")


@pytest.mark.parametrize(
    "shortened", ["[]", '["tournament_draw"]', None], ids=["empty", "one", "deleted"]
)
def test_the_guard_list_shortened_then_links_tampered_is_named(
    tmp_path: Path, capsys, shortened: str | None
) -> None:
    """Drop tournament_links from ``meta.guarded_tables`` (or the whole entry), then
    repoint the links: ``meta`` is itself guarded, so the shortened list is named (and
    the desk signs nothing over it), whatever the tables' own comparison would say."""
    path = tmp_path / "cup.sqlite"
    record_f = sample_cup(path, capsys)
    conn = raw(path)
    if shortened is None:
        conn.execute("DELETE FROM meta WHERE key = 'guarded_tables'")
    else:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'guarded_tables'", (shortened,))
    _repoint_links(conn, record_f)
    conn.close()
    drop_journal(path)
    code, text = verdict(path, capsys)
    assert code != 0 and ("meta" in text or "guarded_tables" in text), text
    with pytest.raises(StoreError):
        Tournament.open(path)
    with pytest.raises(StoreError):
        TournamentFile.open(path, create=False)


def test_linked_by_rewritten_is_named(tmp_path: Path, capsys) -> None:
    """``tournament_links.linked_by`` turned from 'import' into an explicit link (which
    ``deciding`` counts even from another table): a guarded row changed, named."""
    path = tmp_path / "cup.sqlite"
    sample_cup(path, capsys)
    conn = raw(path)
    conn.execute("DROP TRIGGER IF EXISTS tournament_links_once")
    conn.execute("UPDATE tournament_links SET linked_by = 'organizer'")
    conn.close()
    drop_journal(path)
    _named_everywhere(path, capsys, "tournament_links")


def test_links_copied_back_from_an_older_copy_are_named(tmp_path: Path, capsys) -> None:
    """The links as an older copy (made before the records were linked) held them,
    written back into the current file: the guard covers today's rows, so it is named."""
    path = tmp_path / "cup.sqlite"
    older = tmp_path / "older.sqlite"
    sample_cup(path, capsys)
    shutil.copy(path, older)
    conn = raw(older)
    conn.execute("DROP TRIGGER IF EXISTS tournament_links_once")
    conn.execute("DELETE FROM tournament_links WHERE match_id = ?", (GROUP_F,))
    conn.close()  # stands for a backup from before group F's record was linked
    conn = raw(path)
    conn.execute("DROP TRIGGER IF EXISTS tournament_links_once")
    conn.execute("DELETE FROM tournament_links")
    conn.execute(f"ATTACH DATABASE '{older}' AS old")
    conn.execute("INSERT INTO tournament_links SELECT * FROM old.tournament_links")
    conn.execute("DETACH DATABASE old")
    conn.close()
    drop_journal(path)
    _named_everywhere(path, capsys, "tournament_links")


@pytest.mark.parametrize(
    "stamp",
    [
        lambda key: key.rpartition(":")[0],  # the HMAC suffix deleted
        lambda key: key.rpartition(":")[0] + ":",  # emptied
        lambda key: key.rpartition(":")[0] + ":" + "0" * 64,  # zeroed
    ],
    ids=["suffix-deleted", "suffix-empty", "suffix-zeroed"],
)
def test_a_cache_row_without_its_hmac_is_replayed(tmp_path: Path, capsys, stamp) -> None:
    """The forged outcome (#7 wins) with the cache key's HMAC suffix removed, emptied or
    zeroed: not this computer's entry, so the record decides (#6)."""
    path = tmp_path / "cup.sqlite"
    sample_cup(path, capsys)
    assert winner_in_a_fresh_process(str(path)) == 6  # the cache holds this computer's entry
    conn = raw(path)
    key, outcome_json = conn.execute(
        "SELECT head_hash, outcome_json FROM tournament_outcome_cache WHERE match_id = ?",
        (GROUP_F,),
    ).fetchone()
    forged = json.loads(outcome_json)
    forged["winner"] = 7
    conn.execute(
        "UPDATE tournament_outcome_cache SET head_hash = ?, outcome_json = ? WHERE match_id = ?",
        (stamp(key), json.dumps(forged, ensure_ascii=False), GROUP_F),
    )
    conn.close()
    assert winner_in_a_fresh_process(str(path)) == 6


def test_a_genuine_cache_row_moved_to_another_match_is_replayed(tmp_path: Path, capsys) -> None:
    """Another match's genuine, HMAC-stamped entry (its winner) copied under group F:
    the HMAC covers the match id, so group F is replayed from its record."""
    path = tmp_path / "cup.sqlite"
    sample_cup(path, capsys)
    assert winner_in_a_fresh_process(str(path)) == 6
    conn = raw(path)
    rows = conn.execute("SELECT match_id, head_hash, outcome_json FROM tournament_outcome_cache")
    donor = next(r for r in rows if r[0] != GROUP_F)
    conn.execute(
        "UPDATE tournament_outcome_cache SET head_hash = ?, outcome_json = ? WHERE match_id = ?",
        (donor[1], donor[2], GROUP_F),
    )
    conn.close()
    assert winner_in_a_fresh_process(str(path)) == 6


_PLANTED = {
    # fires inside the desk's own signed transaction (a lock inserts a seal, then the
    # guard is re-signed): the swap would be signed with the desk's genuine key
    "seal-swaps-pairs": (
        "CREATE TRIGGER zz_evil AFTER INSERT ON match_seals BEGIN "
        "UPDATE tournament_pairs SET player1 = '冒名' WHERE pair_id = 7; END"
    ),
    "seal-plants-a-person": (
        "CREATE TRIGGER zz_evil AFTER INSERT ON match_seals BEGIN "
        "UPDATE people SET role = 'committee' WHERE rowid = (SELECT MIN(rowid) FROM people); END"
    ),
    # a genuine trigger's name with another body: saved events silently dropped
    "known-name-ignores": (
        "CREATE TRIGGER events_append_only_update BEFORE INSERT ON events BEGIN "
        "SELECT RAISE(IGNORE); END"
    ),
}


@pytest.mark.parametrize("sql", list(_PLANTED.values()), ids=list(_PLANTED))
def test_a_trigger_planted_in_the_file_is_named_before_anything_is_signed(
    tmp_path: Path, capsys, sql: str
) -> None:
    """The hole found: the guard covers rows, not the file's schema. A trigger the
    attacker adds runs inside the desk's next signed change (a lock), so its tamper was
    signed with the desk's genuine key and ``verify`` said OK. A trigger that does more
    than refuse (``RAISE(ABORT, …)``, as every trigger of the store and its layers does)
    is named by ``verify`` and refuses the open, so nothing is signed over it."""
    path = tmp_path / "cup.sqlite"
    sample_cup(path, capsys)
    conn = raw(path)
    if sql.startswith("CREATE TRIGGER events_append_only_update"):
        conn.execute("DROP TRIGGER events_append_only_update")
    conn.execute(sql)
    conn.close()
    code, text = verdict(path, capsys)
    assert code != 0 and "trigger" in text, text
    with pytest.raises(StoreError, match="trigger"):
        TournamentFile.open(path, create=False)
    with pytest.raises(StoreError, match="trigger"):
        Tournament.open(path, read_only=True)
