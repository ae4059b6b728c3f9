"""Issue 17, item 3: the store's validation fails closed.

The store asks the match layer whether an event may be recorded. It used to look the
layer's names up lazily and turn any failure into "absent": with the names gone,
``append`` stored a ``clock_started`` as a match's first event. Now the store does
not start without the match layer, and a bug in the fold is raised as a failure.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from referee_desk.match import ReplayFailed
from referee_desk.match.fold import replayer
from referee_desk.store import AppendRefused, TournamentFile
from referee_desk.store.match_checks import MatchChecker, first_problem
from referee_desk.store.synthetic import draft, record


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    "hidden",
    ["referee_desk.match", "referee_desk.match.replay", "referee_desk.match.schema_check"],
)
def test_the_store_does_not_start_without_the_match_layer(hidden: str) -> None:
    proc = _run(
        f"""
        import sys
        sys.modules[{hidden!r}] = None  # the module cannot be imported
        import referee_desk.store
        """
    )
    assert proc.returncode != 0
    assert "ImportError" in proc.stderr or "ModuleNotFoundError" in proc.stderr
    assert hidden in proc.stderr


def test_a_first_event_that_is_not_match_opened_is_not_stored(tfile: TournamentFile) -> None:
    with pytest.raises(AppendRefused, match="the first event of a match must open it"):
        tfile.append(draft("m", 1))  # a clock_started
    assert tfile.events("m") == []


def test_a_bug_in_the_fold_is_a_failure_not_a_rejection(
    tfile: TournamentFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A planted ``{}["typo_key"]`` in the clock handler is raised with its cause."""
    record(tfile, "m", 1)

    def planted(*args: object) -> None:
        {}["typo_key"]  # the planted bug

    _patch_handler(monkeypatch, "clock_started", planted)
    with pytest.raises(ReplayFailed) as failed:
        tfile.append(draft("m", 1))
    assert isinstance(failed.value.__cause__, KeyError)
    assert "typo_key" in str(failed.value)
    assert len(tfile.events("m")) == 1  # nothing half-written


def test_a_bug_in_the_fold_does_not_make_an_intact_record_unacceptable(
    tfile: TournamentFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    record(tfile, "m", 3)
    events = tfile.events("m")
    assert first_problem(events) is None

    def planted(*args: object) -> None:
        {}["typo_key"]  # the planted bug

    _patch_handler(monkeypatch, "clock_started", planted)
    with pytest.raises(ReplayFailed):
        first_problem(events)
    with pytest.raises(ReplayFailed):
        MatchChecker(events)


def _patch_handler(monkeypatch: pytest.MonkeyPatch, event_type: str, handler: object) -> None:
    monkeypatch.setitem(replayer.HANDLERS, event_type, handler)


def test_the_cli_does_not_hide_a_missing_layer_as_an_absent_subcommand() -> None:
    """Only the subcommand's own module missing is "not available"; a layer it needs is
    missing is raised as the import error it is."""
    proc = _run(
        """
        import sys
        sys.modules["referee_desk.match.replay"] = None
        from referee_desk.cli.main import main
        sys.exit(main(["replay", "x.jsonl"]))
        """
    )
    assert proc.returncode != 0
    assert "is not available" not in proc.stderr
    assert "referee_desk.match.replay" in proc.stderr and "Traceback" in proc.stderr


def test_the_store_exports_what_its_docstring_advertises() -> None:
    import referee_desk.store as store

    advertised = store.__doc__.split("from referee_desk.store import", 1)[1].splitlines()[0]
    names = [name.strip() for name in advertised.split(",")]
    assert names and all(name in store.__all__ and hasattr(store, name) for name in names)
    assert all(hasattr(store, name) for name in store.__all__)
