"""Issue 22: on a 390x844 phone the home page shows "Start table" without scrolling (the table is what a
group opens first; the games' hubs follow below)."""
from __future__ import annotations

import pytest
from browser_checks import assert_phone_ready

pytestmark = pytest.mark.browser


def test_start_table_above_the_fold(page, live_url):
    page.goto(live_url + "/")
    box = page.get_by_role("button", name="Start table").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844
    assert_phone_ready(page)
