"""Two Robots JSON API: the factory contract (api.md), clear 400s, and fuzzing that never gives a 5xx."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CONTRACT_EXAMPLE = {
    "part_names": ["head", "arms", "legs", "torso"],
    "stacks": [{"cards": [{"part": "head", "energies": ["chemical", "solar"]},
                          {"part": "arms", "energies": ["chemical"]}], "frozen": False}],
    "hand": [{"kind": "part", "part": "legs", "energies": ["chemical", "solar"]},
             {"kind": "attack", "name": "Nuclear Explosion", "stacks_required": 3}],
}


def post(client, url, body):
    return client.post(url, data=json.dumps(body), content_type="application/json")


def test_factory_contract_example_is_the_liz_example(client):
    """api.md example = Liz example (Stacking Part Cards): the Chemical/Solar LEGS may join the Chemical
    stack or start a new stack, which is Solar; the Attack card needs 3 stacks and there is 1."""
    r = post(client, "/api/two-robots/factory", CONTRACT_EXAMPLE)
    assert r.status_code == 200
    d = r.get_json()
    s = d["stacks"][0]
    assert s["energy"] == "chemical" and s["candidates"] == ["chemical"] and s["parts"] == ["head", "arms"]
    assert s["duplicates"] == [] and s["active_robot"] is False and s["frozen"] is False
    assert d["unique_stacks"] == 1 and d["active_robots"] == 0 and d["won"] is False
    # possible, but the Attack card cannot be played this turn: one stack, and one more from the LEGS at most
    assert d["problems"] == [{"stacks": [], "hand": 1, "message": "Nuclear Explosion needs 3 unique stacks; you "
                              "have 1 and the parts in your hand can start at most 1 more this turn."}]
    legs, attack = d["hand"]
    assert legs["playable"] and [{k: p[k] for k in p if k in ("stack", "new_stack")} for p in legs["placements"]] == \
        [{"stack": 0}, {"new_stack": "solar"}]
    assert attack["playable"] is False and "3" in attack["why"]
    assert "tr-stacking-part-cards" in d["rules"]


def test_factory_defaults_part_names_and_marks_duplicates(client):
    """Duplicate Parts: a second ARMS is listed as a duplicate and flagged on its card."""
    body = {"stacks": [{"cards": [{"part": "ARMS", "energies": ["chemical"]},
                                  {"part": "arms", "energies": ["chemical", "solar"]}]}]}
    d = post(client, "/api/two-robots/factory", body).get_json()
    assert d["part_names"] == ["head", "arms", "legs", "torso"]
    assert d["stacks"][0]["duplicates"] == ["arms"]
    assert [c["duplicate"] for c in d["stacks"][0]["cards"]] == [False, True]


def test_frozen_robots_win_through_the_api(client):
    """Frozen Stacks: a frozen complete robot counts for the win but is not deployable."""
    def robot(e: str) -> list[dict]:
        return [{"part": p, "energies": [e]} for p in ("head", "arms", "legs", "torso")]
    body = {"stacks": [{"cards": robot("chemical"), "frozen": True}, {"cards": robot("solar")}]}
    d = post(client, "/api/two-robots/factory", body).get_json()
    assert d["won"] and d["active_robots"] == 2 and d["deployable_robots"] == 1
    assert d["stacks"][0]["deployable"] is False


def test_apocalypse_clarification_through_the_api(client):
    """Clarifications: Apocalypse's two stacks of three parts, one frozen: the ability is blocked."""
    def three(e: str) -> list[dict]:
        return [{"part": p, "energies": [e]} for p in ("head", "arms", "legs")]
    body = {"salvager": "apocalypse", "stacks": [{"cards": three("chemical"), "frozen": True},
                                                 {"cards": three("solar")}]}
    d = post(client, "/api/two-robots/factory", body).get_json()
    assert d["apocalypse"]["may_trigger"] is False


def test_impossible_factory_is_a_400_naming_the_stack(client):
    body = {"stacks": [{"cards": [{"part": "head", "energies": ["nuclear"]}]},
                       {"cards": [{"part": "arms", "energies": ["nuclear"]}]}]}
    r = post(client, "/api/two-robots/factory", body)
    assert r.status_code == 400
    err = r.get_json()["error"]
    assert err["code"] == "impossible_factory"
    assert [f["path"] for f in err["fields"]] == ["stacks[0]", "stacks[1]"]
    assert "Nuclear" in err["message"]
    mixed = {"stacks": [{"cards": [{"part": "head", "energies": ["nuclear"]}, {"part": "arms", "energies": ["solar"]}]}]}
    err = post(client, "/api/two-robots/factory", mixed).get_json()["error"]
    assert err["fields"][0]["path"] == "stacks[0]" and "Stack 1" in err["message"]


def test_bad_fields_are_named(client):
    cases = [
        ({"stacks": [{"cards": [{"part": "wheel", "energies": ["solar"]}]}]}, "stacks[0].cards[0].part"),
        ({"stacks": [{"cards": [{"part": "head", "energies": ["plasma"]}]}]}, "stacks[0].cards[0].energies[0]"),
        ({"stacks": [{"cards": [{"part": "head", "energies": ["solar", "solar"]}]}]}, "stacks[0].cards[0].energies"),
        ({"stacks": [{"cards": []}]}, "stacks[0].cards"),
        ({"hand": [{"kind": "attack", "name": "x"}]}, "hand[0]"),
        ({"hand": [{"kind": "attack", "stacks_required": 9}]}, "hand[0].stacks_required"),
        ({"hand": [{"kind": "part", "part": "tail", "energies": ["solar"]}]}, "hand[0].part"),
        ({"part_names": ["head", "head", "legs", "torso"]}, "part_names"),
        ({"salvager": "pirate"}, "salvager"),
    ]
    for body, path in cases:
        r = post(client, "/api/two-robots/factory", body)
        assert r.status_code == 400, body
        assert any(f["path"] == path for f in r.get_json()["error"]["fields"]), (body, r.get_json())


def test_not_json_and_malformed(client):
    assert client.post("/api/two-robots/factory", data="x", content_type="text/plain").status_code == 415
    r = client.post("/api/two-robots/factory", data="{", content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "bad_json"
    assert post(client, "/api/two-robots/factory", [1, 2]).status_code == 400


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | st.sampled_from(
        ["head", "arms", "legs", "torso", "solar", "nuclear", "chemical", "part", "attack", "defense", "", "x" * 40]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["stacks", "cards", "part", "energies", "frozen", "hand", "kind", "stacks_required",
                         "part_names", "salvager", "name", "play"]), inner, max_size=5),
    max_leaves=25)

energy = st.sampled_from(["chemical", "electrical", "mechanical", "nuclear", "solar"])
card = st.fixed_dictionaries({"part": st.sampled_from(["head", "arms", "legs", "torso"]),
                              "energies": st.lists(energy, min_size=1, max_size=2, unique=True)})
plausible = st.fixed_dictionaries({
    "stacks": st.lists(st.fixed_dictionaries({"cards": st.lists(card, min_size=1, max_size=4),
                                              "frozen": st.booleans()}), max_size=6),
    "hand": st.lists(card.map(lambda c: {"kind": "part", **c}), max_size=4)})


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(json_values, plausible))
def test_factory_fuzz_never_5xx(client, body):
    r = post(client, "/api/two-robots/factory", body)
    assert r.status_code in (200, 400), r.get_json()
    if r.status_code == 400:
        assert r.get_json()["error"]["message"]


# ---- planner and odds endpoints ----------------------------------------------------------------------

def C(part, *energies):
    return {"part": part, "energies": list(energies)}


LONE_TRIPLE = {"stacks": [{"cards": [C("head", "chemical", "solar"), C("arms", "chemical", "solar"),
                                     C("legs", "chemical", "solar")]}],
               "hand": [{"kind": "part", **C("head", "chemical")}]}


def test_plan_keeps_the_card_that_would_lock_the_stack(client):
    """Stacking Part Cards (Liz example logic) through the API: keep the Chemical HEAD."""
    d = post(client, "/api/two-robots/plan", LONE_TRIPLE).get_json()
    assert d["steps"] == [] and d["score"]["outs"] == 9
    assert d["summary"].startswith("Keep your cards")
    assert "9 against 5" in d["runner_up"]
    assert d["p_robot_next_draw"]["exact"] == "7377/28576"  # 1 - C(87,3)/C(96,3)
    assert d["unseen_source"] == "default" and "unverified" in d["notes"][0]


def test_plan_event_power_through_the_api(client):
    """The Event Phase, option A: the robot is kept by sacrificing the two parts played first."""
    robot = [C(p, "mechanical") for p in ("head", "arms", "legs", "torso")]
    body = {"stacks": [{"cards": robot}], "event": "power",
            "hand": [{"kind": "part", **C("head", "electrical")}, {"kind": "part", **C("arms", "nuclear")}]}
    d = post(client, "/api/two-robots/plan", body).get_json()
    phases = [s["phase"] for s in d["steps"]]
    assert phases == ["play", "play", "event", "event"]
    assert d["score"]["robots"] == 1 and d["factory_after"]["active_robots"] == 1
    assert "tr-the-event-phase" in d["rules"]


def test_plan_with_entered_unseen_cards(client):
    body = dict(LONE_TRIPLE, unseen=[{"kind": "part", **C("torso", "solar"), "count": 1},
                                     {"kind": "attack", "name": "Any", "count": 3}])
    d = post(client, "/api/two-robots/plan", body).get_json()
    assert d["unseen_source"] == "entered" and d["score"]["outs"] == 1
    assert d["p_robot_next_draw"]["exact"] == "3/4"  # 1 - C(3,3)/C(4,3)


def test_plan_bad_fields(client):
    cases = [({"event": "party"}, "event"), ({"actions": 4}, "actions"), ({"powers_left": -1}, "powers_left"),
             ({"hand": [{"kind": "part", **C("head", "solar")}] * 16}, "hand"),
             ({"unseen": [{"kind": "part", **C("head", "solar"), "count": 0}]}, "unseen"),
             ({"unseen": [{"kind": "part", **C("tail", "solar")}]}, "unseen[0].part")]
    for body, path in cases:
        r = post(client, "/api/two-robots/plan", body)
        assert r.status_code == 400, body
        assert any(f["path"] == path for f in r.get_json()["error"]["fields"]), (body, r.get_json())
    r = post(client, "/api/two-robots/plan", {"stacks": [{"cards": [C("head", "solar")]}, {"cards": [C("arms", "solar")]}]})
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "impossible_factory"


def test_odds_completing_a_robot(client):
    """Draw Phase: three cards; the TORSOs that finish the Chemical/Solar stack (9 of 96 unseen)."""
    d = post(client, "/api/two-robots/odds", LONE_TRIPLE).get_json()
    assert d["mode"] == "completes_robot" and d["wanted_total"] == 9 and d["unseen_total"] == 96
    assert d["p_at_least_one"]["exact"] == "7377/28576"
    assert d["completions"][0]["missing"] == "torso" and d["completions"][0]["count"] == 9
    assert sum(__import__("fractions").Fraction(x["p"]["exact"]) for x in d["distribution"]) == 1


def test_odds_marked_cards(client):
    body = {"unseen": [{"kind": "attack", "name": "Ice Blast", "count": 2, "wanted": True},
                       {"kind": "defense", "count": 8}], "draws": 3}
    d = post(client, "/api/two-robots/odds", body).get_json()
    assert d["mode"] == "marked" and d["wanted_total"] == 2
    assert d["p_at_least_one"]["exact"] == "8/15"  # 1 - C(8,3)/C(10,3) = 1 - 56/120


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(json_values, plausible), st.sampled_from(["/api/two-robots/plan", "/api/two-robots/odds"]),
       st.dictionaries(st.sampled_from(["event", "actions", "powers_left", "hand_limit", "draws", "unseen"]),
                       st.one_of(st.integers(-2, 12), st.sampled_from(["power", "active_robot", "none", "x"]),
                                 st.lists(st.fixed_dictionaries({"kind": st.sampled_from(["part", "attack"]),
                                                                 "count": st.integers(-1, 5)}).map(
                                     lambda d: d | {"part": "head", "energies": ["solar"]}), max_size=3)),
                       max_size=3))
def test_plan_and_odds_fuzz_never_5xx(client, body, url, extra):
    if isinstance(body, dict):
        body = body | extra
    r = post(client, url, body)
    assert r.status_code in (200, 400), r.get_json()


def test_part_names_not_at_the_table_are_a_400_naming_the_card(client):
    """How to Build a Robot: a robot's four part names are the table's; a card with another name is a
    400 naming that card (the solvers' InputError) on every endpoint."""
    cases = [("/api/two-robots/factory", {"stacks": [{"cards": [C("head", "solar")]}, {"cards": [C("tail", "nuclear")]}]},
              "stacks[1].cards[0].part"),
             ("/api/two-robots/plan", {"hand": [{"kind": "attack", "stacks_required": 1}, {"kind": "part", **C("tail", "solar")}]},
              "hand[1].part"),
             ("/api/two-robots/odds", {"unseen": [{"kind": "part", **C("head", "solar")}, {"kind": "part", **C("tail", "solar")}]},
              "unseen[1].part")]
    for url, body, path in cases:
        r = post(client, url, body)
        assert r.status_code == 400, (url, r.get_json())
        err = r.get_json()["error"]
        assert err["fields"][0]["path"] == path and "'tail' is not one of the four part names" in err["message"]


def test_cards_are_checked_alike_in_hand_stacks_and_unseen(client):
    """Energy Stacks: a card has one energy (core) or two different ones (hybrid), of the five; the hand,
    the stacks and the unseen cards say so with the same words, naming the field."""
    from typing import get_args

    from assistant.two_robots.schemas import Energy, SalvagerId
    from solvers.two_robots.factory import ENERGIES
    from solvers.two_robots.game_data import DATA
    assert get_args(Energy) == ENERGIES and get_args(SalvagerId) == tuple(s.id for s in DATA.salvagers)
    same = {"part": "head", "energies": ["solar", "solar"]}
    cases = [({"hand": [{"kind": "part", **same}]}, "hand[0].energies", "a hybrid has two different energies"),
             ({"stacks": [{"cards": [same]}]}, "stacks[0].cards[0].energies", "a hybrid has two different energies"),
             ({"unseen": [{"kind": "part", **same}]}, "unseen[0].energies", "a hybrid has two different energies"),
             ({"hand": [{"kind": "part", "part": "head"}]}, "hand[0]", "a part card needs `part` and `energies`"),
             ({"unseen": [{"kind": "part", "part": "head"}]}, "unseen[0]", "a part card needs `part` and `energies`"),
             ({"hand": [{"kind": "attack"}]}, "hand[0]", "an Attack or Defense card needs `stacks_required` (its gold number)")]
    for body, path, message in cases:
        r = post(client, "/api/two-robots/plan", body)
        assert r.status_code == 400
        assert {"path": path, "message": message} in r.get_json()["error"]["fields"], (body, r.get_json())
    r = post(client, "/api/two-robots/factory", {"hand": [{"kind": "part", "part": "head", "energies": ["plasma"]}]})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "hand[0].energies[0]"
