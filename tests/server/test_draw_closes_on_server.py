"""The draw closes the settings and the pairs on a server too, whichever part is asked.

``InfoTable.choose`` and ``DrawTable.write`` (public parts of ``Tournament``) check the
draw inside their own transaction, under a lock on the server: a configure racing a
draw waits for it and is then refused, a draw racing a configure waits and is then
refused, and a draw written through the part directly opens claims as ``draw()`` does.
Each race waits for the other session to be seen waiting on a lock (pg_stat_activity),
not for a fixed time.
"""

from __future__ import annotations

import threading
import time

import psycopg
import pytest

from referee_desk.rules.ruleset import get_ruleset
from referee_desk.tournament.draw_plan import assign_in_turn, plan_draw
from referee_desk.tournament.draw_table import DrawTable
from referee_desk.tournament.errors import DrawError
from referee_desk.tournament.model import Format, Settings, TournamentInfo
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.schema import json_column

INFO = TournamentInfo("杯", "2026-11-28", "2026-11-28", "", "", ("1号桌", "2号桌"), ("王", "李"))
PAIRS = [(f"甲{n}", f"乙{n}", "", None) for n in range(1, 9)]
NINETY = get_ruleset("guilin-2009", {"match_minutes": 90})


def _until_a_session_waits_on_a_lock(url: str, timeout: float = 20.0) -> None:
    """Return once another session of this database waits on a lock (or fail)."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND wait_event_type = 'Lock' "
                "AND pid != pg_backend_pid()"
            ).fetchone()
            if row and row[0]:
                return
            time.sleep(0.01)
    pytest.fail("no session came to wait on the lock")


def test_a_draw_written_through_the_part_keeps_the_draws_checks(fresh_hall) -> None:
    with Tournament.create(fresh_hall.organizer_url, INFO) as t:
        t.add_pairs(PAIRS)
        t.configure(Settings(format=Format.GROUPS_KNOCKOUT, group_count=2))
        pairs = t.pairs.all()
        planned, groups = plan_draw(pairs, t.settings, 1)
        matches = assign_in_turn(planned, t.info)
        chosen = t.ruleset
        t.configure(ruleset=NINETY)
        with pytest.raises(DrawError, match="changed while drawing"):
            t.draw_table.write(pairs, None, 1, chosen, t.settings, groups, matches)
        assert not t.drawn and not t.server.claims_open()
        t.draw_table.write(pairs, None, 1, t.ruleset, t.settings, groups, matches)
        assert t.drawn and t.server.claims_open()  # as draw() leaves it
        with pytest.raises(DrawError, match="cannot change the settings or the ruleset"):
            t.info_table.choose(Settings(), None)
        with pytest.raises(DrawError, match="cannot draw again"):
            t.draw(draw_seed=3)


def test_a_configure_racing_the_draw_waits_then_is_refused(fresh_hall) -> None:
    with Tournament.create(fresh_hall.organizer_url, INFO) as t:
        t.add_pairs(PAIRS)
    a = Tournament.open(fresh_hall.organizer_url)
    b = Tournament.open(fresh_hall.organizer_url)
    try:
        pairs = a.pairs.all()
        planned, groups = plan_draw(pairs, a.settings, 1)
        matches = assign_in_turn(planned, a.info)
        outcome: list[str] = []

        def configure() -> None:
            try:
                b.configure(ruleset=NINETY)
                outcome.append("configured")
            except DrawError as error:
                outcome.append(str(error))

        with a.tables.signed_transaction() as conn:
            a.pairs.lock(conn, "SHARE")
            a.info_table.lock(conn, "SHARE")
            DrawTable._insert(conn, None, 1, a.ruleset, a.settings, groups, matches)
            other = threading.Thread(target=configure)
            other.start()
            _until_a_session_waits_on_a_lock(fresh_hall.organizer_url)
            assert outcome == []
        other.join(20)
        assert outcome == ["the draw is made: cannot change the settings or the ruleset any more"]
    finally:
        a.close()
        b.close()


def test_a_draw_racing_a_configure_waits_then_is_refused(fresh_hall) -> None:
    with Tournament.create(fresh_hall.organizer_url, INFO) as t:
        t.add_pairs(PAIRS)
    a = Tournament.open(fresh_hall.organizer_url)
    b = Tournament.open(fresh_hall.organizer_url)
    try:
        outcome: list[str] = []

        def draw() -> None:
            try:
                a.draw(draw_seed=1)
                outcome.append("drawn")
            except DrawError as error:
                outcome.append(str(error))

        with b.tables.signed_transaction() as conn:
            b.info_table.lock(conn, "SHARE ROW EXCLUSIVE")
            conn.execute(
                "UPDATE tournament_info SET ruleset_json = ? WHERE id = 1",
                (json_column(NINETY.to_dict()),),
            )
            other = threading.Thread(target=draw)
            other.start()
            _until_a_session_waits_on_a_lock(fresh_hall.organizer_url)
            assert outcome == []
        other.join(20)
        assert len(outcome) == 1
        assert "the settings or the ruleset changed while drawing" in outcome[0]
        assert not a.drawn
    finally:
        a.close()
        b.close()
