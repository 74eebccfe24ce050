"""Competitions planner and setup pages: the no-JS form path (same solver as the API), table state, and
one flow per page in real Chromium at 390x844 (then 320 px wide and dark)."""
from __future__ import annotations

import html as html_lib
import json
import re

import pytest
from browser_checks import assert_phone_ready
from playwright.sync_api import expect
from rr_helpers import form_of, rr_state, text_of
from werkzeug.datastructures import MultiDict

PAGE = "/raising-robots/competitions"
SETUP = "/raising-robots/competitions/setup"
SLOW = 15_000  # ms: an open page follows the table (it asks for its version once a second); under a full test
# run on two cores the browser and the server can be far slower (Playwright's default is 5 s)


def new_table(client, players=2):
    return client.post("/api/tables", json={"game": "raising-robots", "players": players}).get_json()


def plan_form(html: str | None = None, **fields) -> MultiDict:
    """The planner's form as a page without a table posts it (the state it carries), with fields typed."""
    data = form_of(html) if html else MultiDict()
    for name, value in fields.items():
        data.setlist(name, [str(value)])
    return data


def post(client, url, html=None, **fields):
    return client.post(url, data=plan_form(html, **fields))


S = "seats.0."


def test_page_lists_every_card_and_marks_unverified_values(client):
    html = client.get(PAGE).get_data(as_text=True)
    for cid in ("expo-9-of-one", "mech-10-robot-cards", "think-3-different-types", "race-vp-values"):
        assert f'value="{cid}"' in html
    assert html.count('class="badge unverified"') > 4  # tile numbers nobody has checked (the footer has one more)
    assert "No competitions chosen yet." in text_of(html)


def test_form_post_plans_like_the_api(client):
    """How to Complete Competitions (only one order works), through the no-JS form."""
    r = post(client, PAGE, **{"competitions.cards.mech_masters": "mech-13-batteries",
                              "competitions.cards.think_tank": "think-3-same-type", S + "inventory.battery": 14,
                              S + "tokens.placed.orange": 3})
    assert r.status_code == 200
    text = text_of(r.get_data(as_text=True))
    assert "Complete Mech Masters, then Think Tank: worth 9.33 VP" in text
    assert text.index("Mech Masters : pay 7 batteries") < text.index("Think Tank : pay 7 batteries")
    assert "Only this order works" in text and 'href="/rules/rr-how-to-complete-competitions"' in r.get_data(as_text=True)


def test_form_apply_updates_the_numbers_without_js(client):
    """Competition Example: after completing, the inventory shows the payment and the reward."""
    first = post(client, PAGE, **{"competitions.cards.mech_masters": "mech-10-robot-cards",
                                  S + "inventory.robot_cards": 10, S + "inventory.sensor": 1}).get_data(as_text=True)
    r = post(client, PAGE, first, do="apply")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "Applied: you completed Mech Masters" in html
    assert re.search(r'name="seats.0.inventory.robot_cards"[^>]*value="6"', html)
    assert re.search(r'name="seats.0.inventory.vp"[^>]*value="7"', html)
    assert re.search(r'name="seats.0.completed.mech_masters" value="true" checked', html)
    assert "Complete nothing now." in text_of(html)


def test_form_problems_are_next_to_the_field_in_players_words(client):
    """Issue 12 item 6: a problem is said under its field, in players' words, never as an API path."""
    r = post(client, PAGE, **{S + "inventory.gear": "lots", "competitions.cards.engineering_expo": "expo-9-of-one"})
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert re.search(r'data-for="seats.0.inventory.gear">a whole number is needed<', html)
    assert 'value="lots"' in html  # what was typed stays
    assert "player." not in text_of(html) and "inventory.gear" not in text_of(html)
    r = post(client, PAGE, **{S + "class_status.meeting_d": 0, S + "class_status.meeting_c": 1})
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and re.search(r'data-for="seats.0.class_status.meeting_c">cannot be more than', html)
    r = post(client, PAGE, **{"competitions.card_values.race-energy-costs": "one two"})
    html = r.get_data(as_text=True)
    assert r.status_code == 400
    assert re.search(r'data-for="competitions.card_values.race-energy-costs">type 1 to 7 whole numbers', html)
    assert 'value="one two"' in html


def test_robots_added_by_form_count_for_robo_race(client):
    """Completion Criteria, Robo Race: four robots in one row, entered through the form one at a time."""
    html = post(client, PAGE, **{"competitions.cards.robo_race": "race-same-row"}).get_data(as_text=True)
    for _ in range(4):
        html = post(client, PAGE, html, do="add-robot", **{"_new.row": "recycle", "_new.vp": 3}).get_data(as_text=True)
    ids = re.findall(r'data-key="([^"]+)" id="rrc-robot-', html)
    assert len(ids) == 4 and "4 robots in the recycle row" in text_of(html)
    html = post(client, PAGE, html, do=f"remove-robot:{ids[2]}",
                **{f"seats.0.robots.@{ids[0]}.needs_microchip": "true"}).get_data(as_text=True)
    assert len(re.findall(r'id="rrc-robot-', html)) == 3 and "at most 3 robots in one row" in text_of(html)
    assert re.search(rf'name="seats.0.robots.@{ids[0]}.needs_microchip" value="true" checked', html)


def test_a_new_robot_missing_its_row_is_said_under_the_row(client):
    r = post(client, PAGE, do="add-robot", **{"_new.vp": 3, "_new.e1": 2})
    html = r.get_data(as_text=True)
    assert r.status_code == 400
    assert 'data-for="_new.row">choose the robot' in html and 'data-for="_new.c1">cost 1 needs both' in html
    assert re.search(r'name="_new.vp"[^>]*value="3"', html)  # nothing typed is lost


def test_the_hub_lists_both_pages(client):
    html = client.get("/games/raising-robots").get_data(as_text=True)
    assert "Competitions planner" in html and "Competitions setup" in html


def test_planner_keeps_its_state_with_the_table(client):
    t = new_table(client)
    url = f"{PAGE}?table={t['id']}&seat=1"
    html = client.get(url).get_data(as_text=True)
    html = post(client, url, html, **{"competitions.cards.mech_masters": "mech-13-batteries",
                                      "competitions.sides.mech_masters": "B",
                                      "competitions.tiles.mech_masters.B.resources": 2,
                                      "seats.1.inventory.battery": 13}).get_data(as_text=True)
    r = post(client, url, html, do="apply")
    assert r.status_code == 200
    state = rr_state(client, t["id"])
    comp = state.competitions
    assert comp.cards.mech_masters == "mech-13-batteries" and comp.sides.mech_masters == "B"
    assert comp.tiles["mech_masters"].B.resources == 2
    assert comp.completed_this_round == ["mech_masters"]
    seat = state.seats[1]
    assert seat.completed.types() == ["mech_masters"] and seat.inventory.vp == 4
    html = client.get(url).get_data(as_text=True)
    assert re.search(r'name="competitions.tiles.mech_masters.B.resources"[^>]*value="2"', html)
    assert "already completed" in text_of(html)


def test_setup_deals_and_flips_tiles_as_the_marker_moves(client):
    """Changes to Setup step 6 and Solo / 2P Gameplay Changes: solo tokens on rounds 4-7; moving the marker
    onto round 4 flips the tile of that token's type."""
    t = new_table(client, players=1)
    url = f"{SETUP}?table={t['id']}"
    html = client.get(url).get_data(as_text=True)
    r = post(client, url, html, do="deal")
    assert r.status_code == 200
    comp = rr_state(client, t["id"]).competitions
    assert all(comp.in_play().values()) and len(comp.in_play()) == 4
    assert sorted(s.round for s in comp.tracker) == [4, 5, 6, 7]
    round4 = next(s for s in comp.tracker if s.round == 4).token_type
    html = r.get_data(as_text=True)
    for _ in range(3):
        r = post(client, url, html, do="round-end")
        html = r.get_data(as_text=True)
    raw = client.get(f"/api/tables/{t['id']}").get_json()["state"]
    comp = rr_state(client, t["id"]).competitions
    assert raw["table"]["round"] == 4 and comp.marker is None and len(comp.tracker) == 3
    flipped = [k for k, v in comp.sides.model_dump().items() if v == "B"]
    from solvers.raising_robots.competitions_setup import tile_of
    assert flipped == [tile_of(round4)]
    assert "turns to the B side" in html
    planner = client.get(f"{PAGE}?table={t['id']}").get_data(as_text=True)
    for cid in comp.in_play().values():
        assert f'value="{cid}" checked' in planner


def test_setup_without_a_table_carries_the_deal_in_the_form(client):
    html = post(client, SETUP, do="deal", **{"competitions.players": 2}).get_data(as_text=True)
    state = json.loads(html_lib.unescape(re.search(r'name="_state" value="([^"]*)"', html).group(1)))
    assert len(state["competitions"]["tracker"]) == 2
    html = post(client, SETUP, html, do="round-end", **{"competitions.completed_this_round[]": "think_tank"}).get_data(
        as_text=True)
    assert "Think Tank was completed this round" in html and 'id="rrs-round">2<' in html
    link = re.search(r'id="rrs-open-planner" href="([^"]+)"', html).group(1).replace("&amp;", "&")
    planner = client.get(link).get_data(as_text=True)
    assert re.search(r'name="competitions.sides.think_tank" value="B" checked', planner)


def test_setup_shows_the_inventors_changes_and_the_friendship_cards_to_remove(client):
    """Friends Inventor Explanations (each inventor's "Immediate") and Changes to Setup step 4: typed once on
    the setup page, each seat's inventor shows its setup change, and the Friendship cards of the inventors in
    play are named to take out before the deck is shuffled."""
    t = new_table(client, players=3)
    url = f"{SETUP}?table={t['id']}"
    html = client.get(url).get_data(as_text=True)
    html = post(client, url, html, **{"seats.0.inventor.name": "Charlotte", "seats.1.inventor.name": "Confucius",
                                      "seats.2.inventor.name": "Johannes"}).get_data(as_text=True)
    text = text_of(html)
    assert "Charlotte begins with 1 duct tape fewer" in text
    assert "Confucius begins with 1 battery and 2 duct tape fewer" in text and "Round end page" in text
    assert "Johannes begins with 3 more wilds and 1 duct tape fewer" in text
    assert "take out the cards of the inventors in play: Charlotte, Confucius, Johannes" in text
    assert [s.inventor.name for s in rr_state(client, t["id"]).seats] == ["Charlotte", "Confucius", "Johannes"]
    planner = client.get(f"{PAGE}?table={t['id']}&seat=1").get_data(as_text=True)
    assert 'value="Confucius"' in planner  # entered once, read by every page


def table_saved(page, table_id: str, text: str = ""):
    """Playwright waits (no sleeps) for the page's form post that saves the table (the server answers with the
    page, which the script swaps in); `text` must be in what was posted."""
    return page.expect_response(lambda r: r.request.method == "POST" and f"table={table_id}" in r.url
                                and r.ok and text in (r.request.post_data or ""), timeout=10_000)


# ---- in Chromium ----------------------------------------------------------------------------------------

@pytest.mark.browser
def test_planner_flow_in_chromium(page, live_url, shots, live_app):
    """How to Complete Competitions: pick two competitions, see the only order, apply it in one tap; the table
    keeps it (reload)."""
    client = live_app.test_client()
    t = new_table(client)
    page.goto(f"{live_url}{PAGE}?table={t['id']}")
    page.check('#card-mech_masters input[value="mech-13-batteries"]', force=True)
    page.check('#card-think_tank input[value="think-3-same-type"]', force=True)
    page.fill("#f-seats-0-inventory-battery", "14")
    page.fill("#f-seats-0-tokens-placed-orange", "3")
    page.dispatch_event("#f-seats-0-tokens-placed-orange", "input")
    page.wait_for_selector("text=Only this order works")
    steps = page.locator("#rrc-result ol.steps > li .step-head").all_inner_texts()
    assert steps[0].startswith("Mech Masters") and steps[1].startswith("Think Tank")
    assert_phone_ready(page)
    page.locator("#rrc-result").screenshot(path=shots("rr_competitions_plan_390"))
    with table_saved(page, t["id"], "do=apply"):
        page.click("#rrc-apply")
    page.wait_for_selector("text=Complete nothing now.")
    assert page.input_value("#f-seats-0-inventory-battery") == "0" and page.input_value("#f-seats-0-inventory-vp") == "14"
    page.reload()
    assert page.input_value("#f-seats-0-inventory-battery") == "0"
    assert page.is_checked('input[type=checkbox][name="seats.0.completed.think_tank"]')
    assert rr_state(client, t["id"]).competitions.completed_this_round == ["mech_masters", "think_tank"]
    # a robot added with one tap counts for Robo Race (the cards in play fold away once chosen)
    assert not page.is_visible("#card-robo_race")
    page.click("#rrc-in-play summary")
    page.click('#card-robo_race label:has-text("4 robots in one row")')
    page.click("#rrc-new-robot summary") if not page.is_visible('select[name="_new.row"]') else None
    for n in range(1, 5):
        page.select_option('select[name="_new.row"]', "design")
        page.click("#rrc-add-robot")
        expect(page.locator("details.robot-wrap")).to_have_count(n)
    page.click("#rrc-eligible summary")  # each competition's state, in its fold
    page.wait_for_selector("text=4 robots in the design row")
    page.set_viewport_size({"width": 320, "height": 700})
    assert_phone_ready(page)
    page.screenshot(path=shots("rr_competitions_320"))
    page.emulate_media(color_scheme="dark")
    page.locator("#rrc-result").screenshot(path=shots("rr_competitions_dark"))
    assert page.js_errors == []


@pytest.mark.browser
def test_setup_flow_in_chromium(page, live_url, shots, live_app):
    """Changes to Setup: deal for a solo game and end a round, at phone size."""
    t = new_table(live_app.test_client(), players=1)
    page.goto(f"{live_url}{SETUP}?table={t['id']}")
    page.click("#rrs-deal")
    page.wait_for_selector("text=Round 4:")
    assert page.locator("ul.tracker li").count() == 4
    assert_phone_ready(page)
    page.click("#rrs-round-end")
    page.wait_for_selector("#rrs-round:has-text('2')")
    page.screenshot(path=shots("rr_competitions_setup_390"), full_page=True)
    page.set_viewport_size({"width": 320, "height": 700})
    assert_phone_ready(page)
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=shots("rr_competitions_setup_dark"))
    assert page.js_errors == []


@pytest.mark.browser
def test_the_planner_script_edits_a_robot_by_its_id(page, live_url, live_app):
    """A robot edit lands on the robot it was made on (by id): another phone put a robot in front of the two
    this page shows; the page follows (the new robot appears), and the VP typed into the fabricate robot
    reaches that robot, not the one now at its old place."""
    client = live_app.test_client()
    t = new_table(client)
    a = {"id": "aaaa1111", "row": "design", "vp": 3, "basic_energy": 2}
    b = {"id": "bbbb2222", "row": "fabricate", "vp": 5, "basic_energy": 4}
    client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": {"raising_robots": {"seats": [{"robots": [a, b]}]}}})
    page.goto(f"{live_url}{PAGE}?table={t['id']}")
    expect(page.locator("details.robot-wrap")).to_have_count(2)
    c = {"id": "cccc3333", "row": "recycle", "vp": 4}
    client.put(f"/api/tables/{t['id']}", json={"version": 2, "state": {"raising_robots": {"seats": [{"robots": [c, a, b]}]}}})
    expect(page.locator("details.robot-wrap")).to_have_count(3, timeout=SLOW)  # followed, no reload
    fab = page.locator('details.robot-wrap[data-key="bbbb2222"]')
    fab.locator("summary").click()
    with table_saved(page, t["id"]):
        fab.locator('input[name$=".vp"]').fill("6")
    robots = {r.id: r for r in rr_state(client, t["id"]).seats[0].robots}
    assert set(robots) == {"aaaa1111", "bbbb2222", "cccc3333"}
    assert robots["bbbb2222"].vp == 6 and robots["aaaa1111"].vp == 3 and robots["cccc3333"].vp == 4
    assert page.js_errors == []
