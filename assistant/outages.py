"""When the database cannot answer, or the disk is full: what the app says, to a monitor and to players.

A database that is down or restarting, or a disk with no room left, is not a bug of the app: nothing
the player entered is wrong, and waiting helps. Such a failure is answered 503 with `Retry-After` and
a sentence a player understands (`database_unavailable`, `storage_full`), where it used to be the
500 "Something went wrong on our side". The pages keep the unsaved change and send it again after
`Retry-After` (static/js/tablebot.js). `/api/health` asks the database itself, and says when the
disk is full, so that a load balancer or a monitor is not told "ok" by a server that cannot keep a
change.
"""
from __future__ import annotations

import errno
import shutil
import sqlite3
import time
from pathlib import Path

from flask import current_app, has_app_context, request
from sqlalchemy import exc, select
from sqlalchemy.engine import Engine

DATABASE_RETRY_SECONDS = 2  # a PostgreSQL restart takes about that long
STORAGE_RETRY_SECONDS = 30  # a full disk needs someone to make room
# below this much free room beside a SQLite file, health says the disk is full: a save writes the
# version, its write-ahead log and the rate-limit counters, and SQLite needs room to checkpoint
MIN_FREE_BYTES = 16 * 1024 * 1024
FULL_MEMORY_SECONDS = 60  # a write refused for lack of room keeps health at "full" this long

# what a player reads: on a page's own save (its script keeps the change and sends it again), and on a
# page loaded or sent without that script
MESSAGES = {
    "database_unavailable": (
        "The server cannot reach its saved tables just now (its database is restarting or down). "
        "Nothing you entered is lost: this phone keeps it and sends it again by itself.",
        "The server cannot reach its saved tables just now (its database is restarting or down). "
        "Nothing saved before is lost; wait a moment, then reload or send it again."),
    "storage_full": (
        "The server's disk is full, so it cannot keep changes just now. What you entered stays on this "
        "phone and is sent again by itself; whoever runs the server needs to free some room.",
        "The server's disk is full, so it cannot keep changes just now. Nothing saved before is lost; "
        "whoever runs the server needs to free some room, then send it again."),
}

# PostgreSQL's SQLSTATEs for a full disk (53100), and for a server that is shutting down, starting,
# or refusing more connections: 57P01-57P03, 53300, and class 08 (connection exceptions)
_PG_FULL = {"53100"}
_PG_DOWN_PREFIXES = ("08", "57P0", "53300")


def _disk_full(err: BaseException) -> bool:
    if isinstance(err, OSError) and err.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return True
    orig = getattr(err, "orig", None)
    if isinstance(orig, sqlite3.Error):
        return getattr(orig, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "disk is full" in str(orig)
    return getattr(orig, "sqlstate", None) in _PG_FULL


def classify(err: BaseException) -> str | None:
    """"storage_full", "database_unavailable", or None: a failure of some other kind (a bug)."""
    if _disk_full(err):
        return "storage_full"
    if isinstance(err, exc.OperationalError | exc.InterfaceError | exc.DisconnectionError | exc.TimeoutError):
        return "database_unavailable"
    if isinstance(err, exc.DBAPIError) and err.connection_invalidated:
        return "database_unavailable"
    sqlstate = getattr(getattr(err, "orig", None), "sqlstate", None) or ""
    if isinstance(err, exc.DBAPIError) and sqlstate.startswith(_PG_DOWN_PREFIXES):
        return "database_unavailable"
    return None


def note_full() -> None:
    """Remember (in this process, for this app) that a write found the disk full."""
    if has_app_context():
        current_app.extensions["tablebot_storage_full_at"] = time.monotonic()


def forget_full_after_a_write(response):
    """A table saved again means there is room again: health stops saying "full" at once."""
    if (response.status_code < 400 and request.method in ("POST", "PUT")
            and (request.path.startswith(("/api/tables", "/t/")) or "/tables/" in request.path)):
        current_app.extensions.pop("tablebot_storage_full_at", None)
    return response


def recently_full() -> bool:
    at = current_app.extensions.get("tablebot_storage_full_at") if has_app_context() else None
    return at is not None and time.monotonic() - at < FULL_MEMORY_SECONDS


def answer(err: BaseException, page: bool = False) -> tuple[str, str, int] | None:
    """(code, players' message, Retry-After seconds) for an outage; None for anything else. `page`: the
    message for a page shown without the script that sends a change again by itself."""
    kind = classify(err)
    if kind is None:
        return None
    if kind == "storage_full":
        note_full()
    return kind, MESSAGES[kind][1 if page else 0], STORAGE_RETRY_SECONDS if kind == "storage_full" else DATABASE_RETRY_SECONDS


def _free_bytes_beside(engine: Engine) -> int | None:
    if engine.dialect.name != "sqlite":
        return None  # PostgreSQL's disk is the database server's: a refused write says it is full
    database = engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    try:
        return shutil.disk_usage(Path(database).resolve().parent).free
    except OSError:
        return None


def check(engine: Engine) -> dict:
    """What /api/health answers: the database read (the tables the app keeps), and room to write."""
    from .db import tables

    report = {"status": "ok", "database": "ok", "storage": "ok"}
    try:
        with engine.connect() as conn:
            conn.execute(select(tables.c.id).limit(1)).all()
    except Exception as err:  # noqa: BLE001 - whatever stops the read, the server cannot serve tables
        kind = classify(err)
        report.update(status="unavailable", database="unavailable")
        if kind == "storage_full":
            report["storage"] = "full"
        return report
    free = _free_bytes_beside(engine)
    if recently_full() or (free is not None and free < MIN_FREE_BYTES):
        report.update(status="unavailable", storage="full")
    return report
