"""A whole Two Robots game on three phones in Chromium (issue 21, "Done when"): Ana, Ben and Cy take their
seats with the factory page's seat picker. Ben (Samurai, number 1) goes before Ana (Apocalypse, 5) and Cy
(no Salvager: after them), "Turn Order". Ben enters his Shogun Power card by name; every phone reminds
of it in his Event phase. Ben enters his first draw of three cards and plays one in the
Play phase (an action counted); every phase change shows on every phone without a reload. Ana damages
Cy three times: Cy is out, and his turn is skipped. Ben damages Ana three times: Ben, the last Salvager
standing, wins, and all three phones say so ("Objective"). The page at 390x844 and 320 px, light and dark."""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready, phone
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
SLOW = 15_000  # ms: answers under a full test run on two cores


def take_seat(page, url: str, name: str, label: str) -> None:
    page.goto(url)
    expect(page.locator("#seat-pick")).to_be_visible()
    page.fill("#seat-name", name)
    page.locator("#seat-pick button[name=seat]", has_text=label).click()
    expect(page.locator(".seat-me [data-seat-name]")).to_have_text(name, timeout=SLOW)


def tap(page, selector: str) -> None:
    """Tap a button of the page and wait for the table's next version to be shown."""
    shown = page.locator("body").get_attribute("data-table-version")
    with page.expect_response(lambda r: r.request.method == "POST" and r.ok, timeout=SLOW):
        page.locator(selector).click()
    expect(page.locator("body")).not_to_have_attribute("data-table-version", shown or "", timeout=SLOW)


def everywhere(phones, selector: str, text: str) -> None:
    for p in phones:
        expect(p.locator(selector)).to_contain_text(text, timeout=SLOW)


def test_three_phones_play_from_the_first_draw_to_a_winner(browser, browser_context_args, live_url, new_live_table,
                                                           shots):
    table = new_live_table("two-robots", 3, {"two_robots": {"players": [{"salvager": "apocalypse"},
                                                                         {"salvager": "samurai"}, {}]}})
    url = f"{live_url}/two-robots/factory?table={table['id']}"
    phones = [phone(browser, browser_context_args) for _ in range(3)]
    try:
        (_, ana), (_, ben), (_, cy) = phones
        everyone = (ana, ben, cy)
        for p, name, label in ((ana, "Ana", "Player 1"), (ben, "Ben", "Player 2"), (cy, "Cy", "Player 3")):
            take_seat(p, url, name, label)
        for p in everyone:
            p.goto(url)
        loads = [len(p.navigations) for p in everyone]
        everywhere(everyone, "#tr-order-line", "Turn order: Ben, Ana, Cy")

        # Ben enters his Samurai's Shogun Power card by name, with its words (Special Abilities)
        ben.locator("#tr-named-add summary").click()
        ben.fill("#nc-name", "Shogun")
        ben.fill("#nc-text", "Reveal two Active Robot cards.")
        tap(ben, "#tr-named-new button[name=do][value='named:add']")
        expect(ben.locator("#tr-named-list")).to_contain_text("Shogun", timeout=SLOW)

        # Ana starts the game: Ben's Draw phase on every phone
        tap(ana, "#tr-start")
        everywhere((ana, cy), "#tr-turn-line", "Turn 1: Ben’s turn, Draw phase.")
        expect(ben.locator("#tr-turn-line")).to_have_text("Turn 1: your turn, Draw phase.", timeout=SLOW)
        expect(ben.locator("#tr-phases li.current")).to_have_text("Draw")

        # Ben's first draw: three Solar cards entered with the page's buttons go into his hand
        label = ben.locator("#tr-picker label.tr-combo:has(input[value='s'])").first
        label.click()
        for part in ("head", "arms", "legs"):
            tap(ben, f"button[name=do][value='add:drawn:{part}']")
        expect(ben.locator("#tr-hand h2")).to_contain_text("3 cards", timeout=SLOW)
        tap(ben, "#tr-next")
        everywhere(everyone, "#tr-phases li.current", "Play")
        everywhere((ana, cy), "#tr-left", "3 of 3 actions left")

        # a part played from the hand is one of the three actions, on every phone
        ben.locator("#tr-hand-cards details", has_text="HEAD").locator("summary").click()
        tap(ben, "#tr-hand-cards button[name=do][value='play:head:s|new']")
        everywhere(everyone, "#tr-left", "2 of 3 actions left")
        expect(ana.locator("#tr-standings")).to_contain_text("Ben", timeout=SLOW)
        tap(ben, "#tr-next")
        everywhere(everyone, "#tr-phases li.current", "Event")
        everywhere(everyone, "#tr-reminders", "Shogun (Power card, Samurai, Event phase): Reveal two Active Robot cards.")
        tap(ben, "#tr-next")
        everywhere(everyone, "#tr-phases li.current", "Cleanup")
        tap(ben, "#tr-next")
        everywhere((ben, cy), "#tr-turn-line", "Turn 2: Ana’s turn, Draw phase.")
        expect(ana.locator("#tr-turn-line")).to_have_text("Turn 2: your turn, Draw phase.", timeout=SLOW)

        # Ana damages Cy three times: Cy is out of the game
        for health in ("2", "1"):
            tap(ana, "#tr-health tr[data-key='health-2'] button")
            everywhere(everyone, "#tr-health tr[data-key='health-2'] td.num", health)
        tap(ana, "#tr-health tr[data-key='health-2'] button")
        everywhere(everyone, "#tr-health tr[data-key='health-2']", "out")
        expect(cy.locator("#tr-lead")).to_contain_text("You are out of the game", timeout=SLOW)
        expect(ana.locator("#tr-lead")).not_to_contain_text("Cy leads")

        # Ana's turn goes round; Cy's is skipped: Ben plays next
        for phase in ("Play", "Event", "Cleanup"):
            tap(ana, "#tr-next")
            everywhere(everyone, "#tr-phases li.current", phase)
        tap(ana, "#tr-next")
        everywhere((ana, cy), "#tr-turn-line", "Turn 3: Ben’s turn, Draw phase.")
        expect(ben.locator("#tr-turn-line")).to_have_text("Turn 3: your turn, Draw phase.", timeout=SLOW)
        assert_phone_ready(ben)
        ben.locator("#tr-game").screenshot(path=shots("two_robots_game-390"))

        # Ben damages Ana three times: Ben is the last Salvager standing
        for _ in range(3):
            tap(ben, "#tr-health tr[data-key='health-0'] button")
        everywhere(everyone, "#tr-winner", "Ben wins: the last Salvager standing.")
        expect(ben.locator("#tr-lead")).to_have_text("You win: the last Salvager standing.", timeout=SLOW)
        expect(ana.locator("#tr-lead")).to_contain_text("You are out of the game", timeout=SLOW)
        for p in everyone:
            expect(p.locator("#tr-next")).to_have_count(0)
        # every phone followed the game without a reload (Ben's and Ana's taps swap their own pages in)
        assert [len(p.navigations) for p in everyone] == loads

        for p in everyone:
            assert not p.js_errors if hasattr(p, "js_errors") else True
        assert_phone_ready(cy)
        cy.screenshot(path=shots("two_robots_game_over-390"), full_page=True)
        cy.set_viewport_size({"width": 320, "height": 700})
        cy.emulate_media(color_scheme="dark")
        assert_phone_ready(cy)
        cy.locator("#tr-game").screenshot(path=shots("two_robots_game_over-320-dark"))
    finally:
        for ctx, _ in phones:
            ctx.close()
