"""Raising Robots round-end abilities (solver). Rulebook sections: "Friends Inventor Explanations"
(Johannes, Charlotte, Sacagawea, incl. the Johannes example), "Friendships" (the player orders
round-end abilities), "Friendship Ability Clarifications" (Temple, Confucius, Johannes)."""
from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.raising_robots.model import Inventory, Robot
from solvers.raising_robots.round_end import Ability, RoundEndInputError, run


def grid(cols: int) -> list[Robot]:
    return [Robot(row=row, column=c, vp=3) for c in range(1, cols + 1) for row in ("design", "fabricate", "recycle")]


# ---- Johannes ----------------------------------------------------------------------------------

def test_johannes_rulebook_example():
    """Johannes example: 10 batteries, 7 microchips, 5 sensors -> +1 battery, +1 microchip, +1 sensor,
    then (upgraded) +2 VP for the 11 batteries and 8 microchips."""
    r = run(Inventory(battery=10, microchip=7, sensor=5), [], [Ability("johannes", upgraded=True)])
    assert [(s.part, s.gained) for s in r.steps] == [
        ("base", {"sensor": 1, "microchip": 1, "battery": 1}),
        ("upgrade", {"vp": 2}),
    ]
    assert r.inventory_after == Inventory(battery=11, microchip=8, sensor=6, vp=2)
    assert r.steps[0].rule == "rr-johannes-complexity-medium"


def test_johannes_upgraded_part_first_gains_less_and_says_so():
    """Friendships: the player orders round-end abilities; putting Johannes's upgraded part first
    (only 10 batteries are at 8+) gives 1 VP, and Tablebot points to the better order."""
    r = run(Inventory(battery=10, microchip=7, sensor=5), [],
            [Ability("johannes", upgraded=True, part="upgrade"), Ability("johannes", upgraded=True, part="base")])
    assert [s.gained for s in r.steps] == [{"vp": 1}, {"sensor": 1, "microchip": 1, "battery": 1}]
    assert any("+1 vp more" in n for n in r.notes)


def test_johannes_counts_duct_tape_not_robot_cards_or_vp():
    """Johannes: the six types are batteries, duct tape, gears, sensors, microchips, programs."""
    r = run(Inventory(duct_tape=5, robot_cards=9, vp=9, program=4), [], [Ability("johannes")])
    assert r.steps[0].gained == {"duct_tape": 1}


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=8, max_size=8))
def test_johannes_against_direct_count(counts):
    """Property (Johannes): base +1 per type at 5+; upgraded then +1 VP per type at 8+ after the +1s."""
    inv = Inventory(*counts)
    r = run(inv, [], [Ability("johannes", upgraded=True)])
    types = ("battery", "duct_tape", "gear", "sensor", "microchip", "program")
    plus = {t: inv.get(t) + (inv.get(t) >= 5) for t in types}
    assert all(r.inventory_after.get(t) == plus[t] for t in types)
    assert r.inventory_after.vp == inv.vp + sum(v >= 8 for v in plus.values())


# ---- Charlotte -----------------------------------------------------------------------------------

def test_charlotte_unlock_for_two_wilds_and_upgraded_gain():
    """Charlotte: 2 wilds unlock an upgrade token; upgraded, also 1 wild and 1 VP."""
    ab = Ability("charlotte", upgraded=True, action="unlock", pay_wilds={"gear": 1, "robot_cards": 1},
                 gain_wild="program")
    r = run(Inventory(gear=1, robot_cards=1), [], [ab])
    assert [s.gained for s in r.steps] == [{"gear": -1, "robot_cards": -1}, {"program": 1, "vp": 1}]
    assert r.tokens_unlocked == 1
    assert r.inventory_after == Inventory(program=1, vp=1)


def test_charlotte_duct_tape_cannot_pay_a_wild():
    """Resources (S1): duct tape is never spent as a wild."""
    with pytest.raises(RoundEndInputError) as e:
        run(Inventory(duct_tape=5), [], [Ability("charlotte", action="unlock", pay_wilds={"duct_tape": 2})])
    assert e.value.path == "abilities[0].pay_wilds.duct_tape"


def test_charlotte_needs_exactly_two_wilds():
    with pytest.raises(RoundEndInputError) as e:
        run(Inventory(gear=5), [], [Ability("charlotte", action="unlock", pay_wilds={"gear": 3})])
    assert e.value.path == "abilities[0].pay_wilds"


def test_charlotte_cannot_pay_wilds_she_lacks():
    with pytest.raises(RoundEndInputError) as e:
        run(Inventory(gear=1), [], [Ability("charlotte", action="unlock", pay_wilds={"gear": 2})])
    assert e.value.path == "abilities[0].pay_wilds.gear"


def test_charlotte_assembles_at_the_cheaper_cost_into_the_leftmost_slot():
    """Charlotte: the cheaper Assembly Cost is the column with fewest resources (here 2 of [3, 2]),
    plus the slot's extra cost; the robot card leaves the hand for the leftmost free slot."""
    robot = Robot(row="fabricate", cost_energy=(2, 4), cost_resources=(3, 2), vp=5)
    ab = Ability("charlotte", action="assemble", pay_wilds={"sensor": 2}, robot=robot,
                 payment={"gear": 1, "duct_tape": 1, "program": 1}, extra_cost=1)
    start = Inventory(sensor=2, gear=1, duct_tape=1, program=1, robot_cards=1)
    r = run(start, [Robot(row="fabricate", column=1)], [ab])
    assert r.inventory_after == Inventory()
    assert r.steps[0].robot_added.column == 2
    assert len(r.robots_after) == 2


def test_charlotte_assembly_payment_must_match_the_cheaper_cost():
    robot = Robot(row="design", cost_resources=(3, 2))
    ab = Ability("charlotte", action="assemble", pay_wilds={"sensor": 2}, robot=robot, payment={"gear": 3})
    with pytest.raises(RoundEndInputError) as e:
        run(Inventory(sensor=2, gear=3, robot_cards=1), [], [ab])
    assert e.value.path == "abilities[0].payment"


def test_charlotte_assembly_into_a_full_row_is_refused():
    robot = Robot(row="design", cost_resources=(0,))
    ab = Ability("charlotte", action="assemble", pay_wilds={"sensor": 2}, robot=robot)
    with pytest.raises(RoundEndInputError) as e:
        run(Inventory(sensor=2, robot_cards=1), [Robot(row="design", column=c) for c in range(1, 6)], [ab])
    assert e.value.path == "abilities[0].robot.row"


def test_robot_cards_pay_like_duct_tape_only_with_sacagawea():
    """Sacagawea (ongoing): robot cards act as duct tape, so they may pay a robot's resource cost;
    without her they may not (a robot card is a wild, never a coloured resource)."""
    robot = Robot(row="design", cost_resources=(1,))
    ab = Ability("charlotte", action="assemble", pay_wilds={"sensor": 2}, robot=robot, payment={"robot_cards": 1})
    start = Inventory(sensor=2, robot_cards=2)
    with pytest.raises(RoundEndInputError) as e:
        run(start, [], [ab])
    assert e.value.path == "abilities[0].payment.robot_cards"
    r = run(start, [], [ab], sacagawea_ongoing=True)
    assert r.inventory_after == Inventory()


def test_robot_cards_may_pay_the_slot_extra_cost():
    """Setup/Assemble (S1): the slot's extra cost may be paid with robot cards from hand."""
    robot = Robot(row="design", cost_resources=(1, 2))
    ab = Ability("charlotte", action="assemble", pay_wilds={"sensor": 2}, robot=robot,
                 payment={"gear": 1, "robot_cards": 1}, extra_cost=1)
    r = run(Inventory(sensor=2, gear=1, robot_cards=2), [Robot(row="design", column=1)], [ab])
    assert r.inventory_after == Inventory()
    assert r.steps[0].robot_added.column == 2


# ---- Sacagawea -----------------------------------------------------------------------------------

def test_sacagawea_search_and_upgraded_vp():
    """Sacagawea: a Search at round end (one card to hand, odds on the Search page); upgraded: 2 VP."""
    r = run(Inventory(), [], [Ability("sacagawea", upgraded=True, reward="vp")])
    assert [s.gained for s in r.steps] == [{"robot_cards": 1}, {"vp": 2}]
    assert r.steps[0].link == "/raising-robots/search"


def test_sacagawea_upgraded_battery_and_card_without_search():
    """Sacagawea: the Search is optional; the upgraded part can be 1 battery and 1 robot card."""
    r = run(Inventory(), [], [Ability("sacagawea", upgraded=True, search=False, reward="battery_and_card")])
    assert [s.gained for s in r.steps] == [{}, {"battery": 1, "robot_cards": 1}]


def test_sacagawea_upgraded_needs_a_reward_choice():
    with pytest.raises(RoundEndInputError) as e:
        run(Inventory(), [], [Ability("sacagawea", upgraded=True)])
    assert e.value.path == "abilities[0].reward"


# ---- Friendships ---------------------------------------------------------------------------------

def test_temple_friendship_two_vp_per_full_column():
    """Friendship Ability Clarifications, Temple: 2 VP per completely filled column at round end."""
    r = run(Inventory(), grid(2) + [Robot(row="design", column=3)], [Ability("temple_friendship")])
    assert r.steps[0].gained == {"vp": 4}


def test_temple_after_charlotte_counts_the_new_column_and_order_is_suggested():
    """Friendships: the order is the player's. Charlotte fills column 2 first, so Temple then counts
    2 columns; in the other order Tablebot says the better order gains 2 VP more."""
    robots = grid(1) + [Robot(row="design", column=2), Robot(row="fabricate", column=2)]
    charlotte = Ability("charlotte", action="assemble", pay_wilds={"gear": 2},
                        robot=Robot(row="recycle", cost_resources=(0,)))
    start = Inventory(gear=2, robot_cards=1)
    good = run(start, robots, [charlotte, Ability("temple_friendship")])
    assert good.steps[1].gained == {"vp": 4}
    bad = run(start, robots, [Ability("temple_friendship"), charlotte])
    assert bad.steps[0].gained == {"vp": 2}
    assert any("Charlotte → Temple" in n and "+2 vp more" in n for n in bad.notes)


def test_confucius_friendship_rulebook_example():
    """Friendship Ability Clarifications, Confucius: 3 robots, chosen per robot, can give 2 wilds
    and 2 batteries."""
    r = run(Inventory(), grid(1), [Ability("confucius_friendship", per_robot=("gear", "robot_cards", "batteries"))])
    assert r.steps[0].gained == {"gear": 1, "battery": 2, "robot_cards": 1}


def test_confucius_needs_one_choice_per_robot():
    with pytest.raises(RoundEndInputError) as e:
        run(Inventory(), grid(1), [Ability("confucius_friendship", per_robot=("gear",))])
    assert e.value.path == "abilities[0].per_robot"


def test_confucius_choice_must_be_a_wild_or_batteries():
    """Wild (S1): duct tape is not a wild."""
    with pytest.raises(RoundEndInputError) as e:
        run(Inventory(), [Robot(row="design")], [Ability("confucius_friendship", per_robot=("duct_tape",))])
    assert e.value.path == "abilities[0].per_robot[0]"


def test_johannes_friendship_gain():
    """Friendship Ability Clarifications, Johannes: when gained, 1 each of sensor, gear, microchip,
    program, battery, duct tape and VP."""
    r = run(Inventory(), [], [Ability("johannes_friendship")])
    assert r.inventory_after == Inventory(1, 1, 1, 1, 1, 1, 1, 0)


def test_friendship_cannot_be_upgraded():
    with pytest.raises(RoundEndInputError) as e:
        run(Inventory(), [], [Ability("temple_friendship", upgraded=True)])
    assert e.value.path == "abilities[0].upgraded"


def test_unknown_ability_names_the_field():
    with pytest.raises(RoundEndInputError) as e:
        run(Inventory(), [], [Ability("johannes"), Ability("ada")])
    assert e.value.path == "abilities[1].id"


def test_johannes_friendship_then_johannes_round_end_order_matters():
    """Friendships: gaining Johannes's Friendship (+1 of each) before his round-end ability can lift
    4s to 5s; the steps show each gain in the order set."""
    r = run(Inventory(gear=4, battery=4), [], [Ability("johannes_friendship"), Ability("johannes")])
    assert r.steps[1].gained == {"battery": 1, "gear": 1}
    r2 = run(Inventory(gear=4, battery=4), [], [Ability("johannes"), Ability("johannes_friendship")])
    assert r2.steps[0].gained == {}
    assert r2.notes


def _brute_best_gain(inv, robots, abilities):
    from itertools import permutations

    from solvers.raising_robots.round_end import Seat, _apply, _parts

    order = [(i, ab, part) for i, ab in enumerate(abilities) for part in _parts(ab, i)]
    base, _, _ = _apply(inv, robots, order, Seat())
    best = 0
    for perm in permutations(order):
        try:
            got, _, _ = _apply(inv, robots, perm, Seat())
        except RoundEndInputError:
            continue
        g, b = got.as_dict(), base.as_dict()
        if all(g[k] >= b[k] for k in b) and g != b:
            best = max(best, sum(g[k] - b[k] for k in b))
    return best


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(3, 9), min_size=8, max_size=8), st.permutations(range(3)))
def test_better_order_against_all_permutations(counts, shuffle):
    """Property (Friendships: the player orders round-end abilities): the suggested order gains exactly
    as much as the best order found by trying every permutation, and none is suggested when none helps."""
    abilities = [Ability("johannes", upgraded=True),
                 Ability("charlotte", upgraded=True, action="unlock", pay_wilds={"gear": 2}, gain_wild="gear"),
                 Ability("johannes_friendship")]
    abilities = [abilities[i] for i in shuffle]
    inv = Inventory(*counts)
    try:
        r = run(inv, [], abilities, sacagawea_ongoing=False)
    except RoundEndInputError:
        return
    best = _brute_best_gain(inv, [], abilities)
    notes = [n for n in r.notes if n.startswith("The order")]
    if best == 0:
        assert notes == []
    else:
        gained = sum(int(x) for x in re.findall(r"\+(\d+) ", notes[0]))
        assert gained == best


def test_yo_yo_pays_for_a_charlotte_unlock_friendship_example():
    """Friendship Example (step C): with Yo-Yo, unlocking an Upgrade Token gives 1 Battery and 2 VP. At
    round end Charlotte's unlock (2 wilds) is such an unlock; without Yo-Yo it gives nothing more."""
    from solvers.raising_robots.round_end import Seat

    unlock = [Ability("charlotte", action="unlock", pay_wilds={"gear": 2})]
    plain = run(Inventory(gear=2), [], unlock)
    assert plain.inventory_after == Inventory()
    yo = run(Inventory(gear=2), [], unlock, seat=Seat(yo_yo=True))
    assert yo.inventory_after == Inventory(battery=1, vp=2)
    assert [s.ability for s in yo.steps] == ["charlotte", "yo_yo"] and yo.steps[1].gained == {"battery": 1, "vp": 2}
    assert "rr-friendship-example" in yo.steps[1].rules
    assemble = [Ability("charlotte", action="assemble", pay_wilds={"gear": 2}, robot=Robot("design", cost_resources=(1,)),
                        payment={"sensor": 1})]
    assert [s.ability for s in run(Inventory(gear=2, sensor=1, robot_cards=1), [], assemble,
                                   seat=Seat(yo_yo=True)).steps] == ["charlotte"]  # an assembly is no unlock


def test_confucius_scroll_board_pays_for_a_charlotte_assembly():
    """Friends Inventor Explanations, Confucius (ongoing: an assembly or unlock meeting a Scroll Board objective
    gives 1 Wild or 2 Batteries, each objective once; completing a row or column gives 1 Battery and 1 Duct
    Tape or 2 VP). The objectives are not printed in the rulebook: the player names the one met."""
    from solvers.raising_robots.round_end import Seat

    seat = Seat(confucius=True, scroll_objectives=("3 robots in Design", "an unlock"), scroll_done=("an unlock",))
    ab = Ability("charlotte", action="assemble", pay_wilds={"gear": 2}, robot=Robot("design", cost_resources=(1,)),
                 payment={"sensor": 1}, scroll_objective="3 robots in Design", scroll_gain="batteries",
                 scroll_line="vp")
    r = run(Inventory(gear=2, sensor=1, robot_cards=1), [], [ab], seat=seat)
    assert [s.ability for s in r.steps] == ["charlotte", "confucius_scroll"]
    assert r.steps[1].gained == {"battery": 2, "vp": 2}
    wild = replace(ab, scroll_gain="program", scroll_line="battery_and_duct_tape")
    assert run(Inventory(gear=2, sensor=1, robot_cards=1), [], [wild], seat=seat).steps[1].gained == {
        "program": 1, "battery": 1, "duct_tape": 1}
    for bad, path in ((replace(ab, scroll_objective="an unlock"), "abilities[0].scroll_objective"),
                      (replace(ab, scroll_objective="nope"), "abilities[0].scroll_objective"),
                      (replace(ab, scroll_gain="duct_tape"), "abilities[0].scroll_gain")):
        with pytest.raises(RoundEndInputError) as err:
            run(Inventory(gear=2, sensor=1, robot_cards=1), [], [bad], seat=seat)
        assert err.value.path == path
    with pytest.raises(RoundEndInputError) as err:  # only Confucius has the board
        run(Inventory(gear=2, sensor=1, robot_cards=1), [], [ab], seat=Seat())
    assert err.value.path == "abilities[0].scroll_objective"


def test_sacagawea_as_the_seat_lets_robot_cards_pay_a_charlotte_assembly():
    """Sacagawea (ongoing: Robot Cards act as Duct Tape): when she is the seat's inventor, her Robot Cards pay
    the robot's own cost without her round-end ability being listed."""
    from solvers.raising_robots.round_end import Seat

    ab = Ability("charlotte", action="assemble", pay_wilds={"gear": 2}, robot=Robot("design", cost_resources=(2,)),
                 payment={"robot_cards": 2})
    with pytest.raises(RoundEndInputError):
        run(Inventory(gear=2, robot_cards=3), [], [ab])
    r = run(Inventory(gear=2, robot_cards=3), [], [ab], seat=Seat(sacagawea=True))
    assert r.inventory_after.robot_cards == 0
