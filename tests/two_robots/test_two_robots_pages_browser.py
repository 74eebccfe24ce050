"""Two Robots pages in real Chromium at phone size: one flow per page, two phones on one table, and
screenshots at 390 and 320 px and dark. At a table each phone first takes its seat (the page is that
seat's; its hand is the seat's private state)."""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready, check_phone_sizes, phone
from playwright.sync_api import expect
from tr_helpers import enter_hand, hand_on, take_seat

pytestmark = pytest.mark.browser
SLOW = 15_000  # ms: answers under a full test run on two cores (Playwright's default is 5 s)


def part(p: str, *es: str) -> dict:
    return {"kind": "part", "part": p, "energies": list(es)}


def new_table(page, live_url, state: dict | None = None, players: int = 2) -> dict:
    table = page.request.post(f"{live_url}/api/tables", data={"game": "two-robots", "players": players}).json()
    if state is not None:
        r = page.request.put(f"{live_url}/api/tables/{table['id']}", data={"version": table["version"], "state": state})
        assert r.ok
        table = r.json()
    return table


def add(page, row: str, part_name: str, combo: str) -> None:
    label = page.locator(f"#tr-picker label.tr-combo:has(input[value='{combo}'])").first
    if not label.locator("input").is_checked():
        label.click()
    shown = page.locator("body").get_attribute("data-table-version")
    with page.expect_response(lambda r: r.request.method == "POST" and r.ok, timeout=SLOW):
        page.locator(f"button[name=do][value='add:{row}:{part_name}']").click()
    # the answer is swapped in once its text is read: the next tap is on the page it shows
    expect(page.locator("body")).not_to_have_attribute("data-table-version", shown or "", timeout=SLOW)


def test_factory_page_liz_example_hand_and_plan(page, live_url, shots):
    """Liz example on screen: a Chemical/Solar HEAD with a Chemical ARMS on it is a Chemical stack; a
    new stack started with a Chemical/Solar card becomes Solar. The hand shows where each card may go;
    playing one from its menu moves it into the factory; a stack is frozen from its head."""
    table = new_table(page, live_url)
    take_seat(page, live_url, table, 0, "Liz")
    page.goto(f"{live_url}/two-robots/factory?table={table['id']}")
    add(page, "new", "head", "cs")
    add(page, "stack:0", "arms", "c")
    expect(page.locator("#tr-stacks .tr-energy").first).to_contain_text("Chemical")
    add(page, "new", "legs", "cs")
    expect(page.locator("#tr-stacks .tr-energy").nth(1)).to_contain_text("Solar")
    expect(page.locator("#tr-stacks .tr-why").nth(1)).to_contain_text("stack 1 is Chemical")
    add(page, "hand", "torso", "c")
    add(page, "hand", "legs", "c")
    expect(page.locator("#tr-hand-cards details.playable")).to_have_count(2)
    expect(page.locator("#tr-steps li").first).to_contain_text("Play")
    expect(page.locator("#tr-lead")).to_contain_text("You lead")

    assert page.js_errors == []
    check_phone_sizes(page, shots, "two_robots_factory")
    page.emulate_media(color_scheme="light")
    page.set_viewport_size({"width": 390, "height": 844})

    torso = page.locator("#tr-hand-cards details", has_text="TORSO").first
    torso.locator("summary").click()
    with page.expect_response(lambda r: r.request.method == "POST" and r.ok, timeout=SLOW):
        torso.locator("button", has_text="Play on stack 1").click()
    expect(page.locator("#tr-hand-cards > li")).to_have_count(1)
    expect(page.locator("#tr-stacks .tr-stack").first.locator(".tr-tile")).to_have_count(3)
    with page.expect_response(lambda r: r.request.method == "POST" and r.ok, timeout=SLOW):
        page.locator("#tr-stacks .tr-stack").nth(1).locator("button", has_text="Freeze").click()
    expect(page.locator("#tr-stacks .tr-stack.frozen")).to_have_count(1)
    assert page.js_errors == []


def test_factory_page_alyssa_example_attack_on_the_table(page, live_url, shots):
    """Frozen Stacks, Alyssa example, at a table: Ben's lone Nuclear TORSO and Alyssa's own frozen
    Nuclear HEAD are the only Nuclear parts, so her marked Nuclear Explosion takes both, and the plan
    says so plainly; played from the hand, it takes them off both factories into the discard pile."""
    alyssa = {"stacks": [{"cards": [part("head", "nuclear")], "frozen": True},
                         {"cards": [part("arms", "chemical"), part("legs", "chemical")], "frozen": False},
                         {"cards": [part("head", "solar", "electrical")], "frozen": False}]}
    hand = [{"kind": "attack", "name": "Nuclear Explosion", "stacks_required": 3, "play": True},
            part("arms", "nuclear"), {"kind": "defense", "name": "Homing Missiles", "stacks_required": 2}]
    ben = {"stacks": [{"cards": [part("torso", "nuclear")]}, {"cards": [part("head", "mechanical")]}]}
    table = new_table(page, live_url, {"table": {"names": ["Alyssa", "Ben"]}, "two_robots": {"players": [alyssa, ben]}})
    take_seat(page, live_url, table, 0, "Alyssa")
    enter_hand(page, live_url, table, 0, hand)
    page.goto(f"{live_url}/two-robots/factory?table={table['id']}&seat=0")
    expect(page.locator("#tr-plan .notice.warn")).to_contain_text("your own HEAD (Nuclear)")
    expect(page.locator("#tr-hand-problems")).to_contain_text("ARMS (Nuclear) in your hand has no legal place")
    expect(page.locator("#tr-plan")).to_contain_text("Keep Homing Missiles: it is played out of turn")
    assert_phone_ready(page)
    page.locator("#tr-plan").screenshot(path=shots("two_robots_alyssa_plan"))
    nuke = page.locator("#tr-hand-cards details", has_text="Nuclear Explosion")
    nuke.locator("summary").click()
    expect(nuke).to_contain_text("your own HEAD (Nuclear) on stack 1")
    page.emulate_media(color_scheme="dark")
    page.locator("#tr-hand").screenshot(path=shots("two_robots_alyssa_hand_dark"))
    page.emulate_media(color_scheme="light")
    with page.expect_response(lambda r: r.request.method == "POST" and r.ok, timeout=SLOW):
        nuke.locator("button", has_text="Play it on the table").click()
    expect(page.locator("#tr-discard")).to_contain_text("TORSO Nuclear")
    state = page.request.get(f"{live_url}/api/tables/{table['id']}").json()["state"]["two_robots"]
    assert len(state["players"][0]["stacks"]) == 2 and len(state["players"][1]["stacks"]) == 1
    assert {c.get("part") or c.get("name") for c in state["discard"]} == {"head", "torso", "Nuclear Explosion"}
    assert [c.get("name") or c["part"] for c in hand_on(page, live_url, table, 0)] == ["arms", "Homing Missiles"]
    assert state["players"][0]["hand_count"] == 2
    assert page.js_errors == []


def test_two_phones_a_card_on_phone_b_changes_phone_as_odds(browser, browser_context_args, live_url, shots):
    """Every factory is on the table: Ben adds a TORSO (Mechanical) to his factory on his phone; on Ana's
    phone, open on her factory page and on her odds page, the cards that finish her Mechanical stack
    drop from 5 to 4 within 2 s, without a reload, and what Ana is typing stays. Ana's odds page is a
    second tab of her phone (a seat is one phone's)."""
    api = browser.new_context().request
    ana = {"stacks": [{"cards": [part("head", "mechanical"), part("arms", "mechanical"), part("legs", "mechanical")]}]}
    table = api.post(f"{live_url}/api/tables", data={"game": "two-robots", "players": 2}).json()
    api.put(f"{live_url}/api/tables/{table['id']}",
            data={"version": 1, "state": {"table": {"names": ["Ana", "Ben"]}, "two_robots": {"players": [ana, {}]}}})
    ctx_a, a = phone(browser, browser_context_args)
    odds = ctx_a.new_page()
    odds.navigations = []
    odds.on("framenavigated", lambda f: odds.navigations.append(f.url) if f == odds.main_frame else None)
    ctx_b, b = phone(browser, browser_context_args)
    take_seat(a, live_url, table, 0, "Ana")
    take_seat(b, live_url, table, 1, "Ben")
    a.goto(f"{live_url}/two-robots/factory?table={table['id']}&seat=0")
    odds.goto(f"{live_url}/two-robots/odds?table={table['id']}&seat=0")
    b.goto(f"{live_url}/two-robots/factory?table={table['id']}&seat=1")
    expect(odds.locator("#tr-odds-line")).to_contain_text("5 of 97 unseen cards")
    expect(a.locator("#tr-reasons, #tr-plan")).to_contain_text("5 of 97 unseen cards")
    a.locator("#tr-text summary").click()
    a.locator("#hand-text").click()
    a.keyboard.type("torso:m")   # Ana is typing when Ben's card arrives

    add(b, "new", "torso", "m")
    expect(odds.locator("#tr-odds-line")).to_contain_text("4 of 96 unseen cards", timeout=SLOW)
    expect(a.locator("#tr-plan")).to_contain_text("4 of 96 unseen cards", timeout=SLOW)
    expect(a.locator("#tr-standings")).to_contain_text("Ben")
    expect(a.locator("#live-cue")).to_contain_text("Updated from another phone")
    expect(a.locator("#hand-text")).to_have_value("torso:m")
    expect(a.locator("#hand-text")).to_be_focused()
    assert len(a.navigations) == 1 and len(odds.navigations) == 1
    assert_phone_ready(odds)
    odds.screenshot(path=shots("two_robots_odds_live"), full_page=True)
    for ctx in (ctx_a, ctx_b):
        ctx.close()


def test_odds_page_deck_and_wish(page, live_url, shots):
    """Draw Phase (three cards): the unseen cards are the deck minus the cards in sight; changing the
    deck's count of a card changes the answer, and the wish (kept on this phone) picks what counts."""
    ana = {"stacks": [{"cards": [part("head", "chemical", "solar"), part("arms", "chemical", "solar"),
                                 part("legs", "chemical", "solar")]}]}
    table = new_table(page, live_url, {"two_robots": {"players": [ana]}})
    take_seat(page, live_url, table, 0, "Ana")
    page.goto(f"{live_url}/two-robots/odds?table={table['id']}")
    expect(page.locator("#tr-odds-line")).to_contain_text("9 of 97 unseen cards")
    expect(page.locator("#tr-big")).to_have_attribute("title", "exactly 4713/18430")  # 1 - C(88,3)/C(97,3)
    page.select_option("#want", "attack")
    expect(page.locator("#tr-odds-line")).to_contain_text("19 of 97", timeout=SLOW)
    page.select_option("#want", "robot")
    expect(page.locator("#tr-odds-line")).to_contain_text("9 of 97", timeout=SLOW)
    cell = page.locator("input[name='deck.parts.49.count']")  # TORSO, Solar (the 5th core)
    assert page.locator("label[for='d-49']").text_content().strip() == "TORSO Solar"
    cell.fill("0")
    expect(page.locator("#tr-odds-line")).to_contain_text("8 of 96", timeout=SLOW)
    assert page.js_errors == []
    check_phone_sizes(page, shots, "two_robots_odds")


def test_an_energy_tapped_while_the_last_card_is_saved_stays_chosen(page, live_url):
    """A quick player taps the next card's energy before the answer to the last tap is back. The answer
    puts the energy used last first among the buttons; the energy tapped meanwhile stays the one chosen,
    so the next part is added with it (seen when a Chemical ARMS went in as Chemical/Solar)."""
    table = new_table(page, live_url)
    take_seat(page, live_url, table, 0, "Ana")   # version 2: the seat's name is the table's
    page.goto(f"{live_url}/two-robots/factory?table={table['id']}")
    held = []
    page.route("**/two-robots/factory*", lambda route: held.append(route) if route.request.method == "POST" else route.continue_())
    page.locator("#tr-picker label.tr-combo:has(input[value='cs'])").click()
    page.locator("button[name=do][value='add:new:head']").click()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    page.locator("#tr-picker label.tr-combo:has(input[value='c'])").click()   # while the save is under way
    held[0].continue_()
    expect(page.locator("body")).to_have_attribute("data-table-version", "3", timeout=SLOW)
    expect(page.locator("#tr-picker label.tr-combo").first).to_contain_text("Ch/So")  # used last, first
    expect(page.locator("#tr-picker input[value='c']")).to_be_checked()
    assert page.js_errors == []
