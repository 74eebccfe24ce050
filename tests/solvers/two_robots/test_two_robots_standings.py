"""Who is winning at a Two Robots table: each test names its rulebook passage ("Objective", "How to Build
a Robot", "Attack Cards", "Frozen Stacks", "The Event Phase" note on health, "Clarifications" on public
hand sizes); the chances are checked against brute force."""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.two_robots.cards import HandCard
from solvers.two_robots.factory import Factory, Part, Stack
from solvers.two_robots.odds import UnseenCard
from solvers.two_robots.standings import DESTROY_THREAT, EVENT, FINISH, FREEZE_THREAT, Seat, standings

PN = ("head", "arms", "legs", "torso")


def P(part: str, *energies: str) -> Part:
    return Part.of(part, energies)


def robot(energy: str) -> tuple[Part, ...]:
    return tuple(P(p, energy) for p in PN)


def U(part: Part | None, count: int, kind: str = "part") -> UnseenCard:
    return UnseenCard(kind=kind, part=part, name="" if part else kind.title(), count=count)


def test_objective_the_seat_nearest_two_robots_leads():
    """Objective (build two robots) + How to Build a Robot: Ben has a robot and a stack one part short,
    one part from the win; you have two stacks of two parts. Ben leads, may finish his second robot
    next turn (the win), and that is the first threat to you."""
    me = Factory.of([[P("head", "chemical"), P("arms", "chemical")], [P("head", "solar"), P("arms", "solar")]])
    ben = Factory((Stack(robot("nuclear")), Stack((P("head", "mechanical"), P("arms", "mechanical"),
                                                    P("legs", "mechanical")))))
    unseen = [U(P("torso", "mechanical"), 1), U(P("torso", "chemical"), 1), U(None, 18, "attack")]
    st_ = standings([Seat("you", me, hand_count=0), Seat("Ben", ben, hand_count=2, health=2)], 0, PN, unseen)
    you, b = st_.seats
    assert st_.leaders == (1,) and st_.summary == "Ben leads: 1 active robot, 1 part from two robots."
    assert (you.parts_to_two_robots, b.parts_to_two_robots) == (4, 1)
    assert b.would_win and b.one_short == (1,) and b.finishing_cards == 1 and b.health == 2
    # his two cards in hand and his next three: 5 of the 20 cards you have not seen; one of them finishes it
    assert b.p_robot_next_turn == Fraction(5, 20)
    assert st_.threats[0].kind == FINISH and st_.threats[0].seat == 1 and "the win" in st_.threats[0].why
    assert any(t.kind == EVENT and t.seat == 1 for t in st_.threats)  # his robot can be deployed for option B


def test_your_chance_uses_your_hand_then_your_draw():
    """Turn Overview (draw three): a finishing card already in your hand makes it certain; otherwise it is
    the chance among your next three cards."""
    me = Factory.of([[P("head", "solar"), P("arms", "solar"), P("legs", "solar")]])
    unseen = [U(P("torso", "solar"), 2), U(P("head", "chemical"), 8)]
    with_card = standings([Seat("you", me)], 0, PN, unseen, hand=[HandCard("part", P("torso", "solar"))])
    assert with_card.seats[0].in_hand and with_card.seats[0].p_robot_next_turn == 1
    without = standings([Seat("you", me)], 0, PN, unseen).seats[0]
    assert without.p_robot_next_turn == 1 - Fraction(8 * 7 * 6, 10 * 9 * 8)


def test_frozen_stack_counts_for_the_win_but_is_never_finished():
    """Frozen Stacks: a frozen robot still counts toward the win; a frozen stack one part short takes no
    part, so it is no chance and no threat."""
    ben = Factory((Stack(robot("nuclear"), frozen=True),
                   Stack((P("head", "solar"), P("arms", "solar"), P("legs", "solar")), frozen=True)))
    st_ = standings([Seat("you", Factory(())), Seat("Ben", ben, hand_count=7)], 0, PN, [U(P("torso", "solar"), 5)])
    b = st_.seats[1]
    assert b.active_robots == 1 and b.deployable_robots == 0 and b.one_short == ()
    assert b.p_robot_next_turn == 0 and b.parts_to_two_robots == 4
    assert not any(t.kind in (FINISH, EVENT) for t in st_.threats)


def test_attack_threats_are_chosen_as_best_for_the_opponent():
    """Attack Cards: an Attack card on Nuclear parts from Ben must take two; with your Nuclear robot and
    his own Nuclear part in play, his best is two of your robot's parts, which breaks it. Frozen
    Stacks: his Ice Blast would freeze your stack one part short (your robot still counts)."""
    me = Factory((Stack(robot("nuclear")), Stack((P("head", "solar"), P("arms", "solar"), P("legs", "solar")))))
    ben = Factory.of([[P("head", "nuclear", "chemical")]])
    st_ = standings([Seat("you", me), Seat("Ben", ben)], 0, PN, [U(None, 10, "attack")])
    nuke = next(t for t in st_.threats if t.kind == DESTROY_THREAT and t.energy == "nuclear")
    assert nuke.breaks_robot and nuke.every_choice and {h.factory for h in nuke.hits} == {0} and len(nuke.hits) == 2
    assert "Nuclear Explosion is one" in nuke.why and "it breaks your robot" in nuke.why and nuke.why.startswith("Ben's Attack card")
    ice = next(t for t in st_.threats if t.kind == FREEZE_THREAT)
    assert ice.stack is not None and ice.stack.stack == 1 and ice.harm > 0


# ---- the chances against brute force ----------------------------------------------------------------

@st.composite
def small_tables(draw):
    ben = Factory.of([[P(n, "solar") for n in draw(st.lists(st.sampled_from(PN), min_size=1, max_size=3,
                                                                   unique=True))]])
    counts = [draw(st.integers(0, 3)) for _ in range(3)]
    unseen = [U(P(n, "solar"), c) for n, c in zip(("torso", "legs", "head"), counts)] + \
        [U(None, draw(st.integers(0, 4)), "attack")]
    return ben, unseen, draw(st.integers(0, 3))


@settings(max_examples=60, deadline=None)
@given(small_tables())
def test_an_opponents_chance_matches_brute_force(table):
    """Clarifications (hand sizes are public): Ben's hand and his next three cards are, to you, a random
    handful of the cards you have not seen; the chance that one of them finishes his stack is the share
    of such handfuls that hold a finishing card."""
    ben, unseen, hand = table
    st_ = standings([Seat("you", Factory(())), Seat("Ben", ben, hand_count=hand)], 0, PN, unseen)
    cards = [u for u in unseen for _ in range(u.count)]
    n = min(hand + 3, len(cards))
    missing = {n_ for n_ in PN} - {c.part for c in ben.stacks[0].cards}
    if len(missing) != 1 or not cards:
        assert st_.seats[1].p_robot_next_turn == 0
        return
    need = missing.pop()
    handfuls = list(combinations(range(len(cards)), n))
    hits = sum(any(cards[i].part is not None and cards[i].part.part == need for i in h) for h in handfuls)
    assert st_.seats[1].p_robot_next_turn == Fraction(hits, len(handfuls))
