"""The server schema's DDL, version by version (``init`` applies them, in order).

One module per purpose: ``chain`` (the hash-chain check on every insert, defined once,
and ``ddl`` that fills a template), ``v1_records`` (the schema, the record's tables and
the desks' claims), ``v2_seals`` (signing keys and seals, checked by the server),
``v3_organizer`` (the organizer's schema for other layers' tables), ``v4_board`` (the
table board: heartbeats and settled forks), ``v5_acceptances`` (claims closed until the
draw, the after-lock rule, acceptances) and ``hall`` (the hall page's read-only role).

``{organizer}``, ``{desks}``, ``{hall}`` and ``{db}`` are quoted role and database names
filled in by ``init``; ``{events_check}`` is the chain check (``chain.EVENTS_CHECK``):
version 1 creates it and version 3 brings older servers to the same text.
"""
