"""The Raising Robots JSON API (contract: /work/shared/design/api.md): each endpoint reads its body with
the state's own models (`schemas.parse_body`: strict, a 400 names the field) and answers with answers.py."""
from __future__ import annotations

from flask import Blueprint, jsonify

from solvers.raising_robots import activations as act

from ..api import parse
from . import answers
from . import energy as energy_answer
from .requests import (
    ChainIn,
    DeckIn,
    KeptPlanIn,
    OddsIn,
    PlanIn,
    RecordIn,
    RoundEndIn,
    RoundIn,
    SetupIn,
)
from .schemas import Compare, Player, parse_body

bp = Blueprint("rr_api", __name__, url_prefix="/api/raising-robots")


@bp.post("/competitions/plan")
def plan():
    return jsonify(answers.plan_json(answers.run_plan(parse(PlanIn, parser=parse_body))))


@bp.post("/competitions/kept")
def kept():
    return jsonify(answers.run_kept(parse(KeptPlanIn, parser=parse_body)))


@bp.post("/competitions/setup")
def setup():
    return jsonify(answers.setup_json(answers.run_setup(parse(SetupIn, parser=parse_body))))


@bp.post("/competitions/round")
def round_end_of_competitions():
    return jsonify(answers.run_round(parse(RoundIn, parser=parse_body)))


@bp.post("/score")
def score():
    player = parse(Player, parser=parse_body)
    return jsonify(answers.score_json(*answers.score_player(player), player))


@bp.post("/score/compare")
def compare():
    return jsonify(answers.compare(parse(Compare, parser=parse_body)))


@bp.post("/energy")
def round_energy():
    return jsonify(energy_answer.answer(parse(energy_answer.EnergyIn, parser=parse_body)))


@bp.post("/round-end")
def round_end():
    return jsonify(answers.round_end(parse(RoundEndIn, parser=parse_body)))


@bp.post("/search/odds")
def search_odds():
    return jsonify(answers.odds_json(answers.search_odds_answer(parse(OddsIn, parser=parse_body))))


@bp.post("/search/best")
def search_best():
    return jsonify(answers.best_json(answers.search_best_answer(parse(DeckIn, parser=parse_body))))


@bp.post("/search/record")
def search_record():
    return jsonify(answers.record(parse(RecordIn, parser=parse_body)))


@bp.post("/activations/check")
def activations_check():
    return jsonify(answers.chain_json(answers.check_chain(parse(ChainIn, parser=parse_body))))


@bp.get("/activations/example")
def activations_example():
    """The rulebook's Finite Loops Example (and the variant it forbids) as request bodies, checked."""
    good, bad = act.FINITE_LOOPS_EXAMPLE, act.finite_loops_variant()
    return jsonify({"example": good, "check": answers.chain_json(answers.check_chain(ChainIn.model_validate(good))),
                    "variant": bad, "variant_check": answers.chain_json(answers.check_chain(ChainIn.model_validate(bad)))})
