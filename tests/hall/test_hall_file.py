"""The hall page of a tournament kept in a file (a one-laptop club): read-only, and live
by watching the file."""

from __future__ import annotations

import time
import urllib.error
import urllib.request

import pytest
from conftest import PAIRS, Served, run_cli


def test_a_tournament_file_is_served_and_followed(tmp_path, capsys) -> None:
    cup = tmp_path / "cup.sqlite"
    pairs = tmp_path / "pairs.csv"
    pairs.write_text(PAIRS, encoding="utf-8")
    run_cli(capsys, "tournament", "create", str(cup), "--name", "小杯", "--tables", "1号桌,2号桌")
    run_cli(capsys, "tournament", "import-pairs", str(cup), str(pairs))
    run_cli(capsys, "tournament", "draw", str(cup), "--seed", "3")
    served = Served(str(cup))
    try:
        page = urllib.request.urlopen(served.url + "/matches").read().decode()
        assert "小杯" in page and "&lt;script&gt;window.xss=1&lt;/script&gt;" in page
        assert "<script>window" not in page
        overview = urllib.request.urlopen(served.url + "/").read().decode()
        assert "半决赛" in overview and "Semifinal" not in overview  # no English in zh
        assert "Semifinal" in urllib.request.urlopen(served.url + "/?lang=en").read().decode()
        run_cli(capsys, "tournament", "assign", str(cup), "KO-R1-M001", "--table", "9号桌")
        # The page follows each change of the file; the command's open is one change
        # before its assignment, so the first new version may still show the old table.
        deadline = time.monotonic() + 10
        page = ""
        while "9号桌" not in page and time.monotonic() < deadline:
            page = urllib.request.urlopen(served.url + "/matches").read().decode()
            time.sleep(0.05)
        assert "9号桌" in page
        found = urllib.request.urlopen(served.url + "/find?q=ls").read().decode()
        assert "李四" in found
        try:
            urllib.request.urlopen(served.url + "/board")
            raise AssertionError("a file's page has no board")
        except urllib.error.HTTPError as refused:
            assert refused.code == 401
    finally:
        served.stop()


@pytest.mark.parametrize(
    ("label", "zh", "en"),
    [
        ("半决赛 Semifinal", "半决赛", "Semifinal"),
        ("小组赛第1轮 group round 1", "小组赛第1轮", "group round 1"),
        ("决赛 Final · 三四名决赛 3rd place", "决赛 · 三四名决赛", "Final · 3rd place"),
        ("第2轮 Round 2", "第2轮", "Round 2"),
    ],
)
def test_a_round_label_shows_in_the_pages_language_only(label, zh, en) -> None:
    """The tournament layer's labels are bilingual; the Chinese page shows no English."""
    from referee_desk.hall.words import in_language

    assert in_language(label, "zh") == zh and in_language(label, "en") == en
