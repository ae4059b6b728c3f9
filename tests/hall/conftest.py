"""A drawn tournament whose first round is still to be played, for the hall page's tests."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import pytest
import uvicorn

from referee_desk.hall.app import create_app
from referee_desk.hall.board import Board
from referee_desk.tournament.model import Format, Settings, TournamentInfo
from referee_desk.tournament.repository import Tournament

INFO = TournamentInfo(
    "桂林市拖拉机公开赛",
    "2026-11-28",
    "2026-11-29",
    "桂林理工大学体育馆",
    "桂林市总工会",
    tables=("1号桌", "2号桌", "3号桌", "4号桌"),
    referees=("王磊",),
)
PAIRS = [
    ("张三", "李四", "桂林电子"),
    ("王芳", "刘洋", "漓江机械"),
    ("<script>alert(1)</script>", "赵敏", "<b>象山</b>"),
    ("杨磊", "黄强", "七星邮政"),
    ("周杰", "徐明", "叠彩水务"),
    ("吴婷", "孙丽", "雁山铁路"),
    ("马超", "胡军", "临桂教育"),
    ("朱琳", "郭芳", "秀峰医院"),
]


def drawn_tournament(folder: Path) -> Path:
    """8 pairs in 2 groups, drawn, nothing played yet; returns the file's path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "cup.sqlite"
    settings = Settings(format=Format.GROUPS_KNOCKOUT, group_count=2, advance_per_group=2)
    with Tournament.create(path, INFO, settings) as t:
        for a, b, club in PAIRS:
            t.add_pair(a, b, club)
        t.draw(draw_seed=11, when="2026-11-28T08:00:00.000Z")
    return path


@pytest.fixture
def cup(tmp_path: Path) -> Path:
    return drawn_tournament(tmp_path / "cup")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """A real uvicorn serving the hall app on a loopback port, in a thread."""

    def __init__(self, address: str, lang: str = "zh") -> None:
        self.board = Board(address)
        self.port = free_port()
        config = uvicorn.Config(
            create_app(self.board, lang),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            timeout_graceful_shutdown=1,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Served:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        assert self.server.started, "uvicorn did not start"
        assert self.board.wait_version(0, 20), "the board never read the tournament"
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
