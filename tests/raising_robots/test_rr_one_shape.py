"""One shape from form to solver: the seat a table keeps and the body the JSON API takes are one model
(schemas.Seat), read by one path to the solver (Seat.to_solver()), and a problem is named by that
model's path on both sides."""
from __future__ import annotations

import re

from assistant.raising_robots.schemas import Player, Seat, parse_body

# api.md's score example with the seat's inventor and a Friendship card (Final scoring: 44 VP)
SEAT = {"inventory": {"sensor": 1, "gear": 7, "microchip": 0, "program": 0, "duct_tape": 2, "battery": 2,
                      "vp": 23, "robot_cards": 1},
        "robots": [{"row": "design", "column": 1, "vp": 5, "needs_microchip": True, "upgraded": True,
                    "game_end": {"kind": "resource_pairs", "resource": "gear"}}],
        "class_cards": [{"name": "optional", "grade": "B", "extra_credit": True,
                         "vp_by_grade": {"D": 2, "C": 4, "B": 6, "A": 9}}],
        "inventor": {"name": "Johannes", "upgraded": False}, "friendships": ["Temple"]}


def table_with(client, seat: dict) -> str:
    t = client.post("/api/tables", json={"game": "raising-robots", "players": 1}).get_json()
    state = {"raising_robots": {"seats": [seat]}}
    assert client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": state}).status_code == 200
    return t["id"]


def page_total(client, tid: str) -> str:
    html = client.get(f"/raising-robots/score?table={tid}").get_data(as_text=True)
    return re.search(r'id="rr-total" class="num">([^<]*)<', html).group(1)


def test_the_body_is_the_stored_seat_and_scores_alike(client):
    """Final scoring, the contract example (44 VP): the body read by the seat's model, stored as a table's
    seat, scores the same on the page as through the API."""
    api = client.post("/api/raising-robots/score", json=SEAT).get_json()
    assert api["total"] == 44 and api["game_end"] == 3  # 7 gears: 3 pairs
    seat = parse_body(Player, SEAT)
    assert isinstance(seat, Seat)
    assert seat.robots[0].game_end == "resource_pairs:gear" and seat.named_friendships() == ["Temple"]
    stored = seat.model_dump(mode="json", exclude={"name"})
    assert page_total(client, table_with(client, stored)) == "44"


def test_a_problem_is_named_by_the_models_path_on_both_sides(client):
    """New Class Objectives: a competitions card needs its count; the API names `class_cards[0].count`, the
    page shows the problem under the same seat field (`seats.0.class_cards.0.count`)."""
    card = {"template": "friends-competitions", "thresholds": {"D": 1, "C": 2, "B": 3, "A": 4},
            "vp_by_grade": {"D": 1, "C": 3, "B": 5, "A": 8}}
    r = client.post("/api/raising-robots/score", json={"class_cards": [card]})
    assert r.status_code == 400 and [f["path"] for f in r.get_json()["error"]["fields"]] == ["class_cards[0].count"]
    bad = {**card, "grade": "A", "count": 1}
    r = client.post("/api/raising-robots/score", json={"class_cards": [bad]})
    assert [f["path"] for f in r.get_json()["error"]["fields"]] == ["class_cards[0].grade"]
    tid = table_with(client, parse_body(Seat, {"class_cards": [bad]}).model_dump(mode="json"))
    html = client.get(f"/raising-robots/score?table={tid}").get_data(as_text=True)
    assert page_total(client, tid) == "?"
    assert re.search(r'data-for="seats\.0\.class_cards\.0\.grade">grade A does not match count 1', html)


def test_an_unknown_key_is_a_400_in_a_body_and_ignored_in_a_stored_seat(client):
    """The one model, read two ways: a request is strict (a misspelt key is named), a stored state keeps
    what validates (an older page's extra key does not lose the seat)."""
    r = client.post("/api/raising-robots/score", json={"inventory": {"gears": 1}})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "inventory.gears"
    r = client.post("/api/raising-robots/score", json={"inventory": {"gear": "3"}})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "inventory.gear"
    seat = {**SEAT, "robots": [{**SEAT["robots"][0], "game_end": "resource_pairs:gear", "id": "r1"}],
            "inventory": {**SEAT["inventory"], "gears": 1}, "friendships": ["Temple", ""], "friendship_count": 1}
    assert page_total(client, table_with(client, seat)) == "44"


def test_pages_render_the_solvers_answers_and_json_is_built_at_the_api_edge(app, monkeypatch):
    """Issue 22, item 5: the planner and the Search page get the solver's answer objects (never a dict), and
    the API's JSON is those same objects through plan_json / odds_json / best_json. How to Complete
    Competitions (Mech Masters paid with 13 batteries) and the Search Example (Design 4-5)."""
    from assistant.raising_robots import answers, planner, search
    from solvers.raising_robots.competitions_planner import PlanResult
    from solvers.raising_robots.search_odds import SearchOdds

    seen: dict[str, object] = {}
    real_plan, real_results = planner.plan_answer, search.results
    monkeypatch.setattr(planner, "plan_answer", lambda *a: seen.setdefault("plan", real_plan(*a)))
    monkeypatch.setattr(search, "results", lambda *a: seen.setdefault("search", real_results(*a)))
    client = app.test_client()
    body = {"competitions": [{"criterion": "mech-13-batteries"}], "player": {"inventory": {"battery": 14}}}
    api = client.post("/api/raising-robots/competitions/plan", json=body).get_json()
    r = client.post("/raising-robots/competitions", data={"_state": "", "seats.0.inventory.battery": "14",
                                                          "competitions.cards.mech_masters": "mech-13-batteries"})
    assert r.status_code == 200
    got = seen["plan"]
    assert isinstance(got, answers.PlanAnswer) and isinstance(got.result, PlanResult)
    assert answers.plan_json(got)["plan"] == api["plan"] and api["plan"]["steps"][0]["type"] == "mech_masters"
    c = "search.cells."
    client.post("/raising-robots/search", data={c + "design-3.count": "1", c + "fabricate-4.count": "1",
                                                c + "any-5.count": "1", "search.deck_size": "3",
                                                "search.criteria.row": "design", "search.criteria.energy_min": "4",
                                                "search.criteria.energy_max": "5"})
    odds, best, _ = seen["search"]
    assert isinstance(odds, answers.OddsAnswer) and isinstance(odds.odds, SearchOdds)
    assert isinstance(best, answers.BestAnswer)
    body = {"pool": [{"row": "design", "energy": 3, "count": 1}, {"row": "fabricate", "energy": 4, "count": 1},
                    {"row": "any", "energy": 5, "count": 1}], "deck_size": 3,
            "criteria": {"row": "design", "energy_min": 4, "energy_max": 5}}
    assert answers.odds_json(odds) == client.post("/api/raising-robots/search/odds", json=body).get_json()
    assert answers.odds_json(odds)["p_match"]["exact"] == "1"  # the any-row card is the only fit


def without_does(steps: list) -> list:
    return [{k: without_does(v) if k in ("then", "steps") else v for k, v in s.items() if k != "does"} for s in steps]


def test_activations_and_setup_pages_get_the_answer_objects_and_json_is_built_from_them(app, monkeypatch):
    """Issue 22, item 5, the two remaining pages: the activation chains page gets the solver's checked chain
    (Finite Loops Example: allowed; its variant, Hallyu activated twice in one activation: not) and the
    setup page gets the deal and each inventor's setup (Changes to Setup, step 4; Friends Inventor
    Explanations: Charlotte begins with 1 duct tape fewer), never a dict; the API's JSON is those same
    objects through chain_json / setup_json / inventors_json."""
    from rr_helpers import post_form, rr_state

    from assistant.raising_robots import activations, answers, competitions_setup
    from assistant.raising_robots.requests import SetupIn
    from solvers.raising_robots import activations as act
    from solvers.raising_robots.abilities import SetupChange
    from solvers.raising_robots.competitions_setup import Spot
    from solvers.raising_robots.friendship import Built

    seen: dict[str, list] = {"chain": [], "setup": [], "inventors": []}

    def spy(module, name, key):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a: seen[key].append(real(*a)) or seen[key][-1])
    spy(activations, "chain_answer", "chain")
    spy(competitions_setup, "run_setup", "setup")
    spy(competitions_setup, "inventors_answer", "inventors")
    client = app.test_client()

    for do, body, ok in (("example", act.FINITE_LOOPS_EXAMPLE, True), ("variant", act.finite_loops_variant(), False)):
        seen["chain"].clear()
        assert client.post("/raising-robots/activations", data={"do": do}).status_code == 200
        got, example = seen["chain"]  # the chain typed, and the rulebook's example rendered beside it
        assert isinstance(got, answers.ChainAnswer) and isinstance(got.result, act.ChainResult)
        assert got.ok is ok and ("repeat" in {n.status for n in got.nodes}) is not ok
        typed = {**body, "steps": without_does(body["steps"])}  # the page's rows have no "does" text
        api = client.post("/api/raising-robots/activations/check", json=typed).get_json()
        assert answers.chain_json(got) == api and api["ok"] is ok
        api = client.get("/api/raising-robots/activations/example").get_json()
        assert answers.chain_json(example) == api["check"] and example.nodes[2].text  # the example's texts kept

    t = client.post("/api/tables", json={"game": "raising-robots", "players": 2}).get_json()
    url = f"/raising-robots/competitions/setup?table={t['id']}"
    html = client.get(url).get_data(as_text=True)
    html = post_form(client, url, html, do="sides", **{"seats.0.inventor.name": "Charlotte",
                                                       "seats.1.inventor.name": "Ada"}).get_data(as_text=True)
    inv = seen["inventors"][-1]
    assert isinstance(inv, answers.InventorsAnswer) and all(isinstance(s.setup, SetupChange) for s in inv.seats)
    assert "Charlotte begins with 1 duct tape fewer" in html and inv.seats[0].setup.changes == {"duct_tape": -1}
    api = client.post("/api/raising-robots/competitions/setup",
                      json={"players": 2, "seed": 7, "inventors": ["Charlotte", "Ada"]}).get_json()
    assert answers.inventors_json(inv) == api["inventors"] and api["inventors"]["remove_friendships"] == ["Charlotte", "Ada"]

    assert post_form(client, url, html, do="deal").status_code == 200
    dealt = seen["setup"][-1]
    assert isinstance(dealt, answers.SetupAnswer) and isinstance(dealt.friendship, Built)
    assert all(isinstance(s, Spot) for s in dealt.spots) and len(dealt.spots) == 2  # 2 players: tokens on the tracker
    comps = rr_state(client, t["id"]).competitions
    assert comps.in_play() == dealt.cards and [(s.round, s.token_type) for s in comps.tracker] == \
        [(s.round, s.token_type) for s in dealt.spots]
    same = answers.run_setup(SetupIn(players=2, seed=7, inventors=["Charlotte", "Ada"]))
    assert answers.setup_json(same) == api and [c["criterion"] for c in api["cards"]] == list(same.cards.values())
