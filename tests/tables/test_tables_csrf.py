"""Issue 16, case 4: another site cannot act with a phone's tables. A browser names the page a request
comes from (`Origin`, `Sec-Fetch-Site`); a state-changing request from another site is refused, and a
write to a table through the API must be JSON, which no other site can send without asking first."""
from __future__ import annotations

import pytest
from tables_helpers import new_table

pytestmark = pytest.mark.both_databases

EVIL = {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}
SAME = {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}  # the test client's host


def version(client, t) -> int:
    return client.get(f"/api/tables/{t['id']}").get_json()["version"]


@pytest.mark.parametrize("headers", [EVIL, {"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"},
                                     {"Origin": "null"}, {"Origin": "http://localhost.evil.example"},
                                     {"Sec-Fetch-Site": "same-site", "Origin": "http://sub.localhost"}])
def test_cross_site_auto_submitted_forms_are_refused(client, headers):
    t = new_table(client, "two-robots")
    client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": {"a": 1}})
    forms = [(f"/t/{t['id']}/edit", {"version": "2", "names.0": "Mallory", "round": "1"}),
             (f"/t/{t['id']}/undo", {"version": "2"}),
             (f"/two-robots/factory?table={t['id']}", {"action": "save"}),
             ("/tables", {"game": "robotariat", "players": "3"})]
    for url, data in forms:
        r = client.post(url, data=data, headers=headers)
        assert r.status_code == 403, (url, r.status_code)
        assert "came from another site" in r.get_data(as_text=True)
    assert version(client, t) == 2


def test_a_no_cors_undo_from_another_site_is_refused(client):
    t = new_table(client)
    client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": {"a": 1}})
    # fetch(url, {method: "POST", mode: "no-cors"}) from another site: no body, text/plain at most
    for kw in ({}, {"content_type": "text/plain"}, {"data": "", "content_type": "application/x-www-form-urlencoded"}):
        r = client.post(f"/api/tables/{t['id']}/undo", headers=EVIL, **kw)
        assert r.status_code == 403 and r.get_json()["error"]["code"] == "cross_site"
    assert version(client, t) == 2


@pytest.mark.parametrize("kw", [{}, {"content_type": "text/plain"}, {"data": '{"version": 2}', "content_type": "text/plain"},
                                {"data": "version=2", "content_type": "application/x-www-form-urlencoded"}])
def test_api_writes_to_a_table_must_be_json_even_an_empty_undo(client, kw):
    """A browser that sends no Origin (an old one) still cannot be made to undo: a cross-site page can
    only send these bodies without a preflight, and they are not JSON."""
    t = new_table(client)
    client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": {"a": 1}})
    r = client.post(f"/api/tables/{t['id']}/undo", **kw)
    assert r.status_code == 415 and r.get_json()["error"]["code"] == "unsupported_media_type"
    r = client.put(f"/api/tables/{t['id']}", **kw)
    assert r.status_code == 415
    r = client.post("/api/tables", **kw)
    assert r.status_code == 415
    assert version(client, t) == 2


def test_an_empty_undo_from_the_apps_own_page_needs_no_content_type(client):
    """`Sec-Fetch-Site` is set by the browser alone: same-origin means one of Tablebot's own pages."""
    t = new_table(client)
    client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": {"a": 1}})
    r = client.post(f"/api/tables/{t['id']}/undo", headers=SAME)
    assert r.status_code == 200 and r.get_json()["state"] == {}
    r = client.post(f"/api/tables/{t['id']}/undo", headers=SAME, data="{}", content_type="text/plain")
    assert r.status_code == 415  # a body still has to be JSON


def test_same_origin_forms_and_fetches_and_clients_without_origin_work(client):
    t = new_table(client)
    r = client.post(f"/t/{t['id']}/edit", data={"version": "1", "names.0": "Ann", "round": "1"}, headers=SAME)
    assert r.status_code == 200 and "Saved with table" in r.get_data(as_text=True)
    r = client.post(f"/api/tables/{t['id']}/undo", json={"version": 2}, headers=SAME)
    assert r.status_code == 200
    assert client.post("/tables", data={"game": "robotariat", "players": "3"}).status_code == 302  # no Origin
    assert client.post("/tables", data={"game": "robotariat", "players": "3"},
                       headers={"Origin": "https://localhost"}).status_code == 302  # TLS ended by a proxy


def test_join_by_code_and_reading_work_from_a_link_on_another_site(client):
    t = new_table(client)
    r = client.get(f"/join?code={t['code']}", headers=EVIL)  # a GET: following a link is fine
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/t/{t['id']}")
    assert client.get(f"/t/{t['id']}", headers=EVIL).status_code == 200


def test_a_wrong_method_is_still_a_405_before_any_check(client):
    r = client.post("/api/health", headers=EVIL)
    assert r.status_code == 405
