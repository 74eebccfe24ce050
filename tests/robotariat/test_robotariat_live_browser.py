"""Two phones on one Robotariat table, in Chromium, on the tool pages besides the board page (that one is in
test_robotariat_play_browser.py): phone A changes a value; phone B's open page shows it and the answer
worked out again from it within 2 s, without a reload, while the field B is typing in keeps what B typed
and its focus (issue 11 "Live")."""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready, expect_shown, phone
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

EMPTY_GUIDE = {"robotariat": {"board": {"spaces": [], "links": [], "yellow_next": {}, "blue_next": {}},
                              "example": False, "guide": {"step": "spaces"}}}


def link_p1_p3(a) -> None:
    """The editor: a black line from Poster 1 to Poster 3, by two taps in line mode."""
    a.locator('.rb-modes label:has(input[value="link"])').click()
    a.locator('#rb-board .space[data-id="p1"]').click()
    a.locator('#rb-board .space[data-id="p3"]').click()


# page, state, B's fold to open first, B's field and what B types, what A does, what B then shows
CASES = {
    "editor": ("/robotariat/board", None, "#space-mm summary", "#n-mm", "Masses",
               link_p1_p3,
               [("#check-summary", "text", "10 spaces, 13 black lines"), ("#rb-board .links line", "count", 13)]),
    "game data": ("/robotariat/data", None, None, "#reward-3", "7",
                  lambda a: a.select_option("#die-red-5", "blue_x"),
                  [("#die-red-5", "value", "blue_x"), ("#die-red-what", "text", "Entry token, blue 1 in 6"),
                   ("#dice-h .badge", "text", "yours")]),
    "objectives": ("/robotariat/objectives", {"robotariat": {"state": {"funds": 45, "reputation": 1}}}, None,
                   "#f-junked", "3",
                   lambda a: a.locator("#f-coop").check(),
                   [("#f-coop", "checked", True), ("#seat-results", "text", "Completely Cooperative Mode")]),
    "board entry": ("/robotariat/board/enter", EMPTY_GUIDE, None, "#guide-name", "Big",
                    lambda a: a.locator('#guide-add button[value="poster"]').click(),
                    [("#guide-count", "text", "1 space"), ("#rb-board .space", "count", 1)]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_two_phones_follow_one_table(name, browser, browser_context_args, live_url, new_live_table, shots):
    path, state, fold, typing, typed, act, shows = CASES[name]
    table = new_live_table("robotariat", 3, state)
    url = f"{live_url}{path}?table={table['id']}"
    ctx_a, a = phone(browser, browser_context_args)
    ctx_b, b = phone(browser, browser_context_args)
    a.goto(url)
    b.goto(url)
    if fold:
        b.click(fold)
    b.click(typing)
    b.fill(typing, "")
    b.keyboard.type(typed)  # B is typing when A's change arrives
    with a.expect_response(lambda r: r.request.method == "POST"):
        act(a)
    expect_shown(b, shows)
    expect(b.locator("#live-cue")).to_contain_text("Updated from another phone")
    expect(b.locator(typing)).to_have_value(typed)
    expect(b.locator(typing)).to_be_focused()
    assert a.navigations == [url] and b.navigations == [url]  # the first load only: no reloads
    assert_phone_ready(b)
    b.screenshot(path=shots(f"rb_live_{name.replace(' ', '_')}"), full_page=True)
    ctx_a.close()
    ctx_b.close()
