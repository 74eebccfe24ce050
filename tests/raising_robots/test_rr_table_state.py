"""A table's state is whatever the phones saved (review P1-2): every Raising Robots page kept with a table
answers (never a 5xx) whatever `state` holds, on a GET and when its own form is posted back with each
action. The review's states first, then random states built on the shapes the pages read, with odd leaves."""
from __future__ import annotations

import html
import re

import pytest
from flask import url_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

ACTIONS = ["", "apply", "deal", "round-end", "sides", "add-robot", "remove-robot:c1", "kept-0", "check",
           "record-search", "draw-other", "draw-mine", "return-aside", "use-design-1-3", "deck-all", "more", "example",
           "add-objective", "remove-objective:x", "add-player"]
REVIEW_STATES = [  # review P1-2 and the shapes next to them
    {"table": "x"}, {"table": {"names": 5}}, {"table": {"names": [None, 3, "  "], "round": "2"}},
    {"rr_score": 1}, {"rr_score": {"solo": [1]}}, {"rr_score": {"solo": {"threshold": True, "mode": 3}}},
    {"rr_players": 5}, {"rr_players": [True, 7, "x"]}, {"rr_players": [{"inventory": [], "robots": {}}]},
    {"rr_players": [{"robots": [5, {"row": "design", "column": "x", "vp": 99, "game_end": "a_grade", "id": 3}]}]},
    {"rr_players": [{"class_cards": [{"grade": "A", "vp_by_grade": {"A": "x"}, "thresholds": [1]}]}]},
    {"rr_competitions": [], "rr_search": "deck", "rr_round_end": {"seats": {"0": {"order": {"johannes-base": 99}}}}},
    {"rr_competitions": {"tracker": [{"round": 1}], "tiles": {"think_tank": {"A": {"resources": 10**30}}}}},
    {"rr_search": {"cells": {"design-4": {"count": -3}}, "known_bottom": [{"row": "any", "energy": 9}], "set_aside": 1}},
    # the one key the pages keep now, as odd as the older ones
    {"raising_robots": 5}, {"raising_robots": {"seats": [5, {"robots": [{"id": "a"}, {"row": "design", "id": "a"}]}]}},
    {"raising_robots": {"seats": [{"class_cards": [{"grade": "Z"}] * 5, "friendships": ["x" * 99, 3, None]}]}},
    {"raising_robots": {"search": {"cells": {"design-4": "x"}, "known_bottom": "D9 Q", "criteria": {"energy_min": 9}}}},
    {"raising_robots": {"competitions": {"tiles": {"think_tank": {"A": None}}, "card_values": {"race-energy-costs": "x"},
                                         "values": {"gear": "1/0"}}}, "rr_players": [{"inventory": {"gear": 3}}]},
]

odd = (st.none() | st.booleans() | st.integers(-3, 30) | st.just(10**30) | st.just(2.5)
       | st.sampled_from(["", "3", "design", "A", "pink", "resource_pairs", "x"]) | st.just({}) | st.just([]))


def maybe(strategy):
    return odd | strategy


def some(**fields):
    return st.fixed_dictionaries({}, optional=fields)


robot = some(row=maybe(st.sampled_from(["design", "fabricate", "recycle"])), column=odd, vp=odd, upgraded=odd,
             id=odd, cost_energy=maybe(st.lists(odd, max_size=3)), basic_energy=odd,
             game_end=maybe(some(kind=maybe(st.sampled_from(["resource_pairs", "a_grade"])), resource=odd)))
card = some(grade=maybe(st.sampled_from(["none", "D", "A"])), vp_by_grade=maybe(st.dictionaries(
    st.sampled_from(["D", "A", "Z"]), odd, max_size=2)), thresholds=odd, template=odd, count=odd)
seat = some(inventory=maybe(st.dictionaries(st.sampled_from(["sensor", "vp", "battery", "x"]), odd, max_size=3)),
            robots=maybe(st.lists(maybe(robot), max_size=3)), class_cards=maybe(st.lists(maybe(card), max_size=2)),
            tokens=maybe(st.dictionaries(st.sampled_from(["unplaced", "placed"]), maybe(st.dictionaries(
                st.sampled_from(["pink", "blue"]), odd)))), friendships=odd, completed=odd, competitions_completed=odd)
competitions = some(cards=maybe(st.dictionaries(st.sampled_from(["engineering_expo", "think_tank"]), maybe(
    st.sampled_from(["expo-5-of-two", "think-3-same-type"])))), sides=odd, tiles=odd, card_values=odd, values=odd,
    tracker=maybe(st.lists(maybe(some(round=odd, token_type=maybe(st.just("pink")))), max_size=3)),
    marker=odd, completed_this_round=odd, completed_round=odd)
search = some(cells=maybe(st.dictionaries(st.sampled_from(["design-4", "any-2", "x"]), maybe(some(count=odd,
              wanted=odd)))), deck_size=odd, known_bottom=maybe(st.lists(maybe(some(row=odd, energy=odd)), max_size=2)),
              criteria=maybe(some(row=odd, energy_min=odd, energy_max=odd)), set_aside=odd)
states = some(table=maybe(some(names=maybe(st.lists(odd, max_size=3)), round=odd)),
              rr_players=maybe(st.lists(maybe(seat), max_size=3)), rr_competitions=maybe(competitions),
              rr_search=maybe(search), rr_score=maybe(some(solo=maybe(some(threshold=odd, mode=odd)))),
              rr_round_end=maybe(some(seats=maybe(st.dictionaries(st.sampled_from(["0", "1"]), maybe(
                  some(order=odd, ch_action=odd, co=odd)))))),
              raising_robots=maybe(some(seats=maybe(st.lists(maybe(seat), max_size=3)), competitions=maybe(competitions),
                                        search=maybe(search), solo=maybe(some(threshold=odd, mode=odd)))))

FIELD = re.compile(r"<(?:input|select|textarea)\b([^>]*)>", re.S)
ATTR = re.compile(r'([\w-]+)="([^"]*)"')


def form_fields(page: str) -> list[tuple[str, str]]:
    """What the page's forms post back when nothing is touched (checked boxes, every named field)."""
    out = []
    for attrs in FIELD.findall(page):
        a = dict(ATTR.findall(attrs))
        if "name" in a and not (a.get("type") in ("checkbox", "radio") and " checked" not in attrs):
            out.append((html.unescape(a["name"]), html.unescape(a.get("value", ""))))
    return out


def rr_pages(app) -> list[str]:
    with app.test_request_context():
        return [url_for(t["endpoint"]) for t in app.extensions["tablebot_tools"]["raising-robots"]]


def visit_all(app, client, state: dict, players: int, seat: int, action: str) -> None:
    t = client.post("/api/tables", json={"game": "raising-robots", "players": players}).get_json()
    assert client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": state}).status_code == 200
    for url in rr_pages(app):
        got = client.get(f"{url}?table={t['id']}&seat={seat}")
        assert got.status_code == 200, (url, state, got.get_data(as_text=True)[-300:])
        posted = client.post(f"{url}?table={t['id']}", data=MultiDict(
            [*form_fields(got.get_data(as_text=True)), ("do", action)]))
        assert posted.status_code < 500, (url, action, state, posted.get_data(as_text=True)[-300:])


@pytest.mark.parametrize("state", REVIEW_STATES)
def test_the_reviews_states_leave_every_page_working(app, client, state):
    for action in ("", "apply"):
        visit_all(app, client, state, 2, 1, action)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(state=states, players=st.integers(1, 4), seat=st.integers(0, 3), action=st.sampled_from(ACTIONS))
def test_any_table_state_leaves_every_page_working(app, client, state, players, seat, action):
    visit_all(app, client, state, players, seat, action)
