"""Two Robots pages without JavaScript (Flask test client): forms that post and re-render, the table state
(one seat per phone, the whole table in every answer), clear 400s, the hub links, the rule links, and
stored or posted nonsense that never gives a 5xx."""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tr_helpers import claim, phone_with_seat, private, set_hand

from assistant import rules


def new_table(client, players=2, state: dict | None = None) -> dict:
    table = client.post("/api/tables", json={"game": "two-robots", "players": players}).get_json()
    if state is not None:
        put_state(client, table, state)
    return table


def put_state(client, table: dict, state: dict) -> None:
    r = client.put(f"/api/tables/{table['id']}", json={"version": table["version"], "state": state})
    assert r.status_code == 200
    table["version"] = r.get_json()["version"]


def stored(client, table: dict) -> dict:
    return client.get(f"/api/tables/{table['id']}").get_json()["state"].get("two_robots", {})


def version(client, table: dict) -> int:
    return client.get(f"/api/tables/{table['id']}").get_json()["version"]


def tap(client, table: dict, seat: int, do: str, **fields) -> str:
    """One button of the factory page, as the form posts it (at a table the page is the phone's own seat,
    whatever `seat` the address names: claim it first)."""
    url = f"/two-robots/factory?table={table['id']}&seat={seat}"
    r = client.post(url, data={"table": table["id"], "version": str(version(client, table)), "_seat": str(seat),
                               "do": do, **fields})
    assert r.status_code in (200, 400), r.status_code
    return r.get_data(as_text=True)


def words(html: str) -> str:
    """The page's text, one space between words."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def C(part, *es):
    return {"kind": "part", "part": part, "energies": list(es)}


def test_hub_lists_both_pages(client):
    html = client.get("/games/two-robots").get_data(as_text=True)
    assert "/two-robots/factory" in html and "/two-robots/odds" in html


def test_liz_example_typed_without_a_table(client):
    """Stacking Part Cards, Liz example, typed as text with no table: the new Chemical/Solar stack
    shows as Solar, and the page carries what was entered to the next tap."""
    r = client.post("/two-robots/factory", data={"do": "text", "stack0": "head:cs, arms:c", "stack1": "legs:cs",
                                                 "hand": "torso:c, attack:3:Nuclear Explosion!"})
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert "stack 1 is Chemical" in html and "Stack 2 · Solar" in html
    assert "Play TORSO (Chemical) on stack 1" in html and 'href="/rules/tr-liz-example"' in html
    carried = re.search(r'name="_state" value="([^"]*)"', html).group(1)
    html = client.post("/two-robots/factory", data={"_state": carried.replace("&#34;", '"'), "combo": "c",
                                                    "do": "add:stack:0:legs"}).get_data(as_text=True)
    assert "Stack 1 · Chemical 3/4" in words(html)  # the stack itself, not the plan's "parts per stack"


def test_the_hand_travels_in_its_own_field_without_a_table(client):
    """Stacking Part Cards, Liz example, without a table: the hand is not part of the carried state (it
    goes in `_private`, as a seat's secrets do at a table) and comes back with the next tap, so the
    TORSO (Chemical) from the hand can be played on the Chemical stack."""
    html = client.post("/two-robots/factory", data={"do": "text", "stack0": "head:cs, arms:c", "stack1": "legs:cs",
                                                    "hand": "torso:c"}).get_data(as_text=True)
    carried = {k: re.search(rf'name="{k}" value="([^"]*)"', html).group(1).replace("&#34;", '"')
               for k in ("_state", "_private")}
    assert "torso" not in carried["_state"] and json.loads(carried["_private"])["hand"][0]["part"] == "torso"
    assert 'value="play:torso:c|0"' in html and "Stack 1 · Chemical 2/4" in words(html)
    html = client.post("/two-robots/factory", data={**carried, "do": "play:torso:c|0"}).get_data(as_text=True)
    assert "Stack 1 · Chemical 3/4" in words(html)
    assert json.loads(re.search(r'name="_private" value="([^"]*)"', html).group(1).replace("&#34;", '"'))["hand"] == []


def test_alyssa_example_typed_hand_problems(client):
    """Frozen Stacks, Alyssa example, typed as text: a Nuclear ARMS has no place while her Nuclear stack
    is frozen (one sentence), and alone at the table Nuclear Explosion, which must destroy exactly
    two Nuclear parts, is not played: the plan says why."""
    r = client.post("/two-robots/factory", data={"do": "text", "stack0": "head:n", "frozen0": "true",
                                                 "stack1": "arms:s", "stack2": "torso:c",
                                                 "hand": "arms:n, attack:3:Nuclear Explosion!"})
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert ("ARMS (Nuclear) in your hand has no legal place: stack 1 is frozen; a new stack would need Nuclear, "
            "which stack 1 holds.") in html
    assert "Play Nuclear Explosion" not in html and "Nuclear Explosion is not played: Only 1 Nuclear part in play" in html


def test_typed_cards_problems_are_named_next_to_the_field(client):
    r = client.post("/two-robots/factory", data={"do": "text", "stack0": "head:cx", "hand": "attack:9"})
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert 'data-for="stack0"' in html and 'data-for="hand"' in html
    r = client.post("/two-robots/factory", data={"do": "text", "stack0": "head:n", "stack1": "arms:n"})
    assert r.status_code == 400 and "Nuclear" in r.get_data(as_text=True)


def test_cards_from_the_buttons_go_to_this_seat(client):
    """Stacking Part Cards: an energy, then a part on a row. A card that cannot go there (the Liz example
    read the other way: a Solar card on the Chemical stack) is refused with why, and nothing is saved."""
    table = new_table(client)
    claim(client, table, 1, "Ben")
    tap(client, table, 1, "add:new:head", combo="cs")
    tap(client, table, 1, "add:stack:0:arms", combo="c")
    tap(client, table, 1, "add:hand:torso", combo="m")
    tap(client, table, 1, "add:drawn:legs", combo="e")
    seat = stored(client, table)["players"][1]
    mine = private(client, table, 1)  # the hand, the draw and the recent energies are the seat's own
    assert [c["part"] for c in seat["stacks"][0]["cards"]] == ["head", "arms"]
    assert [c["part"] for c in mine["hand"]] == ["torso"] and [c["part"] for c in mine["drawn"]] == ["legs"]
    assert mine["recent"][:3] == ["e", "m", "c"]
    assert seat["hand_count"] == 2 and not {"hand", "drawn", "recent"} & set(seat)
    before = version(client, table)
    html = tap(client, table, 1, "add:stack:0:legs", combo="s")
    assert version(client, table) == before and "no energy is on every card" in html
    html = tap(client, table, 1, "add:hand:legs", combo="")
    assert "Choose the card&#39;s energy first" in html or "Choose the card's energy first" in html


def test_the_draw_goes_into_the_hand_with_the_third_card(client):
    """Turn Overview (draw three): the three drawn cards go into the hand together, in one save."""
    table = new_table(client)
    claim(client, table, 0, "Ana")
    for part in ("head", "arms"):
        tap(client, table, 0, f"add:drawn:{part}", combo="s")
    assert private(client, table, 0)["hand"] == []
    v = version(client, table)
    tap(client, table, 0, "add:drawn:legs", combo="s")
    seat = private(client, table, 0)
    assert [c["part"] for c in seat["hand"]] == ["head", "arms", "legs"] and seat["drawn"] == []
    assert stored(client, table)["players"][0]["hand_count"] == 3
    assert version(client, table) == v + 1


def test_playing_freezing_and_discarding(client):
    """Stacking Part Cards: a card from the hand onto a stack; Frozen Stacks: a stack frozen; Cleanup:
    a card from the hand to the discard pile, which every seat's answers then leave out of the unseen cards."""
    table = new_table(client, state={"two_robots": {"players": [{"stacks": [{"cards": [C("head", "chemical")]}]}]}})
    claim(client, table, 0, "Ana")
    set_hand(client, table, 0, [C("arms", "chemical"), C("legs", "solar")])
    tap(client, table, 0, "play:arms:c|0")
    tap(client, table, 0, "freeze:0")
    tap(client, table, 0, "discard:legs:s")
    part = stored(client, table)
    assert [c["part"] for c in part["players"][0]["stacks"][0]["cards"]] == ["head", "arms"]
    assert part["players"][0]["stacks"][0]["frozen"] is True and private(client, table, 0)["hand"] == []
    assert part["players"][0]["hand_count"] == 0
    assert [c["part"] for c in part["discard"]] == ["legs"]
    odds = client.get(f"/two-robots/odds?table={table['id']}").get_data(as_text=True)
    assert "1 from the discard pile" in odds


def test_turn_settings_are_saved_by_path_and_bad_numbers_named(client):
    table = new_table(client)
    claim(client, table, 1, "Ben")
    url = f"/two-robots/factory?table={table['id']}&seat=1"
    r = client.post(url, data={"table": table["id"], "version": str(version(client, table)), "_seat": "1",
                               "players.1.event": "power",
                               "players.1.actions": "2", "players.1.powers_left": "1"})
    assert r.status_code == 200
    seat = stored(client, table)["players"][1]
    assert (seat["event"], seat["actions"], seat["powers_left"]) == ("power", 2, 1)
    r = client.post(url, data={"table": table["id"], "version": str(version(client, table)), "_seat": "1",
                               "players.1.actions": "9"})
    assert r.status_code == 400 and 'data-for="players.1.actions"' in r.get_data(as_text=True)
    assert stored(client, table)["players"][1]["actions"] == 2


def test_part_names_renamed_for_the_whole_table(app, client):
    """How to Build a Robot: HEAD and ARMS are fixed; the other two names are the table's, and renaming
    one renames it in every seat's cards (Ben's hand, on his own phone, too)."""
    table = new_table(client, state={"two_robots": {"players": [{}, {"stacks": [{"cards": [C("legs", "solar")]}]}]}})
    ben = phone_with_seat(app, table, 1, "Ben", hand=[C("legs", "chemical")])
    claim(client, table, 0, "Ana")
    tap(client, table, 0, "rename", name2="Body", name3="wheels")
    part = stored(client, table)
    assert part["part_names"] == ["head", "arms", "body", "wheels"]
    assert part["players"][1]["stacks"][0]["cards"][0]["part"] == "body" and private(ben, table, 1)["hand"][0]["part"] == "body"
    html = tap(client, table, 0, "rename", name2="head", name3="x")
    assert 'data-for="name2"' in html


def test_odds_default_deck_entered_counts_and_back(client):
    """Draw Phase: three cards. The unseen cards are the deck minus every card in sight; a count changed
    in the deck grid makes the deck the table's, and "back to the default deck" undoes that."""
    table = new_table(client, state={"two_robots": {"players": [
        {"stacks": [{"cards": [C("head", "chemical", "solar"), C("arms", "chemical", "solar"),
                               C("legs", "chemical", "solar")]}]}]}})
    claim(client, table, 0, "Ana")
    set_hand(client, table, 0, [C("head", "chemical")])
    url = f"/two-robots/odds?table={table['id']}"
    html = client.get(url).get_data(as_text=True)
    assert "9 of 96 unseen cards" in html and "7377/28576" in html
    r = client.post(url, data={"table": table["id"], "version": str(version(client, table)), "deck.parts.59.count": "0"})
    assert r.status_code == 200 and "8 of 95 unseen cards" in r.get_data(as_text=True)
    # the table's deck is the default one with that entry's count changed: the entry itself, exactly
    assert stored(client, table)["deck"]["parts"][59] == {"part": "torso", "energies": ["nuclear", "solar"], "count": 0}
    html = client.post(url, data={"table": table["id"], "version": str(version(client, table)), "do": "reset_deck"}
                       ).get_data(as_text=True)
    assert "9 of 96 unseen cards" in html and stored(client, table)["deck"] is None
    assert "19 of 96" in client.get(url + "&want=attack").get_data(as_text=True)


def test_an_old_tables_unseen_counts_become_its_deck(client):
    """Tables saved by the old odds page kept unseen counts per seat: they open, read as the table's deck
    (the counts plus the cards that seat had in sight)."""
    table = new_table(client, state={"two_robots": {"players": [
        {"stacks": [{"cards": [C("head", "solar")]}], "unseen": {"parts": {"head:s": 2, "torso:s": 1}, "attack": 5,
                                                                 "defense": 0}}]}})
    claim(client, table, 0, "Ana")
    html = client.get(f"/two-robots/odds?table={table['id']}").get_data(as_text=True)
    assert "entered for this table" in html and "of 8 unseen cards" in html  # 2 + 1 parts, 5 attacks


def test_a_get_never_writes(client):
    table = new_table(client, state={"two_robots": {"players": [{"stacks": "x"}], "part_names": 5}})
    v = version(client, table)
    for url in ("/two-robots/factory", "/two-robots/odds"):
        assert client.get(f"{url}?table={table['id']}&seat=1").status_code == 200
    assert version(client, table) == v


def test_pages_stay_small(app, client):
    """One copy of the state per page at most (pages under 150 KB), every seat with a full hand."""
    hand = [C(p, e) for p in ("head", "arms", "legs") for e in ("chemical", "solar", "nuclear", "mechanical")][:15]
    seat = {"stacks": [{"cards": [C(p, e) for p in ("head", "arms", "legs", "torso")] * 3} for e in
                       ("chemical", "solar", "nuclear", "mechanical", "electrical")]}
    table = new_table(client, players=5, state={"two_robots": {"players": [seat] * 5, "discard": hand * 6}})
    claim(client, table, 0, "Ana")
    set_hand(client, table, 0, hand)
    for k in range(1, 5):
        phone_with_seat(app, table, k, f"P{k}", hand=hand)
    for url in ("/two-robots/factory", "/two-robots/odds"):
        r = client.get(f"{url}?table={table['id']}")
        assert r.status_code == 200 and len(r.data) < 150_000, (url, len(r.data))


def test_every_rule_id_used_exists():
    """Rule links resolve: every id the Two Robots answers cite is an entry of the rules book."""
    from assistant.two_robots import pages as page
    from solvers.two_robots import cards, standings
    ids = {e.id for e in rules.books()["two-robots"].entries}
    used = set(page.FACTORY_RULES + page.PLAN_RULES + page.ODDS_RULES + page.STANDING_RULES) | set(standings.RULES)
    used |= {r for rs in cards.RULES.values() for r in rs}
    used |= {"tr-energy-stacks", "tr-stacking-part-cards", "tr-how-to-build-a-robot", "tr-duplicate-parts",
             "tr-frozen-stacks", "tr-attack-defense-cards", "tr-the-event-phase", "tr-note-sacrifice-anywhere",
             "tr-cleanup-phase", "tr-turn-overview", "tr-draw-phase", "tr-clarifications",
             "tr-clarification-apocalypse-frozen"}
    assert used <= ids, used - ids


def test_game_data_endpoint_says_what_is_unknown(client):
    """Setup (public transcription): the Active Robot pile by player count; the 5-player pile is unknown.
    The rulebook's named Attack and Defense cards are listed with what they do."""
    d = client.get("/api/two-robots/data").get_json()
    piles = {p["players"]: p for p in d["active_robot_pile"]["by_players"]}
    assert piles[5]["known"] is False and piles[5]["cards"] == []
    assert [(c["name"], c["p"]["exact"]) for c in piles[2]["cards"]] == [("Shots Fired", "3/4"), ("Weapons Jammed", "1/4")]
    assert (d["action_deck"]["robot_parts"], d["action_deck"]["attack"], d["action_deck"]["defense"]) == (60, 19, 21)
    assert [p["source"] for p in d["part_names"]] == ["rulebook", "rulebook", "unverified", "unverified"]
    assert all(s["health"] == 3 and s["turn_order_source"] == "unverified" for s in d["salvagers"])
    assert {c["name"]: c["effect"] for c in d["action_cards"]} == {
        "Nuclear Explosion": "destroy", "Ice Blast": "freeze", "Homing Missiles": "counter_attack",
        "Sentry Gunship": "cancel_event"}


def test_apocalypse_check_and_the_pile_for_the_player_count(client):
    """Clarifications: Apocalypse with two stacks of three parts, one frozen, may not trigger the ability.
    Setup: the Active Robot pile shown is the table's player count's (the 5-player one is not known)."""
    three = [C(p, "chemical") for p in ("head", "arms", "legs")]
    other = [C(p, "solar") for p in ("head", "arms", "torso")]
    table = new_table(client, players=5, state={"two_robots": {"players": [
        {"stacks": [{"cards": three, "frozen": True}, {"cards": other}], "salvager": "apocalypse"}]}})
    claim(client, table, 0, "Ana")
    html = client.get(f"/two-robots/factory?table={table['id']}").get_data(as_text=True)
    assert "stack 1 is frozen, so the ability may not be triggered" in html
    assert "Active Robot pile, 5 players:" in html and "not known" in html and "2 players" not in html


# ---- whatever the table holds or a phone posts, the pages answer --------------------------------------

ODD = [None, 5, "x", [1], {"x": 1}, True]
odd_leaf = st.none() | st.booleans() | st.integers(-3, 200) | st.sampled_from(
    ["", "x", "head", "arms", "power", "apocalypse", "part", "attack", "chemical", "cs", "head:c"])
odd_value = st.recursive(odd_leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.sampled_from(["players", "part_names", "stacks", "cards", "frozen", "hand", "drawn", "recent", "kind", "part",
                     "energies", "stacks_required", "play", "unseen", "parts", "attack", "defense", "event", "actions",
                     "salvager", "health", "names", "discard", "deck", "count", "energy", "head:c"]), inner,
    max_size=5), max_leaves=14)


def _pages(table_id: str, seat: int) -> list[tuple[str, str, dict | None]]:
    q = f"?table={table_id}&seat={seat}"
    f = {"table": table_id, "_seat": str(seat)}
    return [("GET", "/two-robots/factory" + q, None), ("GET", "/two-robots/odds" + q, None),
            ("POST", "/two-robots/factory" + q, {**f, "do": "add:stack:0:head", "combo": "c"}),
            ("POST", "/two-robots/factory" + q, {**f, "do": "play:head:c|0"}),
            ("POST", "/two-robots/factory" + q, {**f, "do": "rename", "name2": "body", "name3": "wheels"}),
            ("POST", "/two-robots/factory" + q, {**f, "players.0.event": "power"}),
            ("POST", "/two-robots/odds" + q, {**f, "deck.parts.3.count": "2", "deck.attack": "2"}),
            ("POST", "/two-robots/odds" + q, {**f, "do": "reset_deck"})]


def test_pages_answer_whatever_the_table_state_holds(client):
    states = [{"two_robots": 1}, {"two_robots": {"players": {"0": {}}}}, {"two_robots": {"part_names": ["head", 3]}}]
    for v in ODD:
        states += [{"table": v}, {"two_robots": v}, {"two_robots": {"players": [v, v]}}, {"two_robots": {"deck": v}},
                   {"two_robots": {"players": [{k: v for k in ("stacks", "hand", "drawn", "recent", "event", "actions",
                                                                "powers_left", "salvager", "health", "unseen")}]}}]
    for n, state in enumerate(states):
        table = new_table(client, state=state)
        if n % 3:  # a phone holding the seat (its hand is read and changed), else one without a seat
            claim(client, table, n % 2, "Ana")
        for method, url, form in _pages(table["id"], n % 2):
            r = client.get(url) if method == "GET" else client.post(url, data=form)
            assert r.status_code in (200, 400, 409), (method, url, state, r.status_code)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.fixed_dictionaries({}, optional={"two_robots": odd_value, "table": odd_value}), st.integers(0, 1))
def test_pages_answer_random_table_state(client, state, seat):
    table = new_table(client, state=state)
    claim(client, table, seat, "Ana")
    for method, url, form in _pages(table["id"], seat):
        r = client.get(url) if method == "GET" else client.post(url, data=form)
        assert r.status_code in (200, 400, 409), (method, url, state, r.status_code)


form_values = st.one_of(st.text(max_size=40), st.sampled_from(
    ["head:cs", "arms:c, legs:cs", "attack:3!", "defense:x", "add:new:head", "add:stack:9:arms", "play:x|y",
     "remove:stack:x|y", "freeze:99", "attack:head:c", "cs", "true", "-1", "99", "power", json.dumps({"players": 5})]))


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(["do", "combo", "stack0", "frozen0", "hand", "players.0.event", "players.0.actions",
                                        "name2", "name3", "seat", "_seat", "_state", "a_kind", "a_name", "gold",
                                        "a_energy", "want", "deck.parts.3.count", "deck.attack", "version"]),
                       form_values, max_size=8),
       st.sampled_from(["/two-robots/factory", "/two-robots/odds"]))
def test_page_forms_fuzz_never_5xx(client, data, url):
    r = client.post(url, data=data)
    assert r.status_code in (200, 400, 409)


def test_an_impossible_factory_is_said_and_can_be_mended(client):
    """Energy Stacks (no two stacks share an energy): a factory saved as it cannot be (two Nuclear stacks)
    says why in the players' words, still shows its cards, and taking one out brings the answers back."""
    table = new_table(client, state={"two_robots": {"players": [{"stacks": [{"cards": [C("head", "nuclear")]},
                                                                            {"cards": [C("arms", "nuclear")]}]}]}})
    claim(client, table, 0, "Ana")
    html = client.get(f"/two-robots/factory?table={table['id']}").get_data(as_text=True)
    assert "Stacks 1 and 2 can only be Nuclear between them" in html and "stacks[" not in html
    assert 'value="remove:stack:1|arms:n"' in html
    html = tap(client, table, 0, "remove:stack:1|arms:n")
    assert "1 unique stack, 0 active robots." in html
