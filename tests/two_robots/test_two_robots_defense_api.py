"""`POST /api/two-robots/defense` and the factory page's "does it go through" lines (issue 21 item 5;
rulebook "Defense Cards", "The Event Phase", "Clarifications")."""
from __future__ import annotations

from tr_helpers import claim, set_hand


def test_attack_chain_link_by_link(client):
    """Defense Cards: Ben's two Homing Missiles against your one (one action left) cancel your attack."""
    body = {"play": "attack", "card": "Nuclear Explosion", "player": {"homing_missiles": 2}, "actions_left": 1,
            "others": [{"name": "Ben", "homing_missiles": 2}]}
    out = client.post("/api/two-robots/defense", json=body).get_json()
    assert out["goes_through"] is False and out["actions_used"] == 1
    assert [(c["by"], c["cancels"], c["action"]) for c in out["chain"]] == [
        ("Ben", "your Nuclear Explosion", False), ("you", "Ben's Homing Missiles", True),
        ("Ben", "your Homing Missiles", False)]
    assert "tr-card-homing-missiles" in out["rules"]
    body["actions_left"] = 2
    assert client.post("/api/two-robots/defense", json=body).get_json()["goes_through"] is True


def test_event_and_sentry_gunship(client):
    """Defense Cards: any opponent's Sentry Gunship cancels an Event; The Event Phase: the Power is spent."""
    body = {"play": "event", "event": "power", "others": [{"name": "Ben"}, {"name": "Cy", "sentry_gunships": 1}]}
    out = client.post("/api/two-robots/defense", json=body).get_json()
    assert out["goes_through"] is False and out["chain"][0]["by"] == "Cy" and "used up" in out["why"]
    body["others"][1]["sentry_gunships"] = 0
    assert client.post("/api/two-robots/defense", json=body).get_json()["goes_through"] is True


def test_bad_defense_bodies_name_the_field(client):
    for body, path in (({"play": "block"}, "play"), ({"play": "attack"}, "others"),
                       ({"play": "attack", "others": [{"homing_missiles": -1}]}, "others[0].homing_missiles"),
                       ({"play": "attack", "actions_left": 4, "others": [{}]}, "actions_left")):
        r = client.post("/api/two-robots/defense", json=body)
        assert r.status_code == 400, body
        assert r.get_json()["error"]["fields"][0]["path"] == path, r.get_json()


def test_the_hand_s_attack_card_says_what_it_needs_to_go_through(app, new_table):
    """Defense Cards: with a Homing Missiles of your own (its gold number met) and actions left, your Attack
    card goes through unless the players it hits hold more than you can answer."""
    stacks = [{"cards": [{"part": "head", "energies": ["nuclear"]}]}, {"cards": [{"part": "arms", "energies": ["solar"]}]}]
    table = new_table("two-robots", 2, {"two_robots": {"players": [{"stacks": stacks},
                                                                   {"stacks": [{"cards": [{"part": "legs", "energies": ["nuclear"]}]}]}]}})
    ana = app.test_client()
    claim(ana, table, 0, "Ana")
    set_hand(ana, table, 0, [{"kind": "attack", "name": "Nuclear Explosion", "stacks_required": 1},
                             {"kind": "defense", "name": "Homing Missiles", "stacks_required": 2}])
    out = ana.post("/api/two-robots/factory", json={"table": table["id"], "seat": 0}).get_json()
    assert out["hand"][0]["defense"]["why"].startswith(
        "It goes through unless the players it hits hold more than 1 Homing Missiles between them")
    html = ana.get(f"/two-robots/factory?table={table['id']}").get_data(as_text=True)
    assert "hold more than 1 Homing Missiles between them" in html
