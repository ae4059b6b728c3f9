"""``referee-desk export KIND FILE -o OUT``: one command, several kinds of output.

Each kind lives in the layer that owns it; this module only dispatches.
"""

from __future__ import annotations

import argparse
import importlib
import re

#: kind -> (module, function name, help). Each function takes the parsed args and
#: returns an exit status.
EXPORT_KINDS: dict[str, tuple[str, str, str]] = {
    "jsonl": ("referee_desk.cli.export_records", "export_jsonl", "match records as JSON Lines"),
    "bracket": ("referee_desk.cli.export_documents", "export_bracket", "bracket sheet (xlsx)"),
    "results": ("referee_desk.cli.export_documents", "export_results", "results (PDF)"),
    "match": ("referee_desk.cli.export_documents", "export_match", "match report (PDF)"),
    "scoresheet": (
        "referee_desk.cli.export_documents",
        "export_scoresheet",
        "blank table scoresheet (PDF)",
    ),
    "round-pack": (
        "referee_desk.cli.export_documents",
        "export_round_pack",
        "one round: pairing list, player index, table cards, scoresheets (PDF)",
    ),
    "players": (
        "referee_desk.cli.export_documents",
        "export_players",
        "alphabetical player index with tables (PDF)",
    ),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser._negative_number_matcher = NEGATIVE_VALUE  # ``--tz -05:00`` is a value
    parser.add_argument("kind", choices=sorted(EXPORT_KINDS), help="what to export")
    parser.add_argument("file", help="tournament file (.sqlite) or match record (.jsonl)")
    parser.add_argument("-o", "--output", required=True, help="file to write")
    parser.add_argument("--match", dest="match_id", help="match id (for jsonl and match)")
    parser.add_argument("--font", help="TrueType CJK font for PDFs (overrides the search)")
    parser.add_argument(
        "--template", help="organizer's xlsx template whose defined names the bracket fills"
    )
    parser.add_argument(
        "--ruleset",
        help="scoresheet '-': the preset of the blank sheet (guilin-2009, qq-four-deck, "
        "three-deck); a tournament file prints its own",
    )
    parser.add_argument("--round", type=int, help="round-pack: round N in the order of play")
    parser.add_argument("--start", help="round-pack: start time printed on the pairings")
    parser.add_argument(
        "--tz",
        help="the venue's time zone for printed times: an offset such as +08:00 (the "
        "default) or -05:00, or a zone name such as Asia/Shanghai",
    )
    parser.add_argument(
        "--paper", choices=("A4", "A3"), default="A4", help="paper size (A3: bigger bracket parts)"
    )
    parser.add_argument(
        "--fixed-time",
        help="byte-stable output: print this time (ISO) as the printed-at time and CreationDate",
    )


#: argparse takes a value starting with "-" for an option unless it looks like a
#: negative number; a zone offset (-05:00, -0530) is one here (no option of this
#: command looks like a number, so nothing else changes).
NEGATIVE_VALUE = re.compile(r"^-\d+$|^-\d*\.\d+$|^-\d{1,2}(:?\d{2})?$")


#: The most an xlsx template may unpack to (a zip bomb is refused before it is read).
MAX_TEMPLATE_UNPACKED = 64 * 1024 * 1024


def target_problem(output: str) -> str | None:
    """Why ``-o`` must not be written: a folder, a device, a pipe or a socket (issue 18)."""
    import os
    import stat

    try:
        mode = os.stat(output).st_mode
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"{output}: cannot be checked ({error.strerror or error})"
    if stat.S_ISDIR(mode):
        return f"{output}: is a folder; give a file name"
    if not stat.S_ISREG(mode):
        return f"{output}: not a regular file (a device, pipe or socket); give a file name"
    return None


def template_problem(template: str) -> str | None:
    """Why an xlsx template is refused before it is opened (unreadable, or a zip bomb)."""
    import zipfile

    try:
        with zipfile.ZipFile(template) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (OSError, zipfile.BadZipFile, ValueError) as error:
        return f"{template}: not a readable xlsx template ({error})"
    if unpacked > MAX_TEMPLATE_UNPACKED:
        limit = MAX_TEMPLATE_UNPACKED // (1024 * 1024)
        return f"{template}: unpacks to {unpacked:,} bytes (more than {limit} MB): refused"
    return None


def run(args: argparse.Namespace) -> int:
    import sys

    template = getattr(args, "template", None)
    problem = target_problem(args.output) or (template_problem(template) if template else None)
    if problem is not None:
        print(f"export refused: {problem}", file=sys.stderr)
        return 1
    module_name, function_name, _ = EXPORT_KINDS[args.kind]
    module = importlib.import_module(module_name)
    return int(getattr(module, function_name)(args) or 0)
