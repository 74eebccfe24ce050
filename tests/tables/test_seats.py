"""Seats and each seat's private state (issue 20; api.md "Additions of round 3"): a phone takes a seat by
name and is that seat on every page; a held seat is taken over only on purpose, and every phone sees it;
a seat's private state reaches its holder alone, goes back with Undo, and never shows in the table's JSON,
its history or its version's ETag. Two Robots hands are the private state (rulebook, Clarifications:
only the number of cards in a hand is public)."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.both_databases

SECRET = {"kind": "attack", "name": "Hushed Walrus 41", "stacks_required": 2, "play": False}


def phones(app, n: int):
    return [app.test_client() for _ in range(n)]


def table(client, game="two-robots", players=3) -> str:
    return client.post("/api/tables", json={"game": game, "players": players}).get_json()["id"]


def test_a_seat_is_taken_by_name_and_named_on_the_table(app):
    a, b, c = phones(app, 3)
    tid = table(a)
    r = a.post(f"/api/tables/{tid}/seats/0", json={"name": "  Ana  "})
    assert r.status_code == 200
    got = r.get_json()
    assert got["seat"] == 0 and got["name"] == "Ana" and len(got["token"]) >= 20
    t = c.get(f"/api/tables/{tid}").get_json()
    assert t["seats"] == [{"seat": 0, "name": "Ana", "claimed": True}, {"seat": 1, "name": "Player 2", "claimed": False},
                          {"seat": 2, "name": "Player 3", "claimed": False}]
    assert got["token"] not in c.get(f"/api/tables/{tid}").get_data(as_text=True)
    assert t["state"]["table"]["names"][0] == "Ana"  # the name replaces "Player 1" everywhere
    # another phone cannot take it quietly; the holder renames itself
    r = b.post(f"/api/tables/{tid}/seats/0", json={"name": "Ben"})
    assert r.status_code == 409 and r.get_json()["holder"] == "Ana"
    r = a.post(f"/api/tables/{tid}/seats/0", json={"name": "Anna"})
    assert r.status_code == 200 and r.get_json()["token"] == got["token"]
    assert c.get(f"/api/tables/{tid}").get_json()["seats"][0]["name"] == "Anna"


def test_bad_seat_and_name_are_400s_naming_the_field(app):
    (a,) = phones(app, 1)
    tid = table(a)
    r = a.post(f"/api/tables/{tid}/seats/7", json={"name": "Ana"})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "seat"
    r = a.post(f"/api/tables/{tid}/seats/0", json={"name": ""})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "name"
    r = a.post(f"/api/tables/{tid}/seats/0", json={"name": "x", "boss": True})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "boss"
    assert a.post("/api/tables/nope/seats/0", json={"name": "Ana"}).status_code == 404


def test_one_seat_per_phone_and_release(app):
    a, b = phones(app, 2)
    tid = table(a)
    a.post(f"/api/tables/{tid}/seats/0", json={"name": "Ana"})
    a.post(f"/api/tables/{tid}/seats/1", json={"name": "Ana"})  # moving seats frees the first
    seats = b.get(f"/api/tables/{tid}").get_json()["seats"]
    assert [s["claimed"] for s in seats] == [False, True, False]
    assert b.delete(f"/api/tables/{tid}/seats/1", json={}).status_code == 403
    assert a.delete(f"/api/tables/{tid}/seats/1", json={}).status_code == 200
    assert not b.get(f"/api/tables/{tid}").get_json()["seats"][1]["claimed"]
    assert b.post(f"/api/tables/{tid}/seats/1", json={"name": "Ben"}).status_code == 200


def test_a_take_over_is_on_purpose_and_seen_by_every_phone(app):
    """A lost phone never locks its seat: another phone takes it over by saying so; the old phone loses
    the seat and its secrets, and every phone's page says the seat moved."""
    a, b, c = phones(app, 3)
    tid = table(a)
    a.post(f"/api/tables/{tid}/seats/0", json={"name": "Ana"})
    v = a.get(f"/api/tables/{tid}").get_json()["version"]
    assert a.put(f"/api/tables/{tid}/seats/0/private", json={"version": v, "state": {"hand": [SECRET]}}).status_code == 200
    r = b.post(f"/api/tables/{tid}/seats/0", json={"name": "Ana", "take_over": True})
    assert r.status_code == 200 and r.get_json()["took_over_from"] == "Ana"
    assert a.get(f"/api/tables/{tid}/seats/0/private").status_code == 403
    assert b.get(f"/api/tables/{tid}/seats/0/private").get_json()["state"]["hand"][0]["name"] == SECRET["name"]
    for phone in (a, b, c):
        page = phone.get(f"/two-robots/factory?table={tid}").get_data(as_text=True)
        assert "seat moved to another phone" in page
    assert "took over your seat" in a.get(f"/two-robots/factory?table={tid}").get_data(as_text=True)


def test_private_state_is_the_holders_alone(app):
    a, b, c = phones(app, 3)
    tid = table(a)
    a.post(f"/api/tables/{tid}/seats/0", json={"name": "Ana"})
    b.post(f"/api/tables/{tid}/seats/1", json={"name": "Ben"})
    v = a.get(f"/api/tables/{tid}").get_json()["version"]
    r = a.put(f"/api/tables/{tid}/seats/0/private", json={"version": v, "state": {"hand": [SECRET], "drawn": []}})
    assert r.status_code == 200 and r.get_json()["version"] == v + 1
    # stale version: 409; someone else: 403; a bad card: 400 naming it
    assert a.put(f"/api/tables/{tid}/seats/0/private", json={"version": v, "state": {}}).status_code == 409
    assert b.put(f"/api/tables/{tid}/seats/0/private", json={"version": v + 1, "state": {}}).status_code == 403
    bad = a.put(f"/api/tables/{tid}/seats/0/private", json={"version": v + 1, "state": {"hand": [{"kind": "magic"}]}})
    assert bad.status_code == 400 and bad.get_json()["error"]["fields"][0]["path"].startswith("state.hand[0]")
    got = a.get(f"/api/tables/{tid}/seats/0/private").get_json()
    assert got["version"] == v + 1 and got["state"]["hand"][0]["name"] == SECRET["name"]
    for phone in (b, c):
        assert phone.get(f"/api/tables/{tid}/seats/0/private").status_code == 403
        for url in (f"/api/tables/{tid}", f"/api/tables/{tid}/history?limit=100", f"/api/tables/{tid}/version"):
            r = phone.get(url)
            assert SECRET["name"] not in r.get_data(as_text=True) and SECRET["name"] not in str(r.headers)
    # the count the rules make public is public
    assert c.get(f"/api/tables/{tid}").get_json()["state"]["two_robots"]["players"][0]["hand_count"] == 1
    # with the X-Tablebot-Seat header instead of the cookie (an API client)
    token = b.post(f"/api/tables/{tid}/seats/1", json={"name": "Ben"}).get_json()["token"]
    fresh = app.test_client()
    assert fresh.get(f"/api/tables/{tid}/seats/1/private", headers={"X-Tablebot-Seat": token}).status_code == 200
    assert fresh.get(f"/api/tables/{tid}/seats/0/private", headers={"X-Tablebot-Seat": token}).status_code == 403


def test_a_hand_put_into_the_public_state_is_never_stored(app):
    (a,) = phones(app, 1)
    tid = table(a)
    state = {"two_robots": {"players": [{"stacks": [], "hand": [SECRET]}]}}
    assert a.put(f"/api/tables/{tid}", json={"version": 1, "state": state}).status_code == 200
    engine = app.extensions["tablebot_db"]
    from sqlalchemy import text
    with engine.connect() as conn:
        rows = [str(r[0]) for r in conn.execute(text("SELECT CAST(state AS TEXT) FROM table_versions"))]
        rows += [str(r[0]) for r in conn.execute(text("SELECT CAST(state AS TEXT) FROM seat_private"))]
    assert not any(SECRET["name"] in r for r in rows)


def test_undo_takes_a_hand_back_with_the_table(app):
    """Play a Part card from the hand onto a new stack, then Undo: the card is back in the hand (private)
    and off the factory (public), in one step."""
    (a,) = phones(app, 1)
    tid = table(a, players=2)
    a.post(f"/api/tables/{tid}/seats/0", json={"name": "Ana"})
    v = a.get(f"/api/tables/{tid}").get_json()["version"]
    head = {"kind": "part", "part": "head", "energies": ["solar"]}
    a.put(f"/api/tables/{tid}/seats/0/private", json={"version": v, "state": {"hand": [head]}})
    r = a.post(f"/two-robots/factory?table={tid}", data={"table": tid, "version": str(v + 1), "do": "play:head:s|new"})
    assert r.status_code == 200
    t = a.get(f"/api/tables/{tid}").get_json()
    assert t["state"]["two_robots"]["players"][0]["stacks"][0]["cards"] == [{"part": "head", "energies": ["solar"]}]
    assert a.get(f"/api/tables/{tid}/seats/0/private").get_json()["state"]["hand"] == []
    assert a.post(f"/api/tables/{tid}/undo", json={"version": t["version"]}).status_code == 200
    t = a.get(f"/api/tables/{tid}").get_json()
    assert t["state"]["two_robots"]["players"][0].get("stacks", []) == []
    assert a.get(f"/api/tables/{tid}/seats/0/private").get_json()["state"]["hand"][0]["part"] == "head"


def test_a_seat_given_up_with_its_hand_is_announced_when_taken_again(app):
    """Giving a seat up keeps its hand with the seat; whoever sits there next is announced like a take-over,
    so a friend cannot read the hand unseen by claiming the seat once it is free."""
    a, b = phones(app, 2)
    tid = table(a)
    a.post(f"/api/tables/{tid}/seats/0", json={"name": "Ana"})
    v = a.get(f"/api/tables/{tid}").get_json()["version"]
    a.put(f"/api/tables/{tid}/seats/0/private", json={"version": v, "state": {"hand": [SECRET]}})
    assert a.delete(f"/api/tables/{tid}/seats/0", json={}).status_code == 200
    r = b.post(f"/api/tables/{tid}/seats/0", json={"name": "Ana"})
    assert r.status_code == 200 and r.get_json()["took_over_from"] == "Ana"
    assert "seat moved to another phone" in a.get(f"/two-robots/factory?table={tid}").get_data(as_text=True)
    # a seat given up with nothing secret is simply free
    b.post(f"/api/tables/{tid}/seats/2", json={"name": "Bo"})
    b.delete(f"/api/tables/{tid}/seats/2", json={})
    assert "took_over_from" not in a.post(f"/api/tables/{tid}/seats/2", json={"name": "Cy"}).get_json()


def test_a_hand_put_in_the_public_state_changes_no_count(app):
    (a,) = phones(app, 1)
    tid = table(a)
    state = {"two_robots": {"players": [{}, {}, {"hand": [SECRET], "stacks": []}]}}
    a.put(f"/api/tables/{tid}", json={"version": 1, "state": state})
    seat = a.get(f"/api/tables/{tid}").get_json()["state"]["two_robots"]["players"][2]
    assert "hand" not in seat and seat.get("hand_count") is None
