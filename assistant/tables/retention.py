"""Bounded storage: a budget per address, idle tables expire, and PostgreSQL really gets freed space back.

- **A storage budget per address.** Every table is charged to the address that started it (its
  owner, as the rate limits see addresses). What its kept versions hold (the states' JSON, as
  TABLE_KEEP_BYTES counts it) is tracked per table; once an owner's tables hold more than
  ADDRESS_STORAGE_BUDGET bytes, a new table or a save to one of them is refused with a 413 that says
  so. A table kept before this module existed has no owner and is charged to nobody.
- **Idle tables expire.** A table nobody has saved to for TABLE_EXPIRE_DAYS days (0: never) is
  deleted, with everything kept with it, by a sweep each process runs every few minutes after an
  answer has gone out. What an area keeps apart from tables (the Robotariat forecasts' games) goes
  with the same sweep, by the functions the app lists in its "tablebot_expiring" extension.
- **Freed space is reused.** Pruned and expired versions are deleted rows; PostgreSQL reuses their
  room only once VACUUM has passed, and its autovacuum looks at a table at most once a minute, while
  one busy table can write hundreds of MiB in that time. So once this process has freed
  VACUUM_AFTER_BYTES, it runs VACUUM on the versions table itself (one process at a time, after an
  answer has gone out). SQLite puts deleted pages on its free list and reuses them at once.

store.py calls `charge_new_table`, `charge_write` and `recount` inside its own transactions, so a
refused write leaves nothing behind and a kept one is counted exactly once.
"""
from __future__ import annotations

import json
import os
import threading
import time
from typing import Any

from flask import Flask, current_app, has_app_context, has_request_context
from sqlalchemy import (
    BigInteger,
    Column,
    ForeignKey,
    Index,
    String,
    Table,
    Text,
    cast,
    delete,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from werkzeug.exceptions import RequestEntityTooLarge

from ..db import metadata, tables, versions

table_usage = Table(
    "table_usage", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("owner", String(64), nullable=True),  # the address that started the table (None: unknown)
    Column("bytes", BigInteger, nullable=False),  # what its kept versions' states hold
    Index("ix_table_usage_owner", "owner"),
)

DEFAULTS = {
    "ADDRESS_STORAGE_BUDGET": 32 * 1024 * 1024,  # bytes of kept states per address, all its tables
    "TABLE_EXPIRE_DAYS": 30,  # a table nobody saved to for this long is deleted; 0: never
}
EXPIRE_SWEEP_SECONDS = 600
EXPIRE_BATCH = 200  # tables deleted per sweep at most: a sweep stays short
VACUUM_AFTER_BYTES = 8 * 1024 * 1024
VACUUM_MIN_SECONDS = 5.0
VACUUM_LOCK_KEY = 0x7AB1EB08  # one process vacuums at a time

_STATE_TEXT = cast(versions.c.state, Text)
_lock = threading.Lock()
_freed = [0]  # bytes this process deleted since its last VACUUM
_last_vacuum = [0.0]
_last_expiry = [0.0]


class OverBudget(RequestEntityTooLarge):
    """A 413 naming the budget: the tables this address started hold too much."""

    def __init__(self, used: int, budget: int):
        days = setting("TABLE_EXPIRE_DAYS")
        later = f" Tables nobody saves to for {days} days are deleted, which makes room." if days else ""
        super().__init__(f"The tables started from this address already hold {_mib(used)}, over this "
                         f"server's budget of {_mib(budget)} per address, so nothing more can be kept for "
                         f"them.{later}")


def _mib(n: int) -> str:
    return f"{n / (1024 * 1024):.1f}".removesuffix(".0") + " MiB"


def setting(name: str) -> int:
    if has_app_context():
        return int(current_app.config.get(name, DEFAULTS[name]))
    return DEFAULTS[name]


def state_bytes(state: Any) -> int:
    """A state's size as kept: its JSON text (what TABLE_KEEP_BYTES counts too)."""
    return len(json.dumps(state, ensure_ascii=False).encode("utf-8"))


def _owner() -> str | None:
    if not has_request_context():
        return None
    from .limits import address

    return address()


def _check_budget(conn: Connection, owner: str | None) -> None:
    if owner is None:
        return
    budget = setting("ADDRESS_STORAGE_BUDGET")
    used = conn.execute(select(func.coalesce(func.sum(table_usage.c.bytes), 0))
                        .where(table_usage.c.owner == owner)).scalar_one()
    if used > budget:
        raise OverBudget(int(used), budget)


def charge_new_table(conn: Connection, table_id: str, state: Any) -> None:
    """A table was just inserted in `conn`'s transaction: charge it to the address starting it."""
    owner = _owner()
    conn.execute(insert(table_usage).values(table_id=table_id, owner=owner, bytes=state_bytes(state)))
    _check_budget(conn, owner)


def kept_bytes(conn: Connection, table_id: str) -> int:
    return int(conn.execute(select(func.coalesce(func.sum(func.length(_STATE_TEXT)), 0))
                            .where(versions.c.table_id == table_id)).scalar_one())


def charge_write(conn: Connection, table_id: str, state: Any) -> None:
    """A version of `state` is about to be written in `conn`'s transaction: the table's kept bytes go
    up by it, and the owner's budget is checked first (a 413 rolls the write back before the state is
    written, so a refused save leaves no dead row behind on PostgreSQL either)."""
    row = conn.execute(select(table_usage.c.owner).where(table_usage.c.table_id == table_id)).first()
    if row is None:  # a table from before budgets: its size, charged to nobody
        conn.execute(insert(table_usage).values(table_id=table_id, owner=None,
                                                bytes=kept_bytes(conn, table_id) + state_bytes(state)))
        return
    conn.execute(update(table_usage).where(table_usage.c.table_id == table_id)
                 .values(bytes=table_usage.c.bytes + state_bytes(state)))
    _check_budget(conn, row.owner)


def recount(conn: Connection, table_id: str) -> None:
    """Old versions were just let go in `conn`'s transaction: what the table holds, counted again."""
    before = conn.execute(select(table_usage.c.bytes).where(table_usage.c.table_id == table_id)).scalar()
    now = kept_bytes(conn, table_id)
    if before is not None and before > now:
        note_freed(int(before) - now)
    conn.execute(update(table_usage).where(table_usage.c.table_id == table_id).values(bytes=now))


def note_freed(nbytes: int) -> None:
    with _lock:
        _freed[0] += nbytes


# ---- expiry ---------------------------------------------------------------------------------------

def _dependents() -> list[tuple[Table, Column]]:
    """Every table of the schema with a column naming a table's id (versions, usage, and any added
    later), the ones depending on others first, so that deletes never break a foreign key."""
    out = []
    for table in reversed(metadata.sorted_tables):
        for fk in table.foreign_keys:
            if fk.column is tables.c.id:
                out.append((table, fk.parent))
    return out


def expire_idle(engine: Engine, days: float, now: float | None = None, batch: int = EXPIRE_BATCH) -> int:
    """Delete up to `batch` tables whose newest version is older than `days` days; how many went."""
    if days <= 0:
        return 0
    from datetime import UTC, datetime, timedelta

    cutoff = datetime.fromtimestamp(time.time() if now is None else now, UTC) - timedelta(days=days)
    newest = (versions.c.table_id == tables.c.id) & (versions.c.version == tables.c.version)
    with engine.begin() as conn:
        ids = conn.execute(select(tables.c.id).join(versions, newest).where(versions.c.at < cutoff)
                           .limit(batch)).scalars().all()
        if not ids:
            return 0
        freed = int(conn.execute(select(func.coalesce(func.sum(func.length(_STATE_TEXT)), 0))
                                 .where(versions.c.table_id.in_(ids))).scalar_one())
        for table, column in _dependents():
            conn.execute(delete(table).where(column.in_(ids)))
        conn.execute(delete(tables).where(tables.c.id.in_(ids)))
    note_freed(freed)
    return len(ids)


# ---- giving the room back -------------------------------------------------------------------------

def vacuum(engine: Engine) -> bool:
    """VACUUM the versions table (PostgreSQL), unless another process is at it; whether it ran."""
    if engine.dialect.name != "postgresql":
        return False
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        if not conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": VACUUM_LOCK_KEY}).scalar_one():
            return False
        try:
            conn.execute(text(f"VACUUM {versions.name}"))
        finally:
            conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": VACUUM_LOCK_KEY})
    return True


def housekeeping(engine: Engine, days: float, logger=None, expiring=()) -> None:
    """After an answer has gone out: the expiry sweep when due (idle tables, and what each of `expiring`,
    called with the engine and the days, lets go), VACUUM when enough was freed."""
    now = time.monotonic()
    with _lock:
        sweep = now - _last_expiry[0] >= EXPIRE_SWEEP_SECONDS
        if sweep:
            _last_expiry[0] = now
    try:
        if sweep:
            expire_idle(engine, days)
            for expire in expiring:
                expire(engine, days)
        with _lock:
            due = _freed[0] >= VACUUM_AFTER_BYTES and now - _last_vacuum[0] >= VACUUM_MIN_SECONDS
            if due:
                _last_vacuum[0], freed, _freed[0] = now, _freed[0], 0
        if due and not vacuum(engine):
            note_freed(freed)  # another process was vacuuming: count it for the next time
    except Exception:  # noqa: BLE001 - housekeeping only: a busy or restarting database means next time
        if logger is not None:
            logger.info("storage housekeeping skipped", exc_info=True)


def init_app(app: Flask) -> None:
    for name in DEFAULTS:  # settable from the environment, as the rate limits are
        value = os.environ.get(f"TABLEBOT_{name}", "")
        if value.isdecimal() and name not in app.config:
            app.config[name] = int(value)

    @app.after_request
    def _after(response):
        engine = app.extensions.get("tablebot_db")
        if engine is not None:
            days = float(app.config.get("TABLE_EXPIRE_DAYS", DEFAULTS["TABLE_EXPIRE_DAYS"]))
            expiring = app.extensions.get("tablebot_expiring", ())
            response.call_on_close(lambda: housekeeping(engine, days, app.logger, expiring))
        return response
