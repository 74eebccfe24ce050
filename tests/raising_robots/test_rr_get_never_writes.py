"""A GET never writes (issue 16 item 7, CONVENTIONS "A GET never writes"): opening any Raising Robots page on
a table whose robots have no id, whose round moved past a tracker token, or that still keeps the round in
the old `rr_competitions.marker`, leaves the table at its version; the page still shows what the state
implies (robots listed, the tile flip), and the next save applies it."""
from __future__ import annotations

import re

import pytest
from rr_helpers import post_form, rr_state

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
    # the PUT stored the older shape in the current format (formats.py); a GET leaves it as stored
    assert after["version"] == table["version"] and after["state"] == table["state"]


def test_the_planner_shows_the_flip_and_robots_without_writing(client, new_table):
    table = new_table("raising-robots", 1, STATE)
    text = client.get(f"/raising-robots/competitions?table={table['id']}").get_data(as_text=True)
    assert "the pink token on round 5: the Mech Masters tile turns to the B side" in text
    assert client.get(f"/api/tables/{table['id']}").get_json()["version"] == table["version"]


def test_who_the_seat_is_is_entered_once_on_the_planner_and_read_by_every_page(client, new_table):
    """Issue 12 "Who the seat is": the inventor and the Friendship cards by name, typed once on the planner,
    kept with the seat; the planner then counts Sacagawea's Robot Cards as duct tape (Friends Inventor
    Explanations, Sacagawea), and the score and round-end pages send the same seat to their solvers."""
    state = {"rr_competitions": {"cards": {"mech_masters": "mech-7-duct-tape"}},
             "rr_players": [{"inventory": {"duct_tape": 4, "robot_cards": 5}}]}
    table = new_table("raising-robots", 1, state)
    url = f"/raising-robots/competitions?table={table['id']}"
    html = client.get(url).get_data(as_text=True)
    r = post_form(client, url, html, **{"seats.0.inventor.name": "Sacagawea", "seats.0.friendships.0": "Susan",
                                        "seats.0.friendships.1": "Nikola"})
    assert r.status_code == 200
    seat = rr_state(client, table["id"]).seats[0]
    assert seat.inventor.name == "Sacagawea" and seat.friendships == ["Susan", "Nikola"]
    html = client.get(url).get_data(as_text=True)
    assert "acting as duct tape (Sacagawea)" in html and 'value="Sacagawea"' in html
    assert "Not taken into account by the planner: Susan (friendship)" in html  # Nikola cannot change a plan
    score = client.get(f"/raising-robots/score?table={table['id']}").get_data(as_text=True)
    assert "Not taken into account by the score: Nikola (friendship)" in score


def test_i_kept_johannes_on_the_planner_page(client, new_table):
    """Friendships / Friendship Ability Clarifications (Johannes, when gained: one of each resource, a
    battery, a duct tape and a VP), on the page: the plan's first step takes a Friendship reward; "I kept
    it" with Johannes carries out that step, applies his gain and plans again from there."""
    state = {"rr_competitions": {"cards": {"mech_masters": "mech-13-batteries", "engineering_expo": "expo-9-of-one"},
                                 "values": {"friendship": "8"}},
             "rr_players": [{"inventory": {"battery": 13, "gear": 9}}]}
    table = new_table("raising-robots", 1, state)
    url = f"/raising-robots/competitions?table={table['id']}"
    html = client.get(url).get_data(as_text=True)
    step = re.search(r'name="do" value="kept-(\d)"', html)
    assert step, "a Friendship step offers 'I kept it'"
    k = step.group(1)
    r = post_form(client, url, html, do=f"kept-{k}", **{f"_kept.{k}.name": "Johannes"})
    assert r.status_code == 200 and "kept Johannes: when kept: 1 each of" in r.get_data(as_text=True)
    seat = rr_state(client, table["id"]).seats[0]
    assert seat.friendships == ["Johannes", ""] and seat.friendships_held() == 1
    assert seat.inventory.sensor == 1 and seat.inventory.duct_tape == 1  # his gain
    assert len(seat.completed.types()) == int(k) + 1


def test_i_kept_confucius_takes_a_choice_per_robot(client, new_table):
    """Friendship Ability Clarifications (Confucius, when kept: for each assembled robot, 1 wild or 2
    batteries), on the page as the API takes it: one choice per robot."""
    robots = [{"id": f"r{j}", "row": "design", "vp": 3} for j in range(2)]
    state = {"raising_robots": {"competitions": {"cards": {"mech_masters": "mech-13-batteries"},
                                                 "values": {"friendship": "8"}},
                                "seats": [{"inventory": {"battery": 13}, "robots": robots}]}}
    table = new_table("raising-robots", 1, state)
    url = f"/raising-robots/competitions?table={table['id']}"
    html = client.get(url).get_data(as_text=True)
    assert 'name="_kept.0.robot.0"' in html and 'name="_kept.0.robot.1"' in html
    r = post_form(client, url, html, do="kept-0", **{"_kept.0.name": "Confucius", "_kept.0.robot.0": "gear",
                                                     "_kept.0.robot.1": "batteries"})
    assert r.status_code == 200, r.get_data(as_text=True)[-2000:]
    assert "1 chose 1 wild and 1 chose 2 batteries" in r.get_data(as_text=True)
    seat = rr_state(client, table["id"]).seats[0]
    assert seat.inventory.gear == 1 and seat.inventory.battery == 8  # 13, 7 paid, 2 for the second robot
    assert seat.friendships[0] == "Confucius"
