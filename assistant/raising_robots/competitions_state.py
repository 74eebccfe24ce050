"""What the Raising Robots competitions pages keep with a table, and the table's round.

rr_competitions: {"cards": {type: criterion|None}, "sides": {type: "A"|"B"}, "tiles": {type: {"token_type",
  "A": {"resources", "batteries"}, "B": {...}}} (only values that differ from the data file), "card_values":
  {criterion: [ints]} (likewise), "values": {key: "n/d"}, "duct_tape_pays_resources": bool, "players": n,
  "tracker": [{"round", "token_type"}], "completed_this_round": [types], "completed_round": round}
The round is the table's own (state.table.round, which the table page edits); an older table may still
hold rr_competitions.marker, which the first save moves there.
"""
from __future__ import annotations

from typing import Any

from solvers.raising_robots import competitions_setup as setup
from solvers.raising_robots.competitions import COMP_NAMES, COMP_TYPES, CRITERIA, VALUE_KEYS
from solvers.raising_robots.competitions_data import GAME_DATA
from solvers.raising_robots.model import TOKEN_TYPES

from ..web.context import as_dict, as_list
from .forms import whole as _int

STATE_KEY = "rr_competitions"
TOKEN_LABELS = {"pink": "Pink (Efficiency)", "orange": "Orange", "blue": "Blue", "green": "Green"}


def default_tile(t: str) -> dict:
    tile = GAME_DATA.tiles[t]
    return {"token_type": tile.token_type.value,
            **{s: {"resources": tile.sides[s].resources.value, "batteries": tile.sides[s].batteries.value}
               for s in ("A", "B")}}


def clean_comp_state(raw: Any) -> dict:
    """The stored rr_competitions made safe to read (a table may hold anything)."""
    raw = as_dict(raw)
    cards, sides, tiles_in = as_dict(raw.get("cards")), as_dict(raw.get("sides")), as_dict(raw.get("tiles"))
    tiles = {}
    for t in COMP_TYPES:
        d, given = default_tile(t), as_dict(tiles_in.get(t))
        tile = {"token_type": given.get("token_type") if given.get("token_type") in TOKEN_TYPES else d["token_type"]}
        for s in ("A", "B"):
            gs = as_dict(given.get(s))
            tile[s] = {k: _int(gs.get(k), 1, 30, d[s][k]) for k in ("resources", "batteries")}
        tiles[t] = tile
    card_values = {}
    cv = as_dict(raw.get("card_values"))
    for cid, card in GAME_DATA.cards.items():
        if card.values is not None:
            given = as_list(cv.get(cid))
            ok = 1 <= len(given) <= 7 and all(_int(v, 0, 20, -1) >= 0 for v in given)
            card_values[cid] = list(given) if ok else list(card.values.value)
    values = as_dict(raw.get("values"))
    tracker = [s for s in as_list(raw.get("tracker")) if isinstance(s, dict) and _int(s.get("round"), 1, 8, 0)
               and s.get("token_type") in TOKEN_TYPES][:4]
    done = as_list(raw.get("completed_this_round"))
    return {
        **{k: v for k, v in raw.items() if k != "marker"},  # the round lives on the table (with_round)
        "cards": {t: cards.get(t) if isinstance(cards.get(t), str) and CRITERIA.get(cards.get(t)) == t else None
                  for t in COMP_TYPES},
        "sides": {t: sides.get(t) if sides.get(t) in ("A", "B") else "A" for t in COMP_TYPES},
        "tiles": tiles, "card_values": card_values,
        "values": {k: str(v) for k, v in values.items()
                   if k in VALUE_KEYS and isinstance(v, (str, int)) and not isinstance(v, bool)},
        "duct_tape_pays_resources": raw.get("duct_tape_pays_resources") is True,
        "players": _int(raw.get("players"), 1, 6, 0), "tracker": tracker,
        "completed_this_round": [t for t in COMP_TYPES if t in done],
        "completed_round": _int(raw.get("completed_round"), 1, MAX_TABLE_ROUND, 0) or None,
    }


ROUNDS = 8  # a game lasts 8 rounds (facts/raising_robots.md); the table page allows up to 99
MAX_TABLE_ROUND = 99


def legacy_marker(state: dict) -> int | None:
    return _int(as_dict(state.get(STATE_KEY)).get("marker"), 1, ROUNDS, 0) or None


def current_round(state: dict) -> int:
    """The table's round (state.table.round). A round marker this page kept before tables had a round
    counts when it is further on, until `with_round` moves it to the table."""
    shared = as_dict(state.get("table"))
    rnd = _int(shared.get("round"), 1, MAX_TABLE_ROUND, 0)
    marker = legacy_marker(state)
    return max(rnd, marker or 0) or 1


def with_round(state: dict, round_to: int | None = None) -> dict:
    """The state with the round on the table (the legacy marker migrated and dropped), set to `round_to`
    when given. Only `table.round` of the lead's `table` key is touched."""
    cs = state.get(STATE_KEY)
    if round_to is None and not (isinstance(cs, dict) and "marker" in cs):
        return state
    rnd = round_to if round_to is not None else current_round(state)
    out = dict(state)
    out["table"] = {**as_dict(state.get("table")), "round": rnd}
    if isinstance(cs, dict) and "marker" in cs:
        out[STATE_KEY] = {k: v for k, v in cs.items() if k != "marker"}
    return out


def catch_up(cs: dict, rnd: int) -> tuple[dict, list[dict]]:
    """Tile flips the round has passed without this helper: tracker tokens on rounds the table's round
    has reached (solo / 2P), and competitions completed in an earlier round (their tiles turn over at
    that round's end). Returns the competitions state after them and what turned over."""
    done_round = cs.get("completed_round") or rnd
    completed = cs["completed_this_round"] if done_round < rnd else []
    due = [s["round"] for s in cs["tracker"] if s["round"] <= rnd] + ([done_round + 1] if completed else [])
    if not due:
        return cs, []
    sides = dict(cs["sides"])
    spots = [setup.Spot(s["round"], s["token_type"], setup.tile_of(s["token_type"])) for s in cs["tracker"]]
    events: list[dict] = []
    for r in range(min(due), rnd + 1):
        out = setup.end_of_round(r, sides, spots, completed if r == done_round + 1 else ())
        sides, spots = out.sides, out.tracker
        events += [{"type": t, "name": COMP_NAMES[t], "flipped": f, "why": why} for t, f, why in out.events]
    cs = {**cs, "sides": sides, "tracker": [{"round": sp.round, "token_type": sp.token_type} for sp in spots]}
    if completed:
        cs.update(completed_this_round=[], completed_round=None)
    return cs, events


def stored(cs: dict) -> dict:
    """What the table keeps: tile numbers and card values only where they differ from the data file."""
    out = {**cs, "tiles": {}, "card_values": {}}
    for t in COMP_TYPES:
        d, tile = default_tile(t), cs["tiles"][t]
        diff = {"token_type": tile["token_type"]} if tile["token_type"] != d["token_type"] else {}
        for s in ("A", "B"):
            sd = {k: v for k, v in tile[s].items() if v != d[s][k]}
            if sd:
                diff[s] = sd
        if diff:
            out["tiles"][t] = diff
    for cid, vals in cs["card_values"].items():
        if vals != list(GAME_DATA.cards[cid].values.value):
            out["card_values"][cid] = vals
    return out


def catch_up_change(state: dict) -> dict:
    """The change a page load makes when the table's round moved on without this helper (or the round still
    sits in the legacy marker): worked out on the newest state, so it is right whoever saved in between."""
    cs, _ = catch_up(clean_comp_state(state.get(STATE_KEY)), current_round(state))
    state = with_round(state)
    state[STATE_KEY] = stored(cs)
    return state


def round_events(table, cs: dict) -> tuple[dict, list[dict], int]:
    """The competitions state caught up with the table's round (tile flips it passed), the flips, the round."""
    if table is None:
        return cs, [], 1
    rnd = current_round(table.state)
    cs, events = catch_up(cs, rnd)
    return cs, events, rnd
