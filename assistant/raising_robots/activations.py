"""The activation chains page (/raising-robots/activations): a robot activates at most once per activation
(rulebook "IMPORTANT" under running a phase row; Finite Loops Example). The chain is typed as rows (level,
kind, robot or action, energy), read by one pydantic model; nothing is kept with a table."""
from __future__ import annotations

from typing import Annotated, Literal

from flask import Blueprint, render_template, request
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from solvers.errors import InputError
from solvers.raising_robots import activations as act
from solvers.raising_robots.model import ROW_NAMES

from ..web import paths
from ..web.context import table_context
from ..web.forms import posted_fields
from ..web.problems import Problem, from_validation, plain
from ..web.stored import lenient
from . import present
from .answers import ACTIVATION_RULES, chain_answer

bp = Blueprint("rr_activations", __name__)

CHAIN_KINDS = (("robot", "Robot activated"), ("board", "Player-board action"), ("run-design", "Run Design"),
               ("run-fabricate", "Run Fabricate"), ("run-recycle", "Run Recycle"))
MAX_ROWS = 40
MAX_DEPTH_UI = 8


def _blank(v: object) -> object:
    return None if v == "" else v


Energy = Annotated[Annotated[int, Field(ge=0, le=30)] | None, BeforeValidator(_blank)]


class ChainRow(BaseModel):
    model_config = ConfigDict(extra="ignore")
    depth: Annotated[int, Field(ge=0, le=MAX_DEPTH_UI)] = 0
    kind: Literal[tuple(k for k, _ in CHAIN_KINDS)] = "robot"  # type: ignore[valid-type]
    label: Annotated[str, Field(max_length=120)] = ""
    energy: Energy = None

    def blank(self) -> bool:
        return self.kind in ("robot", "board") and not self.label.strip()


class ChainForm(BaseModel):
    """The page's form: the phase, its energy and the rows typed (blank rows are left out)."""
    model_config = ConfigDict(extra="ignore")
    phase: Annotated[Literal["design", "fabricate", "recycle"] | None, BeforeValidator(_blank)] = None
    energy: Energy = None
    rows: list[ChainRow] = Field(default_factory=list, max_length=MAX_ROWS)
    blank: Annotated[int, Field(ge=0, le=MAX_ROWS)] = 3  # blank rows the page showed


def chain_to_rows(steps: list, depth: int = 0) -> list[ChainRow]:
    """The API's nested steps as the page's flat rows."""
    rows = []
    for s in steps:
        if "robot" in s:
            rows.append(ChainRow(depth=depth, kind="robot", label=s["robot"], energy=s.get("energy")))
            rows += chain_to_rows(s.get("then", []), depth + 1)
        elif "run" in s:
            rows.append(ChainRow(depth=depth, kind=f"run-{s['run']}", energy=s.get("energy")))
            rows += chain_to_rows(s.get("steps", []), depth + 1)
        else:
            rows.append(ChainRow(depth=depth, kind="board", label=s["board"]))
    return rows


def rows_to_chain(rows: list[tuple[int, ChainRow]]) -> tuple[list, list[Problem]]:
    """The page's rows as nested API steps; a row deeper than the one before +1, or under a player-board
    action, is a problem named by its row."""
    problems: list[Problem] = []
    top: list = []
    stack: list[tuple[int, dict | None, list]] = [(-1, None, top)]  # (depth, node, its children list)
    for i, r in rows:
        while stack[-1][0] >= r.depth:
            stack.pop()
        parent_depth, parent, children = stack[-1]
        if r.depth > parent_depth + 1:
            problems.append(Problem(f"rows.{i}.depth", f"Row {i + 1} is indented more than one step below the row above it"))
            continue
        if parent is not None and "board" in parent:
            problems.append(Problem(f"rows.{i}.depth", f"Row {i + 1}: a player-board action sets nothing off: indent it less"))
            continue
        if r.kind == "robot":
            node: dict = {"robot": r.label.strip() or "?", "then": []}
            if r.energy is not None:
                node["energy"] = r.energy
            sub = node["then"]
        elif r.kind.startswith("run-"):
            node = {"run": r.kind[4:], "energy": r.energy if r.energy is not None else 0, "steps": []}
            sub = node["steps"]
            if r.energy is None:
                problems.append(Problem(f"rows.{i}.energy", f"Row {i + 1}: give the energy the row runs at"))
        else:
            node = {"board": r.label.strip() or "?"}
            sub = []
        children.append(node)
        stack.append((r.depth, node, sub))
    return top, problems


def read_form(form) -> tuple[ChainForm, list[Problem]]:
    data: dict = {"phase": None, "energy": None, "blank": 3, "rows": [{} for _ in range(MAX_ROWS)]}
    for path, value in posted_fields(form).items():
        name = "blank" if path == "_blank" else path
        try:
            paths.set_(data, name, value)
        except paths.PathError:
            continue
    try:
        return ChainForm.model_validate(data), []
    except ValidationError as err:
        problems = [Problem(p.path, f"Row {int(p.path.split('.')[1]) + 1}: {p.message}" if p.path.startswith("rows.")
                            else p.message) for p in from_validation(err, data)]
        return lenient(ChainForm, data), problems  # what was valid stays on the page


def p_row(p: Problem) -> int:
    parts = p.path.split(".")
    return int(parts[1]) if len(parts) > 1 and parts[0] == "rows" and parts[1].isdecimal() else -1


@bp.route("/raising-robots/activations", methods=["GET", "POST"])
def activations_page():
    example = act.FINITE_LOOPS_EXAMPLE
    problems: list[Problem] = []
    chain = ChainForm(phase=example["phase"], energy=example["energy"])
    filled: list[tuple[int, ChainRow]] = []
    extra = 3
    if request.method == "POST":
        do = request.form.get("do", "check")
        if do in ("example", "variant"):
            data = example if do == "example" else act.finite_loops_variant()
            chain = ChainForm(phase=data["phase"], energy=data["energy"], rows=chain_to_rows(data["steps"]))
            filled = list(enumerate(chain.rows))
        else:
            chain, problems = read_form(request.form)
            kept = [r for r in chain.rows if not r.blank()]
            if problems:  # rows stay where they were typed, so each problem is under its row
                last = max([i for i, r in enumerate(chain.rows) if not r.blank()] + [p_row(p) for p in problems] + [-1])
                kept = chain.rows[:last + 1]
            filled = list(enumerate(kept))
            extra = min(MAX_ROWS - len(filled), chain.blank + 3 if do == "more" else max(chain.blank, 3))
    result = None
    if filled and not problems:
        steps, problems = rows_to_chain(filled)
        if not problems:
            try:
                result = chain_answer(steps, chain.phase, chain.energy)
            except InputError as err:
                problems = [Problem("", plain(err.message))]
    rows = [r for _, r in filled]
    raw = posted_fields(request.form) if request.method == "POST" else {}
    blanks = [ChainRow(depth=rows[-1].depth if rows else 0) for _ in range(max(0, min(extra, MAX_ROWS - len(rows))))]
    return (render_template(
        "raising_robots/activations.html", rows=rows + blanks, n_filled=len(rows), blank=len(blanks),
        kinds=CHAIN_KINDS, max_depth=MAX_DEPTH_UI, phase=chain.phase, energy=chain.energy, row_names=ROW_NAMES,
        result=result, problems=problems, raw=raw, problem_paths={p.path for p in problems},
        top=[p for p in problems if not p.path.startswith("rows.") and p.path not in ("energy", "phase")],
        example_check=chain_answer(example["steps"], example["phase"], example["energy"]),
        rules=ACTIVATION_RULES, rule_titles=present.rule_titles(ACTIVATION_RULES), **table_context("raising-robots")),
        (400 if problems else 200))
