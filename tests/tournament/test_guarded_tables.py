"""Issue 18 item 5: a tournament file from before the guarded tables is covered on its
first writable open (its draw, lots and links as they are then), and from then on a
change behind the desk's back is named."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from referee_desk.store import StoreError, TournamentFile
from referee_desk.store.keys import desk_signer
from referee_desk.tournament.model import TournamentInfo
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.schema import GUARDED_TABLES

INFO = TournamentInfo("桂林杯", "2026-11-28", "2026-11-28", tables=("1号桌",), referees=("王磊",))


def _as_before(path: Path) -> None:
    """What an older desk left: no ``meta.guarded_tables``, its guard signed without them."""
    with TournamentFile.open(path, create=False) as tf, tf.core.transaction() as conn:
        conn.execute("DELETE FROM meta WHERE key = 'guarded_tables'")
        tf.signatures.sign_guard(desk_signer())


def test_a_file_from_before_is_guarded_on_its_first_writable_open(tmp_path: Path) -> None:
    path = tmp_path / "cup.sqlite"
    with Tournament.create(path, INFO) as t:
        t.add_pairs([("甲", "乙", "", None), ("丙", "丁", "", None)])
        t.draw(draw_seed=1)
    _as_before(path)
    with TournamentFile.open(path, create=False) as tf:
        assert "guarded_tables" not in tf.meta() and tf.checks.verify() is None
    with Tournament.open(path, read_only=True) as t:  # reading changes nothing
        assert "guarded_tables" not in t.file.meta()
    with Tournament.open(path) as t:
        assert sorted(GUARDED_TABLES) == sorted(json.loads(t.file.meta()["guarded_tables"]))
        t.draw_table.assign(
            t.draw_table.matches()[0].match_id, table="2号桌"
        )  # the organizer's own change
    with TournamentFile.open(path, create=False) as tf:
        assert tf.checks.verify() is None
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("UPDATE tournament_matches SET referee = '李娜'")
    conn.close()
    with pytest.raises(StoreError, match="tournament_matches"):
        Tournament.open(path)
