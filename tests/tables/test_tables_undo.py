"""Issue 16, case 3: Undo names the version it undoes, on the page and in the API. A stale undo is a
409 with the newer table (and the page says what happened); an undo without a version never reports
a conflict that did not happen (409 `nothing_to_undo` only when there is nothing to undo)."""
from __future__ import annotations

import threading

import pytest
from tables_helpers import new_table

pytestmark = pytest.mark.both_databases


def save(client, t, version, state):
    r = client.put(f"/api/tables/{t['id']}", json={"version": version, "state": state})
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def test_page_undo_on_an_older_page_does_not_revert_another_phones_newer_save(client):
    t = new_table(client)
    client.post(f"/t/{t['id']}/edit", data={"version": "1", "names.0": "Ann", "round": "1"})  # phone A sees v2
    save(client, t, 2, {"table": {"names": ["Ann", "Bo"], "round": 1, "notes": "B's note"}})  # phone B: v3
    r = client.post(f"/t/{t['id']}/undo", data={"version": "2"})  # phone A taps Undo on its v2 page
    html = " ".join(r.get_data(as_text=True).split())
    assert r.status_code == 409
    assert "Nothing was undone: another phone saved this table after the version you were looking at" in html
    assert "B&#39;s note" in html or "B's note" in html  # the newer table is shown
    assert 'name="version" value="3"' in html  # and Undo on it now names version 3
    now = client.get(f"/api/tables/{t['id']}").get_json()
    assert now["version"] == 3 and now["state"]["table"]["notes"] == "B's note"


def test_page_undo_of_the_version_shown_goes_back(client):
    t = new_table(client)
    save(client, t, 1, {"table": {"notes": "one"}})
    r = client.post(f"/t/{t['id']}/undo", data={"version": "2"}, follow_redirects=True)
    assert r.status_code == 200 and "Undone" in r.get_data(as_text=True)
    assert client.get(f"/api/tables/{t['id']}").get_json()["state"] == {}


@pytest.mark.parametrize("version", [None, "", "x", "\u00b3", "0", "99"])
def test_page_undo_without_a_readable_version_is_a_400_and_undoes_nothing(client, version):
    t = new_table(client)
    save(client, t, 1, {"a": 1})
    r = client.post(f"/t/{t['id']}/undo", data={} if version is None else {"version": version})
    assert r.status_code == 400 and "version" in r.get_data(as_text=True)
    assert client.get(f"/api/tables/{t['id']}").get_json()["version"] == 2


def test_the_table_page_names_its_version_in_the_undo_form(client):
    t = new_table(client)
    save(client, t, 1, {"a": 1})
    html = client.get(f"/t/{t['id']}").get_data(as_text=True)
    form = html[html.index('id="undo-form"'):]
    assert '<input type="hidden" name="version" value="2">' in form[:400]


def test_api_undo_with_a_stale_version_is_a_conflict_with_the_newer_table(client):
    t = new_table(client)
    save(client, t, 1, {"a": 1})
    save(client, t, 2, {"a": 2})
    r = client.post(f"/api/tables/{t['id']}/undo", json={"version": 2})
    assert r.status_code == 409
    body = r.get_json()
    assert body["error"]["code"] == "conflict" and "nothing was undone" in body["error"]["message"]
    assert body["table"]["version"] == 3 and body["table"]["state"] == {"a": 2}
    ok = client.post(f"/api/tables/{t['id']}/undo", json={"version": 3})
    assert ok.status_code == 200 and ok.get_json()["state"] == {"a": 1} and ok.get_json()["version"] == 4


def test_api_undo_with_nothing_to_undo_is_nothing_to_undo_with_or_without_a_version(client):
    t = new_table(client)
    for body in ({"version": 1}, None):
        kw = {"json": body} if body else {"content_type": "application/json"}
        r = client.post(f"/api/tables/{t['id']}/undo", **kw)
        assert r.status_code == 409 and r.get_json()["error"]["code"] == "nothing_to_undo"


def test_undos_without_a_version_under_load_never_report_a_conflict(app):
    """40 phones undo at once (no version) while 24 others save: every undo lands; none is told
    "someone else saved first" (before, an undo gave up with that after 5 lost races)."""
    client = app.test_client()
    t = new_table(client)
    for v in range(1, 41):
        save(client, t, v, {"n": v})
    barrier = threading.Barrier(64)
    answers: list[tuple[str, int, str | None]] = []

    def undo():
        c = app.test_client()
        barrier.wait()
        r = c.post(f"/api/tables/{t['id']}/undo", content_type="application/json")
        answers.append(("undo", r.status_code, (r.get_json().get("error") or {}).get("code")))

    def change(i):
        c = app.test_client()
        barrier.wait()
        r = c.post(f"/t/{t['id']}/edit", data={"version": "41", "names.0": f"P{i}", "round": "1"})
        answers.append(("edit", r.status_code, None))

    threads = [threading.Thread(target=undo) for _ in range(40)] + [
        threading.Thread(target=change, args=(i,)) for i in range(24)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    undos = [a for a in answers if a[0] == "undo"]
    assert len(undos) == 40 and all(status == 200 for _, status, _ in undos), undos
    assert client.get(f"/api/tables/{t['id']}").get_json()["version"] >= 41 + 40
