"""Benchmark: how much disk one address can fill, on SQLite and on PostgreSQL.

Run from the project root:  .venv/bin/python bench/bench_storage.py   (BENCH_STORAGE_SECONDS, default 60;
600 for the ten minutes the closing note of issue 23 reports; BENCH_STORAGE_BUSY=100 to save to every
table at once; BENCH_CHECKOUT=/path/to/another/checkout
serves that checkout's code instead, to compare)
The production server (`tablebot`, 2 workers x 4 threads, the default limits and budget) on a fresh
database of each kind; from 127.0.0.1, one address, the heaviest writing its limits allow for that
long: first the 100 tables the creation limit allows (5 more are refused), then 9 of them each saved
by a client of its own at its limit (240 saves a minute, 4 a second) with states of 60 KiB that do not
compress: about 125 MiB written a minute, all of it allowed. The other 91 tables get one such save
each, until the address's storage budget refuses them. Every BENCH_STORAGE_SECONDS / 5 it prints the
database's size on disk (SQLite: the file with its -wal and -shm; PostgreSQL: pg_database_size), what
the kept versions hold, and the answers so far. PostgreSQL is a throwaway cluster
(tests/pg_cluster.py), skipped when Debian's postgresql is not installed.
"""
from __future__ import annotations

import collections
import json
import os
import random
import shutil
import string
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from bench_http import Client, free_port  # noqa: E402

SECONDS = float(os.environ.get("BENCH_STORAGE_SECONDS", "60"))
TABLES, STATE_BYTES = 100, 60 * 1024
# 9 busy tables keep about 23 MiB: under the 32 MiB budget, so every save is allowed; BENCH_STORAGE_BUSY=100
# saves to all the tables at once, and the budget refuses the saves past it
BUSY = int(os.environ.get("BENCH_STORAGE_BUSY", "9"))
SAVES_PER_SECOND = 3.9  # per table: just under the write limit of 240 a minute
MIB = 1024 * 1024
# the checkout whose server is measured (BENCH_CHECKOUT: another one, e.g. a release before this bench)
SERVED = Path(os.environ.get("BENCH_CHECKOUT", ROOT)).resolve()


def start_server(url: str, folder: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "TABLEBOT_INSTANCE": str(folder / "instance"), "SECRET_KEY": "bench",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(SERVED), os.environ.get("PYTHONPATH")]))}
    script = Path(sys.executable).with_name("tablebot")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "assistant.cli"]
    log = (folder / "server.log").open("w")
    proc = subprocess.Popen([*cmd, "--port", str(port), "--workers", "2", "--threads", "4"], cwd=SERVED, env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            if Client(port, timeout=5).call("GET", "/api/health")[0] == 200:
                return proc, port
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"the server did not start; see {folder / 'server.log'}")


def on_disk(url: str, engine) -> int:
    from sqlalchemy import text

    if url.startswith("sqlite"):
        path = url.removeprefix("sqlite:///")
        return sum(os.path.getsize(p) for p in (path, path + "-wal", path + "-shm") if os.path.exists(p))
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT pg_database_size(current_database())")).scalar_one())


def kept(engine) -> int:
    """What the kept versions' states hold (their JSON text), read from the versions themselves."""
    from sqlalchemy import Text, cast, func, select

    from assistant.db import versions

    with engine.connect() as conn:
        return int(conn.execute(select(func.coalesce(func.sum(func.length(cast(versions.c.state, Text))), 0)))
                   .scalar_one())


def run(kind: str, url: str, folder: Path) -> list[str]:
    from sqlalchemy import create_engine

    from assistant.db import engine_url

    proc, port = start_server(url, folder)
    engine = create_engine(engine_url(url))
    answers: collections.Counter = collections.Counter()
    lock, stop = threading.Lock(), threading.Event()
    lines = []
    try:
        setup = Client(port)
        ids = []
        for _ in range(TABLES + 5):  # five more than the limit: refused
            status, data, _ = setup.call("POST", "/api/tables", json.dumps({"game": "two-robots", "players": 2}).encode(),
                                         {"Content-Type": "application/json"})
            answers[f"create {status}"] += 1
            if status == 201:
                ids.append(json.loads(data)["id"])

        def save(client: Client, rng: random.Random, table: str, version: int) -> int:
            state = {"notes": "".join(rng.choices(string.ascii_letters + string.digits, k=STATE_BYTES))}
            body = json.dumps({"version": version, "state": state}).encode()
            try:
                status, data, _ = client.call("PUT", f"/api/tables/{table}", body, {"Content-Type": "application/json"})
            except OSError:
                status = 0
            with lock:
                answers[f"save {status}"] += 1
            return json.loads(data)["version"] if status == 200 else version

        def busy(n: int) -> None:
            client, rng, table, version = Client(port), random.Random(n), ids[n], 1
            while not stop.is_set():
                started = time.monotonic()  # saves start 1/SAVES_PER_SECOND apart at least: no catching up
                version = save(client, rng, table, version)
                stop.wait(max(0.0, started + 1 / SAVES_PER_SECOND - time.monotonic()))

        def the_rest() -> None:
            client, rng = Client(port), random.Random(-1)
            for table in ids[BUSY:]:
                if stop.is_set():
                    return
                save(client, rng, table, 1)

        threads = [threading.Thread(target=busy, args=(n,), daemon=True) for n in range(BUSY)]
        threads.append(threading.Thread(target=the_rest, daemon=True))
        start = time.monotonic()
        for t in threads:
            t.start()
        for step in range(1, 6):
            time.sleep(max(0.0, start + step * SECONDS / 5 - time.monotonic()))
            with lock:
                seen = dict(sorted(answers.items()))
            line = (f"  {kind:<10} {time.monotonic() - start:6.0f} s: on disk {on_disk(url, engine) / MIB:7.1f} MiB, "
                    f"kept states {kept(engine) / MIB:6.1f} MiB; answers {seen}")
            print(line, flush=True)
            lines.append(line)
        stop.set()
        for t in threads:
            t.join(30)
    finally:
        engine.dispose()
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
    return lines


def main() -> None:
    import pg_cluster

    folder = Path(tempfile.mkdtemp(prefix="tablebot-storage-"))
    print(f"load average at start: {os.getloadavg()[0]:.2f}; {SECONDS:.0f} s of the heaviest writing one address may do "
          f"({TABLES} tables, {BUSY} of them saved {SAVES_PER_SECOND} times a second with {STATE_BYTES // 1024} KiB "
          "states that do not compress); default budget and limits")
    summary = []
    try:
        (folder / "sqlite").mkdir()
        summary += run("SQLite", f"sqlite:///{folder / 'sqlite' / 'bench.sqlite3'}", folder / "sqlite")
        bindir = pg_cluster.find_bin()
        if bindir is None:
            print("  PostgreSQL skipped: Debian's postgresql is not installed")
        else:
            cluster = pg_cluster.Cluster(bindir).start()
            try:
                (folder / "pg").mkdir()
                summary += run("PostgreSQL", cluster.new_database(), folder / "pg")
            finally:
                cluster.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("\nat the end of each run:")
    for line in summary[4::5]:
        print(line)


if __name__ == "__main__":
    main()
