"""Raising Robots: activation chains (API and page). A robot activates at most once per activation
(rulebook "IMPORTANT" under running a phase row; Finite Loops Example): the checker walks a chain of
robots and phase runs and says where one would run twice.

JSON: POST /api/raising-robots/activations/check, GET /api/raising-robots/activations/example.
Page: /raising-robots/activations (kept on the phone: a chain is checked, not stored with the table).
"""
from __future__ import annotations

from typing import Literal

from flask import Blueprint, jsonify, render_template, request
from pydantic import BaseModel, ConfigDict, Field

from solvers.raising_robots import activations as act
from solvers.raising_robots.model import ROW_NAMES

from ..api import parse
from ..web.context import table_context
from .forms import FormReader, answer_or_problems
from .schemas import rule_titles

bp = Blueprint("rr_activations", __name__)
ACTIVATION_RULES = ["rr-run-a-phase-row-energy-action", "rr-important-one-activation-per-robot",
                    "rr-finite-loops-example", "rr-finite-loops-tip"]


class ChainIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    phase: Literal["design", "fabricate", "recycle"] | None = None
    energy: int | None = Field(default=None, ge=0, le=30)
    steps: list = Field(max_length=act.MAX_NODES)


def check_chain(body: ChainIn) -> dict:
    steps = act.parse_steps(body.steps, "steps")  # its InputError is the API's 400 naming the step
    r = act.check(steps, body.phase, body.energy)
    return {
        "ok": r.ok,
        "nodes": [{"path": n.path, "depth": n.depth, "kind": n.kind, "label": n.label, "text": n.text,
                   "energy": n.energy, "status": n.status, "why": n.why, "activation": n.activation}
                  for n in r.nodes],
        "activations": list(r.activations),
        "problems": list(r.problems),
        "rules": [act.RULE_RUN, act.RULE_EXAMPLE],
    }


@bp.post("/api/raising-robots/activations/check")
def api_activations():
    return jsonify(check_chain(parse(ChainIn)))


@bp.get("/api/raising-robots/activations/example")
def api_activations_example():
    """The rulebook's Finite Loops Example (and the variant it forbids) as request bodies, checked."""
    good, bad = act.FINITE_LOOPS_EXAMPLE, act.finite_loops_variant()
    return jsonify({"example": good, "check": check_chain(ChainIn.model_validate(good)),
                    "variant": bad, "variant_check": check_chain(ChainIn.model_validate(bad))})


# ---- the page ------------------------------------------------------------------------------------

CHAIN_KINDS = (("robot", "Robot activated"), ("board", "Player-board action"), ("run-design", "Run Design"),
               ("run-fabricate", "Run Fabricate"), ("run-recycle", "Run Recycle"))
MAX_ROWS = 40
MAX_DEPTH_UI = 8


def chain_to_rows(steps: list, depth: int = 0) -> list[dict]:
    """The API's nested steps as the page's flat rows (depth, kind, label, energy)."""
    rows = []
    for s in steps:
        if "robot" in s:
            rows.append({"depth": depth, "kind": "robot", "label": s["robot"], "energy": s.get("energy")})
            rows += chain_to_rows(s.get("then", []), depth + 1)
        elif "run" in s:
            rows.append({"depth": depth, "kind": f"run-{s['run']}", "label": "", "energy": s.get("energy")})
            rows += chain_to_rows(s.get("steps", []), depth + 1)
        else:
            rows.append({"depth": depth, "kind": "board", "label": s["board"], "energy": None})
    return rows


def rows_to_chain(rows: list[dict]) -> tuple[list, list[dict]]:
    """The page's rows as nested API steps; a row deeper than the one before +1, or under a
    player-board action, is a problem named by its row."""
    problems: list[dict] = []
    top: list = []
    stack: list[tuple[int, dict | None, list]] = [(-1, None, top)]  # (depth, node, its children list)
    for i, r in enumerate(rows):
        while stack[-1][0] >= r["depth"]:
            stack.pop()
        parent_depth, parent, children = stack[-1]
        if r["depth"] > parent_depth + 1:
            problems.append({"path": f"row {i + 1}", "message": "is indented more than one step below the row above it"})
            continue
        if parent is not None and "board" in parent:
            problems.append({"path": f"row {i + 1}", "message": "a player-board action sets nothing off: indent it less"})
            continue
        if r["kind"] == "robot":
            node: dict = {"robot": r["label"] or "?", "then": []}
            if r["energy"] is not None:
                node["energy"] = r["energy"]
            sub = node["then"]
        elif r["kind"].startswith("run-"):
            node = {"run": r["kind"][4:], "energy": r["energy"] if r["energy"] is not None else 0, "steps": []}
            sub = node["steps"]
            if r["energy"] is None:
                problems.append({"path": f"row {i + 1}", "message": "give the energy the row runs at"})
        else:
            node = {"board": r["label"] or "?"}
            sub = []
        children.append(node)
        stack.append((r["depth"], node, sub))
    return top, problems


def rows_from_form(f: FormReader) -> list[dict]:
    form = f.form
    rows = []
    for i in range(MAX_ROWS):
        kind = form.get(f"k-{i}", "")
        if kind not in dict(CHAIN_KINDS):
            continue
        label = (form.get(f"l-{i}") or "").strip()[:120]
        if kind in ("robot", "board") and not label:
            continue  # a blank row
        rows.append({"depth": f.int(f"d-{i}", 0, MAX_DEPTH_UI, 0, label=f"Row {i + 1} depth"),
                     "kind": kind, "label": label,
                     "energy": f.int(f"e-{i}", 0, 30, None, label=f"Row {i + 1} energy")})
    return rows


def _check_rows(rows: list[dict], phase: str | None, energy: int | None) -> tuple[dict | None, list[dict]]:
    steps, problems = rows_to_chain(rows)
    if problems:
        return None, problems
    return answer_or_problems(
        lambda: check_chain(ChainIn.model_validate({"phase": phase, "energy": energy, "steps": steps})))


@bp.route("/raising-robots/activations", methods=["GET", "POST"])
def activations_page():
    example = act.FINITE_LOOPS_EXAMPLE
    problems: list[dict] = []
    phase, energy = example["phase"], example["energy"]
    rows: list[dict] = []
    extra = 3
    if request.method == "POST":
        action = request.form.get("action", "check")
        if action in ("example", "variant"):
            data = example if action == "example" else act.finite_loops_variant()
            rows = chain_to_rows(data["steps"])
            phase, energy = data["phase"], data["energy"]
        else:
            f = FormReader(request.form)
            rows = rows_from_form(f)
            phase = request.form.get("phase") if request.form.get("phase") in ROW_NAMES else None
            energy = f.int("energy", 0, 30, None, label="Phase energy")
            problems = f.problems
            shown = FormReader(request.form).int("blank", 0, MAX_ROWS, 3) or 0  # blank rows the page showed
            extra = min(MAX_ROWS - len(rows), shown + 3 if action == "more" else max(shown, 3))
    result, result_problems = _check_rows(rows, phase, energy) if rows and not problems else (None, [])
    example_check = check_chain(ChainIn.model_validate(example))
    blanks = [{"depth": rows[-1]["depth"] if rows else 0, "kind": "robot", "label": "", "energy": None}
              for _ in range(max(0, min(extra, MAX_ROWS - len(rows))))]
    return (render_template(
        "raising_robots/activations.html", rows=rows + blanks, n_filled=len(rows), blank=len(blanks),
        kinds=CHAIN_KINDS, max_depth=MAX_DEPTH_UI, phase=phase, energy=energy, row_names=ROW_NAMES,
        result=result, problems=problems + result_problems, example_check=example_check,
        rules=ACTIVATION_RULES, rule_titles=rule_titles(ACTIVATION_RULES), **table_context("raising-robots")),
        (400 if problems else 200))
