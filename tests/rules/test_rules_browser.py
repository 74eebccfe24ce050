"""The rules pages in real Chromium at phone size: answers while typing, an entry with its permalink,
a rulebook's contents opened at a section; 390 and 320 px, light and dark."""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready, check_phone_sizes
from conftest import PHONE
from playwright.sync_api import expect

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
    check_phone_sizes(page, shots, "rules-search")

    page.locator("#rules-results a").first.click()
    page.wait_for_url("**/rules/rr-search-basic-action-only")
    assert page.js_errors == []


def test_entry_page_shows_section_example_related_and_permalink(page, live_url, shots):
    page.goto(live_url + "/rules/rr-friendship-example")
    assert "Friendship Example" in page.locator(".cite").inner_text()
    assert page.locator(".rule-example ol[type=A] li").count() == 3
    assert page.input_value("#permalink").endswith("/rules/rr-friendship-example")
    assert page.locator("text=Related").count() == 1
    check_phone_sizes(page, shots, "rules-entry")
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
    check_phone_sizes(page, shots, "rules-contents", full_page=False)
    assert page.js_errors == []


def test_header_box_suggests_rules_as_you_type_and_submits_to_the_search_page(page, live_url):
    page.goto(live_url + "/rules/rr-search")  # a page that loads the rules script but has no search form
    page.locator("#q-top").press_sequentially("frozen stak", delay=5)
    first = page.locator("#rules-suggest a").first
    first.wait_for()
    # a Raising Robots page: the Friends book has no frozen stacks, so it says so and offers Two Robots (waited for:
    # on a slow machine a pause in the typing shows the suggestions for a part of the words first, "froze")
    expect(page.locator("#rules-suggest")).to_contain_text("Not in the Raising Robots: Friends rulebook")
    expect(first).to_contain_text("Two Robots")
    page.keyboard.press("Enter")  # the plain form: GET /rules?game=raising-robots&q=...
    page.wait_for_url("**/rules?game=raising-robots&q=frozen+stak")
    assert page.locator("#rules-results .rule-hit").count() > 0
    assert page.js_errors == []


def test_the_page_says_when_the_rulebooks_do_not_cover_a_question(page, live_url, shots):
    page.goto(live_url + "/robotariat/")  # the header box of a Robotariat page asks the Robotariat book first
    page.locator("#q-top").press_sequentially("can players trade cards with each other", delay=5)
    note = page.locator("#rules-suggest .rules-suggest-note")
    note.wait_for()
    assert "Not in the rulebooks" in note.inner_text()
    page.screenshot(path=shots("rules-suggest-not-covered-390"))
    page.goto(live_url + "/rules?game=robotariat")
    page.locator("#rules-q").press_sequentially("can players trade cards with each other", delay=5)
    expect(page.locator("#rules-status")).to_contain_text("each other")
    assert "Not in the rulebooks." in page.locator("#rules-status").inner_text()
    assert page.locator("#rules-results .rule-hit").count() == 0
    assert page.locator("#rules-related-h").inner_text() == "Related sections (not an answer)"
    assert page.locator("#rules-related li").count() >= 1
    check_phone_sizes(page, shots, "rules-not-covered")
    page.emulate_media(color_scheme="light")
    page.locator("#rules-q").fill("")
    page.locator("#rules-q").press_sequentially("hand limit", delay=5)  # another game's book answers it
    expect(page.locator("#rules-status")).to_contain_text("Another game")
    assert "Two Robots" in page.locator("#rules-results .rule-hit-meta").first.inner_text()
    assert_phone_ready(page)
    page.screenshot(path=shots("rules-other-game-320"), full_page=True)
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


def test_a_value_no_source_prints_is_shown_as_an_honest_answer(page, live_url, shots):
    page.goto(live_url + "/rules?game=robotariat")
    page.locator("#rules-q").press_sequentially("how many x faces does the black die have", delay=5)
    expect(page.locator("#rules-status")).to_contain_text("Not printed in the rulebook.")
    assert "unverified" in page.locator("#rules-results .rule-hit").first.inner_text()
    assert page.locator("#rules-results .rule-hit a").first.get_attribute("href") == "/rules/rb-unverified-die-faces"
    check_phone_sizes(page, shots, "rules-unprinted")
    assert page.js_errors == []
