"""Cards with their effects and a seat's secret cards on the board page, in Chromium at 390x844 and 320 px
(facts §5: Sabotage and Upgrade cards; rulebook "Character Abilities": A1-5's card from setup, Electric
Eye's peek). Two phones on one table: Ann (A1-5, seat 0) enters a played Sabotage card that sets the black
die, and the best turn's answer lists it as counted; she keeps her setup card, which Bo's phone (Electric
Eye, seat 1) never shows, and Bo keeps his peek, which Ann's never shows."""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
STATE = {"table": {"names": ["Ann", "Bo", "Cy"]},
         "robotariat": {"state": {"players": [{"at": "sy", "character": "a1_5"}, {"at": "sb1", "character": "electric_eye"},
                                              {"at": "p2"}], "oppressors": ["p1"], "civilians": ["p3"], "round": 2,
                                  "funds": 10}}}
SECRET_CARD = "Hidden Gear 5"
PEEK = "Quiet Lynx 2"


def phone(browser, browser_context_args, live_url, tid: str, seat: int, name: str):
    p = browser.new_context(**browser_context_args).new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    r = p.request.post(f"{live_url}/api/tables/{tid}/seats/{seat}", data={"name": name})
    assert r.ok, r.text()
    p.goto(f"{live_url}/robotariat/?table={tid}")
    p.errors = errors
    return p


def submit(page, button: str) -> None:
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator(button).click()


def test_cards_with_effects_and_secret_cards(browser, browser_context_args, live_url, shots):
    made = browser.new_context(**browser_context_args).new_page()
    tid = made.request.post(f"{live_url}/api/tables", data={"game": "robotariat", "players": 3}).json()["id"]
    assert made.request.put(f"{live_url}/api/tables/{tid}", data={"version": 1, "state": STATE}).ok
    ann = phone(browser, browser_context_args, live_url, tid, 0, "Ann")
    bo = phone(browser, browser_context_args, live_url, tid, 1, "Bo")

    # Ann enters a played Sabotage card that sets the black die for her NPC turn
    ann.locator("#rb-tools > summary").click()
    form = ann.locator("#card-form")
    form.locator("#card-seat").select_option("0")
    form.locator("#card-deck").select_option("sabotage")
    form.locator("#card-name").fill("Jam Signal")
    form.locator("input[name=played][type=checkbox]").check()
    form.locator("#card-new-kind").select_option("roll")
    form.locator("#card-new-when").select_option("next_npc_turn")
    form.locator("summary", has_text="Piece, die, amount").click()
    form.locator("#card-new-die").select_option("black")
    form.locator("#card-new-face").select_option("blue_arrow")
    assert_phone_ready(ann)
    submit(ann, "#card-form button[value=add_card]")
    expect(ann.locator("#card-list")).to_contain_text("the black die shows a blue arrow, at the NPC turn")
    expect(ann.locator("#sg-cards-counted")).to_contain_text("Counted: Sabotage card “Jam Signal” (Ann)")
    expect(ann.locator("#npc-cards-counted")).to_contain_text("Jam Signal")
    # the NPC turn's rolls now all show the blue arrow on the black die
    for text in ann.locator("#npc-outcomes button").all_inner_texts():
        assert text.startswith("blue arrow /"), text
    ann.screenshot(path=shots("rb_cards_390"), full_page=True)

    # her setup card, on her phone only
    secret = ann.locator("#setup-card-form")
    secret.locator("#setup-card-name").fill(SECRET_CARD)
    secret.locator("#setup-card-kind").select_option("donation")
    secret.locator("#setup-card-when").select_option("round_start")
    secret.locator("summary", has_text="Piece, die, amount").click()
    secret.locator("#setup-card-amount").fill("2")
    assert_phone_ready(ann)
    submit(ann, "#setup-card-form button[value=setup_card]")
    expect(ann.locator("#setup-card-now")).to_contain_text(SECRET_CARD)
    expect(ann.locator("#sg-cards-counted")).to_contain_text(SECRET_CARD)

    ann.set_viewport_size({"width": 320, "height": 700})
    ann.emulate_media(color_scheme="dark")
    assert_phone_ready(ann)
    ann.screenshot(path=shots("rb_cards_320_dark"), full_page=True)
    ann.locator("#cards").screenshot(path=shots("rb_cards_section_320_dark"))
    ann.locator("#rb-secret").screenshot(path=shots("rb_secret_card_320_dark"))

    # Bo's phone follows the table: the public card, not Ann's secret; his own peek form
    expect(bo.locator("#card-list")).to_contain_text("Jam Signal", timeout=5000)
    assert SECRET_CARD not in bo.content()
    assert bo.locator("#setup-card-form").count() == 0
    bo.locator("#peek-0").fill(PEEK)
    assert_phone_ready(bo)
    submit(bo, "#peek-form button[value=peek]")
    expect(bo.locator("#peek-0")).to_have_value(PEEK)
    bo.set_viewport_size({"width": 320, "height": 700})
    assert_phone_ready(bo)
    ann.wait_for_timeout(2500)  # Ann's page follows the table's new version
    assert PEEK not in ann.content() and SECRET_CARD not in bo.content()
    ann.reload()
    assert PEEK not in ann.content()

    # Ann shows her setup card to the table: Bo's phone lists it and counts it
    assert_phone_ready(ann)
    submit(ann, "#show-setup-card-form button[value=show_setup_card]")
    expect(ann.locator("#setup-card-shown")).to_be_visible()
    expect(bo.locator("#card-list")).to_contain_text(SECRET_CARD, timeout=5000)
    expect(bo.locator("#card-list")).to_contain_text("from setup")
    expect(bo.locator("#sg-cards-counted")).to_contain_text(SECRET_CARD)
    assert_phone_ready(bo)
    assert not ann.errors and not bo.errors
