"""The ``referee-desk`` entry point.

With no subcommand (optionally a tournament FILE) it opens the desk; subcommands do
headless work. Each subcommand lives in its own module exposing
``add_arguments(parser)`` and ``run(args) -> int``; modules are imported only when
their subcommand runs, so ``referee-desk rules`` never loads Qt.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

#: subcommand -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "rules": ("referee_desk.cli.cmd_rules", "answer rule questions: JSON Lines on stdin/stdout"),
    "replay": ("referee_desk.cli.cmd_replay", "replay a match record and print its state"),
    "verify": ("referee_desk.cli.cmd_verify", "check a record's hash chain and every event"),
    "import": ("referee_desk.cli.cmd_import", "import JSON Lines match records into a tournament"),
    "export": ("referee_desk.cli.cmd_export", "export records or documents (jsonl, xlsx, PDF)"),
    "tournament": ("referee_desk.cli.cmd_tournament", "create and run a tournament headlessly"),
    "server": ("referee_desk.cli.cmd_server", "set up and run the tournament server (PostgreSQL)"),
    "sync": ("referee_desk.cli.cmd_sync", "push a desk's new events to the tournament server"),
    "hall": ("referee_desk.cli.cmd_hall", "the hall page: a live web page for players"),
    "keys": ("referee_desk.cli.cmd_keys", "signing keys: show, organizer key, adopt, endorse"),
}


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="referee-desk",
        description="Referee Desk (裁判台) for Guilin four-deck Tractor tournaments.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        sub_parser.set_defaults(_module=module_name)
    return parser


def _load(command: str) -> ModuleType | None:
    """The subcommand's module, or None after a one-line error when it is not installed.

    Only the subcommand's own module being absent is "not available"; any other import
    error (a layer it needs missing, a bug) is raised as it is, never hidden.
    """
    module_name = SUBCOMMANDS[command][0]
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        print(
            f"referee-desk: subcommand {command!r} is not available: module {module_name} is "
            "missing from this installation",
            file=sys.stderr,
        )
        return None


def _ask_passwords_at_the_terminal() -> None:
    """A server password the address and the pass file lack is asked for, never echoed,
    when a person is at the terminal (never in a pipe or a service)."""
    from referee_desk.cli.terminal import can_ask

    if not can_ask():
        return
    import getpass

    from referee_desk.store.postgres.password import set_prompt

    set_prompt(lambda shown: getpass.getpass(f"password for {shown}: "))


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or (args_list[0] not in SUBCOMMANDS and not args_list[0].startswith("-")):
        # No subcommand: open the desk (on FILE when given).
        try:
            from referee_desk.ui.app import run_desk
        except ImportError as exc:
            print(f"referee-desk: the desk cannot start: {exc}", file=sys.stderr)
            return 2
        return run_desk(args_list)
    parser = _build_parser()
    # Let each subcommand add its own arguments before parsing.
    sub_action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    command = args_list[0]
    module = None
    if command in SUBCOMMANDS:
        module = _load(command)
        if module is None:
            return 2
        module.add_arguments(sub_action.choices[command])
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help()
        return 0
    if module is None:
        # Options came before the subcommand: load it now.
        module = _load(args.command)
        if module is None:
            return 2
    _ask_passwords_at_the_terminal()
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
