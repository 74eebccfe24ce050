"""The Raising Robots table actions as a pure reducer: each takes the game's part of a table state (the
JSON object kept under `state["raising_robots"]`) and returns a new one; the input is never changed.

- `apply_plan`: a seat carries out a competitions plan (How to Complete Competitions, steps 2 to 4).
- `keep_friendship`: a Friendship card kept, at most 2 held (Friendships: "IMPORTANT").
- `spend_batteries`: batteries a seat spends on a phase leave its inventory (Total Energy, player aid).
- `catch_up` / `end_round`: the tiles that turn at a round's end (How to Complete Competitions, step 5,
  and Solo / 2P Gameplay Changes: the round marker reaching a spare upgrade token).

No Flask, no pydantic: the app validates the part with its model before and after."""
from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from .abilities import ability_id
from .competitions import COMP_NAMES, COMP_TYPES, FRIENDSHIP_CAP
from .competitions_setup import Spot, end_of_round, tile_of
from .energy import PHASE_NAMES, PHASES

Part = dict[str, Any]


@dataclass(frozen=True)
class Done:
    """A reducer's answer: the new part, the table's round after it, and the tile flips made (type,
    turned now, why), in the order they happened."""
    part: Part
    round: int
    events: list[dict] = field(default_factory=list)


def _copy(part: Part) -> Part:
    return copy.deepcopy(part)


# ---- Friendship cards -------------------------------------------------------------------------------

def friendships_held(seat: Mapping[str, Any]) -> int:
    names = [n for n in seat.get("friendships") or [] if n]
    return max(int(seat.get("friendship_count") or 0), len(names))


def named(names: Sequence[str], name: str) -> bool:
    """Whether `name` is among `names` as the abilities read names ("Yo-Yo" is "yo yo")."""
    return ability_id(name) in {ability_id(n) for n in names if n}


def _keep(seat: Part, name: str) -> None:
    """In place: `name` in the first free place and one more card held; a third card is refused
    (Friendships, IMPORTANT: at most 2 Friendship cards, a competition still gives its VP)."""
    held = friendships_held(seat)
    if held >= FRIENDSHIP_CAP:
        raise InputError("friendships", f"already {FRIENDSHIP_CAP} Friendship cards: a third cannot be kept")
    names = [*(seat.get("friendships") or []), *[""] * FRIENDSHIP_CAP][:FRIENDSHIP_CAP]
    names[names.index("")] = name.strip()
    seat["friendships"] = names
    seat["friendship_count"] = held + 1


def keep_friendship(part: Part, seat: int, name: str) -> Part:
    """Seat `seat` keeps the Friendship card `name`."""
    out = _copy(part)
    _keep(out["seats"][seat], name)
    return out


# ---- competitions ------------------------------------------------------------------------------------

def _completed_now(comps: Part, types: Sequence[str], rnd: int) -> None:
    done = set(comps.get("completed_this_round") or []) | set(types)
    comps["completed_this_round"] = [t for t in COMP_TYPES if t in done]
    comps["completed_round"] = rnd


def apply_plan(part: Part, seat: int, after: Mapping[str, Any], steps: Sequence[str], rnd: int,
               kept: str | None = None) -> Part:
    """Seat `seat` carried out a plan (up to a step) in round `rnd`: `after` is what the last step left
    (its `inventory`, `tokens`, `friendships` held and `completed` types), `steps` the competitions it
    completed, in order; `kept` the Friendship card kept on the way (its name), counted in `after`; a card
    the seat names already is that card recorded first elsewhere, and is neither named nor counted twice.
    Their tiles turn at the end of this round (How to Complete Competitions, step 5)."""
    out = _copy(part)
    s = out["seats"][seat]
    s["inventory"] = dict(after["inventory"])
    s["tokens"] = copy.deepcopy(after["tokens"])
    held = min(FRIENDSHIP_CAP, int(after["friendships"]))
    s["friendship_count"] = held - 1 if kept else held
    if kept:
        names = [n for n in s.get("friendships") or [] if n][:held - 1]
        if named(names, kept):  # recorded already (kept on the Friendship page first): the same card, once
            s["friendships"] = [*names, *[""] * FRIENDSHIP_CAP][:FRIENDSHIP_CAP]
        else:
            s["friendships"] = names
            _keep(s, kept)
    s["completed"] = {t: t in after["completed"] for t in COMP_TYPES}
    s["competitions_completed"] = None  # a count typed on the score page is out of date
    _completed_now(out["competitions"], steps, rnd)
    return out


# ---- batteries ------------------------------------------------------------------------------------------

def spend_batteries(part: Part, seat: int, rnd: int, phase: str, total: int) -> Part:
    """Seat `seat`'s spending on `phase` in round `rnd` comes to `total` batteries: what it has not spent on
    that phase yet leaves its inventory (kept in `prep.spent`, so a second tap or a second phone takes
    nothing more). Total Energy (player aid, Round Phases): +1 per battery spent, the total fixed when the
    phase starts; so only the batteries held then pay, a battery gained in an earlier phase of the round
    among them once it is in the inventory, one gained during this phase only for a later one."""
    if phase not in PHASES:
        raise InputError("phase", f"one of {', '.join(PHASES)}")
    out = _copy(part)
    s = out["seats"][seat]
    prep = s.get("prep") or {}
    if prep.get("round") != rnd:
        raise InputError("round", f"this seat's Round Preparation is not for round {rnd}: enter its cards first")
    spent = dict(prep.get("spent") or {})
    had = int(spent.get(phase) or 0)
    more = total - had
    if more < 0:
        # paid when the phase started and back in the supply (the total is fixed then): lowering the
        # number afterwards gives nothing back; the table's Undo does
        raise InputError(f"batteries.{phase}", f"{had} already spent; undo to get them back")
    if more == 0:
        return out
    inventory = s.setdefault("inventory", {})
    held = int(inventory.get("battery") or 0)
    if more > held:
        name = PHASE_NAMES[phase]
        raise InputError(f"batteries.{phase}", (
            f"{more} {'battery' if more == 1 else 'batteries'} to spend on {name}, {held} in the inventory: only "
            f"the batteries held when {name} starts pay for it (one gained in an earlier phase counts once it is "
            f"in the inventory; one gained during {name} only in a later phase)"))
    inventory["battery"] = held - more
    spent[phase] = total
    prep["spent"] = spent
    s["prep"] = prep
    return out


# ---- the round's end -----------------------------------------------------------------------------------

def _spots(comps: Mapping[str, Any]) -> list[Spot]:
    return [Spot(s["round"], s["token_type"], tile_of(s["token_type"])) for s in comps.get("tracker") or []]


def _events(raw: list[tuple[str, bool, str]]) -> list[dict]:
    return [{"type": t, "name": COMP_NAMES[t], "flipped": f, "why": why} for t, f, why in raw]


def end_round(part: Part, rnd: int) -> Done:
    """Round `rnd` ends: the tiles of the competitions completed in it turn to B, the round marker moves
    to `rnd + 1` and (solo, 2 players) turns the tile of a spare token on that space."""
    out = _copy(part)
    comps = out["competitions"]
    spots = _spots(comps)
    if len({s.token_type for s in spots}) != len(spots):
        raise InputError("tracker", "each upgrade type appears on the round tracker at most once")
    done = end_of_round(rnd + 1, comps.get("sides") or {}, spots, comps.get("completed_this_round") or [])
    comps.update(sides=done.sides, completed_this_round=[], completed_round=None,
                 tracker=[{"round": s.round, "token_type": s.token_type} for s in done.tracker])
    return Done(out, rnd + 1, _events(done.events))


def catch_up(part: Part, rnd: int) -> Done:
    """The tile flips the table's round `rnd` has passed and that are not made yet: tracker tokens on
    rounds up to `rnd`, and competitions completed in an earlier round (a table whose round moved on
    from the table page, not from a round end here)."""
    out = _copy(part)
    comps = out["competitions"]
    done_round = comps.get("completed_round") or rnd
    completed = (comps.get("completed_this_round") or []) if done_round < rnd else []
    tracker = comps.get("tracker") or []
    due = [s["round"] for s in tracker if s["round"] <= rnd] + ([done_round + 1] if completed else [])
    if not due:
        return Done(out, rnd)
    sides, spots, events = comps.get("sides") or {}, _spots(comps), []
    for r in range(min(due), rnd + 1):
        step = end_of_round(r, sides, spots, completed if r == done_round + 1 else ())
        sides, spots = step.sides, step.tracker
        events += _events(step.events)
    comps.update(sides=sides, tracker=[{"round": s.round, "token_type": s.token_type} for s in spots])
    if completed:
        comps.update(completed_this_round=[], completed_round=None)
    return Done(out, rnd, events)
