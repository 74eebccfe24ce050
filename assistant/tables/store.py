"""Tables (games in progress): every version of the state is kept; writes are compare-and-set on the
version the writer read, so of two writers racing on one version exactly one wins."""
from __future__ import annotations

import copy
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from ..db import code_misses, tables, versions

# No 0/O, 1/I/L: codes are read off one phone and typed on another
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6


@dataclass
class TableRecord:
    id: str
    code: str
    game: str
    players: int
    version: int
    state: dict[str, Any]
    parent: int | None

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "code": self.code, "game": self.game, "players": self.players,
                "version": self.version, "state": self.state, "can_undo": self.parent is not None}


class Conflict(Exception):
    def __init__(self, current: TableRecord):
        super().__init__("version conflict")
        self.current = current


class NothingToUndo(Exception):
    pass


def normalize_code(text: str) -> str:
    return "".join(ch for ch in text.upper() if ch.isalnum())


def new_id() -> str:
    return secrets.token_urlsafe(16)  # 128 random bits


def _now() -> datetime:
    return datetime.now(UTC)


def create(engine: Engine, game: str, players: int, state: dict | None = None) -> TableRecord:
    state = state or {}
    for _ in range(20):
        table_id = new_id()
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        try:
            with engine.begin() as conn:
                conn.execute(insert(tables).values(id=table_id, code=code, game=game, players=players,
                                                   version=1, created_at=_now()))
                conn.execute(insert(versions).values(table_id=table_id, version=1, parent=None,
                                                     state=state, at=_now()))
            return TableRecord(table_id, code, game, players, 1, state, None)
        except IntegrityError:
            continue  # a code collision; draw again
    raise RuntimeError("could not draw a free table code")


def _load(conn, row) -> TableRecord:
    v = conn.execute(select(versions.c.state, versions.c.parent).where(
        and_(versions.c.table_id == row.id, versions.c.version == row.version))).one()
    return TableRecord(row.id, row.code, row.game, row.players, row.version, v.state, v.parent)


def get(engine: Engine, table_id: str) -> TableRecord | None:
    with engine.connect() as conn:
        row = conn.execute(select(tables).where(tables.c.id == table_id)).first()
        return _load(conn, row) if row else None


def get_by_code(engine: Engine, code: str) -> TableRecord | None:
    with engine.connect() as conn:
        row = conn.execute(select(tables).where(tables.c.code == normalize_code(code))).first()
        return _load(conn, row) if row else None


def _write(engine: Engine, table_id: str, read_version: int | None, make_state) -> TableRecord:
    """Compare-and-set: the UPDATE only matches when nobody wrote since `read_version`."""
    with engine.begin() as conn:
        row = conn.execute(select(tables).where(tables.c.id == table_id)).first()
        if row is None:
            raise KeyError(table_id)
        current = _load(conn, row)
        if read_version is not None and read_version != current.version:
            raise Conflict(current)
        state, parent = make_state(conn, current)
        done = conn.execute(update(tables).where(and_(tables.c.id == table_id, tables.c.version == current.version))
                            .values(version=current.version + 1))
        if done.rowcount != 1:
            raise _Retry()
        conn.execute(insert(versions).values(table_id=table_id, version=current.version + 1, parent=parent,
                                             state=state, at=_now()))
    return TableRecord(row.id, row.code, row.game, row.players, current.version + 1, state, parent)


class _Retry(Exception):
    pass


MAX_TRIES = 5


def _write_checked(engine: Engine, table_id: str, read_version: int | None, make_state) -> TableRecord:
    for _ in range(MAX_TRIES):
        try:
            return _write(engine, table_id, read_version, make_state)
        except (_Retry, IntegrityError):
            current = get(engine, table_id)
            if current is None:
                raise KeyError(table_id) from None
            if read_version is not None:
                raise Conflict(current) from None
            # a write without a version (undo, update) races only with other writers: read again, retry
    raise Conflict(get(engine, table_id))


def put(engine: Engine, table_id: str, read_version: int, state: dict) -> TableRecord:
    return _write_checked(engine, table_id, read_version, lambda _conn, cur: (state, cur.version))


def undo(engine: Engine, table_id: str, read_version: int | None = None) -> TableRecord:
    def previous(conn, cur: TableRecord):
        if cur.parent is None:
            raise NothingToUndo()
        before = conn.execute(select(versions.c.state, versions.c.parent).where(
            and_(versions.c.table_id == table_id, versions.c.version == cur.parent))).one()
        return before.state, before.parent

    return _write_checked(engine, table_id, read_version, previous)


def apply_change(engine: Engine, table_id: str, mutate, tries: int = 3) -> TableRecord:
    """Apply `mutate(state) -> state` to the newest state. When another phone saves in between, apply it
    again on their state, so both changes are kept. `mutate` gets a copy and changes only its own part:
    it must describe the change ("add this card"), not carry a snapshot of an older state."""
    for _ in range(tries):
        current = get(engine, table_id)
        if current is None:
            raise KeyError(table_id)
        try:
            return put(engine, table_id, current.version, mutate(copy.deepcopy(current.state)))
        except Conflict:
            continue
    raise Conflict(get(engine, table_id))


def history(engine: Engine, table_id: str, limit: int | None = None) -> list[dict[str, Any]]:
    """Versions oldest first; with `limit`, only the newest `limit` of them."""
    query = select(versions.c.version, versions.c.state, versions.c.at).where(versions.c.table_id == table_id)
    with engine.connect() as conn:
        if limit is None:
            rows = conn.execute(query.order_by(versions.c.version)).all()
        else:
            rows = list(reversed(conn.execute(query.order_by(versions.c.version.desc()).limit(limit)).all()))
    return [{"version": r.version, "state": r.state, "at": r.at.isoformat() if r.at else None} for r in rows]


def record_code_miss(engine: Engine, client: str) -> int:
    """Count a failed code look-up in this minute's window; returns the count so far."""
    window = int(time.time() // 60)
    with engine.begin() as conn:
        done = conn.execute(update(code_misses).where(and_(code_misses.c.client == client,
                                                           code_misses.c.window == window))
                            .values(count=code_misses.c.count + 1))
        if done.rowcount == 0:
            try:
                with conn.begin_nested():
                    conn.execute(insert(code_misses).values(client=client, window=window, count=1))
            except IntegrityError:
                conn.execute(update(code_misses).where(and_(code_misses.c.client == client,
                                                            code_misses.c.window == window))
                             .values(count=code_misses.c.count + 1))
        conn.execute(code_misses.delete().where(code_misses.c.window < window - 1))
        return conn.execute(select(func.coalesce(func.sum(code_misses.c.count), 0)).where(
            and_(code_misses.c.client == client, code_misses.c.window == window))).scalar_one()


def code_misses_now(engine: Engine, client: str) -> int:
    window = int(time.time() // 60)
    with engine.connect() as conn:
        return conn.execute(select(func.coalesce(func.sum(code_misses.c.count), 0)).where(
            and_(code_misses.c.client == client, code_misses.c.window == window))).scalar_one()


def current_version(engine: Engine, table_id: str) -> int | None:
    """The newest version number alone (what a following page asks for every second: no state read)."""
    with engine.connect() as conn:
        return conn.execute(select(tables.c.version).where(tables.c.id == table_id)).scalar_one_or_none()


def state_at(engine: Engine, table_id: str, version: int) -> dict[str, Any] | None:
    """The state as it was at `version` (None when that version is not kept): what a page showed."""
    with engine.connect() as conn:
        return conn.execute(select(versions.c.state).where(
            and_(versions.c.table_id == table_id, versions.c.version == version))).scalar_one_or_none()
