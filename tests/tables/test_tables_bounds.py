"""Issue 16, case 5: nothing a client sends grows without bound. History answers one page at a time;
old versions of big states are let go (keeping at least the newest TABLE_KEEP_MIN_VERSIONS, so Undo
still goes back that far); creating tables and writing to one are limited per client, each a 429 with
Retry-After. The tests set low limits in their own app; the defaults leave the rest of the suite alone."""
from __future__ import annotations

import pytest
from sqlalchemy import text
from tables_helpers import new_table

pytestmark = pytest.mark.both_databases


def save(client, t, v, state):
    return client.put(f"/api/tables/{t['id']}", json={"version": v, "state": state})


def test_history_answers_a_page_by_default_and_pages_back(client):
    t = new_table(client)
    for v in range(1, 46):
        assert save(client, t, v, {"n": v}).status_code == 200
    first = client.get(f"/api/tables/{t['id']}/history").get_json()
    assert [v["version"] for v in first["versions"]] == list(range(27, 47))  # the newest 20, oldest first
    assert first["older"] == 27
    second = client.get(f"/api/tables/{t['id']}/history?before=27").get_json()
    assert [v["version"] for v in second["versions"]] == list(range(7, 27)) and second["older"] == 7
    last = client.get(f"/api/tables/{t['id']}/history?before=7&limit=100").get_json()
    assert [v["version"] for v in last["versions"]] == list(range(1, 7)) and last["older"] is None


@pytest.mark.parametrize("query", ["limit=101", "limit=0", "limit=-1", "limit=\u00b3", "before=0", "before=x",
                                   "limit=" + "9" * 5000])
def test_history_refuses_pages_past_the_cap_naming_the_field(client, query):
    t = new_table(client)
    r = client.get(f"/api/tables/{t['id']}/history?{query}")
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == query.split("=")[0]


def stored(app, table_id):
    with app.extensions["tablebot_db"].connect() as conn:
        return conn.execute(text("SELECT version FROM table_versions WHERE table_id = :t ORDER BY version"),
                            {"t": table_id}).scalars().all()


def test_old_versions_of_big_states_are_let_go_and_undo_still_goes_back_the_minimum(app, client):
    app.config.update(TABLE_KEEP_BYTES=40_000, TABLE_KEEP_MIN_VERSIONS=5, TABLE_PRUNE_EVERY=1)
    t = new_table(client)
    big = "x" * 10_000
    for v in range(1, 30):
        assert save(client, t, v, {"n": v, "pad": big}).status_code == 200
    kept = stored(app, t["id"])
    # 6 x 10 KB is over 40 KB: only the newest and the 5 versions Undo goes back through are kept
    assert kept == [25, 26, 27, 28, 29, 30]
    for expect in (28, 27, 26, 25, 24):  # version v holds n = v - 1
        r = client.post(f"/api/tables/{t['id']}/undo", content_type="application/json")
        assert r.status_code == 200 and r.get_json()["state"]["n"] == expect
    r = client.post(f"/api/tables/{t['id']}/undo", content_type="application/json")
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "nothing_to_undo"
    assert len(stored(app, t["id"])) <= 7


def test_the_budget_keeps_the_newest_other_versions(app, client):
    app.config.update(TABLE_KEEP_BYTES=65_000, TABLE_KEEP_MIN_VERSIONS=2, TABLE_PRUNE_EVERY=1)
    t = new_table(client)
    for v in range(1, 20):
        save(client, t, v, {"n": v, "pad": "x" * 10_000})
    client.post(f"/api/tables/{t['id']}/undo", content_type="application/json")  # v21 = state of v19
    kept = stored(app, t["id"])
    # the undo path (21 -> 18 -> 17) plus the newest others that fit in 65 KB
    assert {21, 18, 17} <= set(kept) and 20 in kept and 19 in kept and len(kept) == 6


def test_small_states_keep_their_whole_history(app, client):
    app.config.update(TABLE_PRUNE_EVERY=1)
    t = new_table(client)
    for v in range(1, 60):
        save(client, t, v, {"n": v})
    assert stored(app, t["id"]) == list(range(1, 61))


def test_table_creation_is_limited_per_client_with_retry_after(app, client):
    app.config.update(TABLE_CREATE_LIMIT=3, TABLE_CREATE_WINDOW=600)
    for _ in range(2):
        new_table(client)
    assert client.post("/tables", data={"game": "robotariat", "players": "3"}).status_code == 302
    r = client.post("/api/tables", json={"game": "robotariat", "players": 3})
    assert r.status_code == 429 and r.get_json()["error"]["code"] == "too_many_requests"
    assert 590 <= int(r.headers["Retry-After"]) <= 600
    page = client.post("/tables", data={"game": "robotariat", "players": "3"})
    assert page.status_code == 429 and int(page.headers["Retry-After"]) > 0
    other = app.test_client()
    r = other.post("/api/tables", json={"game": "robotariat", "players": 3},
                   environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert r.status_code == 201  # another address is not held up


def test_writes_to_one_table_are_limited_per_client_with_retry_after(app, client):
    app.config.update(TABLE_WRITE_LIMIT=4, TABLE_WRITE_WINDOW=60)
    t, u = new_table(client), new_table(client)
    for v in range(1, 4):
        assert save(client, t, v, {"n": v}).status_code == 200
    assert client.post(f"/api/tables/{t['id']}/undo", content_type="application/json").status_code == 200
    r = save(client, t, 5, {"n": 5})
    assert r.status_code == 429 and 1 <= int(r.headers["Retry-After"]) <= 60
    r = client.post(f"/t/{t['id']}/edit", data={"version": "5", "names.0": "A", "round": "1"})
    assert r.status_code == 429 and 1 <= int(r.headers["Retry-After"]) <= 60
    assert "Too many saves to this table from here" in r.get_data(as_text=True)
    assert client.get(f"/api/tables/{t['id']}").get_json()["version"] == 5  # refused writes wrote nothing
    assert save(client, u, 1, {"n": 1}).status_code == 200  # another table is not held up


def test_the_default_limits_hold_a_busy_real_table(client):
    """Defaults: six phones behind one router save a table every 2 s for a minute, and start 30 tables."""
    tables = [new_table(client) for _ in range(30)]
    t = tables[0]
    for v in range(1, 6 * 30 + 1):
        assert save(client, t, v, {"n": v}).status_code == 200
