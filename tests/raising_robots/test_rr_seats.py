"""Seats (rr_players) are shared by the competitions planner, the score page and the round-end page: each
reads the same inventory and robots, writes only its own fields, and what "Done" applies on the planner or
the round end is what the score page then shows. One Playwright flow: planner, apply, score page (390x844)."""
from __future__ import annotations

import re

import pytest
from browser_checks import assert_phone_ready

PLANNER = "/raising-robots/competitions"
SCORE = "/raising-robots/score"
ROUND_END = "/raising-robots/round-end"
PLANNER_ROBOTS = [
    {"row": "design", "cost_energy": [2], "cost_resources": [3], "basic_energy": 2, "vp": 3, "needs_microchip": True},
    {"row": "fabricate", "cost_energy": [3], "cost_resources": [2], "basic_energy": 4, "vp": 5, "upgraded": True,
     "upgraded_energy": 6}]


def table_with(client, state: dict, players: int = 2) -> str:
    t = client.post("/api/tables", json={"game": "raising-robots", "players": players}).get_json()
    assert client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": state}).status_code == 200
    return t["id"]


def seat_of(client, tid: str, i: int = 0) -> dict:
    return client.get(f"/api/tables/{tid}").get_json()["state"]["rr_players"][i]


def field_value(html: str, name: str) -> str:
    return re.search(rf'name="{name}"[^>]*value="([^"]*)"', html).group(1)


def test_planner_apply_is_what_the_score_page_shows(client):
    """Competition Example: 10 Robot Cards; "Done" on the planner pays 4 resources and takes +7 VP; the
    score page of that seat opens with those numbers (and the other seat untouched)."""
    tid = table_with(client, {"rr_competitions": {"cards": {"mech_masters": "mech-10-robot-cards"}},
                              "rr_players": [{"inventory": {"robot_cards": 10, "sensor": 1}},
                                             {"inventory": {"battery": 9}}]})
    r = client.post(f"{PLANNER}?table={tid}&seat=0", data={
        "robots": "0", "action": "apply", "card-mech_masters": "mech-10-robot-cards", "inv-robot_cards": "10",
        "inv-sensor": "1"})
    assert "Applied: Player 1 completed Mech Masters" in r.get_data(as_text=True)
    html = client.get(f"{SCORE}?table={tid}&seat=0").get_data(as_text=True)
    left = int(field_value(html, "inv-robot_cards")) + int(field_value(html, "inv-sensor"))
    assert field_value(html, "inv-vp") == "7" and left == 11 - 4
    assert seat_of(client, tid, 1) == {"inventory": {"battery": 9}}


def test_score_page_keeps_the_planner_fields(client):
    """The score form writes inventory, robots and class cards; tokens, class status, Friendship cards and
    completed competitions stay, and each robot keeps the numbers the planner entered."""
    planner_fields = {"tokens": {"unplaced": {"pink": 1}, "placed": {"orange": 2}},
                      "class_status": {"meeting_d": 1, "meeting_c": 0}, "friendships": 1,
                      "completed": ["think_tank"], "robots": PLANNER_ROBOTS}
    tid = table_with(client, {"rr_players": [planner_fields]})
    html = client.get(f"{SCORE}?table={tid}").get_data(as_text=True)
    assert field_value(html, "s-design-1-vp") == "3" and field_value(html, "s-fabricate-1-vp") == "5"
    assert 'id="rr-placed"' in html  # the planner's robots have no column yet: the page says where it put them
    client.post(f"{SCORE}?table={tid}", data={"seat": "0", "inv-gear": "4", "s-design-1-vp": "3",
                                              "s-design-1-chip": "1", "s-fabricate-1-vp": "5",
                                              "s-fabricate-1-up": "1", "competitions_completed": "1"})
    seat = seat_of(client, tid)
    for key in ("tokens", "class_status", "friendships", "completed"):
        assert seat[key] == planner_fields[key], key
    assert "competitions_completed" not in seat  # the planner's list already says 1
    design = next(r for r in seat["robots"] if r["row"] == "design")
    assert design["cost_energy"] == [2] and design["column"] == 1 and design["needs_microchip"] is True
    assert seat["inventory"]["gear"] == 4
    assert 'id="rr-placed"' not in client.get(f"{SCORE}?table={tid}").get_data(as_text=True)
    # the planner still reads its own fields back
    planner = client.get(f"{PLANNER}?table={tid}").get_data(as_text=True)
    assert field_value(planner, "unplaced-pink") == "1" and field_value(planner, "friendships") == "1"
    assert 'name="done-think_tank" value="1" checked' in planner


def test_a_completion_on_the_planner_replaces_an_old_count_from_the_score_page(client):
    """New Class Objectives (competitions completed): a count typed on the score page is replaced when the
    planner records a completion."""
    tid = table_with(client, {"rr_players": [{"competitions_completed": 3}]}, players=1)
    html = client.get(f"{SCORE}?table={tid}").get_data(as_text=True)
    assert field_value(html, "competitions_completed") == "3"
    client.post(f"{PLANNER}?table={tid}", data={"robots": "0", "action": "apply", "inv-battery": "13",
                                                "card-mech_masters": "mech-13-batteries"})
    seat = seat_of(client, tid)
    assert seat["completed"] == ["mech_masters"] and "competitions_completed" not in seat
    assert field_value(client.get(f"{SCORE}?table={tid}").get_data(as_text=True), "competitions_completed") == "1"


def test_round_end_apply_is_what_the_score_page_shows(client):
    """Johannes example at round end: "Done" makes the result the seat's inventory; the planner's robots
    keep their numbers; the score page shows the new inventory."""
    tid = table_with(client, {"rr_players": [{"inventory": {"battery": 10, "microchip": 7, "sensor": 5},
                                              "robots": PLANNER_ROBOTS, "tokens": {"unplaced": {"blue": 2}}}]})
    r = client.post(f"{ROUND_END}?table={tid}", data={
        "seat": "0", "action": "apply", "ord-johannes-base": "1", "ord-johannes-upgrade": "2",
        "inv-battery": "10", "inv-microchip": "7", "inv-sensor": "5", "occ-design-1": "1", "occ-fabricate-1": "1"})
    assert "The result is now Player 1’s inventory" in r.get_data(as_text=True)
    seat = seat_of(client, tid)
    assert {k: seat["inventory"][k] for k in ("battery", "microchip", "sensor", "vp")} == {
        "battery": 11, "microchip": 8, "sensor": 6, "vp": 2}
    assert seat["tokens"] == {"unplaced": {"blue": 2}}
    assert [r["cost_energy"] for r in seat["robots"]] == [[2], [3]]
    html = client.get(f"{SCORE}?table={tid}").get_data(as_text=True)
    assert field_value(html, "inv-battery") == "11" and field_value(html, "inv-vp") == "2"
    planner = client.get(f"{PLANNER}?table={tid}").get_data(as_text=True)
    assert field_value(planner, "inv-battery") == "11" and field_value(planner, "unplaced-blue") == "2"


def test_charlottes_robot_is_kept_with_its_vp(client):
    """Charlotte: 2 wilds assemble a robot at its cheaper cost; "Done" keeps it in its slot with its VP, so
    the score page counts it."""
    tid = table_with(client, {"rr_players": [{"inventory": {"gear": 5, "robot_cards": 1}}]}, players=1)
    client.post(f"{ROUND_END}?table={tid}", data={
        "seat": "0", "action": "apply", "ord-charlotte-base": "1", "ch-action": "assemble", "ch-w-gear": "2",
        "ch-row": "recycle", "ch-cost": "2", "ch-vp": "4", "ch-p-gear": "2", "inv-gear": "5", "inv-robot_cards": "1"})
    (robot,) = seat_of(client, tid)["robots"]
    assert (robot["row"], robot["column"], robot["vp"]) == ("recycle", 1, 4)
    html = client.get(f"{SCORE}?table={tid}").get_data(as_text=True)
    assert field_value(html, "s-recycle-1-vp") == "4"


def test_class_grades_from_the_score_page_fill_the_planners_think_tank_counts(client):
    """Think Tank (grade D on 2 Class Cards): grades typed on the score page count until the planner has its
    own numbers; when the two disagree, the planner says so."""
    cards = [{"grade": "D", "vp_by_grade": {"D": 2}}, {"grade": "C", "vp_by_grade": {"C": 4}}, {"grade": "none"}]
    tid = table_with(client, {"rr_competitions": {"cards": {"think_tank": "think-2-d-grades"}},
                              "rr_players": [{"class_cards": cards}]}, players=1)
    html = client.get(f"{PLANNER}?table={tid}").get_data(as_text=True)
    assert field_value(html, "meeting_d") == "2" and field_value(html, "meeting_c") == "1"
    assert "2 class cards meeting D or better" in html and "rrc-class-hint" not in html
    client.post(f"{PLANNER}?table={tid}", data={"robots": "0", "meeting_d": "3", "meeting_c": "1",
                                                "card-think_tank": "think-2-d-grades"})
    html = client.get(f"{PLANNER}?table={tid}").get_data(as_text=True)
    assert field_value(html, "meeting_d") == "3" and 'id="rrc-class-hint"' in html
    assert seat_of(client, tid)["class_cards"] == cards


# ---- in Chromium -------------------------------------------------------------------------------------

def table_saved(page, table_id: str, text: str = ""):
    """Playwright waits for the page's form post that saves the table (`text` in what was posted)."""
    return page.expect_response(lambda r: r.request.method == "POST" and f"table={table_id}" in r.url
                                and r.ok and text in (r.request.post_data or ""), timeout=10_000)


@pytest.mark.browser
def test_planner_apply_then_score_page_on_a_phone(page, live_url, live_app, shots):
    """Competition Example on a phone at the table: Ada has 10 Robot Cards and 1 Sensor, Mech Masters shows
    the 10-Robot-Cards card. She taps "Done" on the plan, then opens the Final score page from the
    planner: it shows her inventory after paying 4 resources and taking +7 VP, and her robots."""
    client = live_app.test_client()
    tid = table_with(client, {"table": {"names": ["Ada", "Ben"], "round": 2},
                              "rr_competitions": {"cards": {"mech_masters": "mech-10-robot-cards"}},
                              "rr_players": [{"inventory": {"robot_cards": 10, "sensor": 1, "vp": 12},
                                              "robots": PLANNER_ROBOTS}]})
    page.goto(f"{live_url}{PLANNER}?table={tid}")
    page.wait_for_selector("text=Complete Mech Masters")
    assert page.locator("#rrc-result .rr-rules a[href='/rules/rr-card-mech-10-robot-cards']").count() == 1
    assert_phone_ready(page)
    page.click("#rrc-apply")
    page.wait_for_selector("#rrc-note:has-text('Applied')")
    assert page.input_value("#f-inv-vp") == "19"
    page.click("#rr-to-score_page")  # waits for the save, then opens the score page of the same seat
    page.wait_for_url(re.compile(r"/raising-robots/score\?"))
    assert page.input_value("#f-inv-vp") == "19"
    assert int(page.input_value("#f-inv-robot_cards")) + int(page.input_value("#f-inv-sensor")) == 11 - 4
    assert page.input_value("#s-design-1-vp") == "3" and page.input_value("#s-fabricate-1-vp") == "5"
    assert page.locator("#res-h").inner_text().startswith("Ada:")
    state = client.get(f"/api/tables/{tid}").get_json()["state"]
    assert state["rr_players"][0]["completed"] == ["mech_masters"]
    assert state["rr_competitions"]["completed_this_round"] == ["mech_masters"]
    assert state["rr_competitions"]["completed_round"] == 2
    assert_phone_ready(page)
    page.screenshot(path=shots("rr_seats_score_after_apply_390"), full_page=True)
    # the score page's own save keeps what the planner wrote
    with table_saved(page, tid, "inv-gear=2"):
        page.fill("#f-inv-gear", "2")
        page.dispatch_event("#f-inv-gear", "input")
    seat = client.get(f"/api/tables/{tid}").get_json()["state"]["rr_players"][0]
    assert seat["inventory"]["vp"] == 19 and seat["completed"] == ["mech_masters"]
    assert seat["robots"][0]["cost_energy"] == [2]
    page.set_viewport_size({"width": 320, "height": 700})
    assert_phone_ready(page)
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=shots("rr_seats_score_after_apply_320_dark"))
    assert page.js_errors == []
