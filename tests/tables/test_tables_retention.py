"""Bounded storage (issue 23), on SQLite and PostgreSQL: a storage budget per address (a 413 that says
so, for new tables and saves, while other addresses go on), what a table holds counted exactly after
old versions are let go, idle tables expire with everything kept with them, and on PostgreSQL the room
of deleted versions is reused (VACUUM) instead of the versions table growing on."""
from __future__ import annotations

import random
import string

import pytest
from sqlalchemy import func, select, text, update

from assistant import create_app, db
from assistant.tables import retention

KIB = 1024


def _app(url: str, **config):
    return create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "test", **config})


def _noise(size: int, rng: random.Random) -> str:
    """Text that does not compress: what PostgreSQL keeps of it is about its length."""
    return "".join(rng.choices(string.ascii_letters + string.digits, k=size))


def _usage(engine, table_id: str) -> tuple[str | None, int]:
    with engine.connect() as conn:
        row = conn.execute(select(retention.table_usage.c.owner, retention.table_usage.c.bytes)
                           .where(retention.table_usage.c.table_id == table_id)).one()
        return row.owner, int(row.bytes)


def test_an_address_over_its_budget_gets_a_413_that_says_so_and_others_go_on(db_url):
    app = _app(db_url, ADDRESS_STORAGE_BUDGET=150 * KIB, TABLE_EXPIRE_DAYS=30)
    here = app.test_client()
    there = app.test_client()
    there.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    table = here.post("/api/tables", json={"game": "two-robots", "players": 2}).get_json()
    rng, version, status = random.Random(1), 1, 200
    for _ in range(10):
        r = here.put(f"/api/tables/{table['id']}", json={"version": version, "state": {"n": _noise(40 * KIB, rng)}})
        status = r.status_code
        if status != 200:
            break
        version = r.get_json()["version"]
    assert status == 413 and version == 4  # 3 x 40 KiB kept fit in 150 KiB; the fourth is refused
    error = r.get_json()["error"]
    assert error["code"] == "too_large" and "budget of 0.1 MiB per address" in error["message"]
    assert "started from this address" in error["message"] and "30 days" in error["message"]
    assert here.get(f"/api/tables/{table['id']}").get_json()["version"] == 4  # the refused save left nothing
    assert here.post("/api/tables", json={"game": "robotariat", "players": 3}).status_code == 201  # still room
    app.config["ADDRESS_STORAGE_BUDGET"] = 100 * KIB  # the server's keeper lowers the budget: no new table
    assert here.post("/api/tables", json={"game": "robotariat", "players": 3}).status_code == 413
    page = here.post("/tables", data={"game": "robotariat", "players": "3"})  # the home page's form
    assert page.status_code == 413 and b"started from this address" in page.data

    # another address has its own budget, also when it saves to a table of its own
    mine = there.post("/api/tables", json={"game": "two-robots", "players": 2})
    assert mine.status_code == 201
    assert there.put(f"/api/tables/{mine.get_json()['id']}", json={"version": 1, "state": {"n": "x"}}).status_code == 200
    assert _usage(app.extensions["tablebot_db"], table["id"])[0] == "127.0.0.1"
    app.extensions["tablebot_db"].dispose()


def test_what_a_table_holds_is_counted_exactly_once_old_versions_go(db_url):
    app = _app(db_url, TABLE_KEEP_BYTES=100 * KIB, TABLE_KEEP_MIN_VERSIONS=3, TABLE_PRUNE_EVERY=5)
    client, engine = app.test_client(), app.extensions["tablebot_db"]
    table = client.post("/api/tables", json={"game": "two-robots", "players": 2}).get_json()
    rng, version = random.Random(2), 1
    for _ in range(23):
        r = client.put(f"/api/tables/{table['id']}", json={"version": version, "state": {"n": _noise(20 * KIB, rng)}})
        assert r.status_code == 200
        version = r.get_json()["version"]
        with engine.connect() as conn:
            kept = retention.kept_bytes(conn, table["id"])
        owner, counted = _usage(engine, table["id"])
        if version % 5 == 0:  # just pruned: counted again from what is kept
            assert counted == kept, (version, counted, kept)
        else:  # between prunes: what is kept, give or take the JSON spacing of each new state
            assert abs(counted - kept) <= 16 * 5, (version, counted, kept)
    assert kept < 180 * KIB  # 100 KiB of budget plus the three Undo keeps, not 23 x 20 KiB
    engine.dispose()


def test_idle_tables_expire_with_all_they_kept(db_url):
    app = _app(db_url, TABLE_EXPIRE_DAYS=30)
    client, engine = app.test_client(), app.extensions["tablebot_db"]
    old = client.post("/api/tables", json={"game": "robotariat", "players": 3}).get_json()
    assert client.put(f"/api/tables/{old['id']}", json={"version": 1, "state": {"n": 1}}).status_code == 200
    fresh = client.post("/api/tables", json={"game": "robotariat", "players": 3}).get_json()
    from datetime import UTC, datetime, timedelta

    with engine.begin() as conn:  # nobody saved to `old` for 31 days
        conn.execute(update(db.versions).where(db.versions.c.table_id == old["id"])
                     .values(at=datetime.now(UTC) - timedelta(days=31)))
    assert retention.expire_idle(engine, 0) == 0  # 0 days: tables never expire
    assert retention.expire_idle(engine, 32) == 0
    assert retention.expire_idle(engine, 30) == 1
    assert client.get(f"/api/tables/{old['id']}").status_code == 404
    assert client.get(f"/api/tables/{fresh['id']}").status_code == 200
    with engine.connect() as conn:
        for table, column in retention._dependents():
            assert conn.execute(select(func.count()).where(column == old["id"])).scalar_one() == 0, table.name
    engine.dispose()


def test_expiry_is_settable_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("TABLEBOT_TABLE_EXPIRE_DAYS", "7")
    monkeypatch.setenv("TABLEBOT_ADDRESS_STORAGE_BUDGET", "1048576")
    app = _app(f"sqlite:///{tmp_path / 'e.sqlite3'}")
    assert app.config["TABLE_EXPIRE_DAYS"] == 7 and app.config["ADDRESS_STORAGE_BUDGET"] == 1048576
    app.extensions["tablebot_db"].dispose()


def test_housekeeping_vacuums_once_enough_was_freed(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(retention, "vacuum", lambda engine: calls.append(engine) or True)
    monkeypatch.setattr(retention, "_freed", [0])
    monkeypatch.setattr(retention, "_last_vacuum", [0.0])
    monkeypatch.setattr(retention, "_last_expiry", [float("inf")])  # no expiry sweep here
    engine = object()
    retention.note_freed(retention.VACUUM_AFTER_BYTES - 1)
    retention.housekeeping(engine, 30)
    assert calls == []
    retention.note_freed(1)
    retention.housekeeping(engine, 30)
    assert calls == [engine] and retention._freed == [0]


@pytest.mark.slow
def test_postgresql_reuses_the_room_of_let_go_versions(postgres, monkeypatch):
    # only this test's VACUUMs, each asserted to have run. Autovacuum is off on the table: where it passed in the middle
    # of the first 200 writes, the later ones reused the first pages, so the first VACUUM could cut the table's end off
    # (1.4 MB) where a round with no such pass leaves the kept versions last and nothing to cut (11 MB); the full suite
    # twice failed so. Without it the kept room is the first round's, about 11 MB, and 40 MB without any reuse
    monkeypatch.setattr(retention, "VACUUM_AFTER_BYTES", 1 << 60)
    app = _app(postgres.new_database(), TABLE_KEEP_BYTES=200 * KIB, TABLE_KEEP_MIN_VERSIONS=2, TABLE_WRITE_LIMIT=10**6)
    client, engine = app.test_client(), app.extensions["tablebot_db"]
    with engine.begin() as conn:
        conn.execute(text("ALTER TABLE table_versions SET (autovacuum_enabled = false, toast.autovacuum_enabled = false)"))
    table = client.post("/api/tables", json={"game": "two-robots", "players": 2}).get_json()
    rng, version = random.Random(3), 1

    def write(count: int) -> None:
        nonlocal version
        for _ in range(count):
            r = client.put(f"/api/tables/{table['id']}", json={"version": version, "state": {"n": _noise(50 * KIB, rng)}})
            assert r.status_code == 200
            version = r.get_json()["version"]

    def on_disk() -> int:
        with engine.connect() as conn:
            return int(conn.execute(text("SELECT pg_total_relation_size('table_versions')")).scalar_one())

    write(200)  # 10 MiB written, about 300 KiB kept
    assert retention.vacuum(engine) is True
    first = on_disk()
    for _ in range(3):
        write(200)
        assert retention.vacuum(engine) is True
    def holding() -> list:  # (what might keep VACUUM from freeing: sessions with an old snapshot, dead rows left)
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text(
                "SELECT datname, state, backend_xmin::text, backend_xid::text, left(query, 60) FROM pg_stat_activity "
                "WHERE backend_xmin IS NOT NULL OR backend_xid IS NOT NULL"))] + [tuple(r) for r in conn.execute(text(
                    "SELECT relname, n_dead_tup, n_live_tup FROM pg_stat_user_tables WHERE relname = 'table_versions'"))]

    # the next 30 MiB went into the room the first VACUUM gave back, not onto the end of the table
    assert on_disk() < first * 1.5 + 2 * 1024 * KIB, (first, on_disk(), holding())
    engine.dispose()


def test_forecasts_nobody_added_games_to_for_as_long_as_idle_tables_go_with_the_sweep(tmp_path, monkeypatch):
    """The Robotariat forecasts' kept games (api.md "Robotariat forecast") are bounded too: the sweep that
    deletes idle tables deletes the forecasts last saved as long ago, and keeps the others; 0 days keeps all."""
    import time

    from assistant.robotariat import forecast_store

    app = _app(f"sqlite:///{tmp_path / 'f.sqlite3'}")
    engine = app.extensions["tablebot_db"]
    assert forecast_store.expire_idle in app.extensions["tablebot_expiring"]
    forecast_store.save(engine, "old", [("success", 3, 40)])
    forecast_store.save(engine, "new", [("time", 6, 12), ("success", 5, 41)])
    with engine.begin() as conn:
        conn.execute(update(forecast_store.forecasts).where(forecast_store.forecasts.c.key == "old")
                     .values(at=time.time() - 31 * 86400))
    assert forecast_store.expire_idle(engine, 0) == 0
    monkeypatch.setattr(retention, "_last_expiry", [float("-inf")])  # a sweep is due
    client = app.test_client()
    response = client.get("/api/health")
    assert response.status_code == 200
    response.close()  # the sweep runs once the answer has gone out
    assert forecast_store.load(engine, "old") == []
    assert forecast_store.load(engine, "new") == [("time", 6, 12), ("success", 5, 41)]
    engine.dispose()
