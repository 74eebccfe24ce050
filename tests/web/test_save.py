"""The one save path (web.save): a form saves only the fields the player changed, against the version
the page showed, so two phones' edits of different fields both stay; solver answers only on their version."""
from __future__ import annotations

import re

import pytest
from demo import bp as demo_bp
from flask import request
from pydantic import BaseModel

from assistant import create_app
from assistant.db import engine
from assistant.tables import store
from assistant.web import save


@pytest.fixture
def demo_app(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'demo.sqlite3'}", "SECRET_KEY": "t"})
    app.register_blueprint(demo_bp)
    yield app
    app.extensions["tablebot_db"].dispose()


@pytest.fixture
def demo_client(demo_app):
    return demo_app.test_client()


def new_table(client) -> str:
    # the demo app is not the suite's `app`, so the `new_table` fixture does not reach it
    return client.post("/api/tables", json={"game": "two-robots", "players": 2}).get_json()["id"]


def demo(client, tid):
    return client.get(f"/api/tables/{tid}").get_json()


def post(client, tid, **form):
    return client.post(f"/demo-live?table={tid}", data=form)


def test_a_change_is_saved_and_the_answer_worked_out_from_it(demo_client):
    tid = new_table(demo_client)
    r = post(demo_client, tid, version="1", gear="4", notes="")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "Answer: <strong id=\"answer-value\">8</strong>" in html
    assert "Saved with table" in html and "(version 2)" in html
    assert 'data-table-version="2"' in html
    assert demo(demo_client, tid)["state"]["demo"] == {"gear": 4, "notes": "", "robots": []}


def test_two_phones_changing_different_fields_from_one_version_keep_both(demo_client):
    tid = new_table(demo_client)
    post(demo_client, tid, version="1", gear="4", notes="")        # phone A: gears
    r = post(demo_client, tid, version="1", gear="0", notes="B")   # phone B, still showing version 1: notes
    assert demo(demo_client, tid)["state"]["demo"]["gear"] == 4
    assert demo(demo_client, tid)["state"]["demo"]["notes"] == "B"
    assert "Another phone" not in r.get_data(as_text=True)


def test_the_same_field_changed_on_two_phones_says_whose_value_it_replaced(demo_client):
    tid = new_table(demo_client)
    post(demo_client, tid, version="1", gear="4", notes="")
    r = post(demo_client, tid, version="1", gear="7", notes="")
    html = r.get_data(as_text=True)
    assert demo(demo_client, tid)["state"]["demo"]["gear"] == 7
    assert "Another phone had changed the same field meanwhile" in html and "gear held 4" in html


def test_nothing_changed_saves_nothing(demo_client):
    tid = new_table(demo_client)
    post(demo_client, tid, version="1", gear="0", notes="")
    assert demo(demo_client, tid)["version"] == 1


def test_a_bad_value_is_shown_next_to_its_field_with_what_was_typed(demo_client):
    tid = new_table(demo_client)
    r = post(demo_client, tid, version="1", gear="120", notes="keep me")
    html = r.get_data(as_text=True)
    assert r.status_code == 400
    assert re.search(r'class="field-problem"[^>]*data-for="gear">at most 99<', html)
    assert 'value="120"' in html and ">keep me</textarea>" in html
    assert demo(demo_client, tid)["version"] == 1  # nothing saved


def test_list_items_are_named_by_id_and_an_item_removed_elsewhere_is_said(demo_client):
    tid = new_table(demo_client)
    demo_client.post(f"/demo-live?table={tid}", data={"version": "1", "do": "add_robot"})
    assert demo(demo_client, tid)["state"]["demo"]["robots"] == [{"id": "r1", "vp": 1}]
    r = post(demo_client, tid, **{"version": "2", "gear": "0", "notes": "", "robots.@r1.vp": "5"})
    assert demo(demo_client, tid)["state"]["demo"]["robots"] == [{"id": "r1", "vp": 5}]
    assert "Answer: <strong id=\"answer-value\">5</strong>" in r.get_data(as_text=True)
    # another phone removes the robot; this phone (showing version 3) still edits it
    t = demo(demo_client, tid)
    demo_client.put(f"/api/tables/{tid}", json={"version": t["version"], "state": {"demo": {"gear": 0, "robots": []}}})
    r = post(demo_client, tid, **{"version": "3", "gear": "0", "notes": "", "robots.@r1.vp": "6"})
    assert "another phone removed what it was about: robots.@r1.vp" in r.get_data(as_text=True)
    assert demo(demo_client, tid)["state"]["demo"]["robots"] == []


def test_without_a_table_the_posted_state_is_answered_and_nothing_kept(demo_client):
    r = demo_client.post("/demo-live", data={"gear": "3", "notes": ""})
    assert "Answer: <strong id=\"answer-value\">6</strong>" in r.get_data(as_text=True)
    assert "data-table-version" not in r.get_data(as_text=True)


def test_odd_stored_state_reads_leniently(demo_client):
    tid = new_table(demo_client)
    demo_client.put(f"/api/tables/{tid}", json={"version": 1, "state": {"demo": {"gear": "lots", "notes": 5,
                                                                                  "robots": [{"id": "r1", "vp": 2}, 7]}}})
    html = demo_client.get(f"/demo-live?table={tid}").get_data(as_text=True)
    assert "Answer: <strong id=\"answer-value\">2</strong>" in html


def test_a_solver_answer_applies_only_on_its_version(demo_app):
    with demo_app.test_request_context():
        t = store.create(engine(), "two-robots", 2, {"demo": {"gear": 1}})
        saved = save.save_answer(t, 1, lambda s: {**s, "demo": {"gear": 2}})
        assert saved.version == 2
        with pytest.raises(save.Stale) as stale:
            save.save_answer(t, 1, lambda s: {**s, "demo": {"gear": 3}})
        assert stale.value.current.version == 2
        assert store.get(engine(), t.id).state["demo"] == {"gear": 2}



class Loose(BaseModel):
    """A state model that ignores names it does not know (as the game models do)."""
    gear: int = 0


def test_a_posted_name_that_is_no_field_of_the_state_is_not_a_change(demo_app, demo_client):
    """A page's seat menu or a button posted with its form is not a path of the state: saving it would
    write a new version that changes nothing (and tell the other phones the table moved)."""
    tid = new_table(demo_client)
    with demo_app.test_request_context(method="POST", data={"version": "1", "gear": "0", "seat": "1"}):
        result = save.save_form(store.get(engine(), tid), Loose, "loose", request.form)
        assert result.changed == [] and "seat" in result.skipped
    assert demo(demo_client, tid)["version"] == 1
    with demo_app.test_request_context(method="POST", data={"version": "1", "gear": "2", "seat": "1"}):
        result = save.save_form(store.get(engine(), tid), Loose, "loose", request.form)
        assert result.changed == ["gear"]
    table = demo(demo_client, tid)
    assert table["version"] == 2 and table["state"]["loose"] == {"gear": 2}
