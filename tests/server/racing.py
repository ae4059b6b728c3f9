"""Racing CLI commands in real processes, in lockstep: for the server's race tests.

``race(tmp_path, [argvs_of_process_0, argvs_of_process_1, …])`` starts one Python
process per list; each imports everything first, then runs its commands one by one, and
before each command waits until every process is ready to run its own (a barrier of
files), so the n-th commands of all processes start at the same moment. Returns, per
process, one ``(exit code, stdout, stderr)`` per command.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import contextlib, io, json, os, sys, time
import referee_desk.cli.cmd_export, referee_desk.cli.cmd_tournament, referee_desk.cli.cmd_sync
import referee_desk.store.postgres.sync, referee_desk.store.postgres.tables
import referee_desk.store.postgres.tournament_records, referee_desk.tournament.repository
from referee_desk.cli.main import main

barrier, me, parties, commands = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
for n, argv in enumerate(json.loads(commands)):
    open(os.path.join(barrier, f"{n}.{me}"), "w").close()
    deadline = time.monotonic() + 120
    while sum(1 for f in os.listdir(barrier) if f.startswith(f"{n}.")) < parties:
        if time.monotonic() > deadline:
            sys.exit("barrier timeout")
        time.sleep(0.0005)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
    print(json.dumps([code, out.getvalue(), err.getvalue()]), flush=True)
"""


def race(tmp_path: Path, processes: list[list[list[str]]]) -> list[list[tuple[int, str, str]]]:
    barrier = tmp_path / f"barrier{len(list(tmp_path.glob('barrier*')))}"
    barrier.mkdir()
    running = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, str(barrier), str(k), str(len(processes)), json.dumps(c)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for k, c in enumerate(processes)
    ]
    results = []
    for process in running:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, err
        results.append([tuple(json.loads(line)) for line in out.splitlines()])
    return results
