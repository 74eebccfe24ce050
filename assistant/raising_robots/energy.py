"""The round's energy as the API takes it (`POST /api/raising-robots/energy`, contract: api.md "Additions of
round 3") and as it answers: the request's cards are the table state's energy cards (schemas.EnergyCardEntry)
with every field required and strict; the answer is built from the solver's result at this edge only."""
from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from solvers.raising_robots import energy
from solvers.raising_robots.abilities import not_taken_note

from .answers import taken_json
from .schemas import EnergyCardEntry, PhaseName, SeatWho

Hi = {"board_cubes": energy.MAX_BOARD_CUBES, "batteries": energy.MAX_BATTERIES, "bonuses": energy.MAX_BONUS}


class EnergyCardIn(EnergyCardEntry):
    """An energy card in a request: the stored card's fields, each given."""
    model_config = ConfigDict(extra="forbid")
    phase: PhaseName  # type: ignore[assignment]
    energy: Annotated[StrictInt, Field(ge=0, le=energy.MAX_CARD_ENERGY)]  # type: ignore[assignment]
    cubes: Annotated[StrictInt, Field(ge=0, le=energy.MAX_CARD_CUBES)] = 0
    multiplier: StrictBool = False
    twice: StrictBool = False


def _counts(hi: int) -> type[BaseModel]:
    count = Annotated[StrictInt, Field(ge=0, le=hi)]
    return type(f"PhaseCounts{hi}", (BaseModel,), {
        "__annotations__": dict.fromkeys(energy.PHASES, count), "model_config": ConfigDict(extra="forbid"),
        **dict.fromkeys(energy.PHASES, 0)})


BoardIn, BatteriesIn, BonusesIn = (_counts(Hi[k]) for k in ("board_cubes", "batteries", "bonuses"))


class EnergyIn(SeatWho):
    """The round's cards and board, and the seat's inventor and Friendship cards (the seat's own model)."""
    cards: list[EnergyCardIn] = Field(max_length=len(energy.PHASES))
    board_cubes: BoardIn = Field(default_factory=BoardIn)  # type: ignore[valid-type]
    batteries: BatteriesIn = Field(default_factory=BatteriesIn)  # type: ignore[valid-type]
    bonuses: BonusesIn = Field(default_factory=BonusesIn)  # type: ignore[valid-type]


def phase_json(p: energy.PhaseEnergy) -> dict:
    return {"phase": p.phase, "performed": p.performed, "total": p.total, "why": p.why, "times": p.times,
            "parts": {"card": p.card, "cubes": p.cubes, "cube_energy": p.cube_energy, "batteries": p.batteries,
                      "bonus": p.bonus},
            "rules": list(p.rules)}


def answer(body: EnergyIn) -> dict:
    who = body.who()
    result = energy.round_phases([c.to_solver() for c in body.cards], body.board_cubes.model_dump(),
                                 body.batteries.model_dump(), body.bonuses.model_dump(), who)
    note = not_taken_note(result.abilities, "energy answer")
    rules = list(dict.fromkeys(r for p in result.phases for r in p.rules))
    return {"phases": [phase_json(p) for p in result.phases], "performed": list(result.performed()),
            "notes": [*result.notes, *([note] if note else [])], "abilities": taken_json(result.abilities),
            "rules": [*rules, energy.RULE_ENERGY_CARDS],
            "energy_cards": {"source": "unverified", "why": "energy card values are in no public source: the "
                             "values are the ones sent"}}
