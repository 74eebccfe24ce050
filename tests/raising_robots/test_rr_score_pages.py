"""The score, round-end and activation pages without JavaScript (Flask test client): each form posts and
the server answers with the same solver results as the API; every rule id the pages link exists."""
from __future__ import annotations

import json
import re

from flask import url_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.raising_robots import TOOLS
from assistant.raising_robots.answers import ACTIVATION_RULES
from assistant.raising_robots.score import PAGE_RULE_IDS
from assistant.rules.loader import load_books
from solvers.raising_robots import round_end, scoring
from solvers.raising_robots.activations import RULE_EXAMPLE, RULE_RUN


def text(r) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.get_data(as_text=True)))


def test_every_linked_rule_entry_exists():
    ids = {e.id for b in load_books().values() for e in b.entries}
    linked = set(PAGE_RULE_IDS) | set(round_end.ALL_RULES) | set(ACTIVATION_RULES) | {scoring.RULE_ICONS, scoring.RULE_ABILITY, scoring.RULE_SOLO, RULE_RUN,
                                   RULE_EXAMPLE} | {a[3] for a in round_end.ABILITIES.values()}
    assert linked <= ids, sorted(linked - ids)


def test_hub_entries_point_at_pages_that_answer(app, client):
    """The hub lists the pages in the order of a game: setup, planner, search, round end, final score."""
    with app.test_request_context():
        urls = [url_for(endpoint) for _, _, endpoint, _ in TOOLS]
        hub = [url_for(t["endpoint"]) for t in app.extensions["tablebot_tools"]["raising-robots"]]
    assert urls == hub == ["/raising-robots/competitions/setup", "/raising-robots/competitions",
                           "/raising-robots/search", "/raising-robots/round-end", "/raising-robots/score",
                           "/raising-robots/activations"]
    assert all(client.get(u).status_code == 200 for u in urls)


def test_score_form_post_scores_the_contract_example(client):
    """api.md example through the form: 44 VP, and the solo target with C&F single game (+20)."""
    form = {"seat": "0", "players": "1", "players_json": "[]", "inv-gear": "7", "inv-vp": "23", "inv-battery": "2",
            "inv-sensor": "1", "inv-duct_tape": "2", "inv-robot_cards": "1", "s-design-1-vp": "5",
            "s-design-1-chip": "1", "s-design-1-up": "1", "s-design-1-ge": "resource_pairs:gear", "c0-grade": "B",
            "c0-ec": "1", "c0-vp-D": "2", "c0-vp-C": "4", "c0-vp-B": "6", "c0-vp-A": "9",
            "solo-threshold": "30", "solo-mode": "single", "solo-cf": "1"}
    r = client.post("/raising-robots/score", data=form)
    assert r.status_code == 200
    t = text(r)
    assert "Player 1: 44 VP" in t
    assert "Target 50" in t


def test_score_form_names_a_bad_field_and_keeps_the_page(client):
    r = client.post("/raising-robots/score", data={"players_json": "[]", "s-design-1-vp": "abc"})
    assert r.status_code == 400
    assert "Design column 1 VP: “abc” is not a whole number" in text(r)


def test_score_kept_with_a_table(client):
    table = client.post("/api/tables", json={"game": "raising-robots", "players": 2}).get_json()
    url = f"/raising-robots/score?table={table['id']}"
    client.post(url, data={"seat": "1", "version": str(table["version"]), "inv-vp": "9",
                           "s-recycle-1-vp": "4", "action": "seat-0"})
    state = client.get(f"/api/tables/{table['id']}").get_json()["state"]
    assert state["rr_players"][1]["inventory"]["vp"] == 9
    (robot,) = state["rr_players"][1]["robots"]
    assert robot.pop("id") and robot == {"row": "recycle", "column": 1, "vp": 4, "needs_microchip": False,
                                         "upgraded": False}
    page = text(client.get(url + "&seat=1"))
    assert "Player 2: 13 VP" in page


def test_score_keeps_robot_fields_other_pages_own(client):
    """rr_players is shared: a robot's cost columns (competitions page) survive a score edit."""
    table = client.post("/api/tables", json={"game": "raising-robots", "players": 1}).get_json()
    state = {"rr_players": [{"robots": [{"row": "design", "cost_energy": [2, 3], "cost_resources": [3, 2], "vp": 4}],
                             "tokens": {"unplaced": {"pink": 1}}}]}
    table = client.put(f"/api/tables/{table['id']}", json={"version": 1, "state": state}).get_json()
    client.post(f"/raising-robots/score?table={table['id']}",
                data={"version": "2", "s-design-1-vp": "5", "s-design-1-up": "1"})
    saved = client.get(f"/api/tables/{table['id']}").get_json()["state"]["rr_players"][0]
    assert saved["robots"][0]["cost_resources"] == [3, 2] and saved["robots"][0]["vp"] == 5
    assert saved["tokens"] == {"unplaced": {"pink": 1}}


def test_round_end_form_runs_the_johannes_example(client):
    """Johannes example through the form: +1 battery, microchip, sensor, then +2 VP."""
    form = {"inv-battery": "10", "inv-microchip": "7", "inv-sensor": "5", "ord-johannes-base": "1",
            "ord-johannes-upgrade": "2", "action": "run"}
    t = text(client.post("/raising-robots/round-end", data=form))
    assert "+1 sensor +1 microchip +1 battery" in t and "+2 vp" in t
    form["action"] = "apply"
    t = text(client.post("/raising-robots/round-end", data=form))
    assert "The result is now your inventory" in t
    assert 'name="inv-battery" type="number" inputmode="numeric" min="0" max="999" value="11"' in \
        client.post("/raising-robots/round-end", data=form).get_data(as_text=True)


def test_round_end_form_names_the_problem(client):
    form = {"ord-sacagawea-upgrade": "1", "action": "run"}
    r = client.post("/raising-robots/round-end", data=form)
    assert r.status_code == 200
    assert "Round-end step 1: reward: choose 1 battery and 1 Robot Card, or 2 VP" in text(r)
    assert "abilities[0]" not in text(r)  # never a raw path


def test_activations_form_loads_and_checks_the_variant(client):
    """Finite Loops Example: the page's variant (Bingo picks Hallyu) is flagged at 3.C.1."""
    t = text(client.post("/raising-robots/activations", data={"action": "variant"}))
    assert "Step 3.C.1: Hallyu was already activated at step 3" in t
    t = text(client.post("/raising-robots/activations", data={"action": "example"}))
    assert "No robot runs twice in one activation." in t


def test_activations_rows_need_sensible_indents(client):
    form = {"k-0": "robot", "l-0": "A", "d-0": "0", "k-1": "robot", "l-1": "B", "d-1": "2"}
    r = client.post("/raising-robots/activations", data=form)
    assert "Row 2: is indented more than one step" in text(r)
    form = {"k-0": "board", "l-0": "x", "d-0": "0", "k-1": "robot", "l-1": "B", "d-1": "1"}
    assert "sets nothing off" in text(client.post("/raising-robots/activations", data=form))


def test_page_json_of_all_seats_round_trips(client):
    """Without a table the page carries every seat in a hidden field; a broken value is ignored."""
    seats = [{"inventory": {"vp": 5}, "robots": [], "class_cards": []}, {"inventory": {"vp": 7}}]
    r = client.post("/raising-robots/score", data={"players": "2", "seat": "0", "players_json": json.dumps(seats),
                                                   "inv-vp": "5"})
    html = r.get_data(as_text=True)
    # the standings: Player 2 first with the 7 VP carried in the hidden field, Player 1 second with 5
    rows = re.findall(r'<tr[^>]*><td class="num">(\d)</td>\s*<td>([^<]+)</td>\s*<td class="num">(\d+)</td>', html)
    assert rows == [("1", "Player 2", "7"), ("2", "Player 1", "5")]
    r = client.post("/raising-robots/score", data={"players": "2", "players_json": "{broken"})
    assert r.status_code == 200


FORM_KEYS = ["seat", "players", "players_json", "action", "version", "inv-vp", "inv-gear", "s-design-1-vp",
             "s-design-1-ge", "s-design-1-up", "c0-grade", "c0-vp-A", "c0-th-D", "c0-template", "c0-count",
             "solo-threshold", "solo-mode", "ord-johannes-base", "ord-charlotte-base", "ch-action", "ch-w-gear",
             "ch-cost", "ch-p-robot_cards", "ord-confucius_friendship-base", "co-batteries", "sa-reward",
             "k-0", "l-0", "d-0", "e-0", "k-1", "l-1", "d-1", "phase", "energy", "blank"]
FORM_VALUES = st.sampled_from(["", "0", "1", "2", "5", "99", "-1", "1000", "x", "A", "auto", "assemble", "unlock",
                               "robot", "board", "run-design", "seat-1", "add-player", "apply", "more", "example",
                               "resource_pairs:gear", "full_columns", "friends-inventory-vp", "[{}]", "[1]",
                               '[{"robots": [{"row": "design", "column": "x"}], "inventory": {"vp": -3}}]'])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(FORM_KEYS), FORM_VALUES, max_size=12))
def test_page_forms_never_5xx(client, form):
    for url in ("/raising-robots/score", "/raising-robots/round-end", "/raising-robots/activations"):
        r = client.post(url, data=form)
        assert r.status_code in (200, 400), (url, form, r.get_data(as_text=True)[:300])


def test_pages_survive_odd_table_state(client):
    """The table's state is any JSON object other phones wrote: the pages read it without crashing."""
    table = client.post("/api/tables", json={"game": "raising-robots", "players": 2}).get_json()
    state = {"rr_players": [{"robots": [{"row": "design", "column": "x", "vp": "big"}, 5, {"row": "moon"}],
                             "inventory": {"vp": "x", "gear": True}, "class_cards": [{"grade": "Q"}, "x"]}, "y"],
             "rr_score": {"solo": "x"}, "rr_round_end": {"seats": {"0": {"order": {"johannes-base": "1"}, "co": 3}}},
             "table": {"names": [3, "Bo"]}}
    client.put(f"/api/tables/{table['id']}", json={"version": 1, "state": state})
    for url in ("/raising-robots/score", "/raising-robots/round-end"):
        for seat in ("0", "1"):
            r = client.get(f"{url}?table={table['id']}&seat={seat}")
            assert r.status_code == 200, (url, r.get_data(as_text=True)[:300])
        r = client.post(f"{url}?table={table['id']}", data={"version": "2", "seat": "0", "action": "run"})
        assert r.status_code in (200, 400)
