"""Writing a document off the interface thread, with a progress dialog fed by the exporter.

The tournament file is read on the interface thread (its SQLite connection belongs
there); the document is then written by a pure function of what was read (the exports
layer) in a worker thread, whose ``progress(done, total, what)`` calls arrive as queued
signals. The view stays usable while a long export runs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

Progress = Callable[[int, int, str], None]
Work = Callable[[Progress], Path]


class _JobSignals(QObject):
    progress = Signal(int, int, str)
    finished = Signal(str)
    failed = Signal(str)


class ExportJob(QRunnable):
    """One document written in the pool; ``signals`` report progress, the path or the error."""

    def __init__(self, kind: str, work: Work) -> None:
        super().__init__()
        self.kind = kind
        self.work = work
        self.signals = _JobSignals()
        self.setAutoDelete(False)

    def run(self) -> None:
        try:
            path = self.work(self.signals.progress.emit)
        except Exception as error:  # any failure becomes a message; the desk stays usable
            text = str(error) or type(error).__name__
            if not isinstance(error, ValueError | OSError):
                text = f"{type(error).__name__}: {text}"
            self.signals.failed.emit(text)
        else:
            self.signals.finished.emit(str(path))


def start(job: ExportJob, pool: QThreadPool | None = None) -> ExportJob:
    (pool or QThreadPool.globalInstance()).start(job)
    return job
