"""Seats (state.raising_robots.seats) are shared by the competitions planner, the score page and the round-end page: each
reads the same inventory and robots, writes only its own fields, and what "Done" applies on the planner or
the round end is what the score page then shows. One Playwright flow: planner, apply, score page (390x844)."""
from __future__ import annotations

import re

import pytest
from browser_checks import assert_phone_ready
from rr_helpers import post_form, rr_state

from assistant.raising_robots.schemas import Seat

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


def seat_of(client, tid: str, i: int = 0) -> Seat:
    return rr_state(client, tid).seat(i)


def field_value(html: str, name: str) -> str:
    return re.search(rf'name="{re.escape(name)}"[^>]*value="([^"]*)"', html).group(1)


def robot_field(html: str, row: str, name: str) -> str:
    """A score-page robot field of the first robot listed in `row` (fields are named by the robot's id)."""
    rid = re.search(rf'name="seats\.0\.robots\.@(\w+)\.row"[^>]*value="{row}"', html) or re.search(
        rf'data-row="{row}"[^>]*>.*?name="seats\.0\.robots\.@(\w+)\.', html, re.S)
    return f"seats.0.robots.@{rid.group(1)}.{name}"


def get(client, url: str) -> str:
    return client.get(url).get_data(as_text=True)


def test_planner_apply_is_what_the_score_page_shows(client):
    """Competition Example: 10 Robot Cards; "Done" on the planner pays 4 resources and takes +7 VP; the
    score page of that seat opens with those numbers (and the other seat untouched)."""
    tid = table_with(client, {"rr_competitions": {"cards": {"mech_masters": "mech-10-robot-cards"}},
                              "rr_players": [{"inventory": {"robot_cards": 10, "sensor": 1}},
                                             {"inventory": {"battery": 9}}]})
    url = f"{PLANNER}?table={tid}&seat=0"
    r = post_form(client, url, get(client, url), do="apply")
    assert "Applied: Player 1 completed Mech Masters" in r.get_data(as_text=True)
    html = get(client, f"{SCORE}?table={tid}&seat=0")
    left = int(field_value(html, "seats.0.inventory.robot_cards")) + int(field_value(html, "seats.0.inventory.sensor"))
    assert field_value(html, "seats.0.inventory.vp") == "7" and left == 11 - 4
    other = seat_of(client, tid, 1)
    assert other.inventory.battery == 9 and other.inventory.vp == 0 and other.completed.types() == []


def test_score_page_keeps_the_planner_fields(client):
    """The score form writes inventory, robots and class cards; tokens, class status, Friendship cards and
    completed competitions stay, and each robot keeps the numbers the planner entered."""
    planner_fields = {"tokens": {"unplaced": {"pink": 1}, "placed": {"orange": 2}},
                      "class_status": {"meeting_d": 1, "meeting_c": 0}, "friendships": 1,
                      "completed": ["think_tank"], "robots": PLANNER_ROBOTS}
    tid = table_with(client, {"rr_players": [planner_fields]})
    url = f"{SCORE}?table={tid}"
    html = get(client, url)
    design_vp, fab_vp = (f"seats.0.robots.@{r.id}.vp" for r in seat_of(client, tid).robots)
    assert field_value(html, design_vp) == "3" and field_value(html, fab_vp) == "5"
    assert 'id="rr-placed"' in html  # the planner's robots have no column yet: the page says where it put them
    post_form(client, url, html, **{"seats.0.inventory.gear": "4"})
    seat = seat_of(client, tid)
    assert seat.tokens.unplaced.pink == 1 and seat.tokens.placed.orange == 2
    assert (seat.class_status.meeting_d, seat.friendship_count, seat.completed.types()) == (1, 1, ["think_tank"])
    design = next(r for r in seat.robots if r.row == "design")
    assert design.costs() == ([2], [3]) and design.column == 1 and design.needs_microchip is True
    assert seat.inventory.gear == 4
    assert 'id="rr-placed"' not in get(client, url)
    # the planner still reads its fields back
    planner = get(client, f"{PLANNER}?table={tid}")
    assert field_value(planner, "seats.0.tokens.unplaced.pink") == "1"
    assert field_value(planner, "seats.0.friendship_count") == "1"
    assert re.search(r'name="seats\.0\.completed\.think_tank" value="true" checked', planner)


def test_a_completion_on_the_planner_replaces_an_old_count_from_the_score_page(client):
    """New Class Objectives (competitions completed): a count typed on the score page is replaced when the
    planner records a completion."""
    tid = table_with(client, {"rr_players": [{"competitions_completed": 3, "inventory": {"battery": 13}}],
                              "rr_competitions": {"cards": {"mech_masters": "mech-13-batteries"}}}, players=1)
    assert field_value(get(client, f"{SCORE}?table={tid}"), "seats.0.competitions_completed") == "3"
    url = f"{PLANNER}?table={tid}"
    post_form(client, url, get(client, url), do="apply")
    seat = seat_of(client, tid)
    assert seat.completed.types() == ["mech_masters"] and seat.competitions_completed is None
    assert field_value(get(client, f"{SCORE}?table={tid}"), "seats.0.competitions_completed") == "1"


def test_round_end_apply_is_what_the_score_page_shows(client):
    """Johannes example at round end: "Done" makes the result the seat's inventory; the planner's robots
    keep their numbers; the score page shows the new inventory."""
    tid = table_with(client, {"rr_players": [{"inventory": {"battery": 10, "microchip": 7, "sensor": 5},
                                              "robots": [dict(r, column=1) for r in PLANNER_ROBOTS],
                                              "tokens": {"unplaced": {"blue": 2}}}]})
    url = f"{ROUND_END}?table={tid}"
    r = post_form(client, url, get(client, url), do="apply", **{"seats.0.round_end.order.johannes-base": "1",
                                                                "seats.0.round_end.order.johannes-upgrade": "2"})
    assert "The result is now Player 1’s inventory" in r.get_data(as_text=True)
    seat = seat_of(client, tid)
    inv = seat.inventory
    assert (inv.battery, inv.microchip, inv.sensor, inv.vp) == (11, 8, 6, 2)
    assert seat.tokens.unplaced.blue == 2
    assert [r.costs() for r in seat.robots] == [([2], [3]), ([3], [2])]
    html = get(client, f"{SCORE}?table={tid}")
    assert field_value(html, "seats.0.inventory.battery") == "11" and field_value(html, "seats.0.inventory.vp") == "2"
    planner = get(client, f"{PLANNER}?table={tid}")
    assert field_value(planner, "seats.0.inventory.battery") == "11"
    assert field_value(planner, "seats.0.tokens.unplaced.blue") == "2"


def test_charlottes_robot_is_kept_with_its_vp(client):
    """Charlotte: 2 wilds assemble a robot at its cheaper cost; "Done" keeps it in its slot with its VP, so
    the score page counts it."""
    tid = table_with(client, {"rr_players": [{"inventory": {"gear": 5, "robot_cards": 1}}]}, players=1)
    url = f"{ROUND_END}?table={tid}"
    e = "seats.0.round_end."
    post_form(client, url, get(client, url), do="apply", **{
        e + "order.charlotte-base": "1", e + "ch_action": "assemble", e + "ch_wilds.gear": "2",
        e + "ch_row": "recycle", e + "ch_cost": "2", e + "ch_vp": "4", e + "ch_pay.gear": "2"})
    (robot,) = seat_of(client, tid).robots
    assert (robot.row, robot.column, robot.vp) == ("recycle", 1, 4)
    assert field_value(get(client, f"{SCORE}?table={tid}"), f"seats.0.robots.@{robot.id}.vp") == "4"


def test_class_grades_from_the_score_page_fill_the_planners_think_tank_counts(client):
    """Think Tank (grade D on 2 Class Cards): grades typed on the score page count until the planner has its
    own numbers; when the two disagree, the planner says so."""
    cards = [{"grade": "D", "vp_by_grade": {"D": 2}}, {"grade": "C", "vp_by_grade": {"C": 4}}, {"grade": "none"}]
    tid = table_with(client, {"rr_competitions": {"cards": {"think_tank": "think-2-d-grades"}},
                              "rr_players": [{"class_cards": cards}]}, players=1)
    url = f"{PLANNER}?table={tid}"
    html = get(client, url)
    d, c = "seats.0.class_status.meeting_d", "seats.0.class_status.meeting_c"
    assert field_value(html, d) == "2" and field_value(html, c) == "1"
    assert "2 class cards meeting D or better" in html and "rrc-class-hint" not in html
    before = [card.model_dump() for card in seat_of(client, tid).class_cards]
    post_form(client, url, html, **{d: "3", c: "1"})
    html = get(client, url)
    assert field_value(html, d) == "3" and 'id="rrc-class-hint"' in html
    assert [card.model_dump() for card in seat_of(client, tid).class_cards] == before


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
    assert page.input_value("#f-seats-0-inventory-vp") == "19"
    page.click("#rr-to-score_page")  # waits for the save, then opens the score page of the same seat
    page.wait_for_url(re.compile(r"/raising-robots/score\?"))
    assert page.input_value("#f-seats-0-inventory-vp") == "19"
    assert int(page.input_value("#f-seats-0-inventory-robot_cards")) + int(page.input_value("#f-seats-0-inventory-sensor")) == 11 - 4
    assert page.input_value("#s-design-1-vp") == "3" and page.input_value("#s-fabricate-1-vp") == "5"
    assert page.locator("#res-h").inner_text().startswith("Ada:")
    state = rr_state(client, tid)
    assert state.seat(0).completed.types() == ["mech_masters"]
    assert state.competitions.completed_this_round == ["mech_masters"]
    assert state.competitions.completed_round == 2
    assert_phone_ready(page)
    page.screenshot(path=shots("rr_seats_score_after_apply_390"), full_page=True)
    # the score page's own save keeps what the planner wrote
    with table_saved(page, tid, "seats.0.inventory.gear=2"):
        page.fill("#f-seats-0-inventory-gear", "2")
        page.dispatch_event("#f-seats-0-inventory-gear", "input")
    seat = rr_state(client, tid).seat(0)
    assert seat.inventory.vp == 19 and seat.completed.types() == ["mech_masters"]
    assert seat.robots[0].costs() == ([2], [3])
    page.set_viewport_size({"width": 320, "height": 700})
    assert_phone_ready(page)
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=shots("rr_seats_score_after_apply_320_dark"))
    assert page.js_errors == []
