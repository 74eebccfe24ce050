"""POST /api/raising-robots/competitions/plan, /setup and /round: the contract of api.md, clear 400s
naming the field, and no input ever answered with a 5xx."""
from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

PLAN = "/api/raising-robots/competitions/plan"
SETUP = "/api/raising-robots/competitions/setup"
ROUND = "/api/raising-robots/competitions/round"

API_MD_EXAMPLE = {  # the request of api.md "Raising Robots", verbatim
    "player": {"inventory": {"sensor": 0, "gear": 0, "microchip": 0, "program": 0, "duct_tape": 0,
                             "battery": 0, "vp": 0, "robot_cards": 0},
               "tokens": {"unplaced": {"pink": 1}, "placed": {"orange": 3}},
               "class_cards": {"meeting_d": 0, "meeting_c": 0},
               "robots": [{"row": "design", "any_row": False, "cost_energy": [2, 3], "cost_resources": [3, 2],
                           "basic_energy": 4, "upgraded_energy": 6, "upgraded": False, "vp": 4,
                           "needs_microchip": False}],
               "friendships": 0, "completed": []},
    "competitions": [{"type": "mech_masters", "criterion": "mech-10-robot-cards", "side": "A",
                      "token_type": "pink", "cost": {"resources": 4, "batteries": 7}},
                     {"type": "robo_race", "criterion": "race-energy-costs", "side": "B",
                      "token_type": "orange", "cost": {"resources": 3, "batteries": 5}, "values": [1, 2, 3]}],
    "values": {"sensor": "1/3", "upgrade_token": "2", "friendship": "4"},
    "rules": {"duct_tape_pays_resources": False},
}


def body(**player):
    b = copy.deepcopy(API_MD_EXAMPLE)
    b["player"].update(player)
    return b


def test_api_md_example_answers_in_the_contract_shape(client):
    r = client.post(PLAN, json=API_MD_EXAMPLE)
    assert r.status_code == 200
    data = r.get_json()
    assert data["status"] == "optimal"
    assert [(e["type"], e["met"]) for e in data["eligible"]] == [("mech_masters", False), ("robo_race", False)]
    assert data["plan"]["steps"] == [] and data["plan"]["value"] == {"exact": "0", "approx": 0.0}
    assert data["plan"]["inventory_after"] == API_MD_EXAMPLE["player"]["inventory"]
    assert any(n.startswith("No criterion in play is met now") for n in data["notes"])
    assert data["competitions"][1]["values"] == [1, 2, 3] and data["competitions"][1]["sources"]["values"] == "entered"


def test_competition_example_through_the_api(client):
    """Competition Example: 10 Robot Cards; with a Friendship card valued 6 the plan pays 4 resources
    and takes +2 VP and a Friendship card (value 2 + 6 - 4/3 = 20/3)."""
    b = {"player": {"inventory": {"robot_cards": 10, "sensor": 1}, "tokens": {"unplaced": {"pink": 1}}},
         "competitions": [{"criterion": "mech-10-robot-cards"}], "values": {"friendship": "6"}}
    data = client.post(PLAN, json=b).get_json()
    (step,) = data["plan"]["steps"]
    assert step["type"] == "mech_masters" and step["payment"]["kind"] == "resources"
    assert sum(step["payment"]["items"].values()) == 4
    assert step["reward"] == {"option": "friendship", "vp": 2, "friendship_draw": 3, "friendship_keep": 1}
    assert data["plan"]["value"]["exact"] == "20/3"
    assert data["plan"]["friendships_after"] == 1 and data["plan"]["inventory_after"]["vp"] == 2
    assert "rr-competition-example" in step["rules"] and step["why"] == "10 Robot Cards in hand (10 needed)"


def test_only_one_order_through_the_api_says_why(client):
    """How to Complete Competitions (each later competition checked after the earlier costs)."""
    b = {"player": {"inventory": {"battery": 14}, "tokens": {"placed": {"orange": 3}}},
         "competitions": [{"criterion": "think-3-same-type"}, {"criterion": "mech-13-batteries"}]}
    data = client.post(PLAN, json=b).get_json()
    assert [s["type"] for s in data["plan"]["steps"]] == ["mech_masters", "think_tank"]
    assert data["plan"]["orders"] == 1 and data["claims"]["only_order"] is True
    assert any(n.startswith("Only this order works") for n in data["notes"])
    assert data["plan"]["steps"][0]["reasons"][0].startswith("Before Think Tank")
    assert data["plan"]["value"]["exact"] == "28/3"


def test_ties_are_listed(client):
    """Planner objective (semantics.md): when another plan has the same value, it is listed."""
    b = {"player": {"inventory": {"battery": 13, "gear": 4}, "tokens": {"unplaced": {"pink": 1}}},
         "competitions": [{"criterion": "mech-13-batteries"}], "values": {"upgrade_token": "4/3"}}
    data = client.post(PLAN, json=b).get_json()
    kinds = {data["plan"]["steps"][0]["payment"]["kind"], data["ties"][0]["steps"][0]["payment"]["kind"]}
    assert kinds == {"token", "resources"} and data["ties_complete"] is True
    assert data["ties"][0]["value"] == data["plan"]["value"]


def test_every_rule_id_the_planner_links_exists(client):
    b = {"player": {"inventory": {"battery": 14, "robot_cards": 10}, "tokens": {"placed": {"orange": 3}},
                    "friendships": 0},
         "competitions": [{"criterion": "think-3-same-type"}, {"criterion": "mech-13-batteries"}],
         "values": {"friendship": "9"}}
    data = client.post(PLAN, json=b).get_json()
    ids = set(data["rules"]) | {i for s in data["plan"]["steps"] for i in s["rules"]}
    ids |= set(client.post(SETUP, json={"players": 1}).get_json()["rules"])
    assert {"rr-friendships", "rr-friendship-example", "rr-solo-2p-gameplay-changes"} <= ids
    for rid in ids:
        assert client.get(f"/api/rules/{rid}").status_code == 200, rid


BAD_FIELDS = [
    (lambda b: b["player"]["inventory"].update(gear=-1), "player.inventory.gear"),
    (lambda b: b["player"]["inventory"].update(gear="lots"), "player.inventory.gear"),
    (lambda b: b["player"]["tokens"]["unplaced"].update(purple=1), "player.tokens.unplaced.purple"),
    (lambda b: b["player"].update(friendships=3), "player.friendships"),
    (lambda b: b["player"].update(completed=["chess_club"]), "player.completed"),
    (lambda b: b["player"].update(class_cards={"meeting_d": 0, "meeting_c": 1}), "player.class_cards.meeting_c"),
    (lambda b: b["player"]["robots"][0].update(row="attic"), "player.robots[0].row"),
    (lambda b: b["competitions"][0].update(criterion="expo-10-of-one"), "competitions[0].criterion"),
    (lambda b: b["competitions"][0].update(side="C"), "competitions[0].side"),
    (lambda b: b["competitions"][0].update(token_type="red"), "competitions[0].token_type"),
    (lambda b: b["competitions"][0].update(criterion="expo-3-sets"), "competitions[0].criterion"),
    (lambda b: b["competitions"][1].update(type="mech_masters", criterion="mech-13-batteries"), "competitions[1].type"),
    (lambda b: b["competitions"][0]["cost"].update(resources=0), "competitions[0].cost.resources"),
    (lambda b: b["competitions"][0].update(values=[1, 2]), "competitions[0].values"),
    (lambda b: b["competitions"][1].update(values=[]), "competitions[1].values"),
    (lambda b: b["values"].update(friendship="lots"), "values.friendship"),
    (lambda b: b["values"].update(friendship="1/0"), "values.friendship"),
    (lambda b: b["values"].update(gear="-1/3"), "values.gear"),
    (lambda b: b["values"].update(gear=True), "values.gear"),
    (lambda b: b["values"].update(charisma="1"), "values.charisma"),
    (lambda b: b["values"].update(gear="1/997", sensor="1/991", battery="1/983"), "values"),
    (lambda b: b["rules"].update(duct_tape_pays_resources="maybe"), "rules.duct_tape_pays_resources"),
    (lambda b: b.update(competitions=[{"criterion": "expo-3-sets"}] * 5), "competitions"),
]


@pytest.mark.parametrize("spoil,path", BAD_FIELDS, ids=[p for _, p in BAD_FIELDS])
def test_bad_input_is_a_400_naming_the_field(client, spoil, path):
    b = copy.deepcopy(API_MD_EXAMPLE)
    spoil(b)
    r = client.post(PLAN, json=b)
    assert r.status_code == 400, r.get_json()
    err = r.get_json()["error"]
    assert path in [f["path"] for f in err["fields"]], err
    assert err["message"]


def test_not_json_and_malformed_json(client):
    assert client.post(PLAN, data="player=1", content_type="application/x-www-form-urlencoded").status_code == 415
    r = client.post(PLAN, data="{not json", content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"]["message"]
    assert client.post(PLAN, json=[1, 2]).status_code == 400
    assert client.get(PLAN).status_code == 405


def test_empty_body_means_defaults(client):
    r = client.post(PLAN, json={})
    assert r.status_code == 200 and r.get_json()["plan"]["steps"] == []


# ---- fuzz: a valid body with one part replaced by anything JSON can hold ------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6) | st.sampled_from(["1/3", "0", "A", "B", "pink", "design", "robo_race", "expo-3-sets"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


ALL_PATHS = list(_paths(API_MD_EXAMPLE))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(ALL_PATHS), value=JSON)
def test_fuzz_never_5xx(client, path, value):
    b = copy.deepcopy(API_MD_EXAMPLE)
    if not path:
        b = value
    else:
        node = b
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    r = client.post(PLAN, data=json.dumps(b), content_type="application/json")
    assert r.status_code in (200, 400), (r.status_code, r.get_data(as_text=True)[:300])
    if r.status_code == 400:
        assert r.get_json()["error"]["message"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(inv=st.dictionaries(st.sampled_from(["sensor", "gear", "microchip", "program", "duct_tape", "battery",
                                            "robot_cards"]), st.integers(0, 999)),
       criteria=st.lists(st.sampled_from(["expo-9-of-one", "mech-13-batteries", "think-3-different-types",
                                          "race-same-row", "mech-7-duct-tape"]), max_size=4, unique=True),
       side=st.sampled_from(["A", "B"]), res=st.integers(1, 30), bat=st.integers(1, 30),
       tokens=st.fixed_dictionaries({}, optional={t: st.integers(0, 20) for t in ("pink", "orange", "blue", "green")}))
def test_fuzz_large_valid_inputs_plan(client, inv, criteria, side, res, bat, tokens):
    """Big counts and costs at the edges of what is accepted still plan (never a 5xx, always a legal plan)."""
    types = {"expo": 0, "mech": 0}
    comps = []
    for c in criteria:
        if c.startswith("mech"):
            types["mech"] += 1
            if types["mech"] > 1:
                continue
        comps.append({"criterion": c, "side": side, "cost": {"resources": res, "batteries": bat}})
    b = {"player": {"inventory": inv, "tokens": {"unplaced": tokens, "placed": tokens}}, "competitions": comps,
         "rules": {"duct_tape_pays_resources": True}}
    r = client.post(PLAN, json=b)
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    assert r.get_json()["status"] == "optimal"


# ---- setup helper -------------------------------------------------------------------------------------

def test_setup_deals_one_card_of_each_type_and_solo_tokens_on_rounds_4_to_7(client):
    """Changes to Setup steps 2 and 6: one card per competition type; solo, one spare token of each type
    on round spots 4, 5, 6 and 7."""
    data = client.post(SETUP, json={"players": 1, "seed": 7}).get_json()
    assert [c["type"] for c in data["cards"]] == ["engineering_expo", "mech_masters", "think_tank", "robo_race"]
    assert all(c["criterion"].split("-")[0] in c["type"].replace("engineering_", "").replace("robo_", "")
               .replace("mech_masters", "mech").replace("think_tank", "think") for c in data["cards"])
    assert sorted(s["round"] for s in data["tracker"]) == [4, 5, 6, 7]
    assert sorted(s["token_type"] for s in data["tracker"]) == ["blue", "green", "orange", "pink"]
    assert data == client.post(SETUP, json={"players": 1, "seed": 7}).get_json()  # a seed repeats the deal


def test_setup_two_players_tokens_on_rounds_5_and_7_and_none_for_more(client):
    """Changes to Setup step 6: two players, spots 5 and 7; three or more players, no tracker tokens."""
    two = client.post(SETUP, json={"players": 2}).get_json()
    assert sorted(s["round"] for s in two["tracker"]) == [5, 7]
    assert len({s["token_type"] for s in two["tracker"]}) == 2
    assert client.post(SETUP, json={"players": 4}).get_json()["tracker"] == []
    assert client.post(SETUP, json={"players": 7}).status_code == 400


def test_round_marker_reaching_a_token_flips_the_matching_tile(client):
    """Solo / 2P Gameplay Changes: when the round marker moves onto a token, it is removed and the tile of
    that upgrade type turns to its B side (if not already). Pink is the Mech Masters tile (Competition Example)."""
    tracker = [{"round": 5, "token_type": "pink"}, {"round": 7, "token_type": "orange"}]
    data = client.post(ROUND, json={"marker_to": 5, "tracker": tracker}).get_json()
    assert data["sides"]["mech_masters"] == "B" and data["sides"]["engineering_expo"] == "A"
    assert [s["round"] for s in data["tracker"]] == [7]
    assert data["events"][0]["flipped"] is True and "round marker" in data["events"][0]["why"]
    again = client.post(ROUND, json={"marker_to": 5, "tracker": tracker, "sides": {"mech_masters": "B"}}).get_json()
    assert again["events"][0]["flipped"] is False and again["tracker"] == data["tracker"]


def test_round_end_flips_tiles_of_competitions_completed_this_round(client):
    """How to Complete Competitions step 5: at round end, a tile whose card got an achievement token
    turns to its B side."""
    data = client.post(ROUND, json={"marker_to": 3, "completed_this_round": ["think_tank"]}).get_json()
    assert data["sides"]["think_tank"] == "B" and data["events"][0]["flipped"] is True


def test_round_bad_fields(client):
    r = client.post(ROUND, json={"marker_to": 9})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "marker_to"
    r = client.post(ROUND, json={"marker_to": 5, "tracker": [{"round": 5, "token_type": "pink"}] * 2})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "tracker"


def test_setup_applies_each_inventors_setup_changes(client):
    """Friends Inventor Explanations ("Immediate"): Charlotte begins with 1 Duct Tape fewer, Confucius with
    1 Battery and 2 Duct Tape fewer and his Scroll Board, Johannes with 3 more Wilds and 1 Duct Tape fewer;
    Competitions & Friendships, Changes to Setup step 4: Friendship cards matching inventors in play leave
    the deck. An inventor Tablebot does not know is said so."""
    r = client.post(SETUP, json={"players": 4, "seed": 1,
                                 "inventors": ["Charlotte", "Confucius", "Johannes", "Ada Lovelace"]})
    assert r.status_code == 200, r.get_json()
    inv = r.get_json()["inventors"]
    assert [s["changes"] for s in inv["seats"]] == [{"duct_tape": -1}, {"battery": -1, "duct_tape": -2},
                                                     {"duct_tape": -1, "wild": 3}, {}]
    assert inv["seats"][1]["scroll_board"] is True and inv["seats"][3]["modelled"] is False
    assert "does not know" in inv["seats"][3]["why"]
    assert inv["remove_friendships"][:3] == ["Charlotte", "Confucius", "Johannes"]
    assert "rr-confucius-complexity-hard" in inv["rules"]
    bad = client.post(SETUP, json={"players": 2, "inventors": ["x" * 41]})
    assert bad.status_code == 400 and bad.get_json()["error"]["fields"][0]["path"] == "inventors[0]"
