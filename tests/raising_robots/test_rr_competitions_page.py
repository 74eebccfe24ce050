"""Competitions planner and setup pages: the no-JS form path (same solver as the API), table state, and
one flow per page in real Chromium at 390x844 (then 320 px wide and dark)."""
from __future__ import annotations

import re

import pytest
from browser_checks import assert_phone_ready
from playwright.sync_api import expect

PAGE = "/raising-robots/competitions"
SETUP = "/raising-robots/competitions/setup"


def new_table(client, players=2):
    return client.post("/api/tables", json={"game": "raising-robots", "players": players}).get_json()


def form(**extra):
    data = {"robots": "0", "action": "plan"}
    data.update({k: str(v) for k, v in extra.items()})
    return data


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_page_lists_every_card_and_marks_unverified_values(client):
    html = client.get(PAGE).get_data(as_text=True)
    for cid in ("expo-9-of-one", "mech-10-robot-cards", "think-3-different-types", "race-vp-values"):
        assert f'value="{cid}"' in html
    assert html.count('class="badge unverified"') > 4  # tile numbers nobody has checked (the footer has one more)
    assert "No competitions chosen yet." in text_of(html)


def test_form_post_plans_like_the_api(client):
    """How to Complete Competitions (only one order works), through the no-JS form."""
    r = client.post(PAGE, data=form(**{"card-mech_masters": "mech-13-batteries", "card-think_tank": "think-3-same-type",
                                       "inv-battery": 14, "placed-orange": 3}))
    assert r.status_code == 200
    text = text_of(r.get_data(as_text=True))
    assert "Complete Mech Masters, then Think Tank: worth 9.33 VP" in text
    assert text.index("Mech Masters : pay 7 batteries") < text.index("Think Tank : pay 7 batteries")
    assert "Only this order works" in text and 'href="/rules/rr-how-to-complete-competitions"' in r.get_data(as_text=True)


def test_form_apply_updates_the_numbers_without_js(client):
    """Competition Example: after completing, the inventory shows the payment and the reward."""
    r = client.post(PAGE, data=form(**{"card-mech_masters": "mech-10-robot-cards", "inv-robot_cards": 10,
                                       "inv-sensor": 1, "action": "apply"}))
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "Applied: you completed Mech Masters" in html
    assert re.search(r'name="inv-robot_cards"[^>]*value="6"', html) and re.search(r'name="inv-vp"[^>]*value="7"', html)
    assert re.search(r'name="done-mech_masters" value="1" checked', html)
    assert "Complete nothing now." in text_of(html)


def test_form_problems_are_400_naming_the_field(client):
    r = client.post(PAGE, data=form(**{"inv-gear": "lots", "card-engineering_expo": "expo-9-of-one"}))
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert "Gears: “lots” is not a whole number" in html and "inventory.gear" not in html  # players' words, no path
    r = client.post(PAGE, data=form(meeting_d=0, meeting_c=1))
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and "Class cards at C or better: cannot exceed meeting_d" not in html
    assert "Class cards at C or better: " in html and "player.class_cards" not in html
    r = client.post(PAGE, data=form(**{"vals-race-energy-costs": "one two"}))
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and "Values printed on the card: 1 to 7 whole numbers" in html


def test_robots_added_by_form_count_for_robo_race(client):
    """Completion Criteria, Robo Race: four robots in one row, entered through the form one at a time."""
    data = form(**{"card-robo_race": "race-same-row", "action": "add-robot", "rnew-row": "recycle", "rnew-vp": 3})
    for _ in range(4):
        html = client.post(PAGE, data=data).get_data(as_text=True)
        count = int(re.search(r'name="robots" value="(\d+)"', html).group(1))
        data = form(**{"card-robo_race": "race-same-row", "action": "add-robot", "rnew-row": "recycle",
                       "robots": count, **{f"r{i}-row": "recycle" for i in range(count)}})
    assert count == 4 and "4 robots in the recycle row" in text_of(html)
    rows = {f"r{i}-row": "recycle" for i in range(4)}
    html = client.post(PAGE, data=form(**{"card-robo_race": "race-same-row", "robots": 4, **rows, "r2-del": 1,
                                          "r0-chip": 1})).get_data(as_text=True)
    assert 'name="robots" value="3"' in html and "at most 3 robots in one row" in text_of(html)
    assert re.search(r'name="r0-chip" value="1" checked', html)


def test_the_hub_lists_both_pages(client):
    html = client.get("/games/raising-robots").get_data(as_text=True)
    assert "Competitions planner" in html and "Competitions setup" in html


def test_planner_keeps_its_state_with_the_table(client):
    t = new_table(client)
    r = client.post(f"{PAGE}?table={t['id']}&seat=1",
                    data=form(version=1, seat=1, **{"card-mech_masters": "mech-13-batteries", "side-mech_masters": "B",
                                                    "res-mech_masters-B": 2, "inv-battery": 13, "action": "apply"}))
    assert r.status_code == 200
    state = client.get(f"/api/tables/{t['id']}").get_json()["state"]
    comp = state["rr_competitions"]
    assert comp["cards"]["mech_masters"] == "mech-13-batteries" and comp["sides"]["mech_masters"] == "B"
    assert comp["tiles"] == {"mech_masters": {"B": {"resources": 2}}}  # only what differs from the data file
    assert comp["completed_this_round"] == ["mech_masters"]
    seat = state["rr_players"][1]
    assert seat["completed"] == ["mech_masters"] and seat["inventory"]["vp"] == 4
    html = client.get(f"{PAGE}?table={t['id']}&seat=1").get_data(as_text=True)
    assert re.search(r'name="res-mech_masters-B"[^>]*value="2"', html)
    assert "already completed" in text_of(html)


def test_setup_deals_and_flips_tiles_as_the_marker_moves(client):
    """Changes to Setup step 6 and Solo / 2P Gameplay Changes: solo tokens on rounds 4-7; moving the marker
    onto round 4 flips the tile of that token's type."""
    t = new_table(client, players=1)
    url = f"{SETUP}?table={t['id']}"
    r = client.post(url, data={"action": "deal", "players": "1", "version": "1"})
    assert r.status_code == 200
    comp = client.get(f"/api/tables/{t['id']}").get_json()["state"]["rr_competitions"]
    assert all(comp["cards"].values()) and sorted(s["round"] for s in comp["tracker"]) == [4, 5, 6, 7]
    round4 = next(s for s in comp["tracker"] if s["round"] == 4)["token_type"]
    for _ in range(3):
        r = client.post(url, data={"action": "round-end", "players": "1"})
    state = client.get(f"/api/tables/{t['id']}").get_json()["state"]
    comp = state["rr_competitions"]
    assert state["table"]["round"] == 4 and "marker" not in comp and len(comp["tracker"]) == 3
    flipped = [k for k, v in comp["sides"].items() if v == "B"]
    from solvers.raising_robots.competitions_setup import tile_of
    assert flipped == [tile_of(round4)]
    assert "turns to the B side" in r.get_data(as_text=True)
    planner = client.get(f"{PAGE}?table={t['id']}").get_data(as_text=True)
    for cid in comp["cards"].values():
        assert f'value="{cid}" selected' in planner


def test_setup_without_a_table_carries_the_deal_in_the_form(client):
    html = client.post(SETUP, data={"action": "deal", "players": "2"}).get_data(as_text=True)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', html))
    assert sum(k.startswith("trk-") and k.endswith("-round") for k in fields) == 2
    fields.update({"action": "round-end", "players": "2", "done-think_tank": "1"})
    html = client.post(SETUP, data=fields).get_data(as_text=True)
    assert "Think Tank was completed this round" in html and 'id="rrs-round">2<' in html
    link = re.search(r'id="rrs-open-planner" href="([^"]+)"', html).group(1).replace("&amp;", "&")
    planner = client.get(link).get_data(as_text=True)
    assert re.search(r'name="side-think_tank" value="B" checked', planner)


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
    page.select_option("#card-mech_masters", "mech-13-batteries")
    page.select_option("#card-think_tank", "think-3-same-type")
    page.fill("#f-inv-battery", "14")
    page.fill("#f-placed-orange", "3")
    page.dispatch_event("#f-placed-orange", "input")
    page.wait_for_selector("text=Only this order works")
    steps = page.locator("#rrc-result ol.steps > li .step-head").all_inner_texts()
    assert steps[0].startswith("Mech Masters") and steps[1].startswith("Think Tank")
    assert_phone_ready(page)
    page.locator("#rrc-result").screenshot(path=shots("rr_competitions_plan_390"))
    with table_saved(page, t["id"], "action=apply"):
        page.click("#rrc-apply")
    page.wait_for_selector("text=Complete nothing now.")
    assert page.input_value("#f-inv-battery") == "0" and page.input_value("#f-inv-vp") == "14"
    page.reload()
    assert page.input_value("#f-inv-battery") == "0"
    assert page.is_checked('input[name="done-think_tank"]')
    state = client.get(f"/api/tables/{t['id']}").get_json()["state"]
    assert state["rr_competitions"]["completed_this_round"] == ["mech_masters", "think_tank"]
    # a robot added with one tap counts for Robo Race (the cards in play fold away once chosen)
    assert not page.is_visible("#card-robo_race")
    page.click("#rrc-in-play summary")
    page.select_option("#card-robo_race", "race-same-row")
    page.click("#rrc-new-robot summary") if not page.is_visible('select[name="rnew-row"]') else None
    for n in range(1, 5):
        page.select_option('select[name="rnew-row"]', "design")
        page.click("#rrc-add-robot")
        expect(page.locator("details.robot-wrap")).to_have_count(n)
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
    client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": {"rr_players": [{"robots": [a, b]}]}})
    page.goto(f"{live_url}{PAGE}?table={t['id']}")
    expect(page.locator("details.robot-wrap")).to_have_count(2)
    c = {"id": "cccc3333", "row": "recycle", "vp": 4}
    client.put(f"/api/tables/{t['id']}", json={"version": 2, "state": {"rr_players": [{"robots": [c, a, b]}]}})
    expect(page.locator("details.robot-wrap")).to_have_count(3, timeout=3000)  # followed, no reload
    fab = page.locator('details.robot-wrap[data-key="bbbb2222"]')
    fab.locator("summary").click()
    with table_saved(page, t["id"]):
        fab.locator('input[name$="-vp"]').fill("6")
    robots = {r["id"]: r for r in client.get(f"/api/tables/{t['id']}").get_json()["state"]["rr_players"][0]["robots"]}
    assert set(robots) == {"aaaa1111", "bbbb2222", "cccc3333"}
    assert robots["bbbb2222"]["vp"] == 6 and robots["aaaa1111"]["vp"] == 3 and robots["cccc3333"]["vp"] == 4
    # Chromium logs the save that met the other phone's version (409) before it was made again on top of it
    assert [e for e in page.js_errors if "status of 409" not in e] == []
