"""Rise of the Robotariat pages: the board with the table's pieces, the board editor, game data,
forecast and suggestions, and the end-of-game objectives.

Everything the pages keep lives under the table state key `robotariat`:

    {"board":  {"spaces": [{"id", "name", "kind"}], "links": [[a, b]], "yellow_next": {}, "blue_next": {}},
     "example": true,                      # still the shipped example board
     "layout": {"s1": [x, y]},             # where each space is drawn (SVG units)
     "data":   {"dice": {"black": [6 faces], "red": [6 faces]}, "office_rewards": [11 ints],
                "starting_reputation": {"3": 5, "4": 6, "5": 7}},
     "state":  {"oppressors": [], "civilians": [], "players": [{"name", "at", "character"}],
                "active": 0, "posters": {}, "junk": 0, "funds": 0, "reputation": 5, "office": 0,
                "entry": "s3", "round": 1},
     "log":    [{"round", "player", "turn", "what", "junked", "office"}],   # turns applied here
                                           # (turn: "player" = a suggestion done, "npc", "round_start")
     "facts":  {...}}                      # what the objectives need that the board cannot show

The board and state have the API's shapes (api.md), so a request body is built by copying them.
`apply_action` is the one implementation of what an action changes. Without JS every page is a form
posting to itself, which applies the action and renders the same solver functions the API calls.
With JS the page's script posts the action to `POST /api/robotariat/tables/<id>/action` (or
`POST /api/robotariat/action` with the value it holds, not at a table) and draws the `answer`: the
normalized value and what the page shows of it. `GET /api/robotariat/tables/<id>?page=&since=` tells
the script about other phones' changes.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any, Literal

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from pydantic import BaseModel, ConfigDict, Field

from solvers.errors import InputError
from solvers.robotariat import gamedata
from solvers.robotariat.board import KIND_NAMES, MAX_SPACES
from solvers.robotariat.objectives import NAMES as OBJECTIVE_NAMES
from solvers.robotariat.objectives import OBJECTIVES, junked_per_turn

from .. import rules
from ..api import ApiError, bad_field
from ..api import parse as api_parse
from ..db import engine
from ..tables import store
from ..web import context as page_helpers
from ..web.context import as_dict, as_list
from . import api as rb_api

bp = Blueprint("robotariat", __name__)

GAME = "robotariat"


# ---- what the game is made of (solvers/robotariat/gamedata.py reads it from the defaults file) -----

DATA = gamedata.DEFAULTS
KINDS: dict[str, dict[str, str]] = {k: {"label": KIND_NAMES[k]} for k in KIND_NAMES}
# the two letters drawn on a character's piece chip
CHARACTER_SHORT = {"a1_5": "A1", "arcitech": "AT", "uberbot": "Üb", "mr_postman": "MP", "mt_rho": "MT",
                   "electric_eye": "EE", "wally_st": "WS", "alice_smith": "AS"}
# id -> (name, start space kind, short label)
CHARACTERS: dict[str, tuple[str, str, str]] = {
    cid: (DATA.raw["characters"][cid]["name"], DATA.character_starts[cid], CHARACTER_SHORT[cid])
    for cid in DATA.character_starts}

FACES = {"yellow_arrow": "yellow arrow", "blue_arrow": "blue arrow", "yellow_x": "yellow X", "blue_x": "blue X"}
MAX_NAME = 24
ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,24}$")

# SVG geometry, in viewBox units (a box is also drawn by _board.html and robotariat_board.js)
BOX_W, BOX_H = 96, 72
GRID_X, GRID_Y = 126, 116
MARGIN = 6
VIEW_W = 360
COLUMNS = 3


# ---- helpers that never raise on bad stored data ----------------------------------------------

def _int(value: Any, lo: int, hi: int, default: int) -> int:
    if isinstance(value, bool):
        return default
    try:
        v = int(value)
    except (TypeError, ValueError, OverflowError):
        return default
    return max(lo, min(hi, v))


def _text(value: Any, limit: int = MAX_NAME) -> str:
    return str(value).strip()[:limit] if isinstance(value, (str, int, float)) and not isinstance(value, bool) else ""


def _space_id(value: Any, ids: set[str]) -> str | None:
    return value if isinstance(value, str) and value in ids else None


def _choice(value: Any, options: Any) -> str | None:
    """`value` when it is one of `options` (stored values may be lists or objects: never hash them)."""
    return value if isinstance(value, str) and value in options else None


# ---- game data (the solver package's defaults file, with sources) ----------------------------

def defaults() -> dict[str, Any]:
    """Dice, Office Rewards, starting Reputation, SPARK targets and the example board, as the solver
    package ships them (`json` keeps the whole answer of GET /api/robotariat/defaults, sources included)."""
    d = gamedata.defaults_json()
    return {"dice": {"black": list(d["dice"]["black"]), "red": list(d["dice"]["red"])},
            "office_rewards": list(d["office_rewards"]["values"]),
            "starting_reputation": dict(d["starting_reputation"]["by_players"]),
            "spark_target": dict(d["spark_target"]["by_players"]),
            "board": {k: d["board"][k] for k in ("spaces", "links", "yellow_next", "blue_next")},
            "json": d}


# ---- normalising what a table holds -----------------------------------------------------------

def empty_board() -> dict[str, Any]:
    return {"spaces": [], "links": [], "yellow_next": {}, "blue_next": {}}


def _coord(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return round(max(0.0, min(100.0, float(value))), 1)


def normalize_board(raw: Any) -> dict[str, Any]:
    """Keep what makes sense of a stored or imported board: known kinds, unique ids, links and path
    steps between existing spaces, the optional `x`, `y` (0..100) and `start` of the API's board.
    Whether the board is complete is the validator's question (board_problems)."""
    board = empty_board()
    raw = as_dict(raw)
    seen: set[str] = set()
    for s in as_list(raw.get("spaces")):
        if not isinstance(s, dict) or len(board["spaces"]) >= MAX_SPACES:
            continue
        sid = s.get("id")
        if not isinstance(sid, str) or not ID_RE.match(sid) or sid in seen:
            continue
        kind = _choice(s.get("kind"), KINDS) or "poster"
        space: dict[str, Any] = {"id": sid, "name": _text(s.get("name")) or KINDS[kind]["label"], "kind": kind}
        x, y = _coord(s.get("x")), _coord(s.get("y"))
        if x is not None and y is not None:
            space["x"], space["y"] = x, y
        if s.get("start") is True:
            space["start"] = True
        board["spaces"].append(space)
        seen.add(sid)
    pairs: set[tuple[str, str]] = set()
    for link in as_list(raw.get("links")):
        if isinstance(link, (list, tuple)) and len(link) == 2:
            a, b = link
            if isinstance(a, str) and isinstance(b, str) and a in seen and b in seen and a != b:
                key = (a, b) if a < b else (b, a)
                if key not in pairs:
                    pairs.add(key)
                    board["links"].append([key[0], key[1]])
    for colour in ("yellow_next", "blue_next"):
        for a, b in as_dict(raw.get(colour)).items():
            if a in seen and isinstance(b, str) and b in seen and a != b:
                board[colour][a] = b
    return board


def _cell_xy(col: int, row: int) -> list[float]:
    return [MARGIN + BOX_W / 2 + col * GRID_X, MARGIN + BOX_H / 2 + row * GRID_Y]


def _cell_of(xy: list[float]) -> tuple[int, int]:
    return (round((xy[0] - MARGIN - BOX_W / 2) / GRID_X), round((xy[1] - MARGIN - BOX_H / 2) / GRID_Y))


def auto_layout(board: dict[str, Any], keep: dict[str, list[float]] | None = None) -> dict[str, list[float]]:
    """Grid positions (SVG units, 3 columns) for the spaces the table has not placed yet.

    Spaces with the API's `x`, `y` hints go to the free grid cell nearest their hint (hints scaled to
    the grid; closest pairs first); the rest follow the yellow path in a snake, so that consecutive
    yellow spaces sit side by side."""
    keep = dict(keep or {})
    spaces = board["spaces"]
    taken = {_cell_of(xy) for xy in keep.values()}
    todo = [s for s in spaces if s["id"] not in keep]
    hinted = [s for s in todo if "x" in s]
    if hinted:
        rows = max(1, math.ceil(len(spaces) / COLUMNS), max((r + 1 for _, r in taken), default=0))
        xs, ys = [s["x"] for s in hinted], [s["y"] for s in hinted]
        x0, y0 = min(xs), min(ys)
        xr, yr = (max(xs) - x0) or 1.0, (max(ys) - y0) or 1.0
        pairs = []
        for i, s in enumerate(hinted):
            u = (s["x"] - x0) / xr * (COLUMNS - 1)
            v = (s["y"] - y0) / yr * (rows - 1)
            for row in range(rows):
                for col in range(COLUMNS):
                    pairs.append((round((u - col) ** 2 + (v - row) ** 2, 6), i, row, col))
        pairs.sort()
        placed: set[int] = set()
        for _, i, row, col in pairs:
            if i not in placed and (col, row) not in taken:
                keep[hinted[i]["id"]] = _cell_xy(col, row)
                taken.add((col, row))
                placed.add(i)
    order: list[str] = []
    for s in spaces:
        sid = s["id"]
        while sid is not None and sid not in order:
            order.append(sid)
            sid = board["yellow_next"].get(sid)
    cell = 0
    for sid in order:
        if sid in keep:
            continue
        while True:
            row, col = divmod(cell, COLUMNS)
            col = COLUMNS - 1 - col if row % 2 else col
            if (col, row) not in taken:
                break
            cell += 1
        keep[sid] = _cell_xy(col, row)
        taken.add((col, row))
    return {s["id"]: keep[s["id"]] for s in spaces}


def normalize_layout(raw: Any, board: dict[str, Any]) -> dict[str, list[float]]:
    """The table's own placement of each space (grid cells, SVG units); the rest placed by auto_layout."""
    keep: dict[str, list[float]] = {}
    if isinstance(raw, dict):
        ids = {s["id"] for s in board["spaces"]}
        used: set[tuple[int, int]] = set()
        for sid, xy in raw.items():
            if sid in ids and isinstance(xy, (list, tuple)) and len(xy) == 2:
                try:
                    x, y = float(xy[0]), float(xy[1])
                except (TypeError, ValueError):
                    continue
                if not (math.isfinite(x) and math.isfinite(y)):
                    continue
                col, row = _cell_of([x, y])
                col, row = max(0, min(COLUMNS - 1, col)), max(0, min(MAX_SPACES, row))
                if (col, row) not in used:  # two spaces never share a cell
                    used.add((col, row))
                    keep[sid] = _cell_xy(col, row)
    return auto_layout(board, keep)


def normalize_data(raw: Any, base: dict[str, Any]) -> dict[str, Any]:
    raw = as_dict(raw)
    dice_raw = as_dict(raw.get("dice"))
    dice = {}
    for colour in ("black", "red"):
        faces = dice_raw.get(colour)
        ok = isinstance(faces, list) and len(faces) == 6 and all(_choice(f, FACES) for f in faces)
        dice[colour] = list(faces) if ok else list(base["dice"][colour])
    rewards = raw.get("office_rewards")
    if isinstance(rewards, list) and len(rewards) == 11:
        rewards = [_int(r, 0, 99, 0) for r in rewards]
        rewards[0] = 0
    else:
        rewards = list(base["office_rewards"])
    rep_raw = as_dict(raw.get("starting_reputation"))
    rep = {k: _int(rep_raw.get(k), 1, DATA.reputation_max, int(v)) for k, v in base["starting_reputation"].items()}
    return {"dice": dice, "office_rewards": rewards, "starting_reputation": rep}


def first_of_kind(board: dict[str, Any], kind: str) -> str | None:
    """The space of this kind marked as the start, else the first of that kind (as board.Board does)."""
    of_kind = [s for s in board["spaces"] if s["kind"] == kind]
    marked = [s for s in of_kind if s.get("start")]
    return (marked or of_kind or [{"id": None}])[0]["id"]


def start_space(board: dict[str, Any], character: str | None) -> str | None:
    """Where the character's sheet puts it (rulebook "Character Abilities"), else the first space."""
    if character in CHARACTERS:
        found = first_of_kind(board, CHARACTERS[character][1])
        if found:
            return found
    return board["spaces"][0]["id"] if board["spaces"] else None


def normalize_state(raw: Any, board: dict[str, Any], players: int, names: list[str],
                    data: dict[str, Any]) -> dict[str, Any]:
    raw = as_dict(raw)
    ids = {s["id"] for s in board["spaces"]}
    first = board["spaces"][0]["id"] if board["spaces"] else None

    def npcs(key: str, limit: int) -> list[str]:
        return [x for x in as_list(raw.get(key)) if _space_id(x, ids)][:limit]

    seats = as_list(raw.get("players"))
    out_players = []
    for i in range(players):
        p = as_dict(seats[i]) if i < len(seats) else {}
        character = _choice(p.get("character"), CHARACTERS)
        name = (names[i] if i < len(names) and names[i] else "") or _text(p.get("name")) or f"Player {i + 1}"
        at = _space_id(p.get("at"), ids) or start_space(board, character)
        out_players.append({"name": name, "at": at, "character": character})
    posters: dict[str, int] = {}
    for sid, n in as_dict(raw.get("posters")).items():
        if sid in ids and _int(n, 0, DATA.poster_supply, 0) > 0:
            posters[sid] = _int(n, 0, DATA.poster_supply, 0)
    rep_default = int(data["starting_reputation"][str(players)])
    return {
        "oppressors": npcs("oppressors", DATA.max_oppressors),
        "civilians": npcs("civilians", DATA.max_civilians),
        "players": out_players,
        "active": _int(raw.get("active"), 0, max(0, players - 1), 0),
        "posters": posters,
        "junk": _int(raw.get("junk"), 0, DATA.poster_supply, 0),
        "funds": _int(raw.get("funds"), 0, DATA.funds_max, 0),
        "reputation": _int(raw.get("reputation"), 0, DATA.reputation_max, rep_default),
        "office": _int(raw.get("office"), 0, DATA.office_max, 0),
        "entry": _space_id(raw.get("entry"), ids) or first_of_kind(board, "move_the_masses") or first,
        "round": _int(raw.get("round"), 1, DATA.max_rounds, 1),
    }


LOG_TURNS = ("player", "npc", "round_start")  # a suggestion done, a roll applied, a round-start entry


def normalize_log(raw: Any) -> list[dict[str, Any]]:
    out = []
    for e in as_list(raw):
        if isinstance(e, dict):
            out.append({"round": _int(e.get("round"), 1, DATA.max_rounds, 1), "player": _int(e.get("player"), 0, 4, 0),
                        "turn": _choice(e.get("turn"), LOG_TURNS) or "npc",
                        "what": _text(e.get("what"), 80),
                        "junked": _int(e.get("junked"), 0, DATA.poster_supply, 0),
                        "office": _int(e.get("office"), 0, DATA.office_max, 0)})
    return out[-200:]


def normalize(raw: Any, players: int, names: list[str] | None = None) -> dict[str, Any]:
    """The `robotariat` key of a table as the pages use it; never raises, whatever is stored."""
    raw = as_dict(raw)
    base = defaults()
    board = normalize_board(raw.get("board"))
    example = bool(raw.get("example", True))
    layout_raw = raw.get("layout")
    if not board["spaces"] and "board" not in raw and base.get("board"):
        board = normalize_board(base["board"])
        layout_raw = base.get("layout")
        example = True
    data = normalize_data(raw.get("data"), base)
    state = normalize_state(raw.get("state"), board, players, names or [], data)
    return {
        "board": board,
        "example": example and bool(board["spaces"]),
        "layout": normalize_layout(layout_raw, board),
        "data": data,
        "state": state,
        "log": normalize_log(raw.get("log")),
        "office_track": normalize_office_track(raw.get("office_track"), state["office"]),
        "facts": normalize_facts(raw.get("facts"), players),
    }


def normalize_office_track(raw: Any, office: int) -> list[int]:
    """Every value the Office Contributions track has shown this game, in order (for the Bursar)."""
    track = [_int(v, 0, DATA.office_max, 0) for v in as_list(raw)]
    if not track or track[-1] != office:
        track.append(office)
    return track[-1000:]


FACT_FLAGS = ("cooperative", "gambler_cards", "revolution_over")


def normalize_facts(raw: Any, players: int) -> dict[str, Any]:
    """What the objectives page entered: flags, one value per seat (dropped when the count of seats
    differs), the most posters junked in one turn."""
    raw = as_dict(raw)
    facts: dict[str, Any] = {k: raw.get(k) is True for k in FACT_FLAGS}
    per_seat = {"objectives": lambda v: _choice(v, OBJECTIVES), "cards_played": lambda v: _int(v, 0, DATA.cards_max, 0),
                "spy_correct": lambda v: v is True}
    for key, clean in per_seat.items():
        values = as_list(raw.get(key))
        if len(values) == players:
            facts[key] = [clean(v) for v in values]
    if raw.get("max_junked") is not None:
        facts["max_junked"] = _int(raw["max_junked"], 0, DATA.poster_supply, 0)
    return facts


# ---- actions: what a tap or a form changes --------------------------------------------------------

def _require_space(rb: dict[str, Any], value: Any, field: str) -> str:
    ids = {s["id"] for s in rb["board"]["spaces"]}
    if not isinstance(value, str) or value not in ids:
        raise InputError(field, "pick a space of the board")
    return value


def _new_space_id(board: dict[str, Any]) -> str:
    used = {s["id"] for s in board["spaces"]}
    n = len(used) + 1
    while f"s{n}" in used:
        n += 1
    return f"s{n}"


def _posters_out(state: dict[str, Any]) -> int:
    return sum(state["posters"].values()) + state["junk"]


def entered(state: dict[str, Any]) -> int:
    """How many NPCs of the entry track are on the board."""
    return len(state["oppressors"]) + len(state["civilians"])


def next_npc(state: dict[str, Any]) -> str | None:
    """The NPC the entry track gives next, or None when all six have entered."""
    return DATA.next_npc(entered(state))


def _piece(value: Any) -> tuple[str, int]:
    if value == "entry":
        return "entry", 0
    if isinstance(value, str) and len(value) >= 2 and value[0] in "ocp" and value[1:].isdigit():
        return {"o": "oppressors", "c": "civilians", "p": "players"}[value[0]], int(value[1:])
    raise InputError("piece", "pick a piece to move")


def _play_action(rb: dict[str, Any], act: dict[str, Any]) -> None:
    st = rb["state"]
    do = act.get("do")
    if do == "move":
        to = _require_space(rb, act.get("to"), "to")
        group, i = _piece(act.get("piece"))
        if group == "entry":
            st["entry"] = to
        elif group == "players":
            if i >= len(st["players"]):
                raise InputError("piece", "no such player at this table")
            st["players"][i]["at"] = to
        else:
            if i >= len(st[group]):
                raise InputError("piece", "that NPC is not on the board")
            st[group][i] = to
    elif do == "place_npc":
        to = _require_space(rb, act.get("to"), "to")
        kind = next_npc(st)
        if kind is None:
            raise InputError("to", "all six NPCs of the entry track are already on the board")
        st["oppressors" if kind == "oppressor" else "civilians"].append(to)
    elif do == "remove_npc":
        group, i = _piece(act.get("piece"))
        if group not in ("oppressors", "civilians") or i >= len(st[group]):
            raise InputError("piece", "that NPC is not on the board")
        st[group].pop(i)
    elif do == "poster":
        at = _require_space(rb, act.get("at"), "at")
        delta = _int(act.get("delta"), -1, 1, 0)
        if delta > 0 and _posters_out(st) >= DATA.poster_supply:
            raise InputError("at", f"all {DATA.poster_supply} posters are out (on the board or in the junk pile)")
        if delta < 0 and not st["posters"].get(at):
            raise InputError("at", "there is no poster on that space")
        st["posters"][at] = st["posters"].get(at, 0) + delta
        if not st["posters"][at]:
            del st["posters"][at]
    elif do == "tracks":
        limits = {"funds": DATA.funds_max, "reputation": DATA.reputation_max, "office": DATA.office_max,
                  "junk": DATA.poster_supply, "round": DATA.max_rounds}
        for key, hi in limits.items():
            if key in act and act[key] not in (None, ""):
                try:
                    v = int(act[key])
                except (TypeError, ValueError):
                    raise InputError(key, "enter a whole number") from None
                if not (1 if key == "round" else 0) <= v <= hi:
                    raise InputError(key, f"must be between {1 if key == 'round' else 0} and {hi}")
                st[key] = v
        if _posters_out(st) > DATA.poster_supply:
            raise InputError("junk", f"the game has {DATA.poster_supply} posters; the board and junk pile hold more")
    elif do == "player":
        seat = _int(act.get("seat"), -1, 99, -1)
        if not 0 <= seat < len(st["players"]):
            raise InputError("seat", "no such player at this table")
        character = act.get("character") or None
        if character is not None and not _choice(character, CHARACTERS):
            raise InputError("character", "pick one of the characters")
        st["players"][seat]["character"] = character
        if not rb["log"] and st["round"] == 1:  # before play starts a character stands on its start space
            st["players"][seat]["at"] = start_space(rb["board"], character)
    elif do == "active":
        seat = _int(act.get("seat"), -1, 99, -1)
        if not 0 <= seat < len(st["players"]):
            raise InputError("seat", "no such player at this table")
        st["active"] = seat
    elif do == "setup":
        for p in st["players"]:
            p["at"] = start_space(rb["board"], p["character"])
        players = len(st["players"])
        st.update(oppressors=[], civilians=[], posters={}, junk=0, funds=0, office=0, round=1, active=0,
                  reputation=int(rb["data"]["starting_reputation"][str(players)]),
                  entry=first_of_kind(rb["board"], "move_the_masses") or st["entry"])
        rb["log"] = []
        rb["office_track"] = [0]
    else:
        raise InputError("do", "unknown action")


def _apply_outcome(rb: dict[str, Any], outcome: dict[str, Any]) -> None:
    """Put the table where a solver's answer leaves it (an NPC turn, the round-start entry or a suggested
    turn: the API's `state`), log it, and pass the turn after an NPC turn."""
    st, got = rb["state"], outcome["state"]
    for key in ("oppressors", "civilians", "posters", "junk", "funds", "reputation", "office", "entry"):
        st[key] = json.loads(json.dumps(got[key]))
    for j, p in enumerate(got["players"][:len(st["players"])]):
        st["players"][j]["at"] = p["at"]
    if outcome.get("round") is not None:
        st["round"] = outcome["round"]
    rb["log"].append(outcome["log"])
    if outcome.get("next_turn"):
        st["active"] = (st["active"] + 1) % len(st["players"])


def _edit_action(rb: dict[str, Any], act: dict[str, Any]) -> None:
    board = rb["board"]
    do = act.get("do")
    if do == "add_space":
        if len(board["spaces"]) >= MAX_SPACES:
            raise InputError("kind", f"a board here holds at most {MAX_SPACES} spaces")
        kind = act.get("kind")
        if not _choice(kind, KINDS):
            raise InputError("kind", "pick the kind of space")
        sid = _new_space_id(board)
        board["spaces"].append({"id": sid, "kind": kind, "name": _text(act.get("name")) or KINDS[kind]["label"]})
        if act.get("x") not in (None, "") and act.get("y") not in (None, ""):
            rb["layout"][sid] = [act.get("x"), act.get("y")]
    elif do == "edit_space":
        sid = _require_space(rb, act.get("id"), "id")
        space = next(s for s in board["spaces"] if s["id"] == sid)
        if act.get("kind") is not None:
            if not _choice(act["kind"], KINDS):
                raise InputError("kind", "pick the kind of space")
            space["kind"] = act["kind"]
        if act.get("name") is not None:
            space["name"] = _text(act["name"]) or KINDS[space["kind"]]["label"]
    elif do == "delete_space":
        sid = _require_space(rb, act.get("id"), "id")
        board["spaces"] = [s for s in board["spaces"] if s["id"] != sid]
        board["links"] = [ln for ln in board["links"] if sid not in ln]
        for colour in ("yellow_next", "blue_next"):
            board[colour] = {a: b for a, b in board[colour].items() if sid not in (a, b)}
        rb["layout"].pop(sid, None)
        st = rb["state"]
        st["oppressors"] = [x for x in st["oppressors"] if x != sid]
        st["civilians"] = [x for x in st["civilians"] if x != sid]
        st["posters"].pop(sid, None)
    elif do == "toggle_link":
        a = _require_space(rb, act.get("a"), "a")
        b = _require_space(rb, act.get("b"), "b")
        if a == b:
            raise InputError("b", "a black line joins two different spaces")
        key = sorted([a, b])
        if key in board["links"]:
            board["links"].remove(key)
        else:
            board["links"].append(key)
    elif do == "path":
        colour = act.get("colour")
        if colour not in ("yellow", "blue"):
            raise InputError("colour", "yellow or blue")
        a = _require_space(rb, act.get("from"), "from")
        if act.get("to") in (None, ""):
            board[f"{colour}_next"].pop(a, None)
        else:
            b = _require_space(rb, act.get("to"), "to")
            if a == b:
                raise InputError("to", "the next space on a path is another space")
            board[f"{colour}_next"][a] = b
            if sorted([a, b]) not in board["links"]:  # a path runs along a black line
                board["links"].append(sorted([a, b]))
    elif do == "move_space":
        sid = _require_space(rb, act.get("id"), "id")
        try:
            x, y = float(act.get("x")), float(act.get("y"))
        except (TypeError, ValueError):
            raise InputError("x", "tap where the space goes") from None
        if not (math.isfinite(x) and math.isfinite(y)):
            raise InputError("x", "tap where the space goes")
        target = _cell_of([x, y])
        for other, xy in rb["layout"].items():  # a space already in that cell swaps with the moved one
            if other != sid and _cell_of(xy) == target:
                rb["layout"][other] = rb["layout"][sid]
        rb["layout"][sid] = [x, y]
    elif do == "import":
        board_raw = act.get("board")
        if isinstance(board_raw, dict) and "board" in board_raw:  # a whole export file
            act = {**act, "layout": board_raw.get("layout"), "board": board_raw.get("board")}
            board_raw = act["board"]
        if not isinstance(board_raw, dict):
            raise InputError("board", "paste a board as JSON: {\"spaces\": [...], \"links\": [...], ...}")
        imported = normalize_board(board_raw)
        if not imported["spaces"]:
            raise InputError("board", "the board has no spaces with an id and a kind")
        rb["board"] = imported
        rb["layout"] = act.get("layout") if isinstance(act.get("layout"), dict) else {}
    elif do == "example":
        base = defaults()
        if not base.get("board"):
            raise InputError("do", "no example board is available")
        rb["board"] = normalize_board(base["board"])
        rb["layout"] = base.get("layout") or {}
        rb["example"] = True
        return
    elif do == "clear":
        rb["board"] = empty_board()
        rb["layout"] = {}
    else:
        raise InputError("do", "unknown action")
    rb["example"] = False


def _data_action(rb: dict[str, Any], act: dict[str, Any]) -> None:
    base = defaults()
    if act.get("do") == "data_reset":
        rb["data"] = normalize_data({}, base)
        return
    data = rb["data"]
    dice = act.get("dice") if isinstance(act.get("dice"), dict) else {}
    for colour in ("black", "red"):
        if colour in dice:
            faces = dice[colour]
            if not isinstance(faces, list) or len(faces) != 6:
                raise InputError(f"dice.{colour}", "a die has six faces")
            for i, f in enumerate(faces):
                if not _choice(f, FACES):
                    raise InputError(f"dice.{colour}[{i}]", "a face is a yellow or blue arrow or X")
            data["dice"][colour] = list(faces)
    if "office_rewards" in act:
        rewards = act["office_rewards"]
        if not isinstance(rewards, list) or len(rewards) != 11:
            raise InputError("office_rewards", "enter 11 values, for contributions 0 to 10")
        clean = []
        for i, r in enumerate(rewards):
            try:
                v = int(r)
            except (TypeError, ValueError):
                raise InputError(f"office_rewards[{i}]", "enter a whole number") from None
            if not 0 <= v <= 99 or (i == 0 and v != 0):
                raise InputError(f"office_rewards[{i}]", "0 at level 0, otherwise 0 to 99")
            clean.append(v)
        data["office_rewards"] = clean
    rep = act.get("starting_reputation")
    if isinstance(rep, dict):
        for k in ("3", "4", "5"):
            if k in rep:
                try:
                    v = int(rep[k])
                except (TypeError, ValueError):
                    raise InputError(f"starting_reputation.{k}", "enter a whole number") from None
                if not 1 <= v <= DATA.reputation_max:
                    raise InputError(f"starting_reputation.{k}", f"between 1 and {DATA.reputation_max}")
                data["starting_reputation"][k] = v


# answers the solvers computed for the table as the page showed it, and the section showing each: applying
# one is a compare-and-set on the version it was computed from (never re-applied on a newer table)
OUTCOMES = {"roll": "npc", "enter": "entry", "do_option": "sg"}
PLAY_ACTIONS = {"move", "place_npc", "remove_npc", "poster", "tracks", "player", "active", "setup"}
EDIT_ACTIONS = {"add_space", "edit_space", "delete_space", "toggle_link", "path", "move_space", "import",
                "example", "clear"}
DATA_ACTIONS = {"data", "data_reset"}
ACTIONS = set(OUTCOMES) | PLAY_ACTIONS | EDIT_ACTIONS | DATA_ACTIONS | {"facts"}


def apply_action(rb: dict[str, Any], act: dict[str, Any], players: int, names: list[str]) -> dict[str, Any]:
    """A copy of the normalised `robotariat` value with one action applied (InputError when it can't be).
    The one implementation of what a tap, a form or the JSON action endpoint changes."""
    rb = json.loads(json.dumps(rb))
    do = _choice(act.get("do"), ACTIONS)
    if do in OUTCOMES:
        _apply_outcome(rb, solved_action(rb, act))
    elif do in PLAY_ACTIONS:
        _play_action(rb, act)
    elif do in EDIT_ACTIONS:
        _edit_action(rb, act)
    elif do in DATA_ACTIONS:
        _data_action(rb, act)
    elif do == "facts":
        rb["facts"] = _facts_from(act, rb)
    else:
        raise InputError("do", "unknown action")
    return normalize(rb, players, names)


# ---- the board drawn as SVG (_board.html, and robotariat_board.js after a change, draw this) -----

ARROW_OFFSET = {"yellow": 7, "blue": 7}
SAME_WAY_EXTRA = 9  # yellow and blue both going A -> B: draw the blue arrow further out


def _clip(ax: float, ay: float, bx: float, by: float) -> tuple[float, float, float, float] | None:
    """The part of the segment between two box centres that lies outside both boxes."""
    dx, dy = bx - ax, by - ay
    if abs(dx) < 1e-9 and abs(dy) < 1e-9:
        return None
    tx = (BOX_W / 2) / abs(dx) if dx else math.inf
    ty = (BOX_H / 2) / abs(dy) if dy else math.inf
    t = min(tx, ty)
    if t >= 0.5:
        return None  # the boxes overlap
    return (ax + dx * t, ay + dy * t, bx - dx * t, by - dy * t)


def _arrow(a: list[float], b: list[float], offset: float) -> dict[str, float] | None:
    seg = _clip(a[0], a[1], b[0], b[1])
    if seg is None:
        return None
    x1, y1, x2, y2 = seg
    length = math.hypot(x2 - x1, y2 - y1)
    if length < 1:
        return None
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    nx, ny = uy, -ux  # left of the direction of travel (SVG y points down)
    shrink = min(4.0, length / 4)
    return {"x1": round(x1 + ux * shrink + nx * offset, 1), "y1": round(y1 + uy * shrink + ny * offset, 1),
            "x2": round(x2 - ux * shrink + nx * offset, 1), "y2": round(y2 - uy * shrink + ny * offset, 1)}


def board_view(rb: dict[str, Any], heat: dict[str, float] | None = None, problems: set[str] | None = None
               ) -> dict[str, Any]:
    """Everything the SVG template draws: boxes, black lines, path arrows, pieces, heat."""
    board, layout, st = rb["board"], rb["layout"], rb["state"]
    problems = problems or set()
    spaces = []
    for s in board["spaces"]:
        x, y = layout[s["id"]]
        sid = s["id"]
        row1 = []
        if st["oppressors"].count(sid):
            row1.append({"piece": "oppressor", "count": st["oppressors"].count(sid)})
        if st["civilians"].count(sid):
            row1.append({"piece": "civilian", "count": st["civilians"].count(sid)})
        if st["posters"].get(sid):
            row1.append({"piece": "poster", "count": st["posters"][sid]})
        if st["entry"] == sid:
            row1.append({"piece": "entry", "count": 1})
        row2 = [{"seat": i + 1, "active": i == st["active"], "name": p["name"]}
                for i, p in enumerate(st["players"]) if p["at"] == sid]
        title = KINDS[s["kind"]]["label"] + (f" “{s['name']}”" if s["name"] != KINDS[s["kind"]]["label"] else "")
        spaces.append({**s, "x": x, "y": y, "left": x - BOX_W / 2, "top": y - BOX_H / 2,
                       "label": s["name"], "title": title, "row1": row1, "row2": row2,
                       "heat": (heat or {}).get(sid), "problem": sid in problems,
                       "aria": _space_aria(s, title, st)})
    links = []
    for a, b in board["links"]:
        seg = _clip(*layout[a], *layout[b])
        if seg:
            links.append({"x1": round(seg[0], 1), "y1": round(seg[1], 1), "x2": round(seg[2], 1),
                          "y2": round(seg[3], 1)})
    linked = {tuple(sorted(ln)) for ln in board["links"]}
    arrows = []
    for colour in ("yellow", "blue"):
        for a, b in board[f"{colour}_next"].items():
            offset = ARROW_OFFSET[colour]
            if colour == "blue" and board["yellow_next"].get(a) == b:
                offset += SAME_WAY_EXTRA
            arrow = _arrow(layout[a], layout[b], offset)
            if arrow:
                arrows.append({**arrow, "colour": colour, "linked": tuple(sorted((a, b))) in linked})
    width = max([VIEW_W] + [x + BOX_W / 2 + MARGIN for x, _ in layout.values()])
    height = max([BOX_H + 2 * MARGIN] + [y + BOX_H / 2 + 14 for _, y in layout.values()])
    return {"spaces": spaces, "links": links, "arrows": arrows, "width": round(width), "height": round(height)}


def _space_aria(space: dict[str, Any], title: str, st: dict[str, Any]) -> str:
    sid = space["id"]
    parts = [title]
    for key, word in (("oppressors", "oppressor"), ("civilians", "civilian")):
        n = st[key].count(sid)
        if n:
            parts.append(f"{n} {word}{'s' if n > 1 else ''}")
    if st["posters"].get(sid):
        parts.append(f"{st['posters'][sid]} poster{'s' if st['posters'][sid] > 1 else ''}")
    if st["entry"] == sid:
        parts.append("NPC Entry token")
    parts += [p["name"] for p in st["players"] if p["at"] == sid]
    return ", ".join(parts)


# ---- the solvers, through the API's functions (the same answers the JSON API gives) ------------

HEATS = {
    "oppressor_reach": "an Oppressor moves onto it in the next k NPC turns",
    "oppressor_present": "an Oppressor stands on it after k NPC turns",
    "civilian_reach": "a Civilian Robot moves onto it in the next k NPC turns",
    "entry": "the NPC Entry token is on it after k NPC turns",
}
SUGGEST_LIMIT = 40


def api_body(rb: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """The request body of the Robotariat API (api.md) for this table."""
    st = rb["state"]
    body = {"players": len(st["players"]), "board": rb["board"], "dice": rb["data"]["dice"],
            "office_rewards": rb["data"]["office_rewards"],
            "state": {"oppressors": st["oppressors"], "civilians": st["civilians"],
                      "players": [{k: v for k, v in p.items() if v is not None} for p in st["players"]],
                      "active": st["active"], "posters": st["posters"], "junk": st["junk"], "funds": st["funds"],
                      "reputation": st["reputation"], "office": st["office"], "entry": st["entry"],
                      "round": st["round"]}}
    return json.loads(json.dumps({**body, **extra}))


def _solve(fn: Any, body: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    try:
        return fn(body), None
    except ApiError as e:
        return None, e.message


def suggestion_outcome(st: dict[str, Any], option: dict[str, Any]) -> dict[str, Any]:
    """"Do this" on a suggested turn: its `state_after` to apply, logged as the active player's turn
    (posters a Move the Masses sent to the junk pile count for the Scrapper's turn)."""
    junked = (option.get("immediate") or {}).get("posters_junked", 0)
    return {"state": option["state_after"],
            "log": {"round": st["round"], "player": st["active"], "turn": "player", "what": option["headline"][:80],
                    "junked": junked, "office": option["state_after"]["office"]}}


def solved_action(rb: dict[str, Any], act: dict[str, Any]) -> dict[str, Any]:
    """A rolled NPC turn ("roll": the faces), the round-start entry ("enter") or a suggested turn
    ("do_option": its place in the page's list) as the outcome to apply, worked out by the solvers."""
    st = rb["state"]
    if act.get("do") == "do_option":
        n = _int(act.get("option"), -1, SUGGEST_LIMIT, -1)
        out, err = _solve(rb_api.suggest_json, api_body(rb, limit=SUGGEST_LIMIT))
        if out is None:
            raise InputError("option", err or "no suggestions for this table")
        if not 0 <= n < len(out["options"]):
            raise InputError("option", "pick one of the suggested turns")
        return suggestion_outcome(st, out["options"][n])
    if act.get("do") == "roll":
        out, err = _solve(rb_api.npc_turn_json, api_body(rb))
        if out is None:
            raise InputError("black", err or "no forecast for this table")
        black, red = act.get("black"), act.get("red")
        if isinstance(act.get("faces"), str):  # the page's one form: the button says "black red"
            black, _, red = act["faces"].partition(" ")
        match = [o for o in out["outcomes"] if o["black"] == black and o["red"] == red]
        if not match:
            raise InputError("black", "that pair of faces cannot come up with these dice")
        o = match[0]
        return {"state": o["state"], "next_turn": True,
                "log": {"round": st["round"], "player": st["active"], "turn": "npc",
                        "what": f"{FACES[o['black']]} / {FACES[o['red']]}", "junked": o["posters_junked"],
                        "office": o["state"]["office"]}}
    row = DATA.entry_row(entered(st))
    if row is None:
        raise InputError("do", "all six NPCs have entered: the entry track is empty")
    out, err = _solve(rb_api.round_start_json, api_body(rb, row=row))
    if out is None:
        raise InputError("do", err or "no entry for this table")
    return {"state": out["state"], "round": row,
            "log": {"round": row, "player": 0, "turn": "round_start", "what": f"{out['npc']} enters",
                    "junked": out["posters_junked"], "office": out["state"]["office"]}}


def forecasts(rb: dict[str, Any], turns: int, heat: str) -> dict[str, Any]:
    """Everything the board page shows from the solvers, each with the API's message when it can't."""
    out: dict[str, Any] = {"turns": turns, "heat_kind": heat, "heat": None}
    if not rb["board"]["spaces"]:
        msg = "Enter the board first."
        return {**out, "npc_error": msg, "suggest_error": msg, "look_error": msg, "entry_error": msg,
                "npc": None, "suggest": None, "look": None, "entry": None}
    body = api_body(rb)
    out["npc"], out["npc_error"] = _solve(rb_api.npc_turn_json, body)
    out["suggest"], out["suggest_error"] = _solve(rb_api.suggest_json, {**body, "limit": SUGGEST_LIMIT})
    for i, o in enumerate((out["suggest"] or {}).get("options", [])):
        o["n"] = i  # its place in the list: what the no-JS "Do this" form posts
    out["look"], out["look_error"] = _solve(rb_api.lookahead_json, {**body, "turns": turns})
    st = rb["state"]
    row = DATA.entry_row(entered(st))
    if row is not None:
        out["entry"], out["entry_error"] = _solve(rb_api.round_start_json, {**body, "row": row})
    else:
        out["entry"], out["entry_error"] = None, None
    if out["look"]:
        out["heat"] = {sid: float(v[heat]["approx"]) for sid, v in out["look"]["spaces"].items()}
    return out


# ---- objectives facts (entered at the end; the board cannot show them) -------------------------

def _facts_from(act: dict[str, Any], rb: dict[str, Any]) -> dict[str, Any]:
    players = len(rb["state"]["players"])
    facts = dict(rb["facts"])
    if "cooperative" in act:
        facts["cooperative"] = bool(act["cooperative"]) and act["cooperative"] not in ("0", "false", "off")
    for key in ("cards_played", "objectives", "spy_correct"):
        if key in act:
            values = act[key]
            if not isinstance(values, list) or len(values) != players:
                raise InputError(key, f"one value for each of the {players} players")
            if key == "cards_played":
                clean = []
                for i, v in enumerate(values):
                    try:
                        n = int(v)
                    except (TypeError, ValueError):
                        raise InputError(f"cards_played[{i}]", "enter a whole number") from None
                    if not 0 <= n <= DATA.cards_max:
                        raise InputError(f"cards_played[{i}]", f"between 0 and {DATA.cards_max} "
                                                              "(the Upgrade and Sabotage cards)")
                    clean.append(n)
                facts[key] = clean
            elif key == "objectives":
                for i, v in enumerate(values):
                    if v not in OBJECTIVES and v not in (None, ""):
                        raise InputError(f"objectives[{i}]", "pick one of the 8 secret objectives")
                facts[key] = [v or None for v in values]
            else:
                facts[key] = [bool(v) and v not in ("0", "false", "off") for v in values]
    for key in ("gambler_cards", "revolution_over"):
        if key in act:
            facts[key] = bool(act[key]) and act[key] not in ("0", "false", "off")
    if "max_junked" in act and act["max_junked"] not in (None, ""):
        try:
            facts["max_junked"] = max(0, min(DATA.poster_supply, int(act["max_junked"])))
        except (TypeError, ValueError):
            raise InputError("max_junked", "enter a whole number") from None
    return facts


# ---- page plumbing ------------------------------------------------------------------------------

def _seats(table: store.TableRecord | None, raw: Any) -> tuple[int, list[str]]:
    """How many players and their names: the table's, or (not at a table) what the form carried."""
    if table is not None:
        players = max(3, min(5, table.players))
        return players, page_helpers.seat_names(table, players)
    n = request.values.get("players")
    if n is None:
        n = len(as_list(as_dict(as_dict(raw).get("state")).get("players"))) or None
    return _int(n, 3, 5, 3), []


def _carried_state() -> Any:
    """Not at a table, the forms carry the whole `robotariat` value in a hidden field."""
    text = request.form.get("state_json")
    if not text:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _form_action(form: Any) -> dict[str, Any]:
    """A form post as an action dict: plain fields, `x[]`-style lists, and a JSON `action` field."""
    if form.get("action_json"):
        try:
            act = json.loads(form["action_json"])
        except (ValueError, RecursionError):
            raise InputError("action_json", "not valid JSON") from None
        if not isinstance(act, dict):
            raise InputError("action_json", "an object is expected")
        return act
    act: dict[str, Any] = {}
    for key in form:
        if key in ("state_json", "table", "version", "players"):
            continue
        values = form.getlist(key)
        if key.endswith("[]"):
            act[key[:-2]] = values
        elif "." in key:  # dice.black.0 -> nested
            head, _, rest = key.partition(".")
            act.setdefault(head, {})
            if isinstance(act[head], dict):
                sub, _, idx = rest.partition(".")
                if idx:
                    act[head].setdefault(sub, [None] * 6)
                    if idx.isdigit() and int(idx) < 6:
                        act[head][sub][int(idx)] = values[-1]
                else:
                    act[head][sub] = values[-1]
        else:
            act[key] = values[-1]
    if act.get("do") == "import" and "board" not in act:
        act["board"] = _uploaded_board(str(act.pop("board_text", "") or ""))
    return act


def _uploaded_board(text: str) -> Any:
    upload = request.files.get("board_file")
    if upload is not None and upload.filename:
        text = upload.read(64 * 1024).decode("utf-8", "replace")
    if not text.strip():
        raise InputError("board_text", "paste the board's JSON or pick a file")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise InputError("board_text", "this is not valid JSON") from None


def with_round(state: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The table's state with `robotariat` replaced by `after`; when that changed the Robotariat round, the
    table page's shared round (`table.round`) follows, so both pages show the same round."""
    out = {**state, "robotariat": after}
    if after["state"]["round"] != before["state"]["round"]:
        out["table"] = {**as_dict(state.get("table")), "round": after["state"]["round"]}
    return out


class TableChanged(Exception):
    """The table moved on after the page showed the answer being applied: nothing was saved."""

    def __init__(self, table: store.TableRecord):
        super().__init__("the table changed")
        self.table = table


CHANGED = {"npc": "The table changed since this forecast was made, so nothing was applied: here is the forecast "
                  "for the table as it is now, tap your roll again.",
           "sg": "The table changed since these suggestions were made, so nothing was applied: here they are for "
                 "the table as it is now, tap your choice again.",
           "entry": "The table changed since this round start was worked out, so nothing was applied: here it is "
                    "for the table as it is now, tap “place it” again."}


def _posted_version(table: store.TableRecord) -> int:
    raw = request.form.get("version")
    if raw in (None, ""):
        return table.version
    try:
        return int(raw)
    except ValueError:
        raise InputError("version", "reload the page: the form lost the table's version") from None


def apply_to_table(table: store.TableRecord, act: dict[str, Any], players: int, names: list[str],
                   version: int | None) -> tuple[store.TableRecord, dict[str, Any]]:
    """Apply one action to the table and save it; the saved table and its `robotariat` value.

    An answer of the solvers (roll, round start, suggested turn) was worked out on the table at
    `version`: it is one compare-and-set on that version, and TableChanged (nothing saved) when another
    phone saved since. Any other action is re-applied on the newest state when another phone saved
    first, so both changes stay."""
    if _choice(act.get("do"), OUTCOMES):
        if version is not None and version != table.version:
            raise TableChanged(table)
        rb = normalize(page_helpers.state_part(table, GAME), players, names)
        new = apply_action(rb, act, players, names)
        try:
            return store.put(engine(), table.id, table.version, with_round(table.state, rb, new)), new
        except store.Conflict as c:
            raise TableChanged(c.current) from None

    def mutate(state: dict[str, Any]) -> dict[str, Any]:
        rb = normalize(state.get(GAME), players, names)
        return with_round(state, rb, apply_action(rb, act, players, names))

    try:
        saved = page_helpers.update_table(table, mutate)
    except store.Conflict:
        raise InputError("do", "the table kept changing on other phones; try again") from None
    return saved, normalize(saved.state.get(GAME), players, names)


def _handle(page: str, allowed: set[str]) -> tuple[dict[str, Any], dict[str, Any], int, InputError | None]:
    """Read the table (or the carried state), apply a posted action, and say what to render."""
    ctx = page_helpers.table_context(GAME)
    table = ctx["table"]
    carried = None if table is not None else _carried_state()
    players, names = _seats(table, carried)
    raw = page_helpers.state_part(table, GAME) if table is not None else carried
    rb = normalize(raw, players, names)
    status, error = 200, None
    ctx["changed"] = None
    if request.method == "POST":
        try:
            act = _form_action(request.form)
            if not _choice(act.get("do"), allowed):
                raise InputError("do", "this page cannot do that")
            if table is None:
                rb = apply_action(rb, act, players, names)
            else:
                ctx["table"], rb = apply_to_table(table, act, players, names, _posted_version(table))
                flash("Saved with the table.", "ok")
        except InputError as e:
            status, error = 400, e
        except TableChanged as c:
            # show the newer table and what the solvers say about it; the player applies again
            ctx["table"] = c.table
            rb = normalize(page_helpers.state_part(c.table, GAME), players, names)
            status, ctx["changed"] = 409, OUTCOMES[act["do"]]
    return ctx, rb, status, error


def _redirect_after_save(endpoint: str, ctx: dict[str, Any], anchor: str = "") -> Response | None:
    if request.method == "POST" and ctx["table"] is not None:
        return redirect(url_for(endpoint, table=ctx["table"].id) + anchor, code=303)
    return None


def rule_titles() -> dict[str, str]:
    """Titles of the Robotariat rule entries, for links that read as words rather than ids."""
    return {e.id: e.title for e in rules.books()[GAME].entries}


def page_meta() -> dict[str, Any]:
    """Words the scripts show (piece labels, die faces, readings, rule titles); no rules."""
    return {"characters": {k: {"name": v[0], "short": v[2]} for k, v in CHARACTERS.items()},
            "faces": FACES, "objective_names": OBJECTIVE_NAMES, "suggest_limit": SUGGEST_LIMIT,
            "rule_titles": rule_titles(),
            "readings": {r["id"]: {"title": r["title"], "text": r["text"], "entry": r["entry"]}
                         for r in rb_api.readings_json()["readings"]}}


def _common(ctx: dict[str, Any], rb: dict[str, Any], error: InputError | None, page: str) -> dict[str, Any]:
    return {**ctx, "rb": rb, "error": error, "kinds": KINDS, "characters": CHARACTERS, "faces": FACES,
            "meta": page_meta(), "rule_titles": rule_titles(), "answer": answer(rb, page, ctx["table"]),
            "status": play_status(rb), "entry_track": DATA.entry_track, "next_npc": next_npc(rb["state"]),
            "rounds": DATA.max_rounds, "poster_supply": DATA.poster_supply, "gamedata": DATA,
            "players_count": len(rb["state"]["players"]), "target": DATA.spark_target[len(rb["state"]["players"])]}


# ---- what the scripts draw: the page's values after each change ----------------------------------

ANSWER_PAGES = ("play", "editor", "data", "objectives")


def play_status(rb: dict[str, Any]) -> dict[str, Any]:
    """The tracks and counts the board page shows above and below the board."""
    st = rb["state"]
    on_board = sum(st["posters"].values())
    return {"round": st["round"], "rounds": DATA.max_rounds, "funds": st["funds"],
            "target": DATA.spark_target[len(st["players"])], "reputation": st["reputation"],
            "office": st["office"], "junk": st["junk"], "entered": entered(st), "track": len(DATA.entry_track),
            "next_npc": next_npc(st), "posters_on_board": on_board,
            "posters_left": DATA.poster_supply - on_board - st["junk"], "played": turn_played(rb)}


def free_slots(layout: dict[str, list[float]]) -> list[dict[str, Any]]:
    """Empty grid cells where the editor offers to add or move a space: in the board's rows and one more."""
    used = {_cell_of(xy) for xy in layout.values()}
    rows = max((r + 1 for _, r in used), default=0)
    out = []
    for row in range(rows + 1):
        for col in range(COLUMNS):
            if (col, row) not in used:
                x, y = _cell_xy(col, row)
                out.append({"col": col, "row": row, "x": x, "y": y, "left": x - BOX_W / 2, "top": y - BOX_H / 2})
    return out


def objectives_result(rb: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    if not rb["board"]["spaces"]:
        return None, "Enter the board first."
    return _solve(rb_api.objectives_json, objectives_body(rb))


def answer(rb: dict[str, Any], page: str, table: store.TableRecord | None = None) -> dict[str, Any]:
    """The normalized `robotariat` value and what `page` draws from it (the board picture, the tracks,
    the API body for the forecast, the board check, the objectives): the pages' scripts only render it."""
    out: dict[str, Any] = {"version": table.version if table else None, "code": table.code if table else None,
                           "robotariat": rb}
    if page == "play":
        out.update(view=board_view(rb), status=play_status(rb), body=api_body(rb))
    elif page == "editor":
        check, check_error = board_check(rb)
        view = board_view(rb, problems=problem_spaces(check))
        slots = free_slots(rb["layout"])
        out.update(view=view, check=check, check_error=check_error, slots=slots,
                   slots_height=round(max([view["height"]] + [c["y"] + BOX_H / 2 + MARGIN for c in slots])))
    elif page == "objectives":
        out["objectives"], out["objectives_error"] = objectives_result(rb)
    return out


class ActionIn(BaseModel):
    """POST /api/robotariat/tables/<id>/action: one action (as the page's forms post it) on the table;
    `version`: the table's version the page showed (needed for a solver's answer: roll, enter, do_option);
    `page`: which page's values to answer with."""
    model_config = ConfigDict(extra="ignore")
    action: dict[str, Any]
    version: int | None = Field(default=None, ge=1, strict=True)
    page: Literal[ANSWER_PAGES] = "play"  # type: ignore[valid-type]


class CarriedActionIn(ActionIn):
    """POST /api/robotariat/action: the same, not at a table: the page sends the value it holds."""
    robotariat: dict[str, Any] = Field(default_factory=dict)
    players: int = Field(default=3, ge=3, le=5, strict=True)


def _table_or_404(table_id: str) -> store.TableRecord:
    table = store.get(engine(), table_id) if len(table_id) <= 64 else None
    if table is None or table.game != GAME:
        raise ApiError(404, "not_found", "No Robotariat table has this id.")
    return table


def _action_error(e: InputError) -> ApiError:
    return bad_field(f"action.{e.path}", e.message)


@bp.post("/api/robotariat/tables/<table_id>/action")
def api_table_action(table_id: str):
    req = api_parse(ActionIn)
    table = _table_or_404(table_id)
    players, names = _seats(table, None)
    outcome = _choice(req.action.get("do"), OUTCOMES)
    if outcome and req.version is None:
        raise bad_field("version", "give the table's version the answer was worked out for")
    try:
        saved, rb = apply_to_table(table, req.action, players, names, req.version)
    except InputError as e:
        raise _action_error(e) from None
    except TableChanged as c:
        newer = normalize(page_helpers.state_part(c.table, GAME), players, names)
        raise ApiError(409, "conflict", CHANGED[OUTCOMES[outcome]],
                       extra={"answer": answer(newer, req.page, c.table)}) from None
    return answer(rb, req.page, saved)


@bp.get("/api/robotariat/tables/<table_id>")
def api_table(table_id: str):
    """The table's `robotariat` value and a page's values; `?since=<version>`: only whether it changed."""
    table = _table_or_404(table_id)
    if request.args.get("since") == str(table.version):
        return {"version": table.version, "changed": False}
    players, names = _seats(table, None)
    page = _choice(request.args.get("page"), ANSWER_PAGES) or "play"
    return {**answer(normalize(page_helpers.state_part(table, GAME), players, names), page, table), "changed": True}


@bp.post("/api/robotariat/action")
def api_action():
    req = api_parse(CarriedActionIn)
    try:
        rb = apply_action(normalize(req.robotariat, req.players), req.action, req.players, [])
    except InputError as e:
        raise _action_error(e) from None
    return answer(rb, req.page)


# ---- routes -------------------------------------------------------------------------------------

@bp.route("/robotariat/", methods=["GET", "POST"])
def play():
    ctx, rb, status, error = _handle("play", PLAY_ACTIONS | set(OUTCOMES))
    turns = _int(request.values.get("k"), 1, 12, 3)
    heat = request.values.get("heat") if request.values.get("heat") in HEATS else "oppressor_reach"
    anchor = {"roll": "#npc", "enter": "#entry", "do_option": "#npc"}.get(request.form.get("do", ""), "#board")
    done = status == 200 and _redirect_after_save("robotariat.play", ctx, anchor)
    if done:
        return done
    fc = forecasts(rb, turns, heat)
    view = board_view(rb, heat=fc["heat"] if request.values.get("show_heat") == "1" else None)
    return render_template("robotariat/play.html", view=view, fc=fc, heats=HEATS, changed_text=CHANGED,
                           played=turn_played(rb), **_common(ctx, rb, error, "play")), status


def turn_played(rb: dict[str, Any]) -> bool:
    """The active player has done a suggested turn already (the NPC turn they conduct comes next)."""
    st, log = rb["state"], rb["log"]
    return bool(log) and log[-1]["turn"] == "player" and log[-1]["round"] == st["round"] \
        and log[-1]["player"] == st["active"]


def board_check(rb: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """The API's board check (validate_board_json), or the message of its 400."""
    if not rb["board"]["spaces"]:
        return {"ok": False, "errors": [{"path": "board.spaces", "message": "the board needs at least one space"}],
                "warnings": [], "summary": None, "rules": []}, None
    try:
        return rb_api.validate_board_json({"board": rb["board"]}), None
    except ApiError as e:
        return None, e.message


def problem_spaces(check: dict[str, Any] | None) -> set[str]:
    """Spaces a check complains about (a missing or wrong next space), to ring them on the drawing."""
    out = set()
    for p in (check or {}).get("errors", []):
        m = re.match(r"^board\.(?:yellow|blue)_next\.(.+)$", p.get("path", ""))
        if m:
            out.add(m.group(1))
    return out


@bp.route("/robotariat/board", methods=["GET", "POST"])
def editor():
    ctx, rb, status, error = _handle("editor", EDIT_ACTIONS)
    done = status == 200 and _redirect_after_save("robotariat.editor", ctx, "#editor")
    if done:
        return done
    common = _common(ctx, rb, error, "editor")
    ans = common["answer"]
    return render_template("robotariat/editor.html", view=ans["view"], validation=ans["check"],
                           validation_error=ans["check_error"], **common), status


@bp.route("/robotariat/data", methods=["GET", "POST"])
def game_data():
    ctx, rb, status, error = _handle("data", DATA_ACTIONS)
    done = status == 200 and _redirect_after_save("robotariat.game_data", ctx)
    if done:
        return done
    base = defaults()
    return render_template("robotariat/data.html", base=base, **_common(ctx, rb, error, "data")), status



def objectives_body(rb: dict[str, Any]) -> dict[str, Any]:
    """The objectives request: the table, its log of applied turns, the office track and the facts."""
    log = [{k: e[k] for k in ("round", "player", "turn", "junked", "office")} for e in rb["log"]]
    return api_body(rb, log=log, office_track=rb["office_track"], facts=rb["facts"])


@bp.route("/robotariat/objectives", methods=["GET", "POST"])
def objectives():
    ctx, rb, status, error = _handle("objectives", {"facts"})
    done = status == 200 and _redirect_after_save("robotariat.objectives", ctx)
    if done:
        return done
    common = _common(ctx, rb, error, "objectives")
    junked = max(junked_per_turn([(e["round"], e["player"], e["turn"], e["junked"], e["office"]) for e in rb["log"]])
                 or [0])
    return render_template("robotariat/objectives.html", objectives=OBJECTIVES, objective_names=OBJECTIVE_NAMES,
                           result=common["answer"]["objectives"], result_error=common["answer"]["objectives_error"],
                           most_junked=junked, **common), status


@bp.route("/robotariat/board.json", methods=["GET", "POST"])
def export_board():
    """The board as a file to keep or share: {"board": ..., "layout": ...} (import takes it back)."""
    ctx = page_helpers.table_context(GAME)
    table = ctx["table"]
    carried = None if table is not None else _carried_state()
    players, names = _seats(table, carried)
    rb = normalize(page_helpers.state_part(table, GAME) if table is not None else carried, players, names)
    body = json.dumps({"game": GAME, "board": rb["board"], "layout": rb["layout"]}, indent=1, ensure_ascii=False)
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": 'attachment; filename="robotariat-board.json"'})
