"""Two phones at one table (review P2-3): a no-JS form post writes only the fields the player changed since
the page was drawn (fields named by paths, robots by their id), on the newest state, so what another phone
saved in between stays; a change that only fits the state it was made on (a Search recorded on that deck,
a round that was ending) is refused with a notice when another phone changed the table first."""
from __future__ import annotations

from rr_helpers import form_of, rr_state
from werkzeug.datastructures import MultiDict

from assistant.raising_robots.schemas import STATE_KEY

PLANNER = "/raising-robots/competitions"
SCORE = "/raising-robots/score"
ROUND_END = "/raising-robots/round-end"
SEARCH = "/raising-robots/search"
SETUP = "/raising-robots/competitions/setup"
ROBOT_A = {"id": "aaaa1111", "row": "design", "cost_energy": [2], "cost_resources": [3], "basic_energy": 2, "vp": 3}
ROBOT_B = {"id": "bbbb2222", "row": "fabricate", "cost_energy": [3], "cost_resources": [2], "basic_energy": 4, "vp": 5}


def new_table(client, part: dict, players: int = 2, legacy: dict | None = None) -> str:
    """A table whose Raising Robots part is `part` (or, for an older table, whose state is `legacy`)."""
    t = client.post("/api/tables", json={"game": "raising-robots", "players": players}).get_json()
    state = legacy if legacy is not None else {STATE_KEY: part}
    assert client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": state}).status_code == 200
    return t["id"]


def other_phone(client, tid: str, change) -> None:
    """Another phone saves a change of the Raising Robots part on the newest state (as the pages' scripts do)."""
    t = client.get(f"/api/tables/{tid}").get_json()
    state = t["state"]
    change(state[STATE_KEY])
    assert client.put(f"/api/tables/{tid}", json={"version": t["version"], "state": state}).status_code == 200


def drawn(client, url: str) -> MultiDict:
    return form_of(client.get(url).get_data(as_text=True))


def post(client, url: str, data: MultiDict):
    r = client.post(url, data=data)
    assert r.status_code < 500, r.get_data(as_text=True)[-400:]
    return r


def test_a_stale_score_form_keeps_what_another_phone_saved(client):
    """The score page was drawn, then the planner's "Done" paid 3 batteries and another robot was placed; the
    score form, posted with only the VP track changed, writes the VP and nothing else."""
    tid = new_table(client, {"seats": [{"inventory": {"battery": 5, "vp": 2}, "robots": [dict(ROBOT_A, column=1)]}]})
    data = drawn(client, f"{SCORE}?table={tid}&seat=0")

    def planner_done(part):
        seat = part["seats"][0]
        seat["inventory"]["battery"] = 2
        seat["robots"].append(dict(ROBOT_B, column=1))

    other_phone(client, tid, planner_done)
    data.setlist("seats.0.inventory.vp", ["9"])
    post(client, f"{SCORE}?table={tid}", data)
    seat = rr_state(client, tid).seat(0)
    assert seat.inventory.battery == 2 and seat.inventory.vp == 9
    assert [r.id for r in seat.robots] == ["aaaa1111", "bbbb2222"]
    assert seat.robots[0].costs() == ([2], [3])  # the planner's numbers of robot A stay


def test_a_score_edit_lands_on_its_robot_whatever_moved(client):
    """Robots are matched by id: the score page's VP edit of the Design robot reaches that robot after
    another phone removed the robot listed before it."""
    tid = new_table(client, {"seats": [{"robots": [dict(ROBOT_B, column=1), dict(ROBOT_A, column=1)]}]})
    data = drawn(client, f"{SCORE}?table={tid}")
    other_phone(client, tid, lambda p: p["seats"][0]["robots"].pop(0))
    data.setlist("seats.0.robots.@aaaa1111.vp", ["6"])
    post(client, f"{SCORE}?table={tid}", data)
    (robot,) = rr_state(client, tid).seat(0).robots
    assert robot.id == "aaaa1111" and robot.vp == 6 and robot.basic_energy == 2


def test_a_planner_robot_edit_lands_on_its_robot_by_id(client):
    """Another phone put a robot in front of the two the planner showed; the edit of robot B still changes
    robot B, and nothing is lost or doubled."""
    tid = new_table(client, {"seats": [{"robots": [ROBOT_A, ROBOT_B]}]})
    data = drawn(client, f"{PLANNER}?table={tid}&seat=0")
    new = {"id": "cccc3333", "row": "recycle", "vp": 4}
    other_phone(client, tid, lambda p: p["seats"][0]["robots"].insert(0, new))
    data.setlist("seats.0.robots.@bbbb2222.vp", ["6"])
    post(client, f"{PLANNER}?table={tid}&seat=0", data)
    robots = {r.id: r for r in rr_state(client, tid).seat(0).robots}
    assert set(robots) == {"aaaa1111", "bbbb2222", "cccc3333"}
    assert robots["bbbb2222"].vp == 6 and robots["aaaa1111"].vp == 3 and robots["cccc3333"].vp == 4


def test_a_robot_removed_on_the_planner_is_the_one_pressed(client):
    tid = new_table(client, {"seats": [{"robots": [ROBOT_A, ROBOT_B]}]})
    data = drawn(client, f"{PLANNER}?table={tid}")
    other_phone(client, tid, lambda p: p["seats"][0]["robots"].reverse())
    data.setlist("do", ["remove-robot:aaaa1111"])  # robot A, drawn first
    post(client, f"{PLANNER}?table={tid}", data)
    assert [r.id for r in rr_state(client, tid).seat(0).robots] == ["bbbb2222"]


def test_robots_saved_without_an_id_get_one_that_pages_agree_on(client):
    """An older table's robots (rr_players, no ids) get ids from their content when a page reads them, the
    same on every read and every page, without the GET writing them; the first save keeps them, and a form
    drawn before it still matches them."""
    a, b = ({k: v for k, v in r.items() if k != "id"} for r in (ROBOT_A, ROBOT_B))
    tid = new_table(client, {}, legacy={"rr_players": [{"robots": [a, b, dict(a)]}]})
    html = client.get(f"{PLANNER}?table={tid}").get_data(as_text=True)
    before = client.get(f"/api/tables/{tid}").get_json()
    assert before["version"] == 2  # nothing written by the GET (the stored robots got their ids in formats.py)
    ids = [r.id for r in rr_state(client, tid).seat(0).robots]
    assert len(set(ids)) == 3 and ids == [r.id for r in rr_state(client, tid).seat(0).robots]
    assert all(f"seats.0.robots.@{i}.vp" in html for i in ids)  # the page names them by those ids
    data = form_of(html)
    data.setlist(f"seats.0.robots.@{ids[2]}.vp", ["1"])
    post(client, f"{PLANNER}?table={tid}", data)
    robots = rr_state(client, tid).seat(0).robots
    assert [r.vp for r in robots] == [3, 5, 1] and [r.id for r in robots] == ids
    assert [r["id"] for r in client.get(f"/api/tables/{tid}").get_json()["state"][STATE_KEY]["seats"][0]["robots"]] == ids


def test_a_stale_planner_form_keeps_the_other_seats_and_the_setup(client):
    """The planner form carries the competitions in play and one seat: a stale post keeps the tile side the
    setup helper turned meanwhile and the inventory another page changed; only the typed change is written."""
    tid = new_table(client, {"competitions": {"cards": {"mech_masters": "mech-13-batteries"}},
                             "seats": [{"inventory": {"battery": 4, "gear": 1}}]})
    data = drawn(client, f"{PLANNER}?table={tid}&seat=0")

    def elsewhere(part):
        part["competitions"]["sides"] = {"mech_masters": "B"}
        part["seats"][0]["inventory"]["battery"] = 13

    other_phone(client, tid, elsewhere)
    data.setlist("seats.0.inventory.gear", ["2"])
    post(client, f"{PLANNER}?table={tid}&seat=0", data)
    state = rr_state(client, tid)
    assert state.competitions.sides.mech_masters == "B"
    assert state.seat(0).inventory.battery == 13 and state.seat(0).inventory.gear == 2


def test_two_players_completing_competitions_in_one_round_both_count(client):
    """Completion Rewards / Flip Tile at round end: two players press "Done" on their phones in the same
    round; both competitions are listed as completed this round, so both tiles turn over at its end."""
    tid = new_table(client, {"competitions": {"cards": {"mech_masters": "mech-13-batteries",
                                                        "engineering_expo": "expo-5-of-two"}},
                             "seats": [{"inventory": {"battery": 13}},
                                       {"inventory": {"gear": 5, "sensor": 5, "battery": 1}}]})
    first = drawn(client, f"{PLANNER}?table={tid}&seat=0")
    second = drawn(client, f"{PLANNER}?table={tid}&seat=1")
    first.setlist("do", ["apply"])
    second.setlist("do", ["apply"])
    assert "Applied" in post(client, f"{PLANNER}?table={tid}&seat=0", first).get_data(as_text=True)
    assert "Applied" in post(client, f"{PLANNER}?table={tid}&seat=1", second).get_data(as_text=True)
    state = rr_state(client, tid)
    assert state.competitions.completed_this_round == ["engineering_expo", "mech_masters"]
    assert state.seat(0).completed.types() == ["mech_masters"]
    assert state.seat(1).completed.types() == ["engineering_expo"]


def test_a_stale_round_end_form_keeps_a_robot_placed_meanwhile(client):
    """Round end: the play-area boxes drawn empty stay empty in the post; a robot another phone placed in
    between is kept, and the one box ticked here adds one robot."""
    tid = new_table(client, {"seats": [{"inventory": {"battery": 6}}]})
    data = drawn(client, f"{ROUND_END}?table={tid}")
    other_phone(client, tid, lambda p: p["seats"][0].setdefault("robots", []).append(dict(ROBOT_A, column=2)))
    data.add("_occ[]", "recycle-1")
    post(client, f"{ROUND_END}?table={tid}", data)
    robots = rr_state(client, tid).seat(0).robots
    assert [(r.row, r.column) for r in robots] == [("design", 2), ("recycle", 1)]
    assert robots[0].id == "aaaa1111" and robots[0].costs() == ([2], [3]) and robots[0].vp == 3


def test_round_end_entries_go_to_the_seat_they_were_made_for(client):
    """The seat menu sits in the round-end form: entries posted after choosing another seat are saved for
    the seat the page showed (its fields name it), then the chosen seat is shown."""
    tid = new_table(client, {"seats": [{"inventory": {"vp": 1}}, {"inventory": {"vp": 7}}]})
    data = drawn(client, f"{ROUND_END}?table={tid}&seat=0")
    data.setlist("seats.0.inventory.vp", ["4"])
    data.setlist("seat", ["1"])
    data.setlist("do", ["run"])
    html = post(client, f"{ROUND_END}?table={tid}", data).get_data(as_text=True)
    state = rr_state(client, tid)
    assert state.seat(0).inventory.vp == 4 and state.seat(1).inventory.vp == 7
    assert 'name="seats.1.inventory.vp"' in html


def test_a_search_recorded_on_a_deck_that_changed_is_refused(client):
    """Search: the deck after a recorded search follows from the deck it was made on. Two phones record a
    search on the same deck: the first one counts; the second is told and writes nothing."""
    deck = {"cells": {"design-4": {"count": 2, "wanted": True}, "fabricate-2": {"count": 2, "wanted": False}},
            "deck_size": 4, "criteria": {"row": "design", "energy_min": 4, "energy_max": 4}}
    tid = new_table(client, {"search": deck})
    one = drawn(client, f"{SEARCH}?table={tid}")
    two = MultiDict(one)
    one.setlist("do", ["record-search"])
    one.setlist("_revealed", ["F2 D4"])
    two.setlist("do", ["record-search"])
    two.setlist("_revealed", ["D4"])
    post(client, f"{SEARCH}?table={tid}", one)
    after_first = rr_state(client, tid).search
    r = post(client, f"{SEARCH}?table={tid}", two)
    assert r.status_code == 409 and "nothing was applied" in r.get_data(as_text=True)
    assert rr_state(client, tid).search == after_first
    assert after_first.deck_size == 2 and [(c.row, c.energy) for c in after_first.known_bottom] == [("fabricate", 2)]


def test_a_search_criteria_edit_keeps_a_whole_range(client):
    """A row and an energy range only make sense together: the edit is saved, and a range typed backwards
    is read as the range between the two numbers."""
    tid = new_table(client, {})
    data = drawn(client, f"{SEARCH}?table={tid}")
    data.setlist("search.criteria.energy_min", ["5"])
    data.setlist("search.criteria.energy_max", ["4"])
    post(client, f"{SEARCH}?table={tid}", data)
    assert rr_state(client, tid).search.criteria.model_dump() == {"row": "design", "energy_min": 4, "energy_max": 5}


def test_a_round_ended_on_two_phones_moves_once(client):
    """Flip Tile at round end: the round marker moves once per round. The second phone's press, drawn on
    the same round, is refused with a notice; the table stays on the next round."""
    tid = new_table(client, {"competitions": {"cards": {"mech_masters": "mech-13-batteries"}}}, players=3)
    one = drawn(client, f"{SETUP}?table={tid}")
    two = MultiDict(one)
    one.setlist("do", ["round-end"])
    two.setlist("do", ["round-end"])
    post(client, f"{SETUP}?table={tid}", one)
    r = post(client, f"{SETUP}?table={tid}", two)
    assert "Round 1 is already over" in r.get_data(as_text=True)
    assert client.get(f"/api/tables/{tid}").get_json()["state"]["table"]["round"] == 2


def test_a_stale_setup_form_keeps_a_tile_turned_meanwhile(client):
    tid = new_table(client, {"competitions": {"cards": {"mech_masters": "mech-13-batteries"}}}, players=3)
    data = drawn(client, f"{SETUP}?table={tid}")
    other_phone(client, tid, lambda p: p["competitions"].update(sides={"think_tank": "B"}))
    data.setlist("competitions.sides.robo_race", ["B"])
    data.setlist("do", ["sides"])
    post(client, f"{SETUP}?table={tid}", data)
    sides = rr_state(client, tid).competitions.sides
    assert (sides.think_tank, sides.robo_race, sides.mech_masters) == ("B", "B", "A")


def test_switching_seats_saves_nothing(client):
    """The seat menu is not a field of the table: choosing another seat with nothing typed writes no new
    version (so it cannot stand between another phone's answer and the version it was worked out from)."""
    tid = new_table(client, {"seats": [{"inventory": {"vp": 1}}, {"inventory": {"vp": 7}}]})
    before = client.get(f"/api/tables/{tid}").get_json()["version"]
    for url in (ROUND_END, PLANNER, SCORE):
        data = drawn(client, f"{url}?table={tid}&seat=0")
        data.setlist("seat", ["1"])
        assert post(client, f"{url}?table={tid}", data).status_code == 200
    assert client.get(f"/api/tables/{tid}").get_json()["version"] == before


def test_a_robot_typed_then_another_seat_chosen_stays_with_the_seat_typed_for(client):
    """Final score: a VP typed in an empty slot of Ada's play area, then the button of the other player
    pressed (the form posts both): the robot is Ada's, and the page then shows the other seat."""
    tid = new_table(client, {"seats": [{}, {}]})
    data = drawn(client, f"{SCORE}?table={tid}&seat=0")
    data.setlist("_slot.design-1", ["5"])
    data.add("seat", "1")
    html = post(client, f"{SCORE}?table={tid}&seat=0", data).get_data(as_text=True)
    state = rr_state(client, tid)
    assert [(r.row, r.column, r.vp) for r in state.seat(0).robots] == [("design", 1, 5)] and state.seat(1).robots == []
    assert 'name="seats.1.inventory.vp"' in html


def test_the_setup_players_shown_from_the_table_stay_the_tables(client):
    """Setup for Competitions: the player count shown is the table's; pressing "sides" with nothing typed
    writes no count, so the table's own count keeps applying."""
    tid = new_table(client, {"competitions": {"cards": {"mech_masters": "mech-13-batteries"}}}, players=3)
    before = client.get(f"/api/tables/{tid}").get_json()["version"]
    data = drawn(client, f"{SETUP}?table={tid}")
    assert data["competitions.players"] == "3"
    data.setlist("do", ["sides"])
    post(client, f"{SETUP}?table={tid}", data)
    assert client.get(f"/api/tables/{tid}").get_json()["version"] == before
    assert rr_state(client, tid).competitions.players == 0
