"""Every Salvager out at once (Clarifications: a Cold Fusion or Balance tie damages its own player too;
Objective): both phones say nobody wins, Tablebot's reading (rule entry tr-reading-nobody-standing), and
offer a new game instead of a start button. At 390x844 and 320 px, light and dark."""
from __future__ import annotations

import pytest
from browser_checks import check_phone_sizes, phone
from playwright.sync_api import expect
from tr_helpers import take_seat

pytestmark = pytest.mark.browser
SLOW = 15_000  # ms: answers under a full test run on two cores


def test_both_phones_say_nobody_wins_when_every_salvager_is_out(browser, browser_context_args, live_url,
                                                                 new_live_table, shots):
    table = new_live_table("two-robots", 2, {"two_robots": {"players": [{"health": 0}, {"health": 0}]}})
    url = f"{live_url}/two-robots/factory?table={table['id']}"
    phones = []
    for seat, name in enumerate(("Ana", "Ben")):
        ctx, page = phone(browser, browser_context_args)
        take_seat(page, live_url, table, seat, name)
        page.goto(url)
        phones.append((ctx, page))
    try:
        for _, page in phones:
            expect(page.locator("#tr-nobody-wins")).to_contain_text("nobody wins", timeout=SLOW)
            expect(page.locator("#tr-start")).to_have_count(0)
            expect(page.locator("#tr-new-game")).to_be_visible()
        check_phone_sizes(phones[0][1], shots, "two_robots_nobody_wins")
    finally:
        for ctx, _ in phones:
            ctx.close()
