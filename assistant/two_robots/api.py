"""The Two Robots JSON API (contract: ../shared/design/api.md "Two Robots" and its "Additions")."""
from __future__ import annotations

from flask import Blueprint

from ..api import parse
from . import answers, present
from .schemas import AttackIn, FactoryIn, OddsIn, PlanIn

bp = Blueprint("two_robots_api", __name__)


@bp.post("/api/two-robots/factory")
def factory():
    return answers.factory_result(parse(FactoryIn))


@bp.post("/api/two-robots/plan")
def plan():
    return answers.plan_result(parse(PlanIn))


@bp.post("/api/two-robots/odds")
def odds():
    return answers.odds_result(parse(OddsIn))


@bp.post("/api/two-robots/attack")
def attack():
    return answers.attack_result(parse(AttackIn))


@bp.get("/api/two-robots/data")
def data():
    return present.game_data_json()
