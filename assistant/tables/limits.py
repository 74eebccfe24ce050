"""Rate limits kept in the database, so that every app process behind one database counts the same
events: creating tables, writing to a table, trying join codes.

Each limit is a sliding window: at most `limit` events for one key in any `window` seconds. Taking an
event is atomic: the event is inserted and the window counted in one transaction that holds a lock
for the key (PostgreSQL: an advisory lock; SQLite: the database's write lock, which the INSERT takes),
so simultaneous requests cannot all pass the check before any of them is counted. A write to a table
is counted in the write's own transaction, so it costs no second commit.
"""
from __future__ import annotations

import ipaddress
import math
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass

from flask import current_app, has_request_context, request, session
from sqlalchemy import Column, Float, Index, Integer, String, Table, delete, func, insert, select, text
from sqlalchemy.engine import Connection, Engine
from werkzeug.exceptions import TooManyRequests

from ..db import metadata

rate_events = Table(
    "rate_events", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(120), nullable=False),
    Column("at", Float, nullable=False),  # seconds since the epoch
    Index("ix_rate_events_key_at", "key", "at"),
)

# defaults: generous for a real table (and for the test suite, which starts many tables from 127.0.0.1)
DEFAULTS = {
    "TABLE_CREATE_LIMIT": 100, "TABLE_CREATE_WINDOW": 3600,  # new tables per address
    "TABLE_WRITE_LIMIT": 240, "TABLE_WRITE_WINDOW": 60,  # saves and undos per address, per table
    "CODE_LOOKUP_LIMIT": 20,  # wrong join codes per browser (cookie) in the window
    "CODE_LOOKUP_ADDRESS_LIMIT": 60,  # wrong join codes per address, all its browsers together
    "CODE_LOOKUP_WINDOW": 60,
}
_SWEEP_SECONDS = 600
_LONGEST_WINDOW = 24 * 3600


def setting(name: str) -> int:
    return int(current_app.config.get(name, DEFAULTS[name]))


@dataclass(frozen=True)
class Rule:
    key: str
    limit: int
    window: float


class Limited(TooManyRequests):
    """A 429 with Retry-After: the whole seconds until the window has room again."""

    def __init__(self, retry_after: int, message: str):
        super().__init__(message, retry_after=retry_after)
        self.retry_after = retry_after


def _lock(conn: Connection, keys: Iterable[str]) -> None:
    if conn.dialect.name == "postgresql":
        for key in sorted(keys):  # always in one order, so two takers never wait on each other in a cycle
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:k))"), {"k": key})
    # SQLite: the INSERT in take() is the transaction's first statement and takes the write lock


def take(engine: Engine, rules: list[Rule], message: str, now: float | None = None,
         conn: Connection | None = None) -> list[int]:
    """Count one event under every rule, or raise Limited (counting none) when any of them is full.
    With `conn`, inside that transaction (a table write: the event is kept only if the write is).
    Returns the events' ids, for `forgive`."""
    now = time.time() if now is None else now
    try:
        if conn is not None:
            return _count(conn, rules, now)
        with engine.begin() as own:
            ids = _count(own, rules, now)
    except _Full as full:
        raise Limited(max(1, math.ceil(full.wait)), message) from None
    sweep_if_due(engine, now)
    return ids


class _Full(Exception):
    def __init__(self, wait: float):
        super().__init__("rate limit reached")
        self.wait = wait


def _count(conn: Connection, rules: list[Rule], now: float) -> list[int]:
    _lock(conn, [r.key for r in rules])
    ids = [conn.execute(insert(rate_events).values(key=r.key, at=now)).inserted_primary_key[0] for r in rules]
    waits: list[float] = []
    for rule in rules:
        in_window = (rate_events.c.key == rule.key) & (rate_events.c.at > now - rule.window)
        count = conn.execute(select(func.count()).where(in_window)).scalar_one()
        if count > rule.limit:
            # room again when enough of the oldest events have left the window
            oldest = conn.execute(select(rate_events.c.at).where(in_window).order_by(rate_events.c.at)
                                  .offset(count - rule.limit - 1).limit(1)).scalar_one()
            waits.append(oldest + rule.window - now)
    if waits:
        raise _Full(max(waits))  # the transaction rolls the inserts back: a refused try is not counted
    return ids


def forgive(engine: Engine, ids: list[int]) -> None:
    """Take back events that turned out not to count (a join code that was right)."""
    with engine.begin() as conn:
        conn.execute(delete(rate_events).where(rate_events.c.id.in_(ids)))


_last_sweep = [0.0]


def sweep_if_due(engine: Engine, now: float | None = None) -> None:
    """Every _SWEEP_SECONDS (per process), delete the events older than any window; outside any
    other transaction, so it never holds up a write."""
    now = time.time() if now is None else now
    if now - _last_sweep[0] < _SWEEP_SECONDS:
        return
    _last_sweep[0] = now
    try:
        with engine.begin() as conn:
            conn.execute(delete(rate_events).where(rate_events.c.at < now - _LONGEST_WINDOW))
    except Exception:  # housekeeping only: a busy database just means the next sweep does it
        current_app.logger.info("rate event sweep skipped", exc_info=True)


# ---- who is asking ----------------------------------------------------------------------------

def address() -> str:
    """The client's address; an IPv6 address counts as its /64, which one household gets as a whole."""
    raw = (request.remote_addr or "unknown") if has_request_context() else "local"
    try:
        ip = ipaddress.ip_address(raw)
    except ValueError:
        return raw[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def browser() -> str:
    """A random id kept in this browser's (signed) session cookie; a client without cookies gets a new
    one each time, so for it only the address limit applies."""
    if "browser" not in session:
        session["browser"] = secrets.token_urlsafe(12)
    return str(session["browser"])[:32]


# ---- the app's limits -------------------------------------------------------------------------

def charge_create(engine: Engine) -> None:
    take(engine, [Rule(f"create:{address()}", setting("TABLE_CREATE_LIMIT"), setting("TABLE_CREATE_WINDOW"))],
         "Too many new tables from here; wait a while and start one again.")


def charge_write(conn: Connection, table_id: str) -> None:
    """Count a save or undo on a table, inside the write's own transaction (the store calls it for
    every write made in a request; a write refused for any reason is not counted)."""
    if not has_request_context():
        return
    take(conn.engine, [Rule(f"write:{table_id}:{address()}", setting("TABLE_WRITE_LIMIT"),
                            setting("TABLE_WRITE_WINDOW"))],
         "Too many saves to this table from here; wait a moment and save again.", conn=conn)


def charge_code_lookup(engine: Engine) -> list[int]:
    window = setting("CODE_LOOKUP_WINDOW")
    return take(engine, [Rule(f"code:browser:{browser()}", setting("CODE_LOOKUP_LIMIT"), window),
                         Rule(f"code:address:{address()}", setting("CODE_LOOKUP_ADDRESS_LIMIT"), window)],
                "Too many wrong codes from this phone; check the code on the other phone.")
