"""The shell in real Chromium at phone size: start a table, join it from a second phone by its code,
see an edit reach the other phone live; home page at 390 and 320 px, light and dark."""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready, check_phone_sizes
from conftest import PHONE
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
SLOW = 15_000  # ms: a page asks for the table's version once a second, so it follows within about 2 s; under a
# full test run on two cores the browser and the server can be far slower (Playwright's default is 5 s)


def test_home_page_fits_a_phone_in_both_themes(page, live_url, shots):
    page.goto(live_url + "/")
    assert page.locator("h1").inner_text() == "What's on the table?"
    assert_phone_ready(page)
    page.screenshot(path=shots("home-390"), full_page=True)
    page.set_viewport_size({"width": 320, "height": 700})
    page.emulate_media(color_scheme="dark")
    assert_phone_ready(page)
    bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert bg == "rgb(15, 17, 21)"  # the dark palette follows the system setting
    page.screenshot(path=shots("home-320-dark"), full_page=True)
    page.click("#theme-toggle")  # the toggle overrides the system
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(246, 247, 249)"
    assert page.js_errors == []


def test_start_join_by_code_and_edits_reach_the_other_phone_live(browser, browser_context_args, page, live_url, shots):
    page.goto(live_url + "/")
    page.select_option("#new-game", "two-robots")
    page.fill("#new-players", "2")
    page.click("text=Start table")
    page.wait_for_url("**/t/*")
    code = page.locator("#table-code").inner_text().strip()
    assert len(code) == 6
    assert_phone_ready(page)
    page.screenshot(path=shots("table-390"), full_page=True)

    other = browser.new_context(**browser_context_args)
    second = other.new_page()
    second.goto(live_url + "/")
    second.fill("#join-code", code.lower())
    second.click("form:has(#join-code) button")
    second.wait_for_url(page.url)

    # phone 1 writes; phone 2's open page shows it (within about 2 s; SLOW allows a loaded machine), without a reload
    page.fill("#name0", "Ann")
    page.fill("#notes", "Ann has the Orb")
    page.click("#table-form button[type=submit]")
    expect(page.locator("#save-msg")).to_contain_text("Saved with table")
    expect(second.locator("#name0")).to_have_value("Ann", timeout=SLOW)
    expect(second.locator("#notes")).to_have_value("Ann has the Orb", timeout=SLOW)
    expect(second.locator("#live-cue")).to_contain_text("Updated from another phone")

    # phone 2 is typing the notes while phone 1 saves another name: both are kept
    second.locator("#notes").click()
    second.keyboard.press("End")
    second.keyboard.type(" (Bo typed this)")
    page.fill("#name1", "Bo")
    page.click("#table-form button[type=submit]")
    expect(second.locator("#name1")).to_have_value("Bo", timeout=SLOW)
    expect(second.locator("#notes")).to_have_value("Ann has the Orb (Bo typed this)")
    expect(page.locator("#notes")).to_have_value("Ann has the Orb (Bo typed this)", timeout=SLOW)
    expect(page.locator("#name1")).to_have_value("Bo")
    second.screenshot(path=shots("table-live-390"), full_page=True)
    assert page.js_errors == []
    other.close()


def test_shell_stays_usable_offline_after_a_visit(browser, live_url):
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)  # service workers allowed
    page = ctx.new_page()
    page.goto(live_url + "/")
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.reload()
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")
    page.goto(live_url + "/games/two-robots")  # visited pages are kept as they are read
    ctx.set_offline(True)
    page.goto(live_url + "/")
    assert page.locator("h1").inner_text() == "What's on the table?"
    page.goto(live_url + "/games/two-robots")
    assert page.locator("h1").inner_text() == "Two Robots"
    page.goto(live_url + "/never-visited")
    assert page.locator("h1").inner_text() == "No connection"
    ctx.close()


def test_the_404_page_fits_a_phone_in_both_themes(page, live_url, shots):
    response = page.goto(live_url + "/no/such/page")
    assert response.status == 404
    assert page.locator("h1").inner_text() == "Nothing here"
    check_phone_sizes(page, shots, "error-404")
    page.click("text=Home")
    assert page.locator("h1").inner_text() == "What's on the table?"
