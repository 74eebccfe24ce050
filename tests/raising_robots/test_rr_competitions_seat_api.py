"""The planner API knows who the seat is (issue 12): `player.inventor` and `player.friendships` by name
(a count still accepted), Sacagawea modelled, abilities it cannot model listed, and "I kept <card>"
(POST /api/raising-robots/competitions/kept) applying the kept card's immediate effect and re-planning."""
from __future__ import annotations

PLAN = "/api/raising-robots/competitions/plan"
KEPT = "/api/raising-robots/competitions/kept"
MECH_TAPE = {"criterion": "mech-7-duct-tape"}


def test_sacagawea_meets_mech_masters_with_robot_cards(client):
    """Friends Inventor Explanations, Sacagawea (ongoing: Robot Cards act as Duct Tape): the issue's case,
    4 duct tape and 5 Robot Cards. Without her Mech Masters 7+ Duct Tape is not met; with her it is."""
    player = {"inventory": {"duct_tape": 4, "robot_cards": 5}}
    plain = client.post(PLAN, json={"player": player, "competitions": [MECH_TAPE]}).get_json()
    assert plain["eligible"][0]["met"] is False and plain["plan"]["steps"] == []
    saca = client.post(PLAN, json={"player": {**player, "inventor": {"name": "Sacagawea", "upgraded": False}},
                                   "competitions": [MECH_TAPE]})
    assert saca.status_code == 200, saca.get_json()
    data = saca.get_json()
    assert data["eligible"][0]["met"] is True and "acting as duct tape (Sacagawea)" in data["eligible"][0]["why"]
    assert [s["type"] for s in data["plan"]["steps"]] == ["mech_masters"]
    assert data["abilities"] == [{"ability": "sacagawea", "role": "inventor", "treatment": "modelled",
                                  "why": data["abilities"][0]["why"]}]
    assert "rr-sacagawea-complexity-medium" in data["rules"]
    # as a Friendship card it works the same
    fr = client.post(PLAN, json={"player": {**player, "friendships": ["Sacagawea"]},
                                 "competitions": [MECH_TAPE]}).get_json()
    assert fr["eligible"][0]["met"] is True


def test_friendships_by_name_or_count_and_unknown_abilities_are_listed(client):
    """Friendships (at most 2 held): names or a count fill the cap alike; an ability the planner does not
    model is named in the answer as not taken into account, never dropped silently."""
    b = {"competitions": [{"criterion": "mech-13-batteries"}], "player": {"inventory": {"battery": 13}}}
    by_count = client.post(PLAN, json={**b, "player": {**b["player"], "friendships": 2}}).get_json()
    by_name = client.post(PLAN, json={**b, "player": {**b["player"], "friendships": ["Temple", "Yo-Yo"],
                                                      "inventor": {"name": "Susan"}}}).get_json()
    assert by_count["plan"]["value"] == by_name["plan"]["value"]
    assert by_name["plan"]["steps"][0]["reward"]["friendship_keep"] == 0  # the cap of 2 is full either way
    treat = {a["ability"]: a["treatment"] for a in by_name["abilities"]}
    assert treat == {"susan": "not_modelled", "temple": "no_effect", "yo_yo": "no_effect"}
    assert any(n.startswith("Not taken into account by the planner: Susan (inventor)") for n in by_name["notes"])
    unnamed = [n for n in by_count["notes"] if n.startswith("Not taken into account")]
    assert unnamed and "2 unnamed" not in unnamed[0] and "an unnamed Friendship card" in unnamed[0]


def test_bad_friendships_are_a_400_naming_the_field(client):
    for bad in (3, -1, ["a", "b", "c"], [""], "Johannes", [5], True):
        r = client.post(PLAN, json={"player": {"friendships": bad}})
        assert r.status_code == 400, bad
        assert [f["path"] for f in r.get_json()["error"]["fields"]] == ["player.friendships"]
    r = client.post(PLAN, json={"player": {"inventor": {"name": "x" * 41}}})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "player.inventor.name"


def test_a_friendship_step_says_the_rest_depends_on_the_card_kept(client):
    """Friendships / Completion Rewards: after a Friendship reward the player keeps one of the cards drawn,
    and what it gives may change the rest of the plan; the step says so and carries the seat after it."""
    b = {"player": {"inventory": {"battery": 13, "gear": 9}},
         "competitions": [{"criterion": "mech-13-batteries"}, {"criterion": "expo-9-of-one"}],
         "values": {"friendship": "8"}}
    data = client.post(PLAN, json=b).get_json()
    kept_steps = [s for s in data["plan"]["steps"] if s["depends_on_kept"]]
    assert kept_steps and all(s["reward"]["friendship_keep"] == 1 for s in kept_steps)
    assert any("depends on which one" in n for n in data["notes"])
    first = data["plan"]["steps"][0]
    assert set(first["after"]) == {"inventory", "tokens", "friendships", "completed"}


def test_keeping_johannes_mid_plan_applies_his_gain_and_plans_again(client):
    """Friendship Ability Clarifications, Johannes (when gained: one of each resource, a battery, a duct tape
    and a VP): 12 batteries and 6 duct tape meet neither Mech Masters criterion, and the plan says
    so; keeping Johannes after an earlier competition gives the 13th battery, and the new plan completes
    Mech Masters."""
    player = {"inventory": {"battery": 12, "duct_tape": 6, "gear": 2}, "friendships": [],
              "completed": ["engineering_expo"]}
    comps = [{"criterion": "mech-13-batteries"}]
    before = client.post(PLAN, json={"player": player, "competitions": comps}).get_json()
    assert before["plan"]["steps"] == []
    r = client.post(KEPT, json={"player": player, "competitions": comps, "kept": {"name": "Johannes"}})
    assert r.status_code == 200, r.get_json()
    data = r.get_json()
    assert data["kept"]["gained"] == {"sensor": 1, "gear": 1, "microchip": 1, "program": 1, "battery": 1,
                                      "duct_tape": 1, "vp": 1}
    assert data["player"]["inventory"]["battery"] == 13 and data["player"]["friendships"] == ["Johannes"]
    assert [s["type"] for s in data["plan"]["steps"]] == ["mech_masters"]
    assert "rr-friendship-johannes" in data["kept"]["rules"]


def test_keeping_confucius_ada_and_john(client):
    """Friendship Ability Clarifications: Confucius gives 1 wild or 2 batteries per assembled robot, chosen
    per robot; Ada and John each lose 1 battery when kept (nothing when there is none)."""
    robots = [{"row": "design"}, {"row": "recycle"}, {"row": "fabricate"}]
    base = {"player": {"inventory": {"battery": 1}, "robots": robots}}
    r = client.post(KEPT, json={**base, "kept": {"name": "Confucius", "per_robot": ["gear", "gear", "batteries"]}})
    assert r.get_json()["kept"]["gained"] == {"gear": 2, "battery": 2}
    r = client.post(KEPT, json={**base, "kept": {"name": "Confucius", "per_robot": ["gear"]}})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "kept.per_robot"
    ada = client.post(KEPT, json={**base, "kept": {"name": "Ada"}}).get_json()
    assert ada["kept"]["gained"] == {"battery": -1} and ada["player"]["inventory"]["battery"] == 0
    john = client.post(KEPT, json={"player": {"friendships": ["Ada"]}, "kept": {"name": "John"}}).get_json()
    assert john["kept"]["gained"] == {} and john["player"]["friendships"] == ["Ada", "John"]
    full = client.post(KEPT, json={"player": {"friendships": 2}, "kept": {"name": "John"}})
    assert full.status_code == 400 and full.get_json()["error"]["fields"][0]["path"] == "player.friendships"
    albert = client.post(KEPT, json={"player": {}, "kept": {"name": "Albert"}}).get_json()
    assert albert["kept"]["modelled"] is False and albert["notes"][0].startswith("Albert:")
