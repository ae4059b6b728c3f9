"""Fixtures of the match tests."""

from __future__ import annotations

import pytest
from match_table import Table


@pytest.fixture
def table() -> Table:
    return Table().start()
