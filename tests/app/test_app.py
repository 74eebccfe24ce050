"""The app shell: health, the contract's error bodies, security headers, the manifest and offline files."""
from __future__ import annotations

import json

from assistant import create_app


def error_of(response) -> dict:
    body = response.get_json()
    assert set(body["error"]) >= {"code", "message", "fields"}
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return body["error"]


def test_health(client):
    r = client.get("/api/health")
    # the contract's field, and what was checked (tests/serving/test_outages.py: the database down)
    assert r.status_code == 200 and r.get_json() == {"status": "ok", "database": "ok", "storage": "ok"}


def test_unknown_api_path_is_a_json_404(client):
    r = client.get("/api/nothing-here")
    assert r.status_code == 404 and error_of(r)["code"] == "not_found"


def test_wrong_method_is_a_json_405(client):
    r = client.delete("/api/health")
    assert r.status_code == 405 and error_of(r)["code"] == "method_not_allowed"


def test_body_over_64_kib_is_a_413(client):
    r = client.post("/api/tables", data=json.dumps({"game": "robotariat", "players": 3, "x": "a" * 70000}),
                    content_type="application/json")
    assert r.status_code == 413 and error_of(r)["code"] == "too_large"


def test_not_json_is_a_415(client):
    r = client.post("/api/tables", data="game=robotariat", content_type="application/x-www-form-urlencoded")
    assert r.status_code == 415 and error_of(r)["code"] == "unsupported_media_type"


def test_malformed_json_is_a_400(client):
    r = client.post("/api/tables", data="{not json", content_type="application/json")
    assert r.status_code == 400 and error_of(r)["fields"][0]["path"] == "body"


def test_security_headers_on_pages_and_api(client):
    for url in ("/", "/api/health"):
        h = client.get(url).headers
        csp = h["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
        assert "frame-ancestors 'none'" in csp
        assert h["X-Content-Type-Options"] == "nosniff"


def test_pages_have_no_inline_scripts_or_third_party_urls(client):
    for url in ("/", "/games/raising-robots", "/games/robotariat", "/games/two-robots", "/join", "/offline"):
        r = client.get(url)
        assert r.status_code == 200, url
        html = r.get_data(as_text=True)
        assert "<script>" not in html and " onclick=" not in html
        assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html


def test_manifest_and_service_worker(app, client):
    m = client.get("/manifest.webmanifest")
    assert m.status_code == 200 and m.mimetype == "application/manifest+json"
    data = json.loads(m.get_data(as_text=True))
    assert data["start_url"] == "/" and any(i["sizes"] == "512x512" for i in data["icons"])
    for icon in data["icons"]:
        assert client.get(icon["src"]).status_code == 200
    sw = client.get("/sw.js")
    assert sw.status_code == 200 and "javascript" in sw.mimetype
    text = sw.get_data(as_text=True)
    registry = app.extensions["tablebot_static"]
    # the shell is cached under the names the pages use (content-hashed), in a cache named after them
    for path in ("/", "/offline"):
        assert f'"{path}"' in text and client.get(path).status_code == 200
    for name in ("css/app.css", "js/tablebot.js", "js/theme.js"):
        hashed = f"/static/{registry.files[name].hashed}"
        assert f'"{hashed}"' in text and f'"/static/{name}"' not in text
        assert client.get(hashed).status_code == 200
    assert f'var ASSETS = "{registry.version()}";' in text


def test_unknown_game_hub_is_a_404_page(client):
    assert client.get("/games/chess").status_code == 404


def test_default_database_is_a_sqlite_file_in_the_instance_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("TABLEBOT_INSTANCE", str(tmp_path / "instance"))  # never the checkout's instance/
    app = create_app({"TESTING": True})
    try:
        assert app.instance_path == str(tmp_path / "instance")
        assert app.config["DATABASE_URL"] == f"sqlite:///{tmp_path / 'instance' / 'tablebot.sqlite3'}"
        assert (tmp_path / "instance" / "tablebot.sqlite3").exists()
        assert (tmp_path / "instance" / "secret_key").stat().st_mode & 0o777 == 0o600
    finally:
        app.extensions["tablebot_db"].dispose()


def test_without_a_setting_the_instance_folder_is_the_checkouts(monkeypatch):
    from flask import Flask

    import assistant

    monkeypatch.delenv("TABLEBOT_INSTANCE", raising=False)
    # what Flask picks for create_app's arguments, without creating the folder
    default = Flask(assistant.__name__, instance_relative_config=True, instance_path=None).instance_path
    assert default == str(assistant.ROOT / "instance")


def test_database_url_comes_from_the_environment(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'env.sqlite3'}"
    monkeypatch.setenv("DATABASE_URL", url)
    app = create_app({"TESTING": True})
    assert app.config["DATABASE_URL"] == url
    app.extensions["tablebot_db"].dispose()
    assert (tmp_path / "env.sqlite3").exists()


def test_every_tool_on_the_hubs_links_to_a_page_that_answers(app, client):
    tools = app.extensions["tablebot_tools"]
    assert set(tools) <= {"raising-robots", "robotariat", "two-robots"}
    for game, items in tools.items():
        hub = client.get(f"/games/{game}").get_data(as_text=True)
        for t in items:
            with app.test_request_context():
                from flask import url_for
                url = url_for(t["endpoint"])
            assert url in hub and t["title"] in hub
            assert client.get(url).status_code == 200, url


def test_a_solver_input_error_is_a_400_naming_the_field(tmp_path):
    from solvers.errors import InputError

    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'e.sqlite3'}"})

    @app.post("/api/_probe")
    def probe():
        raise InputError("pool[2].energy", "must be from 1 to 7")

    r = app.test_client().post("/api/_probe")
    assert r.status_code == 400
    assert r.get_json()["error"]["fields"] == [{"path": "pool[2].energy", "message": "must be from 1 to 7"}]
    app.extensions["tablebot_db"].dispose()
