"""Fixtures for the hall page: the server tests' private PostgreSQL cluster, a drawn cup
on it, the page served by uvicorn on a free port, and headless Chromium (Debian's
``chromium`` and ``chromium-driver``, driven by Selenium; nothing is downloaded)."""

from __future__ import annotations

import os
import shutil
import socket
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))
from pg_cluster import PrivateCluster, find_bin_dir, missing_reason, start_cluster

from referee_desk.cli.main import main

CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM = "/usr/bin/chromium"
#: The cup's pairs: a pair named like a script, and 张三 for the pinyin search.
PAIRS = (
    "player1,player2,club,seed\n"
    "张三,李四,桂林,1\n"
    '"<script>window.xss=1</script>",<b>粗</b>,"<img src=x onerror=window.xss=2>",\n'
    "王五,赵六,,\n"
    "陈七,周八,,\n"
)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PrivateCluster]:
    bin_dir = find_bin_dir()
    if bin_dir is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the hall tests: {missing_reason()}")
        pytest.skip(missing_reason())
    cluster = start_cluster(bin_dir)
    try:
        yield cluster
    finally:
        cluster.stop("immediate")
        cluster.remove()


@pytest.fixture
def admin_url(pg_cluster: PrivateCluster) -> str:
    import psycopg

    name = f"cup{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_cluster.url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return pg_cluster.url(name)


def run_cli(capsys, *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


class Cup:
    def __init__(self, admin_url: str, report) -> None:
        self.admin_url = admin_url
        self.organizer_url = report.organizer.url(admin_url)
        self.desk_urls = {d.table_label: d.url(admin_url) for d in report.desks}


@pytest.fixture
def cup(admin_url: str, tmp_path: Path, capsys) -> Cup:
    """A drawn knockout of four pairs on a fresh server, published to its two tables."""
    from referee_desk.store.postgres.init import init_server

    c = Cup(admin_url, init_server(admin_url, ["1号桌", "2号桌"]))
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(PAIRS, encoding="utf-8")
    run_cli(
        capsys, "tournament", "create", c.organizer_url, "--name", "桂林杯", "--referees", "王磊"
    )
    run_cli(capsys, "tournament", "import-pairs", c.organizer_url, str(pairs))
    run_cli(capsys, "tournament", "draw", c.organizer_url, "--seed", "7")
    run_cli(capsys, "server", "publish", c.organizer_url)
    return c


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    def __init__(self, address: str, lang: str = "zh") -> None:
        import uvicorn

        from referee_desk.hall.app import create_app
        from referee_desk.hall.live import Hub
        from referee_desk.hall.source import HallSource

        self.hub = Hub(HallSource(address))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            create_app(self.hub, lang=lang),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            timeout_graceful_shutdown=1,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the hall page did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def served(cup: Cup) -> Iterator[Served]:
    s = Served(cup.organizer_url)
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="session")
def chrome_binaries() -> None:
    if not (shutil.which(CHROMEDRIVER) and shutil.which(CHROMIUM)):
        reason = "Debian's chromium and chromium-driver are needed (apt-get install ...)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)


def make_browser(width: int, height: int):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        f"--window-size={width},{height}",
        "--lang=zh-CN",
    ):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


@pytest.fixture
def browser(chrome_binaries):
    driver = make_browser(390, 844)
    try:
        yield driver
    finally:
        driver.quit()
