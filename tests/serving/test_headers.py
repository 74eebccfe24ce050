"""No cache keeps what a table holds (issue 23): every table page and table answer says
`Cache-Control: no-store`, and the version a page polls, revalidated by its ETag, `private, no-cache`.
No answer of the production server names its software (`Server`, `Via`)."""
from __future__ import annotations

import http.client

import pytest
from flask import url_for
from serving.servers import ForkedServer, Http

STORE_NOTHING = "no-store"
REVALIDATE = "private, no-cache"


def _cache(r) -> str:
    return r.headers.get("Cache-Control", "")


def test_table_api_answers_are_not_stored(client, new_table):
    r = client.post("/api/tables", json={"game": "robotariat", "players": 3})
    assert r.status_code == 201 and _cache(r) == STORE_NOTHING
    table = r.get_json()
    tid = table["id"]
    answers = {
        "get": client.get(f"/api/tables/{tid}"),
        "by code": client.get(f"/api/tables/{table['code']}"),
        "put": client.put(f"/api/tables/{tid}", json={"version": 1, "state": {"n": 1}}),
        "stale put (409)": client.put(f"/api/tables/{tid}", json={"version": 1, "state": {"n": 2}}),
        "history": client.get(f"/api/tables/{tid}/history"),
        "undo": client.post(f"/api/tables/{tid}/undo", json={"version": 2}),
        "robotariat table": client.get(f"/api/robotariat/tables/{tid}?page=play"),
        "unknown table (404)": client.get("/api/tables/nothing-here"),
    }
    for name, r in answers.items():
        assert _cache(r) == STORE_NOTHING, (name, r.status_code, _cache(r))

    first = client.get(f"/api/tables/{tid}/version")
    again = client.get(f"/api/tables/{tid}/version", headers={"If-None-Match": first.headers["ETag"]})
    assert first.status_code == 200 and again.status_code == 304
    assert _cache(first) == REVALIDATE and _cache(again) == REVALIDATE


@pytest.mark.parametrize("game", ["raising-robots", "robotariat", "two-robots"])
def test_table_pages_and_game_pages_kept_with_a_table_are_not_stored(app, client, new_table, game):
    table = new_table(game)
    tid = table["id"]
    for path in (f"/t/{tid}", f"/t/{tid}/qr.svg", f"/t/{tid}/history"):
        r = client.get(path)
        if r.status_code != 404:  # a page this app may not have
            assert _cache(r) == STORE_NOTHING, (path, r.status_code, _cache(r))
    with app.test_request_context():
        pages = [url_for(tool["endpoint"], table=tid) for tool in app.extensions["tablebot_tools"][game]]
    assert pages
    for path in pages:
        r = client.get(path)
        assert r.status_code == 200 and _cache(r) == STORE_NOTHING, (path, r.status_code, _cache(r))


def test_pages_without_a_table_keep_their_own_caching(client):
    assert _cache(client.get("/sw.js")) == "no-cache"  # the service worker revalidates, as before
    assert _cache(client.get("/")) != STORE_NOTHING  # the home page shows no table: back/forward cache stays


def test_the_production_server_names_no_software(tmp_path):
    with ForkedServer(f"sqlite:///{tmp_path / 'h.sqlite3'}", tmp_path / "instance", workers=1, threads=2) as server:
        status, table, headers = Http(server.url).request("POST", "/api/tables", {"game": "two-robots", "players": 2})
        assert status == 201 and headers["Cache-Control"] == STORE_NOTHING
        host, port = server.url.removeprefix("http://").split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        for method, path in (("GET", "/"), ("GET", "/api/health"), ("GET", f"/t/{table['id']}"),
                             ("GET", "/no-such-page"), ("POST", "/api/health")):
            conn.request(method, path)
            r = conn.getresponse()
            r.read()
            assert r.getheader("Server") is None and r.getheader("Via") is None, (path, r.getheaders())
            if path.startswith("/t/"):
                assert r.getheader("Cache-Control") == STORE_NOTHING
        conn.close()
        # waitress's own answer to a request it cannot read names no software either
        raw = http.client.HTTPConnection(host, int(port), timeout=10)
        raw.connect()
        raw.sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n")
        answer = raw.sock.recv(65536)
        raw.close()
        assert answer.startswith(b"HTTP/1.1 400") and b"waitress" not in answer.lower(), answer


def test_behind_a_proxy_the_app_sees_the_phones_address(tmp_path, monkeypatch):
    """TABLEBOT_PROXY_HOPS=1: the address the proxy forwards is the one the limits and the storage
    budget count (waitress must pass X-Forwarded-For on to the app, which decides whom to trust)."""
    from sqlalchemy import create_engine, select

    from assistant.tables.retention import table_usage

    monkeypatch.setenv("TABLEBOT_PROXY_HOPS", "1")  # the forked server reads it as it builds the app
    url = f"sqlite:///{tmp_path / 'p.sqlite3'}"
    with ForkedServer(url, tmp_path / "instance", workers=1, threads=2) as server:
        status, table, _ = Http(server.url).request("POST", "/api/tables", {"game": "two-robots", "players": 2},
                                                    headers={"X-Forwarded-For": "203.0.113.9"})
        assert status == 201
    engine = create_engine(url)
    with engine.connect() as conn:
        owner = conn.execute(select(table_usage.c.owner).where(table_usage.c.table_id == table["id"])).scalar_one()
    engine.dispose()
    assert owner == "203.0.113.9"
