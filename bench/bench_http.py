"""Benchmark: the production server as `tablebot` starts it now (gunicorn's master, waitress in each of
2 workers x 4 threads: requests read in full before a thread takes them) against the one it started
before (gunicorn's threaded worker, gthread, 2 workers x 4 threads), over loopback.

Run from the project root:  .venv/bin/python bench/bench_http.py   (about 3 min; BENCH_SECONDS=0.3 for a
quick look)
Both servers run at once, each on its own SQLite file in a temp folder, and take turns. For home,
health, the competitions plan, the NPC turn and a table write, at 1, 8 and 32 clients (each client one
keep-alive connection, requests back to back for BENCH_SECONDS after one warm-up request per client),
three runs per server, prints the median requests/s and p95 latency of each server side by side, with
new / old for requests/s and old / new for p95 (above 1: the new server is better). Then 50 phones
following tables (each asks for its table's version once a second with If-None-Match, and fetches the
table page when the version moved) while one phone saves as fast as it can: the save's requests/s and
p95 alone and with the followers, and what the followers cost. Last, slow clients: 200 connections
that send a partial request line and then a byte every 2 s, and 50 uploads that send their headers and
then a byte of body every 2 s, all held open for SLOW_SECONDS while one normal phone polls its table,
saves and loads its page (each request given 3 s): how many of its requests were answered, and their
p95 (the goal: 95 % answered, p95 under 1 s). All of it on 127.0.0.1, at most 250 slow connections.
The load comes from threads of this process on the same cores as the server: compare the columns,
not the absolute numbers, and run it on a quiet machine.
"""
from __future__ import annotations

import http.client
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SECONDS = float(os.environ.get("BENCH_SECONDS", "1.0"))
REPEATS = 3
CLIENTS = (1, 8, 32)
FOLLOWERS = 50
FOLLOW_SECONDS = max(3.0, 4 * SECONDS)
WORKERS, THREADS = 2, 4
SLOW_CONNECTIONS, SLOW_UPLOADS = 200, 50
SLOW_SECONDS = max(6.0, 12 * SECONDS)
SLOW_DRIP_SECONDS = 2.0
NORMAL_TIMEOUT = 3.0
# the server `tablebot` started before: the same app and gunicorn settings, gunicorn's threaded worker
OLD_SERVER = ("import sys; from assistant import cli; base = cli.gunicorn_options; "
              "cli.gunicorn_options = lambda *a: {**base(*a), 'worker_class': 'gthread', 'keepalive': 5}; "
              "cli.main(sys.argv[1:])")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, name: str, cmd: list[str], port: int, folder: Path):
        self.name, self.port = name, port
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder / (name + '.sqlite3')}",
               "TABLEBOT_INSTANCE": str(folder / name), "SECRET_KEY": "bench",
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               # a load test writes one table from one address far faster than a table of phones
               "TABLEBOT_TABLE_WRITE_LIMIT": "100000000", "TABLEBOT_TABLE_CREATE_LIMIT": "100000000"}
        env.pop("FLASK_DEBUG", None)
        self.log = (folder / f"{name}.log").open("w")
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{name} server exited; see {self.log.name}")
            try:
                if Client(port).call("GET", "/api/health")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"{name} server did not start")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


class Client:
    """One keep-alive connection; reconnects when the server closes it."""

    def __init__(self, port: int, timeout: float = 30):
        self.port, self.timeout = port, timeout
        self.conn: http.client.HTTPConnection | None = None

    def call(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            try:
                self.conn.request(method, path, body=body, headers=headers or {})
                r = self.conn.getresponse()
                data = r.read()
                if r.will_close:
                    self.conn.close()
                    self.conn = None
                return r.status, data, r
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
        raise AssertionError("unreachable")


JSON = {"Content-Type": "application/json", "Accept-Encoding": "gzip"}
PAGE = {"Accept-Encoding": "gzip"}


def plan_body() -> bytes:
    return json.dumps({
        "player": {"inventory": {"gear": 9, "sensor": 2, "battery": 21, "robot_cards": 1},
                   "tokens": {"placed": {"orange": 3}, "unplaced": {"pink": 1}},
                   "robots": [{"row": "design"}] * 4},
        "competitions": [{"criterion": c} for c in ("expo-9-of-one", "mech-13-batteries", "think-3-same-type",
                                                    "race-same-row")]}).encode()


def npc_bodies(count: int = 8) -> list[bytes]:
    """Mid-game tables on the default board, 5 players (as bench_robotariat.py draws them)."""
    from solvers.robotariat.gamedata import DEFAULTS
    from solvers.robotariat.model import TableState
    from solvers.robotariat.report import state_json

    board, rng, bodies = DEFAULTS.board, random.Random(17), []
    for _ in range(count):
        posters = [0] * board.n
        for _ in range(rng.randint(0, 5)):
            posters[rng.randrange(board.n)] += 1
        s = TableState(oppressors=tuple(rng.randrange(board.n) for _ in range(3)),
                       civilians=tuple(rng.randrange(board.n) for _ in range(3)),
                       players=tuple(rng.randrange(board.n) for _ in range(5)), characters=(None,) * 5,
                       posters=tuple(posters), junk=rng.randint(0, 3), funds=rng.randint(5, 60),
                       reputation=rng.randint(1, 7), office=rng.randint(0, 10), entry=rng.randrange(board.n),
                       active=0, round=rng.randint(1, 6))
        st = state_json(board, s)
        st.pop("ended", None)
        bodies.append(json.dumps({"players": 5, "state": st}).encode())
    return bodies


class Scenario:
    """What one client sends, request after request."""

    def __init__(self, name: str, port: int):
        self.name, self.port = name, port

    def prepare(self, client: Client) -> object:
        return None

    def send(self, client: Client, mine, n: int) -> int:
        raise NotImplementedError


class Get(Scenario):
    def __init__(self, name: str, port: int, path: str):
        super().__init__(name, port)
        self.path = path

    def send(self, client, mine, n):
        return client.call("GET", self.path, headers=PAGE)[0]


class Post(Scenario):
    def __init__(self, name: str, port: int, path: str, bodies: list[bytes]):
        super().__init__(name, port)
        self.path, self.bodies = path, bodies

    def send(self, client, mine, n):
        return client.call("POST", self.path, self.bodies[n % len(self.bodies)], JSON)[0]


class TableWrite(Scenario):
    """Each client saves its own table (a compare-and-set on the version it got back last)."""

    def prepare(self, client):
        status, data, _ = client.call("POST", "/api/tables", json.dumps({"game": "two-robots", "players": 2}).encode(),
                                      {"Content-Type": "application/json"})
        assert status == 201, data
        return {"id": json.loads(data)["id"], "version": 1}

    def send(self, client, mine, n):
        body = json.dumps({"version": mine["version"], "state": {"table": {"notes": f"save {n}"}}}).encode()
        status, data, _ = client.call("PUT", f"/api/tables/{mine['id']}", body, {"Content-Type": "application/json"})
        if status == 200:
            mine["version"] = json.loads(data)["version"]
        return status


def drive(scenario: Scenario, clients: int, seconds: float) -> dict:
    """`clients` threads, each sending back to back for `seconds`; requests/s, p95 and failures."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    failures = [0] * clients
    ready, go = threading.Barrier(clients + 1), threading.Event()
    start_at: list[float] = []

    def run(i: int) -> None:
        client = Client(scenario.port)
        mine = scenario.prepare(client)
        scenario.send(client, mine, 0)  # warm-up: connection open, code paths loaded
        ready.wait()
        go.wait()
        end = start_at[0] + seconds
        n = 1
        while time.perf_counter() < end:
            t0 = time.perf_counter()
            status = scenario.send(client, mine, n)
            latencies[i].append(time.perf_counter() - t0)
            failures[i] += status >= 400
            n += 1

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    ready.wait()  # every client has its connection and its warm-up answer
    start_at.append(time.perf_counter())
    go.set()
    for t in threads:
        t.join()
    elapsed = max(seconds, time.perf_counter() - start_at[0])
    samples = sorted(x for lat in latencies for x in lat)
    p95 = samples[int(0.95 * (len(samples) - 1))] if samples else float("nan")
    return {"rps": len(samples) / elapsed, "p95": p95 * 1000, "n": len(samples), "failed": sum(failures)}


def follow(port: int, tables: list[str], stop: threading.Event, stats: dict, lock: threading.Lock, i: int) -> None:
    """One phone following a table: its version every second (304 while unchanged), the page when it moved."""
    client, table, etag = Client(port), tables[i % len(tables)], None
    time.sleep((i % 10) / 10)  # phones are not in step
    while not stop.is_set():
        t0 = time.perf_counter()
        status, _, r = client.call("GET", f"/api/tables/{table}/version",
                                   headers={"If-None-Match": etag} if etag else {})
        took = time.perf_counter() - t0
        fetched = False
        if status == 200:
            etag = r.getheader("ETag")
            client.call("GET", f"/t/{table}", headers=PAGE)
            fetched = True
        with lock:
            stats["polls"].append(took)
            stats["pages"] += fetched
            stats["failed"] += status not in (200, 304)
        stop.wait(max(0.0, 1.0 - (time.perf_counter() - t0)))


def cpu_seconds(pid: int) -> float:
    """CPU time used so far by a process and its children that are alive (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except (OSError, ValueError, IndexError):
        return 0.0
    return own + sum(cpu_seconds(int(c)) for c in children)


def followers_run(port: int, server_pid: int) -> tuple[dict, dict, dict]:
    setup = Client(port)
    tables = []
    for _ in range(FOLLOWERS // 5):  # five phones at each table
        status, data, _ = setup.call("POST", "/api/tables", json.dumps({"game": "two-robots", "players": 2}).encode(),
                                     {"Content-Type": "application/json"})
        tables.append(json.loads(data)["id"])
    write = TableWrite("write", port)
    alone = drive(write, 1, FOLLOW_SECONDS)
    stop, lock = threading.Event(), threading.Lock()
    stats = {"polls": [], "pages": 0, "failed": 0}
    phones = [threading.Thread(target=follow, args=(port, tables, stop, stats, lock, i), daemon=True)
              for i in range(FOLLOWERS)]
    for p in phones:
        p.start()
    time.sleep(1.5)  # every phone is following
    with lock:
        stats["polls"].clear()
        stats["pages"] = 0
    c0, t0 = cpu_seconds(server_pid), time.perf_counter()
    time.sleep(FOLLOW_SECONDS)  # the followers alone: what they cost the server
    idle_cpu = (cpu_seconds(server_pid) - c0) / (time.perf_counter() - t0)
    with lock:
        idle_polls = len(stats["polls"]) / (time.perf_counter() - t0)
        stats["polls"].clear()
        stats["pages"] = 0
    t0 = time.perf_counter()

    class FollowedWrite(TableWrite):  # the saving phone's table is followed by five phones
        def prepare(self, client):
            return {"id": tables[0], "version": json.loads(client.call("GET", f"/api/tables/{tables[0]}")[1])["version"]}

    busy = drive(FollowedWrite("write", port), 1, FOLLOW_SECONDS)
    elapsed = time.perf_counter() - t0
    stop.set()
    for p in phones:
        p.join(5)
    polls = sorted(stats["polls"])
    cost = {"idle_cpu": idle_cpu, "idle_polls": idle_polls, "polls_per_s": len(polls) / elapsed, "poll_p95": polls[int(0.95 * (len(polls) - 1))] * 1000 if polls else 0,
            "pages_per_s": stats["pages"] / elapsed, "failed": stats["failed"]}
    return alone, busy, cost


def slow_clients_run(port: int) -> dict:
    """A normal phone's requests while SLOW_CONNECTIONS slow request lines and SLOW_UPLOADS slow bodies
    are held open: answered / sent, p95 of the answered, and whether the server answers once they close."""
    setup = Client(port)
    status, data, _ = setup.call("POST", "/api/tables", json.dumps({"game": "two-robots", "players": 2}).encode(),
                                 {"Content-Type": "application/json"})
    table = json.loads(data)["id"]
    slow: list[socket.socket] = []
    opened = 0
    try:
        for i in range(SLOW_CONNECTIONS + SLOW_UPLOADS):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            if i < SLOW_CONNECTIONS:
                s.sendall(b"GET /api/tables/" + table.encode()[:8])  # a request line cut short
            else:
                s.sendall((f"PUT /api/tables/{table} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                           "Content-Type: application/json\r\nContent-Length: 16384\r\n\r\n{").encode())
            slow.append(s)
            opened += 1
    except OSError:
        pass  # a server that refuses connections: the phone's figures say what that costs
    stop = threading.Event()

    def drip() -> None:
        n = 0
        while not stop.wait(SLOW_DRIP_SECONDS / 10):
            for s in slow[n % 10::10]:  # each connection a byte every SLOW_DRIP_SECONDS
                try:
                    s.send(b"x")
                except OSError:
                    pass
            n += 1

    dripper = threading.Thread(target=drip, daemon=True)
    dripper.start()
    time.sleep(1.0)  # the slow connections are in
    phone = Client(port, timeout=NORMAL_TIMEOUT)
    sent, answered, latencies, version = 0, 0, [], 1
    end = time.perf_counter() + SLOW_SECONDS
    while time.perf_counter() < end:
        n = sent % 4
        t0 = time.perf_counter()
        try:
            if n == 3:
                body = json.dumps({"version": version, "state": {"table": {"notes": f"save {sent}"}}}).encode()
                status, data, _ = phone.call("PUT", f"/api/tables/{table}", body, {"Content-Type": "application/json"})
                if status == 200:
                    version = json.loads(data)["version"]
            elif n == 2:
                status = phone.call("GET", f"/t/{table}", headers=PAGE)[0]
            else:
                status = phone.call("GET", f"/api/tables/{table}/version")[0]
        except (OSError, http.client.HTTPException):
            status = 0
        took = time.perf_counter() - t0
        sent += 1
        if status and status < 500:
            answered += 1
            latencies.append(took)
        time.sleep(max(0.0, 0.25 - took))
    stop.set()
    dripper.join(5)
    for s in slow:
        s.close()
    time.sleep(0.5)
    try:
        after = Client(port, timeout=10).call("GET", "/api/health")[0]
    except (OSError, http.client.HTTPException):
        after = 0
    latencies.sort()
    return {"opened": opened, "sent": sent, "answered": answered,
            "p95": latencies[int(0.95 * (len(latencies) - 1))] * 1000 if latencies else float("nan"),
            "after": after}


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b and a == a and b == b else "-"


def median_cell(runs: list[dict]) -> dict:
    pick = sorted(runs, key=lambda r: r["rps"])[len(runs) // 2]
    return {"rps": pick["rps"], "p95": sorted(r["p95"] for r in runs)[len(runs) // 2],
            "failed": sum(r["failed"] for r in runs)}


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="tablebot-bench-"))
    tablebot = Path(sys.executable).with_name("tablebot")
    new_cmd = [str(tablebot)] if tablebot.exists() else [sys.executable, "-m", "assistant.cli"]
    sizing = ["--workers", str(WORKERS), "--threads", str(THREADS)]
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {SECONDS} s per run, "
          f"median of {REPEATS} runs, the two servers taking turns")
    print(f"new: tablebot (gunicorn + waitress, {WORKERS} workers x {THREADS} threads); "
          f"old: tablebot with gunicorn's gthread worker ({WORKERS} workers x {THREADS} threads, keep-alive 5 s)")
    plan, npc = [plan_body()], npc_bodies()
    results: dict[tuple[str, str, int], dict] = {}
    follow_results, slow_results = {}, {}
    servers: dict[str, Server] = {}
    try:
        old_port, new_port = free_port(), free_port()
        servers["old"] = Server("old", [sys.executable, "-c", OLD_SERVER, "--port", str(old_port), *sizing],
                                old_port, folder)
        servers["new"] = Server("new", [*new_cmd, "--port", str(new_port), *sizing], new_port, folder)

        def scenarios(port: int) -> list[Scenario]:
            return [Get("GET /", port, "/"), Get("GET /api/health", port, "/api/health"),
                    Post("POST competitions/plan", port, "/api/raising-robots/competitions/plan", plan),
                    Post("POST robotariat/npc-turn", port, "/api/robotariat/npc-turn", npc),
                    TableWrite("PUT /api/tables/<id>", port)]

        both = {name: scenarios(server.port) for name, server in servers.items()}
        for i, first in enumerate(both["old"]):
            for clients in CLIENTS:
                runs: dict[str, list[dict]] = {"old": [], "new": []}
                for _ in range(REPEATS):  # taking turns: a change in the machine's load hits both
                    for name in runs:
                        runs[name].append(drive(both[name][i], clients, SECONDS))
                for name, r in runs.items():
                    results[(name, first.name, clients)] = median_cell(r)
        for name, server in servers.items():
            follow_results[name] = followers_run(server.port, server.proc.pid)
        for name, server in servers.items():
            slow_results[name] = slow_clients_run(server.port)
    finally:
        for server in servers.values():
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)

    print(f"\n{'endpoint':<26}{'clients':>7} | {'req/s old':>9} {'new':>7} {'new/old':>8} | "
          f"{'p95 ms old':>10} {'new':>7} {'old/new':>8}")
    for (name, scenario, clients), o in results.items():
        if name != "old":
            continue
        n = results[("new", scenario, clients)]
        failed = f"  (failed: old {o['failed']}, new {n['failed']})" if o["failed"] or n["failed"] else ""
        print(f"{scenario:<26}{clients:>7} | {o['rps']:9.0f} {n['rps']:7.0f} {ratio(n['rps'], o['rps']):>8} | "
              f"{o['p95']:10.1f} {n['p95']:7.1f} {ratio(o['p95'], n['p95']):>8}{failed}")

    print(f"\n{FOLLOWERS} phones following {FOLLOWERS // 5} tables (version once a second, the page when it "
          f"moved) while one phone saves a followed table back to back, {FOLLOW_SECONDS:.0f} s:")
    for name, (_, _, cost) in follow_results.items():
        print(f"  {name:<4} followers alone: {cost['idle_polls']:.0f} polls/s cost the server "
              f"{100 * cost['idle_cpu']:.1f} % of one core")
    for name, (alone, busy, cost) in follow_results.items():
        print(f"  {name:<4} save alone {alone['rps']:6.0f} req/s p95 {alone['p95']:6.1f} ms | with followers "
              f"{busy['rps']:6.0f} req/s p95 {busy['p95']:6.1f} ms | followers: {cost['polls_per_s']:.0f} polls/s "
              f"(p95 {cost['poll_p95']:.1f} ms), {cost['pages_per_s']:.1f} pages/s, failed {cost['failed']}")

    print(f"\n{SLOW_CONNECTIONS} slow request lines and {SLOW_UPLOADS} slow uploads (a byte every "
          f"{SLOW_DRIP_SECONDS:.0f} s) held open {SLOW_SECONDS:.0f} s; one phone polls, loads its page and saves, "
          f"each request given {NORMAL_TIMEOUT:.0f} s and a second try (goal: 95 % answered, p95 under 1 s):")
    for name, r in slow_results.items():
        share = r["answered"] / r["sent"] if r["sent"] else 0.0
        met = "goal met" if share >= 0.95 and r["p95"] < 1000 else "goal NOT met"
        print(f"  {name:<4} slow connections opened {r['opened']}, phone answered {r['answered']} of {r['sent']} "
              f"({100 * share:.0f} %), p95 {r['p95']:.1f} ms; health once they closed: {r['after'] or 'no answer'}"
              f"  [{met}]")


if __name__ == "__main__":
    main()
