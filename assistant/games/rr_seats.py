"""The players' seats of a Raising Robots table (`rr_players`, one entry per seat), as the planner, score
and round-end pages read them: whatever a phone saved, every field a page reads is made safe here."""
from __future__ import annotations

from typing import Any

from solvers.raising_robots.competitions import COMP_TYPES, FRIENDSHIP_CAP
from solvers.raising_robots.model import ITEMS, ROWS, TOKEN_TYPES
from solvers.raising_robots.scoring import COLUMNS

from ..page_helpers import as_dict, as_list, seat_names
from .rr_forms import whole

SEATS_KEY = "rr_players"
MAX_ROBOTS = 15  # a play area holds 3 rows of 5
MAX_SEATS = 6


def seat_count(table, form_or_args) -> int:
    """Seats at the table; without a table, the page's own `players` field (1 to 6)."""
    if table is not None:
        return max(1, min(MAX_SEATS, table.players))
    raw = str(form_or_args.get("players", "1"))
    return max(1, min(MAX_SEATS, int(raw))) if raw.isdigit() else 1


def names_of(table, n: int) -> list[str]:
    return seat_names(table, n) if table is not None else [f"Player {i + 1}" for i in range(n)]


def clean_robot(raw: Any) -> dict | None:
    """A stored robot with the fields the pages read made safe (other keys kept); None unless it has a row."""
    if not isinstance(raw, dict) or raw.get("row") not in ROWS:
        return None
    out = dict(raw)
    for key in ("cost_energy", "cost_resources"):
        v = raw.get(key)
        out[key] = [x for x in v if whole(x, 0, 20, -1) >= 0][:2] if isinstance(v, list) else []
    out["basic_energy"] = whole(raw.get("basic_energy"), 1, 7, 1)
    out["upgraded_energy"] = whole(raw.get("upgraded_energy"), 1, 7, 0) or None
    out["vp"] = whole(raw.get("vp"), 0, 20, 0)
    for flag in ("any_row", "upgraded", "needs_microchip"):
        out[flag] = raw.get(flag) is True
    return out


def clean_seat(raw: Any) -> dict:
    """A seat of rr_players with every field the pages read made safe to read (other keys kept)."""
    seat = dict(raw) if isinstance(raw, dict) else {}
    inv = as_dict(seat.get("inventory"))
    seat["inventory"] = {k: whole(inv.get(k), 0, 999, 0) for k in ITEMS}
    tok = as_dict(seat.get("tokens"))
    seat["tokens"] = {w: {t: whole(as_dict(tok.get(w)).get(t), 0, 20, 0) for t in TOKEN_TYPES}
                      for w in ("unplaced", "placed")}
    cs = as_dict(seat.get("class_status"))
    seat["class_status"] = {k: whole(cs.get(k), 0, 9, 0) for k in ("meeting_d", "meeting_c")}
    seat["robots"] = [r for r in map(clean_robot, as_list(seat.get("robots"))) if r is not None][:MAX_ROBOTS]
    seat["friendships"] = whole(seat.get("friendships"), 0, FRIENDSHIP_CAP, 0)
    done = as_list(seat.get("completed"))
    seat["completed"] = [t for t in COMP_TYPES if t in done]
    seat["class_cards"] = [dict(c) for c in as_list(seat.get("class_cards")) if isinstance(c, dict)][:3]
    return seat


def seats_from(raw: Any, n: int) -> list[dict]:
    raw = as_list(raw)
    return [clean_seat(raw[i] if i < len(raw) else {}) for i in range(n)]


def slots_of(seat: dict) -> dict[str, dict]:
    """Robots by slot key "design-1": a robot's own column when free, else the leftmost free one."""
    taken: dict[str, dict] = {}
    later = []
    for r in seat["robots"]:
        col = r.get("column")
        if whole(col, 1, COLUMNS, 0) and f"{r['row']}-{col}" not in taken:
            taken[f"{r['row']}-{col}"] = r
        else:
            later.append(r)
    for r in later:
        free = [c for c in range(1, COLUMNS + 1) if f"{r['row']}-{c}" not in taken]
        if free:
            taken[f"{r['row']}-{free[0]}"] = {**r, "column": free[0]}
    return taken
