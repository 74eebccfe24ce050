"""The Raising Robots JSON API (contract: /work/shared/design/api.md): each endpoint parses its body
strictly (bodies.py; a 400 names the field) and answers with answers.py, as the pages do."""
from __future__ import annotations

from flask import Blueprint, jsonify

from solvers.raising_robots import activations as act

from ..api import parse
from . import answers
from . import energy as energy_answer
from .bodies import (
    ChainIn,
    CompareIn,
    DeckIn,
    KeptPlanIn,
    OddsIn,
    PlanIn,
    RecordIn,
    RoundEndIn,
    RoundIn,
    ScorePlayerIn,
    SetupIn,
)

bp = Blueprint("rr_api", __name__, url_prefix="/api/raising-robots")


@bp.post("/competitions/plan")
def plan():
    return jsonify(answers.run_plan(parse(PlanIn)))


@bp.post("/competitions/kept")
def kept():
    return jsonify(answers.run_kept(parse(KeptPlanIn)))


@bp.post("/competitions/setup")
def setup():
    return jsonify(answers.run_setup(parse(SetupIn)))


@bp.post("/competitions/round")
def round_end_of_competitions():
    return jsonify(answers.run_round(parse(RoundIn)))


@bp.post("/score")
def score():
    player = parse(ScorePlayerIn)
    return jsonify(answers.with_abilities(answers.score_json(*answers.score_player(player)), player))


@bp.post("/score/compare")
def compare():
    return jsonify(answers.compare(parse(CompareIn)))


@bp.post("/energy")
def round_energy():
    return jsonify(energy_answer.answer(parse(energy_answer.EnergyIn)))


@bp.post("/round-end")
def round_end():
    return jsonify(answers.round_end(parse(RoundEndIn)))


@bp.post("/search/odds")
def search_odds():
    return jsonify(answers.search_odds_answer(parse(OddsIn)))


@bp.post("/search/best")
def search_best():
    return jsonify(answers.search_best_answer(parse(DeckIn)))


@bp.post("/search/record")
def search_record():
    return jsonify(answers.record(parse(RecordIn)))


@bp.post("/activations/check")
def activations_check():
    return jsonify(answers.check_chain(parse(ChainIn)))


@bp.get("/activations/example")
def activations_example():
    """The rulebook's Finite Loops Example (and the variant it forbids) as request bodies, checked."""
    good, bad = act.FINITE_LOOPS_EXAMPLE, act.finite_loops_variant()
    return jsonify({"example": good, "check": answers.check_chain(ChainIn.model_validate(good)),
                    "variant": bad, "variant_check": answers.check_chain(ChainIn.model_validate(bad))})
