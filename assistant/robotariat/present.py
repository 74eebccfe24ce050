"""How the Robotariat pages draw the table: the board's grid layout and SVG geometry, and labels.

Views and templates call these; nothing here decides a rule.
"""
from __future__ import annotations

import math
from typing import Any

from solvers.robotariat import gamedata
from solvers.robotariat.board import KIND_NAMES, MAX_SPACES

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

# Where a table keeps each space: a cell of a 3-column grid, stored as the cell's centre in these layout
# units (the editor posts them back as they are). How a cell is drawn is the drawing's own (below).
BOX_W, BOX_H = 96, 72
GRID_X, GRID_Y = 126, 116
MARGIN = 6
COLUMNS = 3


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
    hinted = [s for s in todo if s.get("x") is not None and s.get("y") is not None]
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


def normalize_layout(raw: Any, board: Any) -> dict[str, list[float]]:
    """The table's own placement of each space (grid cells, SVG units); the rest placed by auto_layout.
    `board`: the schemas.Board model or its JSON form."""
    board = board if isinstance(board, dict) else board.model_dump()
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


def move_space(layout: dict[str, list[float]], sid: str, x: float, y: float) -> dict[str, list[float]]:
    """The editor's move: the space goes to the tapped cell; a space already in that cell swaps with it."""
    layout = {k: list(v) for k, v in layout.items()}
    target = _cell_of([x, y])
    for other, xy in layout.items():
        if other != sid and _cell_of(xy) == target and sid in layout:
            layout[other] = layout[sid]
    layout[sid] = [x, y]
    return layout


def free_slots(layout: dict[str, list[float]]) -> list[dict[str, Any]]:
    """Empty grid cells where the editor offers to add or move a space: in the board's rows and one more.
    `x`, `y`: the cell in layout units (what the editor posts)."""
    used = {_cell_of(xy) for xy in layout.values()}
    rows = max((r + 1 for _, r in used), default=0)
    out = []
    for row in range(rows + 1):
        for col in range(COLUMNS):
            if (col, row) not in used:
                x, y = _cell_xy(col, row)
                out.append({"col": col, "row": row, "x": x, "y": y})
    return out


# ---- the drawing (SVG viewBox units) ------------------------------------------------------------------
# Sized for a 320 px phone, where the 376-unit board is drawn 286 px wide (0.76 px a unit): every piece
# fills at least 33 x 33 units, 25 px there, 30 px on a 390 px phone. A space holds three pieces a row,
# as many rows as its fullest space needs (at least two), so no piece or player chip is ever cut off.
DRAW_W, GAP_X, GAP_Y, EDGE = 112, 16, 30, 4
BAND = 20  # the coloured band with the space's name
PIECE, PIECE_GAP, PER_ROW = 34, 3, 3
HEAT_H = 16  # the strip under the pieces that holds the look-ahead's percentage
ARROW_OFFSET = 7
SAME_WAY_EXTRA = 9  # yellow and blue both going A -> B: draw the blue arrow further out
# piece kind -> (shape, letter): shapes and letters as well as colours tell the pieces apart
PIECES = {"oppressor": ("square", "O"), "civilian": ("circle", "C"), "poster": ("poster", "P"),
          "entry": ("triangle", "E")}


def _box_h(rows: int, heat: bool) -> float:
    return BAND + PIECE_GAP + rows * (PIECE + PIECE_GAP) + (HEAT_H if heat else 0)


def _left_top(col: int, row: int, h: float) -> tuple[float, float]:
    return EDGE + col * (DRAW_W + GAP_X), EDGE + row * (h + GAP_Y)


def _clip(a: tuple[float, float], b: tuple[float, float], hw: float, hh: float
          ) -> tuple[float, float, float, float] | None:
    """The part of the segment between two box centres that lies outside both boxes."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    if abs(dx) < 1e-9 and abs(dy) < 1e-9:
        return None
    t = min(hw / abs(dx) if dx else math.inf, hh / abs(dy) if dy else math.inf)
    if t >= 0.5:
        return None  # the boxes overlap
    return (ax + dx * t, ay + dy * t, bx - dx * t, by - dy * t)


def _arrow(seg: tuple[float, float, float, float], offset: float) -> dict[str, float] | None:
    x1, y1, x2, y2 = seg
    length = math.hypot(x2 - x1, y2 - y1)
    if length < 1:
        return None
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    nx, ny = uy, -ux  # left of the direction of travel (SVG y points down)
    shrink = min(4.0, length / 4)
    return {"x1": round(x1 + ux * shrink + nx * offset, 1), "y1": round(y1 + uy * shrink + ny * offset, 1),
            "x2": round(x2 - ux * shrink + nx * offset, 1), "y2": round(y2 - uy * shrink + ny * offset, 1)}


def _pieces(sid: str, st: dict[str, Any]) -> list[dict[str, Any]]:
    """What stands on a space, in the order it is drawn: each NPC, the posters (one piece with their
    count), the Entry token, then the players by seat."""
    out: list[dict[str, Any]] = []
    for key, kind, word in (("oppressors", "oppressor", "Human Oppressor"), ("civilians", "civilian", "Civilian Robot")):
        out += [{"kind": kind, "text": PIECES[kind][1], "title": word}] * st[key].count(sid)
    n = st["posters"].get(sid, 0)
    if n:
        out.append({"kind": "poster", "text": "P" if n == 1 else f"P{n}",
                    "title": f"{n} poster{'s' if n > 1 else ''}"})
    if st["entry"] == sid:
        out.append({"kind": "entry", "text": "E", "title": "NPC Entry token"})
    for i, p in enumerate(st["players"]):
        if p["at"] == sid:
            out.append({"kind": "player", "text": str(i + 1), "title": f"{i + 1}. {p['name']}",
                        "active": i == st["active"]})
    return out


def board_view(rb: dict[str, Any], heat: dict[str, float] | None = None, problems: set[str] | None = None,
               slots: bool = False, picked: str | None = None) -> dict[str, Any]:
    """Everything the SVG template draws: boxes, black lines, path arrows, pieces, heat; with `slots`,
    the empty cells the editor offers (a box of dashes, and the cell it posts); `picked`: the space ringed
    (the guided entry's)."""
    board, layout, st = rb["board"], rb["layout"], rb["state"]
    problems = problems or set()
    cells = {s["id"]: _cell_of(layout[s["id"]]) for s in board["spaces"]}
    on = {s["id"]: _pieces(s["id"], st) for s in board["spaces"]}
    rows = max([2] + [math.ceil(len(p) / PER_ROW) for p in on.values()])
    h = _box_h(rows, heat is not None)
    centre = {sid: (left + DRAW_W / 2, top + h / 2) for sid, (left, top) in
              ((sid, _left_top(*cell, h)) for sid, cell in cells.items())}
    spaces = []
    for s in board["spaces"]:
        sid = s["id"]
        left, top = _left_top(*cells[sid], h)
        pieces = []
        for i, p in enumerate(on[sid]):
            row, col = divmod(i, PER_ROW)
            in_row = min(PER_ROW, len(on[sid]) - row * PER_ROW)
            x = DRAW_W / 2 - (in_row * PIECE + (in_row - 1) * PIECE_GAP) / 2 + col * (PIECE + PIECE_GAP)
            pieces.append({**p, "x": round(x, 1), "y": BAND + PIECE_GAP + row * (PIECE + PIECE_GAP)})
        title = KINDS[s["kind"]]["label"] + (f" “{s['name']}”" if s["name"] != KINDS[s["kind"]]["label"] else "")
        spaces.append({**s, "left": left, "top": top, "cell_x": layout[sid][0], "cell_y": layout[sid][1], "cx": round(left + DRAW_W / 2, 1), "cy": round(top + h / 2, 1),
                       "label": s["name"], "title": title, "pieces": pieces,
                       "heat": (heat or {}).get(sid) if heat is not None else None, "problem": sid in problems,
                       "picked": sid == picked,
                       "aria": _space_aria(s, title, st)})
    links = []
    for a, b in board["links"]:
        seg = _clip(centre[a], centre[b], DRAW_W / 2, h / 2)
        if seg:
            links.append(dict(zip(("x1", "y1", "x2", "y2"), (round(v, 1) for v in seg))))
    linked = {tuple(sorted(ln)) for ln in board["links"]}
    arrows = []
    for colour in ("yellow", "blue"):
        for a, b in board[f"{colour}_next"].items():
            offset = ARROW_OFFSET + (SAME_WAY_EXTRA if colour == "blue" and board["yellow_next"].get(a) == b else 0)
            seg = _clip(centre[a], centre[b], DRAW_W / 2, h / 2)
            arrow = _arrow(seg, offset) if seg else None
            if arrow:
                arrows.append({**arrow, "colour": colour, "linked": tuple(sorted((a, b))) in linked})
    free = []
    if slots:
        for c in free_slots(layout):
            left, top = _left_top(c["col"], c["row"], h)
            free.append({**c, "left": left, "top": top})
    last_row = max([r for _, r in cells.values()] + [c["row"] for c in free] + [0])
    return {"spaces": spaces, "links": links, "arrows": arrows, "slots": free, "box_w": DRAW_W, "box_h": h,
            "band": BAND, "piece": PIECE, "width": 2 * EDGE + COLUMNS * DRAW_W + (COLUMNS - 1) * GAP_X,
            "height": round(2 * EDGE + (last_row + 1) * h + last_row * GAP_Y)}


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




def _p(x: dict) -> float:
    return float(x["approx"])


def option_line(expected: dict) -> str:
    """A suggested turn's expected outcome in a few words (no scores): SPARK, fines, Reputation, the end."""
    bits = []
    funds = _p(expected["funds_delta"])
    bits.append(f"{funds:+.1f} SPARK" if abs(funds) >= 0.05 else "no SPARK change")
    for key, word in (("p_fine", "a fine"), ("p_reputation_loss", "Reputation lost"),
                      ("p_success", "the Revolution succeeds"), ("p_failure", "it fails")):
        p = _p(expected[key])
        if p:
            bits.append(f"{word} {p:.0%}" if p >= 0.1 else f"{word} {p:.1%}")
    future = _p(expected.get("future_donations", {"approx": 0}))
    if future >= 0.05:
        bits.append(f"then about {future:.1f} SPARK from posters and the office")
    return ", ".join(bits)


# ---- cards and their effects -----------------------------------------------------------------------------

EFFECT_KINDS = {"move": "moves a piece", "roll": "sets a die", "fine": "takes SPARK", "donation": "gives SPARK",
                "reputation": "changes Reputation", "other": "something else (named, not counted)"}
EFFECT_WHEN = {"this_turn": "at the start of the turn", "next_npc_turn": "as the NPC turn starts",
               "round_start": "at the next round start"}


def _solver_board(rb: dict[str, Any]) -> Any:
    from solvers.robotariat.board import Board, BoardError

    try:
        return Board.from_json(rb["board"])
    except (BoardError, KeyError, TypeError, ValueError):
        return None


def effect_words(rb: dict[str, Any], effect: dict[str, Any] | None, board: Any = None) -> str:
    """A card's effect in a few words, as card_effects.describe says it ("" when none was entered)."""
    from solvers.robotariat.card_effects import describe

    from .schemas import CardEffect

    if not effect:
        return ""
    board = board or _solver_board(rb)
    try:
        e = CardEffect.model_validate(effect)
    except ValueError:
        return ""
    if board is None or (e.to is not None and e.to not in board.index):
        return EFFECT_KINDS[e.kind]
    names = tuple(p["name"] for p in rb["state"]["players"])
    return describe(board, e.to_solver(board.index[e.to] if e.to is not None else None), names)


def cards_view(rb: dict[str, Any]) -> list[dict[str, Any]]:
    """Each card of the table's list with its effect in words and whether the answers count it."""
    board = _solver_board(rb)
    out = []
    for i, c in enumerate(rb["cards"]):
        e = c.get("effect")
        if c["done"]:
            status = "face down: its effect is over"
        elif not e:
            status = "effect not entered: named under the answers as not taken into account"
        elif e["kind"] == "other":
            status = "not counted: named under the answers"
        elif c["deck"] == "sabotage" and not c["played"]:
            status = "counted once it is played"
        else:
            status = "counted once, then face down" if c["deck"] == "sabotage" else "counted every time (lasting)"
        players = rb["state"]["players"]
        out.append({"i": i, "who": players[c["seat"]]["name"] if c["seat"] < len(players) else f"Player {c['seat'] + 1}",
                    "deck": "Upgrade" if c["deck"] == "upgrade" else "Sabotage", "name": c["name"],
                    "played": c["played"], "done": c["done"], "setup": c["setup"], "effect": e or {},
                    "words": effect_words(rb, e, board), "status": status,
                    "can_turn_down": c["deck"] == "sabotage" and c["played"] and bool(e) and not c["done"]})
    return out


def effect_form(rb: dict[str, Any]) -> dict[str, Any]:
    """The choices of the effect fields: kinds, moments, pieces, spaces, dice faces."""
    return {"kinds": EFFECT_KINDS, "when": EFFECT_WHEN, "faces": FACES,
            "spaces": [(s["id"], s["name"]) for s in rb["board"]["spaces"]],
            "pieces": {"oppressor": "Oppressor", "civilian": "Civilian", "player": "Player",
                       "entry": "NPC Entry token"}}
