"""A whole tournament from one store into a new one: a file onto the server, or back.

The organizer prepares a tournament at home in a file and puts it on the hall's server
before the first round; after the last round the server's tournament goes into one
file for the archive and the committee. Everything moves as it is, never re-derived:
info, settings and ruleset (as frozen at the draw), the pairs with their ids, the draw
row and its matches with their tables and referees, recorded lots, every record
(checked and replayed by the store's import on the way in) and the links. A locked
match's seal goes onto the server with it (the server checks it, as a desk's push); a
file cannot take another store's seals, so a copy into a file says how many it left.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from referee_desk.store.errors import ImportRefused
from referee_desk.store.jsonl import write_jsonl
from referee_desk.store.tournament_file import TournamentFile
from referee_desk.tournament.deciding import copyable, links_not_standing
from referee_desk.tournament.errors import TournamentError
from referee_desk.tournament.outcomes import replay_events
from referee_desk.tournament.repository import Tournament

#: The tables copied row for row, in an order their rows can be inserted in.
ROW_TABLES = ("tournament_pairs", "tournament_draw", "tournament_matches", "tournament_lots")


@dataclass(frozen=True, slots=True)
class CopyReport:
    pairs: int
    matches: int
    records: int
    events: int
    links: int
    seals_sent: int
    seals_left: int
    #: (match id, why) of each record the destination refused: the rest is copied
    refused: tuple[tuple[str, str], ...] = ()
    #: (match id, why) of records copied only as far as the source vouches for them
    held_back: tuple[tuple[str, str], ...] = ()

    def lines(self) -> list[str]:
        out = [
            f"copied {self.pairs} pairs, {self.matches} drawn matches, {self.records} records "
            f"({self.events} events), {self.links} links"
        ]
        if self.seals_sent:
            out.append(f"{self.seals_sent} seals sent (checked by the server)")
        if self.seals_left:
            out.append(
                f"{self.seals_left} seals not copied: a file signs its own locks "
                "(the source keeps them; verify it there)"
            )
        for match_id, why in self.refused:
            out.append(f"match {match_id} NOT copied (the rest is): {why}")
        for match_id, why in self.held_back:
            out.append(f"match {match_id}: {why}")
        return out


def copy_tournament(source: Tournament, destination: str | Path) -> CopyReport:
    """Copy ``source`` into ``destination`` (a new file or a server without a tournament)."""
    dst = Tournament.create(destination, source.info, source.settings, source.ruleset)
    try:
        _copy_rows(source, dst)
        dst.guard_server_claims()  # the copied draw keeps its matches for their tables
        events, seals_sent, refused, held_back = _copy_records(source, dst)
        entries = source.record_links.entries()
        # A link found on import from another table does not count on the server; a file
        # could not tell, so it is not copied (issue 18 item 9).
        left_out = links_not_standing(source.file, source.draw_table.matches(), entries)
        rows = source.tables.rows("SELECT * FROM tournament_links ORDER BY record_id")
        links = [row for row in rows if row[0] not in left_out]
        with dst.tables.signed_transaction() as writer:
            writer.executemany("INSERT INTO tournament_links VALUES (?, ?, ?, ?)", links)
        seals_left = 0 if dst.on_server else _locked(source)
        return CopyReport(
            pairs=len(source.pairs.all()),
            matches=len(source.draw_table.matches()),
            records=len(source.file.match_ids()) - len(refused),
            events=events,
            links=len(links),
            seals_sent=seals_sent,
            seals_left=seals_left,
            refused=tuple(refused),
            held_back=tuple(held_back),
        )
    finally:
        dst.close()


def _copy_rows(source: Tournament, dst: Tournament) -> None:
    """Pairs, the draw, its matches and lots, row for row, in one transaction."""
    with dst.tables.signed_transaction() as writer:
        for table in ROW_TABLES:
            rows = source.tables.rows(f"SELECT * FROM {table}")
            if rows:
                marks = ", ".join("?" * len(rows[0]))
                writer.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)


def _copy_records(
    source: Tournament, dst: Tournament
) -> tuple[int, int, list[tuple[str, str]], list[tuple[str, str]]]:
    """(events copied, seals sent, records refused, records held back): a file's push onto
    a server, else an import match by match, so one record the destination refuses (a
    desk's invalid event on the server) is named and the others are copied all the same;
    of a server's record only what counts there is copied (``deciding.copyable``)."""
    if dst.server is not None and isinstance(source.file, TournamentFile):
        from referee_desk.store.postgres.seals import register_file_signers
        from referee_desk.store.postgres.sync import push

        register_file_signers(dst.server, source.file)  # the seals the file vouches for
        report = push(source.file, dst.server)
        if report.conflicts:
            first = report.conflicts[0]
            raise TournamentError(
                f"match {first.match_id}, event {first.seq}: {first.reason} (copy stopped)"
            )
        return report.total_pushed, report.seals, [], []
    added = 0
    refused: list[tuple[str, str]] = []
    held_back: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory(prefix="referee-desk-copy-") as folder:
        for number, match_id in enumerate(source.file.match_ids()):
            part = Path(folder) / f"record-{number}.jsonl"
            events, why = copyable(source.file, match_id, replay_events)
            if not events:  # nothing of it counts there: not copied at all
                refused.append((match_id, f"nothing of it counts on the server: {why}"))
                continue
            if why is not None:
                cut = f"from event {len(events) + 1} on not copied (it stays on the server)"
                held_back.append((match_id, f"{cut}: {why}"))
            write_jsonl(events, part)
            try:
                added += dst.file.import_jsonl([part]).total_added
            except ImportRefused as error:
                where = f"event {error.seq}: " if error.seq is not None else ""
                refused.append((match_id, where + error.reason))
            finally:
                part.unlink()
    return added, 0, refused, held_back


def _locked(source: Tournament) -> int:
    return sum(1 for m in source.file.match_ids() if source.file.seal_info(m) is not None)
