"""Exact chances for the next draw: hypergeometric over the unseen cards the players entered.

The next draw is three cards off the top of the Action deck. Other players draw before you, but
nobody sees their cards, so your next three are a uniformly random three of the cards you have not
seen (exchangeability); the answer is the hypergeometric distribution over those cards. The cards
you have not seen are the deck minus everything in sight: every factory, your hand, the discard pile
and any other card seen (`unseen_pool`); the other players' hands are among them.
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
        out.append(Completion(stack=i, missing=missing[0], cards=tuple(idx), count=count,
                              p=p_at_least_one(total, count, draws)))
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
    return DrawOdds(total=total, wanted=k, draws=n, p_at_least_one=p_at_least_one(total, k, draws),
                    distribution=tuple(dist), expected=expected)


@dataclass(frozen=True)
class Deck:
    """The Action deck's composition: part cards with their copies, and the Attack and Defense counts."""
    parts: tuple[tuple[Part, int], ...]
    attack: int
    defense: int
    source: str = "default"    # "default" (the unverified composition) or "entered"


@dataclass(frozen=True)
class Sighting:
    """Cards in sight from one place at the table (they are not in the deck any more)."""
    place: str                 # "your_factory", "your_hand", "other_factories", "discard", "seen"
    parts: tuple[Part, ...] = ()
    attack: int = 0
    defense: int = 0


PLACES = {"your_factory": "your factory", "your_hand": "your hand", "other_factories": "the other factories",
          "discard": "the discard pile", "seen": "the other cards seen"}


@dataclass(frozen=True)
class UnseenPool:
    cards: tuple[UnseenCard, ...]
    used: tuple[tuple[str, int], ...]   # (place, cards it took off the deck), in the order given
    notes: tuple[str, ...]
    source: str

    @property
    def total(self) -> int:
        return sum(u.count for u in self.cards)


def unseen_pool(deck: Deck, sightings: Sequence[Sighting]) -> UnseenPool:
    """The deck minus every card in sight, place by place, with a note for each card seen more often
    than the deck holds (the composition is then wrong, or a card was misread). Other players' hands
    are not in sight: their cards stay unseen (hand sizes are public, contents are not)."""
    notes: list[str] = []
    left = {p: n for p, n in deck.parts}
    attack, defense = deck.attack, deck.defense
    used = []
    for s in sightings:
        taken = 0
        for p in s.parts:
            if left.get(p, 0) > 0:
                left[p] -= 1
                taken += 1
            else:
                notes.append(f"{p.label()} in {PLACES.get(s.place, s.place)} is seen more often than the deck holds.")
        a, d = min(attack, s.attack), min(defense, s.defense)
        if (a, d) != (s.attack, s.defense):
            notes.append(f"More Attack or Defense cards are in sight than the deck holds ({PLACES.get(s.place, s.place)}).")
        attack, defense = attack - a, defense - d
        used.append((s.place, taken + a + d))
    out = [UnseenCard(kind="part", part=p, name="", count=n) for p, n in left.items() if n > 0]
    if attack > 0:
        out.append(UnseenCard(kind="attack", part=None, name="Attack cards", count=attack))
    if defense > 0:
        out.append(UnseenCard(kind="defense", part=None, name="Defense cards", count=defense))
    return UnseenPool(cards=tuple(out), used=tuple(used), notes=tuple(notes), source=deck.source)
