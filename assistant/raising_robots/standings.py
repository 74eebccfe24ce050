"""Standings during play: each seat's score if the game ended now (the final score's scoring, from what is
entered) and the gap to the leader. Read by the round page and by the table page's Raising Robots part."""
from __future__ import annotations

from solvers.errors import InputError
from solvers.raising_robots import scoring

from ..tables import store
from ..web.context import seat_names
from . import state as rr
from .schemas import MAX_SEATS, RaisingRobotsState


def standings_of(state: RaisingRobotsState, names: list[str]) -> tuple[list[dict], list[str]]:
    """Best first, each with its gap to the leader; and the seats whose entries do not score yet (a class
    card's grade missing, say)."""
    valid, unscored = [], []
    for i, name in enumerate(names):
        try:
            valid.append((name, state.seat(i).to_solver(placed=True).score()))
        except InputError:
            unscored.append(name)
    rows = []
    if valid:
        table = scoring.standings(valid)
        lead = table[0].total
        rows = [{"name": s.name, "place": s.place, "total": s.total, "gap": lead - s.total,
                 "decided_by": s.decided_by} for s in table]
    return rows, unscored


def for_table(table: store.TableRecord | None) -> dict:
    """The table page's standings (a template global: the table page knows no game's state)."""
    if table is None or table.game != "raising-robots":
        return {"rows": [], "unscored": []}
    count = max(1, min(MAX_SEATS, table.players))
    rows, unscored = standings_of(rr.read(table), seat_names(table, count))
    return {"rows": rows, "unscored": unscored}
