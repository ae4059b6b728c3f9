"""The hall page of a tournament kept in a file (a one-laptop club): read-only, and live
by watching the file."""

from __future__ import annotations

import time
import urllib.error
import urllib.request

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
        version = served.hub.version
        run_cli(capsys, "tournament", "assign", str(cup), "KO-R1-M001", "--table", "9号桌")
        deadline = time.monotonic() + 10
        while served.hub.version == version and time.monotonic() < deadline:
            time.sleep(0.05)
        page = urllib.request.urlopen(served.url + "/matches").read().decode()
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
