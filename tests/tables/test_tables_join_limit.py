"""Issue 16, case 6: wrong join codes are counted in the database over a sliding window, atomically,
per browser (its session cookie) under a higher ceiling per address, and a 429 says when to try again.
So one player's typos do not lock the others at the table out, and a guesser gets no more tries by
racing requests or by waiting for the clock's minute to turn."""
from __future__ import annotations

import threading

import pytest
from tables_helpers import new_table

from assistant.tables import limits

pytestmark = pytest.mark.both_databases


@pytest.fixture
def clock(monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(limits.time, "time", lambda: now[0])
    return now


def browser(app):
    """A phone with its own session cookie (the test client keeps cookies like a browser)."""
    c = app.test_client()
    assert c.get("/join?code=ZZZZZ2").status_code in (404, 429)  # one wrong try sets the cookie
    return c


def test_simultaneous_wrong_codes_pass_exactly_the_limit(app):
    app.config.update(CODE_LOOKUP_LIMIT=1000, CODE_LOOKUP_ADDRESS_LIMIT=20)
    barrier = threading.Barrier(64)
    codes: list[int] = []

    def guess(i):
        c = app.test_client()
        barrier.wait()
        codes.append(c.get(f"/api/tables/ZZZ{i:03d}".replace("0", "2").replace("1", "3")).status_code)

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(64)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(codes) == [404] * 20 + [429] * 44


def test_simultaneous_wrong_codes_from_one_browser_pass_exactly_its_limit(app):
    app.config.update(CODE_LOOKUP_LIMIT=10, CODE_LOOKUP_ADDRESS_LIMIT=1000)
    first = browser(app)  # 1 of its 10
    cookie = first.get_cookie("session")
    barrier = threading.Barrier(32)
    codes: list[int] = []

    def guess():
        c = app.test_client()
        c.set_cookie("session", cookie.value)
        barrier.wait()
        codes.append(c.get("/join?code=ZZZZZ3").status_code)

    threads = [threading.Thread(target=guess) for _ in range(32)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(codes) == [404] * 9 + [429] * 23


def test_the_window_slides_instead_of_resetting_with_the_clock_minute(app, clock):
    app.config.update(CODE_LOOKUP_LIMIT=5, CODE_LOOKUP_ADDRESS_LIMIT=100, CODE_LOOKUP_WINDOW=60)
    c = app.test_client()
    clock[0] = 60 * 20_000 + 59.0  # one second before a clock minute turns
    for _ in range(5):
        assert c.get("/api/tables/ZZZZZ4").status_code == 404
    clock[0] += 2  # the minute has turned; the window has not
    r = c.get("/api/tables/ZZZZZ4")
    assert r.status_code == 429 and r.headers["Retry-After"] == "58"
    assert r.get_json()["error"]["code"] == "too_many_requests"
    clock[0] += 58
    assert c.get("/api/tables/ZZZZZ4").status_code == 404  # the oldest try has left the window


def test_a_blocked_join_page_says_when_to_try_again(app, clock):
    app.config.update(CODE_LOOKUP_LIMIT=2, CODE_LOOKUP_ADDRESS_LIMIT=100)
    c = app.test_client()
    for _ in range(2):
        assert c.get("/join?code=ZZZZZ5").status_code == 404
    clock[0] += 10
    r = c.get("/join?code=ZZZZZ5")
    assert r.status_code == 429 and r.headers["Retry-After"] == "50"
    assert "try again in 50 seconds" in r.get_data(as_text=True)


def test_one_phones_typos_do_not_lock_out_the_other_phones_behind_the_same_router(app):
    app.config.update(CODE_LOOKUP_LIMIT=3, CODE_LOOKUP_ADDRESS_LIMIT=10)
    t = new_table(app.test_client())
    typist, friend = browser(app), browser(app)
    for _ in range(2):
        typist.get("/join?code=ZZZZZ6")
    blocked = typist.get(f"/join?code={t['code']}")
    assert blocked.status_code == 429  # while blocked even the right code is refused: no oracle for a guesser
    ok = friend.get(f"/join?code={t['code']}")
    assert ok.status_code == 302 and ok.headers["Location"].endswith(f"/t/{t['id']}")


def test_right_codes_do_not_count(app):
    app.config.update(CODE_LOOKUP_LIMIT=2, CODE_LOOKUP_ADDRESS_LIMIT=2)
    client = app.test_client()
    t = new_table(client)
    for _ in range(10):
        assert client.get(f"/api/tables/{t['code']}").status_code == 200
    assert client.get("/api/tables/ZZZZZ7").status_code == 404


def test_the_address_ceiling_holds_a_guesser_who_drops_cookies(app):
    app.config.update(CODE_LOOKUP_LIMIT=3, CODE_LOOKUP_ADDRESS_LIMIT=8)
    answers = [app.test_client().get("/api/tables/ZZZZZ8").status_code for _ in range(12)]
    assert answers == [404] * 8 + [429] * 4
    elsewhere = app.test_client().get("/api/tables/ZZZZZ8", environ_base={"REMOTE_ADDR": "198.51.100.4"})
    assert elsewhere.status_code == 404
    ipv6 = [app.test_client().get("/api/tables/ZZZZZ9", environ_base={"REMOTE_ADDR": f"2001:db8:1:2::{i}"})
            .status_code for i in range(1, 10)]
    assert ipv6 == [404] * 8 + [429]  # one /64 is one household
