"""The tournament server: PostgreSQL as the shared store of a hall's desks.

Each desk keeps its SQLite file (the offline journal, written first); events are pushed
to the server byte for byte (the same canonical JSON and hashes), so the store's verify
code checks a record exported from the server. See ``docs/server.md``.
"""
