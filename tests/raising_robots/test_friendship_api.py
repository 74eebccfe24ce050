"""The Friendship deck at a table through the API and the page (assistant/raising_robots/friendship.py):
setup with the Pets setting (Changes to Setup, step 4), a draw kept on the drawer's phone only (rule entry
rr-reading-friendship-discard), keep, the cap (Friendships), each phone's odds, and 400s naming the field."""
from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

DRAWN = ["albert", "charles", "temple"]


def _exact(p: dict) -> Fraction:
    return Fraction(p["exact"])


@pytest.fixture
def phones(app, new_table):
    """A two-seat table and two phones, each holding its seat."""
    table = new_table("raising-robots", 2, {"raising_robots": {"seats": [{"inventor": {"name": "Johannes"}},
                                                                         {"inventor": {"name": "Ada"}}]}})
    a, b = app.test_client(), app.test_client()
    for n, c in enumerate((a, b)):
        r = c.post(f"/api/tables/{table['id']}/seats/{n}", json={"name": "Ann" if n == 0 else "Bo"})
        assert r.status_code == 200, r.get_json()
    return table["id"], a, b


def _version(client, tid: str) -> int:
    return client.get(f"/api/tables/{tid}").get_json()["version"]


def act(client, tid: str, action: dict, version: int | None = None):
    return client.post(f"/api/raising-robots/tables/{tid}/friendship",
                       json={"version": version or _version(client, tid), "action": action})


def _public_friendship(client, tid: str) -> dict:
    part = client.get(f"/api/tables/{tid}").get_json()["state"]["raising_robots"]["friendship"]
    # the card list names every card of the box: what a phone must not learn is where the drawn ones went
    return {k: v for k, v in part.items() if k not in ("cards", "deck_cards")}


def test_competitions_setup_takes_pets_and_answers_the_deck_changes_to_setup(client):
    r = client.post("/api/raising-robots/competitions/setup", json={"players": 3, "pets": True,
                                                                     "inventors": ["Temple", "Susan"]})
    assert r.status_code == 200, r.get_json()
    deck = r.get_json()["friendship"]
    assert deck["pets"] is True and deck["size"] == 24
    assert {x["card"] for x in deck["removed"]} == {"temple", "susan"}
    bad = client.post("/api/raising-robots/competitions/setup", json={"players": 3, "pets": "maybe"})
    assert bad.status_code == 400 and bad.get_json()["error"]["fields"][0]["path"] == "pets"


def test_setup_builds_the_deck_without_the_inventors_in_play(phones):
    tid, a, b = phones
    r = act(b, tid, {"type": "setup", "pets": False})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["friendship"]["deck"] == 24  # 26 less Johannes and Ada, the inventors in play
    part = a.get(f"/api/tables/{tid}").get_json()["state"]["raising_robots"]["friendship"]
    assert part["built"] and "ada" not in part["deck_cards"] and "johannes" not in part["deck_cards"]


def test_a_draw_stays_on_the_drawers_phone_and_the_kept_card_is_public(phones):
    tid, a, b = phones
    act(a, tid, {"type": "setup"})
    r = act(a, tid, {"type": "draw", "seat": 0, "count": 3, "cards": DRAWN})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["friendship"]["pending"] == {"0": 3}
    public = json.dumps(_public_friendship(b, tid))
    assert not any(c in public for c in DRAWN)
    assert b.get(f"/api/tables/{tid}/seats/0/private").status_code == 403
    mine = a.get(f"/api/tables/{tid}/seats/0/private").get_json()["state"]["friendship"]
    assert mine == {"draws": [DRAWN]}
    # the other phone cannot enter (or see) seat 0's cards
    assert act(b, tid, {"type": "keep", "seat": 0, "card": "albert"}).status_code == 403
    r = act(a, tid, {"type": "keep", "seat": 0, "card": "temple"})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["friendship"]["kept"] == {"0": ["Temple"]}
    assert r.get_json()["friendship"]["discard"] == 2
    public = json.dumps(_public_friendship(b, tid))
    assert "temple" in public and "albert" not in public and "charles" not in public
    for v in b.get(f"/api/tables/{tid}/history?limit=100").get_json()["versions"]:
        part = dict(v["state"].get("raising_robots", {}).get("friendship", {}))
        part.pop("cards", None), part.pop("deck_cards", None)
        rest = {k: x for k, x in v["state"].items() if k != "raising_robots"}
        assert "albert" not in json.dumps([part, rest]) and "charles" not in json.dumps([part, rest])
    # the kept card joins the seat's Friendship cards, which the planner and the round end read
    seat = a.get(f"/api/tables/{tid}").get_json()["state"]["raising_robots"]["seats"][0]
    assert "Temple" in seat["friendships"]
    # the drawer knows where Albert went; the other phone does not (Completion Rewards, rr-reading-friendship-discard)
    odds_a = a.post("/api/raising-robots/friendship/odds", json={"table": tid, "cards": ["albert"]}).get_json()
    odds_b = b.post("/api/raising-robots/friendship/odds", json={"table": tid, "cards": ["albert"]}).get_json()
    assert odds_a["viewer"] == 0 and _exact(odds_a["p_any"]) == 0
    assert odds_b["viewer"] == 1 and _exact(odds_b["p_any"]) == Fraction(21, 23) * Fraction(3, 21)


def test_the_cap_of_two_friendship_cards_friendships(phones):
    tid, a, _ = phones
    act(a, tid, {"type": "setup"})
    for cards in (DRAWN, ["nikola", "john", "stephen"]):
        assert act(a, tid, {"type": "draw", "seat": 0, "cards": cards}).status_code == 200
        assert act(a, tid, {"type": "keep", "seat": 0, "card": cards[0]}).status_code == 200
    r = act(a, tid, {"type": "draw", "seat": 0, "cards": ["yo_yo", "card_15", "card_16"]})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"] == "action.seat"


@pytest.mark.parametrize(("action", "path"), [
    ({"type": "draw", "seat": 0, "count": 4, "cards": DRAWN}, "action.count"),
    ({"type": "draw", "seat": 0, "cards": ["albert", "albert", "temple"]}, "action.cards[1]"),
    ({"type": "draw", "seat": 0, "cards": ["albert", "charles"]}, "action.cards"),
    ({"type": "draw", "seat": 0, "cards": ["albert", "charles", "ada"]}, "action.cards[2]"),
    ({"type": "draw", "seat": 5, "cards": DRAWN}, "action.seat"),
    ({"type": "keep", "seat": 0, "card": "albert"}, "action.seat"),
    ({"type": "shuffle"}, "action"),
])
def test_bad_actions_are_400s_naming_the_field(phones, action, path):
    tid, a, _ = phones
    act(a, tid, {"type": "setup"})
    r = act(a, tid, action)
    assert r.status_code == 400, r.get_json()
    assert r.get_json()["error"]["fields"][0]["path"].startswith(path)


def test_a_stale_version_is_a_409(phones):
    tid, a, b = phones
    act(a, tid, {"type": "setup"})
    v = _version(a, tid)
    assert act(b, tid, {"type": "setup", "pets": True}, version=v).status_code == 200
    assert act(a, tid, {"type": "draw", "seat": 0, "cards": DRAWN}, version=v).status_code == 409


def test_a_seat_without_a_phone_is_entered_by_its_kept_card(app, new_table):
    table = new_table("raising-robots", 3)
    tid = table["id"]
    a, b = app.test_client(), app.test_client()
    a.post(f"/api/tables/{tid}/seats/0", json={"name": "Ann"})
    b.post(f"/api/tables/{tid}/seats/1", json={"name": "Bo"})
    act(a, tid, {"type": "setup"})
    assert act(a, tid, {"type": "draw", "seat": 2, "cards": DRAWN}).status_code == 403  # names need the seat's phone
    assert act(a, tid, {"type": "draw", "seat": 2, "count": 2}).status_code == 200
    assert act(b, tid, {"type": "draw", "seat": 0, "count": 2}).status_code == 403
    r = act(b, tid, {"type": "keep", "seat": 2, "card": "nikola"})
    assert r.status_code == 200 and r.get_json()["friendship"]["kept"] == {"2": ["Nikola"]}
    # a named draw of a seat its phone then gave up: another phone keeps for it as for any seat no phone
    # holds, checked against the public record only (test_friendship_given_up_seat: no probing its cards)
    assert act(a, tid, {"type": "draw", "seat": 0, "cards": DRAWN}).status_code == 200
    assert a.delete(f"/api/tables/{tid}/seats/0", json={}).status_code == 200
    assert act(b, tid, {"type": "keep", "seat": 0, "card": "ada"}).status_code == 200  # not among DRAWN


def test_odds_of_a_deck_sent_whole_with_a_reshuffle_mid_draw(client):
    cards = ["ada", "albert", "charles", "temple", "john"]
    log = [{"type": "draw", "seat": 0, "from_deck": 3}, {"type": "keep", "seat": 0, "card": "ada"}]
    body = {"deck": {"cards": cards, "log": log}, "viewer": 0, "seen": [["ada", "albert", "charles"]],
            "cards": ["albert"]}
    r = client.post("/api/raising-robots/friendship/odds", json=body)
    assert r.status_code == 200, r.get_json()
    out = r.get_json()
    # deck: temple, john; discard: albert, charles. Draw 3: both, then a reshuffle, then 1 of 2
    assert (out["from_deck"], out["reshuffle"], out["after_reshuffle"]) == (2, True, 1)
    assert _exact(out["p_any"]) == Fraction(1, 2)
    by_card = {c["card"]: _exact(c["p"]) for c in out["cards"]}
    assert by_card == {"ada": 0, "albert": Fraction(1, 2), "charles": Fraction(1, 2), "temple": 1, "john": 1}
    assert sum(_exact(s["p"]) for s in out["shown"]) == 1


@pytest.mark.parametrize(("body", "path"), [
    ({"deck": {"cards": ["ada"], "log": [{"type": "keep", "seat": 0, "card": "ada"}]}}, "deck.log[0]"),
    ({"deck": {"cards": ["ada", "zzz"]}}, "deck.cards[1]"),
    ({"deck": {"cards": ["ada", "ada"]}}, "deck.cards"),
    ({"deck": {"cards": ["ada"]}, "cards": ["albert"]}, "cards[0]"),
    ({"deck": {"cards": ["ada"]}, "count": 5}, "count"),
    ({"deck": {"cards": ["ada"]}, "seen": [["ada"]]}, "viewer"),
    ({}, "table"),
])
def test_bad_odds_requests_are_400s_naming_the_field(client, body, path):
    r = client.post("/api/raising-robots/friendship/odds", json=body)
    assert r.status_code == 400, r.get_json()
    assert r.get_json()["error"]["fields"][0]["path"] == path


def test_the_page_follows_the_deck_and_hides_another_seats_draw(phones):
    tid, a, b = phones
    act(a, tid, {"type": "setup"})
    act(a, tid, {"type": "draw", "seat": 0, "cards": DRAWN})
    page_a = a.get(f"/raising-robots/friendship?table={tid}").get_data(as_text=True)
    page_b = b.get(f"/raising-robots/friendship?table={tid}").get_data(as_text=True)
    assert 'id="fr-keep-albert"' in page_a and "fr-keep-" not in page_b
    assert "drew 3, choosing which to keep" in page_b
    r = a.post(f"/raising-robots/friendship?table={tid}", data={"table": tid, "version": _version(a, tid),
                                                                "do": "keep", "keep": "charles"})
    assert r.status_code == 200
    page_b = b.get(f"/raising-robots/friendship?table={tid}&want0=albert").get_data(as_text=True)
    assert "kept <span class=\"badge fr-kept\">Charles</span>" in page_b.replace("\n", "")


def test_the_page_opens_on_odd_stored_state(client, new_table):
    odd = {"raising_robots": {"friendship": {"built": True, "deck_cards": ["ada", "nobody", "ada"],
                                             "log": [{"type": "keep", "seat": 0, "card": "ada"}, {"type": "draw"}],
                                             "cards": [{"name": 3}, "x"]}}}
    table = new_table("raising-robots", 2, odd)
    r = client.get(f"/raising-robots/friendship?table={table['id']}&want0=ada&odds_count=2")
    assert r.status_code == 200
    assert client.get("/raising-robots/friendship").status_code == 200


def _small_deck_table(app, new_table):
    """Three seats, the table's card list with a paw on all but the first six cards, played without Pets:
    a deck of six (Changes to Setup, IMPORTANT: paw cards out), so that it runs out soon."""
    cards = [{"name": "", "paw": k >= 6} for k in range(26)]
    table = new_table("raising-robots", 3, {"raising_robots": {"friendship": {"cards": cards}}})
    a, b = app.test_client(), app.test_client()
    a.post(f"/api/tables/{table['id']}/seats/0", json={"name": "Ann"})
    b.post(f"/api/tables/{table['id']}/seats/1", json={"name": "Bo"})
    return table["id"], a, b


def _page_post(client, tid: str, **fields):
    data = {"table": tid, "version": str(_version(client, tid)), **fields}
    return client.post(f"/raising-robots/friendship?table={tid}", data=data)


def test_the_page_draws_across_a_reshuffle_completion_rewards(app, new_table):
    tid, a, b = _small_deck_table(app, new_table)
    assert act(a, tid, {"type": "setup", "pets": False}).get_json()["friendship"]["deck"] == 6
    act(a, tid, {"type": "draw", "seat": 0, "cards": ["ada", "albert", "charles"]})
    act(a, tid, {"type": "keep", "seat": 0, "card": "ada"})
    act(b, tid, {"type": "draw", "seat": 1, "count": 2, "cards": ["confucius", "johannes"]})
    act(b, tid, {"type": "keep", "seat": 1, "card": "johannes"})
    page = a.get(f"/raising-robots/friendship?table={tid}").get_data(as_text=True)
    assert 'id="fr-drawn-after"' in page  # one card left: the discard pile is shuffled during the draw
    # Ann saw Albert go to the discard pile: it cannot be the deck's last card
    r = _page_post(a, tid, do="draw", count="3", drawn=["albert"], drawn_after=["john", "confucius"])
    assert r.status_code == 400 and "reshuffled since" in r.get_data(as_text=True), re.findall(r"field-problem[^<]*<|<li>[^<]*", r.get_data(as_text=True))
    r = _page_post(a, tid, do="draw", count="3", drawn=["john"], drawn_after=["albert", "confucius"])
    assert r.status_code == 200, r.get_data(as_text=True)[-2000:]
    assert 'id="fr-keep-confucius"' in r.get_data(as_text=True)
    part = a.get(f"/api/tables/{tid}").get_json()["state"]["raising_robots"]["friendship"]
    assert part["log"][-1] == {"type": "draw", "seat": 0, "from_deck": 1, "reshuffled": True, "after_reshuffle": 2}
    r = _page_post(a, tid, do="keep", keep="confucius")
    assert r.status_code == 200
    out = a.post("/api/raising-robots/friendship/odds", json={"table": tid, "count": 2}).get_json()
    # Ann knows all: Charles is the deck's one card, John and Albert in the discard pile
    by_card = {c["card"]: Fraction(c["p"]["exact"]) for c in out["cards"]}
    assert by_card == {"ada": 0, "albert": Fraction(1, 2), "charles": 1, "confucius": 0, "johannes": 0,
                       "john": Fraction(1, 2)}


def test_the_page_records_a_seat_without_a_phone(app, new_table):
    tid, a, b = _small_deck_table(app, new_table)
    act(a, tid, {"type": "setup"})
    r = _page_post(b, tid, do="record", for_seat="2", record_count="2", record_kept="john")
    assert r.status_code == 200
    assert "Player 3 drew 2 and kept John" in r.get_data(as_text=True)
    r = _page_post(b, tid, do="record", for_seat="0", record_count="2", record_kept="ada")  # Ann's phone holds it
    assert r.status_code == 400
    r = _page_post(b, tid, do="record", for_seat="2", record_count="3", record_kept="john")
    assert r.status_code == 400 and "kept by a player already" in r.get_data(as_text=True)


CARD_IDS = ["ada", "albert", "temple", "card_15", "nobody", "", "ADA"]
odd_value = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.sampled_from(CARD_IDS), st.text(max_size=4))
odd_event = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["draw", "keep", "shuffle", 3]), "seat": st.integers(-1, 7) | odd_value,
    "from_deck": st.integers(-1, 4) | odd_value, "reshuffled": odd_value, "after_reshuffle": st.integers(-1, 4),
    "card": st.sampled_from(CARD_IDS) | odd_value})
odd_deck = st.fixed_dictionaries({}, optional={
    "built": odd_value, "pets": odd_value, "deck_cards": st.lists(st.sampled_from(CARD_IDS) | odd_value, max_size=8)
    | odd_value, "log": st.lists(odd_event, max_size=8) | odd_value,
    "cards": st.lists(st.fixed_dictionaries({}, optional={"name": odd_value, "paw": odd_value}), max_size=4)
    | odd_value})
odd_private = st.fixed_dictionaries({}, optional={"draws": st.lists(st.lists(st.sampled_from(CARD_IDS) | odd_value,
                                                                               max_size=4), max_size=4) | odd_value})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(deck=odd_deck, private=odd_private, want=st.sampled_from(CARD_IDS))
def test_odd_stored_decks_never_break_the_page_or_the_odds(app, deck, private, want):
    c = app.test_client()
    table = c.post("/api/tables", json={"game": "raising-robots", "players": 2}).get_json()
    tid = table["id"]
    c.put(f"/api/tables/{tid}", json={"version": 1, "state": {"raising_robots": {"friendship": deck}}})
    c.post(f"/api/tables/{tid}/seats/0", json={"name": "Ann"})
    v = _version(c, tid)
    c.put(f"/api/tables/{tid}/seats/0/private", json={"version": v, "state": {"friendship": private}})
    assert c.get(f"/raising-robots/friendship?table={tid}&want0={want}").status_code == 200
    assert c.post("/api/raising-robots/friendship/odds", json={"table": tid}).status_code < 500
    r = act(c, tid, {"type": "draw", "seat": 0, "count": 2, "cards": ["ada", "albert"]})
    assert r.status_code < 500


def test_the_table_renames_a_card_and_marks_a_paw_then_setup_takes_it_out_without_pets(phones):
    tid, a, _ = phones
    page = a.get(f"/raising-robots/friendship?table={tid}").get_data(as_text=True)
    assert 'id="fr-no-paws"' in page  # no card carries a paw until the table says so (unverified)
    r = _page_post(a, tid, do="cards", **{"friendship.cards.14.name": "Marie", "friendship.cards.14.paw": "true"})
    assert r.status_code == 200
    part = a.get(f"/api/tables/{tid}").get_json()["state"]["raising_robots"]["friendship"]
    assert part["cards"][14] == {"name": "Marie", "paw": True}
    r = act(a, tid, {"type": "setup", "pets": False})
    removed = {x["card"]: x["rule"] for x in r.get_json()["state"]["raising_robots"]["friendship"]["removed"]}
    assert removed == {"card_15": "rr-setup-paw-friendship-cards", "ada": "rr-competitions-friendships-changes-to-setup",
                       "johannes": "rr-competitions-friendships-changes-to-setup"}
    r = act(a, tid, {"type": "setup", "pets": True})
    assert r.get_json()["friendship"]["deck"] == 24
