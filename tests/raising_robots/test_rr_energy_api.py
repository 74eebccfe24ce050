"""API of the round's energy (api.md "Additions of round 3": `POST /api/raising-robots/energy`): the
contract's shape, the player aid's Phase Rules and Total Energy, 400s naming the field, fuzz never 5xx."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

URL = "/api/raising-robots/energy"


def fields(r):
    return [f["path"] for f in r.get_json()["error"]["fields"]]


def test_contract_example(client):
    """Total Energy (player aid): Design = card 5 + 1 cube x2 (multiplier) + 1 battery + 1 bonus = 9;
    Fabricate is performed with 2 cubes though unassigned (Phase Rules); Upgrade at the card's 3."""
    body = {"cards": [{"phase": "design", "energy": 5, "cubes": 1, "multiplier": True},
                      {"phase": "upgrade", "energy": 3, "cubes": 0, "multiplier": False}],
            "board_cubes": {"upgrade": 0, "assemble": 0, "design": 1, "fabricate": 2, "recycle": 0},
            "batteries": {"design": 1}, "bonuses": {"design": 1}}
    r = client.post(URL, json=body)
    assert r.status_code == 200
    d = r.get_json()
    assert [(p["phase"], p["performed"], p["total"]) for p in d["phases"]] == [
        ("upgrade", True, 3), ("assemble", False, 0), ("design", True, 9), ("fabricate", True, 2),
        ("recycle", False, 0)]
    assert all(isinstance(p["why"], str) and p["why"] for p in d["phases"])
    assert d["phases"][2]["parts"] == {"card": 5, "cubes": 1, "cube_energy": 2, "batteries": 1, "bonus": 1}
    assert "rr-fact-total-energy" in d["rules"] and d["energy_cards"]["source"] == "unverified"


def test_battery_on_a_phase_not_performed(client):
    """Total Energy: batteries never let you perform a phase you do not otherwise get."""
    d = client.post(URL, json={"cards": [{"phase": "design", "energy": 2}], "batteries": {"recycle": 4}}).get_json()
    rec = d["phases"][4]
    assert rec["performed"] is False and rec["parts"]["batteries"] == 0


def test_unmodelled_ability_is_listed(client):
    d = client.post(URL, json={"cards": [{"phase": "design", "energy": 2}], "friendships": ["Nikola"]}).get_json()
    assert any("Nikola" in n for n in d["notes"])
    assert d["abilities"][0]["treatment"] == "not_modelled"


@pytest.mark.parametrize("body,path", [
    ({}, "cards"),
    ({"cards": [{"phase": "lunch", "energy": 2}]}, "cards[0].phase"),
    ({"cards": [{"phase": "design"}]}, "cards[0].energy"),
    ({"cards": [{"phase": "design", "energy": "5"}]}, "cards[0].energy"),
    ({"cards": [{"phase": "design", "energy": 2, "multiplier": 1}]}, "cards[0].multiplier"),
    ({"cards": [{"phase": "design", "energy": 2}, {"phase": "design", "energy": 1}]}, "cards[1].phase"),
    ({"cards": [{"phase": p, "energy": 1} for p in ("design", "upgrade", "recycle")]}, "cards"),
    ({"cards": [], "board_cubes": {"design": -1}}, "board_cubes.design"),
    ({"cards": [], "board_cubes": {"kitchen": 1}}, "board_cubes.kitchen"),
    ({"cards": [], "batteries": {"design": True}}, "batteries.design"),
    ({"cards": [], "bonuses": {"design": 50}}, "bonuses.design"),
    ({"cards": [{"phase": "design", "energy": 1, "twice": True}]}, "cards[0].twice"),
])
def test_bad_input_names_the_field(client, body, path):
    r = client.post(URL, json=body)
    assert r.status_code == 400
    assert path in fields(r)


json_values = st.recursive(st.none() | st.booleans() | st.integers(-5, 30) | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner,
                                                                                      max_size=3), max_leaves=8)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(["cards", "board_cubes", "batteries", "bonuses", "inventor", "x"]),
                       json_values, max_size=4))
def test_fuzz_never_5xx(client, body):
    assert client.post(URL, json=body).status_code in (200, 400)
