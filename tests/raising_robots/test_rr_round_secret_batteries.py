"""Round Preparation's secret reaches the batteries (player aid: Phase Cards are assigned face down and
revealed together): before the reveal, the batteries a seat plans or spends per phase would tell the other
phones which phases its cards open. Tests read the table from the OTHER phone. And Total Energy (player aid,
Round Phases): batteries spent are paid when the phase starts, so lowering the number afterwards is refused."""
from __future__ import annotations

URL = "/raising-robots/round"


def _two_phones(app, new_table, battery=3):
    t = new_table("raising-robots", 2, {"raising_robots": {"seats": [{"inventory": {"battery": battery}}, {}]}})
    tid = t["id"]
    a, b = app.test_client(), app.test_client()
    assert a.post(f"/api/tables/{tid}/seats/0", json={"name": "Ana"}).status_code == 200
    assert b.post(f"/api/tables/{tid}/seats/1", json={"name": "Ben"}).status_code == 200
    return tid, a, b


def _version(phone, tid):
    return phone.get(f"/api/tables/{tid}").get_json()["version"]


def _send(phone, tid, seat, fields):
    return phone.post(f"{URL}?table={tid}&seat={seat}", data={"table": tid, "version": str(_version(phone, tid)),
                                                             **fields})


CARDS = {"seats.0.prep.cards.0.phase": "design", "seats.0.prep.cards.0.energy": "5",
         "seats.0.prep.cards.1.phase": "upgrade", "seats.0.prep.cards.1.energy": "3"}


def _seat0(phone, tid):
    return phone.get(f"/api/tables/{tid}").get_json()["state"]["raising_robots"]["seats"][0]


def test_planned_batteries_stay_on_the_seats_phone_until_the_reveal(app, new_table):
    tid, a, b = _two_phones(app, new_table)
    r = _send(a, tid, 0, {**CARDS, "seats.0.prep.batteries.design": "2"})
    assert r.status_code == 200
    assert 'value="2"' in r.get_data(as_text=True)  # Ana's own page keeps what she typed
    seen = _seat0(b, tid).get("prep") or {}
    assert not any((seen.get("batteries") or {}).values())  # Ben's phone reads no planned phase
    page = b.get(f"{URL}?table={tid}&seat=0").get_data(as_text=True)
    assert "rr-spend-" not in page and "rr-spent-" not in page
    # Ben assigns too: both reveal together, Ana's batteries with her cards
    assert _send(a, tid, 0, {"do": "reveal"}).status_code == 200
    assert _send(b, tid, 1, {"seats.1.prep.cards.0.phase": "recycle", "seats.1.prep.cards.0.energy": "2",
                             "seats.1.prep.cards.1.phase": "fabricate", "seats.1.prep.cards.1.energy": "4",
                             "do": "reveal"}).status_code == 200
    prep = _seat0(b, tid)["prep"]
    assert prep["revealed"] and prep["batteries"]["design"] == 2 and prep["cards"][0]["phase"] == "design"


def test_spending_before_the_reveal_is_refused_and_shows_nothing(app, new_table):
    tid, a, b = _two_phones(app, new_table)
    r = _send(a, tid, 0, {**CARDS, "seats.0.prep.batteries.design": "2"})
    assert 'value="spend-design"' not in r.get_data(as_text=True)  # no Spend before the reveal
    before = _seat0(b, tid)
    r = _send(a, tid, 0, {"do": "spend-design"})
    assert r.status_code == 400
    assert "revealed" in r.get_data(as_text=True)
    after = _seat0(b, tid)
    assert not any(((after.get("prep") or {}).get("spent") or {}).values())
    assert after == before and after["inventory"]["battery"] == 3


def test_an_older_table_with_public_batteries_moves_them_to_the_draft(app, new_table):
    """A table stored before the batteries were secret: still read, and the next save hides them."""
    t = new_table("raising-robots", 2, {"raising_robots": {"seats": [
        {"inventory": {"battery": 3}, "prep": {"round": 1, "batteries": {"design": 2}}}, {}]}})
    tid = t["id"]
    a, b = app.test_client(), app.test_client()
    assert a.post(f"/api/tables/{tid}/seats/0", json={"name": "Ana"}).status_code == 200
    assert b.post(f"/api/tables/{tid}/seats/1", json={"name": "Ben"}).status_code == 200
    assert a.get(f"{URL}?table={tid}&seat=0").status_code == 200
    r = _send(a, tid, 0, CARDS)
    assert r.status_code == 200 and 'value="2"' in r.get_data(as_text=True)
    assert not any(_seat0(b, tid)["prep"]["batteries"].values())


def _revealed_and_spent(app, new_table):
    tid, a, b = _two_phones(app, new_table)
    assert _send(a, tid, 0, {**CARDS, "seats.0.prep.batteries.design": "2", "do": "reveal"}).status_code == 200
    assert _send(b, tid, 1, {"seats.1.prep.cards.0.phase": "recycle", "seats.1.prep.cards.0.energy": "2",
                             "seats.1.prep.cards.1.phase": "fabricate", "seats.1.prep.cards.1.energy": "4",
                             "do": "reveal"}).status_code == 200
    r = _send(a, tid, 0, {"do": "spend-design"})
    assert r.status_code == 200, r.get_data(as_text=True)
    assert _seat0(b, tid)["inventory"]["battery"] == 1
    return tid, a, b


def test_lowering_batteries_below_what_was_spent_is_refused_naming_the_field(app, new_table):
    """Total Energy (player aid): the total is fixed as the phase starts; spent batteries are gone."""
    tid, a, b = _revealed_and_spent(app, new_table)
    r = _send(a, tid, 0, {"seats.0.prep.batteries.design": "1"})
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert "2 already spent; undo to get them back" in html
    seat = _seat0(b, tid)
    assert seat["prep"]["batteries"]["design"] == 2 and seat["prep"]["spent"]["design"] == 2
    assert seat["inventory"]["battery"] == 1


def test_the_reducer_refuses_a_total_below_what_was_spent():
    from solvers.errors import InputError
    from solvers.raising_robots import table
    part = {"seats": [{"inventory": {"battery": 0}, "prep": {"round": 1, "spent": {"design": 2}}}]}
    try:
        table.spend_batteries(part, 0, 1, "design", 1)
    except InputError as err:
        assert err.path == "batteries.design" and "2 already spent; undo to get them back" in err.message
    else:
        raise AssertionError("a lowered total was taken silently")
