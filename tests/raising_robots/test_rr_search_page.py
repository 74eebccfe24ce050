"""Search odds page (/raising-robots/search): the form without JS, the table state, and one phone flow
in Chromium. Rulebook: "New Actions > Search" and its Search Example."""
from __future__ import annotations

import re

import pytest
from browser_checks import assert_phone_ready
from playwright.sync_api import expect

from assistant.raising_robots.answers import ANY_ROW_RULE

PAGE = "/raising-robots/search"


def table_saved(page, table_id: str, text: str):
    """Playwright waits (no sleeps) for the page's save of the table whose body holds `text`, taken by the server."""
    return page.expect_response(lambda r: r.request.method == "PUT" and r.url.endswith(f"/api/tables/{table_id}")
                                and r.ok and text in (r.request.post_data or ""), timeout=10_000)



def form(**extra) -> dict:
    """The Search Example's three cards plus six Recycle 2 cards, all eight in the deck."""
    data = {"c-design-3": "1", "c-fabricate-4": "1", "c-any-5": "1", "w-any-5": "1", "c-recycle-2": "6",
            "deck_size": "9", "known_bottom": "", "row": "design", "energy_min": "4", "energy_max": "5",
            "action": "odds"}
    data.update(extra)
    return data


def test_page_without_js_shows_odds_best_criteria_and_rule_links(client):
    """Search Example, Design 4-5: the any-row card is the only fit, so it is taken for sure."""
    r = client.get(PAGE)
    assert r.status_code == 200 and b"Unseen cards" in r.data
    r = client.post(PAGE, data=form())
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert re.search(r'A card you want</span><span class="bar"><i style="width:100.00%"></i></span>'
                     r'<span class="num" title="exactly 1">', html)
    assert "Any row 5 from the unknown cards" in html
    for rule in ("rr-search", "rr-search-example", ANY_ROW_RULE):
        assert f'href="/rules/{rule}"' in html
    assert 'value="use-' in html  # the best three criteria, each with a Use button


def test_page_records_a_search_and_a_draw_without_js(client):
    """Search section: the misses go under the known bottom in order; a draw shrinks the deck."""
    r = client.post(PAGE, data=form(action="record-search", revealed="D3 F4 A5", deck_size="9"))
    html = r.get_data(as_text=True)
    assert r.status_code == 200, html
    assert 'name="known_bottom" type="text" value="D3 F4"' in html
    assert 'name="deck_size" type="number" inputmode="numeric" min="0" max="999" value="6"' in html
    assert 'name="c-any-5" value="0"' in html
    r = client.post(PAGE, data=form(action="draw-mine", seen="R2"))
    html = r.get_data(as_text=True)
    assert 'value="8"' in html and 'name="c-recycle-2" value="5"' in html


def test_page_names_bad_fields_without_js(client):
    r = client.post(PAGE, data=form(deck_size="40"))
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and "Unknown cards in the deck: is 40 but the unseen pool holds only 9 cards" in html
    r = client.post(PAGE, data=form(known_bottom="Q9", **{"c-design-3": "x"}))
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and "Known cards at the bottom: “q9”" in html
    assert "Design 3: unseen cards: “x” is not a whole number" in html
    r = client.post(PAGE, data=form(action="record-search", revealed="R2"))
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and "The cards the search turned over, card 1: " in html and "revealed[0]" not in html


def test_page_keeps_its_state_with_the_table_without_js(client):
    table = client.post("/api/tables", json={"game": "raising-robots", "players": 2}).get_json()
    r = client.post(f"{PAGE}?table={table['id']}", data=form(version=str(table["version"])))
    assert r.status_code == 200
    state = client.get(f"/api/tables/{table['id']}").get_json()["state"]["rr_search"]
    assert state["cells"]["any-5"] == {"count": 1, "wanted": True}
    assert state["deck_size"] == 9 and state["criteria"] == {"row": "design", "energy_min": 4, "energy_max": 5}
    assert 'value="9"' in client.get(f"{PAGE}?table={table['id']}").get_data(as_text=True)


def test_page_form_fuzz_never_5xx(client):
    junk = ["", "-1", "1e9", "abc", "D9", "A5 A5 A5", "7", "<b>", "use-design-9-1", "use-x", "return-aside"]
    names = ["c-design-3", "w-any-5", "deck_size", "known_bottom", "row", "energy_min", "energy_max", "action",
             "revealed", "seen", "aside-design-3", "aside-bad", "version"]
    for i, name in enumerate(names):
        for j, value in enumerate(junk):
            data = form(**{name: value, "action": junk[(i + j) % len(junk)] if name != "action" else value})
            assert client.post(PAGE, data=data).status_code in (200, 400), (name, value)


@pytest.mark.browser
def test_search_page_on_a_phone(page, live_url, shots):
    """Phone flow: the page opens with numbers (an estimate, labelled, before any tap); then enter the Search
    Example's cards in the grid, mark the any-row card wanted, read the exact odds, record the search, and
    find it all again after a reload (kept with the table)."""
    created = page.request.post(f"{live_url}/api/tables", data={"game": "raising-robots", "players": 3})
    table = created.json()
    page.goto(f"{live_url}{PAGE}?table={table['id']}")
    expect(page.locator("#rr-estimate")).to_contain_text("Estimate.")  # numbers at once, no tap
    expect(page.locator("#rr-results-body .headline li").nth(1).locator(".num")).to_have_text("100.0 %")
    page.get_by_text("+1", exact=True).click()
    for key in ("design-3", "fabricate-4", "any-5", "recycle-2", "recycle-2", "recycle-2"):
        page.locator(f'td[data-key="{key}"] button.tap').click()  # quick taps: none is lost to a swap
    page.get_by_text("★ Want", exact=True).click()
    page.locator('td[data-key="any-5"] button.tap').click()
    expect(page.locator("#rr-pool-total")).to_have_text("6")
    page.get_by_role("button", name="All unseen cards are in the deck").click()
    expect(page.locator("#f-deck_size")).to_have_value("6")
    page.locator("#energy_min").fill("4")
    page.locator("#energy_max").fill("5")
    page.locator("#rr-row").get_by_text("Design", exact=True).click()
    page.wait_for_selector("text=Any row 5 from the unknown cards")
    expect(page.locator("#rr-estimate")).to_have_count(0)  # a pool entered: exact
    headline = page.locator("#rr-results-body .headline li").first
    expect(headline.locator(".num")).to_have_text("100.0 %")
    assert page.locator("#rr-best-body ol.best li").count() == 3
    assert page.locator(".rule-links a[href='/rules/rr-search-example']").count() == 1
    page.fill("#f-deck_size", "40")  # more than the 6 unseen cards: the field is named in words, no stale odds
    expect(page.locator("#rr-problems")).to_contain_text("Unknown cards in the deck: is 40")
    expect(page.locator("#rr-results-body .headline")).to_have_count(0)
    page.get_by_role("button", name="All unseen cards are in the deck").click()
    expect(page.locator("#rr-problems")).to_have_count(0)
    expect(headline.locator(".num")).to_have_text("100.0 %")
    page.screenshot(path=shots("rr_search_390"), full_page=True)
    assert_phone_ready(page)

    # record the pictured order: Design 3, Fabricate 4, then the any-row card is taken
    page.get_by_text("Seen", exact=True).click()
    for key in ("design-3", "fabricate-4", "any-5"):
        page.locator(f'td[data-key="{key}"] button.tap').click()
    expect(page.locator("#revealed")).to_have_value("D3 F4 A5")
    page.get_by_role("button", name="Record the search").click()
    page.wait_for_selector("#rr-note")
    expect(page.locator("#known_bottom")).to_have_value("D3 F4")
    expect(page.locator("#f-deck_size")).to_have_value("3")
    assert page.locator("#rr-known li").all_inner_texts() == ["D3", "F4"]

    page.reload()
    assert page.input_value("#known_bottom") == "D3 F4"
    assert page.locator('td[data-key="recycle-2"] button.tap').inner_text().startswith("3")

    page.set_viewport_size({"width": 320, "height": 700})
    assert_phone_ready(page)
    page.screenshot(path=shots("rr_search_320"), full_page=True)
    page.emulate_media(color_scheme="dark")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=shots("rr_search_dark"), full_page=True)
    # the browser logs the deliberate 400 above (deck size 40) as a failed load; nothing else may fail
    assert [e for e in page.js_errors if "status of 400" not in e] == []
