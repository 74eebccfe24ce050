"""The final-score page in real Chromium at phone size: the api.md example typed in scores 44 line by
line, a second player ties and the tie-breaker shows; 390 and 320 px, dark mode; kept with a table."""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def script_errors(page) -> list[str]:
    """JS errors, leaving out the console line Chromium writes for each 400 the API answers while a
    player is halfway through typing (the page shows that answer as a notice)."""
    return [e for e in page.js_errors if "status of 400" not in e]


def fill_example(page):
    for item, v in (("gear", "7"), ("vp", "23"), ("battery", "2"), ("sensor", "1"), ("duct_tape", "2"),
                    ("robot_cards", "1")):
        page.fill(f"#f-seats-0-inventory-{item}", v)
    page.click("#rr-map td[data-slot='design-1'] a")
    page.fill("#s-design-1-vp", "5")
    slot = page.locator("#slot-design-1")
    chip = slot.locator("input[type=checkbox][name$='.needs_microchip']")  # the slot now holds a robot
    chip.check()
    slot.locator("input[type=checkbox][name$='.upgraded']").check()
    page.select_option("#s-design-1-ge", "resource_pairs:gear")
    page.click("#c0-grade label:has(input[value='B'])")
    page.locator("#class-0 input[type=checkbox][name$='.extra_credit']").check()
    for g, v in (("D", "2"), ("C", "4"), ("B", "6"), ("A", "9")):
        page.fill(f"input[name='seats.0.class_cards.0.vp_by_grade.{g}']", v)


def test_score_page_example_and_solo_target(page, live_url, shots):
    page.goto(live_url + "/raising-robots/score")
    fill_example(page)
    expect(page.locator("#rr-total")).to_have_text("44")
    assert "gear in inventory" in page.locator("#rr-lines").inner_text()
    page.fill("#f-solo-threshold", "30")
    page.wait_for_selector("#rr-solo-result:not([hidden])")
    assert "Target 50" in page.locator("#rr-solo-result").inner_text()
    assert_phone_ready(page)
    page.screenshot(path=shots("rr-score-390"), full_page=True)
    page.set_viewport_size({"width": 320, "height": 700})
    page.emulate_media(color_scheme="dark")
    assert_phone_ready(page)
    page.screenshot(path=shots("rr-score-320-dark"), full_page=True)
    assert script_errors(page) == []


def test_score_page_without_js_posts_and_adds_a_player(browser, browser_context_args, live_url, shots):
    ctx = browser.new_context(**browser_context_args, java_script_enabled=False)
    page = ctx.new_page()
    page.goto(live_url + "/raising-robots/score")
    page.fill("#f-seats-0-inventory-vp", "20")
    page.fill("#s-design-1-vp", "6")
    page.click("button[value=score]")
    assert page.locator("#rr-total").inner_text() == "26"
    page.click("#rr-add-player")
    page.fill("#f-seats-1-inventory-vp", "21")
    page.fill("#s-design-1-vp", "4")
    page.click("#rr-map td[data-slot='fabricate-1'] a")  # the fragment opens the Fabricate row
    page.fill("#s-fabricate-1-vp", "1")
    page.click("button[value=score]")
    rows = page.locator("#rr-standings tbody tr").all_inner_texts()
    # both 26 VP: Player 1 has 6 robot VP against 5, so wins the tie-break (base game end)
    assert rows[0].split() [:2] == ["1", "Player"] and "Player 1" in rows[0]
    assert "Player 2" in rows[1] and "tie broken by robot VP" in rows[1]
    page.screenshot(path=shots("rr-score-nojs-2p"), full_page=True)
    ctx.close()


def test_score_is_kept_with_the_table(page, live_url):
    r = page.request.post(live_url + "/api/tables", data={"game": "raising-robots", "players": 2})
    table_id = r.json()["id"]
    page.goto(f"{live_url}/raising-robots/score?table={table_id}")
    page.fill("#f-seats-0-inventory-vp", "12")
    page.wait_for_selector("[data-table-status].ok")
    state = page.request.get(f"{live_url}/api/tables/{table_id}").json()["state"]
    assert state["raising_robots"]["seats"][0]["inventory"]["vp"] == 12
    page.reload()
    assert page.input_value("#f-seats-0-inventory-vp") == "12"
    assert script_errors(page) == []
