"""API of the activation-chain checker ("Run a Phase Row (Energy Action)", "Finite Loops Example");
400s name the field; fuzz never 5xx."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

URL = "/api/raising-robots/activations/check"


def test_finite_loops_example_endpoint(client):
    """Finite Loops Example: the chain is legal; the variant where Bingo picks Hallyu is flagged."""
    d = client.get("/api/raising-robots/activations/example").get_json()
    assert d["check"]["ok"] is True
    assert [a["robots"] for a in d["check"]["activations"]] == [["Hallyu", "Bingo", "Zeus", "Sir Kit"], ["Sir Kit"]]
    assert d["variant_check"]["ok"] is False
    assert [n["path"] for n in d["variant_check"]["nodes"] if n["status"] == "repeat"] == ["3.C.1"]
    again = client.post(URL, json=d["example"]).get_json()
    assert again == d["check"]


def test_bad_step_names_the_field(client):
    body = {"phase": "design", "energy": 5, "steps": [{"robot": "A", "then": [{"run": "upgrade", "energy": 2}]}]}
    r = client.post(URL, json=body)
    assert r.status_code == 400
    assert r.get_json()["error"]["fields"][0]["path"] == "steps[0].then[0].run"


def test_missing_steps_is_named(client):
    r = client.post(URL, json={"phase": "design"})
    assert r.status_code == 400
    assert r.get_json()["error"]["fields"][0]["path"] == "steps"


def test_deep_nesting_is_refused_cleanly(client):
    node: dict = {"robot": "X0"}
    for i in range(1, 40):
        node = {"robot": f"X{i}", "then": [node]}
    r = client.post(URL, json={"steps": [node]})
    assert r.status_code == 400


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.sampled_from(["design", "fabricate", "Zeus", "", "x" * 130]),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(
        st.sampled_from(["steps", "phase", "energy", "robot", "board", "run", "then", "does"]), kids, max_size=4),
    max_leaves=16)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(json_values)
def test_fuzz_never_5xx(client, body):
    r = client.post(URL, data=json.dumps(body), content_type="application/json")
    assert r.status_code in (200, 400), (body, r.get_data(as_text=True)[:300])
