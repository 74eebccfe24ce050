"""Issue 16, cases 1 and 2: no value a phone sends can lock a table out. What may not be stored is a 400
naming the part (tables/jsonsafe.py, checked at the door); what an older version stored anyway is
repaired when read, so every page of the table still opens and its own Undo can be reached."""
from __future__ import annotations

import json

import pytest
from tables_helpers import assert_answers, new_table, store_legacy_state, table_urls

from assistant.tables import jsonsafe

pytestmark = pytest.mark.both_databases

SURROGATE_NAME = '{"table": {"names": ["Ann\\ud800", "Bo"]}}'


def put_raw(client, table, raw_state: str, version: int = 1):
    return client.put(f"/api/tables/{table['id']}", data=f'{{"version": {version}, "state": {raw_state}}}',
                      content_type="application/json")


# ---- case 1: one bad string locks a table out for everyone ---------------------------------------

@pytest.mark.parametrize("game", ["raising-robots", "robotariat", "two-robots"])
def test_a_lone_surrogate_is_a_400_naming_the_field(client, game):
    t = new_table(client, game)
    r = put_raw(client, t, SURROGATE_NAME)
    assert r.status_code == 400
    assert r.get_json()["error"]["fields"] == [{"path": "state.table.names[0]",
                                               "message": "contains a lone UTF-16 surrogate (not valid Unicode text)"}]
    assert client.get(f"/api/tables/{t['id']}").get_json()["version"] == 1  # nothing was stored


@pytest.mark.parametrize("game", ["raising-robots", "robotariat", "two-robots"])
def test_a_surrogate_stored_before_the_checks_still_opens_every_page(app, client, game):
    t = new_table(client, game)
    store_legacy_state(app, t["id"], SURROGATE_NAME)
    for url in table_urls(app, t):
        assert_answers(client, url)
    page = client.get(f"/t/{t['id']}").get_data(as_text=True)
    assert 'value="Ann\ufffd"' in page and 'value="Bo"' in page  # repaired, the rest kept
    assert client.get(f"/api/tables/{t['id']}").get_json()["state"] == {"table": {"names": ["Ann\ufffd", "Bo"]}}


def test_a_stale_save_on_a_table_with_a_stored_surrogate_is_applied_on_the_newest_state(app, client):
    t = new_table(client)
    client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": {}})
    store_legacy_state(app, t["id"], SURROGATE_NAME)
    r = client.post(f"/t/{t['id']}/edit", data={"version": "1", "names.0": "Cy", "names.1": "", "round": "1"})
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and 'value="Cy"' in html
    assert "Another phone had changed the same field meanwhile" in html  # the stored name it replaced


def test_the_page_undo_of_a_table_with_a_stored_surrogate_works(app, client):
    t = new_table(client)
    assert client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": {"x": 1}}).status_code == 200
    store_legacy_state(app, t["id"], SURROGATE_NAME)
    r = client.post(f"/t/{t['id']}/undo", data={"version": "2"})
    assert r.status_code == 302
    assert client.get(f"/api/tables/{t['id']}").get_json()["state"] == {}


# ---- case 2: other stored values that broke pages -----------------------------------------------

LEGACY = {
    "a 4,000-digit board coordinate": ("robotariat", '{"robotariat": {"board": {"spaces": [{"id": "s1", "name": "P", '
                                                     '"kind": "poster", "x": %s, "y": 5}]}}}' % ("9" * 4000)),
    "a 5,000-digit number": ("two-robots", '{"two_robots": {"seat": %s}}' % ("7" * 5000)),
    "an object as a competition card": ("raising-robots", '{"rr_competitions": {"cards": {"mech_masters": {}}}}'),
    "a list as a competition card": ("raising-robots", '{"rr_competitions": {"cards": {"mech_masters": [1]}}}'),
    "a robot id nested 800 levels": ("raising-robots", '{"rr_players": [{"robots": [{"id": %s}]}]}'
                                     % ("[" * 800 + "]" * 800)),
    "Infinity stored by json.dumps": ("two-robots", '{"table": {"round": Infinity}, "x": NaN}'),
    "1e999": ("robotariat", '{"table": {"round": 1e999}}'),
    "a NUL in a name": ("robotariat", '{"table": {"names": ["A\\u0000n"]}}'),
    "a NUL in a key": ("two-robots", '{"two_robots": {"a\\u0000": 1}}'),
}


@pytest.mark.parametrize("case", list(LEGACY))
def test_odd_stored_values_never_break_a_page_or_endpoint(app, client, case):
    game, raw = LEGACY[case]
    if "Infinity" in raw and app.extensions["tablebot_db"].dialect.name == "postgresql":
        pytest.skip("PostgreSQL's json type never held Infinity or NaN")
    t = new_table(client, game)
    store_legacy_state(app, t["id"], raw)
    for url in table_urls(app, t):
        assert_answers(client, url, case)
    state = client.get(f"/api/tables/{t['id']}").get_json()["state"]
    jsonsafe.check(state)  # what is sent back could be stored again as it is


@pytest.mark.parametrize("raw,path", [
    ('{"table": {"round": 1e999}}', "state.table.round"),  # json.loads reads 1e999 as Infinity
    ('{"table": {"round": -1e999}}', "state.table.round"),
    ('{"table": {"round": NaN}}', "state.table.round"),
    ('{"table": {"round": Infinity}}', "state.table.round"),
    ('{"table": {"round": %s}}' % ("9" * 5000), "state.table.round"),
    ('{"table": {"round": %s}}' % ("9" * 310), "state.table.round"),  # more than a phone's number holds
    ('{"table": {"round": -%s}}' % ("9" * 309), "state.table.round"),
    ('{"table": {"names": ["A\\u0000n"]}}', "state.table.names[0]"),
    ('{"two_robots": {"a\\u0000": 1}}', "state.two_robots"),
    ('{"deep": %s}' % ("[" * 40 + "]" * 40), "state.deep" + "[0]" * (jsonsafe.MAX_DEPTH - 2)),  # the body is a level too
])
def test_values_that_could_not_be_shown_again_are_a_400_naming_the_part(client, raw, path):
    t = new_table(client, "robotariat")
    r = put_raw(client, t, raw)
    assert r.status_code == 400, r.get_json()
    assert r.get_json()["error"]["fields"][0]["path"] == path
    assert client.get(f"/api/tables/{t['id']}").get_json()["version"] == 1


def test_a_state_over_64_kib_is_refused_by_the_store_too(app):
    from assistant.db import engine
    from assistant.tables import store
    with app.app_context():
        t = store.create(engine(), "two-robots", 2)
        with pytest.raises(jsonsafe.UnsafeValue) as err:
            store.apply_change(engine(), t.id, lambda s: {**s, "notes": "x" * 70_000})
        assert err.value.path == "state"
        assert store.get(engine(), t.id).version == 1


def test_a_page_form_that_would_store_a_nul_is_a_400_naming_the_field(client):
    t = new_table(client)
    r = client.post(f"/t/{t['id']}/edit", data={"version": "1", "names.0": "A\x00n", "round": "1"})
    assert r.status_code == 400 and "names.0" in r.get_data(as_text=True)
    assert client.get(f"/api/tables/{t['id']}").get_json()["version"] == 1


@pytest.mark.parametrize("url", ["/api/tables/{id}%00", "/api/tables/{id}%00/history", "/api/tables/{id}%00/version",
                                 "/t/{id}%00", "/t/{id}%00/qr.svg", "/api/tables/%00", "/api/robotariat/tables/{id}%00"])
def test_a_nul_byte_in_a_table_id_is_no_table(client, url):
    t = new_table(client, "robotariat")
    r = client.get(url.format(id=t["id"]))
    assert r.status_code == 404
    assert client.put(url.format(id=t["id"]), json={"version": 1, "state": {}}).status_code in (404, 405)


@pytest.mark.parametrize("url", ["/two-robots/factory?table=%00", "/robotariat/?table=%00", "/raising-robots/score?table=%00"])
def test_a_nul_byte_in_the_table_query_is_a_400_naming_it(client, url):
    r = client.get(url)
    assert r.status_code == 400 and "table" in r.get_data(as_text=True)


@pytest.mark.parametrize("value", ["\u00b3", "\u2460", "9" * 5000, "1" * 19])
@pytest.mark.parametrize("url", ["/api/tables/{id}/history?limit={v}", "/api/rules/search?q=gear&limit={v}",
                                 "/raising-robots/score?players={v}", "/raising-robots/competitions?players={v}",
                                 "/robotariat/?players={v}", "/two-robots/factory?players={v}"])
def test_numbers_that_isdigit_takes_but_int_does_not_are_a_400(client, url, value):
    t = new_table(client)
    r = client.get(url.format(id=t["id"], v=value))
    assert r.status_code == 400, r.get_data(as_text=True)[-300:]
    body = r.get_data(as_text=True)
    assert ("limit" if "limit" in url else "players") in body


def test_the_start_form_reads_players_with_the_one_helper(client):
    r = client.post("/tables", data={"game": "robotariat", "players": "\u00b3"})
    assert r.status_code == 400 and "players" in r.get_data(as_text=True)


def test_what_is_stored_is_strict_json(app, client):
    t = new_table(client)
    client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": {"a": 1.5, "b": [None, True, "\u00e9"]}})
    engine = app.extensions["tablebot_db"]
    from sqlalchemy import text
    with engine.connect() as conn:
        raw = conn.execute(text("SELECT CAST(state AS TEXT) FROM table_versions WHERE table_id = :id AND version = 2"),
                           {"id": t["id"]}).scalar_one()
    # stored with the number of its format (assistant/tables/formats.py)
    assert json.loads(raw, parse_constant=lambda n: pytest.fail(n)) == {"a": 1.5, "b": [None, True, "\u00e9"],
                                                                       "format": 2}
