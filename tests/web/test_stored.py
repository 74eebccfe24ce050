"""Lenient reading of stored state: the valid parts are kept, the broken parts fall back to defaults."""
from __future__ import annotations

from typing import Literal

from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field

from assistant.web.stored import lenient


class Robot(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(max_length=8)
    vp: int = Field(default=0, ge=0, le=99)


class Seat(BaseModel):
    name: str = "Player"
    gear: int = Field(default=0, ge=0, le=99)
    robots: list[Robot] = Field(default_factory=list, max_length=5)
    side: Literal["A", "B"] = "A"
    extra: int | None = None


class State(BaseModel):
    seats: list[Seat] = Field(default_factory=list)
    round: int = Field(default=1, ge=1, le=8)


def test_valid_state_is_read_as_is():
    raw = {"seats": [{"name": "Ann", "gear": 3, "robots": [{"id": "a1", "vp": 4}]}], "round": 2}
    assert lenient(State, raw).model_dump()["seats"][0]["robots"] == [{"id": "a1", "vp": 4}]


def test_each_broken_part_is_dropped_and_the_rest_kept():
    raw = {"seats": [{"name": "Ann", "gear": "many", "robots": [{"id": "a1", "vp": 4}, {"vp": 2}, "x"],
                      "side": "C", "extra": {"deep": 1}},
                     7],
           "round": 99}
    s = lenient(State, raw)
    assert s.round == 1
    assert len(s.seats) == 1
    ann = s.seats[0]
    assert (ann.name, ann.gear, ann.side, ann.extra) == ("Ann", 0, "A", None)
    assert [r.id for r in ann.robots] == ["a1"]


def test_not_an_object_reads_as_the_default():
    for raw in (None, [], "x", 3, {"seats": "none"}):
        assert lenient(State, raw) == State() or lenient(State, raw).seats == []


def test_deep_nesting_does_not_crash():
    deep: object = 1
    for _ in range(5000):
        deep = [deep]
    assert lenient(State, {"seats": deep, "round": 3}).round in (1, 3)


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                               st.sampled_from(["seats", "round", "name", "gear", "robots", "id", "vp", "side",
                                                "extra", "x"]), inner, max_size=4),
                           max_leaves=30)


@given(json_values)
def test_any_json_reads_as_a_valid_model(raw):
    s = lenient(State, raw)
    assert State.model_validate(s.model_dump()) == s
