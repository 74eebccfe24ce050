"""How many taps the common flows take on a phone (390x844, Chromium), counted and asserted (issue 12 "Fewer
taps, one entry"). A tap is a click on a control or into a field (typing the digits is not counted); a
select is two taps (open it, pick); a choice shown as buttons is one. Before this work the issue counted the planner at 21 taps (13 fields)
before any robot and the final score at 27-29 taps (19 fields) for 7 robots and 2 class cards; the Search
page showed no number before 43 taps."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

CARDS = {"engineering_expo": "expo-9-of-one", "mech_masters": "mech-13-batteries",
         "think_tank": "think-3-same-type", "robo_race": "race-same-row"}
ROBOTS = [{"id": f"r{k}", "row": row, "column": col, "vp": vp} for k, (row, col, vp) in enumerate(
    [("design", 1, 3), ("design", 2, 4), ("design", 3, 5), ("fabricate", 1, 6), ("fabricate", 2, 3),
     ("recycle", 1, 4), ("recycle", 2, 5)])]


class Taps:
    """Drives a page and counts the taps it takes."""

    def __init__(self, page):
        self.page, self.n = page, 0

    def click(self, selector: str) -> None:
        self.page.click(selector)
        self.n += 1

    def type_into(self, selector: str, value: str) -> None:
        self.page.click(selector)  # the tap into the field; the keyboard types the rest
        self.page.fill(selector, value)
        self.page.dispatch_event(selector, "input")
        self.n += 1

    def pick(self, selector: str, value: str) -> None:
        self.page.select_option(selector, value)
        self.n += 2


def test_search_shows_numbers_before_any_tap(page, live_url, new_live_table):
    """Search (New Actions): nobody knows the deck; the page opens with odds (an estimate, labelled), and
    naming a criteria (a row and an energy range) is 3 taps."""
    table = new_live_table("raising-robots", 2)
    taps = Taps(page)
    page.goto(f"{live_url}/raising-robots/search?table={table['id']}")
    expect(page.locator("#rr-results-body .headline li")).to_have_count(2)
    assert taps.n == 0
    taps.click("#rr-row >> text=Recycle")
    page.locator("#energy_min").fill("4")  # a drag of the slider: one tap each
    taps.n += 1
    page.locator("#energy_max").fill("5")
    taps.n += 1
    expect(page.locator("#rr-estimate")).to_contain_text("Estimate.")
    expect(page.locator("#res-h")).to_be_visible()
    assert taps.n == 3


def test_planner_common_case_on_a_dealt_table(page, live_url, new_live_table):
    """Competitions planner, before any robot: the cards come from the setup helper (entered once for the
    table); the player types three counts and reads the plan. 3 taps (the issue counted 21)."""
    table = new_live_table("raising-robots", 2, {"rr_competitions": {"cards": CARDS}})
    taps = Taps(page)
    page.goto(f"{live_url}/raising-robots/competitions?table={table['id']}&seat=0")
    taps.type_into("#f-seats-0-inventory-battery", "14")
    taps.type_into("#f-seats-0-inventory-gear", "9")
    taps.type_into("#f-seats-0-tokens-placed-orange", "3")
    expect(page.locator("#rrc-result")).to_contain_text("Mech Masters", timeout=5000)
    expect(page.locator("#rrc-result")).to_contain_text("Think Tank")
    assert taps.n == 3


def test_planner_choosing_the_cards_on_the_planner_itself(page, live_url, new_live_table):
    """The same without the setup helper: the four cards are picked on the planner (one tap each)."""
    table = new_live_table("raising-robots", 2)
    taps = Taps(page)
    page.goto(f"{live_url}/raising-robots/competitions?table={table['id']}&seat=0")
    for t, criterion in CARDS.items():  # one tap on each card's name (the list is open on an empty table)
        taps.click(f"#card-{t} label:has(input[value='{criterion}'])")
    taps.type_into("#f-seats-0-inventory-battery", "14")
    taps.type_into("#f-seats-0-inventory-gear", "9")
    taps.type_into("#f-seats-0-tokens-placed-orange", "3")
    expect(page.locator("#rrc-result")).to_contain_text("Think Tank", timeout=5000)
    assert taps.n == 7


def test_final_score_with_the_robots_entered_once(page, live_url, new_live_table):
    """Final score for 7 robots and 2 class cards, the robots already entered (on the planner, say): the
    inventory's VP and leftovers, and each class card's grade (one tap) and its VP. 7 taps (the issue counted 27-29)."""
    table = new_live_table("raising-robots", 2, {"rr_players": [{"robots": ROBOTS}]})
    taps = Taps(page)
    page.goto(f"{live_url}/raising-robots/score?table={table['id']}")
    expect(page.locator("#rr-total")).to_have_text("30")  # the robots' printed VP, entered once
    taps.type_into("#f-seats-0-inventory-vp", "20")
    taps.type_into("#f-seats-0-inventory-battery", "4")
    taps.type_into("#f-seats-0-inventory-gear", "2")
    for j, (grade, vp) in enumerate((("B", "6"), ("C", "4"))):
        taps.click(f"#c{j}-grade label:has(input[value='{grade}'])")
        taps.type_into(f"input[name='seats.0.class_cards.{j}.vp_by_grade.{grade}']", vp)
    expect(page.locator("#rr-total")).to_have_text("62")  # 30 + 20 + 2 leftovers + 6 + 4
    assert taps.n == 7


def test_final_score_typing_the_robots_on_the_score_page(page, live_url, new_live_table):
    """The same with the 7 robots typed on the score page: one tap into each slot, and one to open each of
    the two other rows."""
    table = new_live_table("raising-robots", 2)
    taps = Taps(page)
    page.goto(f"{live_url}/raising-robots/score?table={table['id']}")
    for row in ("fabricate", "recycle"):
        taps.click(f"#row-{row} summary")
    for r in ROBOTS:
        taps.type_into(f"#s-{r['row']}-{r['column']}-vp", str(r["vp"]))
    taps.type_into("#f-seats-0-inventory-vp", "20")
    taps.type_into("#f-seats-0-inventory-battery", "4")
    taps.type_into("#f-seats-0-inventory-gear", "2")
    for j, (grade, vp) in enumerate((("B", "6"), ("C", "4"))):
        taps.click(f"#c{j}-grade label:has(input[value='{grade}'])")
        taps.type_into(f"input[name='seats.0.class_cards.{j}.vp_by_grade.{grade}']", vp)
    expect(page.locator("#rr-total")).to_have_text("62")
    assert taps.n == 16
