"""One round number per table: the competitions setup helper reads and moves `state.table.round` (the
number the table page edits), reads an older `rr_competitions.marker` as the round and moves it there
with the next save, and turns over the tiles a round passed even when the round was moved on the table
page (rulebook "How to Complete Competitions" step 5 and "Solo / 2P Gameplay Changes"). A GET shows all
of this without writing it; the next save keeps it."""
from __future__ import annotations

import re

from rr_helpers import post_form, rr_state

from solvers.raising_robots.competitions_setup import tile_of

SETUP = "/raising-robots/competitions/setup"
PLANNER = "/raising-robots/competitions"
CARDS = {"engineering_expo": "expo-9-of-one", "mech_masters": "mech-13-batteries",
         "think_tank": "think-3-same-type", "robo_race": "race-same-row"}
SIDES_A = {t: "A" for t in CARDS}


def table_with(client, state: dict, players: int = 2) -> str:
    t = client.post("/api/tables", json={"game": "raising-robots", "players": players}).get_json()
    assert client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": state}).status_code == 200
    return t["id"]


def state_of(client, tid: str) -> dict:
    return client.get(f"/api/tables/{tid}").get_json()["state"]


def table_page_round(client, tid: str) -> int:
    html = client.get(f"/t/{tid}").get_data(as_text=True)
    return int(re.search(r'id="round" name="round"[^>]*value="(\d+)"', html).group(1))


def save_planner(client, tid: str) -> None:
    """A save of the planner form as drawn, with one field typed (a post that changes nothing saves nothing)."""
    url = f"{PLANNER}?table={tid}"
    assert post_form(client, url, get(client, url), **{"seats.0.inventory.vp": "1"}).status_code == 200


def get(client, url: str) -> str:
    return client.get(url).get_data(as_text=True)


def setup_post(client, tid: str, **fields):
    url = f"{SETUP}?table={tid}"
    return post_form(client, url, get(client, url), **fields)


def test_an_old_marker_moves_to_the_table_round_once(client):
    tid = table_with(client, {"table": {"names": ["Ada", "Ben"]},
                              "rr_competitions": {"cards": CARDS, "sides": SIDES_A, "marker": 4}})
    html = client.get(f"{SETUP}?table={tid}").get_data(as_text=True)
    assert 'id="rrs-round">4<' in html
    assert "marker" in state_of(client, tid)["raising_robots"]["competitions"]  # a GET never writes
    save_planner(client, tid)
    state = state_of(client, tid)
    assert state["table"]["round"] == 4 and state["table"]["names"] == ["Ada", "Ben"]
    comps = rr_state(client, tid).competitions
    assert comps.marker is None and comps.in_play() == CARDS
    assert table_page_round(client, tid) == 4
    # the table page moves it back (a correction): the marker is gone, so nothing moves it forward again
    client.post(f"/t/{tid}/edit", data={"version": str(client.get(f"/api/tables/{tid}").get_json()["version"]),
                                        "names.0": "Ada", "name1": "Ben", "round": "3", "notes": ""})
    assert 'id="rrs-round">3<' in client.get(f"{SETUP}?table={tid}").get_data(as_text=True)


def test_a_marker_behind_the_table_round_is_dropped(client):
    tid = table_with(client, {"table": {"round": 5}, "rr_competitions": {"cards": CARDS, "marker": 3}})
    save_planner(client, tid)
    assert state_of(client, tid)["table"]["round"] == 5 and rr_state(client, tid).competitions.marker is None


def test_ending_a_round_on_the_setup_helper_moves_the_table_round(client):
    """How to Complete Competitions, step 5: a tile whose card got an achievement token this round turns
    over at its end; the table page shows the new round."""
    tid = table_with(client, {"table": {"round": 2}, "rr_competitions": {"cards": CARDS, "sides": SIDES_A}})
    r = setup_post(client, tid, do="round-end", **{"competitions.completed_this_round[]": "think_tank",
                                                   "competitions.players": "3"})
    assert r.status_code == 200 and "Round 3 begins" in r.get_data(as_text=True)
    assert state_of(client, tid)["table"]["round"] == 3 and rr_state(client, tid).competitions.sides.think_tank == "B"
    assert table_page_round(client, tid) == 3


def test_the_table_page_moving_the_round_turns_over_the_tracker_tile(client):
    """Solo / 2P Gameplay Changes: the round marker reaching a tracker token turns its tile over, also when
    the round was moved on the table page; the planner then plans with the B side."""
    tracker = [{"round": 5, "token_type": "pink"}, {"round": 7, "token_type": "blue"}]
    tid = table_with(client, {"table": {"round": 4}, "rr_competitions": {"cards": CARDS, "sides": SIDES_A,
                                                                         "tracker": tracker, "players": 2}})
    version = client.get(f"/api/tables/{tid}").get_json()["version"]
    client.post(f"/t/{tid}/edit", data={"version": str(version), "names.0": "", "name1": "", "round": "5", "notes": ""})
    html = client.get(f"{SETUP}?table={tid}").get_data(as_text=True)
    assert "moved the round to 5" in html and "turns to the B side" in html
    pink_tile = tile_of("pink")
    planner = client.get(f"{PLANNER}?table={tid}").get_data(as_text=True)
    assert re.search(rf'name="competitions.sides.{pink_tile}" value="B" checked', planner)  # shown before any save
    save_planner(client, tid)
    comps = rr_state(client, tid).competitions
    assert getattr(comps.sides, pink_tile) == "B"
    assert [s.model_dump() for s in comps.tracker] == [{"round": 7, "token_type": "blue"}]
    # once caught up, a reload turns nothing more over
    assert "turns to the B side" not in client.get(f"{SETUP}?table={tid}").get_data(as_text=True)


def test_competitions_completed_in_an_earlier_round_turn_over_when_the_round_moves_on(client):
    """How to Complete Competitions, step 5: the planner records what was completed and in which round;
    when the table page starts the next round, those tiles are on their B side."""
    tid = table_with(client, {"table": {"round": 2}, "rr_competitions": {"cards": CARDS, "sides": SIDES_A}})
    url = f"{PLANNER}?table={tid}"
    r = post_form(client, url, get(client, url), **{"seats.0.inventory.battery": "13"})
    r = post_form(client, url, r.get_data(as_text=True), do="apply")
    assert "Applied: " in r.get_data(as_text=True)
    comp = rr_state(client, tid).competitions
    assert comp.completed_this_round == ["mech_masters"] and comp.completed_round == 2
    assert comp.sides.mech_masters == "A"  # same round: everyone still uses the A side
    version = client.get(f"/api/tables/{tid}").get_json()["version"]
    client.post(f"/t/{tid}/edit", data={"version": str(version), "names.0": "", "name1": "", "round": "3", "notes": ""})
    planner = client.get(f"{PLANNER}?table={tid}").get_data(as_text=True)
    assert "Mech Masters was completed this round" in planner
    save_planner(client, tid)
    comp = rr_state(client, tid).competitions
    assert comp.sides.mech_masters == "B" and comp.completed_this_round == []


def test_the_last_round_offers_the_final_score(client):
    tid = table_with(client, {"table": {"round": 8}, "rr_competitions": {"cards": CARDS}})
    html = client.get(f"{SETUP}?table={tid}").get_data(as_text=True)
    assert 'id="rrs-round-end"' not in html and "the game ends after it" in html
    r = setup_post(client, tid, do="round-end", **{"competitions.players": "2"})
    assert r.status_code == 400 and state_of(client, tid)["table"]["round"] == 8


def test_dealing_a_new_game_puts_the_table_on_round_one(client):
    tid = table_with(client, {"table": {"round": 6, "notes": "keep me"}})
    setup_post(client, tid, do="deal", **{"competitions.players": "1"})
    assert state_of(client, tid)["table"] == {"round": 1, "notes": "keep me"}
    assert sorted(s.round for s in rr_state(client, tid).competitions.tracker) == [4, 5, 6, 7]


def test_odd_round_values_read_as_round_one(client):
    """A round that is not a whole number from 1 (a string, a boolean, a negative, a list) reads as round 1 on
    both pages, which still open and plan (Mech Masters stays on its A side: no flip is made up)."""
    for table in ({"round": "7"}, {"round": True}, {"round": -3}, [1, 2], "x"):
        tid = table_with(client, {"table": table, "rr_competitions": {"cards": CARDS, "marker": [4]}})
        setup_html = client.get(f"{SETUP}?table={tid}").get_data(as_text=True)
        assert 'id="rrs-round">1<' in setup_html, table
        planner = client.get(f"{PLANNER}?table={tid}")
        assert planner.status_code == 200
        assert re.search(r'name="competitions.sides.mech_masters" value="A" checked', planner.get_data(as_text=True)), table
