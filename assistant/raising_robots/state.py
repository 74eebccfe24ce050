"""The Raising Robots table state: reading it, the table's round and the tile flips it passed, and the
changes the pages save (each a function of the newest state, for `web.save.save_change` /
`save_answer`). Every change goes through `changing`, which validates the part with the model."""
from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from solvers.raising_robots import competitions_setup as setup
from solvers.raising_robots.competitions import COMP_NAMES, COMP_TYPES

from ..tables import store
from ..web import save
from .schemas import (
    FRIENDSHIP_CAP,
    MAX_ROBOTS,
    MAX_SEATS,
    MAX_TABLE_ROUND,
    STATE_KEY,
    Competitions,
    RaisingRobotsState,
    Seat,
)

Part = dict[str, Any]
Mutate = Callable[[dict], dict]


def read(table: store.TableRecord | None) -> RaisingRobotsState:
    """The table's Raising Robots state (the defaults without a table): whatever was saved, it opens."""
    return save.read_state(table, RaisingRobotsState, STATE_KEY)


def new_id() -> str:
    return secrets.token_hex(4)


# ---- the round -------------------------------------------------------------------------------------

def _whole(v: Any, lo: int, hi: int) -> int:
    return v if isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi else 0


def table_round(state: Any, part: RaisingRobotsState) -> int:
    """The table's round (state.table.round, which the table page edits). A round marker this game kept
    before tables had a round counts when it is further on, until a save moves it to the table."""
    shared = state.get("table") if isinstance(state, dict) else None
    rnd = _whole(shared.get("round"), 1, MAX_TABLE_ROUND) if isinstance(shared, dict) else 0
    return max(rnd, part.competitions.marker or 0) or 1


def caught_up(comps: Competitions, rnd: int) -> tuple[Competitions, list[dict]]:
    """The competitions once the tile flips the round has passed are made: tracker tokens on rounds the
    table's round reached (solo / 2P), and competitions completed in an earlier round (their tiles turn
    at that round's end). Also the flips, in words."""
    done_round = comps.completed_round or rnd
    completed = comps.completed_this_round if done_round < rnd else []
    due = [s.round for s in comps.tracker if s.round <= rnd] + ([done_round + 1] if completed else [])
    if not due:
        return comps, []
    sides = comps.sides.model_dump()
    spots = [setup.Spot(s.round, s.token_type, setup.tile_of(s.token_type)) for s in comps.tracker]
    events: list[dict] = []
    for r in range(min(due), rnd + 1):
        out = setup.end_of_round(r, sides, spots, completed if r == done_round + 1 else ())
        sides, spots = out.sides, out.tracker
        events += [{"type": t, "name": COMP_NAMES[t], "flipped": f, "why": why} for t, f, why in out.events]
    update: dict[str, Any] = {"sides": comps.sides.model_validate(sides),
                              "tracker": [{"round": sp.round, "token_type": sp.token_type} for sp in spots]}
    if completed:
        update.update(completed_this_round=[], completed_round=None)
    return Competitions.model_validate({**comps.model_dump(), **update}), events


def prepare_for(seats: int, rnd: int) -> Callable[[Part], Part]:
    """`save_form`'s `prepare`: the seats exist up to the table's count (their fields have somewhere to
    go), and the tile flips the round passed are made (so a save keeps them, and a side shown turned is
    not taken for the player's change)."""
    def prepare(part: Part) -> Part:
        players = part.setdefault("seats", [])
        while len(players) < min(seats, MAX_SEATS):
            players.append(Seat().model_dump(mode="json"))
        comps, _ = caught_up(Competitions.model_validate(part.get("competitions") or {}), rnd)
        part["competitions"] = comps.model_dump(mode="json")
        return part
    return prepare


def changing(fn: Callable[[Part, int], Any], seats: int = 1) -> Mutate:
    """A change of the Raising Robots part (as JSON, read leniently, the seats there and the flips made),
    checked by the model before it is kept. `fn(part, round)`; a legacy round marker moves to the table."""
    def mutate(state: dict) -> dict:
        part = save.read_state_json(state, RaisingRobotsState, STATE_KEY)
        rnd = table_round(state, RaisingRobotsState.model_validate(part))
        prepare_for(seats, rnd)(part)
        new_round = fn(part, rnd)
        if part["competitions"].get("marker") is not None or new_round:
            state["table"] = {**(state.get("table") if isinstance(state.get("table"), dict) else {}),
                              "round": new_round or rnd}
            part["competitions"]["marker"] = None
        state[STATE_KEY] = RaisingRobotsState.model_validate(part).model_dump(mode="json")
        return state
    return mutate


def on_seat(i: int, fn: Callable[[Part], None], seats: int = 1) -> Mutate:
    """A change of seat `i` only."""
    return changing(lambda part, rnd: fn(part["seats"][i]), max(seats, i + 1))


# ---- the changes --------------------------------------------------------------------------------

def add_robot(i: int, robot: Part, seats: int = 1) -> Mutate:
    def fn(seat: Part) -> None:
        if len(seat["robots"]) < MAX_ROBOTS:
            seat["robots"].append({**robot, "id": robot.get("id") or new_id()})
    return on_seat(i, fn, seats)


def remove_robots(i: int, ids: list[str], seats: int = 1) -> Mutate:
    """Robots taken out by id (one another phone removed already is simply not there)."""
    def fn(seat: Part) -> None:
        seat["robots"] = [r for r in seat["robots"] if r["id"] not in ids]
    return on_seat(i, fn, seats)


def add_objective(i: int, text: str, seats: int = 1) -> Mutate:
    def fn(seat: Part) -> None:
        board = seat["scroll_board"]["objectives"]
        if len(board) < 16:
            board.append({"id": new_id(), "text": text[:80], "done": False})
    return on_seat(i, fn, seats)


def remove_objective(i: int, oid: str, seats: int = 1) -> Mutate:
    def fn(seat: Part) -> None:
        seat["scroll_board"]["objectives"] = [o for o in seat["scroll_board"]["objectives"] if o["id"] != oid]
    return on_seat(i, fn, seats)


def keep_friendship(seat: Part, name: str) -> None:
    """A kept Friendship card: its name in the first free place, and one more card held."""
    names = seat["friendships"]
    held = max(seat["friendship_count"], sum(1 for n in names if n))
    for k in range(FRIENDSHIP_CAP):
        if not names[k]:
            names[k] = name
            break
    seat["friendship_count"] = min(FRIENDSHIP_CAP, held + 1)


def completed_now(part: Part, types: list[str], rnd: int) -> None:
    """Competitions completed this round `rnd`: their tiles turn over at its end."""
    comps = part["competitions"]
    done = set(comps["completed_this_round"]) | set(types)
    comps["completed_this_round"] = [t for t in COMP_TYPES if t in done]
    comps["completed_round"] = rnd


def apply_plan(i: int, after: dict, steps: list[str], kept: str | None = None, seats: int = 1) -> Mutate:
    """A plan carried out by seat `i` (up to a step): what it left in the seat, the competitions it
    completed this round, and the Friendship card kept on the way (by name)."""
    def fn(part: Part, rnd: int) -> None:
        seat = part["seats"][i]
        seat["inventory"] = dict(after["inventory"])
        seat["tokens"] = after["tokens"]
        seat["friendship_count"] = min(FRIENDSHIP_CAP, after["friendships"])
        seat["completed"] = {t: t in after["completed"] for t in COMP_TYPES}
        seat["competitions_completed"] = None  # a count typed on the score page is out of date
        if kept:
            seat["friendship_count"] = max(0, seat["friendship_count"] - 1)
            keep_friendship(seat, kept)
        completed_now(part, steps, rnd)
    return changing(fn, max(seats, i + 1))
