"""Benchmark: the table store under a careless or hostile client (issue 16), through the JSON API.

Run from the project root:  .venv/bin/python bench/bench_tables.py [DATABASE_URL]
(default: a fresh SQLite file). Prints p50/p95 of a save, an undo and a read of a small (1 KB) and a
big (63 KB) state, with the rate limits lifted so that the cost of every check shows; then, with
the default limits, what one client gets through in 5 s of saving 63 KB states as fast as it can
(and the database it leaves), of starting tables, and the size of one answer of /history.
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assistant import create_app

JSON = "application/json"
NO_LIMITS = {"TABLE_WRITE_LIMIT": 10**9, "TABLE_CREATE_LIMIT": 10**9}


def make_app(url: str | None, config: dict):
    folder = tempfile.mkdtemp()
    url = url or f"sqlite:///{folder}/bench.sqlite3"
    return create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "bench", **config}), url


def ms(samples: list[float]) -> str:
    q = statistics.quantiles(samples, n=20)
    return f"p50 {statistics.median(samples) * 1000:6.2f} ms  p95 {q[18] * 1000:6.2f} ms"


def state_of(size: int, n: int) -> dict:
    return {"table": {"names": ["Ann", "Bo"], "round": n % 8 + 1, "notes": "x" * size},
            "robotariat": {"board": {"spaces": [{"id": f"s{i}", "name": "Poster", "kind": "poster", "x": i, "y": i}
                                                for i in range(20)]}}}


def latencies(url: str | None) -> None:
    app, _ = make_app(url, NO_LIMITS)
    client = app.test_client()
    for label, size in (("1 KB", 300), ("63 KB", 62_000)):
        t = client.post("/api/tables", json={"game": "robotariat", "players": 3}).get_json()
        saves, reads, undos = [], [], []
        for v in range(1, 101):
            start = time.perf_counter()
            r = client.put(f"/api/tables/{t['id']}", json={"version": v, "state": state_of(size, v)})
            saves.append(time.perf_counter() - start)
            assert r.status_code == 200, r.get_data(as_text=True)[:200]
        for _ in range(100):
            start = time.perf_counter()
            client.get(f"/api/tables/{t['id']}")
            reads.append(time.perf_counter() - start)
        for _ in range(20):  # a big table keeps the 20 versions Undo walks back through
            start = time.perf_counter()
            r = client.post(f"/api/tables/{t['id']}/undo", content_type=JSON)
            undos.append(time.perf_counter() - start)
            assert r.status_code == 200
        print(f"{label:>5} state   save {ms(saves)}   read {ms(reads)}   undo {ms(undos)}")
    app.extensions["tablebot_db"].dispose()


def flood(url: str | None) -> None:
    app, db_url = make_app(url, {})
    client = app.test_client()
    t = client.post("/api/tables", json={"game": "two-robots", "players": 2}).get_json()
    version, codes, end = 1, {}, time.monotonic() + 5
    while time.monotonic() < end:
        r = client.put(f"/api/tables/{t['id']}", json={"version": version, "state": state_of(62_000, version)})
        codes[r.status_code] = codes.get(r.status_code, 0) + 1
        version += r.status_code == 200
    history = client.get(f"/api/tables/{t['id']}/history")
    size = ""
    if db_url.startswith("sqlite:///"):
        path = db_url.removeprefix("sqlite:///")
        size = f", database {sum(os.path.getsize(p) for p in (path, path + '-wal') if os.path.exists(p)) / 1e6:.1f} MB"
    print(f"5 s of 63 KB saves from one client: {codes}{size}; GET /history (no limit): "
          f"{len(history.data) / 1e6:.2f} MB, {len(history.get_json()['versions'])} versions")
    made, end = {}, time.monotonic() + 5
    while time.monotonic() < end:
        r = client.post("/api/tables", json={"game": "two-robots", "players": 2})
        made[r.status_code] = made.get(r.status_code, 0) + 1
    print(f"5 s of POST /api/tables from one client: {made}")
    app.extensions["tablebot_db"].dispose()


if __name__ == "__main__":
    target = sys.argv[1] if len(sys.argv) > 1 else None
    latencies(target)
    flood(target)
