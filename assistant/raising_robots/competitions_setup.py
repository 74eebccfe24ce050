"""Raising Robots: the competitions setup helper (API and page): deal one card of each competition; in solo
and 2-player games place the upgrade tokens on the round tracker; at each round's end say which tiles turn over.

JSON: POST /api/raising-robots/competitions/setup and /competitions/round. Page:
/raising-robots/competitions/setup, which keeps the deal, tile sides and tracker in `rr_competitions` and
moves the table's round (state.table.round).
"""
from __future__ import annotations

import random
from typing import Annotated, Literal

from flask import Blueprint, jsonify, render_template, request
from pydantic import BaseModel, ConfigDict, Field

from solvers.raising_robots import abilities
from solvers.raising_robots import competitions_setup as setup
from solvers.raising_robots.competitions import COMP_NAMES, COMP_TYPES, CRITERIA
from solvers.raising_robots.competitions_data import GAME_DATA
from solvers.raising_robots.model import TOKEN_TYPES

from ..api import bad_field, parse
from ..web.context import as_dict, state_part, table_context
from .competitions_state import (
    MAX_TABLE_ROUND,
    ROUNDS,
    STATE_KEY,
    TOKEN_LABELS,
    catch_up_change,
    clean_comp_state,
    current_round,
    round_events,
    stored,
    with_round,
)
from .forms import FormReader, whole
from .saves import Stale, apply_changes, changes, drawn_json, read_drawn, save
from .schemas import CompType, TokenType, problem_text, rule_titles
from .seats import as_set

bp = Blueprint("rr_competitions_setup", __name__)


SETUP_RULES = ["rr-competitions-friendships-changes-to-setup", "rr-setup-solo-2p-tokens", "rr-solo-2p-gameplay-changes"]
ROUND_RULES = ["rr-flip-tile-round-end", "rr-important-same-round-same-side", "rr-solo-2p-gameplay-changes"]


class SetupIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: int = Field(ge=1, le=6)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)
    # each seat's inventor, by name: its setup changes, and the Friendship cards to take out of the deck
    inventors: list[Annotated[str, Field(max_length=abilities.NAME_MAX)]] = Field(default_factory=list, max_length=6)


def inventors_json(names: list[str]) -> dict:
    """Each seat's inventor setup (Friends Inventor Explanations, "Immediate") and the Friendship cards that
    match an inventor in play (removed before the deck is shuffled: Changes to Setup, step 4)."""
    seats = []
    for i, name in enumerate(names):
        change = abilities.inventor_setup(name)
        seats.append({"seat": i, "inventor": name, "id": change.inventor, "changes": change.changes,
                      "why": change.why, "scroll_board": change.scroll_board, "rule": change.rule,
                      "modelled": change.rule is not None})
    in_play = [abilities.ability_id(n) for n in names if n.strip()]
    return {"seats": seats, "remove_friendships": [abilities.display_name(a) for a in dict.fromkeys(in_play)],
            "rules": ["rr-competitions-friendships-changes-to-setup",
                      *dict.fromkeys(s["rule"] for s in seats if s["rule"])]}


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
        **({"inventors": inventors_json(req.inventors)} if req.inventors else {}),
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


def setup_step(cs: dict, rnd: int, action: str, players: int, done: list[str]) -> tuple[dict, int, list, str | None]:
    """One press of a setup button on a competitions state: deal a new game, end round `rnd` (with the
    competitions completed in it), or keep the sides shown. Returns the state, the round, the tile flips
    and what to tell the player."""
    if action == "deal":
        dealt = run_setup(SetupIn(players=players))
        cs = {**cs, "cards": {c["type"]: c["criterion"] for c in dealt["cards"]}, "sides": dealt["sides"],
              "tracker": [{"round": s["round"], "token_type": s["token_type"]} for s in dealt["tracker"]],
              "completed_this_round": [], "completed_round": None, "players": players}
        return cs, 1, [], "Dealt one card of each competition; every tile shows its A side; the table is on round 1."
    if action == "round-end":
        out = run_round(RoundIn(marker_to=rnd + 1, sides=cs["sides"], completed_this_round=done,
                                tracker=[SpotIn(**s) for s in cs["tracker"]]))
        cs = {**cs, "sides": out["sides"], "completed_this_round": [], "completed_round": None, "players": players,
              "tracker": [{"round": s["round"], "token_type": s["token_type"]} for s in out["tracker"]]}
        note = f"Round {out['marker_to']} begins: the round marker moved." + ("" if out["events"] else " No tile turns over.")
        return cs, out["marker_to"], out["events"], note
    return {**cs, "players": players}, rnd, [], "Tile sides saved." if action == "sides" else None


def setup_model(cs: dict, rnd: int, players: int) -> dict:
    """What the form shows with a table, as changes are worked out."""
    return {"sides": dict(cs["sides"]), "players": players, "done": as_set(cs["completed_this_round"]), "round": rnd}


def setup_change(old: dict, new: dict, action: str, outcome: dict):
    """The save, worked out on the newest state: the sides and player count changed here, then the button's
    step. Ending a round is refused (Stale) when another phone moved the round since this page was drawn."""
    items = changes({k: old[k] for k in ("sides", "players", "done")}, {k: new[k] for k in ("sides", "players", "done")})

    def mutate(state: dict) -> dict:
        state = catch_up_change(state)
        rnd = current_round(state)
        if action == "round-end" and rnd != old["round"]:
            raise Stale(f"Round {old['round']} is already over (another phone ended it): the table is on round "
                        f"{rnd}. Check the tiles below before ending this one.")
        cs = clean_comp_state(state.get(STATE_KEY))
        view = apply_changes({"sides": dict(cs["sides"]), "players": cs["players"] or new["players"],
                              "done": as_set(cs["completed_this_round"])}, items)
        cs = {**cs, "sides": {t: v if v in ("A", "B") else "A" for t, v in as_dict(view["sides"]).items()}}
        done = [t for t in COMP_TYPES if as_dict(view["done"]).get(t) is True]
        cs, rnd_to, events, note = setup_step(cs, rnd, action, view["players"], done)
        outcome.update(events=events, note=note)
        state = with_round(state, rnd_to if rnd_to != rnd else None)
        state[STATE_KEY] = stored(cs)
        return state
    return mutate


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
    if request.method == "POST":
        action = request.form.get("action", "")
        f = FormReader(request.form)
        done = [t for t in COMP_TYPES if request.form.get(f"done-{t}") == "1"]
        if table is None:  # the setup travels in the form
            cs, rnd = _setup_from_form(cs, rnd)
        drawn = read_drawn(request.form) if table is not None else None
        old = setup_model(cs, rnd, players)
        if drawn:
            old = {"sides": {t: s if (s := as_dict(drawn.get("sides")).get(t)) in ("A", "B") else "A" for t in COMP_TYPES},
                   "players": whole(drawn.get("players"), 1, 6, players), "done": as_set(drawn.get("done")),
                   "round": whole(drawn.get("round"), 1, MAX_TABLE_ROUND, rnd)}
        players = f.int("players", 1, 6, old["players"]) or old["players"]
        problems = f.problems
        if action == "round-end" and old["round"] >= ROUNDS:
            problems.append({"path": "round", "message": f"round {old['round']} is the last: the game ends after it"})
        new = {**old, "players": players, "done": as_set(done) if "players" in request.form else old["done"],
               "sides": {t: request.form.get(f"side-{t}") if request.form.get(f"side-{t}") in ("A", "B") else side
                         for t, side in old["sides"].items()}}
        if not problems and table is None:
            cs = {**cs, "sides": new["sides"]}
            cs, rnd_to, step_events, note = setup_step(cs, rnd, action, players, done)
            if action in ("deal", "round-end"):
                events, caught_up, rnd = step_events, False, rnd_to
        elif not problems:
            outcome: dict = {}
            table = ctx["table"] = save(table, setup_change(old, new, action, outcome))
            cs, _, rnd = round_events(table, clean_comp_state(state_part(table, STATE_KEY)))
            players = cs["players"] or table.players
            if outcome:
                note = outcome["note"]
                if action in ("deal", "round-end"):
                    events, caught_up = outcome["events"], False
    # a GET never writes: the flips the table's round brought are shown from the state read, and the next
    # save applies them with the migrated round (setup_change starts with catch_up_change)
    planner_args = {"card": [c for c in cs["cards"].values() if c],
                    **{f"side-{t}": s for t, s in cs["sides"].items() if s == "B"}}
    rules = SETUP_PAGE_RULES if players <= 2 else [i for i in SETUP_PAGE_RULES if "solo" not in i]
    return render_template(
        "raising_robots/competitions_setup.html", problem_text=problem_text, cs=cs, players=players, events=events,
        caught_up=caught_up,
        round=rnd, rounds=ROUNDS, note=note, problems=problems, data=GAME_DATA, comp_types=COMP_TYPES,
        comp_names=COMP_NAMES, token_labels=TOKEN_LABELS, tile_of=setup.tile_of, rule_titles=rule_titles(rules),
        planner_args=planner_args, setup_rules=rules, drawn=drawn_json(setup_model(cs, rnd, players)),
        version=table.version if table is not None else "", **ctx), 400 if problems else 200
