"""Words at the desk (issue 21, item 4): a stopped server, a conflict, in Chinese or
English, never libpq's raw text; against a real server that is stopped and started."""

from __future__ import annotations

import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import psycopg
import pytest
from pg_cluster import PrivateCluster, find_bin_dir, start_cluster

from referee_desk.store import TournamentFile
from referee_desk.store.postgres.init import init_server
from referee_desk.store.postgres.marks import Conflict
from referee_desk.store.postgres.server import TournamentServer
from referee_desk.store.postgres.sync import sync_file
from referee_desk.store.postgres.wording import conflict_words, trouble, trouble_words
from referee_desk.store.synthetic import draft, record

RAW = ("consuming input failed", "server closed the connection", "FATAL", "libpq")


@pytest.fixture
def own_cluster(pg_cluster) -> Iterator[PrivateCluster]:
    """A cluster of its own (this test stops it); ``pg_cluster`` first, for its skip/fail."""
    cluster = start_cluster(find_bin_dir())
    try:
        yield cluster
    finally:
        cluster.stop("immediate")
        cluster.remove()


class Follow:
    """``sync FILE URL --follow`` in a process of its own, its lines read as they come."""

    def __init__(self, *argv: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "referee_desk.cli.main", "sync", *argv, "--follow"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                continue
            self.seen.append(line)
            if text in line:
                return line
        raise AssertionError(f"never printed {text!r}; printed {self.seen}")

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        self.proc.communicate(timeout=30)


def test_a_stopped_server_is_worded_for_the_referee_in_chinese(own_cluster, tmp_path):
    with psycopg.connect(own_cluster.url(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE cup")
    admin = own_cluster.url("cup")
    report = init_server(admin, ["1号桌"])
    desk_url = report.desks[0].url(admin)
    with TournamentServer.open(report.organizer.url(admin)) as organizer:
        organizer.set_claims(True)  # claims are closed from init (issue 18 item 10)
    path = tmp_path / "t1.sqlite"
    with TournamentFile.open(path, tournament_id="cup-2026") as tf:
        record(tf, "R1-T1", 3)
    follow = Follow(str(path), desk_url)
    try:
        follow.wait_for("sync: 已同步")
        own_cluster.stop("fast")  # the hall laptop's PostgreSQL stops under the desk
        with TournamentFile.open(path) as tf:
            record(tf, "R1-T1", 2)  # the referee goes on recording
        follow.wait_for("服务器已停止或断开了连接")
        follow.wait_for("sync: 2 条待上传；连不上服务器")  # retrying while it is down
        own_cluster.start()
        follow.wait_for("sync: 已同步")
    finally:
        follow.stop()
    for line in follow.seen:
        assert not any(raw in line for raw in RAW), line


def test_sync_follow_names_the_match_and_why_of_a_conflict(hall, desk_file, tmp_path):
    path = desk_file("t1", {"R1-T1": 4})
    fork = tmp_path / "fork.sqlite"
    fork.write_bytes(path.read_bytes())
    with TournamentFile.open(path) as tf:
        record(tf, "R1-T1", 1)
    with TournamentFile.open(fork) as tf:
        tf.append(draft("R1-T1", 4, text="另一台电脑"))
    sync_file(str(path), hall.desk_urls[0])
    for lang, expected in (
        ("zh_CN", "冲突：比赛 R1-T1，第 5 条：本机记录从这一条起与服务器的记录不同（分叉）"),
        ("en", "conflict: match R1-T1, event 5: this desk's record differs from the server's"),
    ):
        follow = Follow(str(fork), hall.desk_urls[0], "--lang", lang)
        try:
            follow.wait_for(expected)
        finally:
            follow.stop()
        assert not any("(0 waiting)" in line for line in follow.seen)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (
            "postgresql://cup_t01:***@127.0.0.1:5432/cup: lost the server: consuming input "
            "failed: server closed the connection unexpectedly This probably means the server "
            "terminated abnormally before or while processing the request.",
            "server_stopped",
        ),
        (
            "postgresql://cup_t01:***@127.0.0.1:5432/cup: cannot reach the server: "
            'connection to server at "127.0.0.1", port 5432 failed: FATAL: the database '
            "system is starting up",
            "server_starting",
        ),
        (
            "postgresql://cup_t01:***@127.0.0.1:5432/cup: cannot reach the server: "
            'connection to server at "127.0.0.1", port 5432 failed: Connection refused',
            "server_unreachable",
        ),
        (
            "postgresql://cup_t01:***@10.0.0.9:5432/cup: cannot reach the server: "
            'connection to server at "10.0.0.9", port 5432 failed: timeout expired',
            "server_unreachable",
        ),
    ],
)
def test_libpq_texts_become_the_desks_words(text, key):
    """The texts the issue saw at the desk (libpq's, as the pusher kept them)."""
    assert trouble(text) == key
    for lang in ("zh_CN", "en"):
        words = trouble_words(text, lang)
        assert not any(raw in words for raw in RAW), words


def test_conflict_words_name_the_match_in_both_languages():
    settled = Conflict("GA-R1-M01", 7, "fork", "settled: the organizer kept …")
    assert conflict_words(settled) == (
        "冲突：比赛 GA-R1-M01，第 7 条：裁判长已裁定保留服务器上的记录"
        "（本机的分支已存档在服务器上）；"
        "取回服务器记录：referee-desk sync 文件 地址 --take-server GA-R1-M01"
    )
    claimed = Conflict("GA-R1-M02", 1, "claimed", "the match belongs to desk cup_t02")
    assert "match GA-R1-M02, event 1" in conflict_words(claimed, "en")
    assert "不属于本桌" in conflict_words(claimed)


def test_a_one_off_sync_to_a_stopped_server_says_so_in_chinese(own_cluster, tmp_path, capsys):
    from referee_desk.cli.main import main

    with psycopg.connect(own_cluster.url(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE cup")
    admin = own_cluster.url("cup")
    desk_url = init_server(admin, ["1号桌"]).desks[0].url(admin)
    path = tmp_path / "t1.sqlite"
    with TournamentFile.open(path, tournament_id="cup-2026") as tf:
        record(tf, "R1-T1", 3)
    own_cluster.stop("fast")
    assert main(["sync", str(path), desk_url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sync: 连不上服务器 postgresql://") and "***" in err
    assert not any(raw in err for raw in RAW) and "Connection refused" not in err
    assert main(["sync", str(path), desk_url, "--lang", "en"]) == 2
    assert "sync: cannot reach the server postgresql://" in capsys.readouterr().err
