"""Table pages without JavaScript: start, join by code, edit, conflict, undo, QR code."""
from __future__ import annotations

import re


def start(client, game="robotariat", players=3) -> str:
    r = client.post("/tables", data={"game": game, "players": players})
    assert r.status_code == 302
    return r.headers["Location"].rsplit("/", 1)[1]


def test_home_page_lists_games_search_and_start_join(client):
    html = client.get("/").get_data(as_text=True)
    for text in ("Raising Robots: Friends", "Rise of the Robotariat", "Two Robots", 'action="/rules"',
                 "Start table", "Join"):
        assert text in html


def test_start_shows_code_qr_and_history(client):
    table_id = start(client)
    html = client.get(f"/t/{table_id}").get_data(as_text=True)
    code = re.search(r'id="table-code">(\w+)<', html).group(1)
    assert f"/t/{table_id}/qr.svg" in html and "v1: started" in html
    qr = client.get(f"/t/{table_id}/qr.svg")
    assert qr.mimetype == "image/svg+xml" and qr.data.startswith(b"<svg xmlns=")
    joined = client.get(f"/join?code={code.lower()}")
    assert joined.status_code == 302 and joined.headers["Location"].endswith(f"/t/{table_id}")


def test_join_with_a_wrong_code_says_so(client):
    r = client.get("/join?code=NOPE22")
    assert r.status_code == 404 and "No table has the code NOPE22" in r.get_data(as_text=True)


def test_start_with_bad_player_count_explains(client):
    r = client.post("/tables", data={"game": "robotariat", "players": "9"}, follow_redirects=True)
    assert "Rise of the Robotariat takes 3 to 5 players" in r.get_data(as_text=True)


def test_a_stale_edit_keeps_the_other_phones_fields_and_says_whose_value_it_replaced(client):
    table_id = start(client)
    ok = client.post(f"/t/{table_id}/edit", data={"version": "1", "names.0": "Ann", "names.1": "Bo",
                                                  "notes": "first", "round": "2"})
    assert ok.status_code == 200 and "Saved with table" in ok.get_data(as_text=True)
    # a second phone still showing version 1 changes player 3's name and the notes
    stale = client.post(f"/t/{table_id}/edit", data={"version": "1", "names.0": "", "names.1": "", "names.2": "Cy",
                                                     "notes": "mine", "round": "1"})
    html = stale.get_data(as_text=True)
    assert stale.status_code == 200
    assert 'value="Ann"' in html and 'value="Bo"' in html and 'value="Cy"' in html  # both phones' names
    assert 'value="2"' in html  # the round the first phone set (the second did not change it)
    assert ">mine</textarea>" in html  # the same field on both phones: the newer save wins, and says so
    assert "Another phone had changed the same field meanwhile; yours replaced it (the notes held “first”)" in html


def test_undo_page_goes_back(client):
    table_id = start(client)
    client.post(f"/t/{table_id}/edit", data={"version": "1", "names.0": "Ann", "round": "1"})
    client.post(f"/t/{table_id}/undo", data={"version": "2"})
    html = client.get(f"/t/{table_id}").get_data(as_text=True)
    assert 'value="Ann"' not in html and "v3: changed table" in html
    r = client.post(f"/t/{table_id}/undo", data={"version": "3"}, follow_redirects=True)
    assert "Nothing to undo" in r.get_data(as_text=True)


def test_unknown_table_page_is_404(client):
    assert client.get("/t/" + "q" * 22).status_code == 404
    assert client.post("/t/" + "q" * 22 + "/edit", data={}).status_code == 404


def test_a_table_whose_state_has_odd_types_still_renders(client):
    table_id = start(client)
    for state in ({"table": {"names": 5, "round": "x", "notes": 3}}, {"table": "x"}, {"table": [1, 2]}):
        t = client.get(f"/api/tables/{table_id}").get_json()
        assert client.put(f"/api/tables/{table_id}", json={"version": t["version"], "state": state}).status_code == 200
        assert client.get(f"/t/{table_id}").status_code == 200
        r = client.post(f"/t/{table_id}/edit", data={"version": str(t["version"] + 1), "names.0": "Ann", "round": "2"})
        assert r.status_code == 200 and 'value="Ann"' in r.get_data(as_text=True)
