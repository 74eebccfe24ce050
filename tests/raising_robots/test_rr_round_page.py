"""The round page (/raising-robots/round) with a table: each seat's Round Preparation in the table state
(one save path), the board's cubes from every seat's cards and the 2-player dummy's, the seat's phases with
their Total Energy (player aid: Phase Rules, Total Energy), the break at round 5, the round end moving the
marker, and the standings if the game ended now."""
from __future__ import annotations

import re

URL = "/raising-robots/round"


def get(client, table, seat=None):
    q = f"?table={table['id']}" + (f"&seat={seat}" if seat is not None else "")
    return client.get(URL + q)


def post(client, table, fields, seat=0, version=None):
    data = {"table": table["id"], "version": str(version or table["version"]), **fields}
    return client.post(f"{URL}?table={table['id']}&seat={seat}", data=data)


def state(client, table):
    return client.get(f"/api/tables/{table['id']}").get_json()


def total(html, phase):
    m = re.search(rf'id="rr-total-{phase}">(\d+)<', html)
    return int(m.group(1)) if m else None


def test_cards_saved_and_phases_worked_out(client, new_table):
    """Total Energy: Design card 5 with x2, its own cube doubled (7); Upgrade card 3. Both seats' cubes add."""
    t = new_table("raising-robots", 2)
    r = post(client, t, {"seats.0.prep.cards.0.phase": "design", "seats.0.prep.cards.0.energy": "5",
                         "seats.0.prep.cards.0.cubes": "1", "seats.0.prep.cards.0.multiplier": "true",
                         "seats.0.prep.cards.1.phase": "upgrade", "seats.0.prep.cards.1.energy": "3"})
    assert r.status_code == 200, r.text
    html = r.get_data(as_text=True)
    assert total(html, "design") == 7 and total(html, "upgrade") == 3 and total(html, "recycle") is None
    st = state(client, t)
    prep = st["state"]["raising_robots"]["seats"][0]["prep"]
    assert prep["round"] == 1 and prep["cards"][0] == {"phase": "design", "energy": 5, "cubes": 1,
                                                       "multiplier": True, "twice": False}
    # seat 2 puts 2 cubes on Recycle: seat 1 now performs Recycle at 2, and Design keeps its 7
    t2 = {**t, "version": st["version"]}
    post(client, t2, {"seats.1.prep.cards.0.phase": "recycle", "seats.1.prep.cards.0.energy": "2",
                      "seats.1.prep.cards.0.cubes": "2"}, seat=1)
    html = get(client, t, 0).get_data(as_text=True)
    assert total(html, "recycle") == 2 and total(html, "design") == 7
    assert "Still to come" in html  # seat 2's second card and the dummy's


def test_dummy_cubes_and_batteries(client, new_table):
    """2-player dummy: round 1's card brings 1 cube to its phase; a battery adds 1 (Total Energy)."""
    t = new_table("raising-robots", 2, {"table": {"round": 1}})
    r = post(client, t, {"dummy.phase": "fabricate", "seats.0.prep.cards.0.phase": "fabricate",
                         "seats.0.prep.cards.0.energy": "4", "seats.0.prep.batteries.fabricate": "2"})
    html = r.get_data(as_text=True)
    assert total(html, "fabricate") == 4 + 1 + 2
    assert "1 cube" in html


def test_same_phase_twice_is_a_problem_under_the_field(client, new_table):
    t = new_table("raising-robots", 2)
    r = post(client, t, {"seats.0.prep.cards.0.phase": "design", "seats.0.prep.cards.0.energy": "5",
                         "seats.0.prep.cards.1.phase": "design", "seats.0.prep.cards.1.energy": "3"})
    assert r.status_code == 400
    assert 'data-for="seats.0.prep.cards.1.phase"' in r.get_data(as_text=True)


def test_round_end_moves_the_marker_and_clears_the_cards(client, new_table):
    """Round End: cards discarded, cubes returned, the marker moves; reaching round 5 is the break."""
    t = new_table("raising-robots", 3, {"table": {"round": 4}})
    post(client, t, {"seats.0.prep.cards.0.phase": "design", "seats.0.prep.cards.0.energy": "5"})
    st = state(client, t)
    r = post(client, {**t, "version": st["version"]}, {"do": "round-end"})
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert state(client, t)["state"]["table"]["round"] == 5
    assert "Break" in html and total(html, "design") is None


def test_stale_round_fields_are_not_saved(client, new_table):
    """A phone still showing round 1 after another ended it: its cards are not put on round 2."""
    t = new_table("raising-robots", 2)
    post(client, t, {"do": "round-end"})
    r = post(client, t, {"seats.0.prep.cards.0.phase": "design", "seats.0.prep.cards.0.energy": "5"})
    assert "were not saved" in r.get_data(as_text=True)
    assert state(client, t)["state"]["raising_robots"]["seats"][0]["prep"]["cards"][0]["energy"] is None


def test_standings_if_the_game_ended_now(client, new_table):
    """Final score scoring: inventory VP plus a VP per 3 left; the gap to the leader."""
    t = new_table("raising-robots", 2, {"raising_robots": {"seats": [{"inventory": {"vp": 10, "gear": 3}},
                                                                     {"inventory": {"vp": 4}}]}})
    html = get(client, t, 0).get_data(as_text=True)
    assert re.search(r'id="rr-st-total-0">11<', html) and re.search(r'id="rr-st-total-1">4<', html)
    assert "−7" in html


def test_get_without_table_and_odd_state(client, new_table):
    assert client.get(URL).status_code == 200
    t = new_table("raising-robots", 2, {"raising_robots": {"seats": [{"prep": {"round": "x", "cards": 7}}],
                                                           "dummy": [1]}})
    assert get(client, t).status_code == 200


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

odd = st.recursive(st.none() | st.booleans() | st.integers(-3, 120) | st.sampled_from(["design", "", "x", "5"]),
                   lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                       st.sampled_from(["round", "cards", "phase", "energy", "cubes", "multiplier", "twice",
                                        "batteries", "design", "prep"]), inner, max_size=4), max_leaves=10)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(odd, odd, st.integers(-2, 120))
def test_odd_stored_round_state_never_5xx(client, new_table, prep, dummy, rnd):
    """A page never 5xx's on a stored state (CONVENTIONS: A table's state)."""
    t = new_table("raising-robots", 2, {"table": {"round": rnd},
                                        "raising_robots": {"seats": [{"prep": prep, "energy_bonuses": prep}],
                                                           "dummy": dummy}})
    assert get(client, t).status_code == 200
    assert post(client, t, {"seats.0.prep.cards.0.energy": "3"}).status_code in (200, 400, 409)


def test_every_rule_the_round_links_exists():
    from assistant.raising_robots.round_page import ROUND_RULES
    from assistant.rules.loader import load_books
    from solvers.raising_robots import energy
    ids = {e.id for b in load_books().values() for e in b.entries}
    assert set(ROUND_RULES) | set(energy.ALL_RULES) <= ids


def test_more_batteries_than_held_is_flagged(client, new_table):
    """Total Energy: batteries gained during a phase count only in later phases; planning more than the
    inventory holds is pointed out."""
    t = new_table("raising-robots", 2, {"raising_robots": {"seats": [{"inventory": {"battery": 1}}]}})
    r = post(client, t, {"seats.0.prep.cards.0.phase": "design", "seats.0.prep.cards.0.energy": "5",
                         "seats.0.prep.batteries.design": "3"})
    html = r.get_data(as_text=True)
    assert total(html, "design") == 8 and "3 batteries to spend, 1 in the inventory" in html


def test_spent_batteries_leave_the_inventory_and_undo_gives_them_back(client, new_table):
    """Player aid, Round Phases, Total Energy: +1 per battery spent, the total fixed when the phase starts.
    "Design starts: spend 2" takes them off the seat's inventory through the table's reducer; more than held
    is a 400 naming the phase's field; Undo (table history) restores them."""
    t = new_table("raising-robots", 2, {"raising_robots": {"seats": [{"inventory": {"battery": 3}}]}})
    r = post(client, t, {"seats.0.prep.cards.0.phase": "design", "seats.0.prep.cards.0.energy": "5",
                         "seats.0.prep.batteries.design": "2", "seats.0.prep.cards.1.phase": "recycle",
                         "seats.0.prep.cards.1.energy": "1", "seats.0.prep.batteries.recycle": "2"})
    assert 'value="spend-design"' in r.get_data(as_text=True)
    v = state(client, t)["version"]
    r = post(client, t, {"do": "spend-design"}, version=v)
    html = r.get_data(as_text=True)
    assert r.status_code == 200, html
    st = state(client, t)
    seat = st["state"]["raising_robots"]["seats"][0]
    assert seat["inventory"]["battery"] == 1 and seat["prep"]["spent"]["design"] == 2
    assert total(html, "design") == 7 and 'value="spend-design"' not in html and 'id="rr-spent-design"' in html
    # Recycle wants 2, the inventory holds 1: refused, nothing taken, the field named
    r = post(client, t, {"do": "spend-recycle"}, version=st["version"])
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert re.search(r'f-seats-0-prep-batteries-recycle[\s\S]{0,2000}1 in the inventory', html)
    assert state(client, t)["state"]["raising_robots"]["seats"][0]["inventory"]["battery"] == 1
    undone = client.post(f"/api/tables/{t['id']}/undo", json={"version": st["version"]}).get_json()
    assert undone["state"]["raising_robots"]["seats"][0]["inventory"]["battery"] == 3


def test_table_page_shows_the_standings(client, new_table):
    """Standings on the table page (issue 22): the same scoring, the gap to the leader; other games' table
    pages have no such part."""
    t = new_table("raising-robots", 2, {"table": {"names": ["Ana", "Ben"]},
                                        "raising_robots": {"seats": [{"inventory": {"vp": 2}},
                                                                     {"inventory": {"vp": 7, "battery": 3}}]}})
    html = client.get(f"/t/{t['id']}").get_data(as_text=True)
    part = html[html.index('id="rr-table-standings"'):]
    assert part.index("Ben") < part.index("Ana") and "−6" in part
    other = new_table("two-robots", 2)
    assert "rr-table-standings" not in client.get(f"/t/{other['id']}").get_data(as_text=True)


def test_without_a_table_the_form_carries_the_round(client):
    """Not at a table: the page answers from the posted state and keeps nothing (CONVENTIONS)."""
    r = client.post(URL, data={"_state": "", "_round": "3", "seats.0.prep.cards.0.phase": "assemble",
                               "seats.0.prep.cards.0.energy": "6", "seats.0.prep.cards.0.cubes": "2"})
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and total(html, "assemble") == 8
    assert 'id="rr-round-no" data-live>3<' in html
    r = client.post(URL, data={"_state": "", "_round": "4", "do": "round-end"})
    assert 'id="rr-round-no" data-live>5<' in r.get_data(as_text=True) and "Break" in r.get_data(as_text=True)


def test_other_cubes_join_the_board(client, new_table):
    """Phase Rules: any cube on a phase opens it, whoever put it there: cubes from a player not using Tablebot
    are entered as other cubes for this round, and a new round starts without them."""
    t = new_table("raising-robots", 3)
    r = post(client, t, {"board.extra.assemble": "2", "seats.0.prep.cards.0.phase": "assemble",
                         "seats.0.prep.cards.0.energy": "3", "seats.0.prep.cards.0.multiplier": "true"})
    assert total(r.get_data(as_text=True), "assemble") == 3 + 2 * 2
    v = state(client, t)["version"]
    post(client, {**t, "version": v}, {"do": "round-end"})
    assert total(get(client, t, 0).get_data(as_text=True), "assemble") is None


def test_phase_cards_stay_secret_until_every_seat_has_assigned(app, new_table):
    """Round Preparation (player aid): Phase Cards are assigned face down, then revealed together. A seat's
    phone keeps its cards private (no other phone, page or API sees them) until every held seat is ready."""
    t = new_table("raising-robots", 2, {"raising_robots": {"seats": [{}, {}]}})
    tid = t["id"]
    a, b = app.test_client(), app.test_client()
    assert a.post(f"/api/tables/{tid}/seats/0", json={"name": "Ana"}).status_code == 200
    assert b.post(f"/api/tables/{tid}/seats/1", json={"name": "Ben"}).status_code == 200

    def version():
        return b.get(f"/api/tables/{tid}").get_json()["version"]

    def public(seat):
        """What every phone can read of a seat's preparation, as the model reads the stored state."""
        from assistant.raising_robots.schemas import RaisingRobotsState
        raw = b.get(f"/api/tables/{tid}").get_json()["state"]
        return RaisingRobotsState.from_stored(raw).seat(seat).prep.model_dump(mode="json")

    def send(phone, seat, fields):
        return phone.post(f"{URL}?table={tid}&seat={seat}", data={"table": tid, "version": str(version()), **fields})

    r = send(a, 0, {"seats.0.prep.cards.0.phase": "design", "seats.0.prep.cards.0.energy": "5",
                    "seats.0.prep.cards.0.cubes": "1", "seats.0.prep.cards.1.phase": "upgrade",
                    "seats.0.prep.cards.1.energy": "3"})
    assert r.status_code == 200 and total(r.get_data(as_text=True), "design") == 6  # her own cube counts for her
    assert public(0)["cards"][0]["energy"] is None and not public(0)["ready"]
    seen_by_ben = b.get(f"{URL}?table={tid}&seat=0").get_data(as_text=True)
    assert "assigns in secret" in seen_by_ben and total(seen_by_ben, "design") is None
    assert b.get(f"/api/tables/{tid}/seats/0/private").status_code == 403

    r = send(a, 0, {"do": "reveal"})
    assert "Ready" in r.get_data(as_text=True)
    assert public(0)["ready"] and public(0)["cards"][0]["energy"] is None
    assert "Ben: choosing in secret" in r.get_data(as_text=True)

    r = send(b, 1, {"seats.1.prep.cards.0.phase": "design", "seats.1.prep.cards.0.energy": "4",
                    "seats.1.prep.cards.1.phase": "recycle", "seats.1.prep.cards.1.energy": "2",
                    "seats.1.prep.cards.1.cubes": "2", "dummy.phase": "assemble"})
    assert total(r.get_data(as_text=True), "design") == 4  # Ana's cube is not on Ben's board yet
    r = send(b, 1, {"do": "reveal"})
    html = r.get_data(as_text=True)
    assert "revealed" in html and total(html, "design") == 5 and total(html, "recycle") == 4
    assert [public(0)["revealed"], public(1)["revealed"]] == [True, True]
    assert public(0)["cards"][0] == {"phase": "design", "energy": 5, "cubes": 1, "multiplier": False,
                                            "twice": False}
    assert "prep" not in a.get(f"/api/tables/{tid}/seats/0/private").get_json()["state"]
    html = a.get(f"{URL}?table={tid}").get_data(as_text=True)
    assert total(html, "recycle") == 2 and total(html, "assemble") == 1 and total(html, "design") == 6
