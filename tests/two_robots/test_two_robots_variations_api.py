"""Two Robots variations, Event outcomes and a new game through the table action endpoint and the answers
(issue 21 items 2, 4 and 6): settings stored with the table and read by every answer, 2v2 standings by
team and a shared win, Sentry Gunship and the Event's damage, a new game that empties every hand."""
from __future__ import annotations

import pytest
from test_two_robots_game import P, act, robot, tr_state
from tr_helpers import phone_with_seat, private, set_hand


def C(part: str, *energies: str) -> dict:
    return {"kind": "part", "part": part, "energies": list(energies)}


def test_settings_are_stored_with_the_table_and_refused_when_they_do_not_fit(app, new_table):
    """Variations: 2v2 is for four players; the house rules are on or off."""
    three = new_table("two-robots", 3)
    c = app.test_client()
    r = act(c, three, {"type": "settings", "teams": [0, 1, 0, 1]})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "action.teams"
    r = act(c, three, {"type": "settings", "teams": [0, 1, 2]})
    assert r.status_code == 400
    four = new_table("two-robots", 4)
    r = act(c, four, {"type": "settings", "teams": [0, 1, 0, 1], "five_stacks": True})
    assert r.status_code == 200
    part = tr_state(c, four)
    assert part["teams"] == [0, 1, 0, 1] and part["house_rules"] == {"uniform_robot": False, "five_stacks": True}


def test_2v2_answers_read_the_teams_standings_by_team_and_the_partner_s_win_is_yours(app, new_table):
    """Variations (2v2) and Objective: seat 3 (my partner) built two robots: my answer says we won; the
    standings are by team and my partner is no threat."""
    table = new_table("two-robots", 4, {"two_robots": {
        "teams": [0, 1, 0, 1],
        "players": [{"stacks": [{"cards": [P("head", "solar")]}]}, {"stacks": [robot("chemical")]},
                    {"stacks": [robot("nuclear"), robot("electrical")]}, {}]}})
    me = phone_with_seat(app, table, 0, "Ann")
    out = me.post("/api/two-robots/factory", json={"table": table["id"], "seat": 0}).get_json()
    assert (out["won"], out["how"]) == (True, "two_robots")
    st = out["standings"]
    assert st["winners"] == [0, 2] and st["summary"] == "Your team wins: two active robots."
    assert [t["seats"] for t in st["teams"]] == [[0, 2], [1, 3]] and st["teams"][0]["you"] is True
    assert all(t["seat"] != 2 for t in st["threats"])


def test_2v2_the_attack_answer_spares_the_partner_and_the_table_refuses_hitting_it(app, new_table):
    """Attack Cards in 2v2 (Tablebot's reading): the best targets never take the partner's part while two
    others are legal; the table action refuses it; `targets` left out takes Tablebot's best."""
    table = new_table("two-robots", 4, {"two_robots": {
        "teams": [0, 1, 0, 1],
        "players": [{"stacks": [{"cards": [P("head", "solar")]}]}, {"stacks": [{"cards": [P("arms", "nuclear")]}]},
                    {"stacks": [{"cards": [P("legs", "nuclear")]}]}, {"stacks": [{"cards": [P("head", "nuclear")]}]}]}})
    me = phone_with_seat(app, table, 0, "Ann")
    set_hand(me, table, 0, [{"kind": "attack", "name": "Nuclear Explosion", "stacks_required": 1}])
    out = me.post("/api/two-robots/factory", json={"table": table["id"], "seat": 0}).get_json()
    attack = out["hand"][0]["attack"]
    assert all(all(t["factory"] != 2 for t in option) for option in attack["targets"])  # factory 2 = seat 3
    code = "attack:1:Nuclear Explosion"
    r = act(me, table, {"type": "attack", "seat": 0, "code": code,
                        "targets": [{"seat": 1, "stack": 0, "card": 0}, {"seat": 2, "stack": 0, "card": 0}]})
    assert r.status_code == 400 and "partner" in r.get_json()["error"]["message"]
    r = act(me, table, {"type": "attack", "seat": 0, "code": code})
    assert r.status_code == 200
    players = r.get_json()["state"]["two_robots"]["players"]
    assert players[2]["stacks"] and not players[1]["stacks"] and not players[3]["stacks"]


def test_sentry_gunship_cancels_a_power_that_stays_used_and_deals_no_damage(app, new_table):
    """The Event Phase (cancelled Power still used up), Defense Cards (out of turn, opponent) and
    Clarifications (a cancelled card affects none)."""
    table = new_table("two-robots", 3, {"two_robots": {"players": [
        {"stacks": [robot("solar")], "salvager": "apocalypse"}, {"stacks": [{"cards": [P("head", "chemical")]}]}, {}]}})
    ann = phone_with_seat(app, table, 0, "Ann")
    ben = phone_with_seat(app, table, 1, "Ben", [{"kind": "defense", "name": "Sentry Gunship", "stacks_required": 1}])
    for _ in range(3):
        act(ann, table, {"type": "next_phase"})
    turn = tr_state(ann, table)["turn"]  # seats without a Salvager go after Apocalypse (Turn Order)
    assert (turn["seat"], turn["phase"]) == (0, "event")
    r = act(ann, table, {"type": "event_power", "seat": 0, "power": "Cold Fusion",
                         "sacrifices": [{"stack": 0, "card": 0}, {"stack": 0, "card": 1}]})
    assert r.status_code == 200
    r = act(ben, table, {"type": "cancel_event", "seat": 1, "code": "defense:1:Sentry Gunship"})
    assert r.status_code == 200, r.get_json()
    assert private(ben, table, 1)["hand"] == []
    part = tr_state(ann, table)
    assert part["turn"]["cancelled_by"] == 1 and part["players"][0]["used_powers"] == ["Cold Fusion"]
    assert part["players"][0]["powers_left"] == 2
    r = act(ann, table, {"type": "event_damage", "seats": [0, 1]})
    assert r.status_code == 400 and "affects none" in r.get_json()["error"]["message"]


def test_cold_fusion_tie_damages_every_tied_player_owner_included(app, new_table):
    """Clarifications: Cold Fusion reaches Apocalypse too; every player in the tie suffers one damage."""
    table = new_table("two-robots", 3, {"two_robots": {"players": [
        {"stacks": [robot("solar")], "salvager": "apocalypse"}, {}, {}]}})
    c = app.test_client()
    for _ in range(3):
        act(c, table, {"type": "next_phase"})
    act(c, table, {"type": "event_power", "seat": 0, "power": "Cold Fusion",
                   "sacrifices": [{"stack": 0, "card": 0}, {"stack": 0, "card": 1}]})
    r = act(c, table, {"type": "event_damage", "seats": [0, 2]})
    assert r.status_code == 200
    assert [p.get("health") for p in r.get_json()["state"]["two_robots"]["players"]] == [2, None, 2]


def test_new_game_empties_every_seat_s_hand_and_starts_turn_one(app, new_table):
    """Setup (three Power cards each) and Turn Overview (zero cards in hand to start): a new game at the
    same table and seats."""
    table = new_table("two-robots", 2, {"two_robots": {"players": [
        {"stacks": [robot("solar"), robot("nuclear")], "salvager": "scavenger"}, {"health": 1, "salvager": "apocalypse"}],
        "winner": {"seats": [0], "how": "two_robots"}}})
    ann = phone_with_seat(app, table, 0, "Ann", [C("head", "solar")])
    ben = phone_with_seat(app, table, 1, "Ben", [C("arms", "nuclear"), C("legs", "chemical")])
    assert tr_state(ann, table)["winner"] == {"seats": [0], "how": "two_robots"}
    r = act(ann, table, {"type": "new_game"})
    assert r.status_code == 200, r.get_json()
    part = r.get_json()["state"]["two_robots"]
    assert part["winner"] is None and part["turn"]["number"] == 1 and part["turn"]["phase"] == "draw"
    assert [p["stacks"] for p in part["players"]] == [[], []]
    assert [p.get("health") for p in part["players"]] == [None, None]
    assert [p["salvager"] for p in part["players"]] == ["scavenger", "apocalypse"]
    assert private(ann, table, 0)["hand"] == [] and private(ben, table, 1)["hand"] == []


def test_stateless_answers_read_the_house_rules_and_the_partner(client):
    """Variations: a house rule that is on wins in the stateless answers; with `partner` (2v2) the plan and
    the /attack answer spare the partner, and the partner's robots are the team's."""
    uniform = {"cards": [P(n, "electrical", "nuclear") for n in ("head", "arms", "legs", "torso")]}
    body = {"stacks": [uniform], "house_rules": {"uniform_robot": True}, "others": [{"stacks": []}]}
    out = client.post("/api/two-robots/factory", json=body).get_json()
    assert (out["won"], out["how"]) == (True, "uniform_robot")
    assert out["standings"]["summary"] == "You won: a perfectly uniform robot (house rule)."
    body["house_rules"] = {"uniform_robot": False}
    assert client.post("/api/two-robots/factory", json=body).get_json()["won"] is False

    nuc = {"cards": [P("head", "nuclear")]}
    four = {"stacks": [{"cards": [P("arms", "solar")]}],
            "hand": [{"kind": "attack", "name": "Nuclear Explosion", "stacks_required": 1}],
            "others": [{"stacks": [nuc]}, {"stacks": [nuc]}, {"stacks": [nuc]}], "partner": 1}
    plan = client.post("/api/two-robots/plan", json=four).get_json()
    hits = [r["factory"] for st in plan["steps"] for r in st.get("destroyed", [])]
    assert hits and 2 not in hits  # factory 2 is others[1], the partner
    assert any("spares your partner" in n for n in plan["notes"])
    r = client.post("/api/two-robots/factory", json=dict(four, partner=None, others=four["others"][:2]))
    assert r.status_code == 200
    r = client.post("/api/two-robots/factory", json=dict(four, others=four["others"][:2]))
    assert r.status_code == 400  # 2v2 is four players
    attack = client.post("/api/two-robots/attack", json={
        "card": {"name": "Nuclear Explosion"}, "player": 0, "partner": 2,
        "factories": [{"stacks": []}, {"stacks": [nuc]}, {"stacks": [nuc]}, {"stacks": [nuc]}]}).get_json()
    assert all(all(t["factory"] != 2 for t in option) for option in attack["targets"])
    assert "partner is spared" in attack["why"]


def test_2v2_a_defeated_partner_shares_the_team_s_win(client):
    """Variations (2v2): a shared win; Objective: the last team standing. You are out, your partner is in,
    both opponents are out: your team wins, and the answer says you are out and won."""
    body = {"health": 0, "partner": 1,
            "others": [{"health": 0, "name": "Ben"}, {"health": 2, "name": "Cy"}, {"health": 0, "name": "Di"}]}
    out = client.post("/api/two-robots/factory", json=body).get_json()
    assert (out["won"], out["how"], out["defeated"]) == (True, "last_standing", True)
    assert out["why"].startswith("You are out of the game (health 0), and your team wins")
    st = out["standings"]
    assert st["winners"] == [0, 2] and st["summary"].endswith("Your team wins: the last team standing.")
    body["others"][1]["health"] = 0  # Cy out too: nobody of your team is left
    out = client.post("/api/two-robots/factory", json=body).get_json()
    assert out["won"] is False


@pytest.mark.parametrize("url", ["/api/two-robots/factory", "/api/two-robots/plan"])
def test_a_partner_past_the_others_is_a_400_naming_partner(client, url):
    """Variations (2v2): `partner` is the index of one of the three `others`; 3 is past them (was a 500)."""
    body = {"factory": [], "hand": [], "others": [{}, {}, {}], "partner": 3}
    r = client.post(url, json=body)
    assert r.status_code == 400
    err = r.get_json()["error"]
    assert err["fields"][0]["path"] == "partner" and "partner" in err["message"]


def test_a_phone_without_a_seat_cannot_start_a_new_game(app, new_table):
    """Setup: a new game empties every seat's hand, so only a player at the table starts one (the page asks
    for a held seat too); a phone holding no seat gets a 403 and nothing changes."""
    table = new_table("two-robots", 2)
    ann = phone_with_seat(app, table, 0, "Ann", [C("head", "solar")])
    stranger = app.test_client()
    r = act(stranger, table, {"type": "new_game"})
    assert r.status_code == 403 and r.get_json()["error"]["fields"][0]["path"] == "action.type"
    assert private(ann, table, 0)["hand"] != []
    assert act(ann, table, {"type": "new_game"}).status_code == 200
    assert private(ann, table, 0)["hand"] == []


def test_meltdown_is_answered_by_the_seat_s_own_phone_or_any_phone_for_a_seat_nobody_holds(app, new_table):
    """Clarifications (Meltdown): taking the damage or, with an empty hand, discarding nothing is each
    player's own choice; another phone is refused (403), a seat no phone holds is answered by any phone."""
    table = new_table("two-robots", 3, {"two_robots": {"players": [
        {"stacks": [robot("solar")], "salvager": "apocalypse"}, {}, {}]}})
    ann = phone_with_seat(app, table, 0, "Ann")
    ben = phone_with_seat(app, table, 1, "Ben")
    for _ in range(3):
        assert act(ann, table, {"type": "next_phase"}).status_code == 200
    r = act(ann, table, {"type": "event_power", "seat": 0, "power": "Meltdown",
                         "sacrifices": [{"stack": 0, "card": 0}, {"stack": 0, "card": 1}]})
    assert r.status_code == 200, r.get_json()
    for reply in ("damage", "nothing"):
        r = act(ann, table, {"type": "meltdown_reply", "seat": 1, "reply": reply})
        assert r.status_code == 403 and r.get_json()["error"]["fields"][0]["path"] == "action.seat"
    assert act(ben, table, {"type": "meltdown_reply", "seat": 1, "reply": "nothing"}).status_code == 200
    assert act(ann, table, {"type": "meltdown_reply", "seat": 2, "reply": "damage"}).status_code == 200
    part = tr_state(ann, table)
    assert part["turn"]["replied"] == [1, 2] and [p.get("health") for p in part["players"]][1:] == [None, 2]


def test_the_orb_s_second_card_needs_an_active_robot_and_the_player_s_confirmation(app, new_table):
    """Clarifications (Peacemaker with two Active Robots, one with the Orb), read as the Orb counting for
    the second robot: with no Active Robot standing the Orb's card is a 400 naming `action.via`; the
    table cannot show the Orb, so without `orb_confirmed` the 400 names `action.orb_confirmed`, and the
    page's Orb button says it confirms it."""
    turn = {"seat": 0, "phase": "event", "number": 1, "actions_left": 0, "event": "active_robot",
            "revealed": [["scattershot", "option_b"]]}
    none = new_table("two-robots", 2, {"two_robots": {"turn": turn, "players": [
        {"stacks": [{"cards": robot("solar")["cards"][:3]}], "salvager": "peacemaker"}, {}]}})
    ann = phone_with_seat(app, none, 0, "Ann")
    r = act(ann, none, {"type": "reveal", "seat": 0, "card": "shots_fired", "via": "orb", "orb_confirmed": True})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "action.via"
    assert "reveal:orb" not in ann.get(f"/two-robots/factory?table={none['id']}").get_data(as_text=True)
    one = new_table("two-robots", 2, {"two_robots": {"turn": turn, "players": [
        {"stacks": [robot("solar")], "salvager": "peacemaker"}, {}]}})
    bea = phone_with_seat(app, one, 0, "Bea")
    html = bea.get(f"/two-robots/factory?table={one['id']}").get_data(as_text=True)
    assert 'value="reveal:orb"' in html and "I confirm my Active Robot carries it" in html
    r = act(bea, one, {"type": "reveal", "seat": 0, "card": "shots_fired", "via": "orb"})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "action.orb_confirmed"
    r = act(bea, one, {"type": "reveal", "seat": 0, "card": "shots_fired", "via": "orb", "orb_confirmed": True})
    assert r.status_code == 200 and len(r.get_json()["state"]["two_robots"]["turn"]["revealed"]) == 2
