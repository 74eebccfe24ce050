"""Each Raising Robots answer links the most specific rule entries it relies on (rulebook cases by name):
the competition card of each competition in play and the readings the planner applies; the Game End
icon entries and the Extra Credit / solo readings on the score; each inventor's entry and the Johannes
robot-card reading at round end; the set-aside and known-bottom readings for Search. Every id exists."""
from __future__ import annotations

import pytest

from assistant.rules import books

PLAN = "/api/raising-robots/competitions/plan"
SCORE = "/api/raising-robots/score"
COMPARE = "/api/raising-robots/score/compare"
ROUND_END = "/api/raising-robots/round-end"
ODDS = "/api/raising-robots/search/odds"
BEST = "/api/raising-robots/search/best"
RECORD = "/api/raising-robots/search/record"
KNOWN = {e.id for b in books().values() for e in b.entries}


def all_ids(data: dict) -> set[str]:
    """Every id an answer names: its own list, its steps', its lines', its competitions'."""
    ids = set(data.get("rules", []))
    for key in ("steps", "lines", "eligible"):
        for item in data.get(key, []) or []:
            ids |= set(item.get("rules", []))
    for step in (data.get("plan") or {}).get("steps", []):
        ids |= set(step["rules"])
    return ids


def plan(client, body: dict) -> dict:
    r = client.post(PLAN, json=body)
    assert r.status_code == 200, r.get_json()
    data = r.get_json()
    assert all_ids(data) <= KNOWN, sorted(all_ids(data) - KNOWN)
    return data


# ---- competitions planner --------------------------------------------------------------------------

def test_competition_example_links_its_card_the_example_and_the_planner_reading(client):
    """Competition Example: 10 Robot Cards in hand, Mech Masters' 10-Robot-Cards card; paid in resources."""
    data = plan(client, {"player": {"inventory": {"robot_cards": 10, "sensor": 1}},
                         "competitions": [{"criterion": "mech-10-robot-cards"}]})
    (step,) = data["plan"]["steps"]
    assert step["payment"]["kind"] == "resources"
    assert {"rr-card-mech-10-robot-cards", "rr-competition-example", "rr-reading-resources-cost",
            "rr-important-criteria-met-when-claiming"} <= set(step["rules"])
    assert {"rr-reading-planner-values", "rr-reading-completing", "rr-reading-reward-sides"} <= set(data["rules"])
    assert data["eligible"][0]["rules"][0] == "rr-card-mech-10-robot-cards"


def test_friendship_example_links_the_cannot_pay_note(client):
    """Friendship Example: 3 placed tokens of one type meet Think Tank; the token counted cannot pay."""
    data = plan(client, {"player": {"inventory": {"battery": 7}, "tokens": {"placed": {"green": 3}}},
                         "competitions": [{"criterion": "think-3-same-type"}], "values": {"friendship": "6"}})
    (step,) = data["plan"]["steps"]
    assert step["payment"]["kind"] == "batteries" and step["reward"]["option"] == "friendship"
    assert {"rr-card-think-3-same-type", "rr-important-token-for-criterion-cannot-pay", "rr-friendship-example",
            "rr-important-tokens-must-be-placed", "rr-reading-think-tank-tokens", "rr-friendships"} <= set(step["rules"])


def test_only_one_order_links_the_several_at_once_rule_and_reading(client):
    """How to Complete Competitions (IMPORTANT, several at the same time): Mech Masters before Think Tank."""
    data = plan(client, {"player": {"inventory": {"battery": 14}, "tokens": {"placed": {"orange": 3}}},
                         "competitions": [{"criterion": "think-3-same-type"}, {"criterion": "mech-13-batteries"}]})
    assert [s["type"] for s in data["plan"]["steps"]] == ["mech_masters", "think_tank"]
    for step in data["plan"]["steps"]:
        assert {"rr-important-several-at-once", "rr-reading-several-competitions"} <= set(step["rules"])
    assert [e["rules"][0] for e in data["eligible"]] == ["rr-card-think-3-same-type", "rr-card-mech-13-batteries"]


def test_token_paid_onto_another_tile_links_the_think_tank_reading(client):
    """Completion Criteria (IMPORTANT: a token on a different competition tile counts as placed)."""
    data = plan(client, {"player": {"inventory": {"gear": 12}, "tokens": {"placed": {"orange": 2},
                                                                        "unplaced": {"orange": 1}}},
                         "competitions": [{"criterion": "think-3-same-type"},
                                          {"criterion": "expo-9-of-one", "token_type": "orange"}]})
    first = data["plan"]["steps"][0]
    assert first["type"] == "engineering_expo" and first["payment"]["kind"] == "token"
    assert {"rr-reading-think-tank-tokens", "rr-important-tile-a-side-token-type", "rr-card-expo-9-of-one",
            "rr-reading-criteria-counts"} <= set(first["rules"])


def test_friendship_cap_links_the_cap_rule_and_reading(client):
    """Friendships (IMPORTANT: never more than 2 Friendship Cards)."""
    data = plan(client, {"player": {"inventory": {"battery": 13}, "friendships": 2},
                         "competitions": [{"criterion": "mech-13-batteries"}]})
    assert {"rr-important-max-two-friendships", "rr-reading-friendship-cap"} <= set(data["plan"]["steps"][0]["rules"])


def test_b_side_token_links_the_b_side_entries(client):
    """Competition Card and Tile Overview (IMPORTANT): B side takes any token type."""
    data = plan(client, {"player": {"inventory": {"battery": 13}, "tokens": {"unplaced": {"green": 1}}},
                         "competitions": [{"criterion": "mech-13-batteries", "side": "B"}],
                         "values": {"upgrade_token": "1/3"}})
    step = data["plan"]["steps"][0]
    assert step["payment"] == {"kind": "token", "token_type": "green", "text": step["payment"]["text"]}
    assert {"rr-tile-b-side", "rr-important-tile-a-side-token-type"} <= set(step["rules"])


def test_robo_race_links_matching_upgraded_energy_and_any_row(client):
    """Robo Race (IMPORTANT: an upgraded action's energy counts only if upgraded; any-row robots)."""
    robots = [{"row": "design", "basic_energy": 1}, {"row": "fabricate", "basic_energy": 4},
              {"row": "recycle", "basic_energy": 2, "upgraded_energy": 6, "upgraded": True, "any_row": True},
              {"row": "design", "basic_energy": 3}, {"row": "design", "basic_energy": 5}]
    data = plan(client, {"player": {"robots": robots},
                         "competitions": [{"criterion": "race-energy-ranges"}]})
    (e,) = data["eligible"]
    assert e["met"] and e["rules"][0] == "rr-card-race-energy-ranges"
    assert {"rr-reading-robo-race-matching", "rr-important-upgraded-energy-needs-upgrade",
            "rr-important-any-row-symbol"} <= set(e["rules"])


def test_completed_competition_links_once_per_player_and_unchecked_numbers_the_tile_reading(client):
    """How to Complete Competitions (IMPORTANT: each competition once per player); tile numbers unverified."""
    data = plan(client, {"player": {"inventory": {"battery": 13}, "completed": ["mech_masters"]},
                         "competitions": [{"criterion": "mech-13-batteries"}]})
    assert "rr-important-complete-once" in data["eligible"][0]["rules"]
    assert "rr-reading-tile-costs" in data["rules"]


def test_every_competition_card_has_its_entry(client):
    """Completion Criteria: the 16 cards each link their own entry."""
    from solvers.raising_robots.competitions import CRITERIA

    for criterion in CRITERIA:
        data = plan(client, {"competitions": [{"criterion": criterion}]})
        assert data["eligible"][0]["rules"][0] == f"rr-card-{criterion}"


# ---- score -----------------------------------------------------------------------------------------

ICONS = [({"kind": "a_grade"}, "rr-icon-a-grade"), ({"kind": "microchip_robots"}, "rr-icon-microchip-robots"),
         ({"kind": "resource_pairs", "resource": "gear"}, "rr-icon-resource-pairs"),
         ({"kind": "vp56_robots"}, "rr-icon-vp56-robots"), ({"kind": "full_columns"}, "rr-icon-full-columns")]


@pytest.mark.parametrize("game_end,rule", ICONS)
def test_each_game_end_icon_line_links_its_own_entry(client, game_end, rule):
    """Game End Icons: every icon's line links that icon's entry; the pair icons the round-down reading."""
    body = {"robots": [{"row": "design", "column": 1, "vp": 5, "upgraded": True, "game_end": game_end}]}
    d = client.post(SCORE, json=body).get_json()
    (line,) = [ln for ln in d["lines"] if ln["kind"] == "game_end"]
    assert line["rule"] == rule and line["rules"][0] == rule
    assert rule in d["rules"] and "rr-reading-final-score" in d["rules"]
    assert ("rr-reading-game-end-upgraded-only" in line["rules"]) == (rule in (
        "rr-icon-microchip-robots", "rr-icon-resource-pairs", "rr-icon-vp56-robots"))


def test_icon_on_a_robot_not_upgraded_links_the_upgrade_rule(client):
    """Game End Ability: an hourglass on the upgraded action needs the robot upgraded."""
    body = {"robots": [{"row": "design", "column": 1, "vp": 5, "game_end": {"kind": "a_grade"}}]}
    d = client.post(SCORE, json=body).get_json()
    (line,) = [ln for ln in d["lines"] if ln["kind"] == "game_end"]
    assert line["vp"] == 0
    assert line["rules"] == ["rr-game-end-ability-needs-upgrade", "rr-reading-game-end-upgraded-only"]


def test_extra_credit_on_no_grade_links_its_reading(client):
    """New Class Objectives / Extra Credit: no grade + Extra Credit scores a D (Tablebot's reading)."""
    body = {"class_cards": [{"grade": "none", "extra_credit": True, "vp_by_grade": {"D": 2}},
                            {"grade": "C", "extra_credit": True, "vp_by_grade": {"B": 6}}]}
    d = client.post(SCORE, json=body).get_json()
    cards = [ln for ln in d["lines"] if ln["kind"] == "class_cards"]
    assert [c["vp"] for c in cards] == [2, 6]
    assert "rr-reading-extra-credit-no-grade" in cards[0]["rules"]
    assert "rr-reading-extra-credit-no-grade" not in cards[1]["rules"]  # C to B is plain Extra Credit
    assert "rr-reading-extra-credit-no-grade" in d["rules"]


def test_solo_target_met_exactly_links_the_solo_reading(client):
    """Solo / 2P Gameplay Changes: a score equal to the target reaches it (Tablebot's reading)."""
    body = {"players": [{"inventory": {"vp": 70}}], "solo": {"threshold": 50, "mode": "single"}}
    d = client.post(COMPARE, json=body).get_json()
    assert d["solo"]["reached"] is True and d["solo"]["margin"] == 0
    assert d["solo"]["rules"] == ["rr-solo-scoring-thresholds", "rr-reading-solo-target"]
    body["players"][0]["inventory"]["vp"] = 71
    assert client.post(COMPARE, json=body).get_json()["solo"]["rules"] == ["rr-solo-scoring-thresholds"]


# ---- round end -------------------------------------------------------------------------------------

def test_johannes_example_links_his_entry_and_the_order_reading(client):
    """Johannes example: +1 of each type at 5+, then the 8s counted after (2 VP)."""
    body = {"inventory": {"battery": 10, "microchip": 7, "sensor": 5}, "abilities": [{"id": "johannes", "upgraded": True}]}
    d = client.post(ROUND_END, json=body).get_json()
    assert [s["rules"] for s in d["steps"]] == [["rr-johannes-complexity-medium"],
                                                ["rr-johannes-complexity-medium", "rr-reading-johannes"]]
    assert {"rr-important-round-end-order", "rr-reading-round-end-order"} <= set(d["rules"])


def test_johannes_with_robot_cards_links_the_robot_card_reading(client):
    """Johannes (Tablebot's reading): Robot Cards are in hand, never counted, even with Sacagawea."""
    body = {"inventory": {"robot_cards": 6, "duct_tape": 4}, "abilities": [{"id": "johannes"}],
            "sacagawea_ongoing": True}
    d = client.post(ROUND_END, json=body).get_json()
    (step,) = d["steps"]
    assert step["gained"] == {} and "rr-reading-johannes-robot-cards" in step["rules"]
    assert "never count" in step["why"]


def test_each_ability_links_its_inventor_or_friendship_entry(client):
    """Friends Inventor Explanations and Friendship Ability Clarifications: one entry per ability."""
    grid = [{"row": r, "column": c} for r in ("design", "fabricate", "recycle") for c in (1, 2)]
    body = {"inventory": {"gear": 3, "robot_cards": 1}, "robots": grid, "abilities": [
        {"id": "charlotte", "action": "unlock", "pay_wilds": {"gear": 2}},
        {"id": "sacagawea", "upgraded": True, "reward": "vp"},
        {"id": "temple_friendship"}, {"id": "johannes_friendship"},
        {"id": "confucius_friendship", "per_robot": ["batteries"] * 6}]}
    d = client.post(ROUND_END, json=body).get_json()
    firsts = [s["rules"][0] for s in d["steps"]]
    assert firsts == ["rr-charlotte-complexity-medium", "rr-sacagawea-complexity-medium",
                      "rr-sacagawea-complexity-medium", "rr-friendship-temple", "rr-friendship-johannes",
                      "rr-friendship-confucius"]
    assert "rr-search" in d["steps"][1]["rules"]  # her Search
    assert all_ids(d) <= KNOWN


# ---- search ----------------------------------------------------------------------------------------

SEARCH_EXAMPLE_POOL = [{"row": "design", "energy": 3, "count": 1}, {"row": "fabricate", "energy": 4, "count": 1},
                       {"row": "any", "energy": 5, "count": 1, "wanted": True}]
CRITERIA = {"row": "design", "energy_min": 4, "energy_max": 5}


def test_search_example_links_the_example_any_row_and_basic_energy(client):
    """Search Example: only the any-row card fits Design 4-5; the upgraded action's energy never counts."""
    d = client.post(ODDS, json={"pool": SEARCH_EXAMPLE_POOL, "deck_size": 3, "criteria": CRITERIA}).get_json()
    assert {"rr-search-example", "rr-search-any-row-matches", "rr-search-basic-action-only",
            "rr-reading-search-model"} <= set(d["rules"])
    assert "rr-search-no-match" not in d["rules"]  # a match is certain


def test_known_bottom_card_marked_wanted_links_its_reading(client):
    """Search (Tablebot's reading): a card known to be at the bottom counts as wanted when starred."""
    body = {"pool": [{"row": "recycle", "energy": 2, "count": 3}], "deck_size": 3,
            "known_bottom": [{"row": "design", "energy": 4, "wanted": True}]}
    d = client.post(ODDS, json={**body, "criteria": CRITERIA}).get_json()
    assert "rr-reading-search-known-bottom-wanted" in d["rules"]
    assert "rr-reading-search-known-bottom-wanted" in client.post(BEST, json=body).get_json()["rules"]
    plain = {**body, "known_bottom": [{"row": "design", "energy": 4}]}
    assert "rr-reading-search-known-bottom-wanted" not in client.post(BEST, json=plain).get_json()["rules"]


def test_search_with_no_match_links_the_set_aside_reading(client):
    """Search (no card fits): the last card is taken, the rest form the new deck; the other unseen cards
    are set aside (Tablebot's reading)."""
    body = {"pool": [{"row": "recycle", "energy": 2, "count": 3}, {"row": "fabricate", "energy": 1, "count": 2}],
            "deck_size": 2, "event": "search", "criteria": CRITERIA,
            "revealed": [{"row": "recycle", "energy": 2}, {"row": "recycle", "energy": 2}]}
    d = client.post(RECORD, json=body).get_json()
    assert d["matched"] is False and d["set_aside"]
    assert {"rr-search-no-match", "rr-reading-search-set-aside"} <= set(d["rules"])
    d = client.post(ODDS, json={"pool": body["pool"], "deck_size": 2, "criteria": CRITERIA}).get_json()
    assert "rr-search-no-match" in d["rules"] and "rr-reading-search-set-aside" not in d["rules"]


def test_search_page_lists_the_set_aside_reading_while_cards_are_set_aside(client):
    t = client.post("/api/tables", json={"game": "raising-robots", "players": 2}).get_json()
    state = {"rr_search": {"cells": {"recycle-2": {"count": 2, "wanted": False}}, "deck_size": 2,
                           "set_aside": {"design-4": 3}}}
    assert client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": state}).status_code == 200
    html = client.get(f"/raising-robots/search?table={t['id']}").get_data(as_text=True)
    assert 'href="/rules/rr-reading-search-set-aside"' in html


# ---- pages draw every id with its title --------------------------------------------------------------

@pytest.mark.parametrize("path", ["/raising-robots/competitions", "/raising-robots/competitions/setup",
                                  "/raising-robots/score", "/raising-robots/round-end", "/raising-robots/search",
                                  "/raising-robots/activations"])
def test_pages_title_every_rule_link(client, path):
    import re

    html = client.get(path).get_data(as_text=True)
    links = re.findall(r'<a href="/rules/([a-z0-9-]+)">([^<]*)</a>', html)
    # every link to a rule entry has this plain shape (none is missed by the pattern), and there are some
    assert links and len(links) == html.count('href="/rules/'), path
    for rid, text in links:
        assert rid in KNOWN and text.strip() and text.strip() != rid, (rid, text)


# ---- setup helper --------------------------------------------------------------------------------------

def test_setup_links_the_solo_tokens_only_for_solo_and_two_players(client):
    """Changes to Setup, step 6 (solo / 2P only: spare Upgrade Tokens on the Round Tracker)."""
    solo = client.post("/api/raising-robots/competitions/setup", json={"players": 1, "seed": 1}).get_json()
    assert {"rr-competitions-friendships-changes-to-setup", "rr-setup-solo-2p-tokens"} <= set(solo["rules"])
    four = client.post("/api/raising-robots/competitions/setup", json={"players": 4, "seed": 1}).get_json()
    assert four["rules"] == ["rr-competitions-friendships-changes-to-setup"]


def test_round_end_links_the_flip_rule_and_the_tracker_rule_when_tokens_are_on_it(client):
    """How to Complete Competitions step 5 (flip at round end); Solo / 2P Gameplay Changes (tracker tokens)."""
    url = "/api/raising-robots/competitions/round"
    plain = client.post(url, json={"marker_to": 3, "completed_this_round": ["think_tank"]}).get_json()
    assert plain["rules"] == ["rr-flip-tile-round-end", "rr-important-same-round-same-side"]
    solo = client.post(url, json={"marker_to": 4, "tracker": [{"round": 4, "token_type": "pink"}]}).get_json()
    assert "rr-solo-2p-gameplay-changes" in solo["rules"]
    assert set(plain["rules"]) | set(solo["rules"]) <= KNOWN
