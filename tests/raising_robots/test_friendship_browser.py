"""Two phones follow the Friendship deck (rulebook "Competitions & Friendships": Changes to Setup step 4,
Completion Rewards; rule entry rr-reading-friendship-discard), in Chromium at 390x844, then 320 px dark:
one builds the deck, draws 3 and keeps 1; the other sees that a card was drawn and which was kept, never the
two not kept; each phone's odds for the next draw show, worked out from what that phone has seen."""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready, check_phone_sizes, expect_shown, phone, take_seat
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

NOT_KEPT = ("Albert", "Charles")


def hidden_from(p) -> None:
    """Nothing on this phone tells where the other seat's cards went: not the deck's state, not a keep
    button; its own draw still offers every card it cannot rule out (Albert and Charles included)."""
    text = p.locator("#fr-status").inner_text()
    assert not any(name in text for name in NOT_KEPT), f"the deck shows another phone's cards: {text}"
    assert p.locator("[id^=fr-keep-]").count() == 0
    for card in ("albert", "charles"):
        assert p.locator(f"#fr-drawn input[value='{card}']").count() == 1


def test_one_phone_draws_3_and_keeps_1_the_other_never_sees_the_rest(browser, browser_context_args, live_url,
                                                                      new_live_table, shots):
    table = new_live_table("raising-robots", 2, {"table": {"names": ["Ana", "Ben"]},
                                                 "raising_robots": {"seats": [{"inventor": {"name": "Johannes"}},
                                                                              {"inventor": {"name": "Ada"}}]}})
    url = f"{live_url}/raising-robots/friendship?table={table['id']}"
    ctx_a, a = phone(browser, browser_context_args)
    ctx_b, b = phone(browser, browser_context_args)
    take_seat(a, url, "Ana", 0)
    take_seat(b, url, "Ben", 1)

    # setup: the inventors in play come out (Changes to Setup, step 4); no Pets, the paw cards too
    expect(a.locator("#fr-setup")).to_contain_text("Johannes")
    a.click("#fr-build")
    for p in (a, b):
        expect_shown(p, [("#fr-deck-count", "text", "24 in the deck")], timeout=4000)
    nav_b = len(b.navigations)

    # Ana draws 3 (three taps and Draw) and sees them; Ben's phone only learns that she drew 3
    taps = 0
    for card in ("albert", "charles", "temple"):
        a.click(f"#fr-drawn label.pick:has(input[value='{card}'])")
        taps += 1
    a.click("#fr-draw")
    taps += 1
    expect_shown(a, [("#fr-keep-albert", "text", "Keep Albert"), ("#fr-keep-temple", "text", "Keep Temple")],
                 timeout=4000)
    expect_shown(b, [("#fr-seat-0", "text", "drew 3, choosing which to keep")], timeout=4000)
    hidden_from(b)

    # she keeps Temple (one tap): both phones show it, the other two went to the discard pile unseen
    a.click("#fr-keep-temple")
    taps += 1
    for p in (a, b):
        expect_shown(p, [("#fr-seat-0 .fr-kept", "exact", "Temple"), ("#fr-discard-count", "text", "2 in the discard")],
                     timeout=4000)
    hidden_from(b)
    assert len(b.navigations) == nav_b  # Ben's page followed without a reload
    assert taps == 5

    # the odds: Ana knows Albert lies in the discard pile; Ben only that 2 of the 23 cards he never saw do
    a.select_option("#fr-want0", "albert")
    b.select_option("#fr-want0", "albert")
    expect_shown(a, [("#fr-p-any", "exact", "0.0 %")], timeout=4000)
    expect_shown(b, [("#fr-p-any", "exact", "13.0 %"), ("#fr-p-any-line", "text", "Albert")], timeout=4000)
    assert b.locator("#fr-p-any .num").get_attribute("title") == "exactly 3/23"
    expect(b.locator("#fr-why")).to_contain_text("from what you have seen")


    check_phone_sizes(b, shots, "rr-friendship-b")
    b.click("#fr-cards > summary")
    assert_phone_ready(b)
    a.set_viewport_size({"width": 320, "height": 700})
    a.emulate_media(color_scheme="dark")
    assert_phone_ready(a)
    a.screenshot(path=shots("rr-friendship-a-320-dark"), full_page=True)
    assert not a.js_errors if hasattr(a, "js_errors") else True
    ctx_a.close()
    ctx_b.close()
