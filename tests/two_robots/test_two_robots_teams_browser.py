"""A 2v2 Two Robots game on four phones in Chromium (issue 21, item 6): Ana (Peacemaker, so she plays first:
"Turn Order") and Cy against Ben and Di. Ana sets the teams and the five-Stacks house rule on the factory
page; every phone shows them and the standings by team ("Variations"). In her Event phase Ana uses Balance:
it reaches every player, and Ben and Di, tied, suffer one damage each ("Clarifications"). Ana defeats Ben and
Di: Ana and Cy win together, the last team standing, on every phone. Di starts a new game, confirmed first:
turn 1 on every phone, the winner gone. The panel at 390x844 and 320 px, light and dark."""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready, phone
from playwright.sync_api import expect
from test_two_robots_game_browser import SLOW, everywhere, tap
from tr_helpers import enter_hand, take_seat

pytestmark = pytest.mark.browser


def robot(energy: str) -> dict:
    return {"cards": [{"part": n, "energies": [energy]} for n in ("head", "arms", "legs", "torso")]}


def test_four_phones_play_2v2_to_a_team_win_and_start_a_new_game(browser, browser_context_args, live_url,
                                                                 new_live_table, shots):
    table = new_live_table("two-robots", 4, {"two_robots": {"players": [
        {"salvager": "peacemaker", "stacks": [robot("solar")]}, {}, {}, {}]}})
    url = f"{live_url}/two-robots/factory?table={table['id']}"
    phones = [phone(browser, browser_context_args) for _ in range(4)]
    try:
        everyone = [p for _, p in phones]
        ana, ben, cy, di = everyone
        for k, (p, name) in enumerate(zip(everyone, ("Ana", "Ben", "Cy", "Di"), strict=True)):
            take_seat(p, live_url, table, k, name)
            p.goto(url)
        loads = [len(p.navigations) for p in everyone]

        # the variations, set on Ana's phone, reach every phone
        ana.select_option("#tr-team-choice", "13-24")
        ana.check("#tr-settings input[name=five_stacks][value=true]")
        tap(ana, "#tr-settings-save")
        everywhere(everyone, "#tr-variations-line",
                   "2v2: Ana and Cy against Ben and Di (a shared win); house rule: five stacks in a factory win.")
        everywhere(everyone, "#tr-teams", "Ana")
        expect(di.locator("#tr-teams")).to_contain_text("Di (you) and Ben", timeout=SLOW)
        expect(ben.locator("#tr-team-choice")).to_have_value("13-24")

        # Ana plays first; her Event: Balance, with two parts of her robot sacrificed
        tap(ana, "#tr-start")
        tap(ana, "#tr-next")
        tap(ana, "#tr-next")
        everywhere(everyone, "#tr-phases li.current", "Event")
        ana.check("#tr-sacrifice input[value='0.0']")
        ana.check("#tr-sacrifice input[value='0.1']")
        ana.select_option("#tr-power", "Balance")
        tap(ana, "#tr-sacrifice button[value=event_power]")
        everywhere(everyone, "#tr-event-lines", "Ana triggered the Power card Balance.")
        everywhere(everyone, "#tr-event-lines", "reaches every player, Ana too")
        ana.set_viewport_size({"width": 320, "height": 700})
        assert_phone_ready(ana)  # the Event's damage choices at 320 px
        ana.set_viewport_size({"width": 390, "height": 844})
        # Ben and Di are tied: one damage each
        ana.check("#tr-hits input[name=hit][value='1']")
        ana.check("#tr-hits input[name=hit][value='3']")
        tap(ana, "#tr-hits button[value='event_damage:']")
        for k in (1, 3):
            everywhere(everyone, f"#tr-health tr[data-key='health-{k}'] td.num", "2")
        assert_phone_ready(ana)
        ana.locator("#tr-game").screenshot(path=shots("two_robots_2v2_event-390"))

        # Ana defeats Ben and Di: her team wins, Cy's too
        for k in (1, 3):
            for _ in range(2):
                tap(ana, f"#tr-health tr[data-key='health-{k}'] button")
        everywhere(everyone, "#tr-winner", "Ana and Cy (their team) win: the last team standing.")
        expect(cy.locator("#tr-lead")).to_have_text("Your team wins: the last team standing.", timeout=SLOW)
        expect(ben.locator("#tr-lead")).to_contain_text("Ana and Cy win", timeout=SLOW)
        assert [len(p.navigations) for p in everyone] == loads

        # a new game, confirmed on Di's phone first
        with di.expect_response(lambda r: r.request.method == "POST" and r.ok, timeout=SLOW):
            di.locator("#tr-new-game").click()
        expect(di.locator("#tr-new-game-confirm")).to_contain_text("Start a new game at this table?", timeout=SLOW)
        expect(ana.locator("#tr-winner")).to_be_visible()
        tap(di, "#tr-new-game-yes")
        everywhere([ben, cy, di], "#tr-turn-line", "Turn 1: Ana’s turn, Draw phase.")
        for p in everyone:
            expect(p.locator("#tr-winner")).to_have_count(0, timeout=SLOW)
        everywhere(everyone, "#tr-variations-line", "2v2: Ana and Cy against Ben and Di")

        for p in everyone:
            assert not getattr(p, "js_errors", [])
        ben.set_viewport_size({"width": 320, "height": 700})
        assert_phone_ready(ben)
        ben.emulate_media(color_scheme="dark")
        ben.locator("#tr-settings").screenshot(path=shots("two_robots_2v2_settings-320-dark"))
    finally:
        for ctx, _ in phones:
            ctx.close()


def test_meltdown_is_answered_on_each_phone_and_no_hand_shows_on_another(browser, browser_context_args, live_url,
                                                                          new_live_table, shots):
    """Clarifications (Meltdown; an empty hand discards nothing): Ana (Apocalypse) uses Meltdown; Ben's phone
    offers his own cards to discard, Cy's (empty hand) offers to discard nothing; neither hand shows on
    another phone. The answers' buttons at 320 px."""
    table = new_live_table("two-robots", 3, {"two_robots": {"players": [
        {"salvager": "apocalypse", "stacks": [robot("solar")]}, {}, {}]}})
    url = f"{live_url}/two-robots/factory?table={table['id']}"
    phones = [phone(browser, browser_context_args) for _ in range(3)]
    try:
        everyone = [p for _, p in phones]
        ana, ben, cy = everyone
        for k, (p, name) in enumerate(zip(everyone, ("Ana", "Ben", "Cy"), strict=True)):
            take_seat(p, live_url, table, k, name)
        enter_hand(ben, live_url, table, 1, [{"kind": "attack", "name": "Quietly Zebra", "stacks_required": 1},
                                             {"kind": "part", "part": "legs", "energies": ["mechanical"]}])
        for p in everyone:
            p.goto(url)
        tap(ana, "#tr-start")
        tap(ana, "#tr-next")
        tap(ana, "#tr-next")
        ana.check("#tr-sacrifice input[value='0.0']")
        ana.check("#tr-sacrifice input[value='0.1']")
        ana.select_option("#tr-power", "Meltdown")
        tap(ana, "#tr-sacrifice button[value=event_power]")
        everywhere(everyone, "#tr-event-lines", "Meltdown: Ben, Cy still to answer")
        expect(ben.locator("#tr-meltdown")).to_contain_text("Discard Quietly Zebra", timeout=SLOW)
        expect(cy.locator("#tr-melt-nothing")).to_be_visible(timeout=SLOW)
        for p in (ana, cy):
            expect(p.locator("body")).not_to_contain_text("Quietly Zebra")
        ben.set_viewport_size({"width": 320, "height": 700})
        assert_phone_ready(ben)
        ben.emulate_media(color_scheme="dark")
        ben.locator("#tr-event").screenshot(path=shots("two_robots_meltdown-320-dark"))
        tap(ben, "#tr-meltdown button[value^='meltdown:discard|attack']")
        tap(cy, "#tr-melt-nothing")
        everywhere(everyone, "#tr-health", "3")
        for p in everyone:
            expect(p.locator("#tr-event-lines")).not_to_contain_text("still to answer", timeout=SLOW)
            assert not getattr(p, "js_errors", [])
    finally:
        for ctx, _ in phones:
            ctx.close()
