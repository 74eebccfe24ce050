"""The Active Robot pile when two cards are revealed without a reshuffle in between (rulebook
"Clarifications": Samurai's Katana ability and Shogun Power card; Peacemaker with two Active Robots and
the Orb draws two cards in one Event Phase, and the pile is reshuffled only after it, "The Event Phase").

The second card comes from the pile without the first, so its odds depend on the first: exact fractions.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class AfterFirst:
    first: str
    p_first: Fraction
    second: tuple[tuple[str, Fraction], ...]   # each card's chance to come second, after this first


@dataclass(frozen=True)
class TwoCards:
    after: tuple[AfterFirst, ...]
    at_least_once: tuple[tuple[str, Fraction], ...]   # each card's chance to show in the two


def two_without_reshuffle(mix: Mapping[str, int]) -> TwoCards:
    """Both cards of a two-card reveal from a pile of `mix` (card -> copies), no reshuffle in between."""
    total = sum(mix.values())
    if total < 2:
        raise ValueError("two cards need a pile of two")
    after = []
    for first, n in mix.items():
        if n == 0:
            continue
        rest = {k: v - (k == first) for k, v in mix.items()}
        after.append(AfterFirst(first=first, p_first=Fraction(n, total),
                                second=tuple((k, Fraction(v, total - 1)) for k, v in rest.items() if v)))
    # a card is missed twice: C(total - n, 2) of the C(total, 2) pairs
    seen = tuple((k, 1 - Fraction((total - n) * (total - n - 1), total * (total - 1))) for k, n in mix.items())
    return TwoCards(after=tuple(after), at_least_once=seen)
