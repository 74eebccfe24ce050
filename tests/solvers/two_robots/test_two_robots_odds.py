"""Two Robots draw odds (Turn Overview: the Draw Phase takes three cards) against brute-force enumeration."""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.two_robots.factory import Factory, Part, Stack
from solvers.two_robots.game_data import DATA
from solvers.two_robots.odds import (
    Deck,
    Sighting,
    UnseenCard,
    completing,
    draw_odds,
    hypergeometric,
    p_at_least_one,
    unseen_pool,
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


DEFAULT = Deck(parts=tuple(DATA.default_deck(PN)), attack=19, defense=21)


def test_unseen_from_the_default_deck():
    """Components (public totals): 60 parts, 19 Attack, 21 Defense = 100 cards; cards in sight are not unseen."""
    pool = unseen_pool(DEFAULT, [Sighting(place="your_factory", parts=(P("head", "chemical"),)),
                                 Sighting(place="your_hand", attack=1)])
    assert pool.total == 100 - 2 and pool.notes == () and pool.used == (("your_factory", 1), ("your_hand", 1))
    pool = unseen_pool(DEFAULT, [Sighting(place="your_factory", parts=(P("head", "chemical"),) * 2)])
    assert pool.notes and "HEAD (Chemical) in your factory" in pool.notes[0]


def test_other_seats_and_the_discard_pile_leave_the_unseen_cards():
    """Clarifications (hand sizes and the discard pile are public) + Energy Stacks (every factory is
    on the table): Ben's TORSO (Mechanical) and a discarded Attack card are not unseen any more, so
    the TORSO cards that finish Ana's Mechanical robot drop from 5 to 4 and the unseen cards from
    97 to 95. The answer says how many cards each place took."""
    ana = Factory.of([[P("head", "mechanical"), P("arms", "mechanical"), P("legs", "mechanical")]])
    ben = Factory.of([[P("torso", "mechanical")]])
    mine = Sighting(place="your_factory", parts=tuple(c for s in ana.stacks for c in s.cards))
    alone = unseen_pool(DEFAULT, [mine])
    table = unseen_pool(DEFAULT, [mine, Sighting(place="other_factories", parts=(P("torso", "mechanical"),)),
                                  Sighting(place="discard", attack=1)])
    assert (alone.total, table.total) == (97, 95)
    assert table.used == (("your_factory", 3), ("other_factories", 1), ("discard", 1))
    outs = [sum(c.count for c in completing(ana, pool.cards, PN)) for pool in (alone, table)]
    assert outs == [5, 4]  # TORSO with Mechanical: the core and four hybrids, one now in Ben's factory
    assert ben.stacks[0].cards[0] not in {u.part for u in table.cards}
