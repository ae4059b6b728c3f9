"""Issue 20 item 3: a desk's lock is checked when its file is imported; a match whose
lock does not verify is refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from referee_desk.store.tournament_file import TournamentFile
from referee_desk.tournament.importing import import_records

from .records import record_for
from .test_results_flow import cup


def _desk(t, tmp_path: Path) -> tuple[Path, str, str]:
    first, second = t.state().matches[0], t.state().matches[1]
    desk = tmp_path / "desk.sqlite"
    with TournamentFile.open(desk, create=True) as tf:
        for m in (first, second):
            for e in record_for(t, m.match.match_id, m.pair_a):
                tf.append(e)
            tf.lock_match(m.match.match_id, by="王磊")
    return desk, first.match.match_id, second.match.match_id


def test_a_lock_that_verifies_lets_the_match_in(tmp_path: Path) -> None:
    t = cup(tmp_path, 4)
    desk, one, two = _desk(t, tmp_path)
    res = import_records(t, [desk])
    assert res.ok and set(res.added) == {one, two}


def test_a_forged_lock_refuses_the_desks_file(tmp_path: Path) -> None:
    """A lock changed by hand breaks the desk file's guard (issue 18 item 3): the file is
    refused whole, naming the seal, and nothing of it is written."""
    t = cup(tmp_path, 4)
    desk, one, two = _desk(t, tmp_path)
    conn = sqlite3.connect(desk)
    conn.execute("UPDATE match_seals SET sealed_by = '别人' WHERE match_id = ?", (one,))
    conn.commit()
    conn.close()
    res = import_records(t, [desk])
    assert not res.added
    assert (
        len(res.refused) == 1
        and "a seal's signature, time or signer was changed" in (res.refused[0])
    )
    assert t.file.events(one) == [] and t.file.events(two) == []  # nothing was written
