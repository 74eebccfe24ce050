"""Seats: which phone is which player at a table, by name.

A phone takes a free seat with a name and gets a random token (kept in its session cookie; an API client
sends it as `X-Tablebot-Seat`); the database keeps only the token's hash. From then on the phone is that
seat on every page, and the seat's private state (a Two Robots hand) is served to that token alone.

Hand-over: a seat is held by one phone at a time, and a lost or flat phone must never lock its seat, so
another phone may always take a held seat over, but only by saying so (`take_over`), and never quietly:
the old phone's token stops working, every page of the table says whose seat moved and when (the
change is a new table version, so every open page follows it within a second), and the old phone is told
on its next page. This guards against a friend peeking at a hand, not against someone who holds the
table's id and means harm: anyone with the id can take a seat over, and the table sees it.
"""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, insert, select, update
from sqlalchemy.engine import Connection, Engine

from ..db import seats as seats_table
from . import store

NAME_MAX = 40
HANDOVER_SHOWN = timedelta(minutes=30)  # how long every page says that a seat moved to another phone


class SeatTaken(Exception):
    def __init__(self, holder: str):
        super().__init__(holder)
        self.holder = holder


class NotHolder(Exception):
    pass


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    name: str
    claimed: bool
    handed_at: datetime | None = None

    def as_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "claimed": self.claimed}

    @property
    def recently_handed(self) -> bool:
        return self.handed_at is not None and datetime.now(UTC) - _aware(self.handed_at) < HANDOVER_SHOWN


@dataclass(frozen=True)
class Claimed:
    table: store.TableRecord
    seat: int
    name: str
    token: str
    took_from: str | None  # the name of the phone's holder whose seat this was (a take-over)


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)  # SQLite gives naive datetimes back


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def clean_name(name: str) -> str:
    return " ".join(name.split())[:NAME_MAX]


def _rows(conn: Connection, table_id: str) -> dict[int, Any]:
    return {r.seat: r for r in conn.execute(select(seats_table).where(seats_table.c.table_id == table_id)).all()}


def entered_names(table: store.TableRecord) -> list[str]:
    info = table.state.get("table")
    names = info.get("names") if isinstance(info, dict) else None
    return [n.strip()[:NAME_MAX] if isinstance(n, str) else "" for n in names] if isinstance(names, list) else []


def seat_list(engine: Engine, table: store.TableRecord) -> list[SeatInfo]:
    """Every seat of the table: its name (the one the table shows) and whether a phone holds it."""
    with engine.connect() as conn:
        rows = _rows(conn, table.id)
    names = entered_names(table)
    out = []
    for k in range(table.players):
        row = rows.get(k)
        name = (names[k] if k < len(names) else "") or (row.name if row is not None else "") or f"Player {k + 1}"
        out.append(SeatInfo(k, name, row is not None and row.token_hash is not None,
                            row.handed_at if row is not None else None))
    return out


def held_by(engine: Engine, table_id: str, token: str | None) -> int | None:
    """The seat the phone with `token` holds at this table (None: no seat)."""
    if not token or len(token) > 100 or not store.is_id(table_id):
        return None
    with engine.connect() as conn:
        return conn.execute(select(seats_table.c.seat).where(and_(
            seats_table.c.table_id == table_id, seats_table.c.token_hash == hash_token(token)))).scalar_one_or_none()


def claim(engine: Engine, table_id: str, seat: int, name: str, token: str | None,
          take_over: bool = False) -> Claimed:
    """The phone with `token` (None: a phone without one yet) takes seat `seat` as `name`; its name is
    the table's name for the seat. SeatTaken when another phone holds it and `take_over` is not set."""
    name = clean_name(name)
    result: dict[str, Any] = {}

    def make(conn: Connection, cur: store.TableRecord):
        if not 0 <= seat < cur.players:
            raise IndexError(seat)
        rows = _rows(conn, table_id)
        mine = hash_token(token) if token else None
        row = rows.get(seat)
        took_from = None
        if row is not None and row.token_hash is not None and row.token_hash != mine:
            if not take_over:
                raise SeatTaken(row.name)
            took_from = row.name
        elif row is not None and row.token_hash is None and store.private_at(conn, table_id, cur.game, seat, cur.version):
            took_from = row.name  # a seat given up still holds its secrets: whoever sits there next is announced
        keep = token if row is not None and token and row.token_hash == mine else secrets.token_urlsafe(24)
        now = datetime.now(UTC)
        for other, r in rows.items():  # a phone holds one seat at a table: moving seats frees the old one
            if other != seat and mine is not None and r.token_hash == mine:
                conn.execute(update(seats_table).where(and_(seats_table.c.table_id == table_id,
                                                            seats_table.c.seat == other)).values(token_hash=None))
        values = {"name": name, "token_hash": hash_token(keep), "claimed_at": now}
        if took_from is not None:
            values["handed_at"] = now
        if row is None:
            conn.execute(insert(seats_table).values(table_id=table_id, seat=seat, **values))
        else:
            conn.execute(update(seats_table).where(and_(seats_table.c.table_id == table_id,
                                                        seats_table.c.seat == seat)).values(**values))
        state = dict(cur.state)
        info = dict(state.get("table")) if isinstance(state.get("table"), dict) else {}
        names = entered_names(cur)
        names += [""] * (cur.players - len(names))
        names[seat] = name
        info["names"] = names[:cur.players]
        state["table"] = info
        result.update(token=keep, took_from=took_from)
        return state, cur.version

    table = store._write(engine, table_id, None, make)
    return Claimed(table, seat, name, result["token"], result["took_from"])


def release(engine: Engine, table_id: str, seat: int, token: str | None) -> store.TableRecord:
    """The holder gives the seat up (its name stays on the table); NotHolder for anyone else."""
    def make(conn: Connection, cur: store.TableRecord):
        row = _rows(conn, table_id).get(seat)
        if row is None or not token or row.token_hash != hash_token(token):
            raise NotHolder()
        conn.execute(update(seats_table).where(and_(seats_table.c.table_id == table_id,
                                                    seats_table.c.seat == seat)).values(token_hash=None))
        return dict(cur.state), cur.version  # a new version with the same state: every page shows the seat free

    return store._write(engine, table_id, None, make)
