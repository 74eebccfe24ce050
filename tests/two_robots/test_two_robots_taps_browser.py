"""How many taps entering a factory and a hand takes (issue 13, "Faster entry"), counted in Chromium."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

# Ana's factory (two stacks of three, one hybrid each) and a hand of five parts
STACKS = [[("head", "chemical", "solar"), ("arms", "chemical"), ("legs", "chemical")],
          [("head", "mechanical"), ("arms", "mechanical", "nuclear"), ("torso", "mechanical")]]
HAND = [("torso", "chemical"), ("legs", "mechanical", "solar"), ("head", "nuclear"), ("arms", "solar"),
        ("legs", "electrical")]


class Taps:
    def __init__(self, page):
        self.page, self.count = page, 0

    def tap(self, locator) -> None:
        locator.click()
        self.count += 1


def test_taps_to_enter_six_factory_cards_and_a_hand_of_five(page, live_url):
    page.goto(f"{live_url}/two-robots/factory")
    expect(page.locator("#tr-form.js")).to_be_visible()
    taps, dialog = Taps(page), page.locator("#tr-picker")

    def pick(card, button):
        part, *energies = card
        taps.tap(dialog.locator(f"#tr-parts [data-part={part}]"))
        for e in energies:
            taps.tap(dialog.locator(f"[data-energy={e}]"))
        taps.tap(dialog.locator(button))

    for i, stack in enumerate(STACKS):
        taps.tap(page.locator("#tr-stacks .tr-stack.new .tr-add"))
        pick(stack[0], "#tr-pick-add")
        expect(page.locator("#tr-stacks .tr-stack:not(.new)")).to_have_count(i + 1)
        taps.tap(page.locator("#tr-stacks .tr-stack").nth(i).locator(".tr-add"))
        pick(stack[1], "#tr-pick-more")
        pick(stack[2], "#tr-pick-add")
    taps.tap(page.locator("#tr-hand .tr-chip.add"))
    for card in HAND:
        pick(card, "#tr-pick-more")
    taps.tap(dialog.locator("#tr-pick-cancel"))
    expect(page.locator("#tr-stacks .tr-tile")).to_have_count(6)
    expect(page.locator("#tr-hand .tr-chip:not(.add)")).to_have_count(5)
    print("taps:", taps.count)
    assert taps.count == 42
