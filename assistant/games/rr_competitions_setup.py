"""Raising Robots: the competitions setup helper (API and page): deal one card of each competition; in solo
and 2-player games place the upgrade tokens on the round tracker; at each round's end say which tiles turn over.

JSON: POST /api/raising-robots/competitions/setup and /competitions/round. Page:
/raising-robots/competitions/setup, which keeps the deal, tile sides and tracker in `rr_competitions` and
moves the table's round (state.table.round).
"""
from __future__ import annotations

import random
from typing import Literal

from flask import Blueprint, jsonify, render_template, request
from pydantic import BaseModel, ConfigDict, Field

from solvers.raising_robots import competitions_setup as setup
from solvers.raising_robots.competitions import COMP_NAMES, COMP_TYPES, CRITERIA
from solvers.raising_robots.competitions_data import GAME_DATA
from solvers.raising_robots.model import TOKEN_TYPES

from ..api import bad_field, parse
from ..page_helpers import state_part, table_context
from .rr_competitions_state import (
    MAX_TABLE_ROUND,
    ROUNDS,
    STATE_KEY,
    TOKEN_LABELS,
    clean_comp_state,
    keep_catch_up,
    legacy_marker,
    round_events,
    stored,
    with_round,
)
from .rr_forms import FormReader
from .rr_models import rule_titles
from .rr_table import save

bp = Blueprint("rr_competitions_setup", __name__)

TokenType = Literal[TOKEN_TYPES]  # type: ignore[valid-type]
CompType = Literal[COMP_TYPES]  # type: ignore[valid-type]

SETUP_RULES = ["rr-competitions-friendships-changes-to-setup", "rr-setup-solo-2p-tokens", "rr-solo-2p-gameplay-changes"]
ROUND_RULES = ["rr-flip-tile-round-end", "rr-important-same-round-same-side", "rr-solo-2p-gameplay-changes"]


class SetupIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: int = Field(ge=1, le=6)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)


class SpotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    round: int = Field(ge=1, le=8)
    token_type: TokenType


class RoundIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    marker_to: int = Field(ge=2, le=8)
    sides: dict[CompType, Literal["A", "B"]] = Field(default_factory=dict)
    tracker: list[SpotIn] = Field(default_factory=list, max_length=4)
    completed_this_round: list[CompType] = Field(default_factory=list, max_length=4)


def _spots_json(spots: list[setup.Spot]) -> list[dict]:
    return [{"round": s.round, "token_type": s.token_type, "tile": s.tile, "name": COMP_NAMES[s.tile]}
            for s in spots]


def run_setup(req: SetupIn) -> dict:
    rng = random.Random(req.seed) if req.seed is not None else random.SystemRandom()
    cards = setup.deal(rng)
    spots = setup.place_tracker_tokens(req.players, rng)
    tiles = {t: GAME_DATA.tiles[t].token_type for t in COMP_TYPES}
    return {
        "players": req.players,
        "cards": [{"type": t, "name": COMP_NAMES[t], "criterion": c, "card": GAME_DATA.cards[c].name,
                   "text": GAME_DATA.cards[c].text} for t, c in cards.items()],
        "sides": {t: "A" for t in COMP_TYPES},
        "tracker": _spots_json(spots),
        "tile_types": {t: {"token_type": s.value, "source": s.source} for t, s in tiles.items()},
        "rules": SETUP_RULES if req.players <= 2 else SETUP_RULES[:1],
    }


def run_round(req: RoundIn) -> dict:
    spots = [setup.Spot(s.round, s.token_type, setup.tile_of(s.token_type)) for s in req.tracker]
    if len({s.token_type for s in spots}) != len(spots):
        raise bad_field("tracker", "each upgrade type appears on the round tracker at most once")
    out = setup.end_of_round(req.marker_to, req.sides, spots, req.completed_this_round)
    return {"marker_to": req.marker_to, "sides": out.sides, "tracker": _spots_json(out.tracker),
            "events": [{"type": t, "name": COMP_NAMES[t], "flipped": f, "why": why} for t, f, why in out.events],
            "rules": ROUND_RULES if req.tracker else ROUND_RULES[:2]}


@bp.post("/api/raising-robots/competitions/setup")
def setup_api():
    return jsonify(run_setup(parse(SetupIn)))


@bp.post("/api/raising-robots/competitions/round")
def round_api():
    return jsonify(run_round(parse(RoundIn)))


# ---- the page ------------------------------------------------------------------------------------

def _save(table, cs: dict, round_to: int | None = None) -> object:
    """Write rr_competitions on the newest state and the table's round (`round_to`, or the legacy marker
    moved there)."""
    def mutate(state: dict) -> dict:
        state = with_round(state, round_to)
        state[STATE_KEY] = stored(cs)
        return state
    return save(table, mutate)


def _setup_from_form(cs: dict, rnd: int) -> tuple[dict, int]:
    """Without a table the setup travels in the form: cards, sides, tracker and round."""
    form = request.form
    cs = {**cs, "cards": dict(cs["cards"]), "sides": dict(cs["sides"])}
    for t in COMP_TYPES:
        if CRITERIA.get(form.get(f"card-{t}", "")) == t:
            cs["cards"][t] = form[f"card-{t}"]
        if form.get(f"side-{t}") in ("A", "B"):
            cs["sides"][t] = form[f"side-{t}"]
    tracker = []
    for i in range(4):
        r, tok = form.get(f"trk-{i}-round", ""), form.get(f"trk-{i}-type", "")
        if r.isdigit() and 1 <= int(r) <= ROUNDS and tok in TOKEN_TYPES:
            tracker.append({"round": int(r), "token_type": tok})
    key = "round" if "round" in form else "marker"  # "marker": a page drawn before the round moved to the table
    if key in form:
        cs["tracker"] = tracker
        m = form.get(key, "")
        rnd = int(m) if m.isdigit() and 1 <= int(m) <= MAX_TABLE_ROUND else rnd
    return cs, rnd


SETUP_PAGE_RULES = ["rr-competitions-friendships-changes-to-setup", "rr-setup-solo-2p-tokens",
                    "rr-solo-2p-gameplay-changes", "rr-flip-tile-round-end", "rr-important-same-round-same-side",
                    "rr-competition-card-and-tile-overview"]


@bp.route("/raising-robots/competitions/setup", methods=["GET", "POST"])
def setup_page():
    ctx = table_context("raising-robots")
    table = ctx["table"]
    cs = clean_comp_state(state_part(table, STATE_KEY))
    cs, events, rnd = round_events(table, cs)
    players = cs["players"] or (table.players if table is not None else 1)
    problems: list[dict] = []
    note = None
    caught_up = bool(events)
    round_to = None
    if request.method == "POST":
        if table is None:
            cs, rnd = _setup_from_form(cs, rnd)
        else:  # with a table only the side buttons come from the form; the rest is the table's
            cs = {**cs, "sides": {t: request.form.get(f"side-{t}") if request.form.get(f"side-{t}") in ("A", "B")
                                  else side for t, side in cs["sides"].items()}}
        action = request.form.get("action", "")
        f = FormReader(request.form)
        players = f.int("players", 1, 6, players) or players
        problems = f.problems
        if action == "deal" and not problems:
            dealt = run_setup(SetupIn(players=players))
            cs = {**cs, "cards": {c["type"]: c["criterion"] for c in dealt["cards"]}, "sides": dealt["sides"],
                  "tracker": [{"round": s["round"], "token_type": s["token_type"]} for s in dealt["tracker"]],
                  "completed_this_round": [], "completed_round": None, "players": players}
            rnd = round_to = 1
            events, caught_up = [], False
            note = "Dealt one card of each competition; every tile shows its A side; the table is on round 1."
        elif action == "round-end" and not problems:
            done = [t for t in COMP_TYPES if request.form.get(f"done-{t}") == "1"]
            if rnd >= ROUNDS:
                problems.append({"path": "round", "message": f"round {rnd} is the last: the game ends after it"})
            else:
                out = run_round(RoundIn(marker_to=rnd + 1, sides=cs["sides"], completed_this_round=done,
                                        tracker=[SpotIn(**s) for s in cs["tracker"]]))
                cs = {**cs, "sides": out["sides"], "completed_this_round": [], "completed_round": None,
                      "tracker": [{"round": s["round"], "token_type": s["token_type"]} for s in out["tracker"]]}
                rnd = round_to = out["marker_to"]
                events, caught_up = out["events"], False
                note = f"Round {rnd} begins: the round marker moved." + ("" if events else " No tile turns over.")
        elif action == "sides" and not problems:
            for e in events:
                if e["flipped"]:
                    cs["sides"][e["type"]] = "B"
            note = "Tile sides saved."
        cs["players"] = players
        if table is not None and not problems:
            table = _save(table, cs, round_to=round_to)
            ctx["table"] = table
    elif table is not None and (events or legacy_marker(table.state) is not None):
        table = keep_catch_up(table)  # keep the flips the table's round brought, and the migrated round
        ctx["table"] = table
    planner_args = {"card": [c for c in cs["cards"].values() if c],
                    **{f"side-{t}": s for t, s in cs["sides"].items() if s == "B"}}
    rules = SETUP_PAGE_RULES if players <= 2 else [i for i in SETUP_PAGE_RULES if "solo" not in i]
    return render_template(
        "raising_robots/competitions_setup.html", cs=cs, players=players, events=events, caught_up=caught_up,
        round=rnd, rounds=ROUNDS, note=note, problems=problems, data=GAME_DATA, comp_types=COMP_TYPES,
        comp_names=COMP_NAMES, token_labels=TOKEN_LABELS, tile_of=setup.tile_of, rule_titles=rule_titles(rules),
        planner_args=planner_args, setup_rules=rules,
        version=table.version if table is not None else "", **ctx), 400 if problems else 200
