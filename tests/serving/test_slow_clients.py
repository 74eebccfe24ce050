"""Slow clients cannot hold the server: connections that send a request line a byte at a time, and
uploads whose body trickles in, wait in waitress's reading thread, never in an application thread,
so a normal phone is answered at once even on one worker with two threads (issue 23: gunicorn's
gthread worker answered 0 of 8 requests in 75 s behind ten such connections). A body that arrives
in pieces still reaches the app whole. bench/bench_http.py measures the same against the old server,
with 200 slow connections and 50 slow uploads."""
from __future__ import annotations

import socket
import time

from serving.servers import ForkedServer, Http

SLOW_LINES, SLOW_UPLOADS = 40, 10


def _open(server: ForkedServer) -> socket.socket:
    host, port = server.url.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=5)


def test_slow_request_lines_and_uploads_leave_the_threads_free(tmp_path):
    with ForkedServer(f"sqlite:///{tmp_path / 's.sqlite3'}", tmp_path / "instance", workers=1, threads=2) as server:
        status, table, _ = Http(server.url).request("POST", "/api/tables", {"game": "two-robots", "players": 2})
        assert status == 201
        path = f"/api/tables/{table['id']}"
        body = b'{"version": 1, "state": {"table": {"notes": "sent a byte at a time"}}}'
        slow: list[socket.socket] = []
        uploads: list[socket.socket] = []
        try:
            for _ in range(SLOW_LINES):
                s = _open(server)
                s.sendall(b"GET /api/hea")  # a request line cut short
                slow.append(s)
            for _ in range(SLOW_UPLOADS):
                s = _open(server)
                s.sendall(f"PUT {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                          f"Content-Length: {len(body)}\r\n\r\n".encode() + body[:1])
                uploads.append(s)
            time.sleep(0.3)
            for s in slow + uploads:  # each sends one more byte: they are slow, not gone
                s.sendall(b"l" if s in slow else body[1:2])

            phone, waits = Http(server.url, timeout=5), []
            for i in range(8):
                t0 = time.perf_counter()
                status, got, _ = phone.request("GET", f"{path}/version" if i % 2 else "/api/health")
                waits.append(time.perf_counter() - t0)
                assert status == 200, got
            # "at once": well under a second on a quiet machine; 3 s leaves room for a loaded one (the first
            # request opens a connection to a freshly forked worker), while a server whose threads the slow
            # connections hold answers none (0 of 8 in 75 s)
            assert max(waits) < 3.0, waits

            # one upload finishes: the app gets the whole body, once, and saves it
            first = uploads.pop(0)
            first.sendall(body[2:])
            answer = first.recv(65536)
            assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
            first.close()
            status, got, _ = phone.request("GET", path)
            assert status == 200 and got["version"] == 2
            assert got["state"]["table"]["notes"] == "sent a byte at a time"
        finally:
            for s in slow + uploads:
                s.close()
