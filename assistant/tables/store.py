"""Tables (games in progress): the versions of each table's state; writes are compare-and-set on the
version the writer read, so of two writers racing on one version exactly one wins.

Every state is checked before it is stored and repaired when it is read (`jsonsafe`), every write is
counted against the writer's rate limit (`limits`), and old versions of big states are let go
(`_prune`): a table keeps its newest versions up to TABLE_KEEP_BYTES of state, and always the
TABLE_KEEP_MIN_VERSIONS versions that Undo walks back through, so Undo can always go back that many
changes.
"""
from __future__ import annotations

import copy
import re
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from flask import current_app, has_app_context
from sqlalchemy import Text, and_, cast, delete, func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ..db import seat_private, tables, versions
from . import formats, jsonsafe, limits, retention

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
    # secrets a format-1 state held in its public part, split off on reading (formats.upgrade); kept with
    # the next write as each seat's private state. Never part of `as_json`.
    legacy_privates: dict[int, dict[str, Any]] = field(default_factory=dict, repr=False)

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "code": self.code, "game": self.game, "players": self.players,
                "version": self.version, "state": formats.served(self.state), "can_undo": self.parent is not None}


class Conflict(Exception):
    def __init__(self, current: TableRecord):
        super().__init__("version conflict")
        self.current = current


class NothingToUndo(Exception):
    pass


def normalize_code(text: str) -> str:
    return "".join(ch for ch in text.upper() if ch.isalnum())


_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def is_id(table_id: Any) -> bool:
    """Whether `table_id` could be a table id at all (URL-safe base64): anything else, a NUL byte that
    PostgreSQL refuses included, is simply no table, without asking the database."""
    return isinstance(table_id, str) and _ID.fullmatch(table_id) is not None


def new_id() -> str:
    return secrets.token_urlsafe(16)  # 128 random bits


def _now() -> datetime:
    return datetime.now(UTC)


# the state as text: parsed here, leniently (jsonsafe.loads), rather than by the driver, which would fail
# on a stored Infinity or a number with more digits than Python reads
_STATE = cast(versions.c.state, Text)

DEFAULT_KEEP_BYTES = 2 * 1024 * 1024
DEFAULT_KEEP_MIN_VERSIONS = 20
DEFAULT_PRUNE_EVERY = 10  # versions between two looks at a table's size


def _setting(name: str, default: int) -> int:
    return int(current_app.config.get(name, default)) if has_app_context() else default


def create(engine: Engine, game: str, players: int, state: dict | None = None) -> TableRecord:
    state = state or {}
    jsonsafe.check(state)
    state = formats.upgrade(game, {**state, "format": formats.CURRENT}).state
    for _ in range(20):
        table_id = new_id()
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        try:
            with engine.begin() as conn:
                conn.execute(insert(tables).values(id=table_id, code=code, game=game, players=players,
                                                   version=1, created_at=_now()))
                conn.execute(insert(versions).values(table_id=table_id, version=1, parent=None,
                                                     state=state, at=_now()))
                retention.charge_new_table(conn, table_id, state)  # a 413 over the address's budget
            return TableRecord(table_id, code, game, players, 1, state, None)
        except IntegrityError:
            continue  # a code collision; draw again
    raise RuntimeError("could not draw a free table code")


def _load(conn: Connection, row) -> TableRecord:
    v = conn.execute(select(_STATE.label("state"), versions.c.parent).where(
        and_(versions.c.table_id == row.id, versions.c.version == row.version))).one()
    up = formats.upgrade(row.game, jsonsafe.loads(v.state))
    return TableRecord(row.id, row.code, row.game, row.players, row.version, up.state, v.parent, up.privates)


def get(engine: Engine, table_id: str) -> TableRecord | None:
    if not is_id(table_id):
        return None
    with engine.connect() as conn:
        row = conn.execute(select(tables).where(tables.c.id == table_id)).first()
        return _load(conn, row) if row else None


def get_by_code(engine: Engine, code: str) -> TableRecord | None:
    code = normalize_code(code)
    if len(code) != CODE_LENGTH or set(code) - set(CODE_ALPHABET):
        return None
    with engine.connect() as conn:
        row = conn.execute(select(tables).where(tables.c.code == code)).first()
        return _load(conn, row) if row else None


def _write(engine: Engine, table_id: str, read_version: int | None, make_state) -> TableRecord:
    """Compare-and-set under the table's lock: the first statement locks the table's row (PostgreSQL) or
    the database (SQLite), so writers queue instead of racing, and a write without `read_version`
    (undo, a page's change) always lands on the newest state and never reports a conflict."""
    if not is_id(table_id):
        raise KeyError(table_id)
    with engine.begin() as conn:
        locked = conn.execute(update(tables).where(tables.c.id == table_id).values(version=tables.c.version))
        if locked.rowcount != 1:
            raise KeyError(table_id)
        limits.charge_write(conn, table_id)  # a 429 here rolls the whole write back
        row = conn.execute(select(tables).where(tables.c.id == table_id)).one()
        current = _load(conn, row)
        if read_version is not None and read_version != current.version:
            raise Conflict(current)
        made = make_state(conn, current)
        state, parent = made[0], made[1]
        # the public state is stored in the current format and without secrets, whoever sent it: a secret
        # found in it is dropped (only a seat's holder writes its private state, through `made[2]`)
        state = formats.upgrade(row.game, state, stored=False).state
        privates = {**current.legacy_privates, **(made[2] if len(made) > 2 else {})}
        retention.charge_write(conn, table_id, state)  # a 413 over the owner's budget, before any write
        new = current.version + 1
        conn.execute(update(tables).where(tables.c.id == table_id).values(version=new))
        conn.execute(insert(versions).values(table_id=table_id, version=new, parent=parent, state=state, at=_now()))
        for seat, private in privates.items():
            if 0 <= seat < row.players:
                conn.execute(insert(seat_private).values(table_id=table_id, seat=seat, version=new, state=private))
        if new % _setting("TABLE_PRUNE_EVERY", DEFAULT_PRUNE_EVERY) == 0:
            parent = _prune(conn, table_id, parent)
            retention.recount(conn, table_id)
    limits.sweep_if_due(engine)
    return TableRecord(row.id, row.code, row.game, row.players, new, state, parent)


def private_at(conn: Connection, table_id: str, game: str, seat: int, version: int) -> dict[str, Any]:
    """Seat `seat`'s private state as it was at table version `version`: the newest row written at or
    before it, else what a format-1 state of that version held in public ({} when nothing)."""
    row = conn.execute(select(cast(seat_private.c.state, Text)).where(and_(
        seat_private.c.table_id == table_id, seat_private.c.seat == seat, seat_private.c.version <= version))
        .order_by(seat_private.c.version.desc()).limit(1)).scalar_one_or_none()
    if row is not None:
        value = jsonsafe.loads(row)
        return value if isinstance(value, dict) else {}
    text = conn.execute(select(_STATE).where(
        and_(versions.c.table_id == table_id, versions.c.version == version))).scalar_one_or_none()
    return formats.upgrade(game, jsonsafe.loads(text)).privates.get(seat, {}) if text is not None else {}


def _prune(conn: Connection, table_id: str, parent: int | None) -> int | None:
    """Let old versions go once the table's kept states pass TABLE_KEEP_BYTES. Never let go of the
    versions Undo walks back through from the newest one (its parent, that one's parent, and so on,
    TABLE_KEEP_MIN_VERSIONS deep), so Undo always goes back that many changes however big the state;
    of the other versions, the newest are kept while the total stays under the budget. Returns the
    newest version's parent as it is now."""
    keep_bytes = _setting("TABLE_KEEP_BYTES", DEFAULT_KEEP_BYTES)
    keep_min = _setting("TABLE_KEEP_MIN_VERSIONS", DEFAULT_KEEP_MIN_VERSIONS)
    mine = versions.c.table_id == table_id
    rows = conn.execute(select(versions.c.version, versions.c.parent, func.length(_STATE)).where(mine)
                        .order_by(versions.c.version.desc())).all()
    parents = {r[0]: r[1] for r in rows}
    undo_path: set[int] = set()
    at: int | None = rows[0][0] if rows else None
    while at is not None and at in parents and len(undo_path) <= keep_min:
        undo_path.add(at)
        at = parents[at]
    total = sum(size or 0 for version, _, size in rows if version in undo_path)
    drop: list[int] = []
    for version, _, size in rows:
        if version in undo_path:
            continue
        if drop or total + (size or 0) > keep_bytes:
            drop.append(version)  # past the budget: this one and every older one not on the undo path
        else:
            total += size or 0
    if not drop:
        return parent
    for i in range(0, len(drop), 500):
        conn.execute(delete(versions).where(and_(mine, versions.c.version.in_(drop[i:i + 500]))))
    gone = set(drop)
    for i in range(0, len(drop), 500):
        conn.execute(update(versions).where(and_(mine, versions.c.parent.in_(drop[i:i + 500]))).values(parent=None))
    _prune_private(conn, table_id, min(v for v, _, _ in rows if v not in gone))
    return None if parent in gone else parent


def _prune_private(conn: Connection, table_id: str, oldest_kept: int) -> None:
    """Private rows older than every kept version, but the one each seat's oldest kept version reads."""
    mine = seat_private.c.table_id == table_id
    for seat, newest_before in conn.execute(
            select(seat_private.c.seat, func.max(seat_private.c.version)).where(
                and_(mine, seat_private.c.version <= oldest_kept)).group_by(seat_private.c.seat)).all():
        conn.execute(delete(seat_private).where(and_(mine, seat_private.c.seat == seat,
                                                     seat_private.c.version < newest_before)))


def put(engine: Engine, table_id: str, read_version: int, state: dict) -> TableRecord:
    jsonsafe.check(state)
    return _write(engine, table_id, read_version, lambda _conn, cur: (state, cur.version))


def undo(engine: Engine, table_id: str, read_version: int | None = None) -> TableRecord:
    """Go back to the state before the newest change, as a new version. With `read_version`, only when
    that is still the newest version (Conflict otherwise): the page names the version it shows."""
    def previous(conn: Connection, cur: TableRecord):
        if cur.parent is None:
            raise NothingToUndo()
        before = conn.execute(select(_STATE.label("state"), versions.c.parent).where(
            and_(versions.c.table_id == table_id, versions.c.version == cur.parent))).first()
        if before is None:  # let go by the retention rule
            raise NothingToUndo()
        # each seat's secrets go back with the table (a card played from a hand returns to it)
        privates = {}
        for seat in range(cur.players):
            then = private_at(conn, table_id, cur.game, seat, cur.parent)
            if then != private_at(conn, table_id, cur.game, seat, cur.version):
                privates[seat] = then
        return jsonsafe.loads(before.state), before.parent, privates

    return _write(engine, table_id, read_version, previous)


def apply_change(engine: Engine, table_id: str, mutate, tries: int = 2) -> TableRecord:
    """Apply `mutate(state) -> state` to the newest state. When another phone saves in between, apply it
    again on their state, so both changes are kept. `mutate` gets a copy and changes only its own part:
    it must describe the change ("add this card"), not carry a snapshot of an older state."""
    for _ in range(tries):
        current = get(engine, table_id)
        if current is None:
            raise KeyError(table_id)
        state = mutate(copy.deepcopy(current.state))
        jsonsafe.check(state)
        try:
            return _write(engine, table_id, current.version, lambda _conn, cur, s=state: (s, cur.version))
        except Conflict:
            continue

    def under_lock(_conn: Connection, cur: TableRecord):  # still racing: nobody can save in between here
        state = mutate(copy.deepcopy(cur.state))
        jsonsafe.check(state)
        return state, cur.version

    return _write(engine, table_id, None, under_lock)


def read_private(engine: Engine, table: TableRecord, seat: int) -> dict[str, Any]:
    """A seat's private state at the table's version (for its holder only: the caller checks)."""
    with engine.connect() as conn:
        return private_at(conn, table.id, table.game, seat, table.version)


def apply_private_change(engine: Engine, table_id: str, seats: list[int], mutate,
                         read_version: int | None = None) -> TableRecord:
    """A change that touches seats' private states too: `mutate(state, privates) -> (state, privates)`
    on copies of the newest state and of the private state of each seat in `seats` (seat -> state), under
    the table's lock (or only on `read_version`: Conflict otherwise). All are kept in one version, so an
    undo takes them back together."""
    def make(conn: Connection, cur: TableRecord):
        before = {k: private_at(conn, table_id, cur.game, k, cur.version) for k in seats if 0 <= k < cur.players}
        state, after = mutate(copy.deepcopy(cur.state), copy.deepcopy(before))
        jsonsafe.check(state)
        changed = {k: v for k, v in after.items() if k in before and v != before[k]}
        for v in changed.values():
            jsonsafe.check(v)
        return state, cur.version, changed

    return _write(engine, table_id, read_version, make)


def history(engine: Engine, table_id: str, limit: int | None = None,
            before: int | None = None) -> list[dict[str, Any]]:
    """Versions oldest first: the newest `limit` of them (all without a limit), only those older than
    version `before` when it is given."""
    if not is_id(table_id):
        return []
    where = versions.c.table_id == table_id
    if before is not None:
        where = and_(where, versions.c.version < before)
    query = select(versions.c.version, _STATE.label("state"), versions.c.at).where(where)
    with engine.connect() as conn:
        game = conn.execute(select(tables.c.game).where(tables.c.id == table_id)).scalar_one_or_none()
        if limit is None:
            rows = conn.execute(query.order_by(versions.c.version)).all()
        else:
            rows = list(reversed(conn.execute(query.order_by(versions.c.version.desc()).limit(limit)).all()))
    return [{"version": r.version, "state": formats.served(formats.upgrade(game or "", jsonsafe.loads(r.state)).state),
             "at": r.at.isoformat() if r.at else None} for r in rows]


def current_version(engine: Engine, table_id: str) -> int | None:
    """The newest version number alone (what a following page asks for every second: no state read)."""
    if not is_id(table_id):
        return None
    with engine.connect() as conn:
        return conn.execute(select(tables.c.version).where(tables.c.id == table_id)).scalar_one_or_none()


def state_at(engine: Engine, table_id: str, version: int) -> dict[str, Any] | None:
    """The state as it was at `version` (None when that version is not kept): what a page showed."""
    if not is_id(table_id):
        return None
    with engine.connect() as conn:
        game = conn.execute(select(tables.c.game).where(tables.c.id == table_id)).scalar_one_or_none()
        text = conn.execute(select(_STATE).where(
            and_(versions.c.table_id == table_id, versions.c.version == version))).scalar_one_or_none()
    return None if text is None else formats.upgrade(game or "", jsonsafe.loads(text)).state
