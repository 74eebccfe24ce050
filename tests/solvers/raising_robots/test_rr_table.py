"""The table reducer (solvers/raising_robots/table.py): each case is a rule of the Friends rulebook,
named in its docstring."""
from __future__ import annotations

import copy

import pytest

from solvers.errors import InputError
from solvers.raising_robots import table

SIDES_A = {"engineering_expo": "A", "mech_masters": "A", "think_tank": "A", "robo_race": "A"}


def seat(**kw) -> dict:
    return {"inventory": {"gear": 3}, "tokens": {"unplaced": {"pink": 1}, "placed": {}}, "friendship_count": 0,
            "friendships": ["", ""], "completed": {}, "competitions_completed": 2, **kw}


def part(seats=None, **comps) -> dict:
    return {"seats": seats or [seat()], "competitions": {"sides": dict(SIDES_A), "tracker": [],
                                                         "completed_this_round": [], "completed_round": None,
                                                         **comps}}


def test_keep_friendship_names_the_card_and_counts_it():
    """Friendships: a card kept goes beside the inventor card (the seat holds one more)."""
    before = part([seat(friendships=["Temple", ""], friendship_count=1)])
    after = table.keep_friendship(before, 0, " Yo-Yo ")
    assert after["seats"][0]["friendships"] == ["Temple", "Yo-Yo"]
    assert after["seats"][0]["friendship_count"] == 2
    assert before["seats"][0]["friendships"] == ["Temple", ""]  # pure: the input is unchanged


@pytest.mark.parametrize("held", [{"friendship_count": 2}, {"friendships": ["Ada", "John"], "friendship_count": 0}])
def test_a_third_friendship_card_is_refused(held):
    """Friendships, IMPORTANT: a player holds at most 2 Friendship cards (named or only counted)."""
    with pytest.raises(InputError) as err:
        table.keep_friendship(part([seat(**held)]), 0, "Temple")
    assert err.value.path == "friendships"


def test_apply_plan_keeps_what_the_plan_left_and_marks_the_tiles():
    """How to Complete Competitions, steps 2-4 (pay, achievement token, reward) and step 5: the tile of a
    competition completed this round turns at the round's end, not now."""
    after = {"inventory": {"gear": 0, "vp": 7}, "tokens": {"unplaced": {"pink": 0}, "placed": {"pink": 1}},
             "friendships": 1, "completed": ["mech_masters"]}
    before = part()
    out = table.apply_plan(before, 0, after, ["mech_masters"], rnd=2, kept="Johannes")
    s = out["seats"][0]
    assert s["inventory"] == {"gear": 0, "vp": 7} and s["tokens"]["placed"] == {"pink": 1}
    assert s["friendships"] == ["Johannes", ""] and s["friendship_count"] == 1
    assert s["completed"]["mech_masters"] and not s["completed"]["think_tank"]
    assert s["competitions_completed"] is None
    assert out["competitions"]["completed_this_round"] == ["mech_masters"]
    assert out["competitions"]["completed_round"] == 2
    assert out["competitions"]["sides"]["mech_masters"] == "A"  # not yet: at the round's end
    assert before == part()


def test_apply_plan_never_names_a_card_twice():
    """Friendships: each Friendship card is one card beside the inventor card. Kept on the Friendship page
    first (the seat names it, holds 1), then "I kept yo yo" on the planner (whose plan counts the keep again):
    the seat still names it once and holds 1; another card kept the same way is added."""
    after = {"inventory": {"gear": 0}, "tokens": {"unplaced": {}, "placed": {}}, "friendships": 2,
             "completed": ["mech_masters"]}
    before = part([seat(friendships=["Yo-Yo", ""], friendship_count=1)])
    s = table.apply_plan(before, 0, after, ["mech_masters"], rnd=1, kept="yo yo")["seats"][0]
    assert s["friendships"] == ["Yo-Yo", ""] and s["friendship_count"] == 1
    s = table.apply_plan(before, 0, after, ["mech_masters"], rnd=1, kept="Temple")["seats"][0]
    assert s["friendships"] == ["Yo-Yo", "Temple"] and s["friendship_count"] == 2


def test_apply_plan_without_a_kept_card_counts_the_cards_drawn():
    """Competition Example: a reward that draws Friendship cards; the seat counts the one kept even when
    its name is not given."""
    after = {"inventory": {}, "tokens": {"unplaced": {}, "placed": {}}, "friendships": 1, "completed": ["think_tank"]}
    out = table.apply_plan(part(), 0, after, ["think_tank"], rnd=1)
    assert out["seats"][0]["friendship_count"] == 1 and out["seats"][0]["friendships"] == ["", ""]


def test_end_round_turns_the_tiles_completed_this_round():
    """How to Complete Competitions, step 5: at the end of the round, every tile whose card has an
    achievement token turns to its B side; the round marker moves on."""
    before = part(completed_this_round=["robo_race"], completed_round=3)
    done = table.end_round(before, 3)
    assert done.round == 4
    assert done.part["competitions"]["sides"]["robo_race"] == "B"
    assert done.part["competitions"]["completed_this_round"] == []
    assert [(e["type"], e["flipped"]) for e in done.events] == [("robo_race", True)]
    assert before["competitions"]["sides"]["robo_race"] == "A"


def test_end_round_reaching_a_spare_token_turns_its_tile():
    """Solo / 2P Gameplay Changes: when the round marker moves onto a space with an upgrade token, the
    token is removed and the matching tile turns to B (if it was not already)."""
    tracker = [{"round": 5, "token_type": "pink"}, {"round": 7, "token_type": "orange"}]
    done = table.end_round(part(tracker=tracker), 4)
    comps = done.part["competitions"]
    assert done.round == 5 and comps["tracker"] == [{"round": 7, "token_type": "orange"}]
    flipped = [e["type"] for e in done.events if e["flipped"]]
    assert len(flipped) == 1 and comps["sides"][flipped[0]] == "B"
    # already on B: the token goes, nothing turns
    again = table.end_round(part(tracker=tracker[:1], sides={**SIDES_A, flipped[0]: "B"}), 4)
    assert [e["flipped"] for e in again.events] == [False] and again.part["competitions"]["tracker"] == []


def test_end_round_refuses_a_tracker_with_a_type_twice():
    """Solo / 2P Gameplay Changes: one spare token of each upgrade type is placed."""
    tracker = [{"round": 5, "token_type": "pink"}, {"round": 7, "token_type": "pink"}]
    with pytest.raises(InputError):
        table.end_round(part(tracker=tracker), 4)


def test_catch_up_makes_the_flips_a_round_passed_once():
    """How to Complete Competitions, step 5, and Solo / 2P Gameplay Changes: a table whose round moved on
    elsewhere (round 2 -> 6) gets the flips of every round end it passed, in order, and only once."""
    before = part(completed_this_round=["think_tank"], completed_round=2,
                  tracker=[{"round": 5, "token_type": "pink"}, {"round": 7, "token_type": "orange"}])
    done = table.catch_up(copy.deepcopy(before), 6)
    comps = done.part["competitions"]
    assert comps["sides"]["think_tank"] == "B" and comps["completed_this_round"] == []
    assert comps["tracker"] == [{"round": 7, "token_type": "orange"}]
    assert done.events[0]["type"] == "think_tank" and len(done.events) == 2
    assert table.catch_up(done.part, 6).events == []  # nothing more is due
    assert table.catch_up(before, 2).events == []  # the round it was completed in: not yet


def prepped(battery: int, **spent) -> dict:
    return part([seat(inventory={"battery": battery}, prep={"round": 3, "spent": spent})])


def test_spent_batteries_leave_the_inventory_once():
    """Player aid, Round Phases, Total Energy: +1 per battery spent on the phase. Spending them takes them
    off the inventory; the same phase's spending asked again (a second tap, another phone) takes nothing
    more, and raising it takes only the difference."""
    before = prepped(5)
    after = table.spend_batteries(before, 0, 3, "design", 2)
    assert after["seats"][0]["inventory"]["battery"] == 3 and after["seats"][0]["prep"]["spent"] == {"design": 2}
    assert before["seats"][0]["inventory"]["battery"] == 5  # pure
    again = table.spend_batteries(after, 0, 3, "design", 2)
    assert again["seats"][0]["inventory"]["battery"] == 3
    more = table.spend_batteries(again, 0, 3, "design", 3)
    assert more["seats"][0]["inventory"]["battery"] == 2 and more["seats"][0]["prep"]["spent"] == {"design": 3}
    recycle = table.spend_batteries(more, 0, 3, "recycle", 2)
    assert recycle["seats"][0]["inventory"]["battery"] == 0


def test_spending_more_batteries_than_held_is_refused_naming_the_phase():
    """Player aid, Total Energy: the total is fixed when the phase starts, and a battery gained during a phase
    works only in later phases: only the batteries held when the phase starts pay, never below 0."""
    with pytest.raises(InputError) as err:
        table.spend_batteries(prepped(1), 0, 3, "fabricate", 2)
    assert err.value.path == "batteries.fabricate" and "1 in the inventory" in err.value.message
    # a battery gained in Design (an earlier phase) is in the inventory by the time Fabricate starts: it pays
    gained = prepped(1, design=1)
    gained["seats"][0]["inventory"]["battery"] += 1
    assert table.spend_batteries(gained, 0, 3, "fabricate", 2)["seats"][0]["inventory"]["battery"] == 0


def test_spending_needs_the_rounds_preparation():
    """Round Preparation comes before the phases: a seat whose cards are for another round spends nothing."""
    with pytest.raises(InputError) as err:
        table.spend_batteries(prepped(4), 0, 4, "design", 1)
    assert err.value.path == "round"
    with pytest.raises(InputError):
        table.spend_batteries(prepped(4), 0, 3, "dance", 1)
