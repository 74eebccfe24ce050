"""A seat given up keeps its secret (Completion Rewards: the cards a seat drew are its own until it keeps
one; rule entry rr-reading-friendship-discard). Another phone may still draw and keep for a seat no phone
holds, but from the public record only: written from that OTHER phone, on twin tables that differ only in
the given-up seat's secret draws, every answer it gets is byte-identical, and the seat's private state is
left as it was."""
from __future__ import annotations

import json

from assistant.db import engine
from assistant.tables import store

TWIN_DRAWS = (["albert", "charles", "temple"], ["nikola", "confucius", "temple"])  # temple kept in both


def _version(client, tid: str) -> int:
    return client.get(f"/api/tables/{tid}").get_json()["version"]


def act(client, tid: str, action: dict):
    return client.post(f"/api/raising-robots/tables/{tid}/friendship",
                       json={"version": _version(client, tid), "action": action})


def _answer(r, tid: str) -> str:
    """A response as bytes to compare between twins: the table's own id and times taken out."""
    def scrub(v):
        if isinstance(v, dict):
            return {k: scrub(x) for k, x in v.items() if k not in ("id", "code", "created", "updated", "created_at",
                                                                    "updated_at")}
        if isinstance(v, list):
            return [scrub(x) for x in v]
        return v
    return f"{r.status_code} " + json.dumps(scrub(r.get_json()), sort_keys=True).replace(tid, "TID")


def _given_up(app, new_table, drawn: list[str], pending: bool):
    """Seat 0 drew `drawn` in secret on phone a (and kept temple unless `pending`), then gave the seat up."""
    table = new_table("raising-robots", 2, {"raising_robots": {"seats": [{"inventor": {"name": "Johannes"}},
                                                                         {"inventor": {"name": "Ada"}}]}})
    tid = table["id"]
    a, b = app.test_client(), app.test_client()
    for n, c in enumerate((a, b)):
        assert c.post(f"/api/tables/{tid}/seats/{n}", json={"name": f"p{n}"}).status_code == 200
    assert act(a, tid, {"type": "setup"}).status_code == 200
    assert act(a, tid, {"type": "draw", "seat": 0, "count": 3, "cards": drawn}).status_code == 200
    if not pending:
        assert act(a, tid, {"type": "keep", "seat": 0, "card": "temple"}).status_code == 200
    assert a.delete(f"/api/tables/{tid}/seats/0", json={}).status_code == 200
    with app.app_context():
        private = store.read_private(engine(), store.get(engine(), tid), 0)
    return tid, b, private


def _probe(b, tid: str, draw_first: bool) -> list[str]:
    answers = []
    if draw_first:
        answers.append(_answer(act(b, tid, {"type": "draw", "seat": 0, "count": 3}), tid))
    deck = b.get(f"/api/tables/{tid}").get_json()["state"]["raising_robots"]["friendship"]["deck_cards"]
    for card in deck:
        r = act(b, tid, {"type": "keep", "seat": 0, "card": card})
        answers.append(f"{card}: " + _answer(r, tid))
        if r.status_code == 200:
            break
    answers.append(_answer(b.get(f"/api/tables/{tid}"), tid))
    return answers


def _unchanged_private(app, tid: str, before: dict) -> None:
    with app.app_context():
        assert store.read_private(engine(), store.get(engine(), tid), 0) == before


def test_keeping_after_a_draw_for_a_given_up_seat_tells_nothing_of_its_old_draws(app, new_table):
    runs, kept = [], []
    for drawn in TWIN_DRAWS:
        tid, b, private = _given_up(app, new_table, drawn, pending=False)
        runs.append(_probe(b, tid, draw_first=True))
        kept.append((tid, private))
    assert runs[0] == runs[1]
    for tid, private in kept:
        _unchanged_private(app, tid, private)
    assert runs[0][1].startswith(runs[0][1].split(":")[0] + ": 200")  # the first card of the deck is taken


def test_keeping_from_a_given_up_seats_named_draw_tells_nothing_of_it(app, new_table):
    """(Passed before the fix too, by refusing every keep with a 403; kept so that answering from the public
    record does not reopen the probe on a draw the seat named.)"""
    runs = []
    for drawn in TWIN_DRAWS:
        tid, b, private = _given_up(app, new_table, drawn, pending=True)
        runs.append(_probe(b, tid, draw_first=False))
        _unchanged_private(app, tid, private)
    assert runs[0] == runs[1]
