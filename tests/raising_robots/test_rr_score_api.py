"""API of the Raising Robots score (api.md "POST /api/raising-robots/score") and the player comparison
(tie-breakers, solo target: "Solo / 2P Gameplay Changes"); 400s name the field; fuzz never 5xx."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

URL = "/api/raising-robots/score"
COMPARE = "/api/raising-robots/score/compare"

CONTRACT_EXAMPLE = {
    "inventory": {"sensor": 1, "gear": 7, "microchip": 0, "program": 0, "duct_tape": 2, "battery": 2,
                  "vp": 23, "robot_cards": 1},
    "robots": [{"row": "design", "column": 1, "vp": 5, "needs_microchip": True, "upgraded": True,
                "game_end": {"kind": "resource_pairs", "resource": "gear"}}],
    "class_cards": [{"name": "optional", "grade": "B", "extra_credit": True,
                     "vp_by_grade": {"D": 2, "C": 4, "B": 6, "A": 9}}],
}


def fields(r):
    return [f["path"] for f in r.get_json()["error"]["fields"]]


def test_contract_example(client):
    """api.md example: robot 5 + class 9 (B + Extra Credit = A) + 23 + leftovers 4 + gear pairs 3 = 44."""
    r = client.post(URL, json=CONTRACT_EXAMPLE)
    assert r.status_code == 200
    d = r.get_json()
    assert {k: d[k] for k in ("robots", "class_cards", "inventory_vp", "leftovers", "game_end", "total")} == {
        "robots": 5, "class_cards": 9, "inventory_vp": 23, "leftovers": 4, "game_end": 3, "total": 44}
    assert sum(ln["vp"] for ln in d["lines"]) == 44
    assert d["grades"] == [{"name": "optional", "met": "B", "final": "A", "vp": 9}]
    assert "rr-game-end-icons" in d["rules"]


def test_inventory_vp_template_grades_itself(client):
    """New Class Objectives: the replacement card counts inventory VP; with its thresholds entered,
    the grade follows from the inventory (23 VP reaches C at 20, not B at 25)."""
    card = {"template": "friends-inventory-vp", "thresholds": {"D": 15, "C": 20, "B": 25, "A": 30},
            "vp_by_grade": {"D": 2, "C": 4, "B": 6, "A": 9}}
    d = client.post(URL, json={"inventory": {"vp": 23}, "class_cards": [card]}).get_json()
    assert d["grades"][0]["final"] == "C"
    assert d["class_cards"] == 4


def test_competitions_template_needs_the_count(client):
    """New Class Objectives: the competitions card counts completed competitions."""
    card = {"template": "friends-competitions", "thresholds": {"D": 1, "C": 2, "B": 3, "A": 4},
            "vp_by_grade": {"D": 1, "C": 3, "B": 5, "A": 8}, "extra_credit": True}
    r = client.post(URL, json={"class_cards": [card]})
    assert r.status_code == 400 and fields(r) == ["class_cards[0].count"]
    d = client.post(URL, json={"class_cards": [card], "competitions_completed": 3}).get_json()
    assert d["grades"][0]["final"] == "A" and d["class_cards"] == 8


def test_grade_that_contradicts_the_count_is_refused(client):
    card = {"grade": "A", "count": 1, "thresholds": {"D": 1, "A": 4}, "vp_by_grade": {"D": 1, "A": 5}}
    r = client.post(URL, json={"class_cards": [card]})
    assert r.status_code == 400 and fields(r) == ["class_cards[0].grade"]


@pytest.mark.parametrize("body,path", [
    ({"inventory": {"gear": -1}}, "inventory.gear"),
    ({"inventory": {"gears": 1}}, "inventory.gears"),
    ({"robots": [{"row": "design", "column": 6}]}, "robots[0].column"),
    ({"robots": [{"row": "design", "column": 2}, {"row": "design", "column": 2}]}, "robots[1].column"),
    ({"robots": [{"row": "design", "game_end": {"kind": "resource_pairs"}}]}, "robots[0].game_end"),
    ({"robots": [{"row": "design", "game_end": {"kind": "moon"}}]}, "robots[0].game_end.kind"),
    ({"class_cards": [{"grade": "E"}]}, "class_cards[0].grade"),
    ({"class_cards": [{"grade": "B", "vp_by_grade": {"C": 3}}]}, "class_cards[0].vp_by_grade.B"),
    ({"class_cards": [{}]}, "class_cards[0]"),
    ({"class_cards": [{"grade": "D", "vp_by_grade": {"D": 1}}] * 4}, "class_cards"),
    ({"class_cards": [{"grade": "D", "template": "nope"}]}, "class_cards[0].template"),  # the one model names it
])
def test_bad_fields_are_named(client, body, path):
    r = client.post(URL, json=body)
    assert r.status_code == 400
    assert fields(r)[0] == path


def test_not_json_is_415(client):
    r = client.post(URL, data="x", content_type="text/plain")
    assert r.status_code == 415


# ---- comparison ------------------------------------------------------------------------------------

def player(name, robot_vp, class_vp, inv_vp):
    return {"name": name, "inventory": {"vp": inv_vp},
            "robots": [{"row": "design", "vp": robot_vp}],
            "class_cards": [{"grade": "D", "vp_by_grade": {"D": class_vp}}]}


def test_compare_tie_breakers(client):
    """Game end ties (S1): robot VP first, then class VP, then shared."""
    body = {"players": [player("Ann", 10, 4, 6), player("Bo", 12, 2, 6), player("Cy", 10, 6, 4),
                        player("Di", 10, 4, 6)]}
    d = client.post(COMPARE, json=body).get_json()
    assert [(s["name"], s["place"], s["decided_by"]) for s in d["standings"]] == [
        ("Bo", 1, ""), ("Cy", 2, "robot VP"), ("Ann", 3, "class VP"), ("Di", 3, "shared")]
    assert all(s["total"] == 20 for s in d["standings"])


def test_compare_solo_target(client):
    """Solo / 2P Gameplay Changes: campaign threshold +50 with Competitions & Friendships."""
    body = {"players": [player("Me", 6, 10, 84)], "solo": {"threshold": 60, "mode": "campaign"}}
    d = client.post(COMPARE, json=body).get_json()
    assert d["solo"]["target"] == 110 and d["solo"]["total"] == 100
    assert d["solo"]["margin"] == -10 and d["solo"]["reached"] is False


def test_solo_needs_one_player(client):
    body = {"players": [player("A", 1, 1, 1), player("B", 1, 1, 1)], "solo": {"threshold": 50}}
    r = client.post(COMPARE, json=body)
    assert r.status_code == 400 and fields(r) == ["solo"]


def test_compare_error_names_the_player(client):
    body = {"players": [player("A", 1, 1, 1), {"robots": [{"row": "design", "column": 1}, {"row": "design", "column": 1}]}]}
    r = client.post(COMPARE, json=body)
    assert r.status_code == 400 and fields(r) == ["players[1].robots[1].column"]


# ---- fuzz ------------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 1000) | st.sampled_from(["design", "B", "gear", "a_grade", "", "x"]),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(
        st.sampled_from(["inventory", "robots", "class_cards", "row", "column", "vp", "grade", "game_end", "kind",
                         "resource", "gear", "extra_credit", "vp_by_grade", "B", "players", "solo", "threshold",
                         "thresholds", "count", "template", "upgraded"]), kids, max_size=5),
    max_leaves=12)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(json_values)
def test_fuzz_never_5xx(client, body):
    for url in (URL, COMPARE):
        r = client.post(url, data=json.dumps(body), content_type="application/json")
        assert r.status_code in (200, 400), (url, body, r.get_data(as_text=True)[:300])


def test_game_end_action_and_who_the_seat_is(client):
    """Game End Ability: an hourglass on the basic action scores without the upgrade (`game_end.action`,
    default "upgraded"); the seat's inventor and Friendship cards are taken by name and an ability the score
    does not know is listed as not taken into account."""
    robot = {"row": "design", "vp": 4, "upgraded": False, "game_end": {"kind": "resource_pairs", "resource": "gear"}}
    body = {"inventory": {"gear": 6}, "robots": [robot], "inventor": {"name": "Charlotte", "upgraded": True},
            "friendships": ["Nikola"]}
    upgraded_action = client.post("/api/raising-robots/score", json=body).get_json()
    assert upgraded_action["game_end"] == 0
    body["robots"][0]["game_end"]["action"] = "basic"
    basic = client.post("/api/raising-robots/score", json=body).get_json()
    assert basic["game_end"] == 3 and basic["total"] == upgraded_action["total"] + 3
    assert {a["ability"]: a["treatment"] for a in basic["abilities"]} == {"charlotte": "no_effect",
                                                                          "nikola": "not_modelled"}
    assert basic["notes"] == ["Not taken into account by the score: Nikola (friendship). Check by hand whether it "
                              "changes this answer."]
    bad = client.post("/api/raising-robots/score", json={"robots": [{**robot, "game_end": {
        "kind": "a_grade", "action": "both"}}]})
    assert bad.status_code == 400 and bad.get_json()["error"]["fields"][0]["path"] == "robots[0].game_end.action"
