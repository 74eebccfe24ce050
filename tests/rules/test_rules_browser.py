"""The rules pages in real Chromium at phone size: answers while typing, an entry with its permalink,
a rulebook's contents opened at a section; 390 and 320 px, light and dark."""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready
from conftest import PHONE

pytestmark = pytest.mark.browser


def test_search_answers_while_typing_and_fits_a_phone(page, live_url, shots):
    page.goto(live_url + "/rules")
    assert_phone_ready(page)
    page.select_option("#rules-game", "raising-robots")
    page.locator("#rules-q").press_sequentially("can i use upgraded energy for sarch", delay=5)
    first = page.locator("#rules-results .rule-hit-title").first
    first.wait_for()
    page.wait_for_function("document.querySelector('#rules-status').textContent.includes('sarch')")
    assert first.inner_text() == "Search: only the basic action's energy counts"
    assert "q=can+i+use" in page.url or "q=can%20i%20use" in page.url  # the address can be shared
    assert_phone_ready(page)
    page.screenshot(path=shots("rules-search-390"), full_page=True)

    page.set_viewport_size({"width": 320, "height": 700})
    page.emulate_media(color_scheme="dark")
    assert_phone_ready(page)
    page.screenshot(path=shots("rules-search-320-dark"), full_page=True)

    page.locator("#rules-results a").first.click()
    page.wait_for_url("**/rules/rr-search-basic-action-only")
    assert page.js_errors == []


def test_entry_page_shows_section_example_related_and_permalink(page, live_url, shots):
    page.goto(live_url + "/rules/rr-friendship-example")
    assert "Friendship Example" in page.locator(".cite").inner_text()
    assert page.locator(".rule-example ol[type=A] li").count() == 3
    assert page.input_value("#permalink").endswith("/rules/rr-friendship-example")
    assert page.locator("text=Related").count() == 1
    assert_phone_ready(page)
    page.screenshot(path=shots("rules-entry-390"), full_page=True)
    page.set_viewport_size({"width": 320, "height": 700})
    page.emulate_media(color_scheme="dark")
    assert_phone_ready(page)
    page.screenshot(path=shots("rules-entry-320-dark"), full_page=True)
    page.goto(live_url + "/rules/rr-fact-slot-surcharges")  # a long source address must wrap, not widen the page
    assert_phone_ready(page)
    assert page.js_errors == []


def test_contents_page_opens_the_linked_section(page, live_url, shots):
    page.goto(live_url + "/rules/raising-robots#rr-mech-masters")
    section = page.locator("#rr-mech-masters")
    assert section.evaluate("d => d.open")
    assert page.locator("#rr-completion-criteria").evaluate("d => d.open")  # and the headings above it
    assert page.locator("#rr-search").evaluate("d => !d.open")
    page.locator("#e-rr-card-mech-13-batteries > summary").click()
    assert page.locator("#e-rr-card-mech-13-batteries").get_by_text("13 or more Batteries").is_visible()
    assert_phone_ready(page)
    page.screenshot(path=shots("rules-contents-390"), full_page=False)
    page.set_viewport_size({"width": 320, "height": 700})
    page.emulate_media(color_scheme="dark")
    assert_phone_ready(page)
    page.screenshot(path=shots("rules-contents-320-dark"), full_page=False)
    assert page.js_errors == []


def test_header_box_suggests_rules_as_you_type_and_submits_to_the_search_page(page, live_url):
    page.goto(live_url + "/rules/rr-search")  # a page that loads the rules script but has no search form
    page.locator("#q-top").press_sequentially("frozen stak", delay=5)
    first = page.locator("#rules-suggest a").first
    first.wait_for()
    assert "Two Robots" in first.inner_text()
    page.keyboard.press("Enter")  # the plain form: GET /rules?q=...
    page.wait_for_url("**/rules?q=frozen+stak")
    assert page.locator("#rules-results .rule-hit").count() > 0
    assert page.js_errors == []


def test_rules_read_before_stay_readable_offline(browser, live_url):
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)  # service workers allowed
    page = ctx.new_page()
    page.goto(live_url + "/rules/two-robots")
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.reload()  # now under the service worker, which keeps what is read
    page.goto(live_url + "/rules/rr-search")
    ctx.set_offline(True)
    page.goto(live_url + "/rules/rr-search")
    assert page.locator("h1").inner_text() == "Search: find a Robot Card that fits two criteria"
    page.goto(live_url + "/rules/two-robots#tr-frozen-stacks")  # a contents page holds every entry's text
    assert page.locator("#tr-frozen-stacks").evaluate("d => d.open")
    page.locator("#tr-frozen-stacks .rule-item > summary").first.click()
    assert "Ice Blast" in page.locator("#tr-frozen-stacks .rule-item-body").first.inner_text()
    ctx.close()
