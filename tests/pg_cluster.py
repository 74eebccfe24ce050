"""A throwaway PostgreSQL cluster for the test session, from Debian's `postgresql` package.

initdb and pg_ctl make it in a temp folder; it listens on a unix socket in that folder only (no TCP
port, so it never meets another server on this machine) and is stopped and deleted at the end.
PostgreSQL refuses to run as root: as root (CI), the cluster is run as the `postgres` user the package
creates (or `nobody`).
"""
from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

ROLE = "tablebot"


def find_bin() -> Path | None:
    """The newest installed PostgreSQL's bin folder (Debian keeps each major version apart)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4]))
    return Path(found[-1]).parent if found else None


def _unprivileged_user() -> str | None:
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    raise RuntimeError("running as root, and neither a `postgres` nor a `nobody` user exists to run PostgreSQL")


class Cluster:
    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.user = _unprivileged_user()
        self.root = Path(tempfile.mkdtemp(prefix="tablebot-pg-"))
        self.data = self.root / "data"
        self.socket_dir = self.root  # the socket is <root>/.s.PGSQL.5432
        self._names = itertools.count(1)
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        os.chmod(self.root, 0o755)  # root, the tests' user, reaches the socket

    def _run(self, *args: str) -> None:
        done = subprocess.run([str(self.bindir / args[0]), *args[1:]], user=self.user, cwd=self.root,
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")

    def start(self) -> Cluster:
        self._run("initdb", "-D", str(self.data), "-U", ROLE, "--auth=trust", "--encoding=UTF8",
                  "--no-locale", "--no-sync")
        # fsync off: the tests kill the app, not the machine, so PostgreSQL's own process keeps every
        # committed write; this makes creating a database per test cheap
        self.resume()
        return self

    def resume(self) -> None:
        """Start the server (again, after `halt`) on the same data and socket."""
        options = (f"-c listen_addresses='' -c unix_socket_directories='{self.socket_dir}' -c fsync=off "
                   "-c full_page_writes=off -c max_connections=200 -c shared_buffers=32MB")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-o", options,
                  "-w", "-t", "60", "start")

    def halt(self) -> None:
        """Stop the server as an administrator would (`fast`: open sessions are ended), keeping its data."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{ROLE}@/{database}?host={self.socket_dir}"

    def new_database(self) -> str:
        """An empty database of its own for one test (cheaper than cleaning one shared database)."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(host=str(self.socket_dir), user=ROLE, dbname="postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)
