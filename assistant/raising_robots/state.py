"""The Raising Robots table state: reading it, the table's round and the tile flips it passed, and the
changes the pages save (each a function of the newest state, for `web.save.save_change` /
`save_answer`). Every change goes through `changing`, which validates the part with the model."""
from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from solvers.raising_robots import table

from ..tables import store
from ..web import save
from .schemas import (
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
    """The competitions once the tile flips the table's round has passed are made (solvers' table.catch_up),
    and those flips in words."""
    done = table.catch_up({"competitions": comps.model_dump(mode="json")}, rnd)
    return (Competitions.model_validate(done.part["competitions"]) if done.events else comps), done.events


def prepare_for(seats: int, rnd: int) -> Callable[[Part], Part]:
    """`save_form`'s `prepare`: the seats exist up to the table's count (their fields have somewhere to
    go), and the tile flips the round passed are made (so a save keeps them, and a side shown turned is
    not taken for the player's change)."""
    def prepare(part: Part) -> Part:
        players = part.setdefault("seats", [])
        while len(players) < min(seats, MAX_SEATS):
            players.append(Seat().model_dump(mode="json"))
        part["competitions"] = table.catch_up(part, rnd).part["competitions"]
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


def apply_plan(i: int, after: dict, steps: list[str], kept: str | None = None, seats: int = 1) -> Mutate:
    """A plan carried out by seat `i` (up to a step): the reducer's `apply_plan` on the newest state."""
    def fn(part: Part, rnd: int) -> None:
        part.update(table.apply_plan(part, i, after, steps, rnd, kept))
    return changing(fn, max(seats, i + 1))


def spend_batteries(i: int, phase: str, total: int, seats: int = 1) -> Mutate:
    """Seat `i`'s batteries for `phase` taken off its inventory (the reducer's `spend_batteries`)."""
    def fn(part: Part, rnd: int) -> None:
        part.update(table.spend_batteries(part, i, rnd, phase, total))
    return changing(fn, max(seats, i + 1))


def end_round(outcome: dict) -> Mutate:
    """The end of the table's round (the reducer's `end_round`): the tiles the rules turn over, and the
    round marker moves on. `outcome` gets the flips and a note for the page."""
    def fn(part: Part, rnd: int) -> int:
        done = table.end_round(part, rnd)
        part.update(done.part)
        outcome["events"] = done.events
        outcome["note"] = f"Round {done.round} begins: the round marker moved." + (
            "" if done.events else " No tile turns over.")
        return done.round
    return changing(fn)
