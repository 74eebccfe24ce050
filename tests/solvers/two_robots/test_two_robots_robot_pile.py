"""Two Active Robot cards without a reshuffle in between (rulebook Clarifications: Katana and Shogun;
Peacemaker's Orb with two Active Robots), checked against listing every ordered pair of cards."""
from __future__ import annotations

from fractions import Fraction
from itertools import permutations

from hypothesis import given
from hypothesis import strategies as st

from solvers.two_robots.robot_pile import two_without_reshuffle

THREE_PLAYERS = {"shots_fired": 3, "weapons_jammed": 1, "scattershot": 1}  # the public 3-player pile


def test_katana_second_card_after_shots_fired_three_players():
    """Clarifications (Samurai: no reshuffle in between), 3-player pile of 5: after a Shots Fired, two of the
    four cards left are Shots Fired."""
    two = two_without_reshuffle(THREE_PLAYERS)
    first = next(a for a in two.after if a.first == "shots_fired")
    assert first.p_first == Fraction(3, 5)
    assert dict(first.second) == {"shots_fired": Fraction(1, 2), "weapons_jammed": Fraction(1, 4),
                                  "scattershot": Fraction(1, 4)}
    after_jam = next(a for a in two.after if a.first == "weapons_jammed")
    assert "weapons_jammed" not in dict(after_jam.second)  # the only one is out of the pile
    assert dict(two.at_least_once)["scattershot"] == Fraction(2, 5)


@given(st.dictionaries(st.sampled_from("abcd"), st.integers(0, 4)).filter(lambda m: sum(m.values()) >= 2))
def test_against_every_ordered_pair(mix):
    cards = [k for k, n in mix.items() for _ in range(n)]
    pairs = list(permutations(range(len(cards)), 2))
    two = two_without_reshuffle(mix)
    for a in two.after:
        firsts = [p for p in pairs if cards[p[0]] == a.first]
        assert a.p_first == Fraction(len(firsts), len(pairs))
        for k, p in a.second:
            assert p == Fraction(sum(cards[q[1]] == k for q in firsts), len(firsts))
    for k, p in two.at_least_once:
        assert p == Fraction(sum(k in (cards[i], cards[j]) for i, j in pairs), len(pairs))
