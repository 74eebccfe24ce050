"""The printed board in minutes (issue 14 item 5), in Chromium at 390x844: a board like the example board
(10 spaces, 12 black lines, both paths) entered space by space with the guided entry, counting the taps;
then copied to another table by its join code. Rulebook "NPC Turn": every space has a next space on the
yellow path and on the blue path, each along a black line."""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready
from playwright.sync_api import expect

from solvers.robotariat import gamedata

pytestmark = pytest.mark.browser
EXAMPLE = gamedata.DEFAULTS.board.to_json()


def tap(page, locator, taps: list) -> None:
    with page.expect_response(lambda r: r.request.method == "POST"):
        locator.click()
    taps.append(1)


def phone_checks(page, shots, name: str) -> None:
    assert_phone_ready(page)
    page.screenshot(path=shots(f"{name}_390"))
    page.set_viewport_size({"width": 320, "height": 700})
    assert_phone_ready(page)
    page.screenshot(path=shots(f"{name}_320"), full_page=True)
    page.emulate_media(color_scheme="dark")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=shots(f"{name}_dark"))
    page.emulate_media(color_scheme="light")


def test_a_whole_board_entered_space_by_space_and_copied_by_code(page, live_url, shots):
    t = page.request.post(f"{live_url}/api/tables", data={"game": "robotariat", "players": 3}).json()
    page.goto(f"{live_url}/robotariat/board/enter?table={t['id']}")
    page.navigations = []
    page.on("framenavigated", lambda f: page.navigations.append(f.url) if f == page.main_frame else None)
    names = {s["id"]: s["name"] for s in EXAMPLE["spaces"]}
    taps: list = []
    tap(page, page.locator("#guide-start"), taps)

    # step 1: the kind of each space, going round the board
    for i, s in enumerate(EXAMPLE["spaces"]):
        tap(page, page.locator(f'#guide-add button[value="{s["kind"]}"]'), taps)
        expect(page.locator("#guide-entered li")).to_have_count(i + 1)
    expect(page.locator("#guide-count")).to_have_text("10 spaces")
    # named after their kinds, numbered where a kind comes again: the example board's names
    expect(page.locator("#guide-entered li")).to_have_text([names[s["id"]] for s in EXAMPLE["spaces"]])
    tap(page, page.locator("#guide-next"), taps)

    # step 2: each space's yellow and blue arrow (their black lines come with them), then the next space
    for i, s in enumerate(EXAMPLE["spaces"]):
        expect(page.locator("#guide-at")).to_have_text(names[s["id"]])
        if i == 3:
            phone_checks(page, shots, "rb_guide_step2")
        for colour in ("yellow", "blue"):
            chip = page.locator(f"#guide-{colour}").get_by_role("button", name=names[EXAMPLE[f"{colour}_next"][s["id"]]],
                                                                exact=True)
            tap(page, chip, taps)
            expect(chip).to_have_attribute("aria-pressed", "true")
        tap(page, page.locator("#guide-next"), taps)

    # step 3: the check
    expect(page.locator("#check-ok")).to_contain_text("10 spaces, 12 black lines")
    tap(page, page.locator("#guide-done"), taps)
    assert len(taps) == 43 and page.navigations == []  # 43 taps, each answered in place

    rb = page.request.get(f"{live_url}/api/tables/{t['id']}").json()["state"]["robotariat"]
    by_name = {s["name"]: s for s in rb["board"]["spaces"]}
    assert [(s["name"], s["kind"]) for s in rb["board"]["spaces"]] == [(names[s["id"]], s["kind"]) for s in EXAMPLE["spaces"]]
    entered = {tuple(sorted((by_name[names[a]]["id"], by_name[names[b]]["id"]))) for a, b in EXAMPLE["links"]}
    assert {tuple(sorted(ln)) for ln in rb["board"]["links"]} == entered
    for colour in ("yellow_next", "blue_next"):
        assert rb["board"][colour] == {by_name[names[a]]["id"]: by_name[names[b]]["id"] for a, b in EXAMPLE[colour].items()}
    assert rb["example"] is False and rb["guide"] is None

    # another table loads this board by the first table's join code
    other = page.request.post(f"{live_url}/api/tables", data={"game": "robotariat", "players": 4}).json()
    page.goto(f"{live_url}/robotariat/board/enter?table={other['id']}")
    page.fill("#copy-code", "nope00")
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.get_by_role("button", name="Copy its board").click()
    expect(page.locator("#copy-problem")).to_contain_text("no table has the code NOPE00")
    page.fill("#copy-code", t["code"].lower())
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.get_by_role("button", name="Copy its board").click()
    expect(page.locator("#rb-board .space")).to_have_count(10)
    copied = page.request.get(f"{live_url}/api/tables/{other['id']}").json()["state"]["robotariat"]
    assert copied["board"] == rb["board"] and copied["layout"] == rb["layout"]
    assert [e for e in page.js_errors if "400 (BAD REQUEST)" not in e] == []  # the wrong code's answer only
