"""Fast pages: gzip for pages, JSON, CSS and JS; static files under content-hashed names that phones
cache for a year without asking again; the plain names still answer (revalidated)."""
from __future__ import annotations

import gzip
import re

import pytest

from assistant.static_files import IMMUTABLE, StaticFiles

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def static_urls(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="(/static/[^"]+)"', html)


@pytest.mark.parametrize("url,mimetype", [("/", "text/html"), ("/rules", "text/html"),
                                          ("/api/robotariat/defaults", "application/json"),
                                          ("/sw.js", "text/javascript"),
                                          ("/manifest.webmanifest", "application/manifest+json")])
def test_pages_and_json_are_gzipped_when_the_phone_asks(client, url, mimetype):
    plain = client.get(url)
    packed = client.get(url, headers=GZIP)
    assert plain.status_code == packed.status_code == 200 and packed.mimetype == mimetype
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"] and "Accept-Encoding" in plain.headers["Vary"]
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert len(packed.get_data()) < len(plain.get_data())


def test_small_answers_and_304s_are_not_compressed(client):
    assert "Content-Encoding" not in client.get("/api/health", headers=GZIP).headers
    t = client.post("/api/tables", json={"game": "robotariat", "players": 3}).get_json()
    first = client.get(f"/api/tables/{t['id']}/version", headers=GZIP)
    again = client.get(f"/api/tables/{t['id']}/version", headers={**GZIP, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b"" and "Content-Encoding" not in again.headers


def test_every_static_url_in_the_pages_is_hashed_and_cached_for_a_year(app, client):
    registry = app.extensions["tablebot_static"]
    t = client.post("/api/tables", json={"game": "robotariat", "players": 3}).get_json()
    urls = set()
    for page in ("/", "/rules", "/robotariat/", f"/robotariat/board?table={t['id']}", "/two-robots/factory",
                 "/raising-robots/competitions", f"/t/{t['id']}"):
        html = client.get(page).get_data(as_text=True)
        assert 'src="/static/' in html or 'href="/static/' in html
        urls.update(static_urls(html))
    hashed = {f"/static/{f.hashed}" for f in registry.files.values()}
    assert urls and urls <= hashed, urls - hashed
    for url in urls:
        r = client.get(url, headers=GZIP)
        assert r.status_code == 200 and r.headers["Cache-Control"] == IMMUTABLE, url
        file = registry.by_hashed[url.removeprefix("/static/")]
        if url.endswith((".js", ".css")):
            assert r.mimetype in ("text/javascript", "text/css")
            if len(file.body) >= 1024:
                assert r.headers["Content-Encoding"] == "gzip" and gzip.decompress(r.get_data()) == file.body
        assert client.get(url, headers={"If-None-Match": r.headers["ETag"]}).status_code == 304


def test_plain_static_names_still_answer_and_are_revalidated(client):
    r = client.get("/static/js/tablebot.js")
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-cache" and r.mimetype == "text/javascript"
    assert "Content-Encoding" not in r.headers  # the phone did not ask for gzip
    assert client.get("/static/js/nothing.js").status_code == 404
    assert client.get("/static/js/tablebot.000000000000.js").status_code == 404
    assert client.get("/static/../assistant/__init__.py").status_code == 404


def test_a_changed_file_gets_a_new_name(tmp_path):
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("var a = 1;\n")
    first = StaticFiles(tmp_path).files["js/a.js"]
    assert re.fullmatch(r"js/a\.[0-9a-f]{12}\.js", first.hashed)
    (tmp_path / "js" / "a.js").write_text("var a = 2;\n")
    assert StaticFiles(tmp_path).files["js/a.js"].hashed != first.hashed
    watching = StaticFiles(tmp_path, watch=True)  # the development server reads edits at once
    before = watching.url_name("js/a.js")
    (tmp_path / "js" / "a.js").write_text("var a = 3; // edited while the server runs\n")
    assert watching.url_name("js/a.js") != before


def test_the_service_worker_changes_when_a_static_file_does(tmp_path):
    (tmp_path / "app.css").write_text("body { color: red }\n")
    (tmp_path / "sw.js").write_text('var SHELL = ["/static/app.css"];\n')
    one = StaticFiles(tmp_path)
    (tmp_path / "app.css").write_text("body { color: blue }\n")
    two = StaticFiles(tmp_path)
    assert one.version() != two.version()
    assert one.rewrite_urls('["/static/app.css"]') == f'["/static/{one.files["app.css"].hashed}"]'
    assert one.rewrite_urls('["/static/missing.css"]') == '["/static/missing.css"]'
