"""The whole-game forecasts' games, kept in the database so that every worker and every server on one
database refines the same estimate (api.md "Robotariat forecast": `runs` never drops for the same state).

A forecast is keyed by a hash of everything its games depend on (the board, dice, Office Rewards,
weights, seed, the policy's version and the position its games start from). Game k always plays the same
way (its random stream is `f"{seed}:{k}"`), so two workers that sample the same forecast at once play the
same games: a save keeps the longer list, and a shorter one never replaces it.

A forecast nobody has added games to for TABLE_EXPIRE_DAYS days goes with the storage sweep that deletes
idle tables (tables/retention.py; the app lists `expire_idle` in its "tablebot_expiring" extension), so
the kept games stay bounded: its table, idle as long, is gone too, and a later request starts again.
"""
from __future__ import annotations

import hashlib
import json
import time
from typing import Any

from sqlalchemy import JSON, Column, Float, Integer, String, Table, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..db import metadata

forecasts = Table(
    "robotariat_forecasts", metadata,
    Column("key", String(64), primary_key=True),
    Column("runs", Integer, nullable=False),
    Column("games", JSON, nullable=False),  # [[ending, round, final funds], ...] in game order
    Column("at", Float, nullable=False),  # seconds since the epoch, of the last save
)

KEPT_GAMES = 20_000  # the API's largest `runs`


def key_of(parts: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def load(engine, key: str) -> list[tuple[str, int, int]]:
    """The games kept for this forecast (none yet: an empty list). Odd stored rows count as none."""
    with engine.connect() as conn:
        row = conn.execute(select(forecasts.c.games).where(forecasts.c.key == key)).first()
    if row is None or not isinstance(row.games, list):
        return []
    out = []
    for g in row.games:
        if not (isinstance(g, list) and len(g) == 3 and isinstance(g[0], str) and all(isinstance(x, int)
                                                                                      for x in g[1:])):
            return []
        out.append((g[0], g[1], g[2]))
    return out


def save(engine, key: str, games: list[tuple[str, int, int]]) -> None:
    """Keep `games` unless more are kept already (compare-and-set on the number of games)."""
    games = games[:KEPT_GAMES]
    values = {"runs": len(games), "games": [list(g) for g in games], "at": time.time()}
    with engine.begin() as conn:
        done = conn.execute(update(forecasts).where(forecasts.c.key == key, forecasts.c.runs < len(games))
                            .values(**values)).rowcount
        if done:
            return
        if conn.execute(select(forecasts.c.runs).where(forecasts.c.key == key)).first() is not None:
            return  # as many or more kept already
    try:
        with engine.begin() as conn:
            conn.execute(insert(forecasts).values(key=key, **values))
    except IntegrityError:  # another worker saved it meanwhile: keep the longer
        with engine.begin() as conn:
            conn.execute(update(forecasts).where(forecasts.c.key == key, forecasts.c.runs < len(games))
                         .values(**values))


EXPIRE_BATCH = 500  # forecasts deleted per sweep at most: a sweep stays short


def expire_idle(engine, days: float, now: float | None = None, batch: int = EXPIRE_BATCH) -> int:
    """Delete up to `batch` forecasts last saved more than `days` days ago (0: never); how many went."""
    if days <= 0:
        return 0
    cutoff = (time.time() if now is None else now) - days * 86400
    with engine.begin() as conn:
        keys = conn.execute(select(forecasts.c.key).where(forecasts.c.at < cutoff).limit(batch)).scalars().all()
        if keys:
            conn.execute(delete(forecasts).where(forecasts.c.key.in_(keys)))
    return len(keys)
