"""Fifty phones following tables do not tie up the server: each keeps one keep-alive connection and
asks for its table's version (304 while unchanged), and a save still answers at once, even on one
worker with two threads (idle keep-alive connections wait in waitress's reading thread, not in an application thread).
bench/bench_http.py measures the same at full speed."""
from __future__ import annotations

import threading
import time

from serving.servers import ForkedServer, Http

FOLLOWERS = 50
SECONDS = 2.0


def test_fifty_followers_leave_room_for_a_save(tmp_path):
    with ForkedServer(f"sqlite:///{tmp_path / 'f.sqlite3'}", tmp_path / "instance", workers=1, threads=2) as server:
        status, table, _ = Http(server.url).request("POST", "/api/tables", {"game": "two-robots", "players": 2})
        assert status == 201
        path = f"/api/tables/{table['id']}"
        stop = threading.Event()
        seen: list[list[int]] = [[] for _ in range(FOLLOWERS)]
        connections = [0] * FOLLOWERS
        errors: list[str] = []

        def follow(i: int) -> None:
            client, etag = Http(server.url), None
            while not stop.is_set():
                try:
                    status, body, headers = client.request("GET", f"{path}/version",
                                                           headers={"If-None-Match": etag} if etag else {})
                except OSError as err:
                    errors.append(str(err))
                    return
                connections[i] = client.connects
                if status == 200:
                    etag = headers["ETag"]
                    seen[i].append(body["version"])
                elif status != 304:
                    errors.append(f"{status}")
                time.sleep(0.2)  # five times the pages' pace
            client.close()

        followers = [threading.Thread(target=follow, args=(i,), daemon=True) for i in range(FOLLOWERS)]
        for f in followers:
            f.start()
        time.sleep(0.5)  # every follower holds its connection open
        writer, version, waits = Http(server.url), 1, []
        end = time.monotonic() + SECONDS
        while time.monotonic() < end:
            t0 = time.perf_counter()
            status, body, _ = writer.request("PUT", path, {"version": version, "state": {"n": version}})
            waits.append(time.perf_counter() - t0)
            assert status == 200
            version = body["version"]
            time.sleep(0.05)
        time.sleep(0.5)
        stop.set()
        for f in followers:
            f.join(10)
        assert errors == []
        # a server that gave each open connection a thread of its own would make the save wait for one to
        # time out (5 s of keep-alive), and here they never idle that long
        assert max(waits) < 4.0, f"a save waited {max(waits):.2f} s behind the followers"
        assert connections == [1] * FOLLOWERS  # one keep-alive connection per phone, all along
        assert all(s and s[-1] == version for s in seen)  # every phone saw the last save
        assert all(s == sorted(s) for s in seen)
