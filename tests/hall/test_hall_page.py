"""The hall page in a real browser against a real server: find your table, live updates,
a server restart, names that look like markup, the read-only role."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest
from conftest import make_browser, run_cli
from selenium.webdriver.common.by import By

from referee_desk.store import TournamentFile
from referee_desk.store.postgres.sync import sync_file
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.simulate import simulate_match

SHOTS = Path(os.environ.get("HALL_SHOTS", "/tmp/hall-shots"))


def _wait(predicate, timeout: float = 5.0, step: float = 0.02):
    """Poll until ``predicate()`` is truthy; the timeout only ends a wait that failed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(step)
    return predicate()


def _match_of(cup, player: str):
    with Tournament.open(cup.organizer_url) as t:
        pid = next(p.pair_id for p in t.pairs.all() if player in (p.player1, p.player2))
        state = next(s for s in t.state().matches if pid in (s.pair_a, s.pair_b))
        return state.match, t.opening_payload(state.match.match_id)


def _desk_plays(cup, tmp_path, capsys, player: str):
    """The desk of ``player``'s table pulls its opening; returns (file, url, match, events)."""
    match, opening = _match_of(cup, player)
    url = cup.desk_urls[match.table]
    table = tmp_path / "table.sqlite"
    run_cli(capsys, "sync", str(table), url, "--open", match.match_id, "--referee", "王磊")
    opening = {**opening, "referee": "王磊"}
    played = simulate_match(
        match.match_id, opening, winner="NS", start=datetime.now(UTC) + timedelta(seconds=1)
    )
    return table, url, match, played[1:]


def _count_shown(browser, match_id: str) -> int:
    text = browser.execute_script(
        "const c = document.querySelector(`tr[data-match='${arguments[0]}'] .count`);"
        "return c ? c.textContent : '';",
        match_id,
    )
    return int(text) if text.isdigit() else 0


def _live_text(browser) -> str:
    return browser.execute_script("return document.getElementById('live-state').textContent")


def test_find_your_table_by_name_and_by_pinyin_initials(served, browser, cup) -> None:
    match, opening = _match_of(cup, "张三")
    browser.get(f"{served.url}/find?q=zs")
    card = browser.find_element(By.CSS_SELECTOR, "article.player")
    assert card.find_element(By.TAG_NAME, "h2").text == "张三"
    assert card.find_element(By.CSS_SELECTOR, ".where").text == match.table
    seat = next(d for d, name in opening["seats"].items() if name == "张三")
    assert card.find_element(By.CSS_SELECTOR, ".seat").text == {"N": "北", "S": "南"}[seat]
    other = opening["pairs"]["EW"].split(" ", 1)[1]
    assert card.find_element(By.CSS_SELECTOR, ".opp").text == other
    box = browser.find_element(By.ID, "q")
    box.clear()
    box.send_keys("李四\n")
    _wait(lambda: "q=" in browser.current_url and "%E6%9D%8E" in browser.current_url)
    names = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "article.player h2")]
    assert names == ["李四"]
    browser.get(f"{served.url}/find?q=zhangsan&lang=en")
    assert "Next match" in browser.find_element(By.CSS_SELECTOR, "article.player").text
    browser.get(f"{served.url}/find?q=xyz")
    assert browser.find_elements(By.CSS_SELECTOR, "article.player") == []


def test_names_that_look_like_markup_show_as_text(served, browser) -> None:
    for page in ("/", "/bracket", "/matches", "/find?q=%3Cscript", "/projector"):
        browser.get(served.url + page)
        assert browser.execute_script("return window.xss === undefined"), page
    browser.get(served.url + "/bracket")
    texts = [
        t.get_attribute("textContent") for t in browser.find_elements(By.CSS_SELECTOR, "svg text")
    ]
    assert any(t.startswith("<script>") for t in texts), texts
    browser.get(served.url + "/matches")
    assert "<script>window.xss=1</script>" in browser.find_element(By.TAG_NAME, "main").text
    assert browser.find_elements(By.CSS_SELECTOR, "main script, main img") == []


def test_a_desks_event_shows_on_an_open_page(served, browser, cup, tmp_path, capsys) -> None:
    table, url, match, events = _desk_plays(cup, tmp_path, capsys, "张三")
    browser.get(served.url + "/matches")
    assert _wait(lambda: _count_shown(browser, match.match_id) == 1)  # the pulled opening
    latencies = []
    with TournamentFile.open(table) as tf:
        for n, event in enumerate(events[:6], start=2):
            tf.append(event)
            sync_file(str(table), url)
            landed = time.monotonic()
            assert _wait(lambda n=n: _count_shown(browser, match.match_id) == n), n
            latencies.append(time.monotonic() - landed)
    latencies.sort()
    print(f"\nhall page update after commit: {[round(x * 1000) for x in latencies]} ms")
    live = browser.find_element(By.ID, "live-state")
    assert live.get_attribute("class") == "live"
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "live-match-390.png"))


def test_the_page_survives_a_server_restart(
    pg_cluster, served, browser, cup, tmp_path, capsys
) -> None:
    table, url, match, events = _desk_plays(cup, tmp_path, capsys, "张三")
    browser.get(served.url + "/matches")
    assert _wait(lambda: _count_shown(browser, match.match_id) == 1)
    pg_cluster.stop("fast")
    try:
        state = _wait(lambda: "起未实时更新" in _live_text(browser), 10)
        assert state, _live_text(browser)
        browser.refresh()  # the page itself is still served, with the last good view
        assert _count_shown(browser, match.match_id) == 1
        assert "起未实时更新" in _live_text(browser)
    finally:
        pg_cluster.start()
    assert _wait(lambda: _live_text(browser) == "实时", 20)
    with TournamentFile.open(table) as tf:
        tf.append(events[0])
    sync_file(str(table), url)
    assert _wait(lambda: _count_shown(browser, match.match_id) == 2, 10)


def test_the_hall_role_reads_results_and_nothing_else(cup) -> None:
    from referee_desk.hall.source import HallSource, hall_connection
    from referee_desk.hall.view import build_view

    with HallSource(cup.organizer_url).tournament() as t:
        view = build_view(t)
    assert view.name == "桂林杯" and any(p.name == "张三" for p in view.players)
    conn = hall_connection(cup.organizer_url)
    try:
        assert conn.execute("SELECT current_user").fetchone()[0].endswith("_hall")
        assert (
            conn.execute("SELECT count(*) FROM referee_desk_organizer.tournament_pairs").fetchone()[
                0
            ]
            == 4
        )
        refused = [
            "SELECT * FROM referee_desk.conflicts",
            "SELECT * FROM referee_desk.signers",
            "SELECT * FROM referee_desk.key_offers",
            "SELECT * FROM referee_desk.seals",
            "SELECT * FROM referee_desk.matches",
            "SELECT * FROM referee_desk.claims",
            "SELECT rolpassword FROM pg_authid",
            "INSERT INTO referee_desk.events (match_id, seq, prev_hash, hash, canonical) "
            "VALUES ('X', 1, '', '', '{}')",
            "UPDATE referee_desk_organizer.tournament_pairs SET player1 = 'x'",
            "DELETE FROM referee_desk_organizer.tournament_links",
            "INSERT INTO referee_desk_organizer.tournament_lots VALUES ('A', 1, 1, '', '')",
            "CREATE TABLE referee_desk_organizer.planted (x int)",
            "CREATE TABLE public.planted (x int)",
            "SELECT referee_desk.claim_match('X')",
            "SELECT referee_desk.report_conflict('X', 1, 'fork', '', '', '')",
        ]
        for statement in refused:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
    finally:
        conn.close()


def test_the_board_asks_for_the_organizers_password(served, cup) -> None:
    import base64
    import urllib.error
    import urllib.request
    from urllib.parse import unquote, urlsplit

    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(served.url + "/board")
    assert refused.value.code == 401
    wrong = urllib.request.Request(
        served.url + "/board",
        headers={"Authorization": "Basic " + base64.b64encode(b"o:no").decode()},
    )
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(wrong)
    password = unquote(urlsplit(cup.organizer_url).password or "")
    token = base64.b64encode(f"organizer:{password}".encode()).decode()
    ok = urllib.request.Request(served.url + "/board", headers={"Authorization": "Basic " + token})
    page = urllib.request.urlopen(ok).read().decode()
    assert "1号桌" in page and "2号桌" in page


@pytest.mark.parametrize("size", [(390, 844), (1920, 1080)])
def test_pages_render_at_phone_and_projector_sizes(served, chrome_binaries, size) -> None:
    driver = make_browser(*size)
    try:
        SHOTS.mkdir(parents=True, exist_ok=True)
        for page in ("", "standings", "bracket", "matches", "find?q=zs", "projector"):
            driver.get(f"{served.url}/{page}")
            time.sleep(0.3)
            name = (page.split("?")[0] or "overview") + f"-{size[0]}.png"
            driver.save_screenshot(str(SHOTS / name))
            assert driver.find_element(By.TAG_NAME, "h1").text == "桂林杯"
    finally:
        driver.quit()


def test_the_projector_cycles_through_its_views(served, browser) -> None:
    browser.get(served.url + "/projector?cycle=2")
    shown = (
        "return [...document.querySelectorAll('.slide')]"
        ".findIndex(s => s.classList.contains('shown'))"
    )
    assert browser.execute_script(shown) == 0
    seen = {0}
    deadline = time.monotonic() + 10
    while len(seen) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
        seen.add(browser.execute_script(shown))
    assert seen == {0, 1}, seen  # the round, then the bracket (no groups in a knockout)


def test_the_board_shows_each_tables_laptop_and_keeps_settled_conflicts_apart(
    served, cup, tmp_path, capsys
) -> None:
    """The web board is the desk's table board (``tournament.table_board``): a table's
    laptop by desk key, its last heartbeat, and a fork open, then settled and apart."""
    import base64
    import urllib.request
    from urllib.parse import unquote, urlsplit

    from referee_desk.store import TournamentFile
    from referee_desk.store.postgres.pusher import BackgroundPusher
    from referee_desk.store.postgres.sync import sync_file
    from referee_desk.store.synthetic import draft, record

    password = unquote(urlsplit(cup.organizer_url).password or "")
    token = base64.b64encode(f"organizer:{password}".encode()).decode()

    def board() -> str:
        ask = urllib.request.Request(
            served.url + "/board", headers={"Authorization": "Basic " + token}
        )
        return urllib.request.urlopen(ask).read().decode()

    desk = tmp_path / "t1.sqlite"
    with TournamentFile.open(desk, tournament_id="cup-2026") as tf:
        record(tf, "OWN-T1", 4)
        key = tf.key_fingerprint
    fork = tmp_path / "fork.sqlite"
    fork.write_bytes(desk.read_bytes())
    with TournamentFile.open(desk) as tf:
        record(tf, "OWN-T1", 2)  # the desk goes on: events 5 and 6
    with TournamentFile.open(fork) as tf:
        tf.append(draft("OWN-T1", 4, text="另一台电脑上的记录"))  # another event 5
    with BackgroundPusher(desk, cup.desk_urls["1号桌"], interval=0.2) as pusher:
        assert pusher.wait_until(lambda s: pusher.heartbeats > 0, timeout=30)
    assert sync_file(str(fork), cup.desk_urls["1号桌"]).conflicts
    page = board()
    assert key[:12] in page
    assert "分叉：比赛 OWN-T1，第 5 条" in page.split("已解决的冲突")[0]  # open, in its row
    run_cli(capsys, "server", "resolve", cup.organizer_url, "OWN-T1", "--keep", "server")
    page = board()
    opened, settled = page.split("已解决的冲突")
    assert "OWN-T1" not in opened and "分叉：比赛 OWN-T1，第 5 条" in settled
