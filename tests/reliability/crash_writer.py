"""A desk process for the crash and two-writer drills (run as a script, not collected).

``python crash_writer.py FILE NAME MATCHES [COUNT] [--shared MATCH]`` appends
synthetic events round-robin to its matches, printing ``committed MATCH SEQ HASH``
after each append returns (flushed), until killed or COUNT events are done.
With ``--shared``, every other event goes to that match through the
expected-sequence check, retrying on ``AppendConflict`` (printed ``conflict``).
"""

from __future__ import annotations

import sys

from referee_desk.store import AppendConflict, TournamentFile
from referee_desk.store.synthetic import draft


def main(argv: list[str]) -> int:
    path, name, matches = argv[0], argv[1], int(argv[2])
    count = int(argv[3]) if len(argv) > 3 and not argv[3].startswith("--") else None
    shared = argv[argv.index("--shared") + 1] if "--shared" in argv else None
    out = sys.stdout
    with TournamentFile.open(path, backup_every=40, backup_keep=2) as tf:
        ids = [f"{name}-t{m}" for m in range(matches)]
        done = 0
        out.write("ready\n")
        out.flush()
        while count is None or done < count:
            if shared is not None and done % 2 == 1:
                while True:
                    seen = tf.head(shared)[0]
                    try:
                        event = tf.append(
                            draft(shared, seen, text=f"{name} {done}"), expected_seq=seen + 1
                        )
                        break
                    except AppendConflict:
                        out.write("conflict\n")
            else:
                match_id = ids[done % matches]
                event = tf.append(draft(match_id, tf.head(match_id)[0]))
            out.write(f"committed {event.match_id} {event.seq} {event.hash}\n")
            out.flush()
            done += 1
    out.write("closed\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
