"""The JSON form of the Robotariat pages' actions (the same actions the pages' forms post, applied by the
same code) and the answer: POST /api/robotariat/tables/<id>/action, POST /api/robotariat/action (not at a
table), GET /api/robotariat/tables/<id>?page=&since=. Rulebook cases: "Player Turn" (move, posters),
"NPC Turn" (a roll applied), "Round Order" (the round shared with the table page)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.robotariat import pages as rb

MID_GAME = {"state": {"oppressors": ["p1"], "civilians": ["ro", "sb2"], "posters": {"p1": 2, "up2": 1},
                      "funds": 10, "office": 3,
                      "players": [{"at": "mm", "character": "uberbot"}, {"at": "p1"}, {"at": "sy"}]}}
NAMES = ["Ann", "Bo", "Cy"]


def new_table(client, state: dict | None = None) -> str:
    t = client.post("/api/tables", json={"game": "robotariat", "players": 3}).get_json()
    if state is not None:
        assert client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": state}).status_code == 200
    return t["id"]


def act(client, tid: str, action: dict, version: int | None = None, page: str = "play"):
    r = client.post(f"/api/robotariat/tables/{tid}/action", json={"action": action, "version": version, "page": page})
    return r.status_code, r.get_json()


def stored(client, tid: str) -> dict:
    return client.get(f"/api/tables/{tid}").get_json()


def test_a_tap_is_applied_saved_and_answered_with_what_the_page_draws(client):
    """Player Turn: Cy moves onto the Recruitment Office; the answer is the saved value, the board
    picture with Cy there, the tracks and the API body for the forecast."""
    tid = new_table(client, {"robotariat": MID_GAME, "table": {"names": NAMES}})
    status, d = act(client, tid, {"do": "move", "piece": "p2", "to": "ro"}, version=2)
    assert status == 200 and d["version"] == 3 and d["code"] == stored(client, tid)["code"]
    assert d["robotariat"] == stored(client, tid)["state"]["robotariat"]
    assert d["robotariat"]["state"]["players"][2] == {"name": "Cy", "at": "ro", "character": None}
    ro = next(s for s in d["view"]["spaces"] if s["id"] == "ro")
    assert ro["aria"] == "Recruitment Office, 1 civilian, Cy"
    assert [(p["kind"], p["text"]) for p in ro["pieces"]] == [("civilian", "C"), ("player", "3")]
    assert d["body"] == rb.api_body(d["robotariat"])
    assert d["status"] == {"round": 1, "rounds": 6, "funds": 10, "target": 45, "reputation": 5, "office": 3, "junk": 0,
                           "entered": 3, "track": 6, "next_npc": "oppressor", "posters_on_board": 3,
                           "posters_left": 5, "played": False}


def test_another_phones_change_stays_when_both_tap(client):
    """Two phones tap on the same version: the later action is applied on top of the earlier one."""
    tid = new_table(client, {"robotariat": MID_GAME})
    assert act(client, tid, {"do": "poster", "at": "sy", "delta": 1}, version=2)[0] == 200
    status, d = act(client, tid, {"do": "move", "piece": "p0", "to": "p3"}, version=2)
    assert status == 200 and d["version"] == 4
    state = d["robotariat"]["state"]
    assert state["posters"]["sy"] == 1 and state["players"][0]["at"] == "p3"


def test_a_roll_for_an_older_table_is_a_409_with_the_newer_one(client):
    """NPC Turn: a roll is worked out for the table the phone showed; after another phone's move nothing is
    applied, and the answer for the table as it is now comes with the 409. On that version it applies."""
    tid = new_table(client, {"robotariat": MID_GAME})
    act(client, tid, {"do": "move", "piece": "p2", "to": "ro"})
    before = stored(client, tid)
    roll = {"do": "roll", "black": "blue_arrow", "red": "yellow_arrow"}
    status, d = act(client, tid, roll, version=2)
    assert status == 409 and d["error"]["message"] == rb.CHANGED["npc"]
    assert d["answer"]["version"] == 3 and d["answer"]["robotariat"]["state"]["players"][2]["at"] == "ro"
    assert stored(client, tid) == before
    status, d = act(client, tid, roll, version=3)
    assert status == 200 and d["robotariat"]["state"]["active"] == 1
    assert d["robotariat"]["state"]["oppressors"] == ["mm"]  # p1 -> mm on the blue path
    assert d["robotariat"]["log"][-1]["what"] == "blue arrow / yellow arrow"
    status, d = act(client, tid, {"do": "enter"})
    assert status == 400 and d["error"]["fields"][0]["path"] == "version"


def test_the_round_reaches_the_table_page(client):
    """Round Order: a round set through the endpoint is the table page's round too."""
    tid = new_table(client, {"robotariat": MID_GAME, "table": {"names": NAMES, "notes": "snacks"}})
    status, d = act(client, tid, {"do": "tracks", "round": "3"})
    assert status == 200 and d["status"]["round"] == 3
    assert stored(client, tid)["state"]["table"] == {"names": NAMES, "notes": "snacks", "round": 3}


@pytest.mark.parametrize("action,path", [
    ({"do": "move", "piece": "p0", "to": "nowhere"}, "action.to"),
    ({"do": "poster", "at": "mm", "delta": -1}, "action.at"),
    ({"do": "tracks", "reputation": 21}, "action.reputation"),
    ({"do": ["move"]}, "action.do"),
    ({"do": "apply", "state": {"funds": 44}}, "action.do"),  # outcomes come from the solvers only
    ({"do": "path", "colour": "green", "from": "mm", "to": "p1"}, "action.colour"),
    ({"do": "data", "dice": {"red": [["x"]] * 6}}, "action.dice.red[0]"),
])
def test_a_refused_action_is_a_400_naming_the_field(client, action, path):
    tid = new_table(client, {"robotariat": MID_GAME})
    before = stored(client, tid)
    status, d = act(client, tid, action)
    assert status == 400 and d["error"]["fields"][0]["path"] == path
    assert stored(client, tid) == before


def test_bad_bodies_and_unknown_tables(client):
    tid = new_table(client)
    url = f"/api/robotariat/tables/{tid}/action"
    assert client.post(url, json=[1]).status_code == 400
    r = client.post(url, json={"action": "move"})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "action"
    r = client.post(url, json={"action": {"do": "setup"}, "page": "lobby"})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "page"
    assert client.post("/api/robotariat/tables/nope/action", json={"action": {"do": "setup"}}).status_code == 404
    other = client.post("/api/tables", json={"game": "two-robots", "players": 2}).get_json()["id"]
    assert client.get(f"/api/robotariat/tables/{other}").status_code == 404


def test_since_says_whether_another_phone_changed_the_table(client):
    tid = new_table(client, {"robotariat": MID_GAME})
    d = client.get(f"/api/robotariat/tables/{tid}?since=2").get_json()
    assert d == {"version": 2, "changed": False}
    act(client, tid, {"do": "active", "seat": "2"})
    d = client.get(f"/api/robotariat/tables/{tid}?since=2&page=editor").get_json()
    assert d["changed"] and d["version"] == 3 and d["robotariat"]["state"]["active"] == 2 and "check" in d


def test_each_page_gets_what_it_draws(client):
    tid = new_table(client, {"robotariat": {**MID_GAME, "facts": {"objectives": ["saboteur", None, None]}}})
    d = client.get(f"/api/robotariat/tables/{tid}?page=editor").get_json()
    assert d["check"]["ok"] and d["check_error"] is None and {"view", "slots"} <= set(d)
    assert [(c["col"], c["row"]) for c in d["slots"]] == [(1, 1), (1, 2), (0, 4), (1, 4), (2, 4)]
    d = client.get(f"/api/robotariat/tables/{tid}?page=objectives").get_json()
    assert d["objectives"]["revolution"] == "in_progress" and "view" not in d
    d = client.get(f"/api/robotariat/tables/{tid}?page=data").get_json()
    assert set(d) == {"version", "code", "robotariat", "changed"}


def test_not_at_a_table_the_page_sends_the_value_it_holds(client):
    """Player Turn, on a phone alone: a poster on the Scrap Yard, applied to the value the page sent."""
    r = client.post("/api/robotariat/action", json={"robotariat": MID_GAME, "players": 3,
                                                    "action": {"do": "poster", "at": "sy", "delta": "1"}})
    d = r.get_json()
    assert r.status_code == 200 and d["version"] is None and d["code"] is None
    assert d["robotariat"]["state"]["posters"] == {"p1": 2, "up2": 1, "sy": 1}
    r = client.post("/api/robotariat/action", json={"robotariat": MID_GAME, "players": 4, "page": "data",
                                                    "action": {"do": "data_reset"}})
    assert r.status_code == 200 and len(r.get_json()["robotariat"]["state"]["players"]) == 4
    r = client.post("/api/robotariat/action", json={"robotariat": MID_GAME, "players": 9, "action": {"do": "setup"}})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "players"


_json = st.recursive(st.none() | st.booleans() | st.integers(-3, 10**6) | st.floats(allow_nan=False, allow_infinity=False)
                     | st.text(max_size=8) | st.sampled_from(["mm", "p1", "p0", "o0", "c0", "entry", "yellow", "blue_x"]),
                     lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
                     max_leaves=12)
_actions = st.fixed_dictionaries({"do": st.sampled_from(sorted(rb.ACTIONS) + ["?", "apply"])}, optional={
    k: _json for k in ("piece", "to", "at", "delta", "seat", "character", "funds", "round", "reputation", "kind",
                       "name", "id", "a", "b", "colour", "from", "x", "y", "board", "layout", "dice", "office_rewards",
                       "starting_reputation", "faces", "black", "red", "option", "cards_played", "objectives",
                       "spy_correct", "max_junked", "cooperative")})


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=_actions, version=st.none() | st.integers(-1, 4), carried=_json)
def test_no_action_gives_a_5xx(client, action, version, carried):
    tid = new_table(client, {"robotariat": MID_GAME})
    r = client.post(f"/api/robotariat/tables/{tid}/action", json={"action": action, "version": version})
    assert r.status_code in (200, 400, 409), r.get_data(as_text=True)[:300]
    r = client.post("/api/robotariat/action", json={"action": action, "robotariat": carried})
    assert r.status_code in (200, 400), r.get_data(as_text=True)[:300]


def test_an_arrow_changed_in_the_editor_takes_its_black_line_along(client):
    """Board Set Up (paths follow black lines): a yellow arrow first set to the Poster, then to the
    Sabotage space, leaves the lines to Sabotage and, for the blue arrow, to Upgrade; no stray line to the
    Poster that the printed board does not have. A line another arrow still runs on stays."""
    tid = new_table(client)
    assert act(client, tid, {"do": "clear"}, page="editor")[0] == 200
    for kind in ("move_the_masses", "poster", "sabotage", "upgrade"):
        assert act(client, tid, {"do": "add_space", "kind": kind}, page="editor")[0] == 200
    mm, po, sa, up = (s["id"] for s in stored(client, tid)["state"]["robotariat"]["board"]["spaces"])

    def links() -> set[tuple[str, str]]:
        return {tuple(sorted(ln)) for ln in stored(client, tid)["state"]["robotariat"]["board"]["links"]}

    act(client, tid, {"do": "save_space", "id": mm, "kind": "move_the_masses", "yellow": po}, page="editor")
    assert links() == {tuple(sorted((mm, po)))}
    act(client, tid, {"do": "save_space", "id": mm, "kind": "move_the_masses", "yellow": sa}, page="editor")
    act(client, tid, {"do": "save_space", "id": mm, "kind": "move_the_masses", "yellow": sa, "blue": up}, page="editor")
    assert links() == {tuple(sorted((mm, sa))), tuple(sorted((mm, up)))}
    act(client, tid, {"do": "save_space", "id": po, "kind": "poster", "yellow": mm}, page="editor")
    act(client, tid, {"do": "save_space", "id": mm, "kind": "move_the_masses", "yellow": po, "blue": up}, page="editor")
    act(client, tid, {"do": "save_space", "id": mm, "kind": "move_the_masses", "yellow": sa, "blue": up}, page="editor")
    assert tuple(sorted((mm, po))) in links()  # the Poster's own yellow arrow still runs on that line


def test_the_guides_arrow_changed_takes_its_black_line_along(client):
    """The guided entry sets one arrow at a time: yellow to the Poster, then to Sabotage, blue to Upgrade:
    two black lines, as the printed board has (seen: a third, stray one to the Poster)."""
    tid = new_table(client)
    act(client, tid, {"do": "clear"}, page="editor")
    for kind in ("move_the_masses", "poster", "sabotage", "upgrade"):
        act(client, tid, {"do": "add_space", "kind": kind}, page="editor")
    mm, po, sa, up = (s["id"] for s in stored(client, tid)["state"]["robotariat"]["board"]["spaces"])
    for colour, to in (("yellow", po), ("yellow", sa), ("blue", up)):
        assert act(client, tid, {"do": "path", "colour": colour, "from": mm, "to": to}, page="editor")[0] == 200
    board = stored(client, tid)["state"]["robotariat"]["board"]
    assert {tuple(sorted(ln)) for ln in board["links"]} == {tuple(sorted((mm, sa))), tuple(sorted((mm, up)))}
    assert board["yellow_next"] == {mm: sa} and board["blue_next"] == {mm: up}


def test_space_ids_show_only_to_tell_apart_spaces_of_one_name(client):
    """The lists name spaces as the printed board does; an id is added only when two spaces share a name."""
    tid = new_table(client)
    html = client.get(f"/robotariat/board?table={tid}").get_data(as_text=True)
    assert '<option value="mm">Move the Masses</option>' in html
    assert act(client, tid, {"do": "edit_space", "id": "p2", "name": "Poster 1"}, page="editor")[0] == 200
    html = client.get(f"/robotariat/board?table={tid}").get_data(as_text=True)
    assert '<option value="p1">Poster 1 (p1)</option>' in html and '<option value="p2">Poster 1 (p2)</option>' in html
    assert '<option value="mm">Move the Masses</option>' in html
