"""`tablebot` serves with gunicorn and waitress (several workers, threads, keep-alive), the development server only
with --debug; several servers started at once on one empty database all come up (the schema is made
once, under a lock), and what they stored is there after a restart. The real console script, both
databases."""
from __future__ import annotations

import gc
import http.client
import time
from pathlib import Path

import pytest
from serving.servers import Http, Tablebot

from assistant import cli


def test_help_names_the_server_options(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    for option in ("--workers", "--threads", "--debug", "--host", "--port"):
        assert option in out


@pytest.fixture
def unfreeze():
    yield
    gc.unfreeze()  # build_app froze the test process's objects; give them back to the collector


def test_production_server_by_default_development_server_only_with_debug(monkeypatch, tmp_path, unfreeze):
    calls = []
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'cli.sqlite3'}")
    monkeypatch.setattr(cli, "serve", lambda app, bind, workers, threads: calls.append(("gunicorn", bind, workers,
                                                                                          threads)))
    cli.main(["--port", "5099", "--workers", "3", "--threads", "2"])
    assert calls == [("gunicorn", ["127.0.0.1:5099"], 3, 2)]
    cli.main(["--bind", "unix:/run/tablebot.sock", "--bind", "fd://3"])  # behind a proxy, or a socket given
    assert calls[-1][1] == ["unix:/run/tablebot.sock", "fd://3"]

    ran = []
    from flask import Flask

    monkeypatch.setattr(Flask, "run", lambda self, **kw: ran.append((self.debug, kw)))
    cli.main(["--debug", "--port", "5098"])
    assert ran and ran[0][0] is True and ran[0][1]["port"] == 5098
    assert len(calls) == 2  # gunicorn was not started for --debug


def test_bad_worker_counts_are_refused(capsys, unfreeze):
    with pytest.raises(SystemExit):
        cli.main(["--workers", "0"])
    assert "--workers" in capsys.readouterr().err


def test_the_app_is_built_once_then_frozen_for_the_garbage_collector(tmp_path, unfreeze):
    gc.unfreeze()
    app = cli.build_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'gc.sqlite3'}", "SECRET_KEY": "test"})
    assert gc.get_freeze_count() > 0
    # the first process keeps no connection for its workers to inherit
    assert app.extensions["tablebot_db"].pool.checkedin() == 0


def test_gunicorn_settings_read_requests_with_waitress_and_use_threads():
    options = cli.gunicorn_options(["127.0.0.1:5000"], 2, 4)
    assert options["worker_class"] == "assistant.serving.WaitressWorker"
    assert options["threads"] == 4 and options["workers"] == 2 and options["preload_app"] is True
    # far above waitress's default of 100: a room of phones, slow ones included, is not turned away
    assert options["worker_connections"] >= 500


def test_servers_started_at_once_on_an_empty_database_all_come_up_and_keep_data_over_a_restart(db_url, tmp_path):
    url = db_url
    # two servers of two workers each, at the same moment, on one database that has no tables yet
    # (test_schema_race.py races eight processes on the schema itself, many times)
    servers = [Tablebot(url, tmp_path / f"i{n}", "--workers", "2", "--threads", "2") for n in range(2)]
    try:
        for s in servers:
            s.wait()
        ids = []
        for s in servers:
            status, table, _ = Http(s.url).request("POST", "/api/tables", {"game": "robotariat", "players": 3})
            assert status == 201
            status, _, _ = Http(s.url).request("PUT", f"/api/tables/{table['id']}",
                                               {"version": 1, "state": {"from": s.port}})
            assert status == 200
            ids.append((table["id"], s.port))
        out = servers[0].output()
        assert "WaitressWorker" in out and "Booting worker" in out and "development server" not in out.lower()
    finally:
        for s in servers:
            s.terminate()
        codes = [s.stop() for s in servers]
    for s in servers:
        assert "Worker failed to boot" not in s.output() and "already exists" not in s.output(), s.output()
    assert codes == [0, 0], [s.output() for s in servers]

    again = Tablebot(url, tmp_path / "again", "--workers", "2", "--threads", "2").wait()
    try:
        client = Http(again.url)
        for table_id, port in ids:
            status, got, _ = client.request("GET", f"/api/tables/{table_id}")
            assert status == 200 and got["version"] == 2 and got["state"] == {"from": port}
    finally:
        assert again.stop() == 0


def test_keep_alive_gzip_and_no_version_banner(tmp_path):
    server = Tablebot(f"sqlite:///{tmp_path / 'h.sqlite3'}", tmp_path / "h", "--workers", "1", "--threads", "2").wait()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        socks = set()
        for path in ("/api/health", "/", "/rules"):
            conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
            r = conn.getresponse()
            body = r.read()
            assert r.status == 200
            socks.add(id(conn.sock))  # http.client opens a new socket when the server closed the old one
            server_header = r.getheader("Server", "")
            assert not any(ch.isdigit() for ch in server_header), server_header  # no version to look up
            if path != "/api/health":
                assert r.getheader("Content-Encoding") == "gzip" and body[:2] == b"\x1f\x8b"
        assert len(socks) == 1 and conn.sock is not None  # one connection for all three
        conn.close()
    finally:
        server.stop()


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def test_each_worker_has_a_second_process_for_the_forecast_and_it_goes_with_the_worker(tmp_path, monkeypatch):
    """Issue 25 (a forecast on the first view): on a machine with two cores or more each worker starts its
    own process for the Robotariat forecast's games (solvers/robotariat/games_helper.py); a forecast on the
    example board plays games there too, and the process ends when the server stops."""
    import os

    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: the app plays every game in the worker")
    monkeypatch.setenv("TABLEBOT_GAMES_HELPER", "always")  # (used even while other processes keep the cores busy)
    server = Tablebot(f"sqlite:///{tmp_path / 'g.sqlite3'}", tmp_path / "g", "--workers", "1", "--threads", "2").wait()
    helpers: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while not helpers and time.monotonic() < deadline:
            helpers = [h for w in _children(server.proc.pid) for h in _children(w)
                       if "solvers.robotariat.games_helper" in _cmdline(h)]
            time.sleep(0.1)
        assert len(helpers) == 1, [(_cmdline(w), _children(w)) for w in _children(server.proc.pid)]
        # it imports the solvers, then waits for games: counted from when its CPU time stops growing (1 s
        # unchanged), so that the import's own CPU time is not taken for games (capped at 30 s)
        before, still, deadline = _cpu_ticks(helpers[0]), 0, time.monotonic() + 30
        while still < 2 and time.monotonic() < deadline:
            time.sleep(0.5)
            now = _cpu_ticks(helpers[0])
            still, before = (still + 1 if now == before else 0), now
        state = {"oppressors": [], "civilians": [], "active": 0, "junk": 0, "funds": 0, "reputation": 5,
                 "office": 0, "round": 1,
                 "players": [{"name": n, "at": "sy"} for n in ("Ann", "Bo", "Cy", "Di", "Ed")]}
        # forecasts (a new one each: another seed) until it played at least 0.1 s of games: on a loaded machine
        # it may get little of a 300 ms forecast, or none while it is not ready yet (capped at 30 s)
        played, seed, deadline = 0, 0, time.monotonic() + 30
        while played < 10 and time.monotonic() < deadline:
            status, out, _ = Http(server.url).request(
                "POST", "/api/robotariat/game-forecast", {"players": 5, "state": state, "seed": seed, "budget_ms": 300})
            assert status == 200 and out["method"] == "monte_carlo" and out["runs"] > 0, out
            played, seed = _cpu_ticks(helpers[0]) - before, seed + 1
        assert played >= 10, (played, seed)  # at least 0.1 s of games played there
    finally:
        assert server.stop() == 0
    deadline = time.monotonic() + 10
    while helpers and Path(f"/proc/{helpers[0]}").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not Path(f"/proc/{helpers[0]}/cmdline").exists() or "games_helper" not in _cmdline(helpers[0])


def test_the_second_process_is_set_from_the_environment(monkeypatch, tmp_path):
    """TABLEBOT_GAMES_HELPER: off, on (while a core is idle), always; by default on with two cores or more."""
    from assistant import create_app
    from solvers.robotariat import games_helper

    config = {"DATABASE_URL": f"sqlite:///{tmp_path / 'e.sqlite3'}", "SECRET_KEY": "test"}
    assert create_app(config).config["ROBOTARIAT_GAMES_HELPER"] is (games_helper.cores() >= 2)
    for value, want in (("off", False), ("on", True), ("always", "always")):
        monkeypatch.setenv("TABLEBOT_GAMES_HELPER", value)
        assert create_app(config).config["ROBOTARIAT_GAMES_HELPER"] == want
    monkeypatch.setenv("TABLEBOT_GAMES_HELPER", "off")
    assert create_app({**config, "TESTING": True}).config["ROBOTARIAT_GAMES_HELPER"] is False
