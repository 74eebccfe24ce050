"""The planner's "I kept <card>" at a table whose Friendship deck is built goes through the deck (issue 22):
Completion Rewards (draw 3, keep 1, the rest to the discard pile) and Friendships (each card is one card
beside the inventor card): a keep recorded on both pages is one card, named once."""
from __future__ import annotations

import re

import pytest
from rr_helpers import post_form, rr_state

# Mech Masters paid with 13 batteries; a Friendship worth 8 VP makes the reward "draw 3 Friendship cards"
STATE = {"raising_robots": {"competitions": {"cards": {"mech_masters": "mech-13-batteries"},
                                             "values": {"friendship": "8"}},
                            "seats": [{"inventory": {"battery": 13}}, {}]}}


@pytest.fixture
def table(app, new_table):
    """Two phones holding seats 0 and 1 of a table whose Friendship deck is built."""
    t = new_table("raising-robots", 2, STATE)
    a, b = app.test_client(), app.test_client()
    for n, c in enumerate((a, b)):
        assert c.post(f"/api/tables/{t['id']}/seats/{n}", json={"name": "Ann" if n == 0 else "Bo"}).status_code == 200
    act(a, t["id"], {"type": "setup", "pets": True})
    return t["id"], a, b


def act(client, tid: str, action: dict):
    version = client.get(f"/api/tables/{tid}").get_json()["version"]
    r = client.post(f"/api/raising-robots/tables/{tid}/friendship", json={"version": version, "action": action})
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def kept_on_planner(client, tid: str, name: str, seat: int = 0):
    url = f"/raising-robots/competitions?table={tid}&seat={seat}"
    html = client.get(url).get_data(as_text=True)
    assert 'value="kept-0"' in html, "the plan's first step draws Friendship cards"
    return post_form(client, url, html, do="kept-0", **{"_kept.0.name": name})


def deck(client, tid: str) -> dict:
    return client.get(f"/api/tables/{tid}").get_json()["state"]["raising_robots"]["friendship"]


def test_a_keep_on_the_planner_is_the_decks_keep(table):
    """Completion Rewards: the seat drew 3 (not entered on the Friendship page: a draw without names) and kept
    one; the deck logs both, every phone sees the card kept, and the seat names it once, as the deck does."""
    tid, a, _ = table
    r = kept_on_planner(a, tid, "yo yo")
    assert r.status_code == 200, r.get_data(as_text=True)[-1500:]
    assert "The Friendship deck has it too." in r.get_data(as_text=True)
    log = deck(a, tid)["log"]
    assert [e["type"] for e in log] == ["draw", "keep"] and log[0]["from_deck"] == 3
    assert log[1] == {"type": "keep", "seat": 0, "card": "yo_yo"}
    seat = rr_state(a, tid).seats[0]
    assert seat.friendships == ["Yo-Yo", ""] and seat.friendships_held() == 1


def test_a_keep_recorded_on_both_pages_is_named_once(table):
    """Friendships: kept on the Friendship page first (its drawn cards entered), then "I kept Temple" on the
    planner: the deck keeps its one keep, the seat one Temple and one card held."""
    tid, a, _ = table
    act(a, tid, {"type": "draw", "seat": 0, "count": 3, "cards": ["albert", "charles", "temple"]})
    act(a, tid, {"type": "keep", "seat": 0, "card": "temple"})
    r = kept_on_planner(a, tid, "Temple")
    assert r.status_code == 200, r.get_data(as_text=True)[-1500:]
    assert [e["type"] for e in deck(a, tid)["log"]] == ["draw", "keep"]
    seat = rr_state(a, tid).seats[0]
    assert seat.friendships == ["Temple", ""] and seat.friendships_held() == 1


def test_the_planner_keeps_one_of_the_cards_drawn_on_the_friendship_page(table):
    """Completion Rewards: the card kept is one of those drawn; a card the seat did not draw is a 400 under
    the name, and nothing is applied."""
    tid, a, _ = table
    act(a, tid, {"type": "draw", "seat": 0, "count": 3, "cards": ["albert", "charles", "temple"]})
    r = kept_on_planner(a, tid, "Yo-Yo")
    assert r.status_code == 400 and "keep one of the cards you drew" in r.get_data(as_text=True).lower()
    assert rr_state(a, tid).seats[0].friendships_held() == 0 and rr_state(a, tid).seats[0].inventory.battery == 13
    r = kept_on_planner(a, tid, "Charles")
    assert r.status_code == 200
    assert deck(a, tid)["log"][-1] == {"type": "keep", "seat": 0, "card": "charles"}
    assert rr_state(a, tid).seats[0].friendships == ["Charles", ""]


def test_a_card_not_in_the_deck_or_another_phones_seat_is_refused(table):
    """A name the deck does not have is said under the name; a seat another phone holds records its own keep
    (its draws are its secret)."""
    tid, a, b = table
    r = kept_on_planner(a, tid, "Bob")
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and re.search(r"not a card of this table.s Friendship deck", html)
    r = kept_on_planner(b, tid, "Temple", seat=0)
    assert r.status_code == 400 and "another phone holds this seat" in r.get_data(as_text=True)
    assert deck(a, tid)["log"] == [] and rr_state(a, tid).seats[0].friendships_held() == 0
