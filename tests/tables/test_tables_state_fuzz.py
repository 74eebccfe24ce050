"""A table's state is whatever JSON object the phones saved: whatever it holds, every page kept with
the table still answers (never a 5xx), so one odd save cannot lock the whole table out.

Issue 16 adds what broke pages before: lone surrogates, NUL characters, numbers past any bound (and
past what Python's int() reads), Infinity and NaN, deep nesting, and wrong types. Each state is sent
through the API (a 200, or a 400 naming the part) and then also stored as it is, bypassing the
checks, as an older version of the app could have stored it: every page and endpoint answers 200 or
4xx either way, and every JSON answer is strict JSON."""
from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.exc import DBAPIError
from tables_helpers import PLAYERS, assert_answers, store_legacy_state, table_urls

pytestmark = [pytest.mark.slow, pytest.mark.both_databases]


@dataclass(frozen=True)
class Raw:
    """JSON text put in as it is: what json.dumps cannot write (5,000 digits) or would write as invalid JSON."""
    text: str


KEYS = ["table", "raising_robots", "rr_players", "rr_competitions", "rr_search", "rr_score", "rr_round_end", "robotariat",
        "two_robots"]
INNER_KEYS = ["names", "board", "spaces", "links", "state", "players", "inventory", "robots", "pool", "solo",
              "round", "seat", "0", "x", "y", "id", "cards", "mech_masters", "notes", "at", "\ud800", "a\x00"]
odd = st.one_of(
    st.sampled_from(["Ann\ud800", "\udfff", "a\x00b", "\x00", "\ud83d", "ok\ud800\udc00"]),
    st.sampled_from([Raw("1e999"), Raw("-1e999"), Raw("NaN"), Raw("Infinity"), Raw("-Infinity"), Raw("9" * 4000),
                     Raw("-" + "7" * 5000), Raw("1e308"), Raw("[" * 800 + "]" * 800), Raw("[" * 40 + "]" * 40),
                     Raw('{"id": ' + "[" * 100 + "]" * 100 + "}")]),
    st.integers(-10**30, 10**30),
    st.floats(allow_nan=True, allow_infinity=True),
)
leaf = st.none() | st.booleans() | st.integers(-5, 10**6) | st.text(max_size=6) | odd
values = st.recursive(leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.sampled_from(INNER_KEYS), inner, max_size=4), max_leaves=10)
states = st.dictionaries(st.sampled_from(KEYS), values, max_size=4)


def to_json(value) -> str:
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)}: {to_json(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(to_json(v) for v in value) + "]"
    return json.dumps(value)  # NaN and Infinity as json.dumps writes them; surrogates as \\u escapes


def legacy_possible(app, raw: str) -> bool:
    """Whether an older app could have stored `raw`: PostgreSQL's json type never took NaN or Infinity."""
    try:
        store_legacy_state(app, _table_id[0], raw)
    except DBAPIError:
        return False
    return True


_table_id = [""]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(state=states, game=st.sampled_from(["raising-robots", "robotariat", "two-robots"]))
def test_every_page_of_a_table_answers_whatever_its_state(app, client, state, game):
    t = client.post("/api/tables", json={"game": game, "players": PLAYERS[game]}).get_json()
    raw = to_json(state)
    put = client.put(f"/api/tables/{t['id']}", data=f'{{"version": 1, "state": {raw}}}',
                     content_type="application/json")
    assert put.status_code in (200, 400), (raw[:300], put.get_data(as_text=True)[:300])
    if put.status_code == 400:
        assert put.get_json()["error"]["fields"][0]["path"]
    for url in table_urls(app, t):
        assert_answers(client, url, raw[:300])
    _table_id[0] = t["id"]
    if not legacy_possible(app, raw):
        return
    for url in table_urls(app, t):
        assert_answers(client, url, raw[:300])
    version = client.get(f"/api/tables/{t['id']}/version").get_json()["version"]
    stale = client.post(f"/t/{t['id']}/edit", data={"version": "1", "names.0": "Cy", "round": "1"})
    assert stale.status_code in (200, 400), raw[:300]  # saved on the newest state, or a problem shown
    version = client.get(f"/api/tables/{t['id']}/version").get_json()["version"]
    undo = client.post(f"/t/{t['id']}/undo", data={"version": str(version)})
    assert undo.status_code in (302, 409), raw[:300]
