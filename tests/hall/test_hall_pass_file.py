"""Issue 18 item 13: the hall page on the organizer's address written without its
password (the password in the pass file): the pages read, and ``/board`` still takes
the organizer's password and no other."""

from __future__ import annotations

import base64
import urllib.error
import urllib.request
from urllib.parse import unquote, urlsplit

import pytest
from conftest import Served

from referee_desk.store.postgres.password import remember


def _get(url: str, password: str | None = None) -> str:
    headers = {}
    if password is not None:
        headers["Authorization"] = "Basic " + base64.b64encode(f"o:{password}".encode()).decode()
    return urllib.request.urlopen(urllib.request.Request(url, headers=headers)).read().decode()


def test_the_board_takes_the_password_from_the_pass_file(cup, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "pgpass"))
    monkeypatch.delenv("PGPASSWORD", raising=False)
    secret = unquote(urlsplit(cup.organizer_url).password or "")
    plain = cup.organizer_url.replace(f":{urlsplit(cup.organizer_url).password}@", "@", 1)
    remember(plain, secret)
    served = Served(plain)
    try:
        assert "1号桌" in _get(served.url + "/matches")
        with pytest.raises(urllib.error.HTTPError) as refused:
            _get(served.url + "/board", "not-it")
        assert refused.value.code == 401
        assert "2号桌" in _get(served.url + "/board", secret)
    finally:
        served.stop()
