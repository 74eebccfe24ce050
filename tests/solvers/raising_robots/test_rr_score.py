"""Raising Robots end scoring (solver). Each test names the rulebook case it encodes:
Friends rulebook "Game End Ability" and "Game End Icons"; base-game end scoring and tie-breakers
(facts/raising_robots.md §6, S1); "Solo / 2P Gameplay Changes"."""
from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.raising_robots.model import Inventory, Robot
from solvers.raising_robots.scoring import (
    ClassCard,
    ScoreInputError,
    full_columns,
    place_robots,
    raise_grade,
    score,
    solo_target,
    standings,
)

VP4 = {"D": 2, "C": 4, "B": 6, "A": 9}


def bot(row="design", column=None, vp=3, chip=False, upgraded=False, game_end=None):
    return Robot(row=row, column=column, vp=vp, needs_microchip=chip, upgraded=upgraded, game_end=game_end)


def grid(columns_filled: int, extra: int = 0) -> list[Robot]:
    """Robots filling the first `columns_filled` columns in all three rows, plus `extra` more in design."""
    out = [bot(row, c) for c in range(1, columns_filled + 1) for row in ("design", "fabricate", "recycle")]
    out += [bot("design", columns_filled + 1 + k) for k in range(extra)]
    return out


def line(result, what_prefix):
    return next(ln for ln in result.lines if ln.what.startswith(what_prefix))


# ---- base game end scoring --------------------------------------------------------------------

def test_leftovers_base_game_example():
    """Base game end (S1): 2 batteries, 2 duct tape, 3 gears and 1 robot card are 8 items: 2 VP."""
    s = score(Inventory(battery=2, duct_tape=2, gear=3, robot_cards=1), [], [])
    assert s.leftovers == 2
    assert s.total == 2


def test_api_contract_example_scores_44():
    """semantics.md scoring: robot 5 + class 9 (B raised to A by Extra Credit) + inventory 23 +
    leftovers floor(13/3)=4 + gear pairs floor(7/2)=3 on an upgraded robot = 44."""
    inv = Inventory(sensor=1, gear=7, duct_tape=2, battery=2, vp=23, robot_cards=1)
    robots = [bot("design", 1, 5, chip=True, upgraded=True, game_end={"kind": "resource_pairs", "resource": "gear"})]
    cards = [ClassCard("B", VP4, extra_credit=True)]
    s = score(inv, robots, cards)
    assert (s.robots, s.class_cards, s.inventory_vp, s.leftovers, s.game_end, s.total) == (5, 9, 23, 4, 3, 44)
    assert sum(ln.vp for ln in s.lines) == s.total


# ---- Extra Credit -------------------------------------------------------------------------------

@pytest.mark.parametrize("met,ec,final", [
    ("B", True, "A"), ("A", True, "A"), ("D", True, "C"), ("none", True, "D"), ("B", False, "B"),
    ("none", False, "none"),
])
def test_extra_credit_raises_one_row(met, ec, final):
    """Class cards (S1): Extra Credit improves the grade by one row; A is the top row; no grade
    raised once is a D (Tablebot's reading)."""
    assert ClassCard(met, VP4, extra_credit=ec).final_grade() == final


def test_extra_credit_scores_the_raised_grade():
    """Class cards: the card pays the VP of the grade after Extra Credit (C met + EC = B = 6)."""
    s = score(Inventory(), [], [ClassCard("C", VP4, extra_credit=True), ClassCard("none", VP4)])
    assert s.class_cards == 6
    assert raise_grade("C") == "B"


def test_missing_vp_for_the_scored_grade_names_the_field():
    with pytest.raises(ScoreInputError) as e:
        score(Inventory(), [], [ClassCard("B", {"D": 1}, extra_credit=True)])
    assert e.value.path == "class_cards[0].vp_by_grade.A"


# ---- Game End Icons -------------------------------------------------------------------------------

def test_game_end_a_grade_counts_after_extra_credit():
    """Game End Icons, "A = 3 VPs": 3 VP per A grade after Extra Credit (A met, B+EC; C+EC is not)."""
    cards = [ClassCard("A", VP4), ClassCard("B", VP4, extra_credit=True), ClassCard("C", VP4, extra_credit=True)]
    s = score(Inventory(), [bot(upgraded=True, game_end={"kind": "a_grade"})], cards)
    assert s.game_end == 6


def test_game_end_ability_needs_an_upgraded_robot():
    """Game End Ability: a Game End ability on the upgraded action scores only if the robot is upgraded."""
    s = score(Inventory(), [bot(upgraded=False, game_end={"kind": "a_grade"})], [ClassCard("A", VP4)])
    assert s.game_end == 0
    assert "not upgraded" in line(s, "Design robot").why


def test_game_end_on_the_basic_action_scores_without_the_upgrade():
    """Game End Ability: only an ability on the Upgraded Robot Action needs the upgrade. The same icon on
    the basic action scores on a robot that is not upgraded; on the upgraded action (the default) it does
    not. The line names the icon as printed, not an internal id."""
    cards = [ClassCard("A", VP4)]
    basic = score(Inventory(), [bot(upgraded=False, game_end={"kind": "a_grade", "action": "basic"})], cards)
    assert basic.game_end == 3
    ln = line(basic, "Design robot")
    assert ln.what == "Design robot in column 1: Game End (3 VP per A grade)" and "basic action" in ln.why
    upgraded_action = score(Inventory(), [bot(upgraded=False, game_end={"kind": "a_grade"})], cards)
    assert upgraded_action.game_end == 0
    gears = score(Inventory(gear=5), [bot(game_end={"kind": "resource_pairs", "resource": "gear",
                                                     "action": "basic"})], [])
    assert gears.game_end == 2 and line(gears, "Design robot").what.endswith("(1 VP per 2 gears)")
    with pytest.raises(ScoreInputError) as err:
        score(Inventory(), [bot(game_end={"kind": "a_grade", "action": "both"})], [])
    assert err.value.path == "robots[0].game_end.action"


@pytest.mark.parametrize("n_chip,vp", [(0, 0), (1, 0), (2, 3), (3, 3), (5, 6)])
def test_game_end_microchip_robots_pairs_round_down(n_chip, vp):
    """Game End Icons, "2 Microchip-robot = 3 VPs": 3 VP per 2 robots needing a microchip, rounded down."""
    robots = [bot("fabricate", chip=True) for _ in range(n_chip)]
    robots.append(bot("recycle", chip=False, upgraded=True, game_end={"kind": "microchip_robots"}))
    assert score(Inventory(), robots, []).game_end == vp


def test_game_end_microchip_icon_robot_counts_itself():
    """Game End Icons: the robot with the icon is an assembled robot too, so it counts if it needs a microchip."""
    robots = [bot(chip=True), bot("recycle", chip=True, upgraded=True, game_end={"kind": "microchip_robots"})]
    assert score(Inventory(), robots, []).game_end == 3


@pytest.mark.parametrize("gears,vp", [(0, 0), (1, 0), (2, 1), (7, 3), (10, 5)])
def test_game_end_resource_pairs_not_spent(gears, vp):
    """Game End Icons, "2 Gear = 1 VP": 1 VP per 2 gears, rounded down; the gears are not spent, so
    they still count among the leftovers."""
    s = score(Inventory(gear=gears), [bot(upgraded=True, game_end={"kind": "resource_pairs", "resource": "gear"})], [])
    assert s.game_end == vp
    assert s.leftovers == gears // 3


def test_game_end_resource_pairs_counts_only_its_resource():
    """Game End Icons: only the matching resource type counts (sensors do not help a gear icon)."""
    s = score(Inventory(sensor=9, gear=3), [bot(upgraded=True, game_end={"kind": "resource_pairs", "resource": "gear"})], [])
    assert s.game_end == 1


@pytest.mark.parametrize("vps,vp", [([5], 0), ([5, 6], 3), ([5, 6, 6], 3), ([4, 3, 6], 0), ([5, 5, 6, 6], 6)])
def test_game_end_vp56_robots(vps, vp):
    """Game End Icons, "2 robot 5-6 VPs = 3 VPs": 3 VP per 2 robots worth 5 or 6 VP, rounded down."""
    robots = [bot("fabricate", vp=v) for v in vps]
    robots.append(bot("recycle", vp=3, upgraded=True, game_end={"kind": "vp56_robots"}))
    assert score(Inventory(), robots, []).game_end == vp


@pytest.mark.parametrize("cols,extra,vp", [(0, 0, 0), (1, 0, 4), (2, 3, 8), (5, 0, 20), (0, 5, 0)])
def test_game_end_full_columns(cols, extra, vp):
    """Game End Icons, "Column = 4 VPs": 4 VP per column filled in all three rows."""
    robots = grid(cols, extra) or [bot("design", 1)]
    robots[-1] = replace(robots[-1], upgraded=True, game_end={"kind": "full_columns"})
    assert score(Inventory(), robots, []).game_end == vp


def test_game_end_same_icon_on_two_robots_scores_twice():
    """Game End Ability: each upgraded robot resolves its own ability; two column robots score 4 each."""
    robots = grid(1)
    robots += [bot("design", 2, upgraded=True, game_end={"kind": "full_columns"}),
               bot("fabricate", 2, upgraded=True, game_end={"kind": "full_columns"})]
    assert score(Inventory(), robots, []).game_end == 8


def test_unknown_game_end_kind_names_the_field():
    with pytest.raises(ScoreInputError) as e:
        score(Inventory(), [bot(upgraded=True, game_end={"kind": "pets"})], [])
    assert e.value.path == "robots[0].game_end.kind"


def test_resource_pairs_needs_a_resource():
    with pytest.raises(ScoreInputError) as e:
        score(Inventory(), [bot(upgraded=True, game_end={"kind": "resource_pairs", "resource": "duct_tape"})], [])
    assert e.value.path == "robots[0].game_end.resource"


# ---- play area -----------------------------------------------------------------------------------

def test_robots_without_column_take_the_leftmost_free_slot():
    """Assemble (S1): a new robot goes in the leftmost free slot of its row."""
    placed = place_robots([bot("design", 2), bot("design"), bot("design")])
    assert [r.column for r in placed] == [2, 1, 3]


def test_two_robots_in_one_slot_is_refused():
    with pytest.raises(ScoreInputError) as e:
        place_robots([bot("design", 2), bot("design", 2)])
    assert e.value.path == "robots[1].column"


def test_a_sixth_robot_in_a_row_is_refused():
    """Play area: at most 5 robots in a row."""
    with pytest.raises(ScoreInputError) as e:
        place_robots([bot("recycle") for _ in range(6)])
    assert e.value.path == "robots[5]"


@settings(max_examples=40, deadline=None)
@given(st.sets(st.tuples(st.sampled_from(["design", "fabricate", "recycle"]), st.integers(1, 5)), max_size=15))
def test_full_columns_against_brute_force(slots):
    """Property: a column is full exactly when all three rows hold a robot in it (3 x 5 play area)."""
    robots = [bot(r, c) for r, c in sorted(slots)]
    expected = tuple(c for c in range(1, 6) if sum((r, c) in slots for r in ("design", "fabricate", "recycle")) == 3)
    assert full_columns(robots) == expected


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=8, max_size=8), st.lists(st.integers(3, 6), max_size=5))
def test_total_is_the_sum_of_its_lines(counts, vps):
    """Property (base end scoring): total = robots + class + inventory + floor(items/3) + Game End,
    and the lines add up to it."""
    inv = Inventory(*counts)
    robots = [bot("design", vp=v) for v in vps]
    s = score(inv, robots, [])
    items = inv.battery + inv.sensor + inv.gear + inv.microchip + inv.program + inv.duct_tape + inv.robot_cards
    assert s.leftovers == items // 3
    assert s.total == sum(vps) + inv.vp + items // 3
    assert sum(ln.vp for ln in s.lines) == s.total


# ---- ties ----------------------------------------------------------------------------------------

def _s(robot_vp: int, class_vp: int, inv_vp: int):
    robots = [bot("design", vp=robot_vp)] if robot_vp else []
    cards = [ClassCard("D", {"D": class_vp})] if class_vp else []
    return score(Inventory(vp=inv_vp), robots, cards)


def test_tie_broken_by_robot_vp():
    """Game end ties (S1): the tied player with more robot VP wins."""
    st_ = standings([("Ann", _s(10, 5, 5)), ("Bo", _s(12, 3, 5))])
    assert [(x.name, x.place, x.decided_by) for x in st_] == [("Bo", 1, ""), ("Ann", 2, "robot VP")]


def test_tie_then_broken_by_class_vp():
    """Game end ties (S1): equal total and robot VP: more class VP wins."""
    st_ = standings([("Ann", _s(10, 4, 6)), ("Bo", _s(10, 6, 4))])
    assert [(x.name, x.place, x.decided_by) for x in st_] == [("Bo", 1, ""), ("Ann", 2, "class VP")]


def test_full_tie_is_shared():
    """Game end ties (S1): equal on total, robot VP and class VP: the victory is shared."""
    st_ = standings([("Ann", _s(10, 4, 6)), ("Bo", _s(10, 4, 6)), ("Cy", _s(1, 0, 0))])
    assert [(x.name, x.place) for x in st_] == [("Ann", 1), ("Bo", 1), ("Cy", 3)]
    assert st_[1].decided_by == "shared"
    assert st_[2].decided_by == "total"


# ---- solo --------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode,competitions,target", [
    ("single", True, 120), ("campaign", True, 150), ("single", False, 100), ("campaign", False, 100)])
def test_solo_threshold_adjustment(mode, competitions, target):
    """Solo / 2P Gameplay Changes: +20 to a single game's threshold, +50 in campaign mode, with the
    Competitions & Friendships module."""
    r = solo_target(118, 100, mode, competitions)
    assert r.target == target
    assert r.margin == 118 - target
    assert r.reached == (118 >= target)
