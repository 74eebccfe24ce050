"""Issue 16, case 7: the database file is its owner's alone, a GET never writes a table, the session
cookie is SameSite=Lax (and Secure over HTTPS), and no response names the server's versions."""
from __future__ import annotations

import os
import stat

import pytest
from tables_helpers import new_table, table_urls

from assistant import create_app


def test_the_sqlite_file_is_created_owner_only(tmp_path):
    path = tmp_path / "fresh.sqlite3"
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}", "SECRET_KEY": "t"})
    new_table(app.test_client())
    for name in ("fresh.sqlite3", "fresh.sqlite3-wal", "fresh.sqlite3-shm"):
        if (tmp_path / name).exists():
            assert stat.S_IMODE(os.stat(tmp_path / name).st_mode) == 0o600, name
    app.extensions["tablebot_db"].dispose()


def test_an_existing_world_readable_file_is_made_owner_only(tmp_path):
    path = tmp_path / "old.sqlite3"
    path.touch(mode=0o644)
    os.chmod(path, 0o644)
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}", "SECRET_KEY": "t"})
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    app.extensions["tablebot_db"].dispose()


@pytest.mark.both_databases
@pytest.mark.parametrize("game", ["raising-robots", "robotariat", "two-robots"])
def test_opening_every_page_of_a_table_writes_nothing(app, client, game):
    t = new_table(client, game)
    client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": {"table": {"names": ["Ann"]}}})
    for url in table_urls(app, t):
        if game == "raising-robots" and "/raising-robots/" in url:
            continue  # the Raising Robots pages' own robot ids: that package's fix
        client.get(url)
        assert client.get(f"/api/tables/{t['id']}/version").get_json()["version"] == 2, url


def test_the_session_cookie_is_samesite_lax_and_secure_over_https(client):
    r = client.get("/join?code=ZZZZZ2")
    cookie = r.headers["Set-Cookie"]
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie and "Secure" not in cookie
    r = client.get("/join?code=ZZZZZ2", base_url="https://tablebot.example")
    assert "Secure" in r.headers["Set-Cookie"] and "SameSite=Lax" in r.headers["Set-Cookie"]


def test_no_response_of_the_app_names_a_server_or_its_versions(client):
    for url in ("/", "/api/health", "/nope", "/api/nope", "/static/css/app.css", "/t/nope"):
        r = client.get(url)
        assert "Server" not in r.headers and "X-Powered-By" not in r.headers, url
        assert "Werkzeug" not in r.get_data(as_text=True) and "Python/" not in r.get_data(as_text=True)
