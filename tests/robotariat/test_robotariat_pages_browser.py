"""Robotariat pages in Chromium at 390x844: draw a board in the editor and watch the check, move a piece
by tapping, read the forecast and suggestions, apply a roll, and find it all again after a reload; the
phone checks and screenshots at 390 and 320 px, light and dark."""
from __future__ import annotations

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


def answers_for_the_table_now(page, live_url, tid: str) -> None:
    """Wait until the forecast and suggestions shown are the ones for the table's current version."""
    version = page.request.get(f"{live_url}/api/tables/{tid}").json()["version"]
    for section in ("#npc-body", "#sg-body"):
        expect(page.locator(section)).to_have_attribute("data-version", str(version))


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


@pytest.mark.browser
def test_editor_draws_a_board_by_tapping_and_the_check_follows(page, live_url, shots):
    """Every space needs a yellow and a blue next space along black lines (rulebook "NPC Turn")."""
    tid = new_table(page, live_url)
    page.on("dialog", lambda d: d.accept())
    page.goto(f"{live_url}/robotariat/board?table={tid}")
    expect(page.locator("#example-notice")).to_contain_text("Example board: enter your printed board")
    with saved(page):
        page.get_by_role("button", name="Start from an empty board").click()
    assert table_rb(page, live_url, tid)["board"]["spaces"] == []

    # three spaces, tapped into place
    for kind in ("poster", "recruitment_office", "move_the_masses"):
        page.select_option("#add-kind", kind)
        with saved(page):
            page.locator("#rb-board .slot").first.click()
    expect(page.locator("#rb-board .space")).to_have_count(3)
    expect(page.locator("#check-bad")).to_contain_text("to fix")

    # the yellow path s1 -> s2 -> s3 -> s1, tapping space after space
    page.locator('[data-mode="yellow"]').click()
    page.locator('#rb-board .space[data-id="s1"]').click()
    for sid in ("s2", "s3", "s1"):
        with saved(page):
            page.locator(f'#rb-board .space[data-id="{sid}"]').click()
    expect(page.locator("#rb-check")).to_contain_text("s1 has no next space on the blue path")
    expect(page.locator("#rb-board .arrows line.yellow")).to_have_count(3)
    assert page.locator("#rb-board .space.problem").count() == 3  # ringed: no blue step yet
    # the blue path the other way round
    page.locator('[data-mode="blue"]').click()
    page.locator('#rb-board .space[data-id="s1"]').click()
    for sid in ("s3", "s2", "s1"):
        with saved(page):
            page.locator(f'#rb-board .space[data-id="{sid}"]').click()
    expect(page.locator("#check-ok")).to_be_visible()
    got = table_rb(page, live_url, tid)
    assert got["board"]["yellow_next"] == {"s1": "s2", "s2": "s3", "s3": "s1"}
    assert got["board"]["blue_next"] == {"s1": "s3", "s3": "s2", "s2": "s1"}
    assert sorted(map(tuple, got["board"]["links"])) == [("s1", "s2"), ("s1", "s3"), ("s2", "s3")]
    assert got["example"] is False

    # rename one by tapping it
    page.locator('[data-mode="edit"]').click()
    page.locator('#rb-board .space[data-id="s2"]').click()
    page.fill("#edit-name", "Office")
    with saved(page):
        page.locator("#edit-save").click()
    assert table_rb(page, live_url, tid)["board"]["spaces"][1]["name"] == "Office"
    phone_checks(page, shots, "robotariat_editor")
    # the check's first answer (three bare spaces) was a 200 with errors: nothing failed to load
    assert page.js_errors == []


@pytest.mark.browser
def test_data_and_objectives_pages_on_a_phone(page, live_url, shots):
    tid = new_table(page, live_url, {"robotariat": {"state": {**MID_GAME["state"], "funds": 45, "reputation": 1}}})
    page.goto(f"{live_url}/robotariat/data?table={tid}")
    with saved(page):
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


def space_labels(page) -> dict[str, str]:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#rb-board .space')]
        .map(g => [g.dataset.id, g.getAttribute('aria-label')]))""")


