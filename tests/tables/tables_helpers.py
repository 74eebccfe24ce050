"""Helpers for the table tests: make tables, store a state as an older app version could have stored it
(bypassing today's checks), and list every page and endpoint that shows a table."""
from __future__ import annotations

import json

from flask import url_for
from sqlalchemy import text

PLAYERS = {"raising-robots": 2, "robotariat": 3, "two-robots": 2}


def new_table(client, game: str = "raising-robots", players: int | None = None) -> dict:
    r = client.post("/api/tables", json={"game": game, "players": players or PLAYERS[game]})
    assert r.status_code == 201, r.get_data(as_text=True)
    return r.get_json()


def store_legacy_state(app, table_id: str, raw_json: str) -> None:
    """Write `raw_json` as the table's newest state, exactly as given: what a state saved before the
    checks of tables/jsonsafe.py looks like in the database."""
    engine = app.extensions["tablebot_db"]
    value = "CAST(:s AS JSON)" if engine.dialect.name == "postgresql" else ":s"
    with engine.begin() as conn:
        version = conn.execute(text("SELECT version FROM tables WHERE id = :id"), {"id": table_id}).scalar_one()
        done = conn.execute(text(f"UPDATE table_versions SET state = {value} WHERE table_id = :id AND version = :v"),
                            {"s": raw_json, "id": table_id, "v": version})
        assert done.rowcount == 1


def table_urls(app, table: dict) -> list[str]:
    """Every page kept with the table, and every endpoint that answers with its state."""
    urls = [f"/t/{table['id']}", f"/api/tables/{table['id']}", f"/api/tables/{table['code']}",
            f"/api/tables/{table['id']}/history", f"/api/tables/{table['id']}/version"]
    if table["game"] == "robotariat":
        urls.append(f"/api/robotariat/tables/{table['id']}")
    with app.test_request_context():
        urls += [url_for(tool["endpoint"], table=table["id"]) for tool in app.extensions["tablebot_tools"][table["game"]]]
    return urls


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def assert_answers(client, url: str, context=None) -> None:
    """The page or endpoint answers (200 or 4xx, never a 5xx), and a JSON answer is strict JSON."""
    r = client.get(url)
    assert r.status_code < 500, (url, context, r.get_data(as_text=True)[-600:])
    if r.mimetype == "application/json":
        json.loads(r.get_data(as_text=True), parse_constant=_no_constant)
