"""Tables (api.md "Tables"): create, join by id or code, versions, conflicts, undo, history, restarts."""
from __future__ import annotations

import threading

import pytest

from assistant import create_app
from assistant.tables import store as table_store

pytestmark = pytest.mark.both_databases  # the store's versions must hold on PostgreSQL as on SQLite


def undo(client, t: dict, **body):
    """POST /api/tables/<id>/undo as Tablebot.api sends it (JSON, even with an empty body)."""
    if body:
        return client.post(f"/api/tables/{t['id']}/undo", json=body)
    return client.post(f"/api/tables/{t['id']}/undo", content_type="application/json")


def new_table(client, game="raising-robots", players=3) -> dict:
    r = client.post("/api/tables", json={"game": game, "players": players})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_create_gives_an_unguessable_id_and_a_short_code(client):
    t = new_table(client)
    assert t["version"] == 1 and t["state"] == {} and t["game"] == "raising-robots" and t["players"] == 3
    assert len(t["id"]) >= 22  # 16 random bytes in URL-safe base64: 128 bits
    assert len(t["code"]) <= 8 and t["code"].isalnum()
    assert new_table(client)["id"] != t["id"]


@pytest.mark.parametrize("game,players", [("raising-robots", 1), ("raising-robots", 6), ("robotariat", 3),
                                          ("robotariat", 5), ("two-robots", 2), ("two-robots", 5)])
def test_player_counts_each_game_allows(client, game, players):
    new_table(client, game, players)


@pytest.mark.parametrize("game,players", [("robotariat", 2), ("robotariat", 6), ("two-robots", 1), ("raising-robots", 0),
                                          ("raising-robots", 7)])
def test_player_counts_out_of_range_name_the_field(client, game, players):
    r = client.post("/api/tables", json={"game": game, "players": players})
    assert r.status_code == 400
    assert r.get_json()["error"]["fields"][0]["path"] == "players"


def test_unknown_game_names_the_field(client):
    r = client.post("/api/tables", json={"game": "chess", "players": 2})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "game"


def test_get_by_id_and_by_code_in_any_case(client):
    t = new_table(client)
    assert client.get(f"/api/tables/{t['id']}").get_json()["id"] == t["id"]
    assert client.get(f"/api/tables/{t['code'].lower()}").get_json()["id"] == t["id"]
    assert client.get("/api/tables/" + "x" * 22).status_code == 404


def test_put_with_the_version_read_then_a_stale_put_is_a_409_with_the_current_table(client):
    t = new_table(client)
    r = client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": {"table": {"round": 2}}})
    assert r.status_code == 200 and r.get_json()["version"] == 2
    stale = client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": {"table": {"round": 9}}})
    assert stale.status_code == 409
    body = stale.get_json()
    assert body["error"]["code"] == "conflict"
    assert body["table"]["version"] == 2 and body["table"]["state"] == {"table": {"round": 2}}


@pytest.mark.parametrize("body,field", [({"state": {}}, "version"), ({"version": 1}, "state"),
                                        ({"version": 1, "state": []}, "state"), ({"version": "x", "state": {}}, "version"),
                                        ({"version": 0, "state": {}}, "version")])
def test_bad_put_bodies_name_the_field(client, body, field):
    t = new_table(client)
    r = client.put(f"/api/tables/{t['id']}", json=body)
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == field


def test_put_to_unknown_table_is_404(client):
    assert client.put("/api/tables/" + "y" * 22, json={"version": 1, "state": {}}).status_code == 404


def test_undo_walks_back_one_change_at_a_time_then_409(client):
    t = new_table(client)
    for v, rnd in ((1, 2), (2, 3)):
        assert client.put(f"/api/tables/{t['id']}", json={"version": v, "state": {"r": rnd}}).status_code == 200
    u1 = undo(client, t)
    assert u1.status_code == 200 and u1.get_json()["state"] == {"r": 2} and u1.get_json()["version"] == 4
    u2 = undo(client, t)
    assert u2.get_json()["state"] == {} and u2.get_json()["version"] == 5
    u3 = undo(client, t)
    assert u3.status_code == 409 and u3.get_json()["error"]["code"] == "nothing_to_undo"


def test_undo_with_a_stale_version_is_a_conflict(client):
    t = new_table(client)
    client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": {"a": 1}})
    r = client.post(f"/api/tables/{t['id']}/undo", json={"version": 1})
    assert r.status_code == 409 and r.get_json()["table"]["version"] == 2


def test_history_keeps_every_version_oldest_first(client):
    t = new_table(client)
    client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": {"a": 1}})
    undo(client, t)
    versions = client.get(f"/api/tables/{t['id']}/history").get_json()["versions"]
    assert [v["version"] for v in versions] == [1, 2, 3]
    assert [v["state"] for v in versions] == [{}, {"a": 1}, {}]
    assert all(v["at"] for v in versions)


def test_two_writers_racing_on_one_version_exactly_one_wins_and_nothing_is_lost(app):
    client = app.test_client()
    t = new_table(client)
    results: dict[int, object] = {}
    barrier = threading.Barrier(8)

    def write(i):
        c = app.test_client()
        barrier.wait()
        results[i] = c.put(f"/api/tables/{t['id']}", json={"version": 1, "state": {"writer": i}})

    threads = [threading.Thread(target=write, args=(i,)) for i in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    codes = sorted(r.status_code for r in results.values())
    assert codes == [200] + [409] * 7
    winner = next(i for i, r in results.items() if r.status_code == 200)
    for r in results.values():
        if r.status_code == 409:  # every loser is told what won, so it can re-apply its change
            assert r.get_json()["table"]["state"] == {"writer": winner}
    history = client.get(f"/api/tables/{t['id']}/history").get_json()["versions"]
    assert [v["state"] for v in history] == [{}, {"writer": winner}]


def test_tables_survive_a_restart_of_the_app_on_the_same_database(db_url):
    url = db_url
    first = create_app({"TESTING": True, "DATABASE_URL": url})
    t = new_table(first.test_client())
    first.test_client().put(f"/api/tables/{t['id']}", json={"version": 1, "state": {"kept": True}})
    first.extensions["tablebot_db"].dispose()
    second = create_app({"TESTING": True, "DATABASE_URL": url})
    got = second.test_client().get(f"/api/tables/{t['code']}").get_json()
    assert got["id"] == t["id"] and got["version"] == 2 and got["state"] == {"kept": True}
    second.extensions["tablebot_db"].dispose()


def test_failed_code_lookups_are_rate_limited_but_ids_still_work(app):
    app.config["CODE_LOOKUP_LIMIT"] = 5
    client = app.test_client()
    t = new_table(client)
    for _ in range(5):
        assert client.get("/api/tables/ZZZZZZ").status_code == 404
    blocked = client.get(f"/api/tables/{t['code']}")
    assert blocked.status_code == 429 and blocked.get_json()["error"]["code"] == "too_many_requests"
    assert client.get(f"/api/tables/{t['id']}").status_code == 200


def test_codes_use_only_unambiguous_characters(app):
    with app.app_context():
        from assistant.db import engine
        codes = {table_store.create(engine(), "robotariat", 3).code for _ in range(40)}
    assert all(set(c) <= set(table_store.CODE_ALPHABET) for c in codes)
    assert not set("01OIL") & set(table_store.CODE_ALPHABET)


def test_history_limit_gives_the_newest_versions_oldest_first(client):
    t = new_table(client)
    for v in range(1, 6):
        client.put(f"/api/tables/{t['id']}", json={"version": v, "state": {"n": v}})
    got = client.get(f"/api/tables/{t['id']}/history?limit=2").get_json()["versions"]
    assert [v["version"] for v in got] == [5, 6]
    bad = client.get(f"/api/tables/{t['id']}/history?limit=0")
    assert bad.status_code == 400 and bad.get_json()["error"]["fields"][0]["path"] == "limit"


def test_apply_change_reapplies_a_change_on_the_newer_state(app):
    from assistant.db import engine
    with app.app_context():
        t = table_store.create(engine(), "two-robots", 2, {"a": 1})
        calls = []

        def add_b(state):
            calls.append(dict(state))
            if len(calls) == 1:  # another phone saves while this change is being made
                table_store.put(engine(), t.id, 1, {"a": 2})
            state["b"] = 1
            return state

        done = table_store.apply_change(engine(), t.id, add_b)
        assert done.state == {"a": 2, "b": 1, "format": 2} and done.version == 3  # both changes kept
        assert calls == [{"a": 1, "format": 2}, {"a": 2, "format": 2}]


def test_deep_json_is_a_400(client):
    r = client.post("/api/tables", data="[" * 20000 + "]" * 20000, content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "bad_json"


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_non_json_numbers_are_a_400_naming_the_field(client, number):
    r = client.post("/api/tables", data='{"game": "robotariat", "players": ' + number + '}',
                    content_type="application/json")
    assert r.status_code == 400
    assert r.get_json()["error"]["fields"] == [{"path": "players", "message": "must be a finite number"}]
