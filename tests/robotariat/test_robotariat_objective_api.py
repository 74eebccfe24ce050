"""A player's secret objective on /suggest (rulebook "Secret Objectives"; reading objective-advice): the
advice weighs it and says how, and it is never kept with the table."""
from __future__ import annotations

import json
from fractions import Fraction

from test_robotariat_api import post

# the example board: an Oppressor on Poster 1 and one on Sabotage 1 (joined by a black line); the active
# player stands on Move the Masses and can move one NPC one step
GATHER = {"players": 3, "state": {"oppressors": ["p1", "sb1"], "civilians": ["up2"],
                                  "players": [{"at": "mm"}, {"at": "sy"}, {"at": "p2"}],
                                  "active": 0, "funds": 12, "reputation": 4, "round": 3}}


def test_traffic_director_is_advised_to_gather_the_oppressors(client):
    """Traffic Director: all Oppressors on one space at the success. Moving the one on Poster 1 onto
    Sabotage 1 puts both together, and they move together from then on: a step worth a tenth of 50."""
    status, plain = post(client, "/api/robotariat/suggest", GATHER)
    status2, d = post(client, "/api/robotariat/suggest", {**GATHER, "objective": "traffic_director"})
    assert status == status2 == 200
    assert "objective" not in plain and "objective" not in plain["options"][0]["expected"]
    best = d["options"][0]
    assert best["activate"]["kind"] == "move_the_masses" and best["activate"]["to"] in ("p1", "sb1")
    assert Fraction(best["objective"]["bonus"]["exact"]) == 5
    assert "brings the Oppressors together on one space" in best["why"]
    assert d["objective"]["changed"] and d["objective"]["stored"] is False
    assert "objective-advice" in d["readings"] and "rb-reading-objective-advice" in d["rules"]


def test_saboteur_keeps_reputation_at_two(client):
    """Saboteur: the success must land on exactly 1 Reputation; at 2 a turn that keeps it there scores the step."""
    body = {**GATHER, "state": {**GATHER["state"], "reputation": 2}}
    status, d = post(client, "/api/robotariat/suggest", {**body, "objective": {"id": "saboteur", "weight": 40}})
    assert status == 200 and d["objective"]["weight"]["exact"] == "40"
    assert any("keeps Reputation at 2 for a landing on exactly 1" in o["why"] for o in d["options"])


def test_spy_changes_nothing_and_gambler_needs_four_players(client):
    status, d = post(client, "/api/robotariat/suggest", {**GATHER, "objective": "spy"})
    assert status == 200 and not d["objective"]["changed"] and "does not depend on the board" in d["objective"]["why"]
    status, d = post(client, "/api/robotariat/suggest", {**GATHER, "objective": "gambler"})
    assert status == 400 and d["error"]["fields"][0]["path"] == "objective"
    status, d = post(client, "/api/robotariat/suggest", {**GATHER, "objective": "king"})
    assert status == 400 and d["error"]["fields"][0]["path"].startswith("objective")


def test_the_objective_never_reaches_a_stored_table_version(client):
    """The objective is one request's: sent along with table actions and with the board page's requests
    (its private form's `_seat` and `_objective`), it shapes that answer, and no version of the table (its
    whole history) ever holds it."""
    t = client.post("/api/tables", json={"game": "robotariat", "players": 3}).get_json()
    tid = t["id"]
    client.put(f"/api/tables/{tid}", json={"version": 1, "state": {"robotariat": {"state": GATHER["state"]}}})
    for action in ({"do": "move", "piece": "p1", "to": "p1", "objective": "saboteur"},
                   {"do": "do_option", "option": 0, "objective": "saboteur"},
                   {"do": "roll", "black": "blue_arrow", "red": "yellow_arrow"}):  # then it is seat 1's turn
        v = client.get(f"/api/tables/{tid}").get_json()["version"]
        r = client.post(f"/api/robotariat/tables/{tid}/action",
                        json={"action": action, "version": v, "objective": "saboteur"})
        assert r.status_code == 200, r.get_json()
    client.post(f"/robotariat/?table={tid}", data={"do": "poster", "at": "mm", "delta": "1", "_seat": "1",
                                                   "_objective": "saboteur"})
    html = client.get(f"/robotariat/?table={tid}&_seat=1&_objective=saboteur").get_data(as_text=True)
    assert 'id="sg-objective">Your objective (Saboteur) weighs 50' in html  # the answer weighed it
    assert "Your objective" not in client.get(f"/robotariat/?table={tid}").get_data(as_text=True)  # other phones
    v = client.get(f"/api/tables/{tid}").get_json()["version"]
    r = client.post(f"/robotariat/?table={tid}", data={"do": "do_option", "option": "0", "version": str(v),
                                                       "_seat": "1", "_objective": "saboteur"})
    assert r.status_code == 200 and "has played" in r.get_data(as_text=True)
    for page in ("/robotariat/board", "/robotariat/data", "/robotariat/objectives"):
        client.get(f"{page}?table={tid}&_objective=saboteur")
    history = client.get(f"/api/tables/{tid}/history?limit=50").get_json()
    text = json.dumps(history)
    assert len(history["versions"]) >= 7 and "saboteur" not in text.lower()
    assert "saboteur" not in json.dumps(client.get(f"/api/tables/{tid}").get_json()).lower()


def test_do_this_applies_the_turn_the_page_showed_for_the_objective(client):
    """Traffic Director (rulebook "Secret Objectives"): the page's best turn for this phone gathers the
    Oppressors; "Do this" with the same private fields applies that turn, not the shared best one."""
    t = client.post("/api/tables", json={"game": "robotariat", "players": 3}).get_json()
    tid = t["id"]
    client.put(f"/api/tables/{tid}", json={"version": 1, "state": {"robotariat": {"state": GATHER["state"]}}})
    _, mine = post(client, "/api/robotariat/suggest", {**GATHER, "objective": "traffic_director"})
    html = client.get(f"/robotariat/?table={tid}&_seat=0&_objective=traffic_director").get_data(as_text=True)
    assert mine["options"][0]["headline"].replace("'", "&#39;") in html and "It changes the best turn" in html
    r = client.post(f"/robotariat/?table={tid}", data={"do": "do_option", "option": "0", "version": "2",
                                                       "_seat": "0", "_objective": "traffic_director"})
    assert r.status_code == 200
    after = client.get(f"/api/tables/{tid}").get_json()["state"]["robotariat"]
    assert after["log"][-1]["what"] == mine["options"][0]["headline"][:80]
    assert sorted(after["state"]["oppressors"]) == sorted(mine["options"][0]["state_after"]["oppressors"])


def test_cards_entered_by_name_decide_the_card_objectives(client):
    """Dealer, Turncoat, Gambler: with the cards entered by name, the counts come from them (A1-5's setup
    card counts for nothing, a held card is not played)."""
    body = {"players": 4, "state": {"players": [{"at": "mm", "character": "a1_5"}, {"at": "sy"}, {"at": "p2"},
                                                {"at": "p3"}], "funds": 60},
            "facts": {"objectives": ["dealer", "gambler", "turncoat", None], "cards_played": [9, 0, 0, 0]},
            "cards": [{"seat": 0, "deck": "upgrade", "name": "Sliding Scale", "played": True, "setup": True},
                      {"seat": 1, "deck": "sabotage", "name": "Adjust Traffic Reports", "played": True},
                      {"seat": 2, "deck": "upgrade", "name": "New Treads", "played": False}]}
    status, d = post(client, "/api/robotariat/objectives", body)
    assert status == 200
    seats = {s["objective"]: s for s in d["seats"] if s["objective"]}
    assert seats["gambler"]["wins"] is True  # seat 1 played Adjust Traffic Reports
    assert seats["dealer"]["wins"] is False and "Played 0 cards; the most anyone played is 1" in seats["dealer"]["why"]
    assert seats["turncoat"]["wins"] is False and "1 Upgrade and Sabotage cards were played" in seats["turncoat"]["why"]


def test_off_a_table_the_carried_state_never_holds_the_objective(client):
    """Not at a table the page carries the whole state in one field (the copy a board file or the next
    request is made from): the objective weighs this answer and "Do this" applies its turn, but neither
    the carried state nor the board file holds it."""
    from test_robotariat_pages import carried

    state = {"state": GATHER["state"]}
    mine = {"_seat": "0", "_objective": "traffic_director"}
    r = client.post("/robotariat/", data={"_state": json.dumps(state), **mine})
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and 'id="sg-objective">Your objective (Traffic Director)' in html
    assert "traffic_director" not in json.dumps(carried(html))
    r = client.post("/robotariat/", data={"_state": json.dumps(state), "do": "do_option", "option": "0", **mine})
    after = carried(r.get_data(as_text=True))
    assert len(set(after["state"]["oppressors"])) == 1  # the objective's turn: the Oppressors together
    assert "traffic_director" not in json.dumps(after).lower() and "traffic director" not in json.dumps(after).lower()
    exported = client.post("/robotariat/board.json", data={"_state": json.dumps(after), **mine}).get_data(as_text=True)
    assert "traffic" not in exported.lower()
