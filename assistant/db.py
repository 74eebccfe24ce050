"""Storage with SQLAlchemy Core: one engine per app, schema created on start.

The embedded default is a SQLite file in the instance folder (WAL mode); DATABASE_URL picks another
(PostgreSQL through psycopg 3). Several processes may share one database: the production server's
workers, or several servers behind a load balancer. Versions stay safe across them because every
write is a compare-and-set in SQL (tables/store.py); creating the schema is made safe here.
"""
from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from flask import Flask, current_app
from sqlalchemy import JSON, Column, DateTime, ForeignKey, Integer, MetaData, String, Table, create_engine, event, text
from sqlalchemy.engine import Engine, make_url

metadata = MetaData()

tables = Table(
    "tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("code", String(8), nullable=False, unique=True),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

versions = Table(
    "table_versions", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("version", Integer, primary_key=True),
    # the version whose state an undo of this one goes back to (None: nothing before it)
    Column("parent", Integer, nullable=True),
    Column("state", JSON, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

# who holds each seat: the name the player gave and a hash of the holding phone's token (None: free)
seats = Table(
    "seats", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(40), nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("claimed_at", DateTime(timezone=True), nullable=True),
    # when another phone last took this seat over from its holder: every page of the table says so
    Column("handed_at", DateTime(timezone=True), nullable=True),
)

# a seat's private state (a Two Robots hand) as of a table version: a row is written only at the versions
# where it changed, so the state at version v is the newest row at or before v (undo included)
seat_private = Table(
    "seat_private", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("state", JSON, nullable=False),
)

code_misses = Table(
    "code_misses", metadata,
    Column("client", String(64), primary_key=True),
    Column("window", Integer, primary_key=True),  # minute number since the epoch
    Column("count", Integer, nullable=False),
)


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def _owner_only(url: str) -> None:
    """Create the SQLite file readable by its owner only: it holds every table id, the only credential."""
    path = make_url(url).database
    if path and path != ":memory:" and not path.startswith("file:"):
        os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))
        os.chmod(path, 0o600)  # SQLite gives its -wal and -shm files the same mode


def engine_url(url: str) -> str:
    """`postgresql://` (and Heroku's `postgres://`) mean psycopg 3, the driver the app installs."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def make_engine(url: str) -> Engine:
    url = engine_url(url)
    if url.startswith("sqlite"):
        _owner_only(url)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 5})
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        # a database host that does not answer at all is given up on after 5 s (503 to retry), not the
        # system's TCP timeout of minutes with a thread held
        engine = create_engine(url, pool_pre_ping=True, connect_args={"connect_timeout": 5})
    return engine


# any fixed 64-bit number: the advisory lock that serializes schema changes across processes
SCHEMA_LOCK_KEY = 0x7AB1EB07


def create_schema(engine: Engine) -> None:
    """Create what is missing of the schema, once, even when several processes start at the same moment
    on an empty database (each would otherwise see no table, create it, and all but one would fail with
    "already exists"). A later upgrade step belongs inside the same lock."""
    if engine.dialect.name == "postgresql":
        # DDL is transactional in PostgreSQL: the lock is held until the tables are committed
        with engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK_KEY})
            metadata.create_all(conn)
    elif engine.dialect.name == "sqlite":
        with _file_lock(engine.url.database):
            metadata.create_all(engine)
    else:
        metadata.create_all(engine)


@contextlib.contextmanager
def _file_lock(database: str | None) -> Iterator[None]:
    """An exclusive lock on a file beside the SQLite database (an in-memory database has one process)."""
    if not database or database == ":memory:" or database.startswith("file:"):
        yield
        return
    try:
        import fcntl
    except ImportError:  # not a POSIX system: one process at a time is the user's to ensure
        yield
        return
    fd = os.open(f"{database}.schema-lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def init_app(app: Flask) -> None:
    engine = make_engine(app.config["DATABASE_URL"])
    create_schema(engine)
    app.extensions["tablebot_db"] = engine


def engine() -> Engine:
    return current_app.extensions["tablebot_db"]
