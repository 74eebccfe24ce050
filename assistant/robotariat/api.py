"""Rise of the Robotariat JSON API (api.md "Rise of the Robotariat"; solvers/robotariat/README.md).

Endpoints: npc-turn, suggest (the contract), round-start, lookahead, objectives, board/validate,
defaults, readings. Each `*_json(body)` function takes the request body as a dict and returns the
answer as a dict, raising ApiError (a 400 naming the field) on bad input: the pages call the same
functions for their no-JS forms.
"""
from __future__ import annotations

import json
import math
import threading
import time
from collections import OrderedDict
from dataclasses import asdict, dataclass, replace
from fractions import Fraction
from typing import Annotated, Any, Literal

from flask import Blueprint, current_app, has_app_context
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
)

from solvers.exact import exact, parse_fraction
from solvers.robotariat import card_effects as ce
from solvers.robotariat import gamedata, games_helper
from solvers.robotariat import table as rt
from solvers.robotariat.board import Board, board_problems
from solvers.robotariat.forecast import Forecaster, canonical
from solvers.robotariat.game import GameRules
from solvers.robotariat.lookahead import lookahead
from solvers.robotariat.model import Dice, Rules, TableState, status_after
from solvers.robotariat.npc_turn import RULES_NPC_TURN, enter_npc, npc_turn
from solvers.robotariat.objective_advice import Goal
from solvers.robotariat.objectives import OBJECTIVES, ObjectiveFacts, check_objectives
from solvers.robotariat.policies import SuggestionPolicy
from solvers.robotariat.readings import READINGS, with_reading_entries
from solvers.robotariat.report import encounter_json, forecast_json, forecast_why, number_text, state_json
from solvers.robotariat.rule_ids import (
    CARD_DRAW_READING,
    CHARACTER_READINGS,
    CHARACTER_RULES,
    OBJECTIVE_READINGS,
    SEARCH_LIMITS_READING,
)
from solvers.robotariat.suggest import headline, suggest
from solvers.robotariat.value import MAX_HORIZON, Ahead, Valuer, Weights, default_horizon

from ..api import ApiError, bad_field, json_body, parse, validation_error
from ..db import engine
from . import forecast_store, schemas

bp = Blueprint("robotariat_api", __name__)
DATA = gamedata.DEFAULTS

# The API's `board`, `dice` and `state` are the table's own models (schemas.py): one shape, stored and sent
Weight = StrictStr | StrictInt | StrictFloat


class TableIn(BaseModel):
    """The body every table endpoint takes (api.md npc-turn body, plus weights and horizon)."""
    model_config = ConfigDict(extra="ignore")
    players: int | None = Field(default=None, ge=3, le=5, strict=True)
    board: schemas.Board | None = None
    dice: schemas.Dice | None = None
    office_rewards: list[Annotated[int, Field(ge=0, le=99, strict=True)]] | None = Field(default=None, min_length=11,
                                                                                          max_length=11)
    state: schemas.Pieces
    weights: dict[Literal["spark", "reputation", "office", "poster", "win", "loss"], Weight] | None = None
    horizon: int | None = Field(default=None, ge=0, le=MAX_HORIZON, strict=True)
    # Upgrade and Sabotage cards, by name, with what they do as the players read them (card_effects.py)
    cards: list[schemas.Card] | None = Field(default=None, max_length=40)

    @field_validator("weights")
    @classmethod
    def _weights(cls, value):
        if value is None:
            return value
        for k, v in value.items():
            if isinstance(v, float) and not math.isfinite(v):
                raise ValueError(f"{k}: a finite number is needed")
            try:
                f = parse_fraction(v)
            except ValueError as e:
                raise ValueError(f"{k}: {e}") from None
            if not 0 <= f <= 10000 or f.denominator > 1000:
                raise ValueError(f"{k}: a number from 0 to 10000 (fractions up to /1000)")
        return value


@dataclass(frozen=True)
class Context:
    board: Board
    rules: Rules
    dice: Dice
    state: TableState
    players: int
    names: tuple[str, ...]
    weights: Weights
    horizon: int
    valuer: Valuer
    effects: ce.Effects  # the cards in play (falsy: none)


# Boards a table sent lately, by their JSON: a table sends the same board with every request, and checking
# and building one of 60 spaces and 300 links costs more than some answers
_BOARDS: OrderedDict[str, Board] = OrderedDict()
_BOARDS_KEPT = 64
_BOARDS_LOCK = threading.Lock()


def _board(body: TableIn | Any) -> Board:
    if body.board is None:
        return DATA.board
    raw = body.board.model_dump()
    key = json.dumps(raw, sort_keys=True, separators=(",", ":"))
    with _BOARDS_LOCK:
        hit = _BOARDS.get(key)
        if hit is not None:
            _BOARDS.move_to_end(key)
            return hit
    errors, _ = board_problems(raw)
    if errors:
        fields = [p.as_dict() for p in errors]
        raise ApiError(400, "bad_request", f"{errors[0].path}: {errors[0].message}"
                       + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""), fields)
    board = Board.from_json(raw)
    with _BOARDS_LOCK:
        _BOARDS[key] = board
        while len(_BOARDS) > _BOARDS_KEPT:
            _BOARDS.popitem(last=False)
    return board


def _space(board: Board, sid: str, path: str) -> int:
    i = board.index.get(sid)
    if i is None:
        raise bad_field(path, f"{sid!r} is not a space on this board")
    return i


def _state(board: Board, st: schemas.Pieces, players: int, rules: Rules) -> tuple[TableState, tuple[str, ...]]:
    if not st.players:
        raise bad_field("state.players", "list the players' pieces (at least one)")
    for i, p in enumerate(st.players):
        if p.at is None:
            raise bad_field(f"state.players[{i}].at", "say which space this player stands on")
    if len(st.players) > players:
        raise bad_field("state.players", f"{len(st.players)} pieces listed for a {players}-player game")
    if len(st.oppressors) > DATA.max_oppressors:
        raise bad_field("state.oppressors", f"the game has {DATA.max_oppressors} Human Oppressors")
    if len(st.civilians) > DATA.max_civilians:
        raise bad_field("state.civilians", f"the game has {DATA.max_civilians} Civilian Robots")
    if st.active >= len(st.players):
        raise bad_field("state.active", f"there is no player {st.active} (players are numbered from 0)")
    seen: set[str] = set()
    for i, p in enumerate(st.players):
        if p.character in seen:
            raise bad_field(f"state.players[{i}].character", "each character is played by one player only")
        if p.character:
            seen.add(p.character)
    posters = [0] * board.n
    for sid, n in st.posters.items():
        posters[_space(board, sid, f"state.posters.{sid}")] += n
    if sum(posters) + st.junk > rules.poster_supply:
        raise bad_field("state.posters", f"the game has {rules.poster_supply} posters; "
                        f"{sum(posters)} on the board and {st.junk} in the junk pile is too many")
    if st.entry is None:
        entry = board.start_space("move_the_masses")
        if entry is None:
            raise bad_field("state.entry", "say where the NPC Entry token is (this board has no Move the Masses space)")
    else:
        entry = _space(board, st.entry, "state.entry")
    s = TableState(
        oppressors=tuple(_space(board, x, f"state.oppressors[{i}]") for i, x in enumerate(st.oppressors)),
        civilians=tuple(_space(board, x, f"state.civilians[{i}]") for i, x in enumerate(st.civilians)),
        players=tuple(_space(board, p.at, f"state.players[{i}].at") for i, p in enumerate(st.players)),
        characters=tuple(p.character for p in st.players), posters=tuple(posters), junk=st.junk, funds=st.funds,
        reputation=st.reputation, office=st.office, entry=entry, active=st.active, round=st.round)
    s = replace(s, ended=status_after(s.funds, s.reputation, rules.target))
    names = tuple(p.name or f"Player {i + 1}" for i, p in enumerate(st.players))
    return s, names


def context(body: TableIn, need_ongoing: bool = True) -> Context:
    board = _board(body)
    players = body.players if body.players is not None else len(body.state.players)
    if not 3 <= players <= 5:
        raise bad_field("players", "Rise of the Robotariat is for 3 to 5 players")
    rules = DATA.rules(players, tuple(body.office_rewards) if body.office_rewards else None)
    dice = Dice(tuple(body.dice.black), tuple(body.dice.red)) if body.dice else DATA.dice
    state, names = _state(board, body.state, players, rules)
    if need_ongoing and state.ended:
        field = "state.reputation" if state.reputation <= 0 else "state.funds"
        raise bad_field(field, "the game is over (" + ("Reputation is 0" if state.reputation <= 0
                                                        else f"funds reached the target of {rules.target}") + ")")
    weights = DATA.weights
    if body.weights:
        weights = Weights(**{**DATA.weights.as_dict(),
                             **{k: parse_fraction(v) for k, v in body.weights.items()}})
    horizon = body.horizon if body.horizon is not None else default_horizon(players, state, DATA.max_rounds)
    ahead = Ahead(seats=len(state.players), entry_track=DATA.entry_track, max_rounds=DATA.max_rounds,
                  max_oppressors=DATA.max_oppressors, max_civilians=DATA.max_civilians)
    return Context(board, rules, dice, state, players, names, weights, horizon,
                   Valuer(board, rules, dice, weights, horizon, ahead), _effects(body, board, state))


def _effects(body: TableIn, board: Board, state: TableState) -> ce.Effects:
    """The cards of the body whose effects count now (card_effects.in_play), spaces checked."""
    cards = []
    for i, c in enumerate(body.cards or []):
        if c.seat >= len(state.players):
            raise bad_field(f"cards[{i}].seat", f"there is no player {c.seat} (players are numbered from 0)")
        e = c.effect
        if e is None:
            continue
        to = _space(board, e.to, f"cards[{i}].effect.to") if e.to is not None else None
        card = ce.in_play(c.seat, c.deck, c.name, e.to_solver(to), c.played, c.done, i)
        if card is not None:
            cards.append(card)
    return ce.Effects.of(cards, state)


def counted_cards(ctx: Context) -> list[str]:
    """The cards whose effects the answer counts, in words (as read by the players: unverified)."""
    return [ce.counted_line(ctx.board, c, ctx.names) for c in ctx.effects.cards]


def _card_deltas(out: dict, before: TableState, start: TableState) -> None:
    """An npc-turn answer computed from `start` (the cards' changes applied to `before`): its deltas and
    Reputation-loss chance counted from the state sent."""
    df, dr, do = start.funds - before.funds, start.reputation - before.reputation, start.office - before.office
    if not (df or dr or do):
        return
    for o in out["outcomes"]:
        o["funds_delta"] += df
        o["reputation_delta"] += dr
        o["office_delta"] += do
    for key, d in (("funds_delta", df), ("reputation_delta", dr), ("office_delta", do)):
        if d and key in out["expected"]:
            out["expected"][key] = exact(Fraction(out["expected"][key]["exact"]) + d)
    lost = sum((Fraction(o["p"]["exact"]) for o in out["outcomes"] if o["reputation_delta"] < 0), Fraction(0))
    out["p_reputation_loss"] = exact(lost)


def not_taken_into_account(body: TableIn, ctx: Context) -> list[str]:
    """What the answers do not model, named under each: a card without an effect entered, or whose effect
    is not one the solvers express, Electric Eye's peek, A1-5's card when it is not sent."""
    out = []
    for c in body.cards or []:
        if c.done or (c.effect is not None and c.effect.kind != "other" and (c.played or c.deck == "upgrade")):
            continue  # face down (its effect is over), or counted (counted_cards)
        who = ctx.names[c.seat] if c.seat < len(ctx.names) else f"Player {c.seat + 1}"
        what = "A1-5's starting Upgrade card" if c.setup else "Upgrade card" if c.deck == "upgrade" else "Sabotage card"
        state = "played" if c.played else "held"
        if c.effect is None:
            out.append(f"{what} “{c.name}” ({who}, {state}): its effect is not taken into account.")
        elif c.effect.kind == "other":
            words = f" (“{c.effect.text}”)" if c.effect.text else ""
            out.append(f"{what} “{c.name}” ({who}, {state}): its effect{words} is not one Tablebot can express, so "
                       "it is not taken into account.")
        else:
            out.append(f"{what} “{c.name}” ({who}, held): not played yet, so its effect is not counted.")
    if ctx.state.seat_of("electric_eye") is not None:
        out.append("Electric Eye's look at the top two Sabotage cards is not taken into account.")
    if ctx.state.seat_of("a1_5") is not None and not any(c.setup for c in body.cards or []):
        out.append("A1-5's starting Upgrade card is not taken into account.")
    return out + ctx.effects.notes(ctx.state)


def _settings(ctx: Context) -> dict:
    return {"players": ctx.players, "target": ctx.rules.target, "horizon": ctx.horizon,
            "weights": {k: exact(v) for k, v in ctx.weights.as_dict().items()},
            "dice": {"black": list(ctx.dice.black), "red": list(ctx.dice.red)},
            "office_rewards": list(ctx.rules.office_rewards)}


# ---- the endpoints as functions of the body ------------------------------------------------------

def npc_turn_json(body: dict) -> dict:
    req = parse(TableIn, body)
    ctx = context(req)
    start, dice = ctx.state, ctx.dice
    if ctx.effects:  # the cards of this NPC turn: inputs transformed (card_effects.py)
        e = ctx.effects
        start = e.before_npc(ctx.board, ctx.rules, e.now(ctx.board, ctx.rules, start))
        dice = e.dice_for(start, dice)
        _over_by_cards(start)
    f = npc_turn(ctx.board, ctx.rules, dice, start, ctx.valuer)
    out = forecast_json(ctx.board, f, ctx.names)
    _card_deltas(out, ctx.state, start)
    rules = list(RULES_NPC_TURN)
    for who, used in (("alice_smith", f.alice), ("mt_rho", f.mt_rho)):
        if used:
            rules += [CHARACTER_RULES[who], CHARACTER_READINGS[who]]
    for who in ("arcitech", "uberbot"):
        if ctx.state.seat_of(who) is not None:
            rules.append(CHARACTER_RULES[who])
    if len(rules) > len(RULES_NPC_TURN):
        rules.append("rb-character-abilities")
    choices = _choosing_characters(ctx.state)
    readings = ["planner-score", "donation-parts"] + (["choice-ties"] if choices else [])
    out.update(why=forecast_why(ctx.board, f),
               rules=with_reading_entries(rules, readings, *(CHARACTER_READINGS[w] for w in choices)),
               readings=readings, settings=_settings(ctx), not_modelled=not_taken_into_account(req, ctx),
               cards_counted=counted_cards(ctx))
    if ctx.effects:
        _card_rules(out)
    return out


def _over_by_cards(s: TableState) -> None:
    if s.ended is not None:
        raise bad_field("cards", "a card's effect ends the game before this answer ("
                        + ("the SPARK target is reached" if s.ended == "success" else "Reputation reaches 0") + ")")


def _card_rules(out: dict) -> None:
    out["rules"] = with_reading_entries(out["rules"], ["card-effects"], *ce.EFFECT_RULES)
    out["readings"] = out["readings"] + ["card-effects"]


def _choosing_characters(s: TableState) -> list[str]:
    """Characters at the table whose choice the next NPC turn makes for them (Tablebot's readings decide):
    Alice Smith and MT-ρ when they conduct it (the active seat), ArciTech wherever she sits."""
    who = [c for c in ("alice_smith", "mt_rho") if s.active_character == c]
    return who + (["arcitech"] if s.seat_of("arcitech") is not None else [])


class RoundStartIn(TableIn):
    row: int | None = Field(default=None, ge=1, le=len(DATA.entry_track), strict=True)
    npc: Literal["oppressor", "civilian"] | None = None


def round_start_json(body: dict) -> dict:
    req = parse(RoundStartIn, body)
    ctx = context(req)
    s = ctx.state
    row = req.row or DATA.entry_row(len(s.oppressors) + len(s.civilians))
    if row is None:
        raise bad_field("row", "all six NPCs have entered: the entry track is empty")
    npc = req.npc or DATA.entry_track[row - 1]
    if npc == "oppressor" and len(s.oppressors) >= DATA.max_oppressors:
        raise bad_field("state.oppressors", "all the Human Oppressors are already on the board")
    if npc == "civilian" and len(s.civilians) >= DATA.max_civilians:
        raise bad_field("state.civilians", "all the Civilian Robots are already on the board")
    e = enter_npc(ctx.board, ctx.rules, s, npc, row, DATA.max_rounds)
    if ctx.effects:  # round-start cards act once its NPC has met its space
        e = replace(e, state=ctx.effects.at_round_start(ctx.board, ctx.rules, e.state))
    return {"row": row, "npc": npc, "space": ctx.board.ids[e.space], "last_round": e.last_round,
            "encounter": encounter_json(ctx.board, e.encounter), "ended": e.state.ended,
            "funds_delta": e.state.funds - s.funds, "reputation_delta": e.state.reputation - s.reputation,
            "office_delta": e.state.office - s.office, "posters_junked": e.encounter.posters_junked,
            "state": state_json(ctx.board, e.state, ctx.names),
            "rules": with_reading_entries(
                ["rb-round-order", "rb-set-up-npc-entry", "rb-reading-round-start-entry",
                 "rb-encounter-quick-reference-table", "rb-game-end"]
                + (["rb-round-order-last-round"] if e.last_round else []), ["arcitech-not-at-round-start"]),
            "readings": ["arcitech-not-at-round-start"], "cards_counted": counted_cards(ctx)}


class LookaheadIn(TableIn):
    turns: int = Field(default=3, ge=1, le=12, strict=True)


def lookahead_json(body: dict) -> dict:
    req = parse(LookaheadIn, body)
    ctx = context(req, need_ongoing=False)
    out = lookahead(ctx.board, ctx.dice, ctx.state, req.turns).as_json(ctx.board)
    out.update(rules=with_reading_entries(
                   ["rb-npc-turn", "rb-rolling-for-human-oppressor-civilian-robot-movement", "rb-die-faces"],
                   ["lookahead-scope"]),
               readings=["lookahead-scope"], settings=_settings(ctx) | {"turns": req.turns})
    return out


class ObjectiveIn(BaseModel):
    """A player's own secret objective, for this one request (never stored)."""
    model_config = ConfigDict(extra="ignore")
    id: Literal[OBJECTIVES]  # type: ignore[valid-type]
    weight: Weight = 50
    reached: bool = False  # Bursar: the office track has hit its amount already this game

    @field_validator("weight")
    @classmethod
    def _weight(cls, v):
        try:
            f = parse_fraction(v)
        except ValueError as e:
            raise ValueError(str(e)) from None
        if not 0 <= f <= 10000:
            raise ValueError("a number from 0 to 10000")
        return v


class SuggestIn(TableIn):
    limit: int | None = Field(default=None, ge=1, le=2000, strict=True)
    objective: Literal[OBJECTIVES] | ObjectiveIn | None = None  # type: ignore[valid-type]


def _goal(req: SuggestIn, players: int) -> Goal | None:
    o = req.objective
    if o is None:
        return None
    if isinstance(o, str):
        o = ObjectiveIn(id=o)
    if o.id == "gambler" and players < DATA.gambler_min_players:
        raise bad_field("objective", "the Gambler is not used in a 3-player game")
    threshold = {"bursar": DATA.bursar_threshold, "scrapper": DATA.scrapper_posters,
                 "turncoat": DATA.turncoat_cards}.get(o.id, {}).get(players, 0)
    return Goal(objective=o.id, weight=parse_fraction(o.weight), threshold=threshold, reached=o.reached)


def suggest_json(body: dict) -> dict:
    req = parse(SuggestIn, body)
    ctx = context(req)
    goal = _goal(req, ctx.players)
    result = _suggest(ctx, goal)
    out = result.as_json(ctx.board, limit=req.limit, names=ctx.names)
    if goal is not None:
        out["objective"] = _objective_answer(ctx, goal, result, out)
    choices = _choosing_characters(ctx.state)
    readings = ["planner-score", "suggestion-options"] + (["choice-ties"] if choices else []) \
        + (["objective-advice"] if goal is not None else [])
    bounded = bool(out["notes"]) or any("search" in o or o["extra"] for o in out["options"])
    out["rules"] = with_reading_entries(out["rules"], readings, *(CHARACTER_READINGS[w] for w in choices),
                                        *([SEARCH_LIMITS_READING] if bounded else []))
    for o in out["options"]:
        drawn = o["activate"] is not None and o["activate"]["kind"] in ("sabotage", "upgrade")
        o["rules"] = with_reading_entries(o["rules"], [], *([CARD_DRAW_READING] if drawn else []),
                                          *([SEARCH_LIMITS_READING] if "search" in o or o["extra"] else []))
    out.update(settings=_settings(ctx), readings=readings, not_modelled=not_taken_into_account(req, ctx),
               cards_counted=counted_cards(ctx))
    if ctx.effects:
        _card_rules(out)
    return out


def _suggest(ctx: Context, goal: Goal | None = None):
    """The suggestions, with the cards in play (card_effects.suggest_with) when there are any."""
    if not ctx.effects:
        return suggest(ctx.board, ctx.rules, ctx.dice, ctx.state, ctx.valuer, goal)
    e = ctx.effects
    start = e.now(ctx.board, ctx.rules, ctx.state)
    _over_by_cards(e.at_turn_start(ctx.board, ctx.rules, start))
    return ce.suggest_with(ctx.board, ctx.rules, ctx.dice, start, ctx.valuer, e, goal)


def _objective_answer(ctx: Context, goal: Goal, result, out: dict) -> dict:
    """How the player's objective changed the advice: each option's bonus and why, and the first option
    without the objective (the shared advice) when it differs."""
    shared = _suggest(ctx).options[0]
    best = result.options[0] if result.options else None
    changed = best is not None and (best.move_to, best.activation, best.extra) != \
        (shared.move_to, shared.activation, shared.extra)
    how = goal.how()
    for o in out["options"]:
        bonus = Fraction(o["expected"]["objective"]["exact"])
        o["objective"] = {"bonus": exact(bonus),
                          "why": (f"For your objective ({goal.name}): {number_text(bonus, True)} ({how})." if bonus
                                  else f"For your objective ({goal.name}): no bonus.")}
        if bonus:
            o["why"] += " " + o["objective"]["why"]
    text = (f"Your objective ({goal.name}) weighs {number_text(goal.weight)} SPARK-equivalents at a success that "
            f"meets it; a step towards it is worth up to a tenth of that ({how}).")
    if goal.objective == "spy":
        text = "The Spy's objective does not depend on the board: the advice is the shared one."
    elif changed:
        text += (" It changes the best turn: without it, the first would be “"
                 + headline(ctx.board, ctx.state, shared) + "”.")
    else:
        text += " The best turn is the same as without it."
    return {"id": goal.objective, "name": goal.name, "weight": exact(goal.weight), "how": how, "changed": changed,
            "why": text, "stored": False}


FORECAST_MAX_MS = 1000  # no request holds a worker longer than about this (api.md "Robotariat forecast")
FORECAST_VERSION = "rollout-3"  # the policy's version: games kept by an earlier policy are not reused


class GameForecastIn(SuggestIn):
    """The /suggest body, plus how to sample when the game tree is too big to count."""
    seed: int = Field(default=0, ge=0, le=2**31 - 1, strict=True)
    runs: int | None = Field(default=None, ge=1, le=20_000, strict=True)  # at most this many games
    budget_ms: int = Field(default=FORECAST_MAX_MS, ge=10, le=120_000, strict=True)  # clamped to FORECAST_MAX_MS
    half_width: float = Field(default=0.02, ge=0.005, le=0.25)  # stop once every 95 % interval is this narrow
    next: Literal["player_turn", "npc_turn"] = "player_turn"  # the active player has played: their NPC turn next


GAME_FORECAST_NOT_MODELLED = [
    "Sabotage and Upgrade draws are played as if the space were not used: the card texts are unknown.",
    "Secret objectives play no part: every player follows the shared suggestions.",
]


def _estimate(e) -> dict:
    if e.exact is not None:
        return exact(e.exact)
    return {"approx": round(e.approx, 6), "interval": [round(e.interval[0], 6), round(e.interval[1], 6)]}


# Forecasts in progress in this process, by request (without the time budget), with the games every
# process has played for the same position kept in the database (forecast_store): a page's next view of
# the same table state, on any worker, goes on sampling where the last one stopped, so repeated views
# narrow the interval. Game k of a forecast always uses the same random stream, so the answer after n
# games does not depend on how the runs were split between requests or workers.
_FORECASTS: OrderedDict[str, tuple[Forecaster, str]] = OrderedDict()
_FORECASTS_KEPT = 32
_FORECASTS_LOCK = threading.Lock()


def _forecaster(req: GameForecastIn, ctx: Context) -> tuple[Forecaster, str]:
    """The forecast of this request, and the key its games are kept under in the database."""
    key = json.dumps(req.model_dump(mode="json", exclude={"budget_ms", "limit", "objective"}), sort_keys=True)
    with _FORECASTS_LOCK:
        hit = _FORECASTS.pop(key, None)
        if hit is not None:
            _FORECASTS[key] = hit
            return hit
    e = ctx.effects
    g = GameRules(board=ctx.board, rules=ctx.rules, dice=ctx.dice, weights=ctx.weights,
                  entry_track=DATA.entry_track, max_rounds=DATA.max_rounds,
                  max_oppressors=DATA.max_oppressors, max_civilians=DATA.max_civilians, effects=e or None)
    policy = ce.EffectPolicy(g, e) if e else SuggestionPolicy(g)
    state = ctx.state
    if e:  # the cards' effects due now; with the turn played, those of its NPC turn too
        state = e.now(ctx.board, ctx.rules, state)
        if req.next == "npc_turn":
            state = e.before_npc(ctx.board, ctx.rules, state)
        _over_by_cards(state)
    start, npc_next = canonical(g, state, policy, req.next == "npc_turn")
    kept = {"version": FORECAST_VERSION, "board": ctx.board.to_json(), "dice": [ctx.dice.black, ctx.dice.red],
            "office_rewards": ctx.rules.office_rewards, "target": ctx.rules.target,
            "weights": {k: str(v) for k, v in ctx.weights.as_dict().items()}, "seed": req.seed,
            "track": DATA.entry_track, "state": asdict(start), "npc_next": npc_next}
    if e:  # games played with cards are kept apart (the key without cards is the one before them), and
        # those of the quick estimate with cards apart from the ones the suggestions' turns played before it
        # ("rollout-2": where a card sets a die, the estimate's shortlist scored exactly on it, not the exact turn)
        kept["cards"], kept["cards_policy"] = e.key(), "rollout-2"
    store_key = forecast_store.key_of(kept)
    f = Forecaster(g, start, policy, seed=req.seed, half_width=req.half_width, max_runs=req.runs,
                   npc_turn_next=npc_next,
                   # the quick estimate (with the cards: card_effects.EffectRollout), the games helper's too
                   rollout=ce.quick_policy(g), helper=_games_helper())
    with _FORECASTS_LOCK:
        _FORECASTS[key] = hit = (f, store_key)
        while len(_FORECASTS) > _FORECASTS_KEPT:
            _FORECASTS.popitem(last=False)
    return hit


def _sampled_how(forecaster: Forecaster, cards: bool) -> str:
    """The turns the sampled games were played with, in words."""
    if forecaster.rollout is None:
        return "the suggestions' best turns"
    how = ("the forecast's quick estimate of the suggestions' best turns (it picks another turn than the "
           "suggestions about one time in seven)")
    if cards:  # card_effects.EffectRollout: the estimate cannot see a card acting at that very NPC turn
        shortlist = ce.NUMBER_WORDS.get(ce.ROLL_SHORTLIST, ce.ROLL_SHORTLIST)
        how += (" with the cards in play: where a card sets a die of the NPC turn that follows, the estimate's "
                f"{shortlist} best turns scored exactly on that die; where a card acts otherwise at that NPC turn, "
                "the suggestions' own turn; measured at four positions with a card, such games succeed 0.5 to 5 points "
                "less often than games of the suggestions' own turns, so with cards this chance may read a little low")
    return how


def _games_helper() -> games_helper.GamesHelper | None:
    """The process that plays about half of the sampled games beside this one, where the app has one (config
    ROBOTARIAT_GAMES_HELPER: on with two cores or more, off in the tests unless asked for; "always": even
    when no core is idle)."""
    on = current_app.config.get("ROBOTARIAT_GAMES_HELPER") if has_app_context() else None
    if not on:
        return None
    helper = games_helper.shared()
    helper.always = on == "always"
    return helper


def _stored_engine():
    """The app's database when called within a request or app context (the JSON functions also run
    without one, in tests and benches: then nothing is kept beyond this process)."""
    return engine() if has_app_context() else None


def game_forecast_json(body: dict, budget_ms: int | None = None, until_runs: int | None = None) -> dict:
    """POST /api/robotariat/game-forecast; `budget_ms` and `until_runs` (the pages') cap the work. The
    budget counts from here: what comes before the games (the body, the suggestions' turn that fixes the
    position, the kept games) is taken from it, down to half of it."""
    t0 = time.perf_counter()
    req = parse(GameForecastIn, body)
    ctx = context(req)
    s = ctx.state
    notes = list(GAME_FORECAST_NOT_MODELLED) + not_taken_into_account(req, ctx)
    if s.round is None:
        notes.append(f"No round was given: round {max(1, s.entered)} is assumed from the NPCs on the board.")
    asked = min(req.budget_ms, budget_ms) if budget_ms else req.budget_ms
    budget = min(asked, FORECAST_MAX_MS)
    forecaster, store_key = _forecaster(req, ctx)
    db = _stored_engine()
    # another request sampling this table now: wait at most what is left of the budget, then give the last
    # answer (only a table's first answer is waited for), so no request holds a worker much past its budget
    left = max(0.0, budget / 1000 - (time.perf_counter() - t0))
    if forecaster.lock.acquire(timeout=left) or (forecaster.last is None and forecaster.lock.acquire()):
        try:
            kept = forecaster.runs
            if db is not None and forecaster.exact is None:
                forecaster.absorb(forecast_store.load(db, store_key))
                kept = forecaster.runs
            left = budget / 1000 - (time.perf_counter() - t0)
            if left < budget / 2000 and forecaster.last is not None and forecaster.runs == kept:
                f = forecaster.last  # the budget went on waiting: the answer so far (a first one always plays)
            else:
                f = forecaster.run(max(budget / 2000, left), until_runs)
            if db is not None and f.method != "exact" and forecaster.runs > kept:
                forecast_store.save(db, store_key, forecaster.games)
        finally:
            forecaster.lock.release()
    else:
        f = forecaster.last
    if f.method == "exact":
        why = ("Every roll of every NPC turn to the end of the game was counted, with each player taking the "
               "suggestions' best turn: the chances are exact.")
    else:
        lo, hi = f.p_success.interval
        how = _sampled_how(forecaster, bool(ctx.effects))
        why = (f"{f.runs} whole games were played out with {how} (seed {f.seed}): the "
               f"Revolution succeeded in {f.p_success.approx:.1%} of them, so the chance lies between {lo:.1%} "
               f"and {hi:.1%} (95 % interval).")
        if f.stopped == "time":
            why += (f" Sampling stopped at the time budget ({budget} ms) before reaching +-{req.half_width:.0%}; "
                    "the games are kept, and the next request for this table state goes on from them.")
        elif f.stopped == "max_runs":
            why += f" Sampling stopped at the {req.runs} games asked for."
    if budget < asked:
        why += (f" The time budget asked for ({asked} ms) was cut to {FORECAST_MAX_MS} ms: no request holds a "
                "worker longer; ask again to play more games.")
    return {"p_success": _estimate(f.p_success), "p_fail_reputation": _estimate(f.p_fail_reputation),
            "p_fail_time": _estimate(f.p_fail_time),
            "by_round": [{"round": r.round, "p_success": _estimate(r.p_success),
                          "p_fail_reputation": _estimate(r.p_fail_reputation),
                          "p_fail_time": _estimate(r.p_fail_time)} for r in f.by_round],
            "runs": f.runs, "method": f.method, "expected_funds": _estimate(f.expected_funds),
            "target": ctx.rules.target, "seed": f.seed, "stopped": f.stopped, "decisions": f.decisions,
            "seconds": round(f.seconds, 3), "budget_ms": budget, "budget_clamped": budget < asked,
            "policy": "suggestions", "rollout": None if f.method == "exact" or forecaster.rollout is None else "estimate",
            "not_modelled": notes, "why": why, "cards_counted": counted_cards(ctx),
            "rules": with_reading_entries(["rb-game-end", "rb-revolution-table", "rb-round-order", "rb-npc-turn"],
                                          ["game-forecast"] + (["card-effects"] if ctx.effects else []),
                                          CARD_DRAW_READING, *(ce.EFFECT_RULES if ctx.effects else ())),
            "readings": ["game-forecast"] + (["card-effects"] if ctx.effects else []), "settings": _settings(ctx)}


def forecast_next_rolls(body: dict, budget_ms: int, enough: int) -> tuple[int, int]:
    """While the players roll the NPC dice, play games for the tables each roll leads to (the next seat's
    turn in the same round), the likeliest roll first, until each has `enough` games or the budget is
    spent: the first view after the roll then finds them kept. Returns (tables ready, tables)."""
    req = parse(GameForecastIn, body)
    ctx = context(req)
    forecaster, _ = _forecaster(req, ctx)
    start = forecaster.s
    if not forecaster.npc_next or forecaster.exact is not None or start.active + 1 >= len(start.players):
        return 0, 0
    with forecaster.lock:
        outcomes = forecaster.play.npc_outcomes(start)
    deadline = time.perf_counter() + min(budget_ms, FORECAST_MAX_MS) / 1000
    ready = total = 0
    if ctx.effects:  # the Sabotage cards of this NPC turn are face down on the tables after it
        e = ctx.effects
        used = {e.cards[i].index for i in e.firing((ce.NPC, ce.round_of(start), start.active)) if e.cards[i].once}
        body = {**body, "cards": [{**c, "done": True} if i in used else c for i, c in enumerate(body["cards"])]}
    for _, _, after in sorted(outcomes, key=lambda o: -o[0]):
        if after.ended is not None:
            continue
        total += 1
        left = int((deadline - time.perf_counter()) * 1000)
        if left < 10:
            continue
        state = state_json(ctx.board, replace(after, active=after.active + 1), ctx.names)
        state.pop("ended")
        out = game_forecast_json({**body, "state": state, "next": "player_turn"}, budget_ms=left, until_runs=enough)
        ready += out["method"] == "exact" or out["runs"] >= enough
    return ready, total


class ValidateIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    board: schemas.Board


def validate_board_json(body: dict) -> dict:
    raw = parse(ValidateIn, body).board.model_dump()
    errors, warnings = board_problems(raw)
    out: dict[str, Any] = {"ok": not errors, "errors": [p.as_dict() for p in errors],
                           "warnings": [p.as_dict() for p in warnings], "summary": None,
                           "rules": ["rb-movement", "rb-rolling-for-human-oppressor-civilian-robot-movement",
                                     "rb-unverified-board"]}
    if not errors:
        out["summary"] = Board.from_json(raw).summary()
    return out


class ObjectivesIn(TableIn):
    log: list[dict] = Field(default_factory=list, max_length=500)
    office_track: list[Annotated[int, Field(ge=0, le=DATA.office_max, strict=True)]] | None = Field(default=None,
                                                                                                  max_length=2000)
    facts: dict = Field(default_factory=dict)


class FactsIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    cooperative: bool = False
    objectives: list[Literal[OBJECTIVES] | None] = Field(default_factory=list, max_length=5)  # type: ignore[valid-type]
    cards_played: list[Annotated[int, Field(ge=0, le=DATA.cards_max, strict=True)]] = Field(default_factory=list,
                                                                                              max_length=5)
    spy_correct: list[bool] = Field(default_factory=list, max_length=5)
    gambler_cards: bool = False
    revolution_over: bool = False
    max_junked: int | None = Field(default=None, ge=0, le=99, strict=True)


class LogIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    round: int = Field(default=1, ge=1, le=DATA.max_rounds)
    player: int | None = Field(default=None, ge=0, le=4)
    what: str = Field(default="", max_length=200)
    junked: int = Field(default=0, ge=0, le=99)
    office: int | None = Field(default=None, ge=0, le=DATA.office_max)
    turn: str | None = Field(default=None, max_length=40)


def objectives_json(body: dict) -> dict:
    req = parse(ObjectivesIn, body)
    ctx = context(req, need_ongoing=False)
    try:
        facts_in = FactsIn.model_validate(req.facts)
    except ValidationError as err:
        raise validation_error(err, prefix="facts") from None
    log = []
    for i, entry in enumerate(req.log):
        try:
            log.append(LogIn.model_validate(entry))
        except ValidationError as err:
            raise validation_error(err, prefix=f"log[{i}]") from None
    seats = len(ctx.state.players)
    for key in ("objectives", "cards_played", "spy_correct"):
        values = getattr(facts_in, key)
        if values and len(values) != seats:
            raise bad_field(f"facts.{key}", f"give one value for each of the {seats} players")
    if "gambler" in facts_in.objectives and ctx.players < DATA.gambler_min_players:
        raise bad_field("facts.objectives", "the Gambler is not used in a 3-player game")
    picked = [o for o in facts_in.objectives if o]
    if len(picked) != len(set(picked)):
        raise bad_field("facts.objectives", "each secret objective card is drawn by one player only")
    cards_played, gambler_cards = tuple(facts_in.cards_played), facts_in.gambler_cards
    if req.cards is not None:  # the cards entered by name decide (A1-5's setup card counts for nothing)
        game = rt.Game(state=ctx.state, cards=tuple(rt.Card(seat=c.seat, deck=c.deck, name=c.name, played=c.played,
                                                            setup=c.setup) for c in req.cards))
        cards_played, gambler_cards = tuple(game.cards_played(seats)), game.gambler_cards_played()
    facts = ObjectiveFacts(
        cooperative=facts_in.cooperative, objectives=tuple(facts_in.objectives), cards_played=cards_played,
        spy_correct=tuple(facts_in.spy_correct), gambler_cards=gambler_cards,
        revolution_over=facts_in.revolution_over, max_junked=facts_in.max_junked,
        log=tuple((e.round, e.player, e.turn or "", e.junked, e.office) for e in log),
        office_track=tuple(req.office_track) if req.office_track is not None else None)
    result = check_objectives(ctx.state, ctx.players, facts, DATA)
    out = result.as_json(ctx.names)
    # each check also links the readings it relies on (what a Scrapper turn is, which cards count, ...)
    checks = out["checks"] + [c for row in out["seat_checks"] for c in row] + [s["check"] for s in out["seats"]
                                                                                  if "check" in s]
    for c in checks:
        c["rules"] = with_reading_entries(c["rules"], [], *OBJECTIVE_READINGS.get(c["objective"], ()))
    out["rules"] = with_reading_entries(out["rules"], out["readings"])
    return out


def defaults_json() -> dict:
    return gamedata.defaults_json()


def readings_json() -> dict:
    return {"readings": READINGS}


# ---- routes ---------------------------------------------------------------------------------------

@bp.post("/api/robotariat/npc-turn")
def api_npc_turn():
    return npc_turn_json(json_body())


@bp.post("/api/robotariat/suggest")
def api_suggest():
    return suggest_json(json_body())


@bp.post("/api/robotariat/game-forecast")
def api_game_forecast():
    return game_forecast_json(json_body())


@bp.post("/api/robotariat/round-start")
def api_round_start():
    return round_start_json(json_body())


@bp.post("/api/robotariat/lookahead")
def api_lookahead():
    return lookahead_json(json_body())


@bp.post("/api/robotariat/objectives")
def api_objectives():
    return objectives_json(json_body())


@bp.post("/api/robotariat/board/validate")
def api_validate_board():
    return validate_board_json(json_body())


@bp.get("/api/robotariat/defaults")
def api_defaults():
    return defaults_json()


@bp.get("/api/robotariat/readings")
def api_readings():
    return readings_json()
