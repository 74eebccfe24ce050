"""Stored-state formats (issue 20 item 4): a database written by round 2's Tablebot (commit 2eca487, see
fixtures/make_round2_db.py) opens and works after the change, on SQLite and on PostgreSQL. Its Two Robots
table kept the hands in the public state: they move to the seats' private state when first read and
never show to another phone; its Raising Robots tables (one under the older `rr_*` keys) read in the
current shape; its Robotariat table plays on."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from assistant import create_app
from assistant.tables import formats

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(params=["sqlite", "postgresql"])
def round2_app(request, tmp_path):
    if request.param == "sqlite":
        path = tmp_path / "round2.sqlite3"
        shutil.copy(FIXTURES / "round2.sqlite3", path)
        url = f"sqlite:///{path}"
    else:
        cluster = request.getfixturevalue("postgres")
        url = cluster.new_database()
        u = make_url(url)
        done = subprocess.run([str(cluster.bindir / "psql"), "-v", "ON_ERROR_STOP=1", "-q", "-h", u.query["host"],
                               "-U", u.username, "-d", u.database, "-f", str(FIXTURES / "round2.postgresql.sql")],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
    app = create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "test"})
    yield app
    app.extensions["tablebot_db"].dispose()


def ids_by_game(app) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    with app.extensions["tablebot_db"].connect() as conn:
        for tid, game in conn.execute(text("SELECT id, game FROM tables ORDER BY created_at")):
            out.setdefault(game, []).append(tid)
    return out


def test_round2_tables_open_and_work(round2_app):
    app = round2_app
    ids = ids_by_game(app)
    ana, ben = app.test_client(), app.test_client()
    tr = ids["two-robots"][0]
    t = ben.get(f"/api/tables/{tr}").get_json()
    players = t["state"]["two_robots"]["players"]
    assert all(k not in p for p in players for k in formats.TWO_ROBOTS_PRIVATE)
    assert [p.get("hand_count") for p in players[:2]] == [2, 1]  # Ana's two cards, Ben's half-entered draw
    assert "Nuclear Explosion" not in ben.get(f"/api/tables/{tr}/history?limit=100").get_data(as_text=True)
    assert t["state"]["table"]["names"] == ["Ana", "Ben", "Cy"]
    # Ana takes her seat (the claim is the table's first write since round 2) and finds her hand
    assert ana.post(f"/api/tables/{tr}/seats/0", json={"name": "Ana"}).status_code == 200
    hand = ana.get(f"/api/tables/{tr}/seats/0/private").get_json()["state"]["hand"]
    assert [c.get("name") or c["part"] for c in hand] == ["arms", "Nuclear Explosion"]
    assert ben.get(f"/api/tables/{tr}/seats/0/private").status_code == 403
    page = ana.get(f"/two-robots/factory?table={tr}").get_data(as_text=True)
    assert "Nuclear Explosion" in page and "Nuclear Explosion" not in ben.get(f"/two-robots/factory?table={tr}").get_data(as_text=True)
    plan = ana.post("/api/two-robots/plan", json={"table": tr, "seat": 0})
    assert plan.status_code == 200
    with app.extensions["tablebot_db"].connect() as conn:
        newest = conn.execute(text("SELECT CAST(state AS TEXT) FROM table_versions WHERE table_id = :t "
                                   "ORDER BY version DESC LIMIT 1"), {"t": tr}).scalar_one()
    assert "Nuclear Explosion" not in newest and '"format": 2' in newest.replace('":2', '": 2')

    # Raising Robots: the planner's inventory, and a table under the rr_* keys, read in today's shape
    rr_new, rr_old = ids["raising-robots"]
    state = ben.get(f"/api/tables/{rr_new}").get_json()["state"]
    assert state["raising_robots"]["seats"][0]["inventory"]["gear"] == 3
    old = ben.get(f"/api/tables/{rr_old}").get_json()["state"]
    assert "rr_players" not in old and old["raising_robots"]["seats"][0]["inventory"]["gear"] == 4
    for page in ("competitions", "score", "search", "round-end"):
        assert ben.get(f"/raising-robots/{page}?table={rr_old}").status_code == 200

    # Robotariat: the board page opens and a move still plays
    rb = ids["robotariat"][0]
    assert ben.get(f"/robotariat/?table={rb}").status_code == 200
    v = ben.get(f"/api/tables/{rb}").get_json()["version"]
    r = ben.post(f"/api/robotariat/tables/{rb}/action",
                 json={"action": {"do": "move", "piece": "p2", "to": "mm"}, "version": v, "page": "play"})
    assert r.status_code == 200, r.get_json()


def test_every_version_of_a_round2_database_reads_without_secrets(round2_app):
    engine = round2_app.extensions["tablebot_db"]
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT t.game, CAST(v.state AS TEXT) FROM table_versions v "
                                 "JOIN tables t ON t.id = v.table_id")).all()
    import json
    for game, raw in rows:
        up = formats.upgrade(game, json.loads(raw))
        assert up.state["format"] == formats.CURRENT
        assert "Nuclear Explosion" not in json.dumps(up.state)
        assert not any(k.startswith("rr_") for k in up.state)
