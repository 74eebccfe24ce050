"""Error pages in the app's own look (404, 405, 500) for people; /api keeps the JSON error body."""
from __future__ import annotations

import pytest


@pytest.fixture
def crashing_app(app):
    @app.get("/_crash")
    def crash():
        raise RuntimeError("a solver bug")

    @app.get("/api/_crash")
    def api_crash():
        raise RuntimeError("a solver bug")

    return app


def test_a_missing_page_is_a_404_page_in_the_apps_look(client):
    r = client.get("/no/such/page")
    assert r.status_code == 404 and r.mimetype == "text/html"
    html = r.get_data(as_text=True)
    assert "Nothing here" in html and "Error 404" in html
    assert 'href="/"' in html and 'id="q-top"' in html  # the app's header: home and the rules search
    assert "Werkzeug" not in html and "The requested URL was not found" not in html


def test_an_unknown_table_page_is_the_same_404_page(client):
    r = client.get("/t/no-such-table")
    assert r.status_code == 404 and "Nothing here" in r.get_data(as_text=True)


def test_a_wrong_method_on_a_page_is_a_405_page(client):
    r = client.get("/tables")  # starting a table takes a POST
    assert r.status_code == 405 and r.mimetype == "text/html" and "Error 405" in r.get_data(as_text=True)


def test_a_crash_on_a_page_is_a_500_page_that_says_nothing_was_lost(crashing_app, caplog):
    r = crashing_app.test_client().get("/_crash")
    assert r.status_code == 500 and r.mimetype == "text/html"
    html = r.get_data(as_text=True)
    assert "Something went wrong on our side" in html and "Nothing you entered was lost" in html
    assert "a solver bug" not in html  # no internals shown to the table
    assert "a solver bug" in caplog.text  # but the log says what failed


def test_api_errors_keep_the_json_body(crashing_app):
    client = crashing_app.test_client()
    for url, status, code in (("/api/nothing", 404, "not_found"), ("/api/_crash", 500, "internal")):
        r = client.get(url)
        assert r.status_code == status and r.mimetype == "application/json"
        assert r.get_json()["error"]["code"] == code
