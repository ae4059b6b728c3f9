"""A private PostgreSQL cluster for tests and benchmarks: real server, temporary, local only.

``initdb`` in a temporary folder, a free port on 127.0.0.1 only, the unix socket in the
same folder, ``fsync`` off (the cluster is thrown away; a killed *server process* still
loses nothing, only an OS crash would). PostgreSQL refuses to run as root, so when the
tests run as root (CI does) the server runs as an unprivileged system user: Debian's
``postgres`` when present, else ``referee-desk-pg`` created with ``useradd``, else
``nobody`` (``REFEREE_DESK_PG_USER`` chooses one); the folder is created directly under
the system temp dir (pytest's own temp dirs are private to root) and handed to that user.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

SUPERUSER = "rd_admin"
#: Binaries needed to run a cluster.
NEEDED = ("initdb", "pg_ctl", "postgres")
SERVICE_USER = "referee-desk-pg"


def find_bin_dir() -> Path | None:
    """The folder holding initdb/pg_ctl/postgres (newest Debian version first), or None."""
    chosen = os.environ.get("REFEREE_DESK_PG_BIN")
    if chosen:  # this folder and no other
        return Path(chosen) if all((Path(chosen) / n).is_file() for n in NEEDED) else None
    candidates: list[str] = []

    def version(path: str) -> float:
        try:
            return float(Path(path).parent.name)
        except ValueError:
            return 0.0

    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version, reverse=True)
    candidates += sorted(glob.glob("/usr/pgsql-*/bin"), reverse=True)
    found = shutil.which("initdb")
    if found:
        candidates.append(str(Path(found).parent))
    for folder in candidates:
        if all((Path(folder) / name).is_file() for name in NEEDED):
            return Path(folder)
    return None


def missing_reason() -> str:
    return (
        "PostgreSQL server binaries (initdb, pg_ctl, postgres) not found in "
        "/usr/lib/postgresql/*/bin, $REFEREE_DESK_PG_BIN or PATH; install Debian's "
        "'postgresql' package (apt-get install postgresql)"
    )


def _service_user() -> pwd.struct_passwd | None:
    """The unprivileged user the server runs as, or None when not root (run as ourselves)."""
    if os.geteuid() != 0:
        return None
    chosen = os.environ.get("REFEREE_DESK_PG_USER")
    for name in ([chosen] if chosen else []) + ["postgres", SERVICE_USER]:
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    try:
        subprocess.run(
            [
                "useradd",
                "--system",
                "--no-create-home",
                "--shell",
                "/usr/sbin/nologin",
                SERVICE_USER,
            ],
            check=True,
            capture_output=True,
        )
        return pwd.getpwnam(SERVICE_USER)
    except (OSError, subprocess.CalledProcessError, KeyError):
        return pwd.getpwnam("nobody")


def _dead(pid: int) -> bool:
    """Whether the process is gone or a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class PrivateCluster:
    """One running throw-away cluster; ``url(db)`` is the superuser's address of a database."""

    root: Path
    bin_dir: Path
    port: int
    password: str
    user: pwd.struct_passwd | None

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def socket_dir(self) -> Path:
        return self.root / "sock"

    @property
    def log(self) -> Path:
        return self.root / "server.log"

    def url(
        self, database: str = "postgres", user: str = SUPERUSER, password: str | None = None
    ) -> str:
        secret = self.password if password is None else password
        return f"postgresql://{user}:{secret}@127.0.0.1:{self.port}/{database}"

    # ------------------------------------------------------------------ running

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        extra: dict = {}
        if self.user is not None:
            extra = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}
        env = {**os.environ, "HOME": str(self.root), "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
        return subprocess.run(
            [str(self.bin_dir / args[0]), *args[1:]],
            check=check,
            capture_output=True,
            text=True,
            cwd=self.root,
            env=env,
            timeout=120,
            **extra,
        )

    def initdb(self) -> None:
        pwfile = self.root / "pw"
        pwfile.write_text(self.password + "\n")
        self._chown(pwfile)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "--pwfile",
            str(pwfile),
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        )
        pwfile.unlink()
        conf = (
            f"listen_addresses = '127.0.0.1'\nport = {self.port}\n"
            f"unix_socket_directories = '{self.socket_dir}'\n"
            "fsync = off\nfull_page_writes = off\nmax_connections = 300\n"
            "shared_buffers = 64MB\nlogging_collector = off\n"
        )
        with open(self.data / "postgresql.conf", "a", encoding="utf-8") as handle:
            handle.write(conf)

    def start(self) -> None:
        try:
            self._run(
                "pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "start"
            )
        except subprocess.CalledProcessError as error:
            log = self.log.read_text(errors="replace")[-1500:] if self.log.exists() else ""
            raise RuntimeError(f"pg_ctl start failed: {error.stderr.strip()}\n{log}") from None

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def kill(self) -> None:
        """Kill the server like a crash: SIGKILL to the postmaster, its backends follow."""
        pid_file = self.data / "postmaster.pid"
        try:
            pid = int(pid_file.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        # Backends notice the postmaster's death and exit; wait until none is left.
        while time.monotonic() < deadline and (self._backends_alive() or not _dead(pid)):
            time.sleep(0.05)
        # A killed postmaster may stay a zombie (no reaper in a container), which the next
        # start takes for a live server: its lock files go once every process is gone.
        if _dead(pid) and not self._backends_alive():
            pid_file.unlink(missing_ok=True)
            for stale in self.socket_dir.glob(".s.PGSQL.*"):
                stale.unlink(missing_ok=True)

    def _backends_alive(self) -> bool:
        """Whether any process still runs in the data folder (every server process does)."""
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    if os.readlink(entry / "cwd") == str(self.data):
                        return True
                except OSError:
                    continue
        return False

    def running(self) -> bool:
        return self._run("pg_ctl", "-D", str(self.data), "status", check=False).returncode == 0

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def _chown(self, path: Path) -> None:
        if self.user is not None:
            os.chown(path, self.user.pw_uid, self.user.pw_gid)


def start_cluster(bin_dir: Path | None = None) -> PrivateCluster:
    """initdb + start a new private cluster (retrying on a port taken meanwhile)."""
    bin_dir = bin_dir or find_bin_dir()
    if bin_dir is None:
        raise RuntimeError(missing_reason())
    user = _service_user()
    root = Path(tempfile.mkdtemp(prefix="referee-desk-pg-", dir="/tmp"))
    if user is not None:
        os.chown(root, user.pw_uid, user.pw_gid)
    (root / "sock").mkdir()
    cluster = PrivateCluster(root, bin_dir, free_port(), secrets.token_hex(12), user)
    cluster._chown(root / "sock")
    try:
        cluster.initdb()
        for attempt in range(3):
            try:
                cluster.start()
                return cluster
            except RuntimeError:
                if attempt == 2:
                    raise
                cluster.port = free_port()
                _set_port(cluster)
    except subprocess.CalledProcessError as error:
        cluster.remove()
        raise RuntimeError(
            f"private PostgreSQL cluster: {error.cmd[0]} failed: {(error.stderr or '').strip()}"
        ) from None
    except RuntimeError:
        cluster.remove()
        raise
    raise AssertionError("unreachable")


def _set_port(cluster: PrivateCluster) -> None:
    conf = cluster.data / "postgresql.conf"
    with open(conf, "a", encoding="utf-8") as handle:
        handle.write(f"port = {cluster.port}\n")
