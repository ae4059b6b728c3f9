"""``--follow``: print a tournament view again whenever its records change.

On a server the organizer's terminal listens (LISTEN/NOTIFY): a desk's event reprints
the view within moments, a burst of events once. On a file it looks at the file (and
its ``-wal``) once a second. Ctrl+C stops; ``count`` stops after that many reprints
(for scripts and tests).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from datetime import datetime

from referee_desk.store.opener import is_server_address

#: How long a burst of events may take to land before the view is printed again.
SETTLE_SECONDS = 0.3


def follow(address: str, show: Callable[[], None], *, count: int | None = None) -> int:
    """Run ``show()`` now and after every change of the records at ``address``."""
    # The watch itself differs: a server notifies (LISTEN/NOTIFY), a file is looked at.
    watcher = ServerWatch(address) if is_server_address(address) else FileWatch(address)
    shown = 0
    try:
        show()  # the watch started first: nothing landing meanwhile is missed
        while count is None or shown < count:
            if watcher.changed():
                print(f"--- {datetime.now().astimezone():%H:%M:%S} ---", flush=True)
                show()
                shown += 1
    except KeyboardInterrupt:
        pass
    finally:
        watcher.close()
    return 0


class ServerWatch:
    """Events landing on the server (its notifications)."""

    def __init__(self, url: str) -> None:
        from referee_desk.store.postgres.listener import EventListener

        self.listener = EventListener(url)

    def changed(self) -> bool:
        """Wait up to a second; True once a burst of events has landed."""
        if not self.listener.wait(timeout=1.0):
            return False
        time.sleep(SETTLE_SECONDS)
        self.listener.wait(timeout=0.01)
        return True

    def close(self) -> None:
        self.listener.close()


class FileWatch:
    """A tournament file growing (its size and time, and its ``-wal``'s)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.last = self._stamp()

    def _stamp(self) -> tuple[tuple[int, int], ...]:
        found = []
        for name in (self.path, f"{self.path}-wal"):
            try:
                st = os.stat(name)
            except OSError:
                found.append((0, 0))
            else:
                found.append((st.st_mtime_ns, st.st_size))
        return tuple(found)

    def changed(self) -> bool:
        time.sleep(1.0)
        if self._stamp() == self.last:
            return False
        time.sleep(SETTLE_SECONDS)
        self.last = self._stamp()
        return True

    def close(self) -> None:
        pass
