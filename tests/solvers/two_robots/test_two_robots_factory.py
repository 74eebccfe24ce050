"""Two Robots factory checker: each test encodes a rulebook case (section or example named)."""
from __future__ import annotations

from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.two_robots.cards import HandCard
from solvers.two_robots.factory import (
    ENERGIES,
    Factory,
    Part,
    Stack,
    analyse,
    apocalypse_check,
    parts_to_two_robots,
    placement,
    placements,
)
from solvers.two_robots.hand import hand_problems, hand_view, new_stacks_within

PN = ("head", "arms", "legs", "torso")


def P(part: str, *energies: str) -> Part:
    return Part.of(part, energies)


def robot(*energies: str) -> list[Part]:
    return [P(p, *energies) for p in PN]


# ---- Energy Stacks / Stacking Part Cards ---------------------------------------------------------

def test_liz_example_new_hybrid_stack_beside_chemical_becomes_solar():
    """Stacking Part Cards, Liz example: a Chemical card on a Chemical/Solar hybrid is a Chemical
    stack; a new stack started with another Chemical/Solar card becomes Solar."""
    liz = Factory.of([[P("head", "chemical", "solar"), P("arms", "chemical")]])
    view = analyse(liz, PN)
    assert view.stacks[0].energy == "chemical"
    card = P("legs", "chemical", "solar")
    new = placement(liz, card, None, PN)
    assert new is not None and new.energy == "solar" and new.possible == ("solar",)
    assert "starts a Solar stack" in new.why
    electric = placement(liz, P("legs", "electrical"), None, PN)
    assert electric is not None and "starts an Electrical stack" in electric.why
    after = analyse(liz.add(card, None), PN)
    assert [s.energy for s in after.stacks] == ["chemical", "solar"]
    assert after.stacks[1].candidates == ("chemical", "solar")
    assert "stack 1 is Chemical" in after.stacks[1].why


def test_lone_hybrid_is_unlocked_and_still_a_unique_stack():
    """Stacking Part Cards + Attack / Defense Cards note: a hybrid alone in a stack has no energy
    locked in yet, yet it counts as a unique stack."""
    f = Factory.of([[P("head", "electrical", "nuclear")]])
    view = analyse(f, PN)
    s = view.stacks[0]
    assert s.energy is None and s.possible == ("electrical", "nuclear")
    assert view.unique_stacks == 1
    hv = hand_view(f, HandCard("attack", name="Test", stacks_required=1), PN)
    assert hv.playable


def test_second_card_with_one_energy_locks_the_hybrid_stack():
    """Stacking Part Cards: the hybrid stack is locked once a card of one of its energies goes on it."""
    f = Factory.of([[P("head", "chemical", "solar")]])
    p = placement(f, P("arms", "solar"), 0, PN)
    assert p is not None and p.energy == "solar"
    two_hybrids = f.add(P("arms", "chemical", "solar"), 0)
    # the same hybrid pair again decides nothing: both energies are still on every card
    assert analyse(two_hybrids, PN).stacks[0].energy is None


def test_hybrid_with_both_energies_taken_cannot_start_a_stack():
    """Energy Stacks: no two stacks share an energy; a Chemical/Solar card beside a Chemical and a
    Solar stack may only join one of them."""
    f = Factory.of([[P("head", "chemical")], [P("head", "solar")]])
    ps = placements(f, P("arms", "chemical", "solar"), PN)
    assert [p.stack for p in ps] == [0, 1]
    hv = hand_view(f, HandCard("part", P("arms", "chemical", "solar")), PN)
    assert hv.playable and len(hv.placements) == 2


def test_new_core_stack_forces_an_unlocked_stack():
    """Energy Stacks: a new Chemical stack beside a lone Chemical/Solar hybrid is legal and leaves the
    hybrid stack Solar."""
    f = Factory.of([[P("head", "chemical", "solar")]])
    p = placement(f, P("arms", "chemical"), None, PN)
    assert p is not None and p.energy == "chemical" and p.forces == ((0, "solar"),)


def test_two_lone_hybrids_of_one_pair_leave_no_room_for_a_third():
    """Energy Stacks: two Chemical/Solar stacks take both energies between them (neither locked);
    a new Chemical stack is then illegal."""
    f = Factory.of([[P("head", "chemical", "solar")], [P("arms", "chemical", "solar")]])
    view = analyse(f, PN)
    assert [s.energy for s in view.stacks] == [None, None]
    assert placement(f, P("legs", "chemical"), None, PN) is None
    # a core Chemical card on one of them locks both
    p = placement(f, P("legs", "chemical"), 0, PN)
    assert p is not None and p.energy == "chemical" and p.forces == ((1, "solar"),)


def test_a_card_sharing_no_energy_with_a_stack_cannot_go_there():
    f = Factory.of([[P("head", "chemical")]])
    assert placement(f, P("arms", "nuclear"), 0, PN) is None
    assert placement(f, P("arms", "nuclear", "solar"), 0, PN) is None


def test_five_stacks_leave_no_new_stack():
    """Energy Stacks: five stacks, one per energy, is the most a factory holds."""
    f = Factory.of([[P("head", e)] for e in ENERGIES])
    assert placement(f, P("arms", "chemical"), None, PN) is None
    assert [p.stack for p in placements(f, P("arms", "chemical"), PN)] == [0]


# ---- impossible factories ------------------------------------------------------------------------

def test_impossible_stack_mixing_energies_is_named():
    f = Factory.of([[P("head", "chemical")], [P("head", "chemical"), P("arms", "nuclear")]])
    view = analyse(f, PN)
    assert not view.possible
    assert [p.stacks for p in view.problems] == [(1,)]
    assert "Stack 2" in view.problems[0].message and view.problems[0].message.count(".") == 1


def test_impossible_three_stacks_on_two_energies_is_named():
    f = Factory.of([[P("head", "chemical")], [P("head", "chemical", "solar")], [P("arms", "solar")]])
    view = analyse(f, PN)
    assert [p.stacks for p in view.problems] == [(0, 1, 2)]
    assert not view.won


def test_impossible_two_core_stacks_of_one_energy():
    f = Factory.of([[P("head", "nuclear")], [P("arms", "nuclear")]])
    assert [p.stacks for p in analyse(f, PN).problems] == [(0, 1)]


def test_six_stacks_are_impossible():
    f = Factory.of([[P("head", e)] for e in ENERGIES] + [[P("arms", "chemical", "solar")]])
    assert analyse(f, PN).problems


# ---- How to Build a Robot / Duplicate Parts -------------------------------------------------------

def test_active_robot_needs_four_different_parts_in_any_order():
    """How to Build a Robot: four different parts on one energy make an active robot; order does not matter."""
    f = Factory.of([[P("torso", "mechanical"), P("arms", "mechanical", "solar"), P("head", "mechanical"),
                     P("legs", "electrical", "mechanical")]])
    view = analyse(f, PN)
    assert view.stacks[0].active_robot and view.active_robots == 1 and not view.won


def test_duplicate_parts_are_listed_and_do_not_make_a_robot():
    """Duplicate Parts: a second ARMS on a Chemical stack is a duplicate (placed sideways)."""
    f = Factory.of([[P("head", "chemical"), P("arms", "chemical"), P("arms", "chemical", "solar"),
                     P("legs", "chemical")]])
    s = analyse(f, PN).stacks[0]
    assert s.parts == ("head", "arms", "legs") and s.duplicates == ("arms",) and s.missing == ("torso",)
    assert not s.active_robot
    p = placement(f, P("head", "chemical"), 0, PN)
    assert p is not None and p.duplicate and not p.completes_robot
    p = placement(f, P("torso", "chemical", "nuclear"), 0, PN)
    assert p is not None and p.completes_robot


def test_two_active_robots_win():
    """Objective: two robots built win the game."""
    f = Factory.of([robot("chemical"), robot("solar", "nuclear")])
    view = analyse(f, PN)
    assert view.won and view.active_robots == 2


# ---- Frozen Stacks ---------------------------------------------------------------------------------

def test_frozen_stack_takes_no_parts():
    """Frozen Stacks: no Part cards may be added to a frozen stack."""
    f = Factory((Stack((P("head", "chemical"),), frozen=True),))
    assert placement(f, P("arms", "chemical"), 0, PN) is None
    hv = hand_view(f, HandCard("part", P("arms", "chemical")), PN)
    assert not hv.playable and "frozen" in hv.why


def test_frozen_stack_still_holds_its_energy():
    """Frozen Stacks: the frozen Chemical stack still keeps Chemical from other stacks."""
    f = Factory((Stack((P("head", "chemical"),), frozen=True),))
    assert placement(f, P("arms", "chemical"), None, PN) is None


def test_frozen_robot_cannot_be_deployed_but_counts_for_the_win():
    """Frozen Stacks (and Clarifications): a frozen complete robot is not deployable, yet frozen
    stacks count toward completing Two Robots."""
    f = Factory((Stack(tuple(robot("chemical")), frozen=True), Stack(tuple(robot("nuclear")))))
    view = analyse(f, PN)
    assert view.stacks[0].active_robot and not view.stacks[0].deployable
    assert view.deployable_robots == 1 and view.active_robots == 2 and view.won


def test_frozen_stacks_count_for_stack_requirements():
    """Frozen Stacks: they count toward the stacks an Attack or Defense card needs."""
    f = Factory((Stack((P("head", "chemical"),), frozen=True), Stack((P("head", "solar"),))))
    assert hand_view(f, HandCard("defense", name="Shield", stacks_required=2), PN).playable
    assert not hand_view(f, HandCard("attack", name="x", stacks_required=3), PN).playable


def test_alyssa_example_frozen_nuclear_stack_counts_for_the_gold_number():
    """Frozen Stacks, Alyssa example: with three stacks (one of them a frozen Nuclear stack) she may
    play Nuclear Explosion. (The card's gold number is not in the rulebook; 3 is assumed here, the
    most her three stacks can meet.) Where it strikes is tested with the attacks."""
    alyssa = Factory((Stack((P("head", "nuclear"),), frozen=True),
                      Stack((P("arms", "chemical"), P("legs", "chemical"))),
                      Stack((P("head", "solar", "electrical"),))))
    opponent = Factory.of([[P("torso", "nuclear")], [P("head", "mechanical")]])
    assert analyse(alyssa, PN).unique_stacks == 3
    view = hand_view(alyssa, HandCard("attack", name="Nuclear Explosion", stacks_required=3), PN,
                     table=(alyssa, opponent), labels=("Alyssa", "Ben"))
    assert view.playable and view.attack is not None and view.attack.own_hit
    assert "your own HEAD (Nuclear) on stack 1" in view.why


def test_defense_cards_are_no_play_of_your_own_turn():
    """Defense Cards: Homing Missiles answers an Attack on your parts and Sentry Gunship an opponent's
    Event, both out of turn; with the stacks they need they are still not a play of your turn."""
    f = Factory.of([[P("head", "chemical")], [P("head", "solar")]])
    for name in ("Homing Missiles", "Sentry Gunship"):
        view = hand_view(f, HandCard("defense", name=name, stacks_required=1), PN)
        assert view.requirement_met and not view.playable and view.effect.reactive
        assert "out of turn" in view.why


def test_parts_to_two_robots_counts_the_two_nearest_stacks_that_can_grow():
    """How to Build a Robot + Frozen Stacks: a robot needs nothing more, a frozen stack short of a
    robot takes no parts, and a new stack needs all four while an energy is free."""
    robot_stack = Stack(tuple(robot("chemical")))
    three = Stack((P("head", "solar"), P("arms", "solar"), P("legs", "solar")))
    assert parts_to_two_robots(Factory((robot_stack, three)), PN) == 1
    assert parts_to_two_robots(Factory((robot_stack, Stack(three.cards, frozen=True))), PN) == 4
    assert parts_to_two_robots(Factory(()), PN) == 8
    frozen_all = Factory(tuple(Stack((P("head", e),), frozen=True) for e in ENERGIES))
    assert parts_to_two_robots(frozen_all, PN) is None


# ---- what in the hand cannot work (problems of a possible factory) -------------------------------

def problems_of(f: Factory, hand: list[HandCard]) -> list:
    return hand_problems(f, [hand_view(f, c, PN) for c in hand])


def test_alyssa_example_hand_problems_frozen_nuclear_stack():
    """Frozen Stacks, Alyssa example: with her Nuclear stack frozen, a Nuclear ARMS in hand has no
    place (not on the frozen stack, and no new stack may take Nuclear from it); a Defense card that
    needs four stacks stays out of reach, since nothing in hand can start a fourth. Nuclear Explosion
    (three stacks, the frozen one counts) is no problem."""
    alyssa = Factory((Stack((P("head", "nuclear"),), frozen=True),
                      Stack((P("arms", "solar"), P("head", "solar", "mechanical"))),
                      Stack((P("torso", "chemical"),))))
    hand = [HandCard("attack", name="Nuclear Explosion", stacks_required=3, play=True),
            HandCard("part", P("legs", "solar")), HandCard("part", P("arms", "nuclear")),
            HandCard("defense", name="Homing Missiles", stacks_required=4)]
    found = problems_of(alyssa, hand)
    assert [(p.hand, p.stacks) for p in found] == [(2, (0,)), (3, ())]
    assert found[0].message == ("ARMS (Nuclear) in your hand has no legal place: stack 1 is frozen; a new stack "
                                "would need Nuclear, which stack 1 holds.")
    assert found[1].message == ("Homing Missiles needs 4 unique stacks; you have 3 and no card in your hand can "
                                "start another this turn.")
    assert all(p.message.count(".") == 1 for p in found)


def test_liz_example_lone_hybrid_can_reach_a_stack_requirement():
    """Liz example + Attack / Defense Cards note (a lone hybrid counts as a stack): beside the Chemical
    stack, a Chemical/Solar LEGS can start a Solar stack, so a card needing two stacks is no problem;
    one needing three is, and a second Chemical/Solar card cannot start a third stack."""
    liz = Factory.of([[P("head", "chemical", "solar"), P("arms", "chemical")]])
    hybrid = HandCard("part", P("legs", "chemical", "solar"))
    assert new_stacks_within(liz, [P("legs", "chemical", "solar"), P("torso", "chemical", "solar")], 3) == 1
    assert problems_of(liz, [hybrid, HandCard("defense", name="D", stacks_required=2)]) == []
    found = problems_of(liz, [hybrid, hybrid, HandCard("attack", name="A", stacks_required=3)])
    assert [p.hand for p in found] == [2] and "at most 1 more" in found[0].message


def test_new_stacks_limited_by_the_plays_of_a_turn():
    """Turn Overview: up to three plays, so at most three new stacks in a turn (and five in all)."""
    cores = [P("head", e) for e in ENERGIES]
    assert new_stacks_within(Factory(()), cores, 3) == 3
    assert new_stacks_within(Factory.of([[P("arms", "chemical")], [P("arms", "solar")]]), cores, 5) == 3


# ---- Clarifications ---------------------------------------------------------------------------------

def test_space_pod_stolen_hybrid_may_change_energy():
    """Clarifications (Space Pod): a stolen hybrid may take another energy as it enters the thief's
    factory. In the victim's factory it sat in a Chemical stack; the thief already has a Chemical
    stack, so it may start a Solar stack there."""
    victim = Factory.of([[P("head", "chemical", "solar"), P("arms", "chemical")]])
    thief = Factory.of([[P("legs", "chemical")]])
    stolen = victim.stacks[0].cards[0]
    assert analyse(victim, PN).stacks[0].energy == "chemical"
    after_victim = victim.remove(0, 0)
    assert analyse(after_victim, PN).stacks[0].energy == "chemical"
    new = placement(thief, stolen, None, PN)
    assert new is not None and new.energy == "solar"


def test_apocalypse_ability_blocked_by_a_frozen_stack():
    """Clarifications: Apocalypse with two stacks of three different parts may not trigger the ability
    when either stack is frozen."""
    three = [P("head", "chemical"), P("arms", "chemical"), P("legs", "chemical")]
    other = [P("head", "solar"), P("arms", "solar"), P("torso", "solar")]
    ok = Factory((Stack(tuple(three)), Stack(tuple(other))))
    assert apocalypse_check(ok, PN).may_trigger
    frozen = Factory((Stack(tuple(three), frozen=True), Stack(tuple(other))))
    check = apocalypse_check(frozen, PN)
    assert not check.may_trigger and check.frozen == (0,) and "frozen" in check.why
    duplicates_only = Factory((Stack(tuple(three)), Stack((P("head", "solar"), P("head", "solar"), P("arms", "solar")))))
    assert not apocalypse_check(duplicates_only, PN).may_trigger


# ---- the matching against brute force over energy assignments -------------------------------------

SMALL = ENERGIES[:3] + ("solar",)  # few energies make clashes common


@st.composite
def parts(draw):
    hybrid = draw(st.booleans())
    es = draw(st.lists(st.sampled_from(SMALL), min_size=2 if hybrid else 1, max_size=2 if hybrid else 1,
                       unique=True))
    return P(draw(st.sampled_from(PN)), *es)


stacks = st.builds(lambda cards, frozen: Stack(tuple(cards), frozen),
                   st.lists(parts(), min_size=1, max_size=3), st.booleans())
factories = st.lists(stacks, min_size=0, max_size=5).map(lambda s: Factory(tuple(s)))


def brute(f: Factory) -> list[tuple[str, ...]]:
    """Every injective assignment of energies to stacks that every card allows."""
    out = []
    for combo in permutations(ENERGIES, len(f.stacks)):
        if all(all(e in c.energies for c in s.cards) for e, s in zip(combo, f.stacks)):
            out.append(combo)
    return out


@settings(max_examples=150, deadline=None)
@given(factories)
def test_matching_matches_brute_force(f):
    assignments = brute(f)
    view = analyse(f, PN)
    assert view.possible == bool(assignments)
    if assignments:
        for i, s in enumerate(view.stacks):
            seen = {a[i] for a in assignments}
            assert set(s.possible) == seen
            assert s.energy == (next(iter(seen)) if len(seen) == 1 else None)


@settings(max_examples=100, deadline=None)
@given(factories, parts())
def test_placements_match_brute_force(f, card):
    if not brute(f):
        return
    legal = {p.stack for p in placements(f, card, PN)}
    expected = {k for k in [*range(len(f.stacks)), None]
                if (k is None or not f.stacks[k].frozen) and brute(f.add(card, k))}
    assert legal == expected
