"""How many taps entering a factory and a hand takes (issue 13, "Faster entry"), counted in Chromium.

Before (the card picker: open it, pick the part, its energies, then Add): 42 taps for the six factory
cards and the hand of five below. Now an energy stays chosen and each row has its own part buttons.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import expect
from tr_helpers import hand_on, take_seat

pytestmark = pytest.mark.browser

# Ana's factory (two stacks of three, one hybrid each) and a hand of five parts
STACKS = [[("head", "cs"), ("arms", "c"), ("legs", "c")],
          [("head", "m"), ("arms", "mn"), ("torso", "m")]]
HAND = [("torso", "c"), ("legs", "ms"), ("head", "n"), ("arms", "s"), ("legs", "e")]
BEFORE = 42


def test_taps_to_enter_six_factory_cards_and_a_hand_of_five(page, live_url):
    table = page.request.post(f"{live_url}/api/tables", data={"game": "two-robots", "players": 2}).json()
    take_seat(page, live_url, table, 0, "Ana")
    page.goto(f"{live_url}/two-robots/factory?table={table['id']}")
    taps = {"n": 0, "combo": None}

    def tap(locator) -> None:
        with page.expect_response(lambda r: r.request.method == "POST") if locator.get_attribute("type") == "submit" \
                else _nothing():
            locator.click()
        taps["n"] += 1

    def card(row: str, part: str, combo: str) -> None:
        if taps["combo"] != combo:
            tap(page.locator(f"#tr-picker label.tr-combo:has(input[value='{combo}'])").first)
            taps["combo"] = combo
        tap(page.locator(f"button[name=do][value='add:{row}:{part}']"))

    for i, stack in enumerate(STACKS):
        card("new", *stack[0])
        expect(page.locator("#tr-stacks .tr-stack:not(.new)")).to_have_count(i + 1)
        for part, combo in stack[1:]:
            card(f"stack:{i}", part, combo)
    for part, combo in HAND:
        card("hand", part, combo)
    expect(page.locator("#tr-stacks .tr-tile")).to_have_count(6)
    expect(page.locator("#tr-hand-cards > li")).to_have_count(5)
    stored = page.request.get(f"{live_url}/api/tables/{table['id']}").json()["state"]["two_robots"]["players"][0]
    assert [len(s["cards"]) for s in stored["stacks"]] == [3, 3] and len(hand_on(page, live_url, table, 0)) == 5
    assert stored["hand_count"] == 5
    assert taps["n"] == 21 and taps["n"] <= BEFORE / 2, taps["n"]
    assert page.js_errors == []


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
