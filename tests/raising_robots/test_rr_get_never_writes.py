"""A GET never writes (issue 16 item 7, CONVENTIONS "A GET never writes"): opening any Raising Robots page on
a table whose robots have no id, whose round moved past a tracker token, or that still keeps the round in
the old `rr_competitions.marker`, leaves the table at its version; the page still shows what the state
implies (robots listed, the tile flip), and the next save applies it."""
from __future__ import annotations

import pytest

PAGES = ["/raising-robots/competitions", "/raising-robots/competitions/setup", "/raising-robots/search",
         "/raising-robots/round-end", "/raising-robots/score", "/raising-robots/activations"]
STATE = {
    "table": {"round": 5},
    "rr_players": [{"inventory": {"gear": 3}, "robots": [{"row": "design", "vp": 4}, {"row": "recycle", "vp": 6}]}],
    "rr_competitions": {"marker": 4, "tracker": [{"round": 5, "token_type": "pink"}],
                        "cards": {"mech_masters": "mech-13-batteries"}},
}


@pytest.mark.parametrize("path", PAGES)
def test_a_get_leaves_the_table_as_it_was(client, new_table, path):
    table = new_table("raising-robots", 1, STATE)
    r = client.get(f"{path}?table={table['id']}")
    assert r.status_code == 200
    after = client.get(f"/api/tables/{table['id']}").get_json()
    assert after["version"] == table["version"] and after["state"] == STATE


def test_the_planner_shows_the_flip_and_robots_without_writing(client, new_table):
    table = new_table("raising-robots", 1, STATE)
    text = client.get(f"/raising-robots/competitions?table={table['id']}").get_data(as_text=True)
    assert "the pink token on round 5: the Mech Masters tile turns to the B side" in text
    assert client.get(f"/api/tables/{table['id']}").get_json()["version"] == table["version"]
