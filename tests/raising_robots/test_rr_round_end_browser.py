"""The round-end page in real Chromium at phone size: the Johannes example in the order the player sets,
then the upgraded part put first (fewer VP, and the page says which order is better); 390 and 320 px, dark."""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def script_errors(page) -> list[str]:
    """JS errors, leaving out the console line Chromium writes for each 400 the API answers while a
    player is halfway through typing (the page shows that answer as a notice)."""
    return [e for e in page.js_errors if "status of 400" not in e]


def test_round_end_johannes_example_and_order(page, live_url, shots):
    page.goto(live_url + "/raising-robots/round-end")
    page.fill("#f-seats-0-inventory-battery", "10")
    page.fill("#f-seats-0-inventory-microchip", "7")
    page.fill("#f-seats-0-inventory-sensor", "5")
    page.select_option("#ord-johannes-base", "1")
    page.select_option("#ord-johannes-upgrade", "2")
    steps = page.locator("#rr-result-body ol.rr-steps > li")
    expect(steps).to_have_count(2)
    expect(steps.nth(1)).to_contain_text("+2 vp")
    assert_phone_ready(page)
    page.screenshot(path=shots("rr-round-end-390"), full_page=True)
    # the upgraded part first: only the 10 batteries are at 8+, and the page points to the better order
    page.select_option("#ord-johannes-upgrade", "1")
    page.select_option("#ord-johannes-base", "2")
    expect(steps.nth(0)).to_contain_text("+1 vp")
    expect(page.locator("#rr-result-body")).to_contain_text("+1 vp more")
    page.set_viewport_size({"width": 320, "height": 700})
    page.emulate_media(color_scheme="dark")
    assert_phone_ready(page)
    page.screenshot(path=shots("rr-round-end-320-dark"), full_page=True)
    assert script_errors(page) == []


def test_round_end_without_js_shows_a_charlotte_problem(browser, browser_context_args, live_url):
    ctx = browser.new_context(**browser_context_args, java_script_enabled=False)
    page = ctx.new_page()
    page.goto(live_url + "/raising-robots/round-end")
    page.select_option("#ord-charlotte-base", "1")
    page.check("input[name='seats.0.round_end.ch_action'][value=unlock]")
    page.fill("#f-seats-0-round_end-ch_wilds-gear", "2")
    page.click("button[value=run]")
    # said under Charlotte's wilds, once
    assert "you have 0 at this point" in page.locator("[data-for='seats.0.round_end.ch_wilds']").inner_text()
    assert page.locator("#rr-problems").count() == 0
    page.fill("#f-seats-0-inventory-gear", "2")
    page.click("button[value=run]")
    assert "unlock one upgrade token" in page.locator("#rr-result-body").inner_text()
    ctx.close()
