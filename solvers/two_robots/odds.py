"""Exact chances for the next draw: hypergeometric over the unseen cards the players entered.

The next draw is three cards off the top of the Action deck. Other players draw before you, but
nobody sees their cards, so your next three are a uniformly random three of the cards you have not
seen (exchangeability); the answer is the hypergeometric distribution over those cards.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from solvers.errors import InputError

from .factory import Factory, Part, is_robot, matchable, stack_parts


def hypergeometric(total: int, wanted: int, draws: int) -> list[tuple[int, Fraction]]:
    """P(exactly k wanted cards) for every k that can happen, drawing `draws` of `total` cards.
    Drawing more cards than there are takes them all."""
    if not 0 <= wanted <= total:
        raise InputError("unseen", "wanted cards must be between 0 and the number of unseen cards")
    draws = min(max(draws, 0), total)
    denom = comb(total, draws)
    if denom == 0:
        return [(0, Fraction(1))]
    return [(k, Fraction(comb(wanted, k) * comb(total - wanted, draws - k), denom))
            for k in range(max(0, draws - (total - wanted)), min(draws, wanted) + 1)]


def p_at_least_one(total: int, wanted: int, draws: int) -> Fraction:
    if total == 0:
        return Fraction(0)
    draws = min(max(draws, 0), total)
    return 1 - Fraction(comb(total - wanted, draws), comb(total, draws))


@dataclass(frozen=True)
class UnseenCard:
    """A kind of card not yet seen, with how many copies are unseen."""
    kind: str                  # "part", "attack", "defense"
    part: Part | None
    name: str
    count: int
    wanted: bool = False

    def label(self) -> str:
        return self.part.label() if self.part is not None else (self.name or self.kind.title())


def check_unseen_names(unseen: Sequence[UnseenCard], part_names: Sequence[str]) -> None:
    """Every unseen part card is one of the table's four part names, else an InputError naming it."""
    for i, u in enumerate(unseen):
        if u.part is not None and u.part.part not in part_names:
            raise InputError(f"unseen[{i}].part",
                             f"{u.part.part!r} is not one of the four part names ({', '.join(part_names)})")


@dataclass(frozen=True)
class Completion:
    stack: int
    missing: str
    cards: tuple[int, ...]     # indices into the unseen list
    count: int
    p: Fraction                # chance the next draw holds at least one of them


def completing(factory: Factory, unseen: Sequence[UnseenCard], part_names: Sequence[str],
               draws: int = 3) -> list[Completion]:
    """For each unfrozen stack one part short of a robot: the unseen cards that would finish it
    (the right part name, and a legal placement: a matching of stacks to energies still exists)."""
    total = sum(u.count for u in unseen)
    masks = factory.masks()
    out = []
    for i, s in enumerate(factory.stacks):
        if s.frozen or is_robot(s, part_names):
            continue
        _, _, missing = stack_parts(s, part_names)
        if len(missing) != 1:
            continue
        idx = []
        for j, u in enumerate(unseen):
            if u.part is None or u.part.part != missing[0] or not (u.part.mask & masks[i]):
                continue
            if matchable(masks[:i] + (masks[i] & u.part.mask,) + masks[i + 1:]):
                idx.append(j)
        count = sum(unseen[j].count for j in idx)
        out.append(Completion(i, missing[0], tuple(idx), count, p_at_least_one(total, count, draws)))
    return out


@dataclass(frozen=True)
class DrawOdds:
    total: int
    wanted: int
    draws: int
    p_at_least_one: Fraction
    distribution: tuple[tuple[int, Fraction], ...]
    expected: Fraction


def draw_odds(unseen: Sequence[UnseenCard], wanted: Sequence[int], draws: int = 3) -> DrawOdds:
    """The chance to draw wanted cards (indices into `unseen`, each counted with all its copies)."""
    total = sum(u.count for u in unseen)
    k = sum(unseen[j].count for j in set(wanted))
    dist = hypergeometric(total, k, draws)
    n = min(draws, total)
    expected = Fraction(n * k, total) if total else Fraction(0)
    return DrawOdds(total, k, n, p_at_least_one(total, k, draws), tuple(dist), expected)


def unseen_from_deck(deck_parts: Sequence[tuple[Part, int]], attack: int, defense: int,
                     visible: Sequence[Part], visible_attack: int = 0, visible_defense: int = 0
                     ) -> tuple[tuple[UnseenCard, ...], list[str]]:
    """The deck's cards minus the ones in sight (your factory and hand), with a note for each card
    seen more often than the deck holds (the deck composition is then wrong, or a card was misread)."""
    notes = []
    left = {p: n for p, n in deck_parts}
    for p in visible:
        if left.get(p, 0) > 0:
            left[p] -= 1
        else:
            notes.append(f"{p.label()} is seen more often than the deck composition holds.")
    out = [UnseenCard("part", p, "", n) for p, n in left.items() if n > 0]
    a, d = attack - visible_attack, defense - visible_defense
    if a < 0 or d < 0:
        notes.append("More Attack or Defense cards are in sight than the deck holds.")
    if a > 0:
        out.append(UnseenCard("attack", None, "Attack cards", a))
    if d > 0:
        out.append(UnseenCard("defense", None, "Defense cards", d))
    return tuple(out), notes
