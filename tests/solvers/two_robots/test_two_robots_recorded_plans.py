"""The Two Robots turn planner answers exactly as recorded (data/recorded_plans.json.gz, written by
data/make_recorded_plans.py before the planner became a package): the turns its rulebook tests plan
(Turn Overview, Event Phase, Cleanup Phase, Frozen Stacks, Attack Cards, Defense Cards) and 300 seeded
mid-game tables with hands of 1 to 15. Every field of every answer is compared: steps, score, factories
after, discards, odds, summary, reasons, runner-up, ties, Event options, notes, warnings and the
number of end states explored (the search itself is unchanged, not only its result)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location(
    "make_recorded_plans", Path(__file__).resolve().parent / "data" / "make_recorded_plans.py")
recorded = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(recorded)

ROWS = recorded.load()


def test_the_record_covers_the_rulebook_tests_and_every_hand_size():
    names = [r["name"] for r in ROWS]
    assert sum(n.startswith("rulebook test ") for n in names) >= 20
    sizes = {len(r["turn"]["hand"]) for r in ROWS if r["name"].startswith("random ")}
    assert set(range(1, 16)) <= sizes
    assert {r["turn"].get("event", "none") for r in ROWS} >= {"none", "power", "active_robot"}


@pytest.mark.parametrize("chunk", range(8))
def test_planner_reproduces_every_recorded_answer(chunk):
    for row in ROWS[chunk::8]:
        turn = recorded.decode_turn(row["turn"])
        assert recorded.encode(turn) == row["turn"], row["name"]   # the position itself round-trips
        got = recorded.answer(turn)
        expected = {k: row[k] for k in ("plan", "error") if k in row}
        assert got == expected, row["name"]
