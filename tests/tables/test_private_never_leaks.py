"""A seat's secrets reach no other phone (issue 20 "Done when": a property test over every endpoint and
page). Phone A holds seat 0 of a Two Robots table and keeps a hand of distinctive cards in its private
state; phone B holds seat 1 and phone C holds no seat. Every route the app has is called as B and as C:
each GET route with the table's id and `?table=&seat=0`, each POST page with a form naming the table and
seat 0, each JSON endpoint with `{"table", "seat": 0}`. No answer's body or headers holds any of A's card
names. The same calls as A do show them where a page or answer is about A's hand (so the check can fail)."""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.slow

WORD = st.text(alphabet="bcdfghjklmnpqrstvwxz", min_size=6, max_size=10)


def routes(app) -> list[tuple[str, str]]:
    """Every route, reads first (the writes, an undo or a seat given up among them, come last)."""
    out = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        for method in sorted((rule.methods or set()) & {"GET", "POST", "PUT", "DELETE"}):
            out.append((method, rule.rule))
    return sorted(out, key=lambda mr: mr[0] != "GET")


def fill(rule: str, tid: str) -> str:
    return re.sub(r"<(?:int:)?n>", "0", re.sub(r"<(?:path:)?(table_id|key)>", tid, re.sub(
        r"<(?:path:)?(entry_id|slug|game)>", "two-robots", rule)))


def everything(client, app, tid: str, version: int, reads_only: bool = False) -> list[str]:
    """Every route's answer to this phone, body and headers as text."""
    seen = []
    for method, rule in routes(app):
        if reads_only and method != "GET":
            continue
        url = fill(rule, tid)
        if "<" in url:
            continue
        sep = "&" if "?" in url else "?"
        if method == "GET":
            r = client.get(f"{url}{sep}table={tid}&seat=0")
        elif url.startswith("/api/"):
            r = client.open(url, method=method, json={"table": tid, "seat": 0, "version": version})
        else:
            r = client.open(f"{url}{sep}table={tid}&seat=0", method=method,
                            data={"table": tid, "seat": "0", "_seat": "0", "version": str(version)})
        seen.append(f"{method} {url} {r.status_code}\n{r.headers}\n{r.get_data(as_text=True)}")
    return seen


@settings(max_examples=3, phases=[Phase.explicit, Phase.reuse, Phase.generate], suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(names=st.lists(WORD, min_size=1, max_size=3, unique=True), parts=st.lists(
    st.sampled_from([("head", ["solar"]), ("arms", ["nuclear", "chemical"]), ("legs", ["mechanical"])]), max_size=2))
def test_no_answer_to_another_phone_holds_a_private_value(app, names, parts):
    a, b, c = app.test_client(), app.test_client(), app.test_client()
    tid = a.post("/api/tables", json={"game": "two-robots", "players": 3}).get_json()["id"]
    a.post(f"/api/tables/{tid}/seats/0", json={"name": "Ana"})
    b.post(f"/api/tables/{tid}/seats/1", json={"name": "Ben"})
    hand = [{"kind": "attack", "name": f"Zq {n}", "stacks_required": 1, "play": False} for n in names]
    hand += [{"kind": "part", "part": p, "energies": e} for p, e in parts]
    def give_a_its_hand() -> int:
        v = a.get(f"/api/tables/{tid}").get_json()["version"]
        r = a.put(f"/api/tables/{tid}/seats/0/private", json={"version": v, "state": {"hand": hand}})
        assert r.status_code == 200
        return v + 1

    v = give_a_its_hand()
    secrets = [f"Zq {n}" for n in names]
    # the holder does get them (the factory page, the private state), so the check below can fail
    mine = "\n".join(everything(a, app, tid, v, reads_only=True))
    assert all(s in mine for s in secrets)
    for phone in (b, c):
        v = give_a_its_hand()  # again: the other phone's turn through every route may undo it
        for answer in everything(phone, app, tid, v):
            assert not any(s in answer for s in secrets), answer[:300]
