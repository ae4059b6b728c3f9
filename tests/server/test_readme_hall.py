"""The README's hall section ("The hall: one server, many desks") keeps working as written.

An organizer copies these commands; when a subcommand, a flag or the order of steps
changes, the README must change with it. Two checks:

- every ``referee-desk`` command the section shows (its ``sh`` blocks and the commands
  quoted in its prose) parses with the real command line (``referee_desk.cli.main``);
- the section's own ``sh`` blocks, in order, run against a real PostgreSQL server (the
  private test cluster): the organizer's set-up, the tournament made on the server, the
  rehearsal desks pushing, the live views, the documents and the archive. Only the
  example values are replaced, as the README tells the organizer to (the superuser's
  address, the laptop's address, the passwords ``server init`` prints, the folders).
  Lines for the operating system (apt-get, psql, service) and the commands that run
  until Ctrl+C (``server watch``, ``sync --follow``, ``hall serve``) are left out;
  ``--follow`` views run once (``--count 0``). A few seconds: it runs in the default suite.
"""

from __future__ import annotations

import argparse
import io
import re
import shlex
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from referee_desk.cli import main as cli_main

REPO = Path(__file__).resolve().parents[2]
TITLE = "### The hall: one server, many desks"
SUPERUSER_EXAMPLE = "postgresql://postgres@localhost:5432/cup"
LAPTOP_EXAMPLE = "192.168.1.10"


def hall_section() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.index(TITLE)
    end = text.find("\n## ", start)
    return text[start : end if end != -1 else len(text)]


def _logical_lines(block: str) -> list[str]:
    """Lines with their backslash continuations joined."""
    lines: list[str] = []
    current = ""
    for raw in block.splitlines():
        if raw.rstrip().endswith("\\"):
            current += raw.rstrip()[:-1].strip() + " "
            continue
        lines.append((current + raw.strip()).strip())
        current = ""
    return [line for line in lines if line]


def sh_lines(section: str) -> list[str]:
    """Every command line of the section's ``sh`` blocks, in order."""
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.S)
    return [line for block in blocks for line in _logical_lines(block)]


def prose_commands(section: str) -> list[str]:
    """``referee-desk …`` commands quoted in the prose (outside the code blocks)."""
    prose = re.sub(r"```.*?```", "", section, flags=re.S)
    spans = re.findall(r"`([^`]+)`", re.sub(r"\s*\n\s*", " ", prose))
    found = []
    for span in spans:
        words = span.split()
        if words[:3] == ["uv", "run", "referee-desk"]:
            found.append(" ".join(words[3:]))
        elif words[:1] == ["referee-desk"]:
            found.append(" ".join(words[1:]))
        elif words and words[0] in cli_main.SUBCOMMANDS and len(words) > 2 and "…" not in span:
            found.append(span)  # e.g. `sync table1.sqlite "$TABLE1" --open GA-R1-M01`
    return found


def _argv(command: str) -> list[str]:
    """A command's arguments after ``referee-desk``, the trailing comment dropped."""
    words = shlex.split(command, comments=True)
    if words[:3] == ["uv", "run", "referee-desk"]:
        words = words[3:]
    return words


def _parse(argv: list[str]) -> argparse.Namespace:
    """Parse as ``referee_desk.cli.main`` does (each subcommand adds its own arguments)."""
    parser = cli_main._build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    module = cli_main._load(argv[0])
    assert module is not None, argv[0]
    module.add_arguments(sub.choices[argv[0]])
    return parser.parse_args(argv)


def test_the_section_is_there_and_shows_the_whole_flow() -> None:
    lines = sh_lines(hall_section())
    shown = " ".join(lines)
    for step in (
        "server init",
        'tournament create "$ORG"',
        'tournament import-pairs "$ORG"',
        'tournament draw "$ORG"',
        'server publish "$ORG"',
        "sync",
        'server keys "$ORG" --approve all',
        'tournament standings "$ORG" --follow',
        'export results "$ORG"',
        'tournament copy "$ORG" /tmp/cup/archive.sqlite',
        'verify "$ORG"',
    ):
        assert step in shown, step


def test_every_command_the_section_shows_parses(capsys) -> None:
    section = hall_section()
    commands = [line for line in sh_lines(section) if line.startswith("uv run referee-desk")]
    commands += prose_commands(section)
    assert len(commands) > 25
    checked = 0
    for command in commands:
        argv = _argv(command)
        if not argv or argv[0] not in cli_main.SUBCOMMANDS:
            # `referee-desk "$TABLE1"` opens the desk window on the server, not a subcommand
            assert argv and argv[0].startswith("$"), command
            continue
        try:
            _parse(argv)
        except SystemExit:
            pytest.fail(
                f"the README's command does not parse: {command}\n{capsys.readouterr().err}"
            )
        checked += 1
    assert checked > 25


class Walk:
    """The section's commands with the organizer's own values, run one by one."""

    def __init__(self, admin_url: str, folder: Path) -> None:
        self.admin_url = _without_password(admin_url)
        self.folder = folder
        self.variables: dict[str, str] = {}
        self.outputs: list[tuple[str, str]] = []
        #: address without password -> the password (what the organizer types when asked)
        self.passwords = {self.admin_url: _password(admin_url)}
        #: the README's example address of a role -> the real one, without password
        self.roles: dict[str, str] = {}

    def substitute(self, line: str) -> str:
        for example, real in self.roles.items():
            line = line.replace(example, real)
        line = line.replace(SUPERUSER_EXAMPLE, self.admin_url)
        line = line.replace(LAPTOP_EXAMPLE, "127.0.0.1")
        line = line.replace("/tmp/cup", str(self.folder / "cup"))
        line = re.sub(r"(?<![\w/.])(docs|sample_events)/", lambda m: f"{REPO}/{m.group(1)}/", line)
        for name, value in self.variables.items():
            line = line.replace(f'"${name}"', shlex.quote(value))
        return line

    def run(self, capsys, line: str) -> tuple[int, str]:
        argv = _argv(self.substitute(line))
        if "--follow" in argv and argv[0] == "tournament":
            argv += ["--count", "0"]  # the view once; in the hall it runs until Ctrl+C
        if argv[:2] == ["server", "keys"] and "all" in argv:
            # At a terminal the organizer answers for each key after comparing it with the
            # desk's `keys show`; here the walk's own desks offered them: name each one.
            argv = [a for a in argv if a not in ("--approve", "all")] + _offered_keys(argv[2])
        if argv[:2] == ["server", "remember"]:  # the password typed when asked
            sys.stdin = io.StringIO(self.passwords[argv[2]] + "\n")
        try:
            code = cli_main.main(argv)
        finally:
            sys.stdin = sys.__stdin__
        out, err = capsys.readouterr()
        self.outputs.append((line, out + err))
        return code, out + err


def _offered_keys(url: str) -> list[str]:
    from referee_desk.store.postgres.seals import key_offers
    from referee_desk.store.postgres.server import TournamentServer

    with TournamentServer.open(url) as organizer:
        return [f for o in key_offers(organizer) for f in ("--approve", o.fingerprint)]


def _without_password(url: str) -> str:
    password = urlsplit(url).password
    return url.replace(f":{password}@", "@", 1) if password is not None else url


def _password(url: str) -> str:
    return unquote(urlsplit(url).password or "")


def _addresses(init_output: str) -> dict[str, str]:
    """Label -> address, as ``server init`` prints them."""
    found = {}
    for row in init_output.splitlines():
        parts = row.split()
        if len(parts) == 2 and parts[1].startswith("postgresql://"):
            found[parts[0]] = parts[1]
    return found


def test_the_sections_commands_run_against_a_real_server(
    pg_database, tmp_path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "pgpass"))  # what server remember fills
    monkeypatch.delenv("PGPASSWORD", raising=False)
    walk = Walk(pg_database, tmp_path)
    addresses: dict[str, str] = {}
    ran = 0
    for line in sh_lines(hall_section()):
        assignment = re.match(r"(ORG|TABLE(\d+))='(postgresql://[^']*)'", line)
        if assignment:  # the address server init printed, without its password
            assert ":" not in assignment.group(3).split("//")[1].split("@")[0], line
            walk.variables[assignment.group(1)] = walk.substitute(assignment.group(3))
            continue
        if line.startswith("mkdir -p "):
            Path(walk.substitute(line).split(maxsplit=2)[2]).mkdir(parents=True, exist_ok=True)
            continue
        if not line.startswith("uv run referee-desk"):
            continue  # the operating system's set-up (apt-get, psql, service …)
        argv = _argv(line)
        if argv[:2] in (["server", "watch"], ["hall", "serve"]) or (
            argv[0] == "sync" and "--follow" in argv
        ):
            continue  # these run until Ctrl+C
        code, output = walk.run(capsys, line)
        assert code == 0, f"{line}\n{output}"
        ran += 1
        if argv[:2] == ["server", "init"]:
            addresses = _addresses(output)
            assert "organizer" in addresses and "1号桌" in addresses, output
            for label, url in addresses.items():
                role = urlsplit(url).username
                example = "cup_organizer" if label == "organizer" else f"cup_t{role[-2:]}"
                plain = _without_password(url)
                walk.roles[f"postgresql://{example}@{LAPTOP_EXAMPLE}:5432/cup"] = plain
                walk.passwords[plain] = _password(url)
        if argv[:2] == ["tournament", "matches"]:
            # The rehearsal says GA-R1-M01 is 1号桌's match.
            assert re.search(r"^GA-R1-M01\s.*\s1号桌\s", output, flags=re.M), output
    assert ran >= 20
    pushed = [out for cmd, out in walk.outputs if cmd.startswith("uv run referee-desk sync")]
    assert pushed and all(" 0 in conflict" in out for out in pushed), pushed
    standings = next(out for cmd, out in walk.outputs if "standings" in cmd)
    assert re.search(r"^group A$", standings, flags=re.M), standings  # 1号桌's match counted
    verified = [out for cmd, out in walk.outputs if cmd.startswith("uv run referee-desk verify")]
    assert len(verified) == 2 and all(out.startswith("OK ") for out in verified), verified
    archive = tmp_path / "cup" / "archive.sqlite"
    code, from_archive = walk.run(capsys, f"uv run referee-desk tournament standings {archive}")
    code_server, from_server = walk.run(capsys, 'uv run referee-desk tournament standings "$ORG"')
    assert code == code_server == 0 and from_archive == from_server
    for document in ("results.pdf", "bracket.xlsx", "round2.pdf", "GA-R1-M01.pdf", "all.jsonl"):
        assert (tmp_path / "cup" / document).stat().st_size > 0, document
