"""The players' seats of a Raising Robots table (`rr_players`, one entry per seat), as the planner, score
and round-end pages read and change them: whatever a phone saved, every field a page reads is made safe
here, and a page's change lands on the newest seat field by field, robots matched by their `id`."""
from __future__ import annotations

import hashlib
import json
import re
import secrets
from typing import Any

from solvers.raising_robots.abilities import NAME_MAX
from solvers.raising_robots.competitions import COMP_TYPES, FRIENDSHIP_CAP
from solvers.raising_robots.model import ITEMS, ROWS, TOKEN_TYPES
from solvers.raising_robots.scoring import COLUMNS

from ..web.context import as_dict, as_list, seat_names
from .forms import whole
from .saves import Change, apply_changes

SEATS_KEY = "rr_players"
MAX_ROBOTS = 15  # a play area holds 3 rows of 5
MAX_SEATS = 6
ROBOT_ID = re.compile(r"^[A-Za-z0-9_-]{1,24}$")


def seat_count(table, form_or_args) -> int:
    """Seats at the table; without a table, the page's own `players` field (1 to 6)."""
    if table is not None:
        return max(1, min(MAX_SEATS, table.players))
    raw = str(form_or_args.get("players", "1"))
    return max(1, min(MAX_SEATS, int(raw))) if raw.isdigit() else 1


def names_of(table, n: int) -> list[str]:
    return seat_names(table, n) if table is not None else [f"Player {i + 1}" for i in range(n)]


def new_robot_id() -> str:
    return secrets.token_hex(4)


def _content_id(robot: dict) -> str:
    body = json.dumps({k: v for k, v in robot.items() if k != "id"}, sort_keys=True, default=str)
    return "c" + hashlib.sha1(body.encode()).hexdigest()[:8]


def with_ids(raw: Any) -> list[dict]:
    """The stored robots (objects only), each with an `id`: its own, else one made from its content. That
    one is the same on every read, so the page drawn from the state and the save after it agree on which
    robot is which; the first save of the seat then keeps it."""
    out, seen = [], set()
    for r in as_list(raw):
        if not isinstance(r, dict):
            continue
        rid = r.get("id")
        if not (isinstance(rid, str) and ROBOT_ID.match(rid)) or rid in seen:
            rid = base = _content_id(r)
            k = 1
            while rid in seen:
                rid, k = f"{base}-{k}", k + 1
        seen.add(rid)
        out.append({**r, "id": rid})
    return out


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
    seat["robots"] = [r for r in map(clean_robot, with_ids(seat.get("robots"))) if r is not None][:MAX_ROBOTS]
    seat["friendships"] = whole(seat.get("friendships"), 0, FRIENDSHIP_CAP, 0)
    names = [n.strip()[:NAME_MAX] for n in as_list(seat.get("friendship_names")) if isinstance(n, str) and n.strip()]
    seat["friendship_names"] = names[:FRIENDSHIP_CAP]
    seat["friendships"] = max(seat["friendships"], len(seat["friendship_names"]))
    inventor = as_dict(seat.get("inventor"))
    name = inventor.get("name")
    seat["inventor"] = {"name": name.strip()[:NAME_MAX] if isinstance(name, str) else "",
                        "upgraded": inventor.get("upgraded") is True}
    done = as_list(seat.get("completed"))
    seat["completed"] = [t for t in COMP_TYPES if t in done]
    seat["class_cards"] = [dict(c) for c in as_list(seat.get("class_cards")) if isinstance(c, dict)][:3]
    return seat


def seats_from(raw: Any, n: int) -> list[dict]:
    raw = as_list(raw)
    return [clean_seat(raw[i] if i < len(raw) else {}) for i in range(n)]


def who_body(seat: dict) -> dict:
    """The seat's inventor and Friendship cards as an API body takes them (names; an unnamed card as such)."""
    names = seat["friendship_names"]
    cards = names + ["unnamed"] * (seat["friendships"] - len(names)) if names else seat["friendships"]
    return {"inventor": dict(seat["inventor"]), "friendships": cards}


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


def robot_fields(seat: dict, robots: list[dict], fields: tuple[str, ...]) -> dict[str, dict]:
    """The robots a page edits, by id, with the fields it edits (as stored: a missing field stays missing)."""
    return {r["id"]: {k: r[k] for k in fields if k in r and r[k] is not None} for r in robots}


def seat_from_model(part: Any) -> dict:
    """A seat built back from a page's form model ({..., "robots": {id: fields}}), cleaned like stored state
    (the model of a posted form comes from the phone)."""
    part = as_dict(part)
    robots = [{**r, "id": rid} for rid, r in as_dict(part.get("robots")).items() if isinstance(r, dict)]
    return clean_seat({**part, "robots": robots})


def as_set(items: Any) -> dict[str, bool]:
    """A list read as a set for changes: {item: True}, so two phones adding different items both count."""
    return {x: True for x in as_list(items) if isinstance(x, str)}


def change_seat(state: dict, i: int, items: list[Change], sets: tuple[str, ...] = ()) -> dict:
    """Seat `i` of the newest state with a page's changes made: plain fields set or removed, robots matched
    by id (a change to a robot another phone removed meanwhile is dropped; new ones are appended), and the
    lists named in `sets` changed item by item. Everything else in the seat stays."""
    players = list(as_list(state.get(SEATS_KEY)))
    players += [{} for _ in range(i + 1 - len(players))]
    seat = dict(as_dict(players[i]))
    robots = with_ids(seat.get("robots"))
    by_id = {r["id"]: r for r in robots}
    view = {**seat, "robots": dict(by_id), **{k: as_set(seat.get(k)) for k in sets}}
    apply_changes(view, [(path, v) for path, v in items
                         if not (path[0] == "robots" and len(path) > 2 and path[1] not in by_id)])
    now = as_dict(view["robots"])
    order = [r["id"] for r in robots if r["id"] in now] + [k for k in now if k not in by_id]
    seat = {**view, "robots": [{**now[k], "id": k} for k in order if isinstance(now[k], dict)]}
    for k in sets:
        seat[k] = [x for x, on in as_dict(view[k]).items() if on is True]
    players[i] = seat
    state[SEATS_KEY] = players
    return state
