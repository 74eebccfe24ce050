"""Search odds page (/raising-robots/search): the form without JS, the table state, and one phone flow
in Chromium. Rulebook: "New Actions > Search" and its Search Example."""
from __future__ import annotations

import re

import pytest
from browser_checks import assert_phone_ready
from playwright.sync_api import expect
from rr_helpers import form_of, rr_state
from werkzeug.datastructures import MultiDict

from assistant.raising_robots.answers import ANY_ROW_RULE

PAGE = "/raising-robots/search"


C = "search.cells."


def form(**extra) -> dict:
    """The Search Example's three cards plus six Recycle 2 cards, all eight in the deck."""
    data = {C + "design-3.count": "1", C + "fabricate-4.count": "1", C + "any-5.count": "1", C + "any-5.wanted": "true",
            C + "recycle-2.count": "6", "search.deck_size": "9", "search.known_bottom": "", "search.criteria.row": "design",
            "search.criteria.energy_min": "4", "search.criteria.energy_max": "5", "do": "odds"}
    data.update(extra)
    return data


def again(html: str, **extra) -> MultiDict:
    """The page's form as it came back (the state it carries), with some fields typed."""
    data = form_of(html)
    for k, v in extra.items():
        data.setlist(k, [v])
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
    first = client.post(PAGE, data=form()).get_data(as_text=True)
    r = client.post(PAGE, data=again(first, do="record-search", _revealed="D3 F4 A5"))
    html = r.get_data(as_text=True)
    assert r.status_code == 200, html
    assert 'name="search.known_bottom" type="text" value="D3 F4"' in html
    assert re.search(r'name="search.deck_size" type="number"[^>]*value="6"', html)
    assert 'name="search.cells.any-5.count" value="0"' in html
    r = client.post(PAGE, data=again(html, do="draw-mine", _drawn="R2"))
    html = r.get_data(as_text=True)
    assert re.search(r'name="search.deck_size" type="number"[^>]*value="5"', html)
    assert 'name="search.cells.recycle-2.count" value="5"' in html


def test_page_names_bad_fields_without_js(client):
    """Issue 12 item 6: each problem under its field, in words; what was typed stays."""
    r = client.post(PAGE, data=form(**{"search.deck_size": "40"}))
    html = r.get_data(as_text=True)
    assert r.status_code == 400
    assert 'data-for="search.deck_size">is 40 but the unseen pool holds only 9 cards' in html
    r = client.post(PAGE, data=form(**{"search.known_bottom": "Q9", C + "design-3.count": "x"}))
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and 'data-for="search.known_bottom">“q9” (card 1) is not a card' in html
    assert 'data-for="search.cells.design-3.count">Design 3: unseen cards: a whole number is needed' in html and 'value="Q9"' in html
    first = client.post(PAGE, data=form()).get_data(as_text=True)
    r = client.post(PAGE, data=again(first, do="record-search", _revealed="R2"))
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and re.search(r'data-for="_revealed">[^<]+', html) and "revealed[0]" not in html
    assert 'value="R2"' in html


def test_page_keeps_its_state_with_the_table_without_js(client):
    table = client.post("/api/tables", json={"game": "raising-robots", "players": 2}).get_json()
    r = client.post(f"{PAGE}?table={table['id']}", data=form(version=str(table["version"]), table=table["id"]))
    assert r.status_code == 200
    deck = rr_state(client, table["id"]).search
    assert deck.cells["any-5"].count == 1 and deck.cells["any-5"].wanted
    assert deck.deck_size == 9 and deck.criteria.model_dump() == {"row": "design", "energy_min": 4, "energy_max": 5}
    assert 'value="9"' in client.get(f"{PAGE}?table={table['id']}").get_data(as_text=True)


def test_a_search_recorded_on_a_deck_another_phone_changed_is_refused(client):
    """Search: the deck after a recorded search follows from the deck it was made on. Two phones record a
    search on the same deck: the first one counts; the second is told nothing was applied (409)."""
    table = client.post("/api/tables", json={"game": "raising-robots", "players": 2}).get_json()
    url = f"{PAGE}?table={table['id']}"
    client.post(url, data=form(version=str(table["version"]), table=table["id"]))
    html = client.get(url).get_data(as_text=True)
    one = client.post(url, data=again(html, do="record-search", _revealed="F4 A5"))
    assert one.status_code == 200
    after = rr_state(client, table["id"]).search
    two = client.post(url, data=again(html, do="record-search", _revealed="A5"))
    assert two.status_code == 409 and "nothing was applied" in two.get_data(as_text=True)
    assert rr_state(client, table["id"]).search == after
    assert after.deck_size == 7 and [(c.row, c.energy) for c in after.known_bottom] == [("fabricate", 4)]


def test_page_form_fuzz_never_5xx(client):
    junk = ["", "-1", "1e9", "abc", "D9", "A5 A5 A5", "7", "<b>", "use-design-9-1", "use-x", "return-aside",
            "record-search", "draw-mine", "deck-all"]
    names = [C + "design-3.count", C + "any-5.wanted", "search.deck_size", "search.known_bottom", "search.seen",
             "search.criteria.row", "search.criteria.energy_min", "search.criteria.energy_max", "do", "_revealed",
             "_drawn", "search.set_aside.design-3", "search.set_aside.bad", "version", "_state"]
    for i, name in enumerate(names):
        for j, value in enumerate(junk):
            data = form(**{name: value, "do": junk[(i + j) % len(junk)] if name != "do" else value})
            assert client.post(PAGE, data=data).status_code in (200, 400, 409), (name, value)


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
    expect(page.locator("#f-search-deck_size")).to_have_value("6")
    page.locator("#energy_min").fill("4")
    page.locator("#energy_max").fill("5")
    page.locator("#rr-row").get_by_text("Design", exact=True).click()
    page.wait_for_selector("text=Any row 5 from the unknown cards")
    expect(page.locator("#rr-estimate")).to_have_count(0)  # a pool entered: exact
    headline = page.locator("#rr-results-body .headline li").first
    expect(headline.locator(".num")).to_have_text("100.0 %")
    assert page.locator("#rr-best-body ol.best li").count() == 3
    assert page.locator(".rule-links a[href='/rules/rr-search-example']").count() == 1
    page.fill("#f-search-deck_size", "40")  # more than the 6 unseen cards: said under the field, no stale odds
    expect(page.locator('[data-for="search.deck_size"]')).to_contain_text("is 40 but the unseen pool holds only 6")
    expect(page.locator("#rr-results-body .headline")).to_have_count(0)
    page.get_by_role("button", name="All unseen cards are in the deck").click()
    expect(page.locator('[data-for="search.deck_size"]')).to_have_count(0)
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
    expect(page.locator("#f-search-deck_size")).to_have_value("3")
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
