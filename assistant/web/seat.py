"""The phone's seat at a table: the token it got when it took the seat, kept in its session cookie (the
pages) or sent as the `X-Tablebot-Seat` header (API clients), checked against the seats the table keeps.
"""
from __future__ import annotations

from flask import g, request, session

from ..db import engine
from ..tables import seats, store

HEADER = "X-Tablebot-Seat"
SESSION_KEY = "seats"
MAX_TABLES = 20  # seat tokens a browser keeps (the newest tables); the session cookie stays small


def token_for(table_id: str) -> str | None:
    given = request.headers.get(HEADER)
    if given:
        return given[:100]
    kept = session.get(SESSION_KEY)
    token = kept.get(table_id) if isinstance(kept, dict) else None
    return token if isinstance(token, str) else None


def remember(table_id: str, token: str) -> None:
    kept = session.get(SESSION_KEY)
    kept = {k: v for k, v in kept.items() if k != table_id} if isinstance(kept, dict) else {}
    kept[table_id] = token
    session[SESSION_KEY] = dict(list(kept.items())[-MAX_TABLES:])


def forget(table_id: str) -> None:
    kept = session.get(SESSION_KEY)
    if isinstance(kept, dict) and table_id in kept:
        session[SESSION_KEY] = {k: v for k, v in kept.items() if k != table_id}


def phone_seat(table: store.TableRecord | None) -> int | None:
    """The seat this phone holds at `table` (None: none, or no table). Asked once per request."""
    if table is None:
        return None
    cache = g.setdefault("tablebot_seats", {})
    if table.id not in cache:
        seat = seats.held_by(engine(), table.id, token_for(table.id))
        cache[table.id] = seat if seat is not None and seat < table.players else None
    return cache[table.id]


def seat_infos(table: store.TableRecord) -> list[seats.SeatInfo]:
    """Every seat of the table as this version shows it; read once per request and version (the page
    and its seat bar both ask)."""
    cache = g.setdefault("tablebot_seat_infos", {})
    key = (table.id, table.version)
    if key not in cache:
        cache[key] = seats.seat_list(engine(), table)
    return cache[key]


def lost_seat(table: store.TableRecord | None) -> bool:
    """Whether this phone held a seat here that another phone has since taken over (or it gave up)."""
    return table is not None and token_for(table.id) is not None and phone_seat(table) is None


def clear_cache() -> None:
    g.pop("tablebot_seats", None)
    g.pop("tablebot_seat_infos", None)
