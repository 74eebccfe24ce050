"""What each game keeps in a seat's private state, and the counts of it the rules make public.

Two Robots: the hand, a draw being entered and the energies entered last (the rulebook's Clarifications
make only the number of cards in hand public). Robotariat: Electric Eye's look at the top two Sabotage
cards and A1-5's Upgrade card from setup (the secret objective stays in its phone's browser). Raising
Robots keeps nothing on the server yet, so its private state is any small object.
"""
from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from ..api import validation_error
from ..web.stored import lenient


def _model(game: str):
    if game == "two-robots":
        from ..two_robots.schemas import SeatPrivate
        return SeatPrivate
    if game == "robotariat":
        from ..robotariat.schemas import SeatPrivate as RobotariatPrivate
        return RobotariatPrivate
    return None


def read(game: str, raw: dict[str, Any]) -> dict[str, Any]:
    """A stored private state as its game's model reads it (leniently: a broken part drops out)."""
    model = _model(game)
    return lenient(model, raw).model_dump(mode="json") if model is not None else raw


def check(game: str, state: dict[str, Any]) -> dict[str, Any]:
    """A private state sent by its holder, strictly: a 400 names the field."""
    model = _model(game)
    if model is None:
        return state
    try:
        return model.model_validate(state).model_dump(mode="json")
    except ValidationError as err:
        raise validation_error(err, "state") from None


def with_public_counts(game: str, state: dict[str, Any], seat: int, private: dict[str, Any]) -> dict[str, Any]:
    """The public state with what the rules make public of a seat's private state (a hand's size)."""
    if game != "two-robots":
        return state
    from solvers.two_robots.table import count_hands

    part = state.get("two_robots")
    if part is None:
        part = state["two_robots"] = {}
    players = part.setdefault("players", []) if isinstance(part, dict) else None
    # a stored seat of the wrong shape is left as it is (pages read it leniently)
    if isinstance(players, list) and (seat >= len(players) or isinstance(players[seat], dict)):
        count_hands(part, {seat: private})
    return state
