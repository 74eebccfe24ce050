"""Round end with the seat's own abilities already in order (issue 22): with no order set, the inventor's
base part, its upgraded part, then Temple are numbered 1, 2, 3 (Friendships: the player may reorder them).
The Johannes example gives the rulebook's answer with no numbering typed."""
from __future__ import annotations

from assistant.raising_robots.schemas import Seat


def test_own_parts_come_in_order():
    seat = Seat.model_validate({"inventor": {"name": "Johannes", "upgraded": True}, "friendships": ["Temple", ""]})
    assert seat.round_end.ordered() == [("johannes", "base"), ("johannes", "upgrade"), ("temple_friendship", "base")]
    assert Seat.model_validate({"inventor": {"name": "Charlotte"}}).round_end.ordered() == [("charlotte", "base")]
    assert Seat.model_validate({"inventor": {"name": "Susan"}}).round_end.ordered() == []


def test_an_order_set_by_the_player_stands():
    seat = Seat.model_validate({"inventor": {"name": "Johannes", "upgraded": True},
                                "round_end": {"order": {"johannes-upgrade": 1, "johannes-base": 2}}})
    assert seat.round_end.ordered() == [("johannes", "upgrade"), ("johannes", "base")]


def test_johannes_example_on_the_page_with_no_numbers_typed(client, new_table):
    """Johannes example: 10 batteries, 7 microchips, 5 sensors -> +1 of each, then +2 VP, and Done makes it
    the seat's inventory; the next round's order is there again."""
    t = new_table("raising-robots", 2, {"raising_robots": {"seats": [
        {"inventor": {"name": "Johannes", "upgraded": True}, "inventory": {"battery": 10, "microchip": 7, "sensor": 5}}]}})
    html = client.get(f"/raising-robots/round-end?table={t['id']}&seat=0").get_data(as_text=True)
    assert "+1 battery" in html and "+2 vp" in html
    v = client.get(f"/api/tables/{t['id']}").get_json()["version"]
    r = client.post(f"/raising-robots/round-end?table={t['id']}&seat=0",
                    data={"table": t["id"], "version": str(v), "do": "apply"})
    assert r.status_code == 200
    seat = client.get(f"/api/tables/{t['id']}").get_json()["state"]["raising_robots"]["seats"][0]
    assert (seat["inventory"]["battery"], seat["inventory"]["microchip"], seat["inventory"]["vp"]) == (11, 8, 2)
    assert seat["round_end"]["order"]["johannes-base"] == 1
