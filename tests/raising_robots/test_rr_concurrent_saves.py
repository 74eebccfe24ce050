"""Two phones at one table (review P2-3): a no-JS form post writes only the fields the player changed since
the page was drawn, on the newest state, so what another phone saved in between stays; robots are matched by
their `id`, not their place in the list; a change that only fits the state it was made on (a Search recorded
on that deck, a round that was ending) is refused with a notice when another phone changed that part."""
from __future__ import annotations

import copy
import html
import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from assistant.raising_robots.saves import apply_changes, changes

PLANNER = "/raising-robots/competitions"
SCORE = "/raising-robots/score"
ROUND_END = "/raising-robots/round-end"
SEARCH = "/raising-robots/search"
SETUP = "/raising-robots/competitions/setup"
ROBOT_A = {"id": "aaaa1111", "row": "design", "cost_energy": [2], "cost_resources": [3], "basic_energy": 2, "vp": 3}
ROBOT_B = {"id": "bbbb2222", "row": "fabricate", "cost_energy": [3], "cost_resources": [2], "basic_energy": 4, "vp": 5}

FIELD = re.compile(r"<(?:input|select|textarea)\b([^>]*)>", re.S)
ATTR = re.compile(r'([\w-]+)="([^"]*)"')
SELECTED = re.compile(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', re.S)


def form_of(page: str) -> MultiDict:
    """What the page's form posts back untouched: named fields, ticked boxes, each select's chosen option."""
    out = MultiDict()
    for attrs in FIELD.findall(page):
        a = dict(ATTR.findall(attrs))
        if "name" in a and not a["name"].startswith("rnew-") and (
                a.get("type") not in ("checkbox", "radio") or " checked" in attrs):
            out.add(html.unescape(a["name"]), html.unescape(a.get("value", "")))
    for name, options in SELECTED.findall(page):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', options)
        out.setlist(name, [html.unescape(chosen.group(1))] if chosen else [])
    return out


def new_table(client, state: dict, players: int = 2) -> str:
    t = client.post("/api/tables", json={"game": "raising-robots", "players": players}).get_json()
    assert client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": state}).status_code == 200
    return t["id"]


def state_of(client, tid: str) -> dict:
    return client.get(f"/api/tables/{tid}").get_json()["state"]


def other_phone(client, tid: str, change) -> None:
    """Another phone saves a change on the newest state (as the pages' scripts do)."""
    t = client.get(f"/api/tables/{tid}").get_json()
    state = t["state"]
    change(state)
    assert client.put(f"/api/tables/{tid}", json={"version": t["version"], "state": state}).status_code == 200


def post(client, url: str, data: MultiDict):
    r = client.post(url, data=data)
    assert r.status_code < 500, r.get_data(as_text=True)[-400:]
    return r


def test_a_stale_score_form_keeps_what_another_phone_saved(client):
    """The score page was drawn, then the planner's "Done" paid 3 batteries and another robot was placed; the
    score form, posted with only the VP track changed, writes the VP and nothing else."""
    tid = new_table(client, {"rr_players": [{"inventory": {"battery": 5, "vp": 2}, "robots": [dict(ROBOT_A, column=1)]}]})
    data = form_of(client.get(f"{SCORE}?table={tid}&seat=0").get_data(as_text=True))

    def planner_done(state):
        seat = state["rr_players"][0]
        seat["inventory"]["battery"] = 2
        seat["robots"].append(dict(ROBOT_B, column=1))

    other_phone(client, tid, planner_done)
    data["inv-vp"] = "9"
    post(client, f"{SCORE}?table={tid}", data)
    seat = state_of(client, tid)["rr_players"][0]
    assert seat["inventory"]["battery"] == 2 and seat["inventory"]["vp"] == 9
    assert [r["id"] for r in seat["robots"]] == ["aaaa1111", "bbbb2222"]
    assert seat["robots"][0]["cost_resources"] == [3]  # the planner's numbers of robot A stay


def test_a_score_edit_lands_on_its_robot_whatever_moved(client):
    """Robots are matched by id: the score page's VP edit of the Design robot reaches that robot after
    another phone removed the robot listed before it."""
    tid = new_table(client, {"rr_players": [{"robots": [dict(ROBOT_B, column=1), dict(ROBOT_A, column=1)]}]})
    data = form_of(client.get(f"{SCORE}?table={tid}").get_data(as_text=True))
    other_phone(client, tid, lambda s: s["rr_players"][0]["robots"].pop(0))
    data["s-design-1-vp"] = "6"
    post(client, f"{SCORE}?table={tid}", data)
    (robot,) = state_of(client, tid)["rr_players"][0]["robots"]
    assert robot["id"] == "aaaa1111" and robot["vp"] == 6 and robot["basic_energy"] == 2


def test_a_planner_robot_edit_lands_on_its_robot_by_id(client):
    """The planner lists robots by position; the form names each by id. Another phone put a robot in front
    of them; the edit of "Robot 2" (robot B) still changes robot B, and nothing is lost or doubled."""
    tid = new_table(client, {"rr_players": [{"robots": [ROBOT_A, ROBOT_B]}]})
    data = form_of(client.get(f"{PLANNER}?table={tid}&seat=0").get_data(as_text=True))
    new = {"id": "cccc3333", "row": "recycle", "vp": 4}
    other_phone(client, tid, lambda s: s["rr_players"][0]["robots"].insert(0, new))
    assert data["r1-id"] == "bbbb2222"
    data["r1-vp"] = "6"
    post(client, f"{PLANNER}?table={tid}&seat=0", data)
    robots = {r["id"]: r for r in state_of(client, tid)["rr_players"][0]["robots"]}
    assert set(robots) == {"aaaa1111", "bbbb2222", "cccc3333"}
    assert robots["bbbb2222"]["vp"] == 6 and robots["aaaa1111"]["vp"] == 3 and robots["cccc3333"]["vp"] == 4


def test_a_robot_removed_on_the_planner_is_the_one_ticked(client):
    tid = new_table(client, {"rr_players": [{"robots": [ROBOT_A, ROBOT_B]}]})
    data = form_of(client.get(f"{PLANNER}?table={tid}").get_data(as_text=True))
    other_phone(client, tid, lambda s: s["rr_players"][0]["robots"].reverse())
    data["r0-del"] = "1"  # robot A, drawn first
    post(client, f"{PLANNER}?table={tid}", data)
    assert [r["id"] for r in state_of(client, tid)["rr_players"][0]["robots"]] == ["bbbb2222"]


def test_robots_saved_without_an_id_get_one_that_pages_agree_on(client):
    """Robots written without ids (an older page, the API) get ids from their content when a page reads
    them, the same on every read and every page, without the GET writing them (a GET never writes); the
    first save keeps them, and a form drawn before it still matches them."""
    a, b = ({k: v for k, v in r.items() if k != "id"} for r in (ROBOT_A, ROBOT_B))
    tid = new_table(client, {"rr_players": [{"robots": [a, b, dict(a)]}]})
    data = form_of(client.get(f"{PLANNER}?table={tid}").get_data(as_text=True))
    assert all("id" not in r for r in state_of(client, tid)["rr_players"][0]["robots"])  # nothing written
    ids = [data["r0-id"], data["r1-id"], data["r2-id"]]
    again = form_of(client.get(f"{PLANNER}?table={tid}").get_data(as_text=True))
    assert len(set(ids)) == 3 and [again["r0-id"], again["r1-id"], again["r2-id"]] == ids  # the same on every read
    data["r2-vp"] = "1"
    post(client, f"{PLANNER}?table={tid}", data)
    robots = state_of(client, tid)["rr_players"][0]["robots"]
    assert [r["vp"] for r in robots] == [3, 5, 1] and [r["id"] for r in robots] == ids


def test_a_stale_planner_form_keeps_the_other_seats_and_the_setup(client):
    """The planner form carries the competitions in play and one seat: a stale post keeps the tile side the
    setup helper turned meanwhile and the inventory another page changed; only the typed change is written."""
    tid = new_table(client, {"rr_competitions": {"cards": {"mech_masters": "mech-13-batteries"}},
                             "rr_players": [{"inventory": {"battery": 4, "gear": 1}}]})
    data = form_of(client.get(f"{PLANNER}?table={tid}&seat=0").get_data(as_text=True))

    def elsewhere(state):
        state["rr_competitions"]["sides"] = {"mech_masters": "B"}
        state["rr_players"][0]["inventory"]["battery"] = 13

    other_phone(client, tid, elsewhere)
    data["inv-gear"] = "2"
    post(client, f"{PLANNER}?table={tid}&seat=0", data)
    state = state_of(client, tid)
    assert state["rr_competitions"]["sides"]["mech_masters"] == "B"
    assert state["rr_players"][0]["inventory"]["battery"] == 13 and state["rr_players"][0]["inventory"]["gear"] == 2


def test_two_players_completing_competitions_in_one_round_both_count(client):
    """Completion Rewards / Flip Tile at round end: two players press "Done" on their phones in the same
    round; both competitions are listed as completed this round, so both tiles turn over at its end."""
    tid = new_table(client, {"rr_competitions": {"cards": {"mech_masters": "mech-13-batteries",
                                                           "engineering_expo": "expo-5-of-two"}},
                             "rr_players": [{"inventory": {"battery": 13}},
                                            {"inventory": {"gear": 5, "sensor": 5, "battery": 1}}]})
    first = form_of(client.get(f"{PLANNER}?table={tid}&seat=0").get_data(as_text=True))
    second = form_of(client.get(f"{PLANNER}?table={tid}&seat=1").get_data(as_text=True))
    first["action"], second["action"] = "apply", "apply"
    assert "Applied" in post(client, f"{PLANNER}?table={tid}&seat=0", first).get_data(as_text=True)
    assert "Applied" in post(client, f"{PLANNER}?table={tid}&seat=1", second).get_data(as_text=True)
    state = state_of(client, tid)
    assert state["rr_competitions"]["completed_this_round"] == ["engineering_expo", "mech_masters"]
    assert state["rr_players"][0]["completed"] == ["mech_masters"]
    assert state["rr_players"][1]["completed"] == ["engineering_expo"]


def test_a_stale_round_end_form_keeps_a_robot_placed_meanwhile(client):
    """Round end: the play-area boxes drawn empty stay empty in the post; a robot another phone placed in
    between is kept, and the one box ticked here adds one robot."""
    tid = new_table(client, {"rr_players": [{"inventory": {"battery": 6}}]})
    data = form_of(client.get(f"{ROUND_END}?table={tid}").get_data(as_text=True))
    other_phone(client, tid, lambda s: s["rr_players"][0].setdefault("robots", []).append(dict(ROBOT_A, column=2)))
    data["occ-recycle-1"] = "1"
    post(client, f"{ROUND_END}?table={tid}", data)
    robots = state_of(client, tid)["rr_players"][0]["robots"]
    assert [(r["row"], r.get("column")) for r in robots] == [("design", 2), ("recycle", 1)]
    assert robots[0] == dict(ROBOT_A, column=2)


def test_round_end_entries_go_to_the_seat_they_were_made_for(client):
    """The seat menu sits in the round-end form: entries posted after choosing another seat are saved for
    the seat the page showed, then the chosen seat is shown."""
    tid = new_table(client, {"rr_players": [{"inventory": {"vp": 1}}, {"inventory": {"vp": 7}}]})
    data = form_of(client.get(f"{ROUND_END}?table={tid}&seat=0").get_data(as_text=True))
    data["inv-vp"], data["seat"], data["action"] = "4", "1", "run"
    post(client, f"{ROUND_END}?table={tid}", data)
    players = state_of(client, tid)["rr_players"]
    assert players[0]["inventory"]["vp"] == 4 and players[1]["inventory"]["vp"] == 7


def test_a_search_recorded_on_a_deck_that_changed_is_refused(client):
    """Search: the deck after a recorded search follows from the deck it was made on. Two phones record a
    search on the same deck: the first one counts; the second is told the deck changed and writes nothing."""
    deck = {"cells": {"design-4": {"count": 2, "wanted": True}, "fabricate-2": {"count": 2, "wanted": False}},
            "deck_size": 4, "criteria": {"row": "design", "energy_min": 4, "energy_max": 4}}
    tid = new_table(client, {"rr_search": deck})
    one = form_of(client.get(f"{SEARCH}?table={tid}").get_data(as_text=True))
    two = MultiDict(one)
    one["action"], one["revealed"] = "record-search", "F2 D4"
    two["action"], two["revealed"] = "record-search", "D4"
    post(client, f"{SEARCH}?table={tid}", one)
    after_first = state_of(client, tid)["rr_search"]
    r = post(client, f"{SEARCH}?table={tid}", two)
    assert "Another phone changed the Search deck" in r.get_data(as_text=True)
    assert state_of(client, tid)["rr_search"] == after_first
    assert after_first["deck_size"] == 2 and after_first["known_bottom"] == [{"row": "fabricate", "energy": 2}]


def test_a_search_criteria_edit_is_written_whole(client):
    """A row and an energy range only make sense together: an edit writes all three."""
    tid = new_table(client, {})
    data = form_of(client.get(f"{SEARCH}?table={tid}").get_data(as_text=True))
    data["energy_min"], data["energy_max"] = "4", "5"
    post(client, f"{SEARCH}?table={tid}", data)
    assert state_of(client, tid)["rr_search"]["criteria"] == {"row": "design", "energy_min": 4, "energy_max": 5}


def test_a_round_ended_on_two_phones_moves_once(client):
    """Flip Tile at round end: the round marker moves once per round. The second phone's press, drawn on
    the same round, is refused with a notice; the table stays on the next round."""
    tid = new_table(client, {"rr_competitions": {"cards": {"mech_masters": "mech-13-batteries"}}}, players=3)
    one = form_of(client.get(f"{SETUP}?table={tid}").get_data(as_text=True))
    two = MultiDict(one)
    one["action"] = two["action"] = "round-end"
    post(client, f"{SETUP}?table={tid}", one)
    r = post(client, f"{SETUP}?table={tid}", two)
    assert "Round 1 is already over" in r.get_data(as_text=True)
    assert state_of(client, tid)["table"]["round"] == 2


def test_a_stale_setup_form_keeps_a_tile_turned_meanwhile(client):
    tid = new_table(client, {"rr_competitions": {"cards": {"mech_masters": "mech-13-batteries"}}}, players=3)
    data = form_of(client.get(f"{SETUP}?table={tid}").get_data(as_text=True))
    other_phone(client, tid, lambda s: s["rr_competitions"].update(sides={"think_tank": "B"}))
    data["side-robo_race"], data["action"] = "B", "sides"
    post(client, f"{SETUP}?table={tid}", data)
    sides = state_of(client, tid)["rr_competitions"]["sides"]
    assert sides["think_tank"] == "B" and sides["robo_race"] == "B" and sides["mech_masters"] == "A"


# ---- the change algebra the saves rely on ---------------------------------------------------------------

trees = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=2),
                     lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.sampled_from("abc"), inner,
                                                                                 max_size=3), max_leaves=12)
objects = st.dictionaries(st.sampled_from("abcd"), trees, max_size=4)


def as_json(value) -> str:
    return json.dumps(value, sort_keys=True)


@settings(max_examples=60, deadline=None)
@given(old=objects, new=objects, theirs=trees)
def test_a_pages_changes_land_on_a_newer_state_without_undoing_it(old, new, theirs):
    """changes(old, new) made on `old` gives `new`; made on a state where another phone set a key the page
    did not change, it gives `new` with that key as the other phone left it."""
    assert as_json(apply_changes(copy.deepcopy(old), changes(old, new))) == as_json(new)
    untouched = "e"  # a key this page never shows
    newer = {**copy.deepcopy(old), untouched: theirs}
    assert as_json(apply_changes(newer, changes(old, new))) == as_json({**new, untouched: theirs})
