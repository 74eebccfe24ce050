"""Two Robots draw odds (Turn Overview: the Draw Phase takes three cards) against brute-force enumeration."""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.two_robots.factory import Factory, Part, Stack
from solvers.two_robots.game_data import DATA
from solvers.two_robots.odds import (
    UnseenCard,
    completing,
    draw_odds,
    hypergeometric,
    p_at_least_one,
    unseen_from_deck,
)

PN = ("head", "arms", "legs", "torso")


def P(part: str, *energies: str) -> Part:
    return Part.of(part, energies)


def brute(counts: list[int], wanted: set[int], draws: int) -> dict[int, Fraction]:
    """Every set of `draws` physical cards, equally likely: how many wanted cards it holds."""
    cards = [k for k, n in enumerate(counts) for _ in range(n)]
    draws = min(draws, len(cards))
    subsets = list(combinations(range(len(cards)), draws))
    out: dict[int, Fraction] = {}
    for sub in subsets:
        hits = sum(cards[i] in wanted for i in sub)
        out[hits] = out.get(hits, Fraction(0)) + Fraction(1, len(subsets))
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=5), st.data(), st.integers(0, 4))
def test_draw_odds_match_brute_force(counts, data, draws):
    if sum(counts) == 0:
        counts[0] = 1
    wanted = set(data.draw(st.lists(st.integers(0, len(counts) - 1), max_size=len(counts))))
    unseen = [UnseenCard("part", None, str(k), n) for k, n in enumerate(counts)]
    odds = draw_odds(unseen, sorted(wanted), draws)
    expected = brute(counts, wanted, draws)
    assert {k: p for k, p in odds.distribution if p} == {k: p for k, p in expected.items() if p}
    assert odds.p_at_least_one == 1 - expected.get(0, Fraction(0))
    assert sum(p for _, p in odds.distribution) == 1
    assert odds.expected == sum(k * p for k, p in expected.items())


def test_hypergeometric_known_values():
    """Draw Phase: three cards. 5 wanted cards among 60: 1 - C(55,3)/C(60,3) = 1 - 26235/34220."""
    assert p_at_least_one(60, 5, 3) == Fraction(34220 - 26235, 34220)
    assert hypergeometric(4, 2, 3) == [(1, Fraction(1, 2)), (2, Fraction(1, 2))]
    assert p_at_least_one(2, 1, 3) == 1  # fewer unseen cards than the draw: all of them come


def test_completing_cards_respect_the_matching():
    """Energy Stacks: the TORSO that finishes the unlocked Chemical/Solar stack must leave a matching;
    with a core Solar stack beside it, only Chemical-bearing TORSOs count."""
    a = Stack((P("head", "chemical", "solar"), P("arms", "chemical", "solar"), P("legs", "chemical", "solar")))
    b = Stack((P("head", "solar"),))
    unseen = [UnseenCard("part", P("torso", "chemical"), "", 1), UnseenCard("part", P("torso", "solar"), "", 1),
              UnseenCard("part", P("torso", "chemical", "nuclear"), "", 2),
              UnseenCard("part", P("arms", "chemical"), "", 3), UnseenCard("attack", None, "Attack", 10)]
    [c] = completing(Factory((a, b)), unseen, PN)
    assert c.stack == 0 and c.missing == "torso" and c.cards == (0, 2) and c.count == 3
    assert c.p == p_at_least_one(17, 3, 3)


def test_frozen_stack_is_not_completed():
    """Frozen Stacks: no parts may be added, so no card completes a frozen stack."""
    a = Stack((P("head", "chemical"), P("arms", "chemical"), P("legs", "chemical")), frozen=True)
    unseen = [UnseenCard("part", P("torso", "chemical"), "", 1)]
    assert completing(Factory((a,)), unseen, PN) == []


def test_unseen_from_the_default_deck():
    """Components (public totals): 60 parts, 19 Attack, 21 Defense = 100 cards; cards in sight are not unseen."""
    unseen, notes = unseen_from_deck(DATA.default_deck(PN), 19, 21, [P("head", "chemical")], 1, 0)
    assert sum(u.count for u in unseen) == 100 - 2 and notes == []
    _, notes = unseen_from_deck(DATA.default_deck(PN), 19, 21, [P("head", "chemical")] * 2)
    assert notes and "HEAD (Chemical)" in notes[0]
