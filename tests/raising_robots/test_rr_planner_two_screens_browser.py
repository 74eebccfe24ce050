"""Issue 22: at 390x844 the planner opens on the plan and the seat's numbers: for a phone holding its seat,
the plan with its "Done" button ends within two screens and the inventory starts within them (each step's
reasons and each competition's state are a tap away, in folds)."""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready

pytestmark = pytest.mark.browser
SCREEN = 844
CARDS = {"engineering_expo": "expo-9-of-one", "mech_masters": "mech-13-batteries",
         "think_tank": "think-3-same-type", "robo_race": "race-same-row"}


def test_plan_within_two_screens(page, live_url, new_live_table, shots):
    t = new_live_table("raising-robots", 2, {"rr_competitions": {"cards": CARDS},
                                             "rr_players": [{"inventory": {"battery": 14, "sensor": 9, "gear": 3}}]})
    page.goto(f"{live_url}/")
    assert page.request.post(f"{live_url}/api/tables/{t['id']}/seats/0", data={"name": "Ana"}).ok
    page.goto(f"{live_url}/raising-robots/competitions?table={t['id']}")
    assert page.locator("#rrc-result .step-head").count() == 2  # Engineering Expo, then Mech Masters
    done = page.locator("#rrc-apply").bounding_box()
    inventory = page.locator("#inv-h").bounding_box()
    assert done["y"] + done["height"] <= 2 * SCREEN, done
    assert inventory["y"] <= 2 * SCREEN, inventory
    page.click("#rrc-why-0 summary")  # the reasons are a tap away
    assert page.locator("#rrc-why-0 .reasons li").first.is_visible()
    assert_phone_ready(page)
    page.screenshot(path=shots("rr-planner-two-screens"), full_page=True)
