"""The solvers' results as the JSON the API answers and the pages render (plain dicts)."""
from __future__ import annotations

from collections.abc import Sequence

from solvers.exact import exact

from .factory import (
    ApocalypseCheck,
    Factory,
    FactoryView,
    HandCard,
    HandView,
    Part,
    Placement,
    analyse,
)
from .odds import Completion, DrawOdds, UnseenCard
from .planner import Step, TurnPlan


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


def _rules(*groups: Sequence[str]) -> list[str]:
    out: list[str] = []
    for g in groups:
        for r in g:
            if r not in out:
                out.append(r)
    return out


def step_title(st: Step) -> str:
    if st.phase == "play" and st.action == "part":
        return f"Play {st.card} " + ("as a new stack" if st.new_stack else f"on stack {(st.stack or 0) + 1}")
    if st.phase == "play":
        return f"Play {st.card}"
    if st.phase == "event":
        return f"Sacrifice {st.card} from stack {(st.stack or 0) + 1}"
    return f"Discard {st.card}"


def plan_json(plan: TurnPlan, part_names: Sequence[str]) -> dict:
    s = plan.score
    steps = [{"phase": st.phase, "action": st.action, "card": st.card, "hand_index": st.hand_index,
              "stack": st.stack, "new_stack": st.new_stack, "title": step_title(st), "why": st.why,
              "rules": list(st.rules)} for st in plan.steps]
    after = analyse(plan.factory_after, part_names)
    events = [{"event": o.event, "available": o.available, "breaks_robot": o.breaks_robot, "why": o.why,
               "sacrifice": [{"stack": i, "card": part_json(c), "why": w} for i, c, w in o.sacrifice]}
              for o in plan.event_options]
    return {
        "steps": steps,
        "score": {"won": s.won, "event": s.event, "robots": s.robots, "wanted_played": s.wanted, "outs": s.outs,
                  "ready": s.ready, "progress": list(s.progress), "discarded": -s.kept, "plays": -s.plays},
        "summary": plan.summary,
        "why": plan.reasons,
        "runner_up": plan.runner_up,
        "ties": plan.ties,
        "event_options": events,
        "p_robot_next_draw": exact(plan.p_robot_next_draw),
        "hand_after": plan.hand_after,
        "discards": plan.discards,
        "factory_after": factory_json(plan.factory_after, after),
        "explored": plan.explored,
        "notes": plan.notes,
        "rules": _rules(["tr-turn-overview", "tr-stacking-part-cards", "tr-energy-stacks"],
                        *[st.rules for st in plan.steps],
                        ["tr-the-event-phase"] if any(o.available for o in plan.event_options) else []),
    }


def odds_json(odds: DrawOdds, unseen: Sequence[UnseenCard], wanted: Sequence[int],
              completions: Sequence[Completion], mode: str) -> dict:
    def card(u: UnseenCard) -> dict:
        if u.part is not None:
            return {"kind": "part", **part_json(u.part)}
        return {"kind": u.kind, "name": u.name}
    what = "a wanted card" if mode == "marked" else "a part that finishes a robot"
    pct = f"{float(odds.p_at_least_one) * 100:.1f} %"
    if mode == "marked":
        why = (f"{odds.wanted} of the {odds.total} unseen cards are marked as wanted; drawing {odds.draws}, "
               f"the chance of at least one is {pct} (exact: hypergeometric).")
    else:
        why = (f"{odds.wanted} of the {odds.total} unseen cards finish a robot; drawing {odds.draws}, "
               f"the chance of at least one is {pct} (exact: hypergeometric).")
    return {
        "mode": mode,
        "unseen_total": odds.total,
        "draws": odds.draws,
        "wanted_total": odds.wanted,
        "p_at_least_one": exact(odds.p_at_least_one),
        "distribution": [{"k": k, "p": exact(p)} for k, p in odds.distribution],
        "expected": exact(odds.expected),
        "wanted": [{"card": card(unseen[j]), "count": unseen[j].count} for j in wanted],
        "completions": [{"stack": c.stack, "missing": c.missing, "count": c.count, "p": exact(c.p),
                         "cards": [{"card": card(unseen[j]), "count": unseen[j].count} for j in c.cards]}
                        for c in completions],
        "why": why if odds.total else f"No unseen cards: nothing to draw ({what}).",
        "rules": ["tr-turn-overview", "tr-draw-phase", "tr-how-to-build-a-robot", "tr-stacking-part-cards"],
    }
