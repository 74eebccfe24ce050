"""Stored-state formats: every table state carries the number of the format it was written in
(`state["format"]`), and this module alone brings an older state up to date when it is read, so that the
game models hold no code for the shapes of earlier rounds. It also keeps each seat's secrets out of the
public state: what the game keeps secret is split off here into the seat's private state, on every read
and every write, whatever the state's age.

Formats:
- 1 (no `format` key): what Tablebot wrote up to round 2. Raising Robots may keep its part under the
  older `rr_*` keys, robots with a Game End icon as an object; Two Robots keeps each seat's hand, its
  half-entered draw and its recent energies in the public state, and an older table per-seat unseen
  counts (`players[i].unseen`) instead of the table's deck.
- 2: each game under its one key (`raising_robots`, `robotariat`, `two_robots`); Two Robots hands, draws
  and recent energies live in each seat's private state and the public state keeps `hand_count`. A
  Robotariat seat's private state holds Electric Eye's peek and A1-5's setup card; a setup card found in
  the public card list (an older table's) is split off into A1-5's private state when read, dropped when
  written, unless it is marked `shown` (A1-5 showed it to the table).

Pure functions on JSON values: no database, no Flask.
"""
from __future__ import annotations

import copy
import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

CURRENT = 2

# what a Two Robots seat keeps on its holder's phone only (Clarifications: only how many cards a hand
# holds is public)
TWO_ROBOTS_PRIVATE = ("hand", "drawn", "recent")


@dataclass
class Upgraded:
    state: dict[str, Any]
    # the private state each seat had in the public state of a format-1 table (seat -> private state)
    privates: dict[int, dict[str, Any]] = field(default_factory=dict)
    was: int = CURRENT


def format_of(state: Any) -> int:
    v = state.get("format") if isinstance(state, dict) else None
    return v if isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= CURRENT else 1


def upgrade(game: str, raw: Any, stored: bool = True) -> Upgraded:
    """`raw` (a stored state of a table of `game`) in the current format, its secrets split off. For a
    state being written (`stored=False`) a secret found in it is only dropped: the public counts stay as
    the writer sent them, since no private state comes of it."""
    was = format_of(raw)
    if was == CURRENT and not _holds_private(game, raw):
        return Upgraded(raw, {}, was)  # the usual read: nothing to change, so nothing to copy
    state = copy.deepcopy(raw) if isinstance(raw, dict) else {}
    if was < 2:
        state = _to_2(game, state)
    state, privates = split_private(game, state, count=stored and was < 2)
    state["format"] = CURRENT
    return Upgraded(state, privates, was)


def _holds_private(game: str, state: dict[str, Any]) -> bool:
    if game == "robotariat":
        return bool(_setup_cards(state))
    if game != "two-robots":
        return False
    part = state.get("two_robots")
    players = part.get("players") if isinstance(part, dict) else None
    return isinstance(players, list) and any(
        isinstance(seat, dict) and any(k in seat for k in TWO_ROBOTS_PRIVATE) for seat in players)


def served(state: dict[str, Any]) -> dict[str, Any]:
    """The state as the API gives it: the format number is the store's business (a state sent back
    without it is read as the oldest format, which changes nothing in a current state)."""
    return {k: v for k, v in state.items() if k != "format"}


def split_private(game: str, state: dict[str, Any],
                  count: bool = False) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """The public state without any seat's secrets, and the secrets it held (seat -> private state).
    Applied to every state read and written, so a secret put in the public state by any client (an API
    PUT of an old shape) is never stored or served there."""
    privates: dict[int, dict[str, Any]] = {}
    if game == "robotariat":
        return _split_setup_cards(state)
    if game != "two-robots":
        return state, privates
    part = state.get("two_robots")
    players = part.get("players") if isinstance(part, dict) else None
    if not isinstance(players, list):
        return state, privates
    for i, seat in enumerate(players):
        if not isinstance(seat, dict) or not any(k in seat for k in TWO_ROBOTS_PRIVATE):
            continue
        secret = {k: seat.pop(k) for k in TWO_ROBOTS_PRIVATE if k in seat}
        held = [c for k in ("hand", "drawn") if isinstance(secret.get(k), list) for c in secret[k]]
        if count and held and not isinstance(seat.get("hand_count"), int):  # a round-2 hand: its size
            seat["hand_count"] = len(held)
        if held or secret.get("recent"):
            privates[i] = secret
    return state, privates


def _setup_cards(state: Any) -> list[int]:
    """Indices of A1-5's setup cards in a Robotariat state's public card list that A1-5 has not shown to
    the table."""
    part = state.get("robotariat") if isinstance(state, dict) else None
    cards = part.get("cards") if isinstance(part, dict) else None
    if not isinstance(cards, list):
        return []
    return [i for i, c in enumerate(cards)
            if isinstance(c, dict) and c.get("setup") is True and c.get("shown") is not True]


def _split_setup_cards(state: dict[str, Any]) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """A1-5's Upgrade card from setup lives in A1-5's private state (an older table kept it in public)."""
    found = _setup_cards(state)
    privates: dict[int, dict[str, Any]] = {}
    if not found:
        return state, privates
    cards = state["robotariat"]["cards"]
    for i in found:
        seat = cards[i].get("seat")
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < 5:
            privates[seat] = {"setup_card": cards[i]}
    state["robotariat"]["cards"] = [c for i, c in enumerate(cards) if i not in found]
    return state, privates


# ---- format 1 -> 2 ---------------------------------------------------------------------------------

def _to_2(game: str, state: dict[str, Any]) -> dict[str, Any]:
    if game == "raising-robots":
        if "raising_robots" not in state:
            part = _rr_from_old_keys(state)
            if part is not None:
                state["raising_robots"] = part
        for key in RR_OLD_KEYS:
            state.pop(key, None)
        _rr_game_end_icons(state.get("raising_robots"))
    elif game == "two-robots":
        part = state.get("two_robots")
        if isinstance(part, dict) and part.get("deck") is None and isinstance(part.get("players"), list):
            for seat in part["players"]:
                deck = _deck_from_unseen(seat) if isinstance(seat, dict) else None
                if deck is not None:
                    part["deck"] = deck
                    break
        if isinstance(part, dict) and isinstance(part.get("players"), list):
            for seat in part["players"]:
                if isinstance(seat, dict):
                    seat.pop("unseen", None)
    return state


RR_OLD_KEYS = ("rr_players", "rr_competitions", "rr_search", "rr_score", "rr_round_end")
_ROBOT_ID = re.compile(r"^[A-Za-z0-9_-]{1,24}$")
_RR_COMP_TYPES = ("robot_rally", "robot_wars", "science_fair", "think_tank")
_FRIENDSHIP_CAP = 3


def _d(v: Any) -> dict:
    return v if isinstance(v, dict) else {}


def _rr_from_old_keys(state: dict) -> dict | None:
    """A Raising Robots table saved before round 2's one model: its `rr_*` keys in that model's shape."""
    if not any(k in state for k in RR_OLD_KEYS):
        return None
    choices = _d(_d(state.get("rr_round_end")).get("seats"))
    players = state.get("rr_players") if isinstance(state.get("rr_players"), list) else []
    seats = [_rr_seat(s, choices.get(str(i))) for i, s in enumerate(players[:6])]
    comps = dict(_d(state.get("rr_competitions")))
    comps["completed_this_round"] = comps.get("completed_this_round") if isinstance(
        comps.get("completed_this_round"), list) else []
    return {"seats": seats, "competitions": comps, "search": state.get("rr_search"),
            "solo": _d(state.get("rr_score")).get("solo")}


def _rr_seat(raw: Any, choices: Any) -> Any:
    if not isinstance(raw, dict):
        return raw
    seat = dict(raw)
    names = raw.get("friendship_names")
    if isinstance(names, list):
        seat["friendships"] = [n for n in names if isinstance(n, str)][:_FRIENDSHIP_CAP]
    else:
        seat.pop("friendships", None)
    count = raw.get("friendships")
    if isinstance(count, int) and not isinstance(count, bool):
        seat["friendship_count"] = count
    done = raw.get("completed")
    seat["completed"] = {t: True for t in _RR_COMP_TYPES if isinstance(done, list) and t in done}
    if isinstance(raw.get("class_cards"), list):
        seat["class_cards"] = [_rr_card(c) for c in raw["class_cards"][:3]]
    if isinstance(raw.get("robots"), list):
        seat["robots"] = [_rr_robot(r) for r in raw["robots"]]
    if isinstance(choices, dict):
        seat["round_end"] = choices
    return seat


def _rr_content_id(robot: dict) -> str:
    # the id the round-1 pages gave a robot from its content (assistant.raising_robots.schemas.content_id)
    body = json.dumps({k: v for k, v in robot.items() if k != "id"}, sort_keys=True, default=str)
    return "c" + hashlib.sha1(body.encode()).hexdigest()[:8]


def _rr_robot(raw: Any) -> Any:
    if not isinstance(raw, dict):
        return raw
    robot = dict(raw)
    if not (isinstance(raw.get("id"), str) and _ROBOT_ID.match(raw["id"])):
        robot["id"] = _rr_content_id(raw)
    return robot


def _rr_card(raw: Any) -> Any:
    if isinstance(raw, dict) and raw.get("grade") is None and raw.get("thresholds"):
        return {**raw, "grade": "auto"}
    return raw


def _rr_game_end_icons(part: Any) -> None:
    """A robot's Game End icon kept as `{"kind", "resource", "action"}` becomes its code and action."""
    for seat in _d(part).get("seats") or []:
        for robot in _d(seat).get("robots") or []:
            icon = robot.get("game_end") if isinstance(robot, dict) else None
            if not isinstance(icon, dict):
                continue
            kind = icon.get("kind")
            robot["game_end"] = f"resource_pairs:{icon.get('resource')}" if kind == "resource_pairs" else (kind or "")
            if "game_end_action" not in robot:
                action = icon.get("action")
                robot["game_end_action"] = action if action in ("upgraded", "basic") else "upgraded"


_ENERGY_LETTER = {"chemical": "c", "electrical": "e", "mechanical": "m", "nuclear": "n", "solar": "s"}
_LETTER_ENERGY = {v: k for k, v in _ENERGY_LETTER.items()}
_DECK_ATTACK, _DECK_DEFENSE = 19, 21  # the defaults round 1 gave a seat's unseen Attack and Defense counts


def _count(v: Any, default: int) -> int | None:
    if v is None:
        return default
    return v if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 100 else None


def _deck_from_unseen(seat: dict) -> dict | None:
    """Round 1 kept unseen-card counts per seat; the first such seat's counts plus the cards it had in
    sight (its stacks and hand) are the table's deck."""
    grid = seat.get("unseen")
    if not isinstance(grid, dict):
        return None
    attack, defense = _count(grid.get("attack"), _DECK_ATTACK), _count(grid.get("defense"), _DECK_DEFENSE)
    parts_in = grid.get("parts", {})
    if attack is None or defense is None or not isinstance(parts_in, dict):
        return None
    seen: dict[str, int] = {}
    cards = [c for st in seat.get("stacks") or [] if isinstance(st, dict) for c in st.get("cards") or []]
    cards += [c for c in seat.get("hand") or [] if isinstance(c, dict)]
    for c in cards:
        if not isinstance(c, dict):
            continue
        if c.get("kind") == "attack":
            attack += 1
        elif c.get("kind") == "defense":
            defense += 1
        elif isinstance(c.get("part"), str) and isinstance(c.get("energies"), list) and \
                all(e in _ENERGY_LETTER for e in c["energies"]):
            code = "".join(_ENERGY_LETTER[e] for e in _ENERGY_LETTER if e in c["energies"])
            key = f"{c['part']}:{code}"
            seen[key] = seen.get(key, 0) + 1
    parts = []
    for key, n in parts_in.items():
        part, _, code = key.partition(":")
        if _count(n, 0) is None:
            return None
        if code and all(ch in _LETTER_ENERGY for ch in code):
            parts.append({"part": part, "energies": [_LETTER_ENERGY[ch] for ch in code], "count": n + seen.get(key, 0)})
    return {"parts": parts, "attack": attack, "defense": defense}
