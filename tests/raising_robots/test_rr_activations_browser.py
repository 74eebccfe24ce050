"""The activation-chain page in real Chromium at phone size: the Finite Loops Example loads clean; the
variant where Bingo picks Hallyu is flagged at step 3.C.1; editing a row re-checks; 390/320 px, dark."""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def script_errors(page) -> list[str]:
    """JS errors, leaving out the console line Chromium writes for each 400 the API answers while a
    player is halfway through typing (the page shows that answer as a notice)."""
    return [e for e in page.js_errors if "status of 400" not in e]


def test_finite_loops_example_page(page, live_url, shots):
    page.goto(live_url + "/raising-robots/activations")
    assert "3.C.1" in page.locator("#rr-example-tree").inner_text()
    page.click("#rr-load-variant")
    expect(page.locator("#rr-tree .st-repeat")).to_have_count(1)
    expect(page.locator("#rr-tree .st-repeat")).to_contain_text("3.C.1")
    assert_phone_ready(page)
    page.screenshot(path=shots("rr-activations-390"), full_page=True)
    # rename the second Hallyu to Zeus: the chain becomes legal (checked as you type)
    last_hallyu = page.locator("#rr-rows input[type=text]").nth(7)
    assert last_hallyu.input_value() == "Hallyu"
    last_hallyu.fill("Zeus")
    expect(page.locator("#rr-result-body .notice.ok")).to_be_visible()
    page.click("#rr-more")
    expect(page.locator("#rr-rows .rr-chain-row")).to_have_count(15)  # 9 steps, 3 blank rows and 3 more
    page.set_viewport_size({"width": 320, "height": 700})
    page.emulate_media(color_scheme="dark")
    assert_phone_ready(page)
    page.screenshot(path=shots("rr-activations-320-dark"), full_page=True)
    assert script_errors(page) == []
