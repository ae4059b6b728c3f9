"""The tournament handle: the store's match records and our tables beside them.

``Tournament`` reads and writes organizer data (info, pairs, assignments, lots),
makes the draw (freezing ruleset and settings) and derives the current state from the
match records of the same store. The store is a tournament file (the default) or the
tournament server (a ``postgresql://`` address, the organizer's): the same SQL runs on
either through ``store.tables``, so results and documents are the same from both.

The handle keeps a tournament's rules (what the draw freezes and what it refuses once
made, when a server's claims are guarded). The tables belong to parts that own their
SQL, public so callers use them directly rather than through forwards here:
``t.info_table`` (``InfoTable``: name, dates, the choices before the draw),
``t.draw_table`` (``DrawTable``: the draw, its matches and assignments, the lots),
``t.pairs`` (``PairRegistry``), ``t.record_links`` (``RecordLinks``) and
``t.outcome_cache`` (``OutcomeCache``). Each part refuses on its own the writes the draw
closes (pairs, settings and ruleset: ``draw_closes``), and the draw's one writing path
(``t.draw_table.write``) owns its checks and the guard of a server's claims after it, so a
caller of a part skips no rule the handle's methods keep. Results are derived over plain
values (``results.derive_outcomes``).
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from referee_desk.rules.ruleset import GUILIN_2009, Ruleset
from referee_desk.store.errors import StoreError
from referee_desk.store.opener import Store, open_store
from referee_desk.store.tables import FileTables, Records, Tables
from referee_desk.tournament.draw_closes import closed
from referee_desk.tournament.draw_plan import assign_in_turn, plan_draw
from referee_desk.tournament.draw_table import DrawTable
from referee_desk.tournament.elimination import round_count, round_label
from referee_desk.tournament.errors import DrawError, TournamentError
from referee_desk.tournament.info_table import InfoTable
from referee_desk.tournament.links import RecordLinks
from referee_desk.tournament.model import (
    MatchOutcome,
    Pair,
    Settings,
    TournamentInfo,
    TournamentMatch,
)
from referee_desk.tournament.outcome_cache import OutcomeCache
from referee_desk.tournament.pair_registry import PairRegistry
from referee_desk.tournament.publishing import publish
from referee_desk.tournament.results import DrawnTournament, derive_outcomes
from referee_desk.tournament.schema import EXTENSION_NAME, GUARDED_TABLES, TOURNAMENT_EXTENSION
from referee_desk.tournament.state import TournamentState, resolve

if TYPE_CHECKING:
    from referee_desk.store.postgres.server import TournamentServer


class Tournament:
    """A tournament opened for the organizer (headless; the desk wraps it).

    ``file`` is the store's records: the ``TournamentFile``, or on a server its
    ``ServerRecords`` (events, match ids, heads, seal info, import); ``tables`` runs
    our SQL in the same store; ``server`` is the tournament server the organizer opened
    (None for a file, and for a reader such as the hall page). The tables' parts are
    used directly: ``t.pairs.all()``, ``t.draw_table.matches()``, ``t.record_links.all()``.
    """

    def __init__(
        self,
        file: Records,
        tables: Tables | None = None,
        server: TournamentServer | None = None,
    ) -> None:
        self.file = file
        #: a tournament file's own tables unless the store brought its own
        self.tables: Tables = tables if tables is not None else FileTables(file)  # type: ignore[arg-type]
        #: the tournament server's connection (None in a file): publishing and claims
        self.server = server
        self.path = str(file.path)
        if not self.tables.read_only:
            self.tables.ensure_schema(TOURNAMENT_EXTENSION)  # each backend writes its DDL
            # The draw, lots, links and pairs decide results: under the file's signed guard
            # (once, for a file from before; a desk that may not sign over the guard as
            # it stands leaves that to one that may: its own writes are refused anyway).
            with contextlib.suppress(StoreError):
                self.tables.guard(GUARDED_TABLES)
        self.info_table = InfoTable(self.tables, self.path, on_server=server is not None)
        #: the pairs' rows (``all()``); it refuses registering, re-seeding and removing
        #: after the draw itself (the handle's ``add_pairs`` & co. say so first)
        self.pairs = PairRegistry(self.tables, on_server=server is not None)
        #: the draw's write guards a server's claims after it, whoever asks
        self.draw_table = DrawTable(
            self.tables, self.pairs, self.info_table, on_drawn=self.guard_server_claims
        )
        self.record_links = RecordLinks(self.tables, file)
        self.outcome_cache = OutcomeCache(self.tables, self.path)
        self._outcomes: dict[str, MatchOutcome] | None = None
        self.outcome_problems: dict[str, str] = {}

    @property
    def on_server(self) -> bool:
        return self.server is not None

    # -- opening -------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        path: str | Path,
        info: TournamentInfo,
        settings: Settings | None = None,
        ruleset: Ruleset = GUILIN_2009,
    ) -> Tournament:
        """A new tournament in a file or on a server (refuses one that holds a tournament)."""
        t = cls._connect(path, create=True)
        try:
            t.info_table.insert(info, settings, ruleset)
            t.guard_server_claims()
        except BaseException:
            t.close()
            raise
        return t

    def guard_server_claims(self) -> None:
        """On a server: no desk takes a drawn match that is not its own by recording it.

        Before the draw no desk may claim any match (the drawn ids are predictable);
        once drawn, every drawn match is given to its table's desk (``publish``) or kept
        for it, and other ids (a desk's own) may be claimed again. Nothing on a file.
        """
        server = self.server
        if server is None:
            return
        if self.drawn:
            publish(self, server)
            server.reserve([m.match_id for m in self.draw_table.matches()])
        server.set_claims(self.drawn)

    @classmethod
    def from_store(cls, store: Store) -> Tournament:
        """The tournament over a store ``open_store`` opened (a file or a server)."""
        return cls(store.records, store.tables, store.server)

    @classmethod
    def open(cls, path: str | Path, read_only: bool = False) -> Tournament:
        """Open an existing tournament; a desk's file without one is refused untouched.

        ``path`` may be the organizer's address of a tournament server.
        """
        t = cls._connect(path, create=False, read_only=read_only)
        if t.info_table.row() is None:
            t.close()
            raise TournamentError(f"{t.path}: no tournament here yet (create one first)")
        return t

    @classmethod
    def _connect(cls, path: str | Path, *, create: bool, read_only: bool = False) -> Tournament:
        """The tournament's store, from the one opener (a server's address, or a file)."""
        store = open_store(path, create=create, read_only=read_only)
        try:
            if not create and not store.tables.has_extension(EXTENSION_NAME):
                # Reading a store makes nothing in it: only ``create`` adds our tables.
                where = store.name
                if store.on_server:
                    raise TournamentError(f"{where}: no tournament here yet (create one first)")
                raise TournamentError(f"{where}: no tournament in this file (create one first)")
            return cls.from_store(store)
        except BaseException:
            store.close()
            raise

    def close(self) -> None:
        self.file.close()

    def __enter__(self) -> Tournament:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- info and settings (``InfoTable``) --------------------------------------------
    @property
    def info(self) -> TournamentInfo:
        return self.info_table.info()

    @property
    def settings(self) -> Settings:
        """The frozen settings once drawn, else the current choice."""
        d = self.draw_table.row()
        raw = d[4] if d else self.info_table.settings_json()
        return Settings.from_dict(json.loads(raw))

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset frozen at the draw (printed on every export), else the current choice."""
        d = self.draw_table.row()
        raw = d[3] if d else self.info_table.ruleset_json()
        return Ruleset.from_dict(json.loads(raw))

    def configure(self, settings: Settings | None = None, ruleset: Ruleset | None = None) -> None:
        """Change format, tie-break order or ruleset; refused once the draw is made (said
        early here, even for no change; ``InfoTable.choose`` refuses inside its write)."""
        self._refuse_if_drawn("change the settings or the ruleset")
        self.info_table.choose(settings, ruleset)

    # -- pairs (``PairRegistry``) ------------------------------------------------------
    def pair_map(self) -> dict[int, Pair]:
        return {p.pair_id: p for p in self.pairs.all()}

    def add_pair(self, player1: str, player2: str, club: str = "", seed: int | None = None) -> Pair:
        """Register a pair (before the draw); the id is the next free number."""
        return self.add_pairs([(player1, player2, club, seed)])[0]

    def add_pairs(self, pairs: Iterable[tuple[str, str, str, int | None]]) -> list[Pair]:
        """Register several pairs at once: all of them or, on any bad row, none."""
        self._refuse_if_drawn("add a pair")
        return self.pairs.add(pairs)

    def update_pair(self, pair: Pair) -> None:
        """Edit names or club (always); the seed only before the draw."""
        self.pairs.update(pair, self._refuse_if_drawn)

    def remove_pair(self, pair_id: int) -> None:
        self._refuse_if_drawn(f"remove pair {pair_id}")
        self.pairs.remove(pair_id)

    # -- the draw (``DrawTable``) -------------------------------------------------------
    @property
    def drawn(self) -> bool:
        return self.draw_table.row() is not None

    def _refuse_if_drawn(self, what: str) -> None:
        """Refuse early, before the work (each part refuses again inside its write)."""
        if self.drawn:
            raise closed(what)

    def draw(self, draw_seed: int | None = None, when: str | None = None) -> list[TournamentMatch]:
        """Make the draw once: seeding, groups or bracket, and freeze ruleset and settings.

        Unseeded pairs are placed by a lot drawn from ``draw_seed`` (recorded, so the
        draw can be repeated and checked). Tables and referees are assigned in turn.
        """
        self._refuse_if_drawn("draw again")
        settings = self.settings
        ruleset = self.ruleset
        pairs = self.pairs.all()
        seed = random.SystemRandom().randrange(2**31) if draw_seed is None else int(draw_seed)
        planned, groups = plan_draw(pairs, settings, seed)
        matches = assign_in_turn(planned, self.info)
        # Checked again under the locks, then the server's claims guarded (``DrawTable``).
        self.draw_table.write(pairs, when, seed, ruleset, settings, groups, matches)
        return matches

    @property
    def draw_seed(self) -> int | None:
        d = self.draw_table.row()
        return d[2] if d else None

    @property
    def drawn_at(self) -> str:
        d = self.draw_table.row()
        return d[1] if d else ""

    # -- records under a desk's own id ------------------------------------------------
    def link(self, record_id: str, match_id: str, by: str = "") -> None:
        """Count the record ``record_id`` as the result of drawn match ``match_id``.

        For desks that recorded a match under their own id (see ``links.RecordLinks``).
        """
        self.draw_table.match(match_id)
        self.record_links.add(record_id, match_id, by)
        self.invalidate()

    def record_id(self, match_id: str) -> str:
        """The id under which the store holds this match's record."""
        return self.record_links.all().get(match_id, match_id)

    # -- results -----------------------------------------------------------------------
    def outcomes(self) -> dict[str, MatchOutcome]:
        """Outcomes of every tournament match that has a record in this file."""
        if self._outcomes is None:
            found = derive_outcomes(self._drawn(), self.file, self.outcome_cache)
            self._outcomes, self.outcome_problems = found.outcomes, found.problems
        return self._outcomes

    def _drawn(self) -> DrawnTournament:
        """The draw and organizer data the outcomes are derived over, as plain values."""
        return DrawnTournament(
            matches=self.draw_table.matches(),
            groups=self.draw_table.groups(),
            settings=self.settings,
            lots=self.draw_table.lots(),
            pairs=self.pair_map(),
            ruleset_name=self.ruleset.name,
            links=self.record_links.entries(),
        )

    def invalidate(self) -> None:
        """Forget derived results (after an import or a new event)."""
        self._outcomes = None

    def state(self, outcomes: dict[str, MatchOutcome] | None = None) -> TournamentState:
        """The tournament as it stands; ``outcomes`` replaces the file's records (what-if)."""
        if not self.drawn:
            raise DrawError("no draw yet: make the draw first")
        found = self.outcomes() if outcomes is None else outcomes
        return resolve(
            self.draw_table.matches(),
            self.draw_table.groups(),
            found,
            self.settings,
            self.draw_table.lots(),
        )

    def round_name(self, m: TournamentMatch) -> str:
        if m.group is not None:
            return f"{m.group}组 第{m.round}轮"
        return round_label(m.round, round_count(self.draw_table.matches()), m.third_place)

    def opening_payload(self, match_id: str, seats: dict[str, str] | None = None) -> dict:
        """The ``match_opened`` payload a table's desk records for this match.

        Pair A sits N–S, pair B E–W; the desk may rearrange seats. Only matches whose
        pairs are known can be opened.
        """
        st = self.state().match(match_id)
        if st.pair_a is None or st.pair_b is None:
            raise DrawError(f"match {match_id}: its pairs are not known yet")
        pm = self.pair_map()
        a, b = pm[st.pair_a], pm[st.pair_b]
        return {
            "tournament": self.info.name,
            "round": self.round_name(st.match),
            "table": st.match.table,
            "pairs": {"NS": pair_label(a), "EW": pair_label(b)},
            "seats": seats or {"N": a.player1, "S": a.player2, "E": b.player1, "W": b.player2},
            "referee": st.match.referee,
            "ruleset": self.ruleset.to_dict(),
        }


def pair_label(pair: Pair) -> str:
    """How a pair is named in a match record: ``#<id> player1 / player2``."""
    return f"#{pair.pair_id} {pair.name}"
