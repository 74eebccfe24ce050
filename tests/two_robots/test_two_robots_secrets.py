"""A Two Robots hand reaches no phone but its holder's (issue 20; rulebook, Clarifications: of a hand only
the number of cards is public).

Three phones on a 3-seat table: A (Ana) holds seat 0 and enters her hand, B (Ben) holds seat 1, C holds no
seat. Everything B and C can ask about the table (its JSON by id and by code, the history, the version
and its ETag, the table page, the factory and odds pages with and without `?seat=0`, the three answers
for seat 0 and for their own seat, seat 0's private state) is fetched, and two things are checked:
  * no body or header holds a name from A's hand;
  * nothing in it depends on A's hand at all: a twin table built by the same steps, where A's hand holds
    other cards (as many), gives B and C the same answers once the table's id, code and clock times are
    blanked out. This covers part cards too, whose words ("TORSO", "Solar") are on every page anyway.
A's own answers do use her hand (so the checks can fail). Undo brings a played card back into the hand;
a take-over moves the seat (and its secrets) to another phone, and every phone is told.
"""
from __future__ import annotations

import logging
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tr_helpers import claim, current_version, private, set_hand

SECRET = "Quietly Zebra 7"
TWIN_SECRET = "Gently Otter 3"


def C(part: str, *energies: str) -> dict:
    return {"kind": "part", "part": part, "energies": list(energies)}


def said(hand: list[dict]) -> list[tuple]:
    """Cards as the rules tell them apart (the stored ones carry every field, with defaults)."""
    return [(c["kind"], c["part"] if c["kind"] == "part" else c["name"], tuple(c.get("energies") or ()),
             c.get("stacks_required")) for c in hand]


def attack(name: str, gold: int = 1) -> dict:
    return {"kind": "attack", "name": name, "stacks_required": gold, "play": False}


ANA_STACKS = [{"cards": [{"part": p, "energies": ["chemical"]} for p in ("head", "arms", "legs")], "frozen": False}]
BEN_STACKS = [{"cards": [{"part": "head", "energies": ["solar"]}], "frozen": False}]
ANA_HAND = [C("torso", "chemical"), attack(SECRET)]
TWIN_HAND = [C("torso", "nuclear"), attack(TWIN_SECRET, 2)]   # as many cards: the same public hand size


class Table:
    """A 3-seat table with its three phones: `a` holds seat 0 (Ana), `b` seat 1 (Ben), `c` no seat."""

    def __init__(self, app, hand: list[dict], drawn: list[dict] = (), recent: list[str] = ()):
        self.a, self.b, self.c = app.test_client(), app.test_client(), app.test_client()
        made = self.a.post("/api/tables", json={"game": "two-robots", "players": 3}).get_json()
        self.id, self.code = made["id"], made["code"]
        state = {"two_robots": {"players": [{"stacks": ANA_STACKS}, {"stacks": BEN_STACKS}, {}]}}
        assert self.a.put(f"/api/tables/{self.id}", json={"version": 1, "state": state}).status_code == 200
        claim(self.a, self.id, 0, "Ana")
        claim(self.b, self.id, 1, "Ben")
        set_hand(self.a, self.id, 0, hand, drawn, recent)

    def json(self, phone) -> dict:
        return phone.get(f"/api/tables/{self.id}").get_json()


def asks(t: Table, own: int) -> list[tuple[str, str, dict | None]]:
    """Every question a phone can put about the table: (method, url, JSON body); `own` is the seat the
    phone calls its own (B holds 1; C holds none and tries 2)."""
    out: list[tuple[str, str, dict | None]] = [
        ("GET", f"/api/tables/{t.id}", None), ("GET", f"/api/tables/{t.code}", None),
        ("GET", f"/api/tables/{t.id}/history", None), ("GET", f"/api/tables/{t.id}/version", None),
        ("GET", f"/api/tables/{t.id}/seats/0/private", None), ("GET", f"/api/tables/{t.id}/seats/{own}/private", None),
        ("GET", f"/t/{t.id}", None)]
    for page in ("factory", "odds"):
        out += [("GET", f"/two-robots/{page}?table={t.id}", None), ("GET", f"/two-robots/{page}?table={t.id}&seat=0", None)]
    for answer in ("factory", "plan", "odds"):
        out += [("POST", f"/api/two-robots/{answer}", {"table": t.id, "seat": 0}),
                ("POST", f"/api/two-robots/{answer}", {"table": t.id, "seat": own})]
    return out


def responses(t: Table, phone, own: int) -> list[tuple[str, int, str, str]]:
    """(what was asked, status, headers, body) for every question of `asks`."""
    out = []
    for method, url, body in asks(t, own):
        r = phone.get(url) if method == "GET" else phone.post(url, json=body)
        out.append((f"{method} {url} {body}", r.status_code, str(r.headers), r.get_data(as_text=True)))
    return out


CLOCK = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?")


def blanked(t: Table, seen: list[tuple[str, int, str, str]]) -> list[tuple[str, int, str | None, str]]:
    """The answers with the table's id, code and clock times blanked out, to compare with a twin table's."""
    def blank(text: str) -> str:
        return CLOCK.sub("<at>", text.replace(t.id, "<id>").replace(t.code, "<code>"))
    return [(blank(asked), status, re.search(r'ETag: (\S+)', headers).group(1) if "ETag" in headers else None,
             blank(body)) for asked, status, headers, body in seen]


def assert_kept_from(seen: list[tuple[str, int, str, str]], names: list[str]) -> None:
    for asked, status, headers, body in seen:
        for name in names:
            assert name not in body and name not in headers, (name, asked, status)


# ---- (a) what B and C see, what A sees --------------------------------------------------------------------

@pytest.mark.both_databases
def test_ana_s_hand_reaches_no_other_phone(app, caplog):
    """Clarifications: a hand is its holder's; only its size is public. Ben (another seat) and a phone
    without a seat get 403 for seat 0's hand and answers, their own answers leave it out, and nothing they
    are given changes with it; Ana's own answers use it (How to Build a Robot: her TORSO finishes the
    Chemical robot)."""
    caplog.set_level(logging.DEBUG)
    t = Table(app, ANA_HAND)
    twin = Table(app, TWIN_HAND)
    seen = {"b": responses(t, t.b, 1), "c": responses(t, t.c, 2)}
    for who in ("b", "c"):
        assert_kept_from(seen[who], [SECRET])
        status = {asked: s for asked, s, _, _ in seen[who]}
        for answer in ("factory", "plan", "odds"):
            assert status[f"POST /api/two-robots/{answer} {{'table': '{t.id}', 'seat': 0}}"] == 403
            own = 1 if who == "b" else 2
            assert status[f"POST /api/two-robots/{answer} {{'table': '{t.id}', 'seat': {own}}}"] == \
                (200 if who == "b" else 403)
        assert status[f"GET /api/tables/{t.id}/seats/0/private None"] == 403
        assert all(s in (200, 403) for s in status.values()), status
    # the version's ETag says the version and nothing else
    version = current_version(t.a, t.id)
    assert t.c.get(f"/api/tables/{t.id}/version").headers["ETag"] == f'"v{version}"'
    # nothing B or C is given depends on Ana's hand: the twin table (other cards, as many) answers alike
    assert blanked(t, seen["b"]) == blanked(twin, responses(twin, twin.b, 1))
    assert blanked(t, seen["c"]) == blanked(twin, responses(twin, twin.c, 2))

    # the size of her hand is public, the cards are not
    ana = t.json(t.c)["state"]["two_robots"]["players"][0]
    assert ana["hand_count"] == 2 and not {"hand", "drawn", "recent"} & set(ana)
    html = t.b.get(f"/two-robots/factory?table={t.id}&seat=0").get_data(as_text=True)
    assert "You are <strong data-seat-name>Ben</strong>" in html  # no other seat's factory at a table
    html = t.c.get(f"/two-robots/factory?table={t.id}").get_data(as_text=True)
    assert 'id="tr-needs-seat"' in html and 'id="seat-pick"' in html

    # Ana's answers use her hand
    plan = t.a.post("/api/two-robots/plan", json={"table": t.id, "seat": 0}).get_json()
    assert plan["steps"][0]["title"] == "Play TORSO (Chemical) on stack 1" and plan["score"]["robots"] == 1
    factory = t.a.post("/api/two-robots/factory", json={"table": t.id, "seat": 0}).get_json()
    assert SECRET in str(factory["hand"])
    assert SECRET in t.a.get(f"/two-robots/factory?table={t.id}").get_data(as_text=True)
    assert [c.get("name") or c["part"] for c in private(t.a, t.id, 0)["hand"]] == ["torso", SECRET]

    # B cannot change it either: not through the API, nor by naming seat 0 on the page's forms
    v = current_version(t.b, t.id)
    assert t.b.put(f"/api/tables/{t.id}/seats/0/private", json={"version": v, "state": {"hand": []}}).status_code == 403
    r = t.b.post(f"/two-robots/factory?table={t.id}&seat=0",
                 data={"table": t.id, "version": str(v), "_seat": "0", "do": f"remove:hand|attack:1:{SECRET}"})
    assert SECRET not in r.get_data(as_text=True)
    r = t.c.get(f"/api/tables/{t.id}/seats/0/private", headers={"X-Tablebot-Seat": "not-a-token"})
    assert r.status_code == 403
    # a hand put in the public state (the old shape) is dropped: it never becomes seat 0's hand
    table = t.json(t.c)
    table["state"]["two_robots"]["players"][0]["hand"] = [attack("Planted Card 9")]
    r = t.c.put(f"/api/tables/{t.id}", json={"version": table["version"], "state": table["state"]})
    assert r.status_code == 200 and "Planted Card 9" not in r.get_data(as_text=True)
    assert "Planted Card 9" not in t.c.get(f"/api/tables/{t.id}/history").get_data(as_text=True)
    assert [c.get("name") or c["part"] for c in private(t.a, t.id, 0)["hand"]] == ["torso", SECRET]
    assert SECRET not in caplog.text


# ---- (b) any hand, every question ---------------------------------------------------------------------

WORD = st.text(alphabet="bcdfghjklmnpqrstvwxz", min_size=4, max_size=8)
NAME = st.builds(lambda w, n: f"Qz{w.title()} {n}", WORD, st.integers(10, 99))
PART = st.builds(lambda p, es: C(p, *es), st.sampled_from(["head", "arms", "legs", "torso"]),
                 st.lists(st.sampled_from(["chemical", "electrical", "mechanical", "nuclear", "solar"]),
                          min_size=1, max_size=2, unique=True))


def cards(names: list[str], parts: list[dict], kinds: list[str], golds: list[int]) -> list[dict]:
    named = [{"kind": k, "name": n, "stacks_required": g, "play": False} for n, k, g in zip(names, kinds, golds)]
    return named + parts


@st.composite
def two_hands(draw) -> tuple[list[dict], list[dict], list[dict], list[dict], list[str]]:
    """Two hands (and draws) of the same sizes, the named cards' names all distinct and distinctive."""
    n_named, n_parts, n_drawn = draw(st.integers(1, 3)), draw(st.integers(0, 3)), draw(st.integers(0, 2))
    names = draw(st.lists(NAME, min_size=2 * n_named, max_size=2 * n_named, unique=True))
    kinds = draw(st.lists(st.sampled_from(["attack", "defense"]), min_size=2 * n_named, max_size=2 * n_named))
    golds = draw(st.lists(st.integers(0, 5), min_size=2 * n_named, max_size=2 * n_named))
    parts = draw(st.lists(PART, min_size=2 * n_parts, max_size=2 * n_parts))
    drawn = draw(st.lists(PART, min_size=2 * n_drawn, max_size=2 * n_drawn))
    one = cards(names[:n_named], parts[:n_parts], kinds[:n_named], golds[:n_named])
    two = cards(names[n_named:], parts[n_parts:], kinds[n_named:], golds[n_named:])
    return one, two, drawn[:n_drawn], drawn[n_drawn:], names


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])
@given(two_hands(), st.lists(st.sampled_from(["c", "s", "cs", "mn", "e"]), max_size=4, unique=True))
def test_no_question_of_another_phone_is_answered_from_a_hand(app, hands, recent):
    """Whatever Ana holds (random named Attack and Defense cards, parts, a draw being entered, the
    energies she entered last), no answer to Ben or to a phone without a seat holds any of her cards'
    names, and every answer they get is the same as at a twin table where she holds other cards."""
    one, two, drawn_one, drawn_two, names = hands
    t, twin = Table(app, one, drawn_one, recent), Table(app, two, drawn_two, recent[::-1])
    assert [c.get("name") for c in private(t.a, t.id, 0)["hand"] if c.get("name")] == \
        [c["name"] for c in one if c.get("name")]
    for own, phone, twin_phone in ((1, t.b, twin.b), (2, t.c, twin.c)):
        seen = responses(t, phone, own)
        assert_kept_from(seen, names)
        assert blanked(t, seen) == blanked(twin, responses(twin, twin_phone, own))
    assert all(n in t.a.get(f"/two-robots/factory?table={t.id}").get_data(as_text=True)
               for n in names if any(c.get("name") == n for c in one))


# ---- (c) undo -------------------------------------------------------------------------------------------

def undo_on_table_page(phone, table_id: str) -> None:
    html = phone.get(f"/t/{table_id}").get_data(as_text=True)
    shown = re.search(r'id="undo-form"[^>]*>\s*<input type="hidden" name="version" value="(\d+)"', html).group(1)
    r = phone.post(f"/t/{table_id}/undo", data={"version": shown})
    assert r.status_code == 302, r.status_code


@pytest.mark.both_databases
def test_undo_puts_a_played_card_back_in_the_hand(app):
    """Stacking Part Cards: Ana plays her TORSO (Chemical) from her hand onto her Chemical stack; Undo
    (the table page's, then another phone's through the API) takes it off the stack and back into her
    hand, which stays hers: Ben's undo answer does not hold it."""
    t = Table(app, ANA_HAND)

    def play() -> None:
        v = current_version(t.a, t.id)
        r = t.a.post(f"/two-robots/factory?table={t.id}", data={"table": t.id, "version": str(v), "_seat": "0",
                                                                "do": "play:torso:c|0"})
        assert r.status_code == 200
        ana = t.json(t.a)["state"]["two_robots"]["players"][0]
        assert [c["part"] for c in ana["stacks"][0]["cards"]] == ["head", "arms", "legs", "torso"]
        assert ana["hand_count"] == 1 and said(private(t.a, t.id, 0)["hand"]) == said([attack(SECRET)])

    def back() -> None:
        ana = t.json(t.a)["state"]["two_robots"]["players"][0]
        assert [c["part"] for c in ana["stacks"][0]["cards"]] == ["head", "arms", "legs"]
        assert ana["hand_count"] == 2 and said(private(t.a, t.id, 0)["hand"]) == said(ANA_HAND)

    play()
    undo_on_table_page(t.a, t.id)
    back()
    play()
    r = t.b.post(f"/api/tables/{t.id}/undo", json={"version": current_version(t.b, t.id)})
    assert r.status_code == 200 and SECRET not in r.get_data(as_text=True) and "torso" not in str(
        r.get_json()["state"]["two_robots"]["players"][0].get("hand", ""))
    back()


# ---- (d) take-over --------------------------------------------------------------------------------------

def test_a_seat_taken_over_moves_its_hand_and_every_phone_is_told(app):
    """A lost phone never locks its seat: Ben takes seat 0 over on purpose; Ana's phone loses the seat and
    its hand (403), the table lists seat 0 as Ben's, and every phone's factory page says the seat moved."""
    t = Table(app, ANA_HAND)
    assert t.b.post(f"/api/tables/{t.id}/seats/0", json={"name": "Ben"}).status_code == 409  # never quietly
    r = t.b.post(f"/api/tables/{t.id}/seats/0", json={"name": "Ben", "take_over": True})
    assert r.status_code == 200 and r.get_json()["took_over_from"] == "Ana"
    assert t.a.get(f"/api/tables/{t.id}/seats/0/private").status_code == 403
    assert t.a.post("/api/two-robots/plan", json={"table": t.id, "seat": 0}).status_code == 403
    seats = t.json(t.c)["seats"]
    assert seats[0] == {"seat": 0, "name": "Ben", "claimed": True}
    assert seats[1]["claimed"] is False  # a phone holds one seat: Ben's old one is free
    for phone in (t.a, t.b, t.c):
        html = phone.get(f"/two-robots/factory?table={t.id}").get_data(as_text=True)
        assert "seat moved to another phone" in html
    html = t.a.get(f"/two-robots/factory?table={t.id}").get_data(as_text=True)
    assert "Another phone took over your seat" in html and SECRET not in html and 'id="tr-needs-seat"' in html
    # Ana's phone, tapping on the page it still shows, changes the hand no more
    r = t.a.post(f"/two-robots/factory?table={t.id}", data={"table": t.id, "version": str(current_version(t.a, t.id)),
                                                            "_seat": "0", "do": "add:hand:head", "combo": "s"})
    assert r.status_code == 400 and "Another phone took over your seat" in r.get_data(as_text=True)
    # the secrets went with the seat: the phone that holds it now reads them
    assert said(private(t.b, t.id, 0)["hand"]) == said(ANA_HAND)
