"""When the database cannot answer or the disk is full (issue 23): /api/health says so (503, where it
answered 200 "ok"), saves and pages answer 503 with Retry-After and say in players' words what is
wrong (where they answered 500 "Something went wrong on our side"), and all is well again once the
database is back. SQLite (its file gone, its disk full) and PostgreSQL (a server of this module's
own, stopped and restarted under a running production server)."""
from __future__ import annotations

import threading
import time

import pg_cluster
import pytest
from serving.servers import ForkedServer, Http
from sqlalchemy import event

from assistant import create_app


def _app(url: str):
    return create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "test"})


def _assert_waits_for_the_database(r) -> None:
    assert r.status_code == 503, r.data[:300]
    assert r.headers["Retry-After"] == "2"


def test_health_and_saves_while_the_sqlite_file_is_gone(tmp_path):
    app = _app(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    client = app.test_client()
    assert client.get("/api/health").get_json() == {"status": "ok", "database": "ok", "storage": "ok"}
    table = client.post("/api/tables", json={"game": "two-robots", "players": 2}).get_json()

    app.extensions["tablebot_db"].dispose()  # the open connections go; new ones find no database
    (tmp_path / "db.sqlite3").rename(tmp_path / "away.sqlite3")
    (tmp_path / "db.sqlite3").mkdir()
    try:
        r = client.get("/api/health")
        _assert_waits_for_the_database(r)
        assert r.get_json() == {"status": "unavailable", "database": "unavailable", "storage": "ok"}
        r = client.put(f"/api/tables/{table['id']}", json={"version": 1, "state": {"notes": "kept"}})
        _assert_waits_for_the_database(r)
        error = r.get_json()["error"]
        assert error["code"] == "database_unavailable" and "sends it again" in error["message"]
        page = client.get(f"/t/{table['id']}")  # a page without its script: an HTML page to come back to
        _assert_waits_for_the_database(page)
        assert b"Try again in a moment" in page.data and b"Something went wrong" not in page.data
        swap = client.post(f"/t/{table['id']}/edit", data={"version": "1"}, headers={"X-Tablebot-Swap": "1"})
        _assert_waits_for_the_database(swap)  # a page's own save gets the JSON it reads
        assert swap.get_json()["error"]["code"] == "database_unavailable"
    finally:
        app.extensions["tablebot_db"].dispose()
        (tmp_path / "db.sqlite3").rmdir()
        (tmp_path / "away.sqlite3").rename(tmp_path / "db.sqlite3")

    assert client.get("/api/health").status_code == 200
    r = client.put(f"/api/tables/{table['id']}", json={"version": 1, "state": {"notes": "kept"}})
    assert r.status_code == 200 and r.get_json()["version"] == 2
    app.extensions["tablebot_db"].dispose()


def test_a_full_disk_is_said_in_players_words_and_health_says_full(tmp_path):
    app = _app(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    client = app.test_client()
    table = client.post("/api/tables", json={"game": "two-robots", "players": 2}).get_json()
    engine = app.extensions["tablebot_db"]

    def no_room(dbapi_connection, _record):  # the database may not grow: SQLite's own "disk is full"
        cur = dbapi_connection.cursor()
        pages = cur.execute("PRAGMA page_count").fetchone()[0]
        cur.execute(f"PRAGMA max_page_count={pages}")
        cur.close()

    event.listen(engine, "connect", no_room)
    engine.dispose()
    big = {"notes": "x" * 40_000}
    r = client.put(f"/api/tables/{table['id']}", json={"version": 1, "state": big})
    assert r.status_code == 503 and r.headers["Retry-After"] == "30"
    error = r.get_json()["error"]
    assert error["code"] == "storage_full"
    assert "disk is full" in error["message"] and "stays on this phone" in error["message"]
    health = client.get("/api/health")
    assert health.status_code == 503 and health.headers["Retry-After"] == "30"
    assert health.get_json() == {"status": "unavailable", "database": "ok", "storage": "full"}

    event.remove(engine, "connect", no_room)  # room again: the same save goes through, health is ok
    engine.dispose()
    r = client.put(f"/api/tables/{table['id']}", json={"version": 1, "state": big})
    assert r.status_code == 200
    assert client.get("/api/health").status_code == 200
    engine.dispose()


def test_health_says_full_when_the_sqlite_disk_has_no_room(tmp_path, monkeypatch):
    from assistant import outages

    app = _app(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    monkeypatch.setattr(outages, "MIN_FREE_BYTES", 1 << 62)  # more than any disk has free
    r = app.test_client().get("/api/health")
    assert r.status_code == 503 and r.get_json()["storage"] == "full"
    app.extensions["tablebot_db"].dispose()


@pytest.fixture(scope="module")
def own_postgres():
    """A PostgreSQL server of this module's own: stopping it must not touch the session's."""
    bindir = pg_cluster.find_bin()
    if bindir is None:
        pytest.fail("Debian's postgresql package is needed (no /usr/lib/postgresql/*/bin/initdb)")
    cluster = pg_cluster.Cluster(bindir).start()
    yield cluster
    cluster.stop()


def test_health_and_saves_while_postgresql_is_stopped(own_postgres):
    app = _app(own_postgres.new_database())
    client = app.test_client()
    assert client.get("/api/health").status_code == 200
    table = client.post("/api/tables", json={"game": "robotariat", "players": 3}).get_json()
    own_postgres.halt()
    try:
        r = client.get("/api/health")
        _assert_waits_for_the_database(r)
        assert r.get_json()["database"] == "unavailable"
        r = client.put(f"/api/tables/{table['id']}", json={"version": 1, "state": {"n": 1}})
        _assert_waits_for_the_database(r)
        assert r.get_json()["error"]["code"] == "database_unavailable"
        _assert_waits_for_the_database(client.get(f"/api/tables/{table['id']}/version"))
    finally:
        own_postgres.resume()
    assert client.get("/api/health").status_code == 200
    r = client.put(f"/api/tables/{table['id']}", json={"version": 1, "state": {"n": 1}})
    assert r.status_code == 200 and r.get_json()["version"] == 2
    app.extensions["tablebot_db"].dispose()


@pytest.mark.slow
def test_a_postgresql_restart_under_the_production_server_is_503_with_retry_after_never_500(own_postgres, tmp_path):
    url = own_postgres.new_database()
    with ForkedServer(url, tmp_path / "instance", workers=2, threads=4) as server:
        setup = Http(server.url)
        status, table, _ = setup.request("POST", "/api/tables", {"game": "two-robots", "players": 2})
        assert status == 201
        path = f"/api/tables/{table['id']}"
        answers: list[tuple[int, str | None]] = []
        stop = threading.Event()

        def phone(i: int) -> None:
            client, version = Http(server.url, timeout=15), 1
            while not stop.is_set():
                try:
                    if i % 2:
                        status, body, headers = client.request("GET", f"{path}/version")
                    else:
                        status, body, headers = client.request("PUT", path, {"version": version, "state": {"p": i}})
                        if status in (200, 409):
                            version = (body if status == 200 else body["table"])["version"]
                except OSError:
                    continue  # a connection the server closed: the phone tries again
                answers.append((status, headers.get("Retry-After")))
                time.sleep(0.02)

        phones = [threading.Thread(target=phone, args=(i,), daemon=True) for i in range(4)]
        for p in phones:
            p.start()
        time.sleep(0.5)
        own_postgres.halt()
        time.sleep(1.0)  # down for a second, as in a restart
        own_postgres.resume()
        time.sleep(1.5)
        stop.set()
        for p in phones:
            p.join(20)

        statuses = [s for s, _ in answers]
        assert 503 in statuses, "the restart was not seen"
        assert all(s in (200, 409) or (s == 503 and retry == "2") for s, retry in answers), \
            sorted(set(answers) - {(200, None), (409, None)})
        assert statuses[-8:] == [s for s in statuses[-8:] if s in (200, 409)]  # all well again after
        assert Http(server.url).request("GET", "/api/health")[0] == 200
