"""Seats for the Two Robots tests: one Flask test client is one phone (it keeps its session cookie, so
after `claim` it is that seat on every page and API call); a seat's hand is its private state, set and
read by its holder only (api.md, "Additions of round 3")."""
from __future__ import annotations

from typing import Any


def table_id(table: dict | str) -> str:
    return table if isinstance(table, str) else table["id"]


def current_version(client, table: dict | str) -> int:
    return client.get(f"/api/tables/{table_id(table)}").get_json()["version"]


def _track(table: dict | str, version: int) -> None:
    if isinstance(table, dict):
        table["version"] = version


def claim(client, table: dict | str, seat: int, name: str, take_over: bool = False) -> dict:
    """This phone takes seat `seat` as `name` (a new table version: the name is the table's)."""
    body: dict[str, Any] = {"name": name}
    if take_over:
        body["take_over"] = True
    r = client.post(f"/api/tables/{table_id(table)}/seats/{seat}", json=body)
    assert r.status_code == 200, r.get_json()
    got = r.get_json()
    assert got["seat"] == seat
    _track(table, got["version"])
    return got


def set_hand(client, table: dict | str, seat: int, hand: list[dict] = (), drawn: list[dict] = (),
             recent: list[str] = ()) -> int:
    """The holder of `seat` (this phone) puts its hand (and draw, recent energies): its private state."""
    v = current_version(client, table)
    r = client.put(f"/api/tables/{table_id(table)}/seats/{seat}/private",
                   json={"version": v, "state": {"hand": list(hand), "drawn": list(drawn), "recent": list(recent)}})
    assert r.status_code == 200, r.get_json()
    _track(table, r.get_json()["version"])
    return r.get_json()["version"]


def private(client, table: dict | str, seat: int) -> dict:
    """The seat's private state as its holder (this phone) reads it."""
    r = client.get(f"/api/tables/{table_id(table)}/seats/{seat}/private")
    assert r.status_code == 200, r.get_json()
    return r.get_json()["state"]


def phone_with_seat(app, table: dict | str, seat: int, name: str, hand: list[dict] = ()):
    """A new phone (test client) holding `seat` as `name`, with `hand` entered on it."""
    phone = app.test_client()
    claim(phone, table, seat, name)
    if hand:
        set_hand(phone, table, seat, hand)
    return phone


# ---- in Chromium: a browser context is a phone (page.request shares its cookies) ------------------------

def take_seat(page, live_url: str, table: dict | str, seat: int, name: str) -> dict:
    """The phone `page` belongs to takes `seat` as `name` (through the API: the seat picker's own test
    is test_two_robots_seats_browser.py)."""
    r = page.request.post(f"{live_url}/api/tables/{table_id(table)}/seats/{seat}", data={"name": name})
    assert r.ok, r.text()
    _track(table, r.json()["version"])
    return r.json()


def enter_hand(page, live_url: str, table: dict | str, seat: int, hand: list[dict]) -> None:
    """The holder's phone puts its hand (its seat's private state)."""
    v = page.request.get(f"{live_url}/api/tables/{table_id(table)}").json()["version"]
    r = page.request.put(f"{live_url}/api/tables/{table_id(table)}/seats/{seat}/private",
                         data={"version": v, "state": {"hand": hand}})
    assert r.ok, r.text()
    _track(table, r.json()["version"])


def hand_on(page, live_url: str, table: dict | str, seat: int) -> list[dict]:
    r = page.request.get(f"{live_url}/api/tables/{table_id(table)}/seats/{seat}/private")
    assert r.ok, r.text()
    return r.json()["state"]["hand"]
