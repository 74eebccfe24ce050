"""Two phones play a Raising Robots round on the round page (issue 22), in Chromium at 390x844: each takes
its seat with the seat picker, enters its two energy cards and the phase under each in secret, says it has
assigned, and the cards are revealed together; each sees its own phases with their Total Energy (player aid: Phase Rules, Total Energy, the 2-player dummy), following the
other phone's cubes live; a battery spent leaves the inventory; the standings move on both phones; the round ends on one phone and both follow.
Also checked at 320 px and in dark mode."""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready, expect_shown, phone, take_seat
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def enter_card(p, seat: int, k: int, phase: str, energy: int, cubes: int = 0, multiplier: bool = False,
               taps: list | None = None) -> None:
    """A card as a thumb enters it: tap the phase, type the value, tap + per cube, tick x2."""
    base = f"seats-{seat}-prep-cards-{k}"
    p.click(f"label.pick:has(#f-{base}-phase-{phase})")
    p.click(f"#f-{base}-energy")
    p.keyboard.type(str(energy))
    n = 2 + len(str(energy))  # the phase, the field, each digit typed
    for _ in range(cubes):
        p.click(f"#rr-card-{k} .stepper button[data-step='1']")
        n += 1
    if multiplier:
        p.check(f"#f-{base}-multiplier")
        n += 1
    if taps is not None:
        taps.append(n)


def test_two_phones_play_a_round(browser, browser_context_args, live_url, new_live_table, shots):
    table = new_live_table("raising-robots", 2, {"table": {"round": 1, "names": ["Ana", "Ben"]},
                                                 "raising_robots": {"seats": [{"inventory": {"vp": 6, "battery": 2}},
                                                                              {"inventory": {"vp": 4}}]}})
    url = f"{live_url}/raising-robots/round?table={table['id']}"
    ctx_a, a = phone(browser, browser_context_args)
    ctx_b, b = phone(browser, browser_context_args)
    take_seat(a, url, "Ana", 0)
    take_seat(b, url, "Ben", 1)
    expect(a.locator("#ph-h")).to_contain_text("Ana")
    expect(b.locator("#ph-h")).to_contain_text("Ben")
    nav_a, nav_b = len(a.navigations), len(b.navigations)

    taps: list[int] = []
    # Ana: Design under a 5 with 1 cube and x2; Upgrade under a 3
    enter_card(a, 0, 0, "design", 5, cubes=1, multiplier=True, taps=taps)
    enter_card(a, 0, 1, "upgrade", 3, taps=taps)
    expect_shown(a, [("#rr-total-design", "exact", "7"), ("#rr-total-upgrade", "exact", "3")], timeout=4000)
    expect(a.locator("#rr-phase-recycle")).to_contain_text("not performed")
    # Ana's choice stays on her phone: Ben's page says only that she is choosing, then that she has assigned
    expect_shown(b, [("#rr-status", "text", "Ana: choosing in secret")], timeout=4000)
    a.click("#rr-reveal")
    taps.append(1)
    expect_shown(b, [("#rr-status", "text", "Ana: assigned")], timeout=4000)

    # Ben: Recycle under a 2 with 2 cubes; Design under a 4; the dummy's card shows Fabricate
    enter_card(b, 1, 0, "recycle", 2, cubes=2)
    enter_card(b, 1, 1, "design", 4)
    b.click("label.pick:has(#f-dummy-phase-fabricate)")
    # before the reveal Ana's cube is not on Ben's board: Design at his card's 4
    expect_shown(b, [("#rr-total-recycle", "exact", "4"), ("#rr-total-design", "exact", "4")], timeout=4000)
    b.click("#rr-reveal")
    # revealed together: Recycle 2 + 2 cubes; Design 4 + Ana's cube; Fabricate from the dummy's 1 cube (round 1)
    expect_shown(b, [("#rr-total-recycle", "exact", "4"), ("#rr-total-design", "exact", "5"),
                     ("#rr-total-fabricate", "exact", "1")], timeout=4000)
    # Ana's phone follows: Ben's 2 cubes open Recycle for her at 2, the dummy's cube Fabricate at 1
    expect_shown(a, [("#rr-total-recycle", "exact", "2"), ("#rr-total-fabricate", "exact", "1"),
                     ("#rr-total-design", "exact", "7"), ("#rr-waiting", "text", "Every card is entered")],
                 timeout=4000)

    # a battery on Design: Ana's total rises to 8
    a.click("#rr-phase-design .stepper button[data-step='1']")
    expect_shown(a, [("#rr-total-design", "exact", "8")], timeout=4000)
    # Design starts: Ana spends it, and it leaves her inventory (Total Energy: fixed when the phase starts)
    a.click("#rr-spend-design")
    expect_shown(a, [("#rr-spent-design", "text", "1 spent"), ("#rr-total-design", "exact", "8")], timeout=4000)

    # the standings move on both phones: Ben gains VP during the round and leads
    expect_shown(b, [("#rr-st-total-0", "exact", "6")], timeout=4000)
    b.fill("#f-seats-1-inventory-vp", "9")
    b.dispatch_event("#f-seats-1-inventory-vp", "input")
    b.dispatch_event("#f-seats-1-inventory-vp", "change")
    for p in (a, b):
        expect_shown(p, [("#rr-standings tbody tr:first-child", "text", "Ben"), ("#rr-st-total-0", "exact", "9"),
                         ("#rr-standings tbody tr:nth-child(2)", "text", "−3")], timeout=4000)
    assert len(a.navigations) == nav_a and len(b.navigations) == nav_b  # no reloads

    assert_phone_ready(a)
    a.screenshot(path=shots("rr-round-a"), full_page=True)
    a.set_viewport_size({"width": 320, "height": 700})
    assert_phone_ready(a)
    a.emulate_media(color_scheme="dark")
    a.screenshot(path=shots("rr-round-a-320-dark"), full_page=True)

    # Round End on Ben's phone: both phones move to round 2, the cards start blank, the dummy brings 2 cubes
    b.click("#rr-end-round")
    for p in (a, b):
        expect_shown(p, [("#rr-round-no", "exact", "2"), ("#rr-round-notes", "text", "2 cubes")], timeout=4000)
    expect(a.locator("#rr-total-design")).to_have_count(0)
    # the table page shows the same standings
    a.goto(f"{live_url}/t/{table['id']}")
    expect_shown(a, [("#rr-table-standings-list tbody tr:first-child", "text", "Ben"),
                     ("#rr-table-standings-list tbody tr:nth-child(2)", "text", "−3")])
    assert_phone_ready(a)
    assert taps == [5, 3, 1]  # Ana's taps and keys per card (the phase, the field and its digit, + per cube,
    # x2), then "Assigned"
    ctx_a.close()
    ctx_b.close()
