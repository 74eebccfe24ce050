"""Robotariat pages in Chromium at 390x844: draw a board in the editor and watch the check, move a piece
by tapping, read the forecast and suggestions, apply a roll, and find it all again after a reload; the
phone checks and screenshots at 390 and 320 px, light and dark."""
from __future__ import annotations

import re
from contextlib import contextmanager

import pytest
from browser_checks import assert_phone_ready
from playwright.sync_api import expect

MID_GAME = {"state": {"oppressors": ["p1"], "civilians": ["ro", "sb2"], "posters": {"p1": 2, "up2": 1},
                      "funds": 10, "office": 3,
                      "players": [{"at": "mm", "character": "uberbot"}, {"at": "p1"}, {"at": "sy"}]}}


def new_table(page, live_url, state: dict | None = None) -> str:
    t = page.request.post(f"{live_url}/api/tables", data={"game": "robotariat", "players": 3}).json()
    if state is not None:
        page.request.put(f"{live_url}/api/tables/{t['id']}", data={"version": 1, "state": state})
    return t["id"]


def table_rb(page, live_url, tid: str) -> dict:
    return page.request.get(f"{live_url}/api/tables/{tid}").json()["state"].get("robotariat", {})


@contextmanager
def saved(page, path: str = "/action"):
    """Wait for the save the tap, form or (debounced) input inside the block starts: the answer of the
    Robotariat action endpoint (or of `path`)."""
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith(path)) as info:
        yield
    assert info.value.ok, f"the save answered {info.value.status}: {info.value.text()[:200]}"


def phone_checks(page, shots, name: str) -> None:
    assert_phone_ready(page)
    page.screenshot(path=shots(f"{name}_390"), full_page=True)
    page.set_viewport_size({"width": 320, "height": 700})
    assert_phone_ready(page)
    page.screenshot(path=shots(f"{name}_320"), full_page=True)
    page.emulate_media(color_scheme="dark")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=shots(f"{name}_dark"), full_page=True)
    page.emulate_media(color_scheme="light")


def mode(page, name: str) -> None:
    """Pick what a tap on the editor's drawing does (a radio shown as a chip)."""
    page.locator(f'.rb-modes label:has(input[value="{name}"])').click()


@pytest.mark.browser
def test_editor_draws_a_board_by_tapping_and_the_check_follows(page, live_url, shots):
    """Every space needs a yellow and a blue next space along black lines (rulebook "NPC Turn")."""
    tid = new_table(page, live_url)
    page.goto(f"{live_url}/robotariat/board?table={tid}")
    page.navigations = []
    page.on("framenavigated", lambda f: page.navigations.append(f.url) if f == page.main_frame else None)
    expect(page.locator("#example-notice")).to_contain_text("Example board: enter your printed board")
    page.locator("#start-over summary").click()
    with saved(page, "/robotariat/board?table=" + tid):
        page.get_by_role("button", name="Start from an empty board").click()
    assert table_rb(page, live_url, tid)["board"]["spaces"] == []
    expect(page.locator("#rb-hint")).to_contain_text("Tap an empty place (+)")

    # three spaces, tapped into place
    for kind in ("poster", "recruitment_office", "move_the_masses"):
        page.select_option("#add-kind", kind)
        with saved(page, "/robotariat/board?table=" + tid):
            page.locator("#rb-board-live .slot").first.click()
    expect(page.locator("#rb-board .space")).to_have_count(3)
    expect(page.locator("#check-bad")).to_contain_text("to fix")

    # the yellow path s1 -> s2 -> s3 -> s1, tapping space after space
    mode(page, "yellow")
    page.locator('#rb-board .space[data-id="s1"]').click()
    expect(page.locator("#rb-hint")).to_contain_text("From Poster: tap where its yellow arrow leads")
    for sid in ("s2", "s3", "s1"):
        with saved(page, "/robotariat/board?table=" + tid):
            page.locator(f'#rb-board .space[data-id="{sid}"]').click()
        expect(page.locator(f'#rb-board .space[data-id="{sid}"]')).to_have_class(re.compile("picked"))
    expect(page.locator("#check")).to_contain_text("s1 has no next space on the blue path")
    expect(page.locator("#rb-board .arrows line.yellow")).to_have_count(3)
    assert page.locator("#rb-board .space.problem").count() == 3  # ringed: no blue step yet
    # the blue path the other way round
    mode(page, "blue")
    page.locator('#rb-board .space[data-id="s1"]').click()
    for sid in ("s3", "s2", "s1"):
        with saved(page, "/robotariat/board?table=" + tid):
            page.locator(f'#rb-board .space[data-id="{sid}"]').click()
    expect(page.locator("#check-ok")).to_be_visible()
    got = table_rb(page, live_url, tid)
    assert got["board"]["yellow_next"] == {"s1": "s2", "s2": "s3", "s3": "s1"}
    assert got["board"]["blue_next"] == {"s1": "s3", "s3": "s2", "s2": "s1"}
    assert sorted(map(tuple, got["board"]["links"])) == [("s1", "s2"), ("s1", "s3"), ("s2", "s3")]
    assert got["example"] is False

    # move a space to an empty place, then rename one by tapping it
    mode(page, "move")
    page.locator('#rb-board .space[data-id="s3"]').click()
    with saved(page, "/robotariat/board?table=" + tid):
        page.locator("#rb-board-live .slot").last.click()
    assert table_rb(page, live_url, tid)["layout"]["s3"][1] > 100  # the next row
    mode(page, "edit")
    page.locator('#rb-board .space[data-id="s2"]').click()
    expect(page.locator("#n-s2")).to_be_focused()
    with saved(page, "/robotariat/board?table=" + tid):
        page.fill("#n-s2", "Office")  # the space's form saves as you type
    expect(page.locator('#rb-board .space[data-id="s2"] .name')).to_have_text("Office")
    assert table_rb(page, live_url, tid)["board"]["spaces"][1]["name"] == "Office"
    assert page.navigations == []  # every tap answered in place
    phone_checks(page, shots, "robotariat_editor")
    assert page.js_errors == []


@pytest.mark.browser
def test_data_and_objectives_pages_on_a_phone(page, live_url, shots):
    tid = new_table(page, live_url, {"robotariat": {"state": {**MID_GAME["state"], "funds": 45, "reputation": 1}}})
    page.goto(f"{live_url}/robotariat/data?table={tid}")
    with saved(page, f"/robotariat/data?table={tid}"):
        page.select_option("#die-red-5", "blue_x")
    assert table_rb(page, live_url, tid)["data"]["dice"]["red"][5] == "blue_x"
    phone_checks(page, shots, "robotariat_data")

    page.goto(f"{live_url}/robotariat/objectives?table={tid}")
    expect(page.locator("#rev-status")).to_have_text("It succeeded.")
    page.select_option("#obj-0", "saboteur")
    expect(page.locator("#seat-results li").first).to_contain_text("wins")
    page.locator("#f-coop").check()
    expect(page.locator("#seat-results")).to_contain_text("Completely Cooperative Mode")
    expect(page.locator('details.rb-reading a[href="/rules/rb-reading-objective-history"]')).to_have_count(1)
    phone_checks(page, shots, "robotariat_objectives")
    assert page.js_errors == []
