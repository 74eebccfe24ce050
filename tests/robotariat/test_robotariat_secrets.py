"""Electric Eye's peek and A1-5's card from setup reach no phone but their holder's (rulebook "Character
Abilities": Electric Eye may look at the top two Sabotage cards; A1-5 draws the top Upgrade card at setup).

Three phones on a 3-seat table: A (Ana, seat 0) plays Electric Eye and keeps her peek, B (Ben, seat 1)
plays A1-5 and keeps his setup card with its effect, C holds no seat. Everything a phone can ask about the
table (its JSON by id and code, the history, the version and its ETag, the board page, the forecast part,
the objectives page, the table page, the Robotariat table endpoint, each seat's private state) is fetched,
and: no other phone's answer holds a secret's words; a twin table whose secrets are other words gives C
the same answers byte for byte (ids, code and clock times blanked); the holder's own page shows it, and
B's answers count his card (as read by him)."""
from __future__ import annotations

import re

from test_robotariat_pages import new_table

from assistant.robotariat import state as rb_state

PEEK = ["Quietly Zebra 7", "Softly Heron 4"]
CARD = "Rusty Lantern 9"
TWIN_PEEK = ["Gently Otter 3", "Boldly Crane 8"]
TWIN_CARD = "Mossy Anchor 5"
GIFT = {"effect.kind": "donation", "effect.when": "round_start", "effect.amount": "2", "effect.track": "funds"}
START = {"robotariat": {"state": {"players": [{"at": "sb1", "character": "electric_eye"},
                                              {"at": "sy", "character": "a1_5"}, {"at": "p2"}],
                                  "oppressors": ["p1"], "civilians": ["p3"], "round": 2, "funds": 10}}}


class Table:
    def __init__(self, app, peek: list[str], card: str):
        self.a, self.b, self.c = app.test_client(), app.test_client(), app.test_client()
        self.id = new_table(self.a, START)
        self.code = self.a.get(f"/api/tables/{self.id}").get_json()["code"]
        for phone, seat, name in ((self.a, 0, "Ana"), (self.b, 1, "Ben")):
            assert phone.post(f"/api/tables/{self.id}/seats/{seat}", json={"name": name}).status_code == 200
        r = self.a.post(f"/robotariat/?table={self.id}", data={"table": self.id, "do": "peek", "peek.0": peek[0],
                                                                 "peek.1": peek[1]})
        assert r.status_code == 200, r.get_data(as_text=True)[:300]
        r = self.b.post(f"/robotariat/?table={self.id}", data={"table": self.id, "do": "setup_card", "name": card,
                                                                 "effect.text": card + " words", **GIFT})
        assert r.status_code == 200

    def asks(self, own: int) -> list[tuple[str, str]]:
        t = self.id
        return [("GET", f"/api/tables/{t}"), ("GET", f"/api/tables/{self.code}"), ("GET", f"/api/tables/{t}/history"),
                ("GET", f"/api/tables/{t}/version"), ("GET", f"/api/tables/{t}/seats/0/private"),
                ("GET", f"/api/tables/{t}/seats/1/private"), ("GET", f"/api/tables/{t}/seats/{own}/private"),
                ("GET", f"/robotariat/?table={t}"), ("GET", f"/robotariat/?table={t}&seat=0&_seat=0"),
                ("GET", f"/robotariat/?table={t}&seat=1&_seat=1"), ("GET", f"/robotariat/forecast?table={t}"),
                ("GET", f"/robotariat/objectives?table={t}"), ("GET", f"/t/{t}"),
                ("GET", f"/api/robotariat/tables/{t}"), ("GET", f"/api/robotariat/tables/{t}?page=objectives")]

    def seen(self, phone, own: int) -> list[tuple[str, int, str, str]]:
        out = []
        for method, url in self.asks(own):
            r = phone.open(url, method=method)
            out.append((url, r.status_code, str(r.headers), r.get_data(as_text=True)))
        return out


CLOCK = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?")
SECONDS = re.compile(r'"seconds": ?[0-9.]+')


def blanked(t: Table, seen: list) -> list:
    """The answers without the table's id, code and clock times; the forecast part is left out (how many
    games a time budget buys varies from run to run; its words are checked like every answer's)."""
    def blank(text: str) -> str:
        return SECONDS.sub("<n>", CLOCK.sub("<at>", text.replace(t.id, "<id>").replace(t.code, "<code>")))
    return [(blank(url), status, re.search(r"ETag: (\S+)", headers).group(1) if "ETag" in headers else None,
             blank(body)) for url, status, headers, body in seen if "/robotariat/forecast" not in url]


def test_a_peek_and_a_setup_card_reach_their_holders_only(app):
    t = Table(app, PEEK, CARD)
    twin = Table(app, TWIN_PEEK, TWIN_CARD)
    secrets_a, secrets_b = PEEK, [CARD]
    for phone, own, hidden in ((t.a, 0, secrets_b), (t.b, 1, secrets_a), (t.c, 2, secrets_a + secrets_b)):
        for url, status, headers, body in t.seen(phone, own):
            for s in hidden:
                assert s not in body and s not in headers, (s, url, status)
            assert status in (200, 304, 403), (url, status)
    status = {url: s for url, s, _, _ in t.seen(t.c, 2)}
    assert status[f"/api/tables/{t.id}/seats/0/private"] == 403 and status[f"/api/tables/{t.id}/seats/1/private"] == 403
    assert {url: s for url, s, _, _ in t.seen(t.b, 1)}[f"/api/tables/{t.id}/seats/0/private"] == 403
    # nothing C is given depends on the secrets: the twin table answers alike (its ETag too)
    assert blanked(t, t.seen(t.c, 2)) == blanked(twin, twin.seen(twin.c, 2))

    # the holders see their own, on their page and through the private state
    page_a = t.a.get(f"/robotariat/?table={t.id}").get_data(as_text=True)
    assert all(s in page_a for s in PEEK) and 'id="peek-form"' in page_a
    assert t.a.get(f"/api/tables/{t.id}/seats/0/private").get_json()["state"]["peek"] == PEEK
    page_b = t.b.get(f"/robotariat/?table={t.id}").get_data(as_text=True)
    assert CARD in page_b and 'id="setup-card-form"' in page_b
    # ... and B's answers count his card: round 3's Civilian (its NPC) enters, then +2 SPARK
    assert "2 SPARK added to the Funds, at the next round start" in page_b
    card = t.b.get(f"/api/tables/{t.id}/seats/1/private").get_json()["state"]["setup_card"]
    assert card["name"] == CARD and card["effect"]["amount"] == 2 and card["setup"] is True
    # A's page says A1-5's card is not taken into account (the other phones do not know it)
    assert "A1-5&#39;s starting Upgrade card is not taken into account." in page_a
    # another phone cannot write a seat's secret through the page: it is refused
    r = t.c.post(f"/robotariat/?table={t.id}", data={"table": t.id, "do": "peek", "peek.0": "Planted 1"})
    assert r.status_code == 400
    assert t.a.get(f"/api/tables/{t.id}/seats/0/private").get_json()["state"]["peek"] == PEEK


def test_a_setup_card_put_in_the_public_state_is_dropped(app):
    """The public state never keeps A1-5's setup card: one PUT there (an older table's shape) is dropped
    from every other phone's view."""
    a, c = app.test_client(), app.test_client()
    tid = new_table(a, START)
    table = c.get(f"/api/tables/{tid}").get_json()
    table["state"]["robotariat"]["cards"] = [{"seat": 1, "deck": "upgrade", "name": "Planted Card 9", "setup": True}]
    r = c.put(f"/api/tables/{tid}", json={"version": table["version"], "state": table["state"]})
    assert r.status_code == 200 and "Planted Card 9" not in r.get_data(as_text=True)
    for url in (f"/api/tables/{tid}", f"/api/tables/{tid}/history", f"/robotariat/?table={tid}"):
        assert "Planted Card 9" not in c.get(url).get_data(as_text=True)
    # the private state of a Robotariat seat is checked strictly
    assert a.post(f"/api/tables/{tid}/seats/0", json={"name": "Ana"}).status_code == 200
    v = a.get(f"/api/tables/{tid}").get_json()["version"]
    r = a.put(f"/api/tables/{tid}/seats/0/private", json={"version": v, "state": {"peek": ["a", "b", "c"]}})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"].startswith("state.peek")


def test_a1_5_shows_its_setup_card_to_the_table(app):
    """Character Abilities: A1-5's card from setup counts toward no Secret Objective. Once A1-5 shows it, it
    leaves A1-5's private state for the table's card list in one version: every phone sees it and counts
    its effect, the table applies it at its moment, and the objectives still count no card played."""
    t = Table(app, PEEK, CARD)
    # only A1-5's own phone can show it
    for phone in (t.a, t.c):
        r = phone.post(f"/robotariat/?table={t.id}", data={"table": t.id, "do": "show_setup_card"})
        assert r.status_code == 400
        assert CARD not in t.c.get(f"/api/tables/{t.id}").get_data(as_text=True)
    r = t.b.post(f"/robotariat/?table={t.id}", data={"table": t.id, "do": "show_setup_card"})
    assert r.status_code == 200 and 'id="setup-card-shown"' in r.get_data(as_text=True)
    assert t.b.get(f"/api/tables/{t.id}/seats/1/private").get_json()["state"].get("setup_card") is None
    cards = t.c.get(f"/api/tables/{t.id}").get_json()["state"]["robotariat"]["cards"]
    assert [(c["seat"], c["name"], c["setup"], c["shown"]) for c in cards] == [(1, CARD, True, True)]
    # every phone's answers count it now (round 3's NPC enters, then +2 SPARK), and none names it as left out
    for phone in (t.a, t.c):
        page = phone.get(f"/robotariat/?table={t.id}").get_data(as_text=True)
        assert CARD in page and "2 SPARK added to the Funds, at the next round start" in page
        assert "A1-5&#39;s starting Upgrade card is not taken into account." not in page
    # a second show, another secret card once it is shown, or a setup card added as a public card (by any
    # phone, A1-5's too) is refused: one card from setup counts, once
    for phone, data in ((t.b, {"do": "show_setup_card"}), (t.b, {"do": "setup_card", "name": "Second 2", **GIFT}),
                        (t.b, {"do": "add_card", "seat": "1", "deck": "upgrade", "setup": "true", "name": "Second 2"}),
                        (t.a, {"do": "add_card", "seat": "1", "deck": "upgrade", "setup": "true", "name": "Second 2"})):
        r = phone.post(f"/robotariat/?table={t.id}", data={"table": t.id, **data})
        assert r.status_code == 400, data
    v = t.c.get(f"/api/tables/{t.id}").get_json()["version"]
    r = t.c.post(f"/api/robotariat/tables/{t.id}/action", json={"version": v, "action": {
        "do": "add_card", "seat": 1, "deck": "upgrade", "setup": True, "name": "Second 2"}})
    assert r.status_code == 400 and r.get_json()["error"]["fields"][0]["path"].endswith("setup")
    assert "Second 2" not in t.b.get(f"/robotariat/?table={t.id}").get_data(as_text=True)
    # played, it counts for no objective (the Dealer, the Turncoat and the Gambler count cards played)
    r = t.b.post(f"/robotariat/?table={t.id}", data={"table": t.id, "do": "play_card", "card": "0"})
    assert r.status_code == 200
    raw = t.c.get(f"/api/tables/{t.id}").get_json()["state"]["robotariat"]
    assert raw["cards"][0]["played"] is True
    game = rb_state.solved(rb_state.from_stored(raw, 3, ["Ana", "Ben", "C"])).game
    assert game.cards_played(3) == [0, 0, 0] and len(game.effects().cards) == 1


def test_a_setup_card_planted_on_the_table_is_counted_once(app):
    """A card marked as A1-5's shown setup card put on the table by another phone's PUT: A1-5's phone counts
    one card from setup (the table's), names it, and can neither keep nor show a second one until it is
    removed from the table's cards."""
    t = Table(app, PEEK, CARD)
    table = t.c.get(f"/api/tables/{t.id}").get_json()
    table["state"]["robotariat"]["cards"] = [{"seat": 1, "deck": "upgrade", "name": "Planted Card 9", "setup": True,
                                              "shown": True}]
    assert t.c.put(f"/api/tables/{t.id}", json={"version": table["version"], "state": table["state"]}).status_code == 200
    page = t.b.get(f"/robotariat/?table={t.id}").get_data(as_text=True)
    assert 'id="setup-card-shown"' in page and "Planted Card 9" in page
    assert CARD not in page.split('id="setup-card-shown"')[1]  # his own card is no longer counted beside it
    r = t.b.post(f"/robotariat/?table={t.id}", data={"table": t.id, "do": "show_setup_card"})
    assert r.status_code == 400
    # removed from the table's cards, his own is counted and can be shown again
    assert t.b.post(f"/robotariat/?table={t.id}", data={"table": t.id, "do": "remove_card", "card": "0"}).status_code == 200
    page = t.b.get(f"/robotariat/?table={t.id}").get_data(as_text=True)
    assert 'id="show-setup-card-form"' in page and "2 SPARK added to the Funds, at the next round start" in page
