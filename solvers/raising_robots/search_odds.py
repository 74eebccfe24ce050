"""Exact odds of the Friends Search action (rulebook "New Actions > Search"; semantics.md "Search").

The model, as Tablebot reads the rule:
- the *unseen pool* holds N Robot Cards the player cannot see (deck, other hands, discard...);
- the deck is `deck_size` (D) of those cards in uniformly random order, lying on top of the
  *known bottom*: K cards revealed by earlier searches, listed top first (the first one listed is
  the first one a search reaches once the D unknown cards are through);
- a search reveals from the top until a card matches (its row is the chosen row or it is an any-row
  card, and its *basic* action energy is in range); that card is taken;
- when nothing matches, the last revealed card (the deck's bottom card) is taken.

Closed forms. With m matching cards among the N pool cards, the deck's top j cards are the first j
of a uniform permutation of the pool, so the chance that none of them matches is
C(N-j, m) / C(N, m) (all m matches sit in the other N-j places). Hence
  Q = P(no match among the D unknown cards) = C(N-D, m) / C(N, m),
  E[cards revealed among the D] = sum_{j<D} C(N-j, m) / C(N, m)
                                = (C(N+1, m+1) - C(N-D+1, m+1)) / C(N, m)   (hockey stick),
and by symmetry a match found in the unknown part is a uniform one of the m matching cards.
Everything past the unknown part is fixed: the first matching known-bottom card, else the
no-match branch. Only integer binomials and a few Fractions per criteria: `best` over all 84
criteria stays in the low milliseconds on a 90-card pool.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import comb

from solvers.errors import InputError

from .model import ROWS

ANY_ROW = "any"
CARD_ROWS = (*ROWS, ANY_ROW)
ENERGIES = tuple(range(1, 8))
MAX_POOL_CARDS = 400  # far above any Robot Card deck; keeps binomials (and request time) small

DECK, KNOWN_BOTTOM, NO_MATCH = "deck", "known_bottom", "no_match"


class SearchInputError(InputError):
    """A search situation that cannot exist; `field` (= `path`) names the offending input (API path style)."""

    @property
    def field(self) -> str:
        return self.path


def _check_card(row: str, energy: int, where: str) -> None:
    if row not in CARD_ROWS:
        raise SearchInputError(f"{where}.row", f"must be one of {', '.join(CARD_ROWS)}")
    if isinstance(energy, bool) or not isinstance(energy, int) or energy not in ENERGIES:
        raise SearchInputError(f"{where}.energy", "must be a whole number from 1 to 7")


@dataclass(frozen=True)
class Criteria:
    """What the searching player names: one Phase Row and a range of basic action energy."""
    row: str
    energy_min: int
    energy_max: int

    def __post_init__(self) -> None:
        if self.row not in ROWS:
            raise SearchInputError("criteria.row", f"must be one of {', '.join(ROWS)}")
        for name in ("energy_min", "energy_max"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value not in ENERGIES:
                raise SearchInputError(f"criteria.{name}", "must be a whole number from 1 to 7")
        if self.energy_min > self.energy_max:
            raise SearchInputError("criteria.energy_max", "must not be below energy_min")

    def matches(self, row: str, energy: int) -> bool:
        """Any-row cards count as every row; only the basic action's energy is looked at."""
        return (row == self.row or row == ANY_ROW) and self.energy_min <= energy <= self.energy_max

    def as_dict(self) -> dict:
        return {"row": self.row, "energy_min": self.energy_min, "energy_max": self.energy_max}


ALL_CRITERIA: tuple[Criteria, ...] = tuple(
    Criteria(row, lo, hi) for row in ROWS for lo in ENERGIES for hi in ENERGIES if lo <= hi)


@dataclass(frozen=True)
class Card:
    """One known card (a known-bottom card, a revealed card, a taken card)."""
    row: str
    energy: int
    label: str = ""
    wanted: bool = False

    def __post_init__(self) -> None:
        _check_card(self.row, self.energy, "card")

    def same_card(self, other: Card) -> bool:
        """Same kind of card: row and energy, and the label when both carry one."""
        return (self.row, self.energy) == (other.row, other.energy) and (
            not self.label or not other.label or self.label == other.label)


@dataclass(frozen=True)
class CardGroup:
    """`count` unseen cards of one kind."""
    row: str
    energy: int
    count: int
    label: str = ""
    wanted: bool = False

    def __post_init__(self) -> None:
        _check_card(self.row, self.energy, "pool")
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 0:
            raise SearchInputError("pool.count", "must be a whole number, 0 or more")

    def card(self) -> Card:
        return Card(self.row, self.energy, self.label, self.wanted)


@dataclass(frozen=True)
class Deck:
    """What the player knows about the Robot deck."""
    pool: tuple[CardGroup, ...]
    deck_size: int
    known_bottom: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "pool", tuple(self.pool))
        object.__setattr__(self, "known_bottom", tuple(self.known_bottom))
        total = self.pool_cards
        if total > MAX_POOL_CARDS:
            raise SearchInputError("pool", f"holds {total} cards; at most {MAX_POOL_CARDS} are accepted")
        if isinstance(self.deck_size, bool) or not isinstance(self.deck_size, int) or self.deck_size < 0:
            raise SearchInputError("deck_size", "must be a whole number, 0 or more")
        if self.deck_size > total:
            raise SearchInputError(
                "deck_size", f"is {self.deck_size} but the unseen pool holds only {total} cards")

    @property
    def pool_cards(self) -> int:
        return sum(g.count for g in self.pool)

    @property
    def cards_in_deck(self) -> int:
        return self.deck_size + len(self.known_bottom)


@dataclass(frozen=True)
class Outcome:
    """One way the search can end: the card taken, where it came from, and its chance."""
    source: str            # DECK (a matching card among the unknown ones), KNOWN_BOTTOM, or NO_MATCH
    row: str
    energy: int
    label: str
    wanted: bool
    p: Fraction
    group: int | None = None      # index into the pool, for cards from the unknown part
    position: int | None = None   # index into the known bottom, for known cards


@dataclass(frozen=True)
class SearchOdds:
    criteria: Criteria
    p_match: Fraction
    expected_revealed: Fraction
    p_wanted: Fraction
    outcomes: tuple[Outcome, ...]
    revealed: tuple[Fraction, ...]      # revealed[n-1] = P(exactly n cards are revealed)
    match_within: tuple[Fraction, ...]  # match_within[n-1] = P(a match is among the first n revealed)
    matching_in_pool: int
    pool_cards: int

    def p_match_within(self, n: int) -> Fraction:
        if n <= 0:
            return Fraction(0)
        return self.match_within[min(n, len(self.match_within)) - 1]


@dataclass(frozen=True)
class RankedCriteria:
    criteria: Criteria
    p_wanted: Fraction
    p_match: Fraction
    expected_revealed: Fraction
    rank: int  # 1 = best; criteria with equal p_wanted and expected_revealed share a rank


class _Binomials:
    """C(N, m)-based quantities for one (N, D), cached by m: they depend on nothing else."""

    def __init__(self, pool_cards: int, deck_size: int):
        self.n, self.d = pool_cards, deck_size
        self._cache: dict[int, tuple[int, int, int]] = {}

    def get(self, m: int) -> tuple[int, int, int]:
        """(C(N, m), C(N-D, m), C(N+1, m+1) - C(N-D+1, m+1)): the common denominator, Q's numerator
        and the numerator of the expected number of unknown cards revealed."""
        hit = self._cache.get(m)
        if hit is None:
            n, d = self.n, self.d
            hit = (comb(n, m), comb(n - d, m), comb(n + 1, m + 1) - comb(n - d + 1, m + 1))
            self._cache[m] = hit
        return hit


def _first_match(known_bottom: Sequence[Card], criteria: Criteria) -> int | None:
    for i, card in enumerate(known_bottom):
        if criteria.matches(card.row, card.energy):
            return i
    return None


def _require_cards(deck: Deck) -> None:
    if deck.cards_in_deck == 0:
        raise SearchInputError("deck_size", "the deck is empty (deck_size is 0 and there is no known bottom)")


def search_odds(deck: Deck, criteria: Criteria) -> SearchOdds:
    """Every outcome of one search with its exact chance; the chances sum to exactly 1."""
    _require_cards(deck)
    n, d, k = deck.pool_cards, deck.deck_size, len(deck.known_bottom)
    matching = [i for i, g in enumerate(deck.pool) if g.count and criteria.matches(g.row, g.energy)]
    m = sum(deck.pool[i].count for i in matching)
    denom, q_num, e_num = _Binomials(n, d).get(m)
    q = Fraction(q_num, denom)  # no match among the D unknown cards

    outcomes: list[Outcome] = []
    if m:
        for i in matching:
            g = deck.pool[i]
            p = (1 - q) * Fraction(g.count, m)
            if p:
                outcomes.append(Outcome(DECK, g.row, g.energy, g.label, g.wanted, p, group=i))

    # P(exactly j revealed) for j <= D: no match in the first j-1, then a match at j
    none_first = [Fraction(comb(n - j, m), denom) for j in range(d + 1)]
    revealed = [none_first[j - 1] - none_first[j] for j in range(1, d + 1)] + [Fraction(0)] * k
    expected = Fraction(e_num, denom)

    hit = _first_match(deck.known_bottom, criteria)
    if hit is not None:
        card = deck.known_bottom[hit]
        if q:
            outcomes.append(Outcome(KNOWN_BOTTOM, card.row, card.energy, card.label, card.wanted, q,
                                    position=hit))
        revealed[d + hit] += q
        expected += q * (hit + 1)
        p_match = Fraction(1)
    else:
        p_match = 1 - q
        if q:
            if k:
                card = deck.known_bottom[-1]
                outcomes.append(Outcome(NO_MATCH, card.row, card.energy, card.label, card.wanted, q,
                                        position=k - 1))
            else:  # the deck's bottom card is a uniform one of the non-matching pool cards
                for i, g in enumerate(deck.pool):
                    if g.count and not criteria.matches(g.row, g.energy):
                        outcomes.append(Outcome(NO_MATCH, g.row, g.energy, g.label, g.wanted,
                                                q * Fraction(g.count, n - m), group=i))
        revealed[d + k - 1] += q
        expected += q * k

    p_wanted = sum((o.p for o in outcomes if o.wanted), Fraction(0))
    within = [1 - none_first[j] for j in range(1, d + 1)]
    within += [1 - q + (q if hit is not None and j >= hit else 0) for j in range(k)]
    return SearchOdds(criteria, p_match, expected, p_wanted, tuple(outcomes), tuple(revealed),
                      tuple(within), m, n)


def _cell_sums(deck: Deck) -> tuple[dict[tuple[str, int], int], dict[tuple[str, int], int]]:
    counts: dict[tuple[str, int], int] = {}
    wanted: dict[tuple[str, int], int] = {}
    for g in deck.pool:
        key = (g.row, g.energy)
        counts[key] = counts.get(key, 0) + g.count
        if g.wanted:
            wanted[key] = wanted.get(key, 0) + g.count
    return counts, wanted


def best_criteria(deck: Deck) -> list[RankedCriteria]:
    """All 84 criteria, best first: highest chance to take a wanted card, then fewest cards revealed.

    The same numbers as `search_odds` (tests hold them equal), computed from per-row prefix sums."""
    _require_cards(deck)
    n, d, k = deck.pool_cards, deck.deck_size, len(deck.known_bottom)
    counts, wanted = _cell_sums(deck)
    wanted_total = sum(wanted.values())
    binomials = _Binomials(n, d)
    last = deck.known_bottom[-1] if k else None

    criteria_in_order = iter(ALL_CRITERIA)  # row, then energy_min, then energy_max: the loops' order
    scored = []
    for row_index, row in enumerate(ROWS):
        per_energy = [counts.get((row, e), 0) + counts.get((ANY_ROW, e), 0) for e in ENERGIES]
        per_energy_w = [wanted.get((row, e), 0) + wanted.get((ANY_ROW, e), 0) for e in ENERGIES]
        for lo in ENERGIES:
            m = w = 0
            for hi in range(lo, 8):
                m += per_energy[hi - 1]
                w += per_energy_w[hi - 1]
                criteria = next(criteria_in_order)
                denom, q_num, e_num = binomials.get(m)
                hit = _first_match(deck.known_bottom, criteria)
                # numerators over denom (times m or n-m where a uniform pick among them is involved)
                found = Fraction((denom - q_num) * w, denom * m) if m else Fraction(0)
                if hit is not None:
                    tail_wanted = deck.known_bottom[hit].wanted
                    extra = hit + 1
                    p_match = Fraction(1)
                elif last is not None:
                    tail_wanted, extra = last.wanted, k
                    p_match = Fraction(denom - q_num, denom)
                else:
                    tail_wanted, extra = None, 0
                    p_match = Fraction(denom - q_num, denom)
                if tail_wanted is None:
                    tail = Fraction(q_num * (wanted_total - w), denom * (n - m)) if q_num else Fraction(0)
                else:
                    tail = Fraction(q_num, denom) if tail_wanted else Fraction(0)
                expected = Fraction(e_num + q_num * extra, denom)
                scored.append((-(found + tail), expected, row_index, lo, hi, criteria, p_match))
    scored.sort(key=lambda s: s[:5])
    ranking: list[RankedCriteria] = []
    rank, previous = 0, None
    for position, (neg_wanted, expected, _r, _lo, _hi, criteria, p_match) in enumerate(scored, start=1):
        if (neg_wanted, expected) != previous:
            rank, previous = position, (neg_wanted, expected)
        ranking.append(RankedCriteria(criteria, -neg_wanted, p_match, expected, rank))
    return ranking


# ---------------------------------------------------------------------------------------------
# Deck tracking: what the table learns from a search or a draw

@dataclass(frozen=True)
class SearchRecord:
    deck: Deck                 # the deck as the player knows it after the search
    taken: Card
    matched: bool
    set_aside: tuple[CardGroup, ...] = field(default=())  # no-match only: pool cards not in the deck


def _take_from_pool(pool: list[CardGroup], card: Card, where: str) -> Card:
    """Remove one card of this kind from the pool; the card as the pool knew it (label, wanted)."""
    for i, g in enumerate(pool):
        if g.count and g.card().same_card(card):
            pool[i] = replace(g, count=g.count - 1)
            return Card(g.row, g.energy, g.label or card.label, g.wanted or card.wanted)
    raise SearchInputError(where, f"no {card.row} card with energy {card.energy} is left in the unseen pool")


def group_cards(cards: Iterable[Card]) -> tuple[CardGroup, ...]:
    """Cards as pool groups, one per kind, in first-seen order."""
    counts: dict[tuple, int] = {}
    for c in cards:
        key = (c.row, c.energy, c.label, c.wanted)
        counts[key] = counts.get(key, 0) + 1
    return tuple(CardGroup(row, energy, count, label, wanted)
                 for (row, energy, label, wanted), count in counts.items())


def record_search(deck: Deck, criteria: Criteria, revealed: Sequence[Card]) -> SearchRecord:
    """Apply a search whose revealed cards (in order, the taken card last) the player entered.

    Match: the taken card leaves, the others go under the known bottom in the order they came up.
    No match: the last card is taken and the rest are shuffled into a new deck; that deck is then
    exactly those cards in random order, so they become the whole pool (the pool cards that were
    not in the deck come back as `set_aside`)."""
    _require_cards(deck)
    where = "revealed"
    if not revealed:
        raise SearchInputError(where, "list the revealed cards in order, the taken card last")
    d, kb = deck.deck_size, deck.known_bottom
    if len(revealed) > deck.cards_in_deck:
        raise SearchInputError(where, f"lists {len(revealed)} cards but the deck holds {deck.cards_in_deck}")
    pool = list(deck.pool)
    seen: list[Card] = []
    for i, card in enumerate(revealed):
        if i < d:
            seen.append(_take_from_pool(pool, card, f"{where}[{i}]"))
        else:
            known = kb[i - d]
            if not known.same_card(card):
                raise SearchInputError(
                    f"{where}[{i}]", f"the known bottom has a {known.row} card with energy {known.energy} here")
            seen.append(known)
    for i, card in enumerate(seen[:-1]):
        if criteria.matches(card.row, card.energy):
            raise SearchInputError(f"{where}[{i}]", "matches the criteria, so the search would have stopped there")
    taken = seen[-1]
    if criteria.matches(taken.row, taken.energy):
        r = len(seen)
        if r <= d:
            after = Deck(tuple(pool), d - r, kb + tuple(seen[:-1]))
        else:
            hit = r - d - 1
            after = Deck(tuple(pool), 0, kb[hit + 1:] + tuple(seen[:-1]))
        return SearchRecord(after, taken, True)
    if len(seen) != deck.cards_in_deck:
        raise SearchInputError(f"{where}[{len(seen) - 1}]",
                               "does not match the criteria, but the deck still had cards to reveal")
    rest = seen[:-1]
    after = Deck(group_cards(rest), len(rest), ())
    return SearchRecord(after, taken, False, tuple(g for g in pool if g.count))


def record_draw(deck: Deck, seen: Card | None = None) -> Deck:
    """A normal draw of the top card. `seen`: the card, when the player drew it (it leaves the pool);
    None when someone else drew it (it stays unseen, so the pool keeps it)."""
    if deck.deck_size:
        pool = list(deck.pool)
        if seen is not None:
            _take_from_pool(pool, seen, "seen")
        return Deck(tuple(pool), deck.deck_size - 1, deck.known_bottom)
    if not deck.known_bottom:
        raise SearchInputError("deck_size", "the deck is empty: there is no card to draw")
    top = deck.known_bottom[0]
    if seen is not None and not top.same_card(seen):
        raise SearchInputError("seen", f"the top card is the known {top.row} card with energy {top.energy}")
    return Deck(deck.pool, 0, deck.known_bottom[1:])


# ---------------------------------------------------------------------------------------------
# Without a known pool: odds estimated from the cards the table has seen

KINDS: tuple[tuple[str, int], ...] = tuple((row, e) for row in CARD_ROWS for e in ENERGIES)  # 28 kinds
PRIOR_PER_KIND = 1  # one imagined card of each kind besides those seen (Laplace's rule of succession)


@dataclass(frozen=True)
class Estimate:
    """The picture of the deck built from `seen` cards: each unknown card is taken to be of kind k with
    chance (seen of k + 1) / (seen + 28), independently of the others. An estimate, not the exact odds: the
    real deck holds each card once, and the seen cards may not be typical of it."""
    seen: tuple[Card, ...]
    deck_size: int
    known_bottom: tuple[Card, ...] = ()
    wanted: frozenset[tuple[str, int]] = frozenset()  # kinds the player marks wanted

    def __post_init__(self) -> None:
        object.__setattr__(self, "seen", tuple(self.seen))
        object.__setattr__(self, "known_bottom", tuple(self.known_bottom))
        if isinstance(self.deck_size, bool) or not isinstance(self.deck_size, int) or self.deck_size < 0:
            raise SearchInputError("deck_size", "must be a whole number, 0 or more")
        if self.deck_size > MAX_POOL_CARDS:
            raise SearchInputError("deck_size", f"must be at most {MAX_POOL_CARDS}")
        if self.deck_size == 0 and not self.known_bottom:
            raise SearchInputError("deck_size", "the deck is empty (deck_size is 0 and there is no known bottom)")

    def counts(self) -> dict[tuple[str, int], int]:
        """Each kind's weight: the cards of it seen, plus the imagined one."""
        counts = {k: PRIOR_PER_KIND for k in KINDS}
        for c in self.seen:
            counts[(c.row, c.energy)] += 1
        return counts

    def chances(self) -> dict[tuple[str, int], Fraction]:
        counts = self.counts()
        total = sum(counts.values())
        return {k: Fraction(n, total) for k, n in counts.items()}

    def assumes(self) -> str:
        n = len(self.seen)
        seen = f"the {n} card{'s' if n != 1 else ''} the table has seen" if n else "no card seen yet"
        return (f"An estimate: each of the {self.deck_size} unknown cards is taken to be like {seen}, plus one "
                "imagined card of each row and energy (so that no kind is ruled out). Enter the cards left in the "
                "deck for exact odds.")


def estimate_odds(est: Estimate, criteria: Criteria) -> SearchOdds:
    """A search's outcomes under the estimate: a match among the unknown cards is at each card with
    chance p (the share of matching kinds), so the first match is geometric; past them the known bottom is
    fixed, as in `search_odds`. The outcome chances sum to exactly 1."""
    q = est.chances()
    d, k = est.deck_size, len(est.known_bottom)
    p = sum((q[kind] for kind in KINDS if criteria.matches(*kind)), Fraction(0))
    miss_all = (1 - p) ** d  # no match among the unknown cards
    outcomes: list[Outcome] = []
    for kind in KINDS:
        if criteria.matches(*kind) and p:
            outcomes.append(Outcome(DECK, kind[0], kind[1], "", kind in est.wanted, (1 - miss_all) * q[kind] / p))
    none_first = [(1 - p) ** j for j in range(d + 1)]
    revealed = [none_first[j - 1] - none_first[j] for j in range(1, d + 1)] + [Fraction(0)] * k
    expected = sum(none_first[:d], Fraction(0))
    hit = _first_match(est.known_bottom, criteria)
    if hit is not None:
        card = est.known_bottom[hit]
        if miss_all:
            outcomes.append(Outcome(KNOWN_BOTTOM, card.row, card.energy, card.label, card.wanted, miss_all,
                                    position=hit))
        revealed[d + hit] += miss_all
        expected += miss_all * (hit + 1)
        p_match = Fraction(1)
    else:
        p_match = 1 - miss_all
        if miss_all:
            if k:
                card = est.known_bottom[-1]
                outcomes.append(Outcome(NO_MATCH, card.row, card.energy, card.label, card.wanted, miss_all,
                                        position=k - 1))
            else:  # the bottom card of the deck: a non-matching kind, by its chance among those
                for kind in KINDS:
                    if not criteria.matches(*kind):
                        outcomes.append(Outcome(NO_MATCH, kind[0], kind[1], "", kind in est.wanted,
                                                miss_all * q[kind] / (1 - p)))
        revealed[d + k - 1] += miss_all
        expected += miss_all * k
    p_wanted = sum((o.p for o in outcomes if o.wanted), Fraction(0))
    within = [1 - none_first[j] for j in range(1, d + 1)]
    within += [1 - miss_all + (miss_all if hit is not None and j >= hit else 0) for j in range(k)]
    return SearchOdds(criteria, p_match, expected, p_wanted, tuple(outcomes), tuple(revealed), tuple(within),
                      matching_in_pool=0, pool_cards=0)


def estimate_best(est: Estimate) -> list[RankedCriteria]:
    """All 84 criteria under the estimate, ranked as `best_criteria` ranks them (the same numbers as
    `estimate_odds`, from closed forms: tests hold them equal)."""
    counts = est.counts()
    total = sum(counts.values())
    d, k = est.deck_size, len(est.known_bottom)
    wanted_total = Fraction(sum(n for kind, n in counts.items() if kind in est.wanted), total)
    # per row and energy: the weight of the kinds a criteria on that row matches (the row's and any-row's)
    fits = {(row, e): counts[(row, e)] + counts[(ANY_ROW, e)] for row in ROWS for e in ENERGIES}
    fits_w = {(row, e): (counts[(row, e)] if (row, e) in est.wanted else 0)
              + (counts[(ANY_ROW, e)] if (ANY_ROW, e) in est.wanted else 0) for row in ROWS for e in ENERGIES}
    scored = []
    for position, criteria in enumerate(ALL_CRITERIA):
        span = range(criteria.energy_min, criteria.energy_max + 1)
        p = Fraction(sum(fits[(criteria.row, e)] for e in span), total)
        w = Fraction(sum(fits_w[(criteria.row, e)] for e in span), total)
        miss_all = (1 - p) ** d
        expected = (1 - miss_all) / p if p else Fraction(d)
        found = (1 - miss_all) * w / p if p else Fraction(0)
        hit = _first_match(est.known_bottom, criteria)
        if hit is not None:
            p_match, expected = Fraction(1), expected + miss_all * (hit + 1)
            tail = miss_all if est.known_bottom[hit].wanted else Fraction(0)
        else:
            p_match = 1 - miss_all
            if k:
                expected += miss_all * k
                tail = miss_all if est.known_bottom[-1].wanted else Fraction(0)
            else:
                tail = miss_all * (wanted_total - w) / (1 - p) if p < 1 else Fraction(0)
        scored.append((-(found + tail), expected, position, criteria, p_match))
    scored.sort(key=lambda s: s[:3])
    ranking: list[RankedCriteria] = []
    rank, previous = 0, None
    for place, (neg_wanted, expected, _, criteria, p_match) in enumerate(scored, start=1):
        if (neg_wanted, expected) != previous:
            rank, previous = place, (neg_wanted, expected)
        ranking.append(RankedCriteria(criteria, -neg_wanted, p_match, expected, rank))
    return ranking


def record_seen_search(est: Estimate, criteria: Criteria, revealed: Sequence[Card]) -> tuple[Estimate, Card, bool]:
    """A search recorded when the pool is not known: every revealed card joins the cards seen; as in
    `record_search`, a match is taken and the others go under the known bottom in order. When nothing
    matches, the last card is taken and the rest are shuffled into a new deck: those cards are then known
    exactly, and the caller turns them into the pool (`group_cards` of all revealed but the last)."""
    where = "revealed"
    if not revealed:
        raise SearchInputError(where, "list the revealed cards in order, the taken card last")
    d, kb = est.deck_size, est.known_bottom
    if len(revealed) > d + len(kb):
        raise SearchInputError(where, f"lists {len(revealed)} cards but the deck holds {d + len(kb)}")
    for i, card in enumerate(revealed):
        if i >= d and not kb[i - d].same_card(card):
            known = kb[i - d]
            raise SearchInputError(f"{where}[{i}]", f"the known bottom has a {known.row} card with energy {known.energy} here")
    for i, card in enumerate(revealed[:-1]):
        if criteria.matches(card.row, card.energy):
            raise SearchInputError(f"{where}[{i}]", "matches the criteria, so the search would have stopped there")
    taken, r = revealed[-1], len(revealed)
    seen = est.seen + tuple(revealed[:d])  # known-bottom cards were seen already
    if criteria.matches(taken.row, taken.energy):
        if r <= d:
            after = replace(est, seen=seen, deck_size=d - r, known_bottom=kb + tuple(revealed[:-1]))
        else:
            after = replace(est, seen=seen, deck_size=0, known_bottom=kb[r - d:] + tuple(revealed[:-1]))
        return after, taken, True
    if r != d + len(kb):
        raise SearchInputError(f"{where}[{r - 1}]", "does not match the criteria, but the deck still had cards to reveal")
    return replace(est, seen=seen, deck_size=r - 1, known_bottom=()), taken, False
