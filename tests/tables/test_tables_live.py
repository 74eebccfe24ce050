"""Following a table: the version endpoint answers 304 while nothing changed (no state is read or sent)."""
from __future__ import annotations


def test_version_is_304_until_another_phone_saves(client):
    t = client.post("/api/tables", json={"game": "two-robots", "players": 2}).get_json()
    first = client.get(f"/api/tables/{t['id']}/version")
    assert first.status_code == 200 and first.get_json() == {"version": 1}
    etag = first.headers["ETag"]
    same = client.get(f"/api/tables/{t['id']}/version", headers={"If-None-Match": etag})
    assert same.status_code == 304 and same.data == b""
    client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": {"table": {"notes": "x"}}})
    moved = client.get(f"/api/tables/{t['id']}/version", headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.get_json() == {"version": 2}
    assert moved.headers["ETag"] != etag


def test_version_of_an_unknown_table_is_404(client):
    r = client.get("/api/tables/nope/version")
    assert r.status_code == 404 and r.get_json()["error"]["code"] == "not_found"
    assert client.get("/api/tables/" + "x" * 100 + "/version").status_code == 404
