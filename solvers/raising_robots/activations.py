"""Activation chains of Raising Robots: Friends (rulebook "Run a Phase Row (Energy Action)",
"Finite Loops Example").

The player writes down what a phase (or a Run-a-Phase-Row action) did as a tree: player-board
actions, robot activations, and phase rows run from inside an activation. The rule checked: within
one robot activation (a robot activated outside any other robot activation, together with
everything its action sets off), each robot is activated at most once. A robot activated again in
a later, separate activation is fine (Sir Kit in the example). Optionally, a robot node may say the
energy its action needs; it is then checked against the energy of the row run that activated it.
Pure: no Flask.
"""
from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field

from solvers.errors import InputError

RULE_RUN = "rr-run-a-phase-row-energy-action"
RULE_EXAMPLE = "rr-finite-loops-example"
ROWS = ("design", "fabricate", "recycle")
MAX_DEPTH = 12
MAX_NODES = 200


class ChainInputError(InputError):
    """A chain that cannot be read; `path` names the step (API path style)."""


@dataclass(frozen=True)
class Node:
    kind: str  # "robot", "board" or "run"
    label: str  # robot name, board action text, or the row a run runs
    text: str = ""  # what a robot's action does (free text)
    energy: int | None = None  # run: its total energy; robot: the energy its action needs (optional)
    children: tuple[Node, ...] = field(default=())


@dataclass(frozen=True)
class Checked:
    path: str  # "3", "3.C", "3.C.1", ... (numbers and letters alternate by depth)
    depth: int
    kind: str
    label: str
    text: str
    energy: int | None
    status: str  # "ok", "repeat" (activated twice in one activation), "energy" (not enough energy),
    # "skipped" (under a robot that may not run)
    why: str
    activation: str | None  # the path of the robot activation it belongs to


@dataclass(frozen=True)
class ChainResult:
    ok: bool
    nodes: tuple[Checked, ...]
    activations: tuple[dict, ...]  # {"path", "robot", "robots": [names in order]}
    problems: tuple[str, ...]


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _label(depth: int, n: int) -> str:
    if depth % 2 == 0:
        return str(n + 1)
    letters = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        letters = chr(65 + r) + letters
    return letters


def parse(data: dict, path: str = "") -> Node:
    """Read one node of the API's shape: {"robot", "does", "energy", "then"} | {"board"} |
    {"run", "energy", "steps"}. Raises ChainInputError naming the field."""
    return _parse(data, path, 0, [0])


def parse_steps(steps: Sequence, path: str) -> tuple[Node, ...]:
    return tuple(_parse(s, f"{path}[{i}]", 0, [0]) for i, s in enumerate(steps))


def _parse(data: object, path: str, depth: int, count: list[int]) -> Node:
    count[0] += 1
    if count[0] > MAX_NODES:
        raise ChainInputError(path, f"a chain may hold at most {MAX_NODES} steps")
    if depth > MAX_DEPTH:
        raise ChainInputError(path, f"chains nest at most {MAX_DEPTH} deep")
    if not isinstance(data, dict):
        raise ChainInputError(path, "must be an object with robot, board or run")
    kinds = [k for k in ("robot", "board", "run") if k in data]
    if len(kinds) != 1:
        raise ChainInputError(path, "must have exactly one of robot, board or run")
    kind = kinds[0]
    allowed = {"robot": {"robot", "does", "energy", "then"}, "board": {"board"},
               "run": {"run", "energy", "steps"}}[kind]
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ChainInputError(f"{path}.{unknown[0]}", f"is not a field of a {kind} step")
    label = data[kind]
    if not isinstance(label, str) or not label.strip() or len(label) > 120:
        raise ChainInputError(f"{path}.{kind}", "must be a text of 1 to 120 characters")
    energy = data.get("energy")
    if energy is not None and (not isinstance(energy, int) or isinstance(energy, bool) or not 0 <= energy <= 30):
        raise ChainInputError(f"{path}.energy", "must be a whole number from 0 to 30")
    if kind == "board":
        return Node("board", label.strip())
    if kind == "run":
        row = label.strip().lower()
        if row not in ROWS:
            raise ChainInputError(f"{path}.run", f"must be one of {', '.join(ROWS)}")
        if energy is None:
            raise ChainInputError(f"{path}.energy", "a row run needs its total energy")
        sub_key = "steps"
    else:
        row = label.strip()
        sub_key = "then"
    text = data.get("does", "")
    if not isinstance(text, str) or len(text) > 200:
        raise ChainInputError(f"{path}.does", "must be a text of at most 200 characters")
    subs = data.get(sub_key, [])
    if not isinstance(subs, list):
        raise ChainInputError(f"{path}.{sub_key}", "must be a list of steps")
    children = tuple(_parse(s, f"{path}.{sub_key}[{i}]", depth + 1, count) for i, s in enumerate(subs))
    return Node(kind, row, text.strip(), energy, children)


def check(steps: Sequence[Node], phase: str | None = None, energy: int | None = None) -> ChainResult:
    """Flag every robot activated a second time inside one robot activation, and every robot whose
    stated energy need is above the energy of the row run that activated it.

    Numbering follows the rulebook example: top-level steps 1, 2, 3; what a robot sets off is
    lettered under it (3.A, 3.B, 3.C), the next level numbered again (3.C.1). A row run is not a
    numbered step of its own: its steps are numbered as the steps of the robot that ran it."""
    out: list[Checked] = []
    activations: list[dict] = []
    problems: list[str] = []

    def robot_status(node: Node, path: str, scope: dict | None, run_energy: int | None
                     ) -> tuple[str, str, dict | None]:
        if run_energy is not None and node.energy is not None and node.energy > run_energy:
            why = f"its action needs {node.energy} energy but the row runs at {run_energy}"
            problems.append(f"Step {path}: {node.label}: {why}.")
            return "energy", why, scope
        if scope is None:
            scope = {"path": path, "robot": node.label, "robots": [node.label], "seen": {_key(node.label): path}}
            activations.append(scope)
            return "ok", "starts a new robot activation", scope
        if _key(node.label) in scope["seen"]:
            first = scope["seen"][_key(node.label)]
            why = (f"{node.label} was already activated at step {first}, inside the same activation of "
                   f"{scope['robot']} (step {scope['path']}); a robot runs once per activation")
            problems.append(f"Step {path}: {why}.")
            return "repeat", why, scope
        scope["seen"][_key(node.label)] = path
        scope["robots"].append(node.label)
        return "ok", f"first time in the activation of {scope['robot']} (step {scope['path']})", scope

    def visit_all(children: Sequence[Node], parent: str, depth: int, scope: dict | None,
                  run_energy: int | None, blocked: bool, counter: list[int]) -> None:
        for child in children:
            if child.kind == "run":
                counter[1] += 1
                path = f"{parent or 'phase'}~run{counter[1]}"
                status = "skipped" if blocked else "ok"
                why = ("cannot happen: the robot above it may not be activated here" if blocked else
                       f"runs the {child.label} row at {child.energy} energy (no batteries, no energy cubes)")
                out.append(Checked(path, depth, "run", child.label, child.text, child.energy, status, why,
                                   scope["path"] if scope else None))
                # robots a row run activates are checked against that run's energy
                visit_all(child.children, parent, depth, scope, child.energy, blocked, counter)
                continue
            path = f"{parent}.{_label(depth, counter[0])}" if parent else _label(depth, counter[0])
            counter[0] += 1
            inner = scope
            if blocked:
                status, why = "skipped", "cannot happen: the robot above it may not be activated here"
            elif child.kind == "robot":
                status, why, inner = robot_status(child, path, scope, run_energy)
            else:
                status, why = "ok", ""
            out.append(Checked(path, depth, child.kind, child.label, child.text, child.energy, status, why,
                               inner["path"] if inner else None))
            # a robot activated by another robot's action ignores the row's energy: run_energy None
            visit_all(child.children, path, depth + 1, inner, None, blocked or status != "ok", [0, 0])

    visit_all(steps, "", 0, None, energy, False, [0, 0])
    acts = tuple({"path": a["path"], "robot": a["robot"], "robots": list(a["robots"])} for a in activations)
    return ChainResult(not problems, tuple(out), acts, tuple(problems))


# The rulebook's Finite Loops Example as a chain (own words): the Design phase at total energy 5.
FINITE_LOOPS_EXAMPLE: dict = {
    "phase": "design", "energy": 5,
    "steps": [
        {"board": "Take a program or a robot card"},
        {"board": "Swap X robot cards for X+1 new ones, then +1 robot card and +1 battery"},
        {"robot": "Hallyu", "does": "Spend a gear to run Fabricate at 4 (3 + 1 from an unlocked upgrade)",
         "then": [{"run": "fabricate", "energy": 4, "steps": [
             {"board": "Take a microchip or a gear"},
             {"board": "Take a gear or a sensor"},
             {"robot": "Bingo", "does": "Activate an adjacent robot (Hallyu is taken already, so Zeus)",
              "then": [{"robot": "Zeus", "does": "Run Design at 2 (1 + 1 from an unlocked upgrade)",
                        "then": [{"run": "design", "energy": 2, "steps": [
                            {"board": "Take a program or a robot card"},
                            {"robot": "Sir Kit", "does": "Gain a battery"}]}]}]}]}]},
        {"robot": "Sir Kit", "does": "Gain a battery (a separate activation from Hallyu's)"},
    ],
}


def finite_loops_variant() -> dict:
    """The example with Bingo choosing Hallyu instead of Zeus: the move the rulebook forbids."""
    bad = copy.deepcopy(FINITE_LOOPS_EXAMPLE)
    bingo = bad["steps"][2]["then"][0]["steps"][2]
    bingo["does"] = "Activate an adjacent robot: Hallyu"
    bingo["then"] = [{"robot": "Hallyu", "does": "Spend a gear to run Fabricate at 4"}]
    return bad
