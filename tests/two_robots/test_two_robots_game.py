"""The Two Robots game at the table (issue 21; api.md "Additions of round 3": Two Robots game): health on
the stateless answers, `POST /api/two-robots/tables/<id>/action` (damage, next_phase and the other
table actions), `turn` and `winner` in the public state, and the factory page's game panel."""
from __future__ import annotations

import re

from tr_helpers import claim, current_version, private, set_hand

NAMES = ("head", "arms", "legs", "torso")


def P(part: str, *energies: str) -> dict:
    return {"part": part, "energies": list(energies)}


def robot(energy: str) -> dict:
    return {"cards": [P(n, energy) for n in NAMES]}


def act(client, table: dict | str, action: dict, version: int | None = None):
    tid = table if isinstance(table, str) else table["id"]
    v = current_version(client, tid) if version is None else version
    return client.post(f"/api/two-robots/tables/{tid}/action", json={"version": v, "action": action})


def tr_state(client, table: dict) -> dict:
    return client.get(f"/api/tables/{table['id']}").get_json()["state"]["two_robots"]


# ---- the stateless answers read health ------------------------------------------------------------

def test_factory_every_other_salvager_at_zero_health_is_a_win_as_the_last_standing(client):
    """Objective: defeating every other Salvager wins; standings never say "You lead ... from two robots"."""
    body = {"stacks": [{"cards": [P("head", "solar")]}], "health": 2,
            "others": [{"stacks": [robot("nuclear")], "health": 0}, {"stacks": [], "health": 0}]}
    out = client.post("/api/two-robots/factory", json=body).get_json()
    assert (out["won"], out["how"], out["defeated"]) == (True, "last_standing", False)
    assert out["standings"]["summary"] == "You win: the last Salvager standing."
    assert out["standings"]["winners"] == [0] and out["standings"]["leaders"] == [0]
    plan = client.post("/api/two-robots/plan", json=body).get_json()
    assert (plan["won"], plan["how"], plan["defeated"]) == (True, "last_standing", False)


def test_factory_own_health_zero_is_defeated_and_never_leads(client):
    """Objective / note in The Event Phase: at 0 health you are out, even with the best factory."""
    body = {"stacks": [robot("solar"), {"cards": [P(n, "nuclear") for n in NAMES[:3]]}], "health": 0,
            "others": [{"stacks": [{"cards": [P("head", "chemical")]}], "health": 2, "name": "Ben"},
                       {"stacks": [], "health": 1, "name": "Cy"}]}
    out = client.post("/api/two-robots/factory", json=body).get_json()
    assert (out["won"], out["how"], out["defeated"]) == (False, None, True)
    st = out["standings"]
    assert 0 not in st["leaders"] and st["seats"][0]["defeated"] is True
    assert st["summary"].startswith("You are out of the game") and "You lead" not in st["summary"]
    assert st["threats"] == []
    out = client.post("/api/two-robots/plan", json=body).get_json()
    assert out["defeated"] is True and out["won"] is False


def test_factory_two_robots_still_win_while_in_the_game(client):
    """Objective: two Active Robots win ("two_robots"); health above 0 changes nothing."""
    body = {"stacks": [robot("solar"), robot("nuclear")], "health": 1, "others": [{"stacks": [], "health": 3}]}
    out = client.post("/api/two-robots/factory", json=body).get_json()
    assert (out["won"], out["how"], out["defeated"]) == (True, "two_robots", False)


def test_a_defeated_opponent_never_leads_the_standings(client):
    """Objective: a defeated Salvager is out; Ben (one robot, health 0) does not lead."""
    body = {"stacks": [{"cards": [P("head", "solar")]}], "health": 3,
            "others": [{"stacks": [robot("nuclear")], "health": 0, "name": "Ben"}, {"stacks": [], "health": 2, "name": "Cy"}]}
    st = client.post("/api/two-robots/factory", json=body).get_json()["standings"]
    assert 1 not in st["leaders"] and "Ben" not in st["summary"]
    assert "out of the game" in st["seats"][1]["why"]


# ---- the action endpoint -------------------------------------------------------------------------------

def test_next_phase_moves_draw_play_event_cleanup_then_the_next_salvager_in_turn_order(app, new_table):
    """Turn Order (smaller Salvager number first) and Turn Overview (the four phases)."""
    table = new_table("two-robots", 3, {"two_robots": {"players": [{"salvager": "apocalypse"}, {},
                                                                   {"salvager": "scavenger"}]}})
    c = app.test_client()
    seen = []
    for _ in range(6):
        r = act(c, table, {"type": "next_phase"})
        assert r.status_code == 200, r.get_json()
        t = r.get_json()["state"]["two_robots"]["turn"]
        seen.append((t["seat"], t["phase"]))
    assert seen == [(2, "draw"), (2, "play"), (2, "event"), (2, "cleanup"), (0, "draw"), (0, "play")]


def test_damage_defeats_skips_and_the_last_standing_wins(app, new_table):
    """Objective: damage to 0 puts a Salvager out; turns skip them; the last one standing wins."""
    table = new_table("two-robots", 3)
    c = app.test_client()
    for _ in range(4):
        act(c, table, {"type": "next_phase"})
    r = act(c, table, {"type": "damage", "seat": 2, "amount": 3})
    assert r.status_code == 200
    part = r.get_json()["state"]["two_robots"]
    assert part["players"][2]["health"] == 0 and part["winner"] is None
    for _ in range(5):  # seat 0's cleanup ends, seat 1 plays its four phases
        part = act(c, table, {"type": "next_phase"}).get_json()["state"]["two_robots"]
    assert (part["turn"]["seat"], part["turn"]["phase"]) == (0, "draw")  # seat 2 is skipped
    part = act(c, table, {"type": "damage", "seat": 0, "amount": 3}).get_json()["state"]["two_robots"]
    assert part["winner"] == {"seats": [1], "how": "last_standing"}
    r = act(c, table, {"type": "next_phase"})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "action.type"
    assert "game is over" in r.get_json()["error"]["message"]


def test_a_stale_version_is_a_409_with_the_table_and_nothing_applied(app, new_table):
    """api.md: 409 when `version` is stale: two phones tapping Next phase at once move the game once."""
    table = new_table("two-robots", 2)
    c = app.test_client()
    v = current_version(c, table)
    assert act(c, table, {"type": "next_phase"}, v).status_code == 200
    r = act(c, table, {"type": "next_phase"}, v)
    assert r.status_code == 409 and r.get_json()["table"]["version"] == v + 1
    assert tr_state(c, table)["turn"]["phase"] == "draw"


def test_bad_actions_are_400s_naming_the_field(app, new_table):
    table = new_table("two-robots", 3)
    c = app.test_client()
    cases = [({"type": "damage", "seat": 3}, "action.seat"), ({"type": "damage", "seat": "x"}, "action.seat"),
             ({"type": "damage", "seat": 0, "amount": 0}, "action.amount"), ({"type": "fly"}, "action.type"),
             ({"seat": 1}, "action.type"),
             ({"type": "event_robot", "seat": 0, "sacrifice": {"stack": 0, "card": 0}}, "action.sacrifices")]
    for action, path in cases:
        r = act(c, table, action)
        assert r.status_code == 400, (action, r.get_json())
        assert r.get_json()["error"]["fields"][0]["path"] == path, (action, r.get_json())
    r = c.post(f"/api/two-robots/tables/{table['id']}/action", json={"action": {"type": "next_phase"}})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "version"
    assert c.post("/api/two-robots/tables/nope/action", json={"version": 1, "action": {"type": "next_phase"}}).status_code == 404


def test_hand_actions_are_the_seat_holder_s_alone_and_the_hand_stays_private(app, new_table):
    """Clarifications: only a hand's size is public. Ana plays a part from her hand in her Play phase;
    Ben cannot play from her hand; the answer and the public state hold her hand size, never her cards."""
    table = new_table("two-robots", 2)
    ana, ben = app.test_client(), app.test_client()
    claim(ana, table, 0, "Ana")
    claim(ben, table, 1, "Ben")
    set_hand(ana, table, 0, [{"kind": "part", "part": "torso", "energies": ["solar"]},
                             {"kind": "attack", "name": "Quiet Zebra", "stacks_required": 1}])
    act(ana, table, {"type": "next_phase"})
    act(ana, table, {"type": "next_phase"})
    r = act(ben, table, {"type": "play", "seat": 0, "code": "torso:s"})
    assert r.status_code == 403
    r = act(ana, table, {"type": "play", "seat": 0, "code": "torso:s"})
    assert r.status_code == 200, r.get_json()
    part = r.get_json()["state"]["two_robots"]
    assert part["players"][0]["hand_count"] == 1 and part["turn"]["actions_left"] == 2
    assert "Quiet Zebra" not in r.get_data(as_text=True)
    assert [c["name"] for c in private(ana, table, 0)["hand"]] == ["Quiet Zebra"]


def test_event_a_flips_a_power_card_on_the_table(app, new_table):
    """The Event Phase, option A: two parts sacrificed, a Power card used (health unchanged)."""
    table = new_table("two-robots", 2, {"two_robots": {"players": [{"stacks": [robot("solar")]}, {}]}})
    c = app.test_client()
    for _ in range(3):
        act(c, table, {"type": "next_phase"})
    r = act(c, table, {"type": "event_power", "seat": 0, "sacrifices": [{"stack": 0, "card": 0}, {"stack": 0, "card": 1}]})
    assert r.status_code == 200, r.get_json()
    me = r.get_json()["state"]["two_robots"]["players"][0]
    assert me["powers_left"] == 2 and me["health"] is None and len(me["stacks"][0]["cards"]) == 2


# ---- the page ------------------------------------------------------------------------------------------

def test_factory_page_shows_the_turn_and_a_phone_without_a_seat_sees_it_too(app, new_table):
    """Every phone shows whose turn and which phase it is (the seatless phone as well, without buttons)."""
    table = new_table("two-robots", 3)
    ana, ben, nobody = app.test_client(), app.test_client(), app.test_client()
    claim(ana, table, 0, "Ana")
    claim(ben, table, 1, "Ben")
    page = ana.get(f"/two-robots/factory?table={table['id']}").get_data(as_text=True)
    assert 'id="tr-start"' in page and "Turn order: Ana, Ben" in page
    assert 'value="next_phase:start"' in page
    v = current_version(ana, table)
    r = ana.post(f"/two-robots/factory?table={table['id']}", data={"do": "next_phase:start", "version": str(v),
                                                                  "table": table["id"]})
    assert r.status_code == 200
    for phone, line in ((ana, "Turn 1: your turn, Draw phase."), (ben, "Turn 1: Ana’s turn, Draw phase."),
                        (nobody, "Turn 1: Ana’s turn, Draw phase.")):
        html = phone.get(f"/two-robots/factory?table={table['id']}").get_data(as_text=True)
        assert line in html
    assert 'id="tr-next"' not in nobody.get(f"/two-robots/factory?table={table['id']}").get_data(as_text=True)
    # Ben taps "Start" on the page he had: the game moved on once, and his phone is told so
    r = ben.post(f"/two-robots/factory?table={table['id']}", data={"do": "next_phase:start", "version": str(v),
                                                                  "table": table["id"]})
    assert r.status_code == 409 and "moved on meanwhile" in r.get_data(as_text=True)
    # another phone's unrelated change does not stop a tap on the turn shown
    set_hand(ben, table, 1, [{"kind": "part", "part": "head", "energies": ["solar"]}])
    r = ana.post(f"/two-robots/factory?table={table['id']}", data={"do": "next_phase:1:draw", "version": str(v),
                                                                  "table": table["id"]})
    assert r.status_code == 200
    assert tr_state(ana, table)["turn"]["phase"] == "play"



def test_factory_page_damage_and_winner(app, new_table):
    table = new_table("two-robots", 2)
    ana = app.test_client()
    claim(ana, table, 0, "Ana")
    for health in (3, 2, 1):
        v = current_version(ana, table)
        r = ana.post(f"/two-robots/factory?table={table['id']}", data={"do": f"damage:1:{health}", "version": str(v),
                                                                      "table": table["id"]})
        assert r.status_code == 200
        if health == 3:  # the same tap again (a double tap, or a second phone): the health shown has changed
            again = ana.post(f"/two-robots/factory?table={table['id']}", data={"do": "damage:1:3", "table": table["id"]})
            assert again.status_code == 409 and tr_state(ana, table)["players"][1]["health"] == 2
    html = r.get_data(as_text=True)
    assert re.search(r'id="tr-winner"[^>]*><strong>Ana wins: the last Salvager standing.', html)
    assert "You win: the last Salvager standing." in html


def test_factory_page_turn_order_numbers_are_the_table_s(app, new_table):
    """Turn Order: the numbers on the Salvager cards; unverified here, so the table edits them."""
    table = new_table("two-robots", 2, {"two_robots": {"players": [{"salvager": "samurai"}, {"salvager": "apocalypse"}]}})
    ana = app.test_client()
    claim(ana, table, 0, "Ana")
    v = current_version(ana, table)
    r = ana.post(f"/two-robots/factory?table={table['id']}", data={"turn_order.apocalypse": "0", "version": str(v),
                                                                  "table": table["id"], "_seat": "0"})
    assert r.status_code == 200
    assert tr_state(ana, table)["turn_order"]["apocalypse"] == 0
    assert "Turn order: Player 2, Ana" in ana.get(f"/two-robots/factory?table={table['id']}").get_data(as_text=True)


def test_a_part_in_hand_offers_a_new_stack_and_plays_there(app, new_table):
    """How to Build a Robot / Energy Stacks: a part with no stack yet starts one (its menu's button names
    the new stack, and the tap puts it there)."""
    table = new_table("two-robots", 2)
    ana = app.test_client()
    claim(ana, table, 0, "Ana")
    set_hand(ana, table, 0, [{"kind": "part", "part": "head", "energies": ["solar"]}])
    html = ana.get(f"/two-robots/factory?table={table['id']}").get_data(as_text=True)
    assert 'value="play:head:s|new"' in html
    v = current_version(ana, table)
    r = ana.post(f"/two-robots/factory?table={table['id']}", data={"do": "play:head:s|new", "version": str(v),
                                                                  "table": table["id"]})
    assert r.status_code == 200
    assert tr_state(ana, table)["players"][0]["stacks"][0]["cards"][0]["part"] == "head"
    assert private(ana, table, 0)["hand"] == []


def test_a_refused_play_says_why_and_changes_nothing(app, new_table):
    """Turn Overview: once the game is followed, a card is played in your own Play phase only."""
    table = new_table("two-robots", 2)
    ana, ben = app.test_client(), app.test_client()
    claim(ana, table, 0, "Ana")
    claim(ben, table, 1, "Ben")
    set_hand(ben, table, 1, [{"kind": "part", "part": "head", "energies": ["solar"]}])
    act(ana, table, {"type": "next_phase"})
    v = current_version(ben, table)
    r = ben.post(f"/two-robots/factory?table={table['id']}", data={"do": "play:head:s|new", "version": str(v),
                                                                  "table": table["id"]})
    assert r.status_code == 400
    assert "It is seat 1’s turn".replace("’", "'") in r.get_data(as_text=True).replace("&#39;", "'")
    assert current_version(ben, table) == v and len(private(ben, table, 1)["hand"]) == 1


def test_the_odds_page_says_whose_turn_it_is(app, new_table):
    """Every page of the table shows whose turn and phase it is (the odds page in one line)."""
    table = new_table("two-robots", 2)
    ana = app.test_client()
    claim(ana, table, 0, "Ana")
    url = f"/two-robots/odds?table={table['id']}"
    assert "The game is not being followed yet" in ana.get(url).get_data(as_text=True)
    act(ana, table, {"type": "next_phase"})
    act(ana, table, {"type": "next_phase"})
    html = ana.get(url).get_data(as_text=True)
    assert "Turn 1: your turn, Play phase." in html and "3 of 3 actions left" in html
    act(ana, table, {"type": "damage", "seat": 1, "amount": 3})
    assert "Ana wins: the last Salvager standing." in ana.get(url).get_data(as_text=True)


def test_cards_entered_by_name_are_kept_reminded_in_their_phase_and_named_under_the_answers(app, new_table):
    """Special Abilities and Clarifications: Shogun (Samurai's Power) entered by name with its words is kept
    with the table, reminded in Samurai's Event phase with what the rulebook says of it, and named under the
    answers as not taken into account, as is what Samurai has that nobody entered."""
    table = new_table("two-robots", 2, {"two_robots": {"players": [{"salvager": "samurai"}, {}]}})
    ana, ben = app.test_client(), app.test_client()
    claim(ana, table, 0, "Ana")
    claim(ben, table, 1, "Ben")
    url = f"/two-robots/factory?table={table['id']}"
    v = current_version(ana, table)
    r = ana.post(url, data={"do": "named:add", "nc_name": "shogun", "nc_text": "Reveal two cards.", "version": str(v),
                            "table": table["id"]})
    assert r.status_code == 200
    cards = tr_state(ana, table)["named_cards"]
    assert [(c["name"], c["kind"], c["salvager"], c["phase"]) for c in cards] == [("Shogun", "power", "samurai", "event")]
    for _ in range(3):
        act(ana, table, {"type": "next_phase"})
    for phone in (ana, ben):  # every phone: it is Samurai's Event phase
        html = phone.get(url).get_data(as_text=True)
        assert re.search(r'id="tr-reminders".*Shogun.*Reveal two cards\..*not reshuffled', html, re.S)
    out = ben.post("/api/two-robots/factory", json={"table": table["id"], "seat": 1}).get_json()
    assert [c["name"] for c in out["not_modelled"]] == ["Shogun"]
    assert ("Not taken into account (Tablebot does not model what they do): Shogun (Power card, Samurai); Samurai: "
            "its Special ability and its other Power cards.") in out["standings"]["notes"]
    plan = ana.post("/api/two-robots/plan", json={"table": table["id"], "seat": 0}).get_json()
    assert any(n.startswith("Not taken into account") and "Shogun" in n for n in plan["notes"])
    v = current_version(ana, table)
    r = ana.post(url, data={"do": f"named:remove:{cards[0]['id']}", "version": str(v), "table": table["id"]})
    assert r.status_code == 200 and tr_state(ana, table)["named_cards"] == []


def test_a_nameless_card_is_refused_by_the_field(app, new_table):
    table = new_table("two-robots", 2)
    ana = app.test_client()
    claim(ana, table, 0, "Ana")
    v = current_version(ana, table)
    r = ana.post(f"/two-robots/factory?table={table['id']}", data={"do": "named:add", "nc_name": " ", "version": str(v),
                                                                  "table": table["id"]})
    assert r.status_code == 400 and "Give the card" in r.get_data(as_text=True)
    assert current_version(ana, table) == v


def test_the_pile_gives_the_second_card_s_odds_without_a_reshuffle(app, new_table):
    """Clarifications: Katana and Shogun reveal two Active Robot cards without a reshuffle between them; the
    factory page of a 3-player table gives the second card's odds after each first one."""
    table = new_table("two-robots", 3)
    ana = app.test_client()
    claim(ana, table, 0, "Ana")
    html = ana.get(f"/two-robots/factory?table={table['id']}").get_data(as_text=True)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    assert "First Shots Fired (60 %), then: Shots Fired 50 %, Weapons Jammed 25 %, Scattershot 25 %." in text
    assert "First Weapons Jammed (20 %), then: Shots Fired 75 %, Scattershot 25 %." in text


def test_a_health_typed_in_settles_the_winner_and_the_turn(app, new_table):
    """Objective: a Salvager set to health 0 by hand is out as surely as by damage: the turn passes on and
    the last one standing wins."""
    table = new_table("two-robots", 3)
    ana = app.test_client()
    claim(ana, table, 0, "Ana")
    act(ana, table, {"type": "next_phase"})
    url = f"/two-robots/factory?table={table['id']}"
    v = current_version(ana, table)
    r = ana.post(url, data={"players.0.health": "0", "version": str(v), "table": table["id"], "_seat": "0"})
    assert r.status_code == 200
    part = tr_state(ana, table)
    assert (part["turn"]["seat"], part["turn"]["phase"]) == (1, "draw") and part["winner"] is None
    v = current_version(ana, table)
    ana.post(url, data={"players.2.health": "0", "version": str(v), "table": table["id"], "_seat": "2"})
    assert tr_state(ana, table)["winner"] == {"seats": [1], "how": "last_standing"}


def test_the_simpler_game_as_a_table_setting(app, new_table):
    """Variations: the simpler game, set on the game panel, drops the Event phase, health and the cards by
    name from every phone's page, and from the answers (no defeat, no Event option, nothing named)."""
    table = new_table("two-robots", 2, {"two_robots": {"players": [{"salvager": "samurai", "health": 0}, {}]}})
    ana = app.test_client()
    claim(ana, table, 0, "Ana")
    url = f"/two-robots/factory?table={table['id']}"
    v = current_version(ana, table)
    r = ana.post(url, data={"simple": ["false", "true"], "version": str(v), "table": table["id"], "_seat": "0"})
    assert r.status_code == 200 and tr_state(ana, table)["simple"] is True
    html = ana.get(url).get_data(as_text=True)
    assert 'id="tr-simple-note"' in html and 'id="tr-health"' not in html and 'id="tr-named"' not in html
    assert 'name="players.0.event"' not in html and "Event phase options" not in html
    act(ana, table, {"type": "next_phase"})
    act(ana, table, {"type": "next_phase"})
    part = act(ana, table, {"type": "next_phase"}).get_json()["state"]["two_robots"]
    assert part["turn"]["phase"] == "cleanup"
    out = ana.post("/api/two-robots/factory", json={"table": table["id"], "seat": 0}).get_json()
    assert (out["defeated"], out["not_modelled"]) == (False, [])
    assert "out of the game" not in out["standings"]["summary"]
