"""The factory page's variations, Event outcomes and new game (issue 21 items 2, 4 and 6): the settings are
changed from the page and shown on every phone, standings by team, the Event's buttons on the phones
whose seats may use them, and a new game confirmed before it is started."""
from __future__ import annotations

import re

from test_two_robots_game import P, robot, tr_state
from tr_helpers import phone_with_seat, private


def page(phone, table: dict, data: dict | None = None):
    url = f"/two-robots/factory?table={table['id']}"
    if data is None:
        return phone.get(url)
    v = phone.get(f"/api/tables/{table['id']}").get_json()["version"]
    return phone.post(url, data={"table": table["id"], "version": str(v), **data})


def text(r) -> str:
    return re.sub(r"\s+", " ", r.get_data(as_text=True))


def test_variations_changed_on_one_phone_show_on_every_phone_with_team_standings(app, new_table):
    """Variations: 2v2 with four players, and the two house rules, kept with the table."""
    table = new_table("two-robots", 4, {"two_robots": {"players": [
        {"stacks": [{"cards": [P("head", "solar")]}]}, {"stacks": [robot("chemical")]}, {}, {}]}})
    ann = phone_with_seat(app, table, 0, "Ann")
    ben = phone_with_seat(app, table, 1, "Ben")
    phone_with_seat(app, table, 2, "Cy")
    r = page(ann, table, {"do": "settings", "teams": "13-24", "uniform_robot": "true", "five_stacks": "false"})
    assert r.status_code == 200
    part = tr_state(ann, table)
    assert part["teams"] == [0, 1, 0, 1] and part["house_rules"]["uniform_robot"] is True
    seen = text(page(ben, table))
    assert "2v2: Ann and Cy against Ben and Player 4 (a shared win); house rule: a perfectly uniform robot wins." in seen
    assert 'id="tr-teams"' in seen and "Ben (you) and Player 4" in seen
    assert re.search(r'<option value="13-24" selected>', seen)
    assert 'name="uniform_robot" value="true" checked' in seen


def test_teams_on_a_three_player_table_are_refused_next_to_the_setting(app, new_table):
    """Variations: 2v2 is for four players; the page says so and offers no teams."""
    table = new_table("two-robots", 3)
    ann = phone_with_seat(app, table, 0, "Ann")
    seen = text(page(ann, table))
    assert "2v2 teams need four players" in seen and 'name="teams"' not in seen
    r = page(ann, table, {"do": "settings", "teams": "13-24"})
    assert r.status_code == 400 and "four players" in text(r)


def test_a_cancelled_power_on_the_page_stays_used_and_the_cancel_button_is_the_gunship_holder_s(app, new_table):
    """The Event Phase (a cancelled Power card is used up), Defense Cards (an opponent's Sentry Gunship,
    out of turn), Clarifications (a cancelled card affects none)."""
    table = new_table("two-robots", 3, {"two_robots": {"players": [
        {"stacks": [robot("solar")], "salvager": "apocalypse"}, {"stacks": [{"cards": [P("head", "nuclear")]}]}, {}]}})
    ann = phone_with_seat(app, table, 0, "Ann")
    ben = phone_with_seat(app, table, 1, "Ben", [{"kind": "defense", "name": "Sentry Gunship", "stacks_required": 1}])
    cy = phone_with_seat(app, table, 2, "Cy")
    for _ in range(3):
        seen = tr_state(ann, table)
        key = f"{seen['turn']['number']}:{seen['turn']['phase']}" if seen.get("turn") else "start"
        page(ann, table, {"do": f"next_phase:{key}"})
    seen = text(page(ann, table))
    assert '<option value="Cold Fusion">' in seen and '<option value="Meltdown">' in seen  # Apocalypse's, per the rulebook
    r = page(ann, table, {"do": "event_power", "power": "Cold Fusion", "sacrifice": ["0.0", "0.1"]})
    assert r.status_code == 200
    assert "reaches every player, Ann too" in text(r)
    assert 'value="cancel_event:defense:1:Sentry Gunship"' in text(page(ben, table))
    assert "cancel_event" not in text(page(cy, table))  # Cy holds no Sentry Gunship
    assert "cancel_event" not in text(page(ann, table))  # nor is Ben's hand on any other phone
    r = page(ben, table, {"do": "cancel_event:defense:1:Sentry Gunship"})
    assert r.status_code == 200 and private(ben, table, 1)["hand"] == []
    seen = text(page(cy, table))
    assert "Cancelled by Ben’s Sentry Gunship: it affects none of the players, and the Power card stays used up." in seen
    assert "event_damage" not in text(page(ann, table))
    assert tr_state(ann, table)["players"][0]["used_powers"] == ["Cold Fusion"]
    assert "used: Cold Fusion" in text(page(cy, table))  # a flipped Power card is in sight of everyone


def test_meltdown_answers_on_each_phone_an_empty_hand_discards_nothing(app, new_table):
    """Clarifications: Meltdown; a player with no cards in hand may discard nothing and suffer no damage."""
    table = new_table("two-robots", 3, {"two_robots": {"players": [
        {"stacks": [robot("solar")], "salvager": "apocalypse"}, {}, {}]}})
    ann = phone_with_seat(app, table, 0, "Ann")
    ben = phone_with_seat(app, table, 1, "Ben")
    cy = phone_with_seat(app, table, 2, "Cy", [P("head", "solar") | {"kind": "part"}])
    for key in ("start", "1:draw", "1:play"):
        page(ann, table, {"do": f"next_phase:{key}"})
    page(ann, table, {"do": "event_power", "power": "Meltdown", "sacrifice": ["0.0", "0.1"]})
    seen = text(page(ben, table))
    assert "Discard nothing (my hand is empty)" in seen and "Meltdown: Ben, Cy still to answer" in seen
    assert "Discard nothing" not in text(page(cy, table))
    page(ben, table, {"do": "meltdown:nothing"})
    r = page(cy, table, {"do": "meltdown:discard|head:s"})
    assert r.status_code == 200 and private(cy, table, 2)["hand"] == []
    part = tr_state(ann, table)
    assert [p.get("health") for p in part["players"]] == [None, None, None] and part["turn"]["replied"] == [1, 2]


def test_new_game_is_confirmed_on_the_page_before_it_empties_every_hand(app, new_table):
    """Setup and Turn Overview (zero cards in hand): the first tap asks, the second starts it."""
    table = new_table("two-robots", 2, {"two_robots": {"players": [{"stacks": [robot("solar")], "health": 1}, {}]}})
    ann = phone_with_seat(app, table, 0, "Ann", [P("head", "solar") | {"kind": "part"}])
    ben = phone_with_seat(app, table, 1, "Ben", [P("arms", "solar") | {"kind": "part"}])
    r = page(ann, table, {"do": "new_game_ask"})
    assert "Start a new game at this table?" in text(r)
    assert tr_state(ann, table)["players"][0]["stacks"]  # nothing changed yet
    r = page(ann, table, {"do": "new_game"})
    assert r.status_code == 200
    part = tr_state(ann, table)
    assert part["players"][0]["stacks"] == [] and part["players"][0].get("health") is None
    assert part["turn"]["number"] == 1
    assert private(ann, table, 0)["hand"] == [] and private(ben, table, 1)["hand"] == []


def test_odd_stored_variations_and_event_state_never_break_the_page(app, new_table):
    """A page never 5xx's on a stored state: teams that do not fit the seats, odd house rules, an Event's
    record with cards and seats that are not there."""
    odd = [{"teams": [0, 1, 0, 1]}, {"teams": [5, "x"]}, {"house_rules": "yes"}, {"house_rules": {"uniform_robot": 3}},
           {"turn": {"seat": 0, "phase": "event", "event": "power", "power": "Meltdown", "revealed": [["x", "y"]],
                     "cancelled_by": 9, "resolved": [1], "replied": [7]}},
           {"turn": {"seat": 1, "phase": "event", "event": "active_robot", "revealed": [["scattershot", "orb"]] * 3}},
           {"winner": {"seats": [0], "how": "five_stacks", "team": 7}},
           {"players": [{"used_powers": ["x" * 99, 5]}], "turn": {"seat": 0, "phase": "event", "event": "power",
                                                                    "power": "Balance"}}]
    for part in odd:
        table = new_table("two-robots", 3, {"two_robots": part})
        ann = phone_with_seat(app, table, 0, "Ann")
        for url in (f"/two-robots/factory?table={table['id']}", f"/two-robots/odds?table={table['id']}"):
            r = ann.get(url)
            assert r.status_code == 200, (part, url)
        r = page(ann, table, {"do": "event_damage:", "hit": ["1"]})
        assert r.status_code < 500, part


def test_shogun_reveals_two_cards_the_second_s_odds_from_the_pile_without_the_first(app, new_table):
    """Clarifications: Samurai's Shogun reveals without a reshuffle in between; the 2-player pile is 3 Shots
    Fired and 1 Weapons Jammed, so after Weapons Jammed the next card is Shots Fired for certain (3/3), and
    after Shots Fired it is 2/3 and 1/3. The Event Phase: reshuffled once the phase ends."""
    table = new_table("two-robots", 2, {"two_robots": {"players": [
        {"stacks": [robot("solar")], "salvager": "samurai"}, {}]}})
    ann = phone_with_seat(app, table, 0, "Ann")
    ben = phone_with_seat(app, table, 1, "Ben")
    for key in ("start", "1:draw", "1:play"):
        page(ann, table, {"do": f"next_phase:{key}"})
    page(ann, table, {"do": "event_power", "power": "Shogun", "sacrifice": ["0.0", "0.1"]})
    seen = text(page(ann, table))
    assert 'value="reveal:shogun"' in seen and 'value="reveal:option_b"' not in seen
    assert re.search(r"Shots Fired <span title=\"exactly 3/4\">75 %</span>, Weapons Jammed <span title=\"exactly "
                     r"1/4\">25 %</span>", seen)
    page(ann, table, {"do": "reveal:shogun", "robot_card": "shots_fired"})
    seen = text(page(ann, table))
    assert "Revealed: Shots Fired (Shogun)." in seen
    assert re.search(r"Shots Fired <span title=\"exactly 2/3\">67 %</span>, Weapons Jammed <span title=\"exactly "
                     r"1/3\">33 %</span>", seen)
    page(ann, table, {"do": "reveal:shogun", "robot_card": "weapons_jammed"})
    r = page(ann, table, {"do": "reveal:shogun", "robot_card": "shots_fired"})
    assert r.status_code == 400 and "Two cards are revealed at most" in text(r)
    assert "Revealed: Shots Fired (Shogun), Weapons Jammed (Shogun)." in text(page(ben, table))
    assert 'value="reveal:' not in text(page(ben, table))  # only the turn's Salvager reveals


def test_space_pod_on_the_page_takes_a_hybrid_onto_either_of_its_energies(app, new_table):
    """Clarifications: a hybrid stolen with Space Pod may change its Energy type entering the factory; the
    Space Pod form is on its holder's phone only."""
    table = new_table("two-robots", 2, {"two_robots": {"players": [
        {"stacks": [{"cards": [P("head", "solar")]}]},
        {"stacks": [{"cards": [P("head", "chemical"), P("arms", "chemical", "solar")]}]}]}})
    pod = {"kind": "defense", "name": "Space Pod", "stacks_required": 1}
    ann = phone_with_seat(app, table, 0, "Ann", [pod])
    ben = phone_with_seat(app, table, 1, "Ben")
    for key in ("start", "1:draw"):
        page(ann, table, {"do": f"next_phase:{key}"})
    assert 'id="tr-pod"' in text(page(ann, table)) and 'id="tr-pod"' not in text(page(ben, table))
    r = page(ann, table, {"do": "space_pod:defense:1:Space Pod", "pod_target": "1.0.1", "pod_stack": "0"})
    assert r.status_code == 200
    part = tr_state(ann, table)
    assert part["players"][0]["stacks"][0]["cards"][-1]["energies"] == ["chemical", "solar"]
    assert part["turn"]["actions_left"] == 2 and private(ann, table, 0)["hand"] == []


def test_every_salvager_out_at_once_says_nobody_wins_on_every_phone(app, new_table):
    """Clarifications (Cold Fusion: every tied player takes one damage, its own player included) and
    Objective: the last two Salvagers both reach 0; the rulebook names no winner, and Tablebot's reading
    (rule entry tr-reading-nobody-standing) is that nobody wins, shown on every phone with a new game."""
    table = new_table("two-robots", 2, {"two_robots": {"players": [
        {"stacks": [robot("solar")], "salvager": "apocalypse", "health": 1}, {"health": 1}]}})
    ann = phone_with_seat(app, table, 0, "Ann")
    ben = phone_with_seat(app, table, 1, "Ben")
    for key in ("start", "1:draw", "1:play"):
        page(ann, table, {"do": f"next_phase:{key}"})
    page(ann, table, {"do": "event_power", "power": "Cold Fusion", "sacrifice": ["0.0", "0.1"]})
    page(ann, table, {"do": "event_damage", "hit": ["0", "1"]})
    part = tr_state(ann, table)
    assert [p.get("health") for p in part["players"]] == [0, 0] and part["winner"] is None and part["turn"] is None
    for phone in (ann, ben):
        seen = text(page(phone, table))
        assert "Every Salvager is out at once, so nobody wins (how Tablebot reads this" in seen
        assert 'id="tr-start"' not in seen and 'value="new_game_ask"' in seen
        assert "Every Salvager is out at once" in text(phone.get(f"/two-robots/odds?table={table['id']}"))


def test_the_nobody_standing_reading_is_a_rule_entry():
    """The reading the page states is kept with the rules (assistant/data/rules/two_robots.toml)."""
    import tomllib
    from pathlib import Path
    data = tomllib.loads(Path("assistant/data/rules/two_robots.toml").read_text())
    entry = next(e for e in data["entry"] if e["id"] == "tr-reading-nobody-standing")
    assert entry["kind"] == "reading" and entry["section"] == "Objective"
