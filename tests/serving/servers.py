"""The production server as the tests drive it, and a small keep-alive HTTP client.

`ForkedServer` runs tablebot's own gunicorn setup (cli.build_app + cli.serve: preloaded app, gthread
workers) in a child forked from the test process, so a start costs a fraction of a second instead of
a fresh interpreter's imports; the test keeps the listening socket, so a server killed and started
again answers on the same address. `spawn_tablebot` runs the real `tablebot` console script.
"""
from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from werkzeug.datastructures import Headers

ROOT = Path(__file__).resolve().parents[2]


class Http:
    """One keep-alive connection (as a phone's browser keeps one); JSON in and out."""

    def __init__(self, base: str, timeout: float = 10):
        host, port = base.removeprefix("http://").split(":")
        self.host, self.port, self.timeout = host, int(port), timeout
        self.conn: http.client.HTTPConnection | None = None
        self.connects = 0  # connections opened: 1 while the server keeps the connection alive

    def request(self, method: str, path: str, body=None, headers: dict | None = None):
        """(status, parsed JSON or raw bytes, response headers, looked up in any case); raises OSError when
        the server is gone."""
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            self.connects += 1
        data = json.dumps(body).encode() if body is not None else None
        hdrs = {"Content-Type": "application/json"} if data is not None else {}
        hdrs.update(headers or {})
        try:
            self.conn.request(method, path, body=data, headers=hdrs)
            r = self.conn.getresponse()
            raw = r.read()
        except (OSError, http.client.HTTPException) as err:
            self.close()
            raise OSError(str(err)) from err
        if r.getheader("Connection", "").lower() == "close":
            self.close()
        ctype = r.getheader("Content-Type", "")
        payload = json.loads(raw) if raw and ctype.startswith("application/json") else raw
        return r.status, payload, Headers(r.getheaders())  # names in any case, as HTTP has them

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def wait_healthy(base: str, proc_alive, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not proc_alive():
            raise RuntimeError(f"the server at {base} exited while starting")
        try:
            status, _, _ = Http(base, timeout=2).request("GET", "/api/health")
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"the server at {base} did not answer within {timeout} s")


def _serve_forked(db_url: str, fd: int, workers: int, threads: int, instance: str) -> None:
    os.setsid()  # its own process group: the test kills master and workers at once
    os.environ["TABLEBOT_INSTANCE"] = instance
    from assistant import cli

    # racing writers and kill loops write one table from one address far faster than phones do
    app = cli.build_app({"DATABASE_URL": db_url, "SECRET_KEY": "test",
                         "TABLE_WRITE_LIMIT": 10**8, "TABLE_CREATE_LIMIT": 10**8})
    cli.serve(app, [f"fd://{fd}"], workers, threads)


_warm = []


def _import_the_app_once() -> None:
    """Import every module the app uses in the test process, so that a forked server starts in a
    fraction of a second (a restarted server in production pays the imports again: about 2 s)."""
    if not _warm:
        from assistant import create_app

        create_app({"DATABASE_URL": "sqlite://", "SECRET_KEY": "test"}).extensions["tablebot_db"].dispose()
        _warm.append(True)


def full_history(client: Http, table_id: str) -> list[dict]:
    """Every kept version of a table, oldest first (the history answers a page at a time)."""
    versions, before = [], ""
    while True:
        status, page, _ = client.request("GET", f"/api/tables/{table_id}/history?limit=100{before}")
        assert status == 200, page
        versions = page["versions"] + versions
        if page.get("older") is None:
            return versions
        before = f"&before={page['older']}"


class ForkedServer:
    def __init__(self, db_url: str, instance: Path, workers: int = 2, threads: int = 4):
        _import_the_app_once()
        self.db_url, self.instance, self.workers, self.threads = db_url, str(instance), workers, threads
        self.proc: multiprocessing.Process | None = None
        self._listen()

    def _listen(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(256)
        self.sock.set_inheritable(True)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def start(self) -> ForkedServer:
        ctx = multiprocessing.get_context("fork")
        self.proc = ctx.Process(target=_serve_forked, daemon=False,
                                args=(self.db_url, self.sock.fileno(), self.workers, self.threads, self.instance))
        self.proc.start()
        wait_healthy(self.url, self.proc.is_alive)
        return self

    def worker_pids(self) -> list[int]:
        path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        return [int(p) for p in path.read_text().split()] if path.exists() else []

    def kill(self) -> None:
        """SIGKILL to the master and every worker at once: nothing gets to finish or clean up. Requests
        not yet accepted die with the listening socket (as with a real crash), and the next start
        listens on a new port."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.join(10)
        self.sock.close()
        self._listen()

    def stop(self) -> None:
        if self.proc is not None and self.proc.is_alive():
            os.kill(self.proc.pid, signal.SIGTERM)  # gunicorn's graceful stop
            self.proc.join(20)
            if self.proc.is_alive():
                self.kill()
        else:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)  # workers a dead master may have left
            except (ProcessLookupError, AttributeError):
                pass

    def close(self) -> None:
        self.stop()
        self.sock.close()

    def __enter__(self) -> ForkedServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()


def listening_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(256)
    return sock


class Tablebot:
    """The real `tablebot` console script in a process of its own (what `make run` starts). It gets a
    socket this process opened (`--bind fd://N`): no other server on the machine can take its port
    between a look for a free one and the bind."""

    def __init__(self, db_url: str, instance: Path, *args: str):
        self.sock = listening_socket()
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "DATABASE_URL": db_url, "TABLEBOT_INSTANCE": str(instance), "SECRET_KEY": "test",
               # the checkout under test, whichever checkout the virtualenv's editable install points at
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
        script = Path(sys.executable).with_name("tablebot")
        cmd = [str(script)] if script.exists() else [sys.executable, "-m", "assistant.cli"]
        self.log = instance / f"tablebot-{self.port}.log"
        instance.mkdir(parents=True, exist_ok=True)
        self.terminated = False
        fd = self.sock.fileno()
        self.proc = subprocess.Popen([*cmd, "--bind", f"fd://{fd}", *args], cwd=ROOT, env=env, pass_fds=(fd,),
                                     stdout=self.log.open("w"), stderr=subprocess.STDOUT, start_new_session=True)

    def wait(self, timeout: float = 90) -> Tablebot:
        try:
            wait_healthy(self.url, lambda: self.proc.poll() is None, timeout)
        except RuntimeError as err:
            raise RuntimeError(f"{err}\n{self.log.read_text()}") from None
        return self

    def output(self) -> str:
        return self.log.read_text()

    def terminate(self) -> None:
        """Ask for gunicorn's graceful stop without waiting (stop several servers side by side). Once:
        a second SIGTERM reaching the interpreter as it exits would end it with -15."""
        if self.proc.poll() is None and not self.terminated:
            self.proc.send_signal(signal.SIGTERM)
            self.terminated = True

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        self.sock.close()
        return self.proc.returncode
