"""Fixtures of the match tests.

Every state a match test replays hands its consequences to ``SEEN_CONSEQUENCES``, so
``test_wording.py`` (collected last) can check that each one is worded in Chinese.
"""

from __future__ import annotations

from typing import Any

import pytest
from match_table import Table

from referee_desk.match.fold.replayer import Replayer

#: (key, args, English text) of every consequence the match tests' scenarios produced.
SEEN_CONSEQUENCES: dict[tuple[str, Any, str], str] = {}


@pytest.fixture
def table() -> Table:
    return Table().start()


@pytest.fixture(autouse=True)
def _collect_consequences(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest):
    """Record the consequences of every replayed state (real replay, only observed)."""
    real = Replayer.state

    def observed(self: Replayer, *args: Any, **kwargs: Any):
        state = real(self, *args, **kwargs)
        for c in state.consequences:
            SEEN_CONSEQUENCES.setdefault((c.key, c.args, c.text), request.node.nodeid)
        return state

    monkeypatch.setattr(Replayer, "state", observed)
    yield
