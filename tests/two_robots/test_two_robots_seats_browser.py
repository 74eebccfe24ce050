"""Every phone is a player, Two Robots (issue 20 "Done when"), in Chromium with three phones on one table:
Ana and Ben each take a seat by name with the seat picker of the factory page (type a name, tap the
seat); the page then opens on their own seat with the names shown, after a reload too. Ana enters her
hand with the page's buttons. Every response Ben's phone and a phone without a seat receive while they
open the factory and odds pages and follow the table is recorded: none holds Ana's card (rulebook,
Clarifications: only a hand's size is public). Ana's plan uses it."""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready, phone
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
SLOW = 15_000  # ms: answers under a full test run on two cores
SECRET = "Quietly Zebra 7"
CHEM_THREE = [{"cards": [{"part": p, "energies": ["chemical"]} for p in ("head", "arms", "legs")]}]
BEN_STACKS = [{"cards": [{"part": "head", "energies": ["solar"]}]}]


def record(page) -> list[tuple[str, int, str]]:
    """Every response the phone receives from now on: (url, status, headers and body as text)."""
    seen: list[tuple[str, int, str]] = []

    def keep(response) -> None:
        text = str(response.all_headers())
        if not 300 <= response.status < 400:  # a redirect has no body to read
            try:
                text += "\n" + response.body().decode("utf-8", "replace")
            except Exception as err:  # noqa: BLE001 - a body the browser dropped is recorded as missing
                text += f"\n<body not read: {err}>"
        seen.append((response.url, response.status, text))
    page.on("response", keep)
    return seen


def take_seat_by_name(page, name: str, seat_label: str) -> None:
    """The one step of the seat picker: type the name, tap the seat."""
    expect(page.locator("#seat-pick")).to_be_visible()
    page.fill("#seat-name", name)
    page.locator("#seat-pick button[name=seat]", has_text=seat_label).click()
    expect(page.locator(".seat-me [data-seat-name]")).to_have_text(name, timeout=SLOW)


def wait_saved(page, shown: str | None) -> None:
    expect(page.locator("body")).not_to_have_attribute("data-table-version", shown or "", timeout=SLOW)


def test_three_phones_ana_s_hand_stays_on_her_phone(browser, browser_context_args, live_url, new_live_table, shots):
    table = new_live_table("two-robots", 3, {"two_robots": {"players": [{"stacks": CHEM_THREE}, {"stacks": BEN_STACKS}]}})
    factory = f"{live_url}/two-robots/factory?table={table['id']}"
    odds = f"{live_url}/two-robots/odds?table={table['id']}"
    phones = [phone(browser, browser_context_args) for _ in range(3)]
    try:
        (_, a), (_, b), (_, c) = phones
        seen_a, seen_b, seen_c = record(a), record(b), record(c)

        # the seat picker, as a phone without a seat sees it, at 390x844 and at 320 px
        c.goto(factory)
        expect(c.locator("#tr-needs-seat")).to_be_visible()
        expect(c.locator("#seat-pick")).to_be_visible()
        assert_phone_ready(c)
        c.locator("#seat-pick").screenshot(path=shots("two_robots_seat_picker-390"))
        c.set_viewport_size({"width": 320, "height": 700})
        assert_phone_ready(c)
        c.locator("#seat-pick").screenshot(path=shots("two_robots_seat_picker-320"))
        c.set_viewport_size({"width": 390, "height": 844})

        for p, name, label in ((a, "Ana", "Player 1"), (b, "Ben", "Player 2")):
            p.goto(factory)
            expect(p.locator("#tr-needs-seat")).to_be_visible()
            take_seat_by_name(p, name, label)
        for p, me, other in ((a, "Ana", "Ben"), (b, "Ben", "Ana")):
            p.reload()  # the phone is its seat on every page, after a reload too
            expect(p.locator("#seat-bar")).to_contain_text(f"You are {me}")
            expect(p.locator("#tr-needs-seat")).to_have_count(0)
            expect(p.locator("#tr-standings")).to_contain_text(other)
            p.goto(odds)
            expect(p.locator("#seat-bar")).to_contain_text(f"You are {me}")
            expect(p.locator("#tr-odds-line")).to_be_visible()
        for p in (a, b):
            p.goto(factory)
        c.goto(odds)
        expect(c.locator("#tr-needs-seat")).to_be_visible()
        expect(c.locator("#seat-pick")).to_contain_text("Ana · taken")

        # Ana enters her hand with the page's buttons, while Ben's and the seatless phone's pages follow
        label = a.locator("#tr-picker label.tr-combo:has(input[value='c'])").first
        if not label.locator("input").is_checked():
            label.click()
        shown = a.locator("body").get_attribute("data-table-version")
        with a.expect_response(lambda r: r.request.method == "POST" and r.ok, timeout=SLOW):
            a.locator("button[name=do][value='add:hand:torso']").click()
        wait_saved(a, shown)
        a.locator("#tr-action-card summary").click()
        a.select_option("#tr-card-name", "other")
        a.fill("#a_other", SECRET)
        shown = a.locator("body").get_attribute("data-table-version")
        with a.expect_response(lambda r: r.request.method == "POST" and r.ok, timeout=SLOW):
            a.locator("button[name=do][value='addcard:hand']").click()
        wait_saved(a, shown)
        expect(a.locator("#tr-hand-cards")).to_contain_text(SECRET)
        # Ana's plan uses her hand: her TORSO (Chemical) finishes the Chemical robot (How to Build a Robot)
        expect(a.locator("#tr-plan")).to_contain_text("Play TORSO (Chemical) on stack 1")
        expect(a.locator("#tr-plan")).to_contain_text("1 Attack/Defense card kept in hand")

        # Ben's factory page (open since before) follows the table; both phones then load both pages
        expect(b.locator("#tr-standings")).to_contain_text("Ana", timeout=SLOW)
        for p in (b, c):
            for url in (factory, odds, factory + "&seat=0", odds + "&seat=0", f"{live_url}/t/{table['id']}"):
                p.goto(url)
                expect(p.locator("#seat-bar")).to_be_visible()
                assert SECRET not in p.content()
            p.goto(factory)
        b.wait_for_timeout(3000)  # both follow the table for a while (a version check about every second)
        expect(b.locator("#seat-bar")).to_contain_text("You are Ben")
        assert any(SECRET in text for _, _, text in seen_a)  # the recording reads bodies: Ana's hold her card
        for seen in (seen_b, seen_c):
            pages = {u.split("?")[0].removeprefix(live_url) for u, s, _ in seen if s in (200, 304)}
            assert {"/two-robots/factory", "/two-robots/odds", f"/api/tables/{table['id']}/version"} <= pages, pages
            leaks = [(u, s) for u, s, text in seen if SECRET in text]
            assert leaks == [], leaks
        assert_phone_ready(b)
    finally:
        for ctx, _ in phones:
            ctx.close()
