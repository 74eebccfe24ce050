"""Every phone is a player (issue 20), in Chromium with three phones on one table: each phone says who it
is once (a name, then its seat) on the first page it opens, and from then on every page of the table opens
on its own seat with the names shown, after a reload too. A seat held by another phone is taken over only
on purpose, and every phone sees that it moved. (Two Robots, where a seat also hides a hand, has its own
test: tests/two_robots/test_two_robots_seats_browser.py.)"""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready, phone
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
SLOW = 15_000  # ms: open pages follow the table (they ask for its version once a second); under a full test
# run on two cores the browser and the server can be far slower (Playwright's default is 5 s)


def take_seat(page, name: str, seat_label: str) -> None:
    """The one step: type a name, tap the seat."""
    page.fill("#seat-name", name)
    page.locator("#seat-pick button[name=seat]", has_text=seat_label).click()
    expect(page.locator(".seat-me [data-seat-name]")).to_have_text(name)


def test_raising_robots_three_phones_each_on_its_seat(browser, browser_context_args, live_url, new_live_table, shots):
    table = new_live_table("raising-robots", 3)
    score = f"{live_url}/raising-robots/score?table={table['id']}"
    planner = f"{live_url}/raising-robots/competitions?table={table['id']}"
    phones = [phone(browser, browser_context_args) for _ in range(3)]
    try:
        for (_, p), (name, label) in zip(phones, [("Ada", "Player 1"), ("Ben", "Player 2"), ("Cy", "Player 3")]):
            p.goto(score)
            expect(p.locator("#seat-pick")).to_be_visible()
            take_seat(p, name, label)
        a, b, c = (p for _, p in phones)
        a.screenshot(path=shots("seats-rr-score-seated"))
        for p, seat, name in ((a, 0, "Ada"), (b, 1, "Ben"), (c, 2, "Cy")):
            p.goto(score)  # every page opens on the phone's own seat, after a reload too
            expect(p.locator("#rr-seats [aria-current=true]")).to_have_text(name)
            expect(p.locator("#rr-seats")).to_contain_text("Ada")
            expect(p.locator("#rr-seats")).to_contain_text("Cy")
            p.goto(planner)
            expect(p.locator("#rrc-seat")).to_have_value(str(seat))
            expect(p.locator("#seat-pick")).to_have_count(0)
        assert_phone_ready(a)
        # Cy's phone goes flat: Ben's phone... no, a new phone takes Cy's seat over, on purpose, and all see it
        ctx_d, d = phone(browser, browser_context_args)
        d.goto(score)
        d.fill("#seat-name", "Cy")
        d.locator("#seat-pick button[name=seat]", has_text="Cy").click()
        expect(d.locator("#seat-pick")).to_contain_text("Take it over only if that phone is lost or flat")
        d.screenshot(path=shots("seats-take-over"))
        d.locator("#seat-pick button.danger").click()
        expect(d.locator(".seat-me [data-seat-name]")).to_have_text("Cy")
        for p in (a, b):  # the open pages follow the table: the move shows without a reload
            expect(p.locator("#seat-bar")).to_contain_text("Cy’s seat moved to another phone", timeout=SLOW)
        c.reload()
        expect(c.locator("#seat-bar")).to_contain_text("Another phone took over your seat")
        expect(c.locator("#seat-pick")).to_be_visible()
        ctx_d.close()
    finally:
        for ctx, _ in phones:
            ctx.close()


def test_robotariat_three_phones_named_and_each_its_own_player(browser, browser_context_args, live_url,
                                                               new_live_table, shots):
    table = new_live_table("robotariat", 3)
    board = f"{live_url}/robotariat/?table={table['id']}"
    phones = [phone(browser, browser_context_args) for _ in range(3)]
    try:
        for (_, p), (name, label) in zip(phones, [("Ann", "Player 1"), ("Bo", "Player 2"), ("Cy", "Player 3")]):
            p.goto(board)
            take_seat(p, name, label)
        a, b, c = (p for _, p in phones)
        for p, name in ((a, "Ann"), (b, "Bo"), (c, "Cy")):
            p.reload()
            # the secret objective's "this phone is" is the phone's seat, named
            expect(p.locator("#my-seat-taken")).to_contain_text(name)
            expect(p.locator("#seat-bar")).to_contain_text(f"You are {name}")
        for size in (390, 320):
            a.set_viewport_size({"width": size, "height": 844})
            assert_phone_ready(a)
        a.emulate_media(color_scheme="dark")
        a.screenshot(path=shots("seats-robotariat-dark"))
    finally:
        for ctx, _ in phones:
            ctx.close()


def test_the_seat_picker_fits_a_phone(browser, browser_context_args, live_url, new_live_table, shots):
    table = new_live_table("two-robots", 3)
    ctx, p = phone(browser, browser_context_args)
    try:
        p.goto(f"{live_url}/t/{table['id']}")
        expect(p.locator("#seat-pick")).to_be_visible()
        for size in (390, 320):
            p.set_viewport_size({"width": size, "height": 844})
            assert_phone_ready(p)
            p.screenshot(path=shots(f"seats-picker-{size}"))
        p.emulate_media(color_scheme="dark")
        p.screenshot(path=shots("seats-picker-dark"))
    finally:
        ctx.close()
