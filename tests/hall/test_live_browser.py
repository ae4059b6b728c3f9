"""The hall page in a real browser: a desk's record shows on an open page by itself.

Debian's chromium, driven headless through its chromedriver (no driver download).
"""

from __future__ import annotations

import shutil
import time

import pytest

from referee_desk.store.jsonl import write_jsonl
from referee_desk.tournament.importing import import_records
from referee_desk.tournament.repository import Tournament
from referee_desk.tournament.simulate import simulate_match
from tests.hall.conftest import Served

CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(CHROMEDRIVER is None, reason="chromium-driver is not installed")


@pytest.fixture
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=390,844"):
        options.add_argument(arg)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def _play_one(cup, folder) -> str:
    """A desk's sealed record of the first ready match lands in the file; its id."""
    with Tournament.open(cup) as t:
        s = next(s for s in t.state().matches if s.status.value == "ready")
        mid = s.match.match_id
        events = simulate_match(mid, t.opening_payload(mid), "NS", "passed_a")
        path = folder / f"{mid}.jsonl"
        write_jsonl(events, path)
        assert import_records(t, [path]).ok
    return mid


def test_a_record_landing_shows_on_an_open_page(cup, tmp_path, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    with Served(str(cup)) as served:
        browser.get(served.url + "/matches")
        WebDriverWait(browser, 10).until(
            lambda d: d.find_element(By.ID, "banner").get_attribute("class") == "live"
        )
        first = browser.find_elements(By.CSS_SELECTOR, "tr.match.decided")
        assert first == []
        landed = time.monotonic()
        mid = _play_one(cup, tmp_path)
        WebDriverWait(browser, 10, poll_frequency=0.02).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, f"tr#m-{mid}.decided")
        )
        latency = time.monotonic() - landed
        print(f"\nhall page: record landed -> shown in the browser in {latency * 1000:.0f} ms")
        row = browser.find_element(By.ID, f"m-{mid}").text
        assert "打过A" in row or "过A" in row, row
        progress = browser.find_element(By.CSS_SELECTOR, "p.progress").text
        assert "1 张已结束" in progress, progress


def test_the_page_says_when_it_is_not_live(cup, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    served = Served(str(cup))
    with served:
        browser.get(served.url + "/")
        WebDriverWait(browser, 10).until(
            lambda d: d.find_element(By.ID, "banner").get_attribute("class") == "live"
        )
    # the hall's server is gone: the open page says since when it is not live
    WebDriverWait(browser, 10).until(
        lambda d: d.find_element(By.ID, "banner").get_attribute("class") == "stale"
    )
    assert "起未实时" in browser.find_element(By.ID, "banner").text
