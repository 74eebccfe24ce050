"""The solvers' results as the JSON the API answers and the pages render (plain dicts)."""
from __future__ import annotations

from collections.abc import Sequence

from .factory import (
    ApocalypseCheck,
    Factory,
    FactoryView,
    HandCard,
    HandView,
    Part,
    Placement,
)


def part_json(card: Part) -> dict:
    return {"part": card.part, "energies": list(card.energies)}


def hand_card_json(card: HandCard) -> dict:
    if card.kind == "part" and card.part is not None:
        return {"kind": "part", **part_json(card.part)}
    return {"kind": card.kind, "name": card.name, "stacks_required": card.stacks_required, "play": card.play}


def placement_json(p: Placement) -> dict:
    where: dict = {"stack": p.stack} if p.stack is not None else {"new_stack": p.energy}
    return {**where, "energy": p.energy, "possible": list(p.possible), "completes_robot": p.completes_robot,
            "duplicate": p.duplicate, "forces": [{"stack": k, "energy": e} for k, e in p.forces], "why": p.why}


def factory_json(factory: Factory, view: FactoryView) -> dict:
    stacks = []
    for s, v in zip(factory.stacks, view.stacks, strict=True):
        seen: set[str] = set()
        cards = []
        for c in s.cards:
            cards.append({**part_json(c), "duplicate": c.part in seen})
            seen.add(c.part)
        stacks.append({"index": v.index, "energy": v.energy, "locked": v.energy is not None,
                       "candidates": list(v.candidates), "possible": list(v.possible), "parts": list(v.parts),
                       "duplicates": list(v.duplicates), "missing": list(v.missing),
                       "active_robot": v.active_robot, "frozen": v.frozen, "deployable": v.deployable,
                       "cards": cards, "why": v.why})
    return {"stacks": stacks, "unique_stacks": view.unique_stacks, "active_robots": view.active_robots,
            "deployable_robots": view.deployable_robots, "won": view.won,
            "problems": [{"stacks": list(p.stacks), "message": p.message} for p in view.problems],
            "why": summary(view), "rules": list(view.rules)}


def summary(view: FactoryView) -> str:
    if view.problems:
        return view.problems[0].message
    n, r = view.unique_stacks, view.active_robots
    text = f"{n} unique stack{'s' if n != 1 else ''}, {r} active robot{'s' if r != 1 else ''}"
    if view.won:
        return text + ": two robots built, you win."
    frozen_robots = r - view.deployable_robots
    if frozen_robots:
        text += f" ({frozen_robots} frozen: counts for the win, cannot be deployed)"
    return text + "."


def hand_json(views: Sequence[HandView]) -> list[dict]:
    return [{"card": hand_card_json(v.card), "playable": v.playable,
             "placements": [placement_json(p) for p in v.placements], "why": v.why, "rules": list(v.rules)}
            for v in views]


def apocalypse_json(check: ApocalypseCheck) -> dict:
    return {"qualifying_stacks": list(check.qualifying), "frozen_stacks": list(check.frozen),
            "may_trigger": check.may_trigger, "why": check.why,
            "rules": ["tr-clarifications", "tr-clarification-apocalypse-frozen", "tr-frozen-stacks"]}
