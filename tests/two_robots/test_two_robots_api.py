"""Two Robots JSON API: the factory contract (api.md), clear 400s, and fuzzing that never gives a 5xx."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tr_helpers import claim, phone_with_seat

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
                         "part_names", "salvager", "name", "play", "others", "discard", "seen", "deck", "parts",
                         "count", "hand_count", "health", "energy", "destroy", "card", "factories", "player",
                         "table", "seat"]), inner, max_size=5),
    max_leaves=25)

energy = st.sampled_from(["chemical", "electrical", "mechanical", "nuclear", "solar"])
card = st.fixed_dictionaries({"part": st.sampled_from(["head", "arms", "legs", "torso"]),
                              "energies": st.lists(energy, min_size=1, max_size=2, unique=True)})
plausible = st.fixed_dictionaries({
    "stacks": st.lists(st.fixed_dictionaries({"cards": st.lists(card, min_size=1, max_size=4),
                                              "frozen": st.booleans()}), max_size=6),
    "hand": st.lists(card.map(lambda c: {"kind": "part", **c}), max_size=4)})


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(json_values, plausible))
def test_factory_fuzz_never_5xx(client, body):
    r = post(client, "/api/two-robots/factory", body)
    assert r.status_code in (200, 400) or (r.status_code == 404 and "table" in body), r.get_json()
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
    assert r.status_code in (200, 400) or (r.status_code == 404 and "table" in body), r.get_json()


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


# ---- the whole table (issue 13): other seats, the discard pile, Attack cards ---------------------------

MECH_THREE = {"stacks": [{"cards": [C("head", "mechanical"), C("arms", "mechanical"), C("legs", "mechanical")]}]}


def test_other_factories_and_the_discard_pile_leave_the_unseen_cards(client):
    """Clarifications (the discard pile is public) + every factory is on the table: Ben's TORSO
    (Mechanical) is not unseen any more, so the TORSOs that finish Ana's Mechanical stack drop from 5
    to 4, and a discarded Attack card leaves the unseen cards too; the answer says how many each place took."""
    alone = post(client, "/api/two-robots/odds", MECH_THREE).get_json()
    body = dict(MECH_THREE, others=[{"name": "Ben", "stacks": [{"cards": [C("torso", "mechanical")]}]}],
                discard=[{"kind": "attack", "name": "Ice Blast"}])
    table = post(client, "/api/two-robots/odds", body).get_json()
    assert (alone["wanted_total"], alone["unseen_total"]) == (5, 97)
    assert (table["wanted_total"], table["unseen_total"]) == (4, 95)
    used = {u["place"]: u["cards"] for u in table["unseen"]["used"]}
    assert used == {"your_factory": 3, "your_hand": 0, "other_factories": 1, "discard": 1, "seen": 0}
    plan = post(client, "/api/two-robots/plan", body).get_json()
    assert plan["score"]["outs"] == 4 and plan["unseen"]["total"] == 95


def test_plan_attacks_the_opponent_nearest_the_win(client):
    """Attack Cards: with Ben one part from two robots, the plan plays Nuclear Explosion on two parts of
    his robot (none of yours), and lists his factory after."""
    ben = {"name": "Ben", "stacks": [{"cards": [C(p, "nuclear") for p in ("head", "arms", "legs", "torso")]},
                                     {"cards": [C(p, "solar") for p in ("head", "arms", "legs")]}]}
    body = dict(MECH_THREE, others=[ben], hand=[{"kind": "attack", "name": "Nuclear Explosion", "stacks_required": 1}])
    d = post(client, "/api/two-robots/plan", body).get_json()
    step = d["steps"][0]
    assert step["action"] == "attack" and step["destroys_own"] is False
    assert {(r["factory"], r["stack"]) for r in step["destroyed"]} == {(1, 0)}
    assert d["others_after"][0]["active_robots"] == 0 and d["warnings"] == []
    assert d["score"]["opponents_parts_to_two_robots"] == [3]


def test_attack_endpoint_alyssa_example(client):
    """Frozen Stacks, Alyssa example through POST /api/two-robots/attack: the only legal pair is the
    opponent's lone Nuclear part and her own frozen Nuclear HEAD, and the answer says it takes hers."""
    body = {"card": {"name": "Nuclear Explosion"}, "player": 0,
            "factories": [{"stacks": [{"cards": [C("head", "nuclear")], "frozen": True},
                                      {"cards": [C("arms", "chemical"), C("legs", "chemical")]},
                                      {"cards": [C("head", "solar", "electrical")]}]},
                          {"name": "Ben", "stacks": [{"cards": [C("torso", "nuclear")]}, {"cards": [C("head", "mechanical")]}]}]}
    d = post(client, "/api/two-robots/attack", body).get_json()
    pairs = [{(t["factory"], t["stack"], t["card"]) for t in pair} for pair in d["targets"]]
    assert pairs == [{(0, 0, 0), (1, 0, 0)}]
    assert {(t["factory"], t["stack"], t["card"]) for t in d["best"]} == {(0, 0, 0), (1, 0, 0)}
    assert d["destroys_own"] is True and "your own HEAD (Nuclear) on stack 1" in d["why"]
    assert d["effect"] == "destroy" and d["energy"] == "nuclear" and "tr-attack-cards" in d["rules"]


def test_attack_endpoint_energy_hybrids_reactive_and_unknown_cards(client):
    """Attack Cards: an entered energy makes a destroy card, and a hybrid is hit on either energy; Defense
    Cards: Homing Missiles is no play of your turn; a card the rulebook does not describe is yours to resolve."""
    factories = [{"stacks": [{"cards": [C("head", "chemical")]}]},
                 {"stacks": [{"cards": [C("head", "solar", "nuclear")]}, {"cards": [C("arms", "nuclear")]}]}]
    d = post(client, "/api/two-robots/attack", {"card": {"name": "Flare", "energy": "solar", "destroy": 2},
                                                "factories": factories}).get_json()
    assert d["playable"] is False and "Only 1 Solar part" in d["why"]
    d = post(client, "/api/two-robots/attack", {"card": {"energy": "nuclear"}, "factories": factories}).get_json()
    assert d["playable"] and len(d["targets"]) == 1 and len(d["best"]) == 2
    d = post(client, "/api/two-robots/attack", {"card": {"name": "Homing Missiles", "kind": "defense"},
                                                "factories": factories}).get_json()
    assert d["playable"] is False and "out of turn" in d["why"]
    d = post(client, "/api/two-robots/attack", {"card": {"name": "Space Pod"}, "factories": factories}).get_json()
    assert d["effect"] == "unknown" and "yours to resolve" in d["why"] and d["targets"] == []
    d = post(client, "/api/two-robots/attack", {"card": {"name": "Ice Blast", "stacks_required": 2},
                                                "factories": factories}).get_json()
    assert d["playable"] is False and "needs 2 unique stacks" in d["why"] and len(d["targets"]) == 2


def test_attack_endpoint_bad_fields(client):
    good = [{"stacks": [{"cards": [C("head", "nuclear")]}]}]
    cases = [({"card": {"name": "x"}, "player": 1, "factories": good}, "body"),
             ({"card": {"energy": "plasma"}, "factories": good}, "card.energy"),
             ({"card": {}, "factories": []}, "factories"),
             ({"card": {}, "factories": [{"stacks": [{"cards": [C("tail", "solar")]}]}]}, "factories[0].stacks[0].cards[0].part"),
             ({"card": {}, "factories": [{"stacks": [{"cards": [C("head", "solar")]}, {"cards": [C("arms", "solar")]}]}]},
              "factories[0].stacks[0]")]
    for body, path in cases:
        r = post(client, "/api/two-robots/attack", body)
        assert r.status_code == 400, (body, r.get_json())
        assert any(f["path"] == path for f in r.get_json()["error"]["fields"]), (body, r.get_json())


def test_factory_says_who_is_winning_and_reads_the_table(app, client):
    """Objective + Clarifications: the factory answer for a seat of a table reads every seat's factory
    from it (`table`, `seat`), says who leads and what threatens the player; other seats' hands are
    never read, only their size. `client` is Ana's phone (seat 0); Ben's hand is on his own phone."""
    table = client.post("/api/tables", json={"game": "two-robots", "players": 2}).get_json()
    ben = {"stacks": [{"cards": [C(p, "nuclear") for p in ("head", "arms", "legs", "torso")]},
                      {"cards": [C(p, "solar") for p in ("head", "arms", "legs")]}]}
    state = {"table": {"names": ["Ana", "Ben"]}, "two_robots": {"players": [MECH_THREE, ben]}}
    assert client.put(f"/api/tables/{table['id']}", json={"version": 1, "state": state}).status_code == 200
    claim(client, table, 0, "Ana")
    phone_with_seat(app, table, 1, "Ben", hand=[{"kind": "part", **C("torso", "solar")}])
    assert client.get(f"/api/tables/{table['id']}").get_json()["state"]["two_robots"]["players"][1]["hand_count"] == 1
    d = post(client, "/api/two-robots/factory", {"table": table["id"], "seat": 0}).get_json()
    st_ = d["standings"]
    assert st_["summary"] == "Ben leads: 1 active robot, 1 part from two robots."
    ben_row = st_["seats"][1]
    assert ben_row["name"] == "Ben" and ben_row["would_win"] and ben_row["p_robot_next_turn"]["approx"] > 0
    assert st_["threats"][0]["kind"] == "finish" and "Ben may finish a robot next turn" in st_["threats"][0]["why"]
    # Ben's TORSO (Solar) in his hand is not taken off Ana's unseen cards: to her it is unseen
    assert d["unseen"]["total"] == 100 - 3 - 7
    assert post(client, "/api/two-robots/factory", {"table": "nope"}).status_code == 404
    r = post(client, "/api/two-robots/factory", {"table": table["id"], "seat": 4})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "seat"


def test_others_and_discard_bad_fields(client):
    cases = [({"others": [{"stacks": [{"cards": [C("tail", "solar")]}]}]}, "others[0].stacks[0].cards[0].part"),
             ({"others": [{"stacks": [{"cards": [C("head", "solar")]}, {"cards": [C("arms", "solar")]}]}]},
              "others[0].stacks[0]"),
             ({"others": [{}] * 5}, "others"), ({"discard": [{"kind": "part", **C("tail", "solar")}]}, "discard[0].part"),
             ({"others": [{"hand_count": -1}]}, "others[0].hand_count")]
    for body, path in cases:
        for url in ("/api/two-robots/odds", "/api/two-robots/plan", "/api/two-robots/factory"):
            r = post(client, url, body)
            assert r.status_code == 400, (url, body)
            assert any(f["path"] == path for f in r.get_json()["error"]["fields"]), (url, body, r.get_json())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(json_values, st.fixed_dictionaries({"card": json_values, "factories": st.lists(plausible, max_size=3),
                                                     "player": st.integers(-1, 3)})))
def test_attack_fuzz_never_5xx(client, body):
    r = post(client, "/api/two-robots/attack", body)
    assert r.status_code in (200, 400), r.get_json()
