"""A damaged server's answer to ``server init``'s own queries is a failure, not a refusal.

No PostgreSQL needed: a connection that answers no row, or a NULL, stands in for one.
"""

from __future__ import annotations

import pytest

from referee_desk.store import StoreError, StoreWriteError
from referee_desk.store.postgres import init
from referee_desk.store.postgres.errors import ServerFailed


class _Answers:
    """A connection whose every query answers ``row`` (``fetchone``)."""

    def __init__(self, row: tuple[object, ...] | None) -> None:
        self.row = row

    def execute(self, query: str, params: object = None) -> _Answers:
        return self

    def fetchone(self) -> tuple[object, ...] | None:
        return self.row


@pytest.mark.parametrize(
    ("row", "said"),
    [
        (None, "the server answered no row to: 'SHOW server_encoding'"),
        ((None,), "the server answered None to: 'SHOW server_encoding'"),
    ],
)
def test_no_row_or_null_is_a_failure_naming_the_query(
    row: tuple[object, ...] | None, said: str
) -> None:
    with pytest.raises(ServerFailed) as failed:
        init._text(_Answers(row), "SHOW server_encoding")  # type: ignore[arg-type]
    error = failed.value
    assert isinstance(error, StoreWriteError) and isinstance(error, OSError)
    assert not isinstance(error, StoreError | ValueError)  # not the input's fault
    assert str(error) == said
    assert error.key is None  # no phrase: the desk shows the line itself


def test_an_answer_is_passed_on() -> None:
    assert init._text(_Answers(("UTF8",)), "SHOW server_encoding") == "UTF8"  # type: ignore[arg-type]
