"""Robotariat API fuzz (api.md: no input may produce a 5xx; bad input is a 400 naming a field)."""
from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from test_robotariat_api import BODY

from assistant import create_app

URLS = ["/api/robotariat/npc-turn", "/api/robotariat/suggest", "/api/robotariat/round-start",
        "/api/robotariat/lookahead", "/api/robotariat/objectives", "/api/robotariat/board/validate"]

JSON = hs.recursive(hs.none() | hs.booleans() | hs.integers(-10**6, 10**6) | hs.floats(allow_nan=False)
                    | hs.text(max_size=8) | hs.sampled_from(["s0", "s5", "mm", "1/3", "yellow_x", "uberbot"]),
                    lambda inner: hs.lists(inner, max_size=4) | hs.dictionaries(hs.text(max_size=6), inner, max_size=4),
                    max_leaves=10)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


# the contract body plus every optional field the endpoints read
FUZZ_BODY = BODY | {"weights": {"reputation": "5", "poster": 1}, "horizon": 2, "turns": 2, "limit": 5, "row": 3,
                    "npc": "civilian", "facts": {"objectives": ["bursar", None, "spy"], "cards_played": [1, 2, 3],
                                                 "spy_correct": [False, False, True], "max_junked": 2},
                    "log": [{"round": 1, "player": 0, "junked": 2, "office": 5}], "office_track": [0, 5, 0]}
PATHS = [p for p in _paths(FUZZ_BODY) if p]


def _set(body, path, value):
    target = body
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory):
    app = create_app({"TESTING": True, "SECRET_KEY": "test",
                      "DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('rbfuzz') / 'f.sqlite3'}"})
    return app.test_client()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(url=hs.sampled_from(URLS), edits=hs.lists(hs.tuples(hs.sampled_from(PATHS), JSON), min_size=1, max_size=3))
def test_mutated_bodies_never_crash(fuzz_client, url, edits):
    body = copy.deepcopy(FUZZ_BODY)
    for path, value in edits:
        try:
            _set(body, path, value)
        except (KeyError, IndexError, TypeError):
            continue
    r = fuzz_client.post(url, data=json.dumps(body), content_type="application/json")
    assert r.status_code in (200, 400), r.get_data(as_text=True)[:300]
    if r.status_code == 400:
        err = r.get_json()["error"]
        assert err["message"] and err["fields"] and all(f["path"] for f in err["fields"])


@settings(max_examples=40, deadline=None)
@given(url=hs.sampled_from(URLS), body=JSON)
def test_arbitrary_json_never_crashes(fuzz_client, url, body):
    r = fuzz_client.post(url, data=json.dumps(body), content_type="application/json")
    assert r.status_code in (200, 400)
