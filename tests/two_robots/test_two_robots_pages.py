"""Two Robots pages without JavaScript (Flask test client): forms that post and re-render, the table state,
clear 400s, the hub links, the rule links, and fuzzed forms that never give a 5xx."""
from __future__ import annotations

import json
import re
from html import unescape

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant import rules


def new_table(client, players=2) -> dict:
    r = client.post("/api/tables", data=json.dumps({"game": "two-robots", "players": players}),
                    content_type="application/json")
    assert r.status_code == 201
    return r.get_json()


def test_hub_lists_both_pages(client):
    html = client.get("/games/two-robots").get_data(as_text=True)
    assert "/two-robots/factory" in html and "/two-robots/odds" in html


def test_factory_form_liz_example_without_js(client):
    """Stacking Part Cards, Liz example, typed as text: the new Chemical/Solar stack shows as Solar."""
    r = client.post("/two-robots/factory", data={"stack0": "head:cs, arms:c", "stack1": "legs:cs",
                                                 "hand": "torso:c, attack:3:Nuclear Explosion!", "event": "none",
                                                 "actions": "3", "powers_left": "3", "action": "plan"})
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert "stack 1 is Chemical" in html and 'title="Solar"' in html
    assert "Play TORSO (Chemical) on stack 1" in html
    assert 'href="/rules/tr-liz-example"' in html


def test_factory_form_alyssa_example_hand_problems_without_js(client):
    """Frozen Stacks, Alyssa example, typed as text: a Nuclear ARMS cannot go anywhere while her Nuclear
    stack is frozen, and the page says so in one sentence (the factory itself is fine: 200). Attack
    Cards: alone at the table her frozen HEAD is the only Nuclear part, so Nuclear Explosion, which
    must destroy exactly two, is not played, and the plan says why."""
    r = client.post("/two-robots/factory", data={"stack0": "head:n", "frozen0": "on", "stack1": "arms:s",
                                                 "stack2": "torso:c", "hand": "arms:n, attack:3:Nuclear Explosion!",
                                                 "event": "none", "actions": "3", "powers_left": "3",
                                                 "action": "plan"})
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert ("ARMS (Nuclear) in your hand has no legal place: stack 1 is frozen; a new stack would need Nuclear, "
            "which stack 1 holds.") in html
    assert "Play Nuclear Explosion" not in html
    assert "Nuclear Explosion is not played: Only 1 Nuclear part in play" in html


def test_factory_form_errors_are_named(client):
    r = client.post("/two-robots/factory", data={"stack0": "head:cx", "hand": "attack:9", "action": "plan"})
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert "stacks[0][0]" in html and "hand[0]" in html
    r = client.post("/two-robots/factory", data={"stack0": "head:n", "stack1": "arms:n", "action": "plan"})
    assert r.status_code == 400 and "stacks[0]" in r.get_data(as_text=True)


def test_factory_kept_with_the_table_per_seat(client):
    table = new_table(client)
    url = f"/two-robots/factory?table={table['id']}&seat=1"
    r = client.post(url, data={"seat": "1", "version": "1", "stack0": "head:n", "frozen0": "on", "hand": "arms:s",
                               "event": "power", "actions": "2", "powers_left": "1", "action": "plan"})
    assert r.status_code == 200
    state = client.get(f"/api/tables/{table['id']}").get_json()["state"]["two_robots"]
    seat = state["players"][1]
    assert seat["stacks"] == [{"cards": [{"kind": "part", "part": "head", "energies": ["nuclear"]}], "frozen": True}]
    assert seat["event"] == "power" and seat["actions"] == 2 and seat["powers_left"] == 1
    assert state["players"][0] == {}
    html = client.get(url).get_data(as_text=True)
    assert 'value="head:n"' in html and "tr-stack frozen" in html


def test_part_names_can_be_renamed_for_the_table(client):
    """How to Build a Robot: HEAD and ARMS are fixed; the other two names are the table's to set."""
    table = new_table(client)
    url = f"/two-robots/factory?table={table['id']}"
    r = client.post(url, data={"version": "1", "name2": "body", "name3": "Wheels", "stack0": "body:c, wheels:c",
                               "action": "plan"})
    assert r.status_code == 200
    assert client.get(f"/api/tables/{table['id']}").get_json()["state"]["two_robots"]["part_names"] == \
        ["head", "arms", "body", "wheels"]
    r = client.post(url, data={"name2": "head", "name3": "x", "action": "plan"})
    assert r.status_code == 400 and "part_names" in r.get_data(as_text=True)


def test_odds_form_default_deck_and_entered_counts(client):
    """Draw Phase: three cards. Default deck minus the factory and hand; counts changed by the player
    replace the default, and 'back to the default deck' undoes that."""
    table = new_table(client)
    client.post(f"/two-robots/factory?table={table['id']}",
                data={"version": "1", "stack0": "head:cs, arms:cs, legs:cs", "hand": "head:c", "action": "plan"})
    url = f"/two-robots/odds?table={table['id']}"
    html = client.get(url).get_data(as_text=True)
    assert "9 of 96 unseen cards" in html and "7377/28576" in html
    form = {k: "1" for k in [f"u-{n}:{c}" for n in ("head", "arms", "legs", "torso")
                             for c in ("c", "e", "m", "n", "s", "ce", "cm", "cn", "cs", "em", "en", "es", "mn",
                                       "ms", "ns")]}
    form.update({"u-torso:cs": "0", "u-attack": "19", "u-defense": "21", "action": "save", "want": "robot",
                 "stack0": "head:cs, arms:cs, legs:cs", "hand": "head:c"})
    html = client.post(url, data=form).get_data(as_text=True)
    assert "8 of 99 unseen cards" in html
    seat = client.get(f"/api/tables/{table['id']}").get_json()["state"]["two_robots"]["players"][0]
    assert seat["unseen"]["parts"]["torso:cs"] == 0
    html = client.post(url, data={"action": "reset", "stack0": "head:cs, arms:cs, legs:cs", "hand": "head:c"}
                       ).get_data(as_text=True)
    assert "9 of 96 unseen cards" in html
    html = client.get(url + "&want=attack").get_data(as_text=True)
    assert "19 of 96" in html


def test_every_rule_id_used_exists():
    """Rule links resolve: every id the Two Robots answers cite is an entry of the rules book."""
    from assistant.two_robots import pages as page
    ids = {e.id for e in rules.books()["two-robots"].entries}
    used = set(page.FACTORY_RULES + page.PLAN_RULES + page.ODDS_RULES)
    used |= {"tr-energy-stacks", "tr-stacking-part-cards", "tr-how-to-build-a-robot", "tr-duplicate-parts",
             "tr-frozen-stacks", "tr-attack-defense-cards", "tr-the-event-phase", "tr-note-sacrifice-anywhere",
             "tr-cleanup-phase", "tr-turn-overview", "tr-draw-phase", "tr-clarifications",
             "tr-clarification-apocalypse-frozen"}
    assert used <= ids, used - ids


form_values = st.one_of(st.text(max_size=40), st.sampled_from(
    ["head:cs", "arms:c, legs:cs", "attack:3!", "defense:x", "torso:", ":cs", "head:ccc", "on", "-1", "99", "power"]))


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(["stack0", "stack1", "stack4", "frozen0", "hand", "event", "actions",
                                        "powers_left", "action", "name2", "name3", "seat", "want", "want_part",
                                        "u-head:c", "u-attack", "version"]), form_values, max_size=8),
       st.sampled_from(["/two-robots/factory", "/two-robots/odds"]))
def test_page_forms_fuzz_never_5xx(client, data, url):
    r = client.post(url, data=data)
    assert r.status_code in (200, 400)


def test_game_data_endpoint_says_what_is_unknown(client):
    """Setup (public transcription): the Active Robot pile by player count; the 5-player pile is unknown.
    The Event Phase: the pile is reshuffled after each Event phase, so a reveal is count / pile size."""
    d = client.get("/api/two-robots/data").get_json()
    piles = {p["players"]: p for p in d["active_robot_pile"]["by_players"]}
    assert piles[5]["known"] is False and piles[5]["cards"] == []
    assert [(c["name"], c["p"]["exact"]) for c in piles[2]["cards"]] == [("Shots Fired", "3/4"), ("Weapons Jammed", "1/4")]
    assert (d["action_deck"]["robot_parts"], d["action_deck"]["attack"], d["action_deck"]["defense"]) == (60, 19, 21)
    assert [p["source"] for p in d["part_names"]] == ["rulebook", "rulebook", "unverified", "unverified"]
    assert [s["name"] for s in d["salvagers"]] == ["Samurai", "Scavenger", "Peacemaker", "Guardian", "Apocalypse"]
    assert all(s["health"] == 3 and s["turn_order_source"] == "unverified" for s in d["salvagers"])
    assert d["default_parts"]["source"] == "unverified"


def test_apocalypse_check_on_the_page(client):
    """Clarifications: Apocalypse with two stacks of three parts, one frozen, may not trigger the ability."""
    r = client.post("/two-robots/factory", data={"stack0": "head:c, arms:c, legs:c", "frozen0": "on",
                                                 "stack1": "head:s, arms:s, torso:s", "salvager": "apocalypse",
                                                 "health": "2", "action": "plan"})
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "stack 1 is frozen, so the ability may not be triggered" in html


def test_table_pile_follows_the_player_count(client):
    table = new_table(client, players=5)
    html = client.get(f"/two-robots/factory?table={table['id']}").get_data(as_text=True)
    assert "Active Robot pile, 5 players:" in html and "not known" in html
    assert "Active Robot pile, 2 players" not in html


# ---- whatever the table holds, the pages answer (review P1-2) ---------------------------------------

def put_state(client, table: dict, state: dict) -> None:
    r = client.put(f"/api/tables/{table['id']}", json={"version": table["version"], "state": state})
    assert r.status_code == 200
    table["version"] = r.get_json()["version"]


ODD = [None, 5, "x", [1], {"x": 1}, True]
REVIEW_STATES = [{"table": "x"}, {"table": {"names": 5}}, {"table": [1]}, {"two_robots": 1},
                 {"two_robots": {"players": {"0": {}}}}, {"two_robots": {"part_names": ["head", "arms", 3, []]}},
                 {"two_robots": {"players": [{"event": ["power"], "salvager": {"x": 1}, "stacks": {}, "hand": 5,
                                              "unseen": {"parts": [], "attack": "x"}}]}},
                 {"two_robots": {"players": [{"stacks": [5, {"cards": "head:c"}, {"cards": [{"part": []}]}],
                                              "hand": [{"kind": ["attack"]}, {"kind": "attack", "stacks_required": []}],
                                              "unseen": {"parts": {"head:c": [1], "x": 2}}}]}}]


def _pages(table_id: str, seat: int) -> list[tuple[str, str, dict | None]]:
    q = f"?table={table_id}&seat={seat}"
    return [("GET", "/two-robots/factory" + q, None), ("GET", "/two-robots/odds" + q, None),
            ("POST", "/two-robots/factory" + q, {"seat": str(seat), "stack0": "head:c", "hand": "arms:s",
                                                 "event": "power", "action": "plan"}),
            ("POST", "/two-robots/factory" + q, {"seat": str(seat), "name2": "body", "name3": "wheels",
                                                 "action": "plan"}),
            ("POST", "/two-robots/odds" + q, {"seat": str(seat), "action": "save", "u-head:c": "3", "u-attack": "2"}),
            ("POST", "/two-robots/odds" + q, {"seat": str(seat), "action": "reset"})]


def test_pages_answer_whatever_the_table_state_holds(client):
    """The review's states (a table part that is not an object, names that are not a list, a seat whose
    fields are lists) and odd values in every field of a seat: every page and form still answers."""
    states = list(REVIEW_STATES)
    for v in ODD:
        states += [{"table": v}, {"table": {"names": v}}, {"two_robots": v}, {"two_robots": {"players": v}},
                   {"two_robots": {"players": [v, v]}, "table": {"names": [v, "Ann"]}},
                   {"two_robots": {"part_names": v}},
                   {"two_robots": {"players": [{k: v for k in ("stacks", "hand", "unseen", "event", "actions",
                                                                "powers_left", "salvager", "health")}]}}]
    for n, state in enumerate(states):
        table = new_table(client)
        put_state(client, table, state)
        for seat in (0, 1) if n < len(REVIEW_STATES) else (n % 2,):
            for method, url, form in _pages(table["id"], seat):
                r = client.get(url) if method == "GET" else client.post(url, data=form)
                assert r.status_code in (200, 400), (method, url, state, r.status_code)


odd_leaf = st.none() | st.booleans() | st.integers(-3, 200) | st.sampled_from(
    ["", "x", "head", "arms", "power", "apocalypse", "part", "attack", "chemical", "head:c"])
odd_value = st.recursive(odd_leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.sampled_from(["players", "part_names", "stacks", "cards", "frozen", "hand", "kind", "part", "energies",
                     "stacks_required", "play", "unseen", "parts", "attack", "defense", "event", "actions",
                     "salvager", "health", "names", "head:c"]), inner, max_size=5), max_leaves=14)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.fixed_dictionaries({}, optional={"two_robots": odd_value, "table": odd_value}), st.integers(0, 1))
def test_pages_answer_random_table_state(client, state, seat):
    table = new_table(client)
    put_state(client, table, state)
    for method, url, form in _pages(table["id"], seat):
        r = client.get(url) if method == "GET" else client.post(url, data=form)
        assert r.status_code in (200, 400), (method, url, state, r.status_code)


# ---- saves keep other phones' changes (review P2-3) ----------------------------------------------------

def drawn_form(client, url: str) -> dict:
    """The hidden fields a page drew (version and what it showed), as a phone would post them back."""
    html = client.get(url).get_data(as_text=True)
    out = {}
    for name in ("version", "shown", "seat"):
        m = re.search(rf'name="{name}" value="([^"]*)"', html)
        assert m, name
        out[name] = unescape(m.group(1))
    return out


def factory_form(drawn: dict, **fields: str) -> dict:
    """A factory page post as the no-JS form sends it: every field, as drawn unless given."""
    form = {"name2": "legs", "name3": "torso", "hand": "", "event": "none", "actions": "3", "powers_left": "3",
            "salvager": "", "health": "3", "action": "plan", **{f"stack{i}": "" for i in range(5)}}
    return {**form, **drawn, **fields}


def stored_seats(client, table: dict) -> list:
    return client.get(f"/api/tables/{table['id']}").get_json()["state"]["two_robots"]["players"]


def test_two_seats_saved_from_the_same_version_both_stay(client):
    """Two phones draw the factory page for seats 1 and 2 at the same version and each saves its factory:
    the second save lands on the first one's state instead of writing an older copy over it."""
    table = new_table(client)
    url = f"/two-robots/factory?table={table['id']}&seat="
    first, second = drawn_form(client, url + "0"), drawn_form(client, url + "1")
    assert first["version"] == second["version"]
    assert client.post(url + "0", data=factory_form(first, stack0="head:c, arms:c")).status_code == 200
    r = client.post(url + "1", data=factory_form(second, stack0="legs:s", hand="torso:s"))
    assert r.status_code == 200 and "your change was added to theirs" in r.get_data(as_text=True)
    seats = stored_seats(client, table)
    assert [c["part"] for c in seats[0]["stacks"][0]["cards"]] == ["head", "arms"]
    assert [c["part"] for c in seats[1]["stacks"][0]["cards"]] == ["legs"]
    assert [c["part"] for c in seats[1]["hand"]] == ["torso"]


def test_one_seat_saved_from_two_pages_keeps_both_fields(client):
    """One seat, two phones, one drawing: the turn settings changed on one (Event option A) and the
    factory on the other, then the unseen counts on the odds page: each post writes only what it
    changed, so all three stay."""
    table = new_table(client)
    url = f"/two-robots/factory?table={table['id']}&seat=0"
    client.post(url, data=factory_form(drawn_form(client, url), stack0="head:c"))
    a, b = drawn_form(client, url), drawn_form(client, url)
    odds_url = f"/two-robots/odds?table={table['id']}&seat=0"
    odds = drawn_form(client, odds_url)
    assert client.post(url, data=factory_form(a, stack0="head:c", event="power", powers_left="2")).status_code == 200
    assert client.post(url, data=factory_form(b, stack0="head:c, arms:c", hand="legs:c")).status_code == 200
    grid = {"u-head:c": "0", "u-attack": "5", "u-defense": "21", "action": "save", "want": "robot",
            "stack0": "head:c", "hand": ""}
    assert client.post(odds_url, data={**odds, **grid}).status_code == 200
    seat = stored_seats(client, table)[0]
    assert seat["event"] == "power" and seat["powers_left"] == 2
    assert [c["part"] for c in seat["stacks"][0]["cards"]] == ["head", "arms"]
    assert [c["part"] for c in seat["hand"]] == ["legs"]
    assert seat["unseen"]["attack"] == 5


def test_renaming_a_part_renames_it_in_every_seat(client):
    """How to Build a Robot: the two part names the rules do not print are the table's; renaming one
    on seat 1's page renames it in seat 2's factory, hand and unseen counts too (nothing dropped)."""
    table = new_table(client)
    url = f"/two-robots/factory?table={table['id']}&seat="
    client.post(url + "1", data=factory_form(drawn_form(client, url + "1"), stack0="head:s, legs:s", hand="legs:c"))
    odds_url = f"/two-robots/odds?table={table['id']}&seat=1"
    client.post(odds_url, data={**drawn_form(client, odds_url), "u-legs:s": "2", "u-attack": "19", "u-defense": "21",
                                "action": "save", "stack0": "head:s, legs:s", "hand": "legs:c"})
    r = client.post(url + "0", data=factory_form(drawn_form(client, url + "0"), name2="body"))
    assert r.status_code == 200
    seat = stored_seats(client, table)[1]
    assert [c["part"] for c in seat["stacks"][0]["cards"]] == ["head", "body"]
    assert seat["hand"][0]["part"] == "body" and seat["unseen"]["parts"]["body:s"] == 2
    assert 'value="head:s, body:s"' in client.get(url + "1").get_data(as_text=True)


def test_a_seat_change_touches_its_seat_and_fields_only():
    """The change a post saves sets this seat's changed fields on whatever state is newest; `unseen: None`
    (back to the default deck) removes the seat's counts."""
    from assistant.two_robots.state import seat_change
    state = {"table": {"names": ["A"]}, "two_robots": {"players": [{"unseen": {"parts": {}}, "hand": []}, {"x": 1}]}}
    after = seat_change(0, {"unseen": None})(state)
    assert after["two_robots"]["players"] == [{"hand": []}, {"x": 1}] and after["table"] == {"names": ["A"]}
    # on a table part of the wrong type the change still applies, to a fresh part
    assert seat_change(1, {"hand": []})({"two_robots": 5})["two_robots"] == {"players": [{}, {"hand": []}]}


def test_numbers_read_from_forms_and_stored_seats(client):
    """A stored seat is read by the one state model: text, fractions, true/false and lists fall back to the
    default, whole numbers in bounds are kept. A form's number out of bounds is a 400 naming the field."""
    from assistant.two_robots.schemas import TwoRobotsState
    cases = [("1", 3), (" 3 ", 3), (-1, 3), (9, 3), (2.5, 3), (True, 3), ([1], 3), (None, 3), (2, 2), (0, 0)]
    for raw, want in cases:
        assert TwoRobotsState.from_stored({"players": [{"actions": raw}]}).seat(0).actions == want, raw
    seat = TwoRobotsState.from_stored({"players": [{"health": "x", "salvager": "apocalypse", "powers_left": 1}]}).seat(0)
    assert (seat.health_now, seat.powers_left) == (3, 1)
    for field, value in (("actions", "9"), ("powers_left", "-1"), ("health", "x")):
        r = client.post("/two-robots/factory", data={"stack0": "head:c", field: value, "action": "plan"})
        assert r.status_code == 400 and f"<strong>{field}</strong>" in r.get_data(as_text=True), field
