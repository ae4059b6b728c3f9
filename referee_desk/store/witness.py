"""The heads journal: an independent witness of every acknowledged event and seal.

SQLite keeps the newest commits in the write-ahead log (``<file>-wal``). A damaged or
truncated log makes SQLite drop its tail *silently*: the file opens shorter and every
chain still holds. So every event ``append`` acknowledges is also written, after its
commit and before ``append`` returns, as one line of ``<file>.heads``, and every seal
likewise. Opening and ``verify`` compare the file with the journal: an event or seal
the journal saw but the file lacks is named, never hidden.

When a line is durable: it is handed to the kernel (``os.write`` on an ``O_APPEND``
descriptor) before ``append`` returns, so a killed desk process never loses it (the
page cache belongs to the kernel). Seal and import lines are fsynced before their call
returns; event lines are fsynced in groups by ``GroupSync``, at most ``SYNC_SECONDS``
after they were written (sooner after ``SYNC_LINES`` lines), and always on close and
before a backup. The event itself is durable before ``append`` returns by SQLite's own
``synchronous=FULL`` commit; the journal only has to *notice* a later loss. So the one
gap is a power cut (or OS crash) within ``SYNC_SECONDS`` of an event *and* a damaged
``-wal`` in the same incident: those last events could then be missing unnoticed (a
killed process leaves its unsynced lines to the kernel's own writeback, normally within
30 s; a process exiting without ``close`` syncs them at exit). One fsync per event
instead of two keeps ``append`` within half the speed of bare SQLite.

A line is ``KIND<TAB>SEQ<TAB>HASH<TAB>"MATCH"<TAB>CRC32``; ``E`` for an event, ``S`` for
a seal, and a first ``T`` line whose MATCH is the tournament id (a journal left beside
another tournament's file is not compared with it). A torn last line (the process died
while writing it) was never acknowledged and is ignored; any other unreadable line is
damage of the journal.

The journal guards against accidents (lost or damaged logs, a backup restored over a
newer file by mistake). It is a plain file: someone who can edit the tournament file
can edit it too; the signatures (``signer``) are what guard against forgery.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import threading
import time
import weakref
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

#: ``(match_id, seq) -> (the file's last seq, the hash it holds at seq or "")``.
HeadLookup = Callable[[str, int], tuple[int, str]]

#: One journal line: (kind, match_id, seq, hash).
Entry = tuple[str, str, int, str]

#: Grouped event lines are fsynced at most this many seconds after they were written …
SYNC_SECONDS = 0.5

#: … or as soon as this many of them wait.
SYNC_LINES = 64


def journal_path(path: str | os.PathLike[str]) -> Path:
    """``<file>.heads``: where the witness of ``path`` lives."""
    return Path(f"{os.fspath(path)}.heads")


def _line(kind: str, match_id: str, seq: int, digest: str, token: str = "-") -> bytes:
    body = f"{kind}\t{seq}\t{digest}\t{json.dumps(match_id)}\t{token}"
    return f"{body}\t{zlib.crc32(body.encode()):08x}\n".encode()


@dataclass(frozen=True, slots=True)
class Sighting:
    """One witnessed event: its hash, the desk session that saved it, its line."""

    digest: str
    token: str
    line: int


@dataclass(slots=True)
class Witnessed:
    """What the journal saw: every event (per match and seq) and each match's last seal."""

    events: dict[str, dict[int, Sighting]] = field(default_factory=dict)
    seals: dict[str, int] = field(default_factory=dict)
    last_line: dict[str, int] = field(default_factory=dict)
    tournament_id: str | None = None
    damaged_line: int | None = None

    def see(self, kind: str, match_id: str, seq: int, digest: str, token: str, line: int) -> None:
        if kind == "T":
            self.tournament_id = self.tournament_id or match_id
            return
        self.last_line[token] = line
        if kind == "E":
            self.events.setdefault(match_id, {})[seq] = Sighting(digest, token, line)
        elif seq > self.seals.get(match_id, 0):
            self.seals[match_id] = seq


def parse(data: bytes) -> Witnessed:
    """Read a journal's bytes (torn lines, a killed desk's, are skipped)."""
    seen = Witnessed()
    lines = data.split(b"\n")
    complete = lines[:-1]  # the part after the last newline is torn (or empty)
    for number, raw in enumerate(complete, start=1):
        # A power cut can leave zeroed blocks where unsynced lines were (the size grew,
        # the bytes did not arrive), maybe after the start of a line cut off there; lines
        # written after the restart follow. What ends in zeros was never a whole line.
        if b"\0" in raw:
            raw = raw[raw.rindex(b"\0") + 1 :]
        if not raw:
            continue  # nothing, or the newline a session put after a torn tail
        if is_torn(raw):
            continue  # the start of a line a killed desk never finished (ended by the next)
        try:
            text = raw.decode("ascii")
            body, crc = text.rsplit("\t", 1)
            if f"{zlib.crc32(body.encode()):08x}" != crc:
                raise ValueError("checksum")
            kind, seq, digest, match_json, token = body.split("\t", 4)
            match_id = json.loads(match_json)
            if kind not in ("E", "S", "T") or not isinstance(match_id, str):
                raise ValueError("kind")
            seen.see(kind, match_id, int(seq), digest, token, number)
        except (ValueError, UnicodeError):
            seen.damaged_line = number
            break
    return seen


#: The fields of a journal line, each whole (all but a torn line's last field) and as
#: a beginning (a torn line's last field).
_WHOLE = (
    re.compile(rb"[EST]"),
    re.compile(rb"[0-9]+"),
    re.compile(rb"[0-9a-f]{64}|-"),
    re.compile(rb'"[^\t]*'),
    re.compile(rb"[^\t]*"),
)
_BEGUN = (
    re.compile(rb"[EST]?"),
    re.compile(rb"[0-9]*"),
    re.compile(rb"[0-9a-f]{0,64}|-"),
    re.compile(rb'("[^\t]*)?'),
    re.compile(rb"[^\t]*"),
    re.compile(rb"[0-9a-f]{0,7}"),
)


def is_torn(raw: bytes) -> bool:
    """Whether a line is only the start of one: a desk killed inside ``os.write``.

    The kernel may stop a write at a page boundary when the process is killed, leaving
    the first part of a line; the next session ends it with a newline before its own
    lines. Such a part is a line's beginning: every field but the last whole, the last
    one begun, the checksum not complete. Anything else that does not read is damage.
    """
    fields = raw.split(b"\t")
    if len(fields) > len(_BEGUN):
        return False
    *whole, last = fields
    return all(_WHOLE[n].fullmatch(f) for n, f in enumerate(whole)) and bool(
        _BEGUN[len(whole)].fullmatch(last)
    )


class Witness:
    """The journal beside one open tournament file (one append-only descriptor).

    Lines are written only after the SQLite commit they witness, so the journal is
    never ahead of the file: a witnessed event the file lacks was lost, not cut off.
    """

    def __init__(self, db_path: Path) -> None:
        self.path = journal_path(db_path)
        self.token = "-"
        self.failed = False
        self._fd: int | None = None
        self._sync: GroupSync | None = None

    def exists(self) -> bool:
        return self.path.is_file()

    def read(self) -> Witnessed | None:
        """What the journal saw, or None when there is no journal."""
        try:
            data = self.path.read_bytes()
        except OSError:
            return None  # none (or not a file): nothing to compare with, ``verify`` notes it
        return parse(data)

    def write(self, entries: list[Entry], *, grouped: bool = False) -> None:
        """Append lines after their commit; durable on return unless ``grouped``.

        The bytes reach the kernel before this returns either way (a killed process
        cannot lose them); ``grouped`` leaves the fsync to ``GroupSync`` (event lines).
        A failure (full disk) is remembered in ``failed`` and not raised: the event is
        already durable in the file; only the extra check of it is missing.
        """
        if self.failed or not entries:
            return
        data = b"".join(_line(*item, self.token) for item in entries)
        try:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
                self._sync = GroupSync(self._fd, self._sync_failed)
                if not self._ends_a_line():
                    data = b"\n" + data  # a killed session's torn tail: end it first
            if os.write(self._fd, data) != len(data):
                raise OSError("short write")  # full disk: a later line would follow a torn one
        except OSError:
            self.failed = True
            return
        assert self._sync is not None
        if grouped:
            self._sync.wrote(len(entries))
        else:
            self._sync.now()

    def _ends_a_line(self) -> bool:
        """Whether the journal is empty or its last byte ends a line."""
        try:
            with open(self.path, "rb") as handle:
                handle.seek(0, os.SEEK_END)
                if handle.tell() == 0:
                    return True
                handle.seek(-1, os.SEEK_END)
                return handle.read(1) == b"\n"
        except OSError:
            return True

    def sync(self) -> None:
        """Make every line written so far durable now (before a backup, on close)."""
        if self._sync is not None:
            self._sync.now()

    def _sync_failed(self) -> None:
        self.failed = True

    def rebuild(
        self,
        tournament_id: str,
        events: dict[str, tuple[int, str]],
        seals: dict[str, tuple[int, str]],
    ) -> None:
        """Write a fresh journal holding just these heads (atomically, then fsynced)."""
        self.close()
        partial = self.path.with_name(f"{self.path.name}.{os.getpid()}.partial")
        lines = [_line("T", tournament_id, 0, "-")]
        lines += [_line("E", m, s, h) for m, (s, h) in events.items()]
        lines += [_line("S", m, s, h) for m, (s, h) in seals.items()]
        with open(partial, "wb") as handle:
            handle.write(b"".join(lines))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, self.path)
        _fsync_folder(self.path.parent)

    def size(self) -> int:
        try:
            return self.path.stat().st_size
        except OSError:
            return 0

    def close(self) -> None:
        """Make the written lines durable, then close the descriptor."""
        if self._fd is not None:
            try:
                if self._sync is not None:
                    self._sync.close()
                os.close(self._fd)
            finally:
                self._fd = None
                self._sync = None


class GroupSync:
    """Fsyncs one journal descriptor in groups, on one background thread.

    ``wrote`` counts lines already handed to the kernel; the thread fsyncs them within
    ``seconds`` of the first waiting line (at once after ``lines`` lines). ``now`` syncs
    on the caller's thread. The thread starts with the first grouped line and ends on
    ``close``; after ``close`` nothing touches the descriptor (every sync holds
    ``_syncing`` and checks ``_closed``).
    """

    def __init__(
        self,
        fd: int,
        on_failure: Callable[[], None],
        *,
        seconds: float | None = None,
        lines: int | None = None,
    ) -> None:
        self._fd = fd
        self._on_failure = on_failure
        self._seconds = SYNC_SECONDS if seconds is None else seconds
        self._lines = SYNC_LINES if lines is None else lines
        self._state = threading.Lock()  # guards _pending, _thread and _closed
        self._wake = threading.Condition(self._state)
        self._syncing = threading.Lock()  # held around every fdatasync (taken first)
        self._pending = 0
        self._thread: threading.Thread | None = None
        self._closed = False
        _OPEN.add(self)

    @property
    def pending(self) -> int:
        """Lines written but not yet fsynced."""
        with self._state:
            return self._pending

    def wrote(self, lines: int) -> None:
        """``lines`` more lines reached the kernel: fsync them soon, off this thread."""
        with self._state:
            self._pending += lines
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="heads-sync", daemon=True)
                self._thread.start()
            elif self._pending == lines or self._pending >= self._lines:
                self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._state:
                while not self._pending and not self._closed:
                    self._wake.wait()
                deadline = time.monotonic() + self._seconds
                while 0 < self._pending < self._lines and not self._closed:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    self._wake.wait(left)
                if self._closed:
                    return
            with self._syncing:
                with self._state:
                    if self._closed:
                        return
                    if not self._pending:
                        continue
                    self._pending = 0
                self._fdatasync()

    def now(self) -> None:
        """Every line written so far is durable when this returns."""
        with self._syncing:
            with self._state:
                if self._closed:
                    return
                self._pending = 0
            self._fdatasync()

    def close(self) -> None:
        """Sync what waits and end the thread; afterwards nothing touches the descriptor."""
        self.now()
        with self._syncing, self._state:
            self._closed = True
            self._wake.notify_all()
        _OPEN.discard(self)

    def _fdatasync(self) -> None:
        try:
            os.fdatasync(self._fd)
        except OSError:
            self._on_failure()


#: Every descriptor not yet closed: a process that exits without closing its files
#: (daemon threads die with it) still syncs what waits.
_OPEN: weakref.WeakSet[GroupSync] = weakref.WeakSet()


@atexit.register
def _sync_at_exit() -> None:
    for sync in list(_OPEN):
        if sync.pending:
            sync.now()


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@dataclass(frozen=True, slots=True)
class Missing:
    """One disagreement between the file and its journal (first one per match)."""

    match_id: str
    seq: int
    reason: str


def compare(
    seen: Witnessed, head: HeadLookup, seal_head: HeadLookup, journal_name: str
) -> Missing | None:
    """The first witnessed event or seal the file lacks or holds differently."""
    for match_id, sightings in sorted(seen.events.items()):
        seq = max(sightings)
        have, at_hash = head(match_id, seq)
        if have < seq:
            return Missing(
                match_id,
                have + 1,
                f"events {have + 1}–{seq} were saved and witnessed in {journal_name} but "
                f"are missing from the file (the record ends at event {have})",
            )
        if at_hash != sightings[seq].digest:
            return Missing(
                match_id, seq, f"differs from the event witnessed in {journal_name} (rewritten)"
            )
    for match_id, seq in sorted(seen.seals.items()):
        have, _ = seal_head(match_id, seq)
        if have < seq:
            return Missing(
                match_id,
                seq,
                f"the match was locked at event {seq} (witnessed in {journal_name}) but the "
                "file holds no such seal (seal deleted)",
            )
    return None
