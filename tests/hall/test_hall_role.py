"""A server made before the hall role gets it from ``server upgrade`` (once), and the
page then reads as it; before that the page says what to run."""

from __future__ import annotations

import psycopg
import pytest

from referee_desk.store.postgres.errors import ServerRefused


def test_upgrade_adds_the_hall_role_to_a_server_made_before_it(admin_url) -> None:
    from referee_desk.hall.source import hall_connection
    from referee_desk.store.postgres.init import init_server, upgrade_server

    report = init_server(admin_url, ["1号桌"])
    organizer = report.organizer.url(admin_url)
    hall = f"{report.database}_hall"
    with psycopg.connect(admin_url, autocommit=True) as conn:  # as an older init left it
        conn.execute("DELETE FROM referee_desk.meta WHERE key = 'hall_role'")
        conn.execute(f'DROP OWNED BY "{hall}"')
        conn.execute(f'DROP ROLE "{hall}"')
    with pytest.raises(ServerRefused, match="server upgrade"):
        hall_connection(organizer)
    upgrade_server(admin_url)
    upgrade_server(admin_url)  # again: nothing more to do
    with hall_connection(organizer) as conn:
        assert conn.execute("SELECT current_user").fetchone()[0] == hall
        assert conn.execute("SELECT count(*) FROM referee_desk.desks").fetchone()[0] == 1
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT * FROM referee_desk.conflicts")


def test_a_desks_address_cannot_read_as_the_hall_role(admin_url) -> None:
    from referee_desk.hall.source import hall_connection
    from referee_desk.store.postgres.init import init_server

    report = init_server(admin_url, ["1号桌"])
    with pytest.raises(ServerRefused, match="organizer's address"):
        hall_connection(report.desks[0].url(admin_url))
