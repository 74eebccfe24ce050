"""A table's state is whatever JSON object the phones saved: whatever it holds, every page kept with
the table still answers (never a 5xx), so one odd save cannot lock the whole table out."""
from __future__ import annotations

from flask import url_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

KEYS = ["table", "rr_players", "rr_competitions", "rr_search", "rr_score", "rr_round_end", "robotariat",
        "two_robots"]
leaf = st.none() | st.booleans() | st.integers(-5, 10**6) | st.text(max_size=6)
values = st.recursive(leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.sampled_from(["names", "board", "spaces", "links", "state", "players", "inventory", "robots", "pool",
                     "solo", "round", "seat", "0", "x"]), inner, max_size=4), max_leaves=10)
states = st.dictionaries(st.sampled_from(KEYS), values, max_size=4)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(state=states, game=st.sampled_from(["raising-robots", "robotariat", "two-robots"]))
def test_every_page_of_a_table_answers_whatever_its_state(app, client, state, game):
    players = {"raising-robots": 2, "robotariat": 3, "two-robots": 2}[game]
    t = client.post("/api/tables", json={"game": game, "players": players}).get_json()
    assert client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": state}).status_code == 200
    pages = [f"/t/{t['id']}"]
    with app.test_request_context():
        pages += [url_for(tool["endpoint"], table=t["id"]) for tool in app.extensions["tablebot_tools"][game]]
    for url in pages:
        r = client.get(url)
        assert r.status_code < 500, (url, state, r.get_data(as_text=True)[-400:])
