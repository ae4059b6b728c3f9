"""Issue 17 item 6: the tournament's tables are declared once; each backend writes its DDL.

No layer above the store writes a table twice or asks which backend it has (the old
``dialect`` switch): ``tournament.schema`` declares the tables and the changes to refuse,
and a tournament file and the server refuse the same changes with the same words.
"""

from __future__ import annotations

import re
from pathlib import Path

import psycopg
import pytest

from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.postgres.tables import ServerTables
from referee_desk.tournament.model import TournamentInfo
from referee_desk.tournament.repository import Tournament

PACKAGE = Path(__file__).resolve().parents[2] / "referee_desk"


def test_no_layer_above_the_store_writes_ddl_or_asks_the_backend() -> None:
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(PACKAGE).as_posix()
        assert "dialect" not in text, where
        if not where.startswith("store/"):
            assert not re.search(r"CREATE (TABLE|TRIGGER|FUNCTION)", text), where


def _refusal(run) -> str:
    with pytest.raises(Exception) as refused:
        run()
    return str(refused.value)


@pytest.mark.parametrize(
    "operation", ["UPDATE tournament_draw SET draw_seed = 1", "DELETE FROM tournament_draw"]
)
def test_a_file_and_the_server_refuse_the_same_change_alike(hall, tmp_path, operation: str) -> None:
    info = TournamentInfo(name="桂林杯", tables=("1号桌", "2号桌"))
    words = []
    for where in (str(tmp_path / "cup.sqlite"), hall.organizer_url):
        with Tournament.create(where, info) as t:
            for n in range(1, 5):
                t.add_pair(f"甲{n}", f"乙{n}")
            t.draw(7)

            def change(t=t) -> None:
                with t.tables.transaction() as writer:
                    writer.execute(operation)

            words.append(_refusal(change))
    verb = operation.split()[0]
    assert all(f"the draw is frozen: {verb} refused" in w for w in words), words
    with psycopg.connect(hall.organizer_url) as conn:  # a statement no row trigger sees
        conn.execute("SET search_path = referee_desk_organizer")
        with pytest.raises(psycopg.errors.RaiseException, match="frozen: TRUNCATE refused"):
            conn.execute("TRUNCATE tournament_draw")
    with TournamentServer.open(hall.organizer_url) as server:
        assert ServerTables(server).has_extension("tournament")
