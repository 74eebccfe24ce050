"""Two phones on one Raising Robots table, in Chromium, on every tool page kept with a table (issue 11 "Live";
game-phases.md): phone A changes a value; phone B's open page shows it and the answer worked out again
within 2 s, without a reload, while the field B is typing in keeps what B typed and its focus.
(The activation checker keeps nothing with a table, so there is nothing for it to follow.)"""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready, expect_shown, phone
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

CARDS = {"engineering_expo": "expo-9-of-one", "mech_masters": "mech-13-batteries",
         "think_tank": "think-3-same-type", "robo_race": "race-same-row"}


def set_field(page, selector: str, value: str) -> None:
    """Type a new value into a field the way a thumb does (the form sends it by itself)."""
    page.fill(selector, value)
    page.dispatch_event(selector, "input")
    page.dispatch_event(selector, "change")


# page, state, what A does, what B then shows (selector, value or text), B's field and what B types
CASES = {
    "planner": ("/raising-robots/competitions?seat=0",
                {"rr_competitions": {"cards": CARDS}, "rr_players": [{"inventory": {"battery": 9}}]},
                lambda a: set_field(a, "#f-seats-0-inventory-battery", "13"),
                [("#f-seats-0-inventory-battery", "value", "13"), ("#rrc-result", "text", "Mech Masters")], "#f-seats-0-inventory-sensor", "4"),
    "score": ("/raising-robots/score",
              {"rr_players": [{"inventory": {"vp": 3}}]},
              lambda a: set_field(a, "#f-seats-0-inventory-vp", "12"),
              [("#f-seats-0-inventory-vp", "value", "12"), ("#rr-total", "exact", "12")], "#f-solo-threshold", "30"),
    "round end": ("/raising-robots/round-end",
                  {"rr_players": [{"inventory": {"battery": 4}}],
                   "rr_round_end": {"seats": {"0": {"order": {"johannes-base": 1}}}}},
                  lambda a: set_field(a, "#f-seats-0-inventory-battery", "5"),
                  [("#f-seats-0-inventory-battery", "value", "5"), ("#rr-result-body", "text", "+1 battery")], "#f-seats-0-inventory-gear", "2"),
    "search": ("/raising-robots/search",
               {"rr_search": {"deck_size": 12}},
               lambda a: set_field(a, "#f-search-deck_size", "5"),
               [("#f-search-deck_size", "value", "5"), ("#rr-estimate", "text", "each of the 5 unknown cards")],
               "#seen_cards", "D4"),
    "round": ("/raising-robots/round",
              {"table": {"round": 1}, "raising_robots": {"seats": [
                  {"prep": {"round": 1, "cards": [{"phase": "design", "energy": 3}, {"phase": "upgrade", "energy": 2}]}}]}},
              lambda a: set_field(a, "#f-seats-0-prep-cards-0-energy", "6"),
              [("#f-seats-0-prep-cards-0-energy", "value", "6"), ("#rr-total-design", "exact", "6")],
              "#f-seats-0-inventory-vp", "4"),
    "setup": ("/raising-robots/competitions/setup",
              {"table": {"round": 1}, "rr_competitions": {"cards": CARDS, "players": 3}},
              lambda a: a.click("#rrs-round-end"),
              [("#rrs-round", "exact", "2")], "#f-competitions-players", "4"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_two_phones_follow_one_table(name, browser, browser_context_args, live_url, new_live_table, shots):
    path, state, act, shows, typing, typed = CASES[name]
    table = new_live_table("raising-robots", 1 if name == "score" else 2, state)
    sep = "&" if "?" in path else "?"
    url = f"{live_url}{path}{sep}table={table['id']}"
    ctx_a, a = phone(browser, browser_context_args)
    ctx_b, b = phone(browser, browser_context_args)
    a.goto(url)
    b.goto(url)
    if name == "setup":
        b.click("#rrs-new-game summary")  # B starts a new game's player count, in a fold
    b.click(typing)
    b.fill(typing, "")
    b.keyboard.type(typed)  # B is typing when A's change arrives
    with a.expect_response(lambda r: r.request.method == "POST"):
        act(a)
    expect_shown(b, shows)
    expect(b.locator(typing)).to_have_value(typed)
    expect(b.locator(typing)).to_be_focused()
    assert len(a.navigations) == 1 and len(b.navigations) == 1  # no reloads
    assert_phone_ready(b)
    b.screenshot(path=shots(f"rr-live-{name.replace(' ', '-')}-b"))
    ctx_a.close()
    ctx_b.close()
