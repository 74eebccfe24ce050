"""The table action endpoints' one body parser (assistant/api.py `parse_action`): Two Robots' table actions
and Raising Robots' Friendship deck both name a bad field as the caller wrote it."""
from __future__ import annotations

from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field

from assistant.api import ApiError, parse_action


class _Draw(BaseModel):
    type: Literal["draw"]
    seat: int = Field(ge=0, lt=4)


class _Keep(BaseModel):
    type: Literal["keep"]
    card: str


class _Body(BaseModel):
    version: int
    action: Annotated[_Draw | _Keep, Field(discriminator="type")]


def _error(app, body) -> dict:
    with app.test_request_context(json=body), pytest.raises(ApiError) as err:
        parse_action(_Body, ("keep", "draw"))
    assert err.value.status == 400
    return {f["path"]: f["message"] for f in err.value.fields}


def test_a_bad_field_is_named_without_the_action_s_type(app):
    assert _error(app, {"version": 1, "action": {"type": "draw", "seat": 9}}).keys() == {"action.seat"}


def test_an_unknown_type_lists_the_types_in_the_given_order(app):
    assert _error(app, {"version": 1, "action": {"type": "fly"}}) == {"action.type": "must be one of keep, draw"}


def test_a_body_not_an_object_is_named_body(app):
    assert _error(app, [1]) == {"body": "must be an object"}


def test_a_good_body_parses(app):
    with app.test_request_context(json={"version": 2, "action": {"type": "keep", "card": "x"}}):
        assert parse_action(_Body, ("keep", "draw")).action == _Keep(type="keep", card="x")


def test_both_table_action_endpoints_use_it():
    from assistant.raising_robots import friendship
    from assistant.two_robots import api
    for module in (friendship, api):
        assert module.parse_action is parse_action
