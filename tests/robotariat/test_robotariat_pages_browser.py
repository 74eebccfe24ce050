"""Robotariat pages in Chromium at 390x844: draw a board in the editor and watch the check, move a piece
by tapping, read the forecast and suggestions, apply a roll, and find it all again after a reload; the
phone checks and screenshots at 390 and 320 px, light and dark."""
from __future__ import annotations

import json
import re
from contextlib import contextmanager

import pytest
from browser_checks import assert_phone_ready
from playwright.sync_api import expect

from assistant.robotariat import pages as rb

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
def test_board_page_tap_to_move_forecast_suggestions_and_reload(page, live_url, shots):
    """Tap a piece then a space; the NPC forecast and the suggestions follow; "We rolled this" applies a
    roll (NPC Turn) and passes the turn; a reload shows the table as it was left."""
    tid = new_table(page, live_url, {"robotariat": MID_GAME, "table": {"names": ["Ann", "Bo", "Cy"]}})
    page.goto(f"{live_url}/robotariat/?table={tid}")
    expect(page.locator("#sg-player")).to_have_text("1. Ann")
    page.locator('#rb-chips [data-piece="p2"]').click()
    expect(page.locator("#rb-hint")).to_contain_text("Tap the space to move")
    # on a slow connection the piece is drawn where it was put at once, while the server saves it
    held = []
    page.route("**/action", lambda route: held.append(route))
    with page.expect_request(lambda r: r.url.endswith("/action")):
        page.locator('#rb-board .space[data-id="ro"]').click()
    expect(page.locator('#rb-board .space.pending[data-id="ro"] .pc.player')).to_have_count(1)
    expect(page.locator('#rb-board .space[data-id="sy"] .pc.player')).to_have_count(0)
    assert len(held) == 1 and table_rb(page, live_url, tid)["state"]["players"][2]["at"] == "sy"
    held[0].continue_()
    page.unroute("**/action")
    expect(page.locator('#rb-board .space[data-id="ro"]')).to_have_attribute("aria-label", "Recruitment Office, 1 civilian, Cy")
    assert table_rb(page, live_url, tid)["state"]["players"][2]["at"] == "ro"

    # a poster by tapping: + Poster, then the space; a second tap was a mistake: Undo
    page.locator('#rb-chips [data-piece="poster+"]').click()
    with saved(page):
        page.locator('#rb-board .space[data-id="sy"]').click()
    assert table_rb(page, live_url, tid)["state"]["posters"].get("sy") == 1
    with saved(page):
        page.locator('#rb-board .space[data-id="sy"]').click()
    assert table_rb(page, live_url, tid)["state"]["posters"].get("sy") == 2
    with saved(page, "/undo"):
        page.locator("#undo").click()
    assert table_rb(page, live_url, tid)["state"]["posters"].get("sy") == 1
    expect(page.locator('#rb-board .space[data-id="sy"]')).to_have_attribute("aria-label", re.compile(r"^Scrap Yard, 1 poster\."))

    # the answers follow the table: forecast rows, suggestions grouped by rank, the entry for round 4
    outcomes = page.locator("#npc-outcomes > li")
    expect(outcomes.first).to_be_visible()
    n = outcomes.count()
    assert n >= 6 and page.locator("#npc-outcomes .num[title^='exactly ']").count() == n
    expect(page.locator("#sg-options > li").first).to_contain_text("1st")
    expect(page.locator("#entry-what")).to_contain_text("Human Oppressor")
    # the look-ahead as a heat map on the board
    page.locator("#show-heat").check()
    expect(page.locator("#rb-board .heat")).to_have_count(10)
    page.locator("#look .stepper button[data-step='1']").click()
    expect(page.locator("#look-table tbody tr").first).to_be_visible()

    # the dice came up: apply that roll
    answers_for_the_table_now(page, live_url, tid)
    first = outcomes.first
    faces = first.locator(".rb-face").inner_text()
    with saved(page):
        first.get_by_role("button", name="We rolled this").click()
    got = table_rb(page, live_url, tid)
    assert got["state"]["active"] == 1 and got["log"][-1]["what"] == faces
    expect(page.locator("#sg-player")).to_have_text("2. Bo")
    page.screenshot(path=shots("robotariat_play_heat_390"), full_page=True)

    page.reload()
    expect(page.locator("#sg-player")).to_have_text("2. Bo")
    expect(page.locator('#rb-board .space[data-id="sy"]')).to_have_attribute("aria-label", "Scrap Yard, 1 poster")
    assert page.locator("#f-funds").input_value() == str(got["state"]["funds"])
    phone_checks(page, shots, "robotariat_play")
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


@pytest.mark.browser
def test_do_this_moves_the_pieces_and_the_round_reaches_the_table_page(page, live_url, shots):
    """Player Turn: "Do this" on the best suggestion puts the pieces where that turn leaves them (Move the
    Masses' encounter resolved), logs it and says the NPC turn comes next; a reload shows the same board.
    Round Order: a round set on the board page is the table page's round too."""
    names = ["Ann", "Bo", "Cy"]
    tid = new_table(page, live_url, {"robotariat": MID_GAME, "table": {"names": names}})
    start = rb.normalize(MID_GAME, 3, names)
    best = page.request.post(f"{live_url}/api/robotariat/suggest",
                             data={**rb.api_body(start), "limit": rb.SUGGEST_LIMIT}).json()["options"][0]
    expected = {s["id"]: s["aria"] for s in rb.board_view(
        rb.apply_action(start, {"do": "do_option", "option": 0}, 3, names))["spaces"]}
    assert expected != {s["id"]: s["aria"] for s in rb.board_view(start)["spaces"]}

    page.goto(f"{live_url}/robotariat/?table={tid}")
    first = page.locator("#sg-options .rb-option").first
    expect(first.locator(".rb-opt-head")).to_have_text(best["headline"])
    with saved(page):  # the server's list or the script's: both apply option 0 on the version shown
        page.locator("#sg-options .rb-option").first.get_by_role("button", name="Do this").click()
    got = table_rb(page, live_url, tid)
    assert got["log"][-1]["turn"] == "player" and got["log"][-1]["what"] == best["headline"][:80]
    assert got["state"]["active"] == 0
    expect(page.locator("#sg-played")).to_contain_text("Ann has played this turn")
    # each reading the answers name links its rule entry
    expect(page.locator('#suggest details.rb-reading a[href="/rules/rb-reading-planner-score"]')).to_have_count(1)
    expect(page.locator('#npc details.rb-reading a[href="/rules/rb-reading-donation-parts"]')).to_have_count(1)
    assert space_labels(page) == expected
    page.screenshot(path=shots("robotariat_do_this_390"), full_page=False)

    page.reload()
    expect(page.locator("#sg-played")).to_be_visible()
    assert space_labels(page) == expected
    with saved(page):  # the tracks save 0.4 s after the last tap
        page.locator("#tracks .stepper button[data-step='1']").last.click()  # the round stepper
    state = page.request.get(f"{live_url}/api/tables/{tid}").json()["state"]
    assert state["robotariat"]["state"]["round"] == 2, state["robotariat"]["state"]
    assert state["table"] == {"names": names, "round": 2}
    phone_checks(page, shots, "robotariat_do_this")
    assert page.js_errors == []


@pytest.mark.browser
def test_a_roll_never_undoes_another_phones_move(page, browser, browser_context_args, live_url, shots):
    """NPC Turn, at a table of two phones: A shows the forecast, B moves a piece, A taps a roll. The roll
    was worked out for the table before B's move, so it is not applied: B's move stays, A is told in one
    sentence and sees the forecast for the table as it is now; A's next tap applies the roll."""
    tid = new_table(page, live_url, {"robotariat": MID_GAME})
    other = browser.new_context(**browser_context_args)
    try:
        b = other.new_page()  # B first, so that A taps well before its own look for changes (every 5 s)
        b.goto(f"{live_url}/robotariat/?table={tid}")
        expect(b.locator('#rb-chips [data-piece="p2"]')).to_be_visible()
        page.goto(f"{live_url}/robotariat/?table={tid}")
        expect(page.locator("#npc-outcomes > li").first).to_be_visible()
        b.locator('#rb-chips [data-piece="p2"]').click()
        with saved(b):
            b.locator('#rb-board .space[data-id="ro"]').click()
        assert table_rb(page, live_url, tid)["state"]["players"][2]["at"] == "ro"
    finally:
        other.close()

    with page.expect_response(lambda r: r.url.endswith("/action") and r.status == 409):  # a compare-and-set
        page.locator("#npc-outcomes > li").first.get_by_role("button", name="We rolled this").click()
    expect(page.locator("#npc-changed")).to_be_visible()
    expect(page.locator("#npc-changed")).to_have_text(rb.CHANGED["npc"])
    got = table_rb(page, live_url, tid)
    assert got["state"]["players"][2]["at"] == "ro" and got["state"]["active"] == 0 and got["log"] == []
    expect(page.locator('#rb-board .space[data-id="ro"]')).to_have_attribute("aria-label", re.compile(r"Player 3"))
    page.screenshot(path=shots("robotariat_roll_conflict_390"), full_page=False)

    # the forecast now is the newer table's: tapping a roll applies it on top of B's move
    answers_for_the_table_now(page, live_url, tid)
    faces = page.locator("#npc-outcomes > li").first.locator(".rb-face").inner_text()
    with saved(page):
        page.locator("#npc-outcomes > li").first.get_by_role("button", name="We rolled this").click()
    got = table_rb(page, live_url, tid)
    assert got["state"]["active"] == 1 and got["state"]["players"][2]["at"] == "ro" and got["log"][-1]["what"] == faces
    expect(page.locator("#npc-changed")).to_be_hidden()
    # the browser reports the refused save (409) on the console; nothing else went wrong
    assert [e for e in page.js_errors if "409 (CONFLICT)" not in e] == []


@pytest.mark.browser
def test_not_at_a_table_taps_are_applied_by_the_server_and_carried(page, live_url):
    """A phone alone (no table): the page sends the value it holds with each tap; the forms carry the
    answer, so a form posted without the script keeps the tap (Player Turn: a poster on the Scrap Yard)."""
    page.goto(f"{live_url}/robotariat/")
    page.locator('#rb-chips [data-piece="poster+"]').click()
    with saved(page, "/api/robotariat/action"):
        page.locator('#rb-board .space[data-id="sy"]').click()
    expect(page.locator('#rb-board .space[data-id="sy"]')).to_have_attribute("aria-label", re.compile(r"^Scrap Yard, 1 poster"))
    carried = json.loads(page.locator("#setup-form input[name=state_json]").input_value())
    assert carried["state"]["posters"] == {"sy": 1}
    assert page.js_errors == []
