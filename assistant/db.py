"""Storage with SQLAlchemy Core: one engine per app, schema created on start.

The embedded default is a SQLite file in the instance folder (WAL mode); DATABASE_URL picks another.
"""
from __future__ import annotations

import os

from flask import Flask, current_app
from sqlalchemy import JSON, Column, DateTime, ForeignKey, Integer, MetaData, String, Table, create_engine, event
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


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        _owner_only(url)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 5})
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        engine = create_engine(url, pool_pre_ping=True)
    return engine


def init_app(app: Flask) -> None:
    engine = make_engine(app.config["DATABASE_URL"])
    metadata.create_all(engine)
    app.extensions["tablebot_db"] = engine


def engine() -> Engine:
    return current_app.extensions["tablebot_db"]
