"""The hall page's read-only role: its grants, and what version 5 adds to them.

No schema version of its own: ``server init`` makes it, ``server upgrade`` adds it to
a server made before it.
"""

from __future__ import annotations

#: The hall page's read-only role (``<db>_hall``, no login): the organizer's web app
#: (``referee-desk hall serve``) connects with the organizer's address and reads with
#: ``SET ROLE <db>_hall``, so whatever the page does it can read only names, matches and
#: results, and write nothing. It sees the records (the events: the open match record),
#: the tables' labels and the tournament's own tables (pairs, the draw, lots, links: no
#: secret is kept there, and tables the organizer adds later are granted by default);
#: never the conflicts, keys, key offers, seals, claims, the desks' match holdings or
#: any password (PostgreSQL's catalogs keep those from every non-superuser). Added by
#: ``server init`` and, on a server made before it, by ``server upgrade`` (idempotent:
#: ``meta.hall_role`` says it is there), without a schema version of its own.
HALL_ROLE = r"""
GRANT {hall} TO {organizer};
GRANT CONNECT ON DATABASE {db} TO {hall};
GRANT USAGE ON SCHEMA referee_desk TO {hall};
GRANT SELECT ON referee_desk.meta, referee_desk.desks, referee_desk.events TO {hall};
CREATE POLICY hall_reads_events ON referee_desk.events FOR SELECT TO {hall} USING (true);
GRANT USAGE ON SCHEMA referee_desk_organizer TO {hall};
GRANT SELECT ON ALL TABLES IN SCHEMA referee_desk_organizer TO {hall};
ALTER DEFAULT PRIVILEGES FOR ROLE {organizer} IN SCHEMA referee_desk_organizer
    GRANT SELECT ON TABLES TO {hall};
"""


#: (version 5) What the hall page needs to count results as the organizer does.
HALL_ROLE_V5 = r"""
GRANT EXECUTE ON FUNCTION referee_desk.vouched_heads() TO {hall};
"""
