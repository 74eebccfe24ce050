"""Two Robots pages in real Chromium at phone size: one flow per page, screenshots at 390 and 320 px and dark."""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
SLOW = 15_000  # ms: the answers under a full test run on two cores (Playwright's default is 5 s)


def seat_of(table_json: dict, seat: int) -> dict:
    players = table_json["state"].get("two_robots", {}).get("players", [])
    return players[seat] if seat < len(players) else {}


def first_stack_size(table_json: dict) -> int:
    stacks = seat_of(table_json, 0).get("stacks") or [{}]
    return len(stacks[0].get("cards", []))


def add_part(page, where_button, part: str, *energies: str) -> None:
    where_button.click()
    dialog = page.locator("#tr-picker")
    dialog.locator(f"#tr-parts [data-part={part}]").click()
    for e in energies:
        dialog.locator(f"[data-energy={e}]").click()
    dialog.locator("#tr-pick-add").click()


def test_factory_page_liz_example_and_plan(page, live_url, shots):
    """Liz example on screen: a Chemical stack, then a Chemical/Solar card started as a new stack is Solar;
    the hand shows where each card may go and the plan lists numbered steps."""
    page.goto(f"{live_url}/two-robots/factory")
    expect(page.locator("#tr-form.js")).to_be_visible()
    add_part(page, page.locator("#tr-stacks .tr-stack.new .tr-add"), "head", "chemical", "solar")
    expect(page.locator("#tr-stacks .tr-stack:not(.new)")).to_have_count(1)
    add_part(page, page.locator("#tr-stacks .tr-stack").first.locator(".tr-add"), "arms", "chemical")
    expect(page.locator("#tr-stacks .tr-energy").first).to_have_attribute("title", "Chemical")
    add_part(page, page.locator("#tr-stacks .tr-stack.new .tr-add"), "legs", "chemical", "solar")
    expect(page.locator("#tr-stacks .tr-energy").nth(1)).to_have_attribute("title", "Solar")
    expect(page.locator("#tr-whys li").nth(1)).to_contain_text("stack 1 is Chemical")

    # the hand, entered in one go with "Add + next": a TORSO that fits stack 1 and a Chemical LEGS
    page.locator("#tr-hand .tr-chip.add").click()
    dialog = page.locator("#tr-picker")
    for part in ("torso", "legs"):
        dialog.locator(f"#tr-parts [data-part={part}]").click()
        dialog.locator("[data-energy=chemical]").click()
        dialog.locator("#tr-pick-more").click()
        expect(dialog.locator("#tr-pick-done")).to_contain_text(f"Added {part.upper()} Chemical")
    dialog.locator("#tr-pick-cancel").click()
    expect(page.locator("#tr-hand .tr-chip.playable")).to_have_count(2)
    expect(page.locator("#tr-steps li").first).to_contain_text("Play")
    expect(page.locator("#tr-hand-problems")).to_be_hidden()

    # a new stack takes no Attack card: the kind choice only shows for the hand
    page.locator("#tr-stacks .tr-stack.new .tr-add").click()
    expect(dialog.locator("#tr-kind")).to_be_hidden()
    dialog.locator("#tr-pick-cancel").click()

    # duplicates lie sideways; a stack is frozen from its menu (tap its energy) and is iced
    add_part(page, page.locator("#tr-stacks .tr-stack").first.locator(".tr-add"), "arms", "chemical", "solar")
    expect(page.locator("#tr-stacks .tr-tile.dup")).to_have_count(1)
    page.locator("#tr-stacks .tr-stack").nth(1).locator(".tr-head").click()
    page.locator("#tr-menu .btn", has_text="Freeze it").click()
    expect(page.locator("#tr-stacks .tr-stack.frozen")).to_have_count(1)

    assert page.js_errors == []
    assert_phone_ready(page)
    page.screenshot(path=shots("two_robots_factory_390"), full_page=True)
    sections = page.locator("#tr-form > section")
    sections.nth(0).screenshot(path=shots("two_robots_factory_390_stacks"))
    sections.nth(2).screenshot(path=shots("two_robots_factory_390_plan"))
    page.set_viewport_size({"width": 320, "height": 700})
    assert_phone_ready(page)
    page.screenshot(path=shots("two_robots_factory_320"), full_page=True)
    sections.nth(0).screenshot(path=shots("two_robots_factory_320_stacks"))
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=shots("two_robots_factory_dark"), full_page=True)
    sections.nth(0).screenshot(path=shots("two_robots_factory_dark_stacks"))
    sections.nth(1).screenshot(path=shots("two_robots_factory_dark_hand"))
    page.locator("#tr-hand .tr-chip.add").click()
    page.locator("#tr-picker").screenshot(path=shots("two_robots_picker_dark"))
    page.locator("#tr-pick-cancel").click()
    page.emulate_media(color_scheme="light")

    # tapping a hand card offers its legal places; playing it moves it into the factory
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#tr-hand .tr-chip.playable").first.click()
    page.locator("#tr-menu .btn.primary").first.click()
    expect(page.locator("#tr-hand .tr-chip:not(.add)")).to_have_count(1)
    assert page.js_errors == []


def test_factory_page_alyssa_example_problems_and_power(page, live_url, shots):
    """Frozen Stacks, Alyssa example, kept with the table: her frozen Nuclear stack still counts, so
    Nuclear Explosion (3 stacks) is played; a Nuclear ARMS in hand has no place and a card needing four
    stacks is out of reach, each said in one sentence; with option A the plan pays two parts."""
    r = page.request.post(f"{live_url}/api/tables", data={"game": "two-robots", "players": 2})
    table = r.json()

    def part(p: str, *es: str) -> dict:
        return {"kind": "part", "part": p, "energies": list(es)}
    alyssa = {"stacks": [{"cards": [part("head", "nuclear"), part("legs", "electrical", "nuclear")], "frozen": True},
                         {"cards": [part("arms", "solar"), part("head", "mechanical", "solar")], "frozen": False},
                         {"cards": [part("torso", "chemical")], "frozen": False}],
              "hand": [{"kind": "attack", "name": "Nuclear Explosion", "stacks_required": 3, "play": True},
                       part("legs", "solar"), part("arms", "nuclear"),
                       {"kind": "defense", "name": "Homing Missiles", "stacks_required": 4, "play": False}],
              "event": "none", "actions": 3, "powers_left": 2}
    state = dict(table["state"], two_robots={"players": [{}, alyssa]})
    assert page.request.put(f"{live_url}/api/tables/{table['id']}",
                            data={"version": table["version"], "state": state}).ok
    page.goto(f"{live_url}/two-robots/factory?table={table['id']}&seat=1")
    expect(page.locator("#tr-steps li").first).to_be_visible()
    problems = page.locator("#tr-hand-problems li")
    expect(problems).to_have_count(2)
    expect(problems.first).to_have_text("ARMS (Nuclear) in your hand has no legal place: stack 1 is frozen; "
                                        "a new stack would need Nuclear, which stack 1 holds.")
    expect(page.locator("#tr-steps")).to_contain_text("Play Nuclear Explosion")
    page.locator(".tr-opt", has_text="A: Power").click()
    expect(page.locator("#tr-steps li.event")).to_have_count(2)
    assert page.js_errors == []
    assert_phone_ready(page)
    page.screenshot(path=shots("two_robots_alyssa_390_first"))
    page.locator("#tr-form > section").nth(2).screenshot(path=shots("two_robots_alyssa_390_plan"))
    page.set_viewport_size({"width": 320, "height": 640})
    assert_phone_ready(page)
    page.screenshot(path=shots("two_robots_alyssa_320_first"))
    page.emulate_media(color_scheme="dark")
    page.locator("#tr-form > section").nth(1).screenshot(path=shots("two_robots_alyssa_dark_hand"))
    page.emulate_media(color_scheme="light")


def test_odds_page_kept_with_the_table(page, live_url, shots):
    """Draw Phase (three cards): the factory entered on the factory page is kept with the table, and the
    odds page gives the exact chance that the next three cards finish the robot."""
    r = page.request.post(f"{live_url}/api/tables", data={"game": "two-robots", "players": 2})
    table = r.json()["id"]
    page.goto(f"{live_url}/two-robots/factory?table={table}")
    expect(page.locator("[data-table-status]")).to_contain_text("Kept with table", timeout=SLOW)
    add_part(page, page.locator("#tr-stacks .tr-stack.new .tr-add"), "head", "chemical", "solar")
    stack = page.locator("#tr-stacks .tr-stack").first
    add_part(page, stack.locator(".tr-add"), "arms", "chemical", "solar")
    # the saves are debounced: wait for the one that holds the third card, not for any "Saved"
    with page.expect_response(lambda res: res.request.method == "PUT" and res.ok and
                              first_stack_size(res.json()) == 3, timeout=SLOW):
        add_part(page, stack.locator(".tr-add"), "legs", "chemical", "solar")
    expect(page.locator("#tr-stacks .tr-tile")).to_have_count(3)

    page.goto(f"{live_url}/two-robots/odds?table={table}")
    expect(page.locator("#tr-odds.js")).to_be_visible()
    # TORSO with Chemical or Solar: 9 of the 97 unseen cards (default deck minus the three in the factory)
    expect(page.locator("#tr-odds-result")).to_contain_text("9 of 97 unseen cards", timeout=SLOW)
    first = page.locator("#tr-odds-result .tr-big")
    expect(first).to_have_attribute("title", "exactly 4713/18430")  # 1 - C(88,3)/C(97,3)
    page.select_option("#want", "attack")
    expect(page.locator("#tr-odds-result")).to_contain_text("19 of 97", timeout=SLOW)
    page.select_option("#want", "robot")
    expect(page.locator("#tr-odds-result")).to_contain_text("9 of 97", timeout=SLOW)
    page.locator("#tr-deck input[name='u-torso:s']").fill("0")
    expect(page.locator("#tr-odds-result")).to_contain_text("8 of 96", timeout=SLOW)

    assert page.js_errors == []
    assert_phone_ready(page)
    page.screenshot(path=shots("two_robots_odds_390"), full_page=True)
    page.locator("#tr-odds > section").nth(0).screenshot(path=shots("two_robots_odds_390_result"))
    page.set_viewport_size({"width": 320, "height": 700})
    assert_phone_ready(page)
    page.locator("#tr-odds > section").nth(2).screenshot(path=shots("two_robots_odds_320_deck"))
    page.emulate_media(color_scheme="dark")
    page.locator("#tr-odds > section").nth(0).screenshot(path=shots("two_robots_odds_dark_result"))
    page.screenshot(path=shots("two_robots_odds_dark"), full_page=True)


def test_two_phones_keep_each_others_changes(page, context, live_url):
    """Three phones read the table at one version: seat 1's factory on two of them, seat 2's on the
    third. Each saves a different change (a card into seat 1's hand; seat 1's Event option; seat 2's
    stack frozen); the later saves are applied again on the newer table, and all three changes stay."""
    table = page.request.post(f"{live_url}/api/tables", data={"game": "two-robots", "players": 2}).json()

    def part(p: str, *es: str) -> dict:
        return {"kind": "part", "part": p, "energies": list(es)}
    state = {"two_robots": {"players": [{"stacks": [{"cards": [part("head", "chemical")], "frozen": False}]},
                                        {"stacks": [{"cards": [part("arms", "solar")], "frozen": False}]}]}}
    assert page.request.put(f"{live_url}/api/tables/{table['id']}",
                            data={"version": table["version"], "state": state}).ok
    other, third = context.new_page(), context.new_page()
    crashes: list[str] = []
    for p in (other, third):
        p.on("pageerror", lambda e: crashes.append(str(e)))
    for p, seat in ((page, 0), (other, 0), (third, 1)):
        p.goto(f"{live_url}/two-robots/factory?table={table['id']}&seat={seat}")
        expect(p.locator("[data-table-status]")).to_contain_text("Kept with table", timeout=SLOW)
        expect(p.locator("#tr-stacks .tr-tile")).to_have_count(1)

    page.bring_to_front()  # a tab in the background runs its timers late (the save is debounced)
    page.locator("#tr-hand .tr-chip.add").click()
    page.locator("#tr-picker #tr-parts [data-part=legs]").click()
    page.locator("#tr-picker [data-energy=chemical]").click()
    page.locator("#tr-pick-add").click()
    expect(page.locator("[data-table-status]")).to_contain_text("Saved with table", timeout=SLOW)

    other.bring_to_front()
    other.locator(".tr-opt", has_text="A: Power").click()  # this phone has not seen the card added to the hand
    expect(other.locator("[data-table-status]")).to_contain_text("Saved with table", timeout=SLOW)
    third.bring_to_front()
    third.locator("#tr-stacks .tr-stack").first.locator(".tr-head").click()
    third.locator("#tr-menu .btn", has_text="Freeze it").click()
    expect(third.locator("[data-table-status]")).to_contain_text("Saved with table", timeout=SLOW)

    players = page.request.get(f"{live_url}/api/tables/{table['id']}").json()["state"]["two_robots"]["players"]
    assert players[0]["hand"] == [part("legs", "chemical")] and players[0]["event"] == "power"
    assert players[0]["stacks"] == [{"cards": [part("head", "chemical")], "frozen": False}]
    assert players[1]["stacks"] == [{"cards": [part("arms", "solar")], "frozen": True}]
    assert "part_names" not in page.request.get(f"{live_url}/api/tables/{table['id']}").json()["state"]["two_robots"]
    assert not crashes and page.js_errors == []
