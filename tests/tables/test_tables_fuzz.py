"""Fuzzing the table endpoints with hypothesis: whatever arrives, the answer is never a 5xx and every
error has the contract's body."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
bodies = st.one_of(
    json_values.map(json.dumps),
    st.fixed_dictionaries({"game": st.sampled_from(["raising-robots", "robotariat", "two-robots", "x", 3]),
                           "players": json_values | st.integers(-3, 9)}).map(json.dumps),
    st.fixed_dictionaries({"version": json_values | st.integers(-2, 5), "state": json_values}).map(json.dumps),
    st.text(max_size=40),
    st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
)
keys = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="/?#%\\"), min_size=1,
               max_size=30)
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

pytestmark = pytest.mark.slow  # many examples; `make test` runs them, a quick run may skip them


def check(response):
    assert response.status_code < 500, response.get_data(as_text=True)[:300]
    if response.status_code >= 400:
        err = response.get_json()["error"]
        assert err["message"] and isinstance(err["fields"], list)


@FUZZ
@given(body=bodies, content_type=st.sampled_from(["application/json", "text/plain", None]))
def test_create_never_fails_on_our_side(client, body, content_type):
    check(client.post("/api/tables", data=body, content_type=content_type))


@FUZZ
@given(body=bodies, key=keys, undo_body=bodies)
def test_put_get_undo_history_never_fail_on_our_side(client, body, key, undo_body):
    t = client.post("/api/tables", json={"game": "robotariat", "players": 4}).get_json()
    check(client.put(f"/api/tables/{t['id']}", data=body, content_type="application/json"))
    check(client.post(f"/api/tables/{t['id']}/undo", data=undo_body, content_type="application/json"))
    check(client.get(f"/api/tables/{t['id']}/history"))
    for path in (f"/api/tables/{key}", f"/api/tables/{key}/history"):
        check(client.get(path))
    check(client.put(f"/api/tables/{key}", data=body, content_type="application/json"))
