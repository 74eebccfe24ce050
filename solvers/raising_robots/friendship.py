"""The Friendship deck: built at setup, then drawn, kept, discarded and reshuffled as the game goes, and the
exact chance that a draw shows a card (rulebook, "Competitions & Friendships").

Rules followed (each cited where it is applied):
- Changes to Setup, step 4: once inventors are chosen, the Friendship Cards matching an inventor in play are
  taken out, the rest shuffled face down. IMPORTANT: without the Pets expansion the paw cards are taken out.
- Completion Rewards: a reward draws 3 (A side) or 2 (B side) cards and keeps 1. Cards not kept go to a
  discard pile beside the deck. The discard pile is shuffled into a new deck only when a card must be drawn
  and the deck is empty: in the middle of a draw when the deck runs out.
- Friendships, IMPORTANT: at most 2 Friendship Cards per player.

Secrets. The rulebook does not say that the discard pile lies face up, so Tablebot treats the cards a player
drew and did not keep as seen by that player alone (rule entry "rr-reading-friendship-discard"). The kept
card is public (it lies beside the Inventor Card). So each seat knows something different, and the odds are
worked out for one viewer: from the public log (every draw's size, every reshuffle, every kept card) and the
viewer's own draws. Cards the viewer never saw are alike to it; so are cards it saw together and did not
keep. A viewer's belief is therefore a mixture over how many cards of each such group lie in each zone (the
deck, the discard pile, a seat's drawn-but-not-kept cards), with exact weights, and within a group every
placement of its cards with those counts is equally likely. What another player's choice of card might hint
about the cards it did not keep is not taken into account (the answer says so).

Pure: no Flask. Exact: fractions.Fraction; chance nodes as (outcome, Fraction) lists.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from math import comb

from solvers import gamedata
from solvers.errors import InputError
from solvers.exact import Distribution

from .abilities import ability_id
from .competitions import FRIENDSHIP_CAP

DRAWS = (3, 2)  # Completion Rewards: A side draws 3, B side draws 2; either keeps 1
MAX_SEATS = 6
NAME_MAX = 40
RULE_SETUP = "rr-competitions-friendships-changes-to-setup"
RULE_PAW = "rr-setup-paw-friendship-cards"
RULE_DECK = "rr-friendship-deck-discard"
RULE_CAP = "rr-important-max-two-friendships"
RULE_REWARDS = "rr-completion-rewards"
RULE_HIDDEN = "rr-reading-friendship-discard"
RULE_AT_CAP = "rr-reading-friendship-draw-at-cap"
NOT_TAKEN = ("Not taken into account: what another player's choice of card might tell about the cards they "
             "did not keep (every card you have not seen counts alike).")


# ---- the cards ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Card:
    id: str
    name: str
    source: str  # "rulebook" (name printed in the rules) or "unverified"
    section: str = ""
    paw: bool = False  # which cards carry the paw is printed nowhere Tablebot could read: unverified


def _load() -> tuple[tuple[Card, ...], int]:
    raw = gamedata.read("raising_robots", "friendship.toml")
    cards = tuple(Card(id=c["id"], name=c["name"], source=c["source"], section=c.get("section", ""),
                       paw=bool(c.get("paw", False))) for c in raw["cards"])
    if len(cards) != raw["count"] or len({c.id for c in cards}) != len(cards):
        raise ValueError("friendship.toml: the card list must hold `count` cards with distinct ids")
    if any(c.source not in gamedata.SOURCES for c in cards):
        raise ValueError("friendship.toml: a card's source must be one of " + ", ".join(gamedata.SOURCES))
    return cards, raw["count"]


DEFAULT_CARDS, DECK_SIZE = _load()
DEFAULT_CARDS_BY_ID = {c.id: c for c in DEFAULT_CARDS}


def matches(card: Card, inventor: str) -> bool:
    """A Friendship Card matches an inventor when both are the same person (by name, however spelled)."""
    who = ability_id(inventor)
    return bool(who) and who in (card.id, ability_id(card.name))


@dataclass(frozen=True)
class Removed:
    card: str
    why: str
    rule: str


@dataclass(frozen=True)
class Built:
    cards: tuple[str, ...]  # the deck at setup, by id, in the card list's order (shuffled at the table)
    removed: tuple[Removed, ...]


def build(cards: Sequence[Card], inventors: Iterable[str], pets: bool) -> Built:
    """The deck at setup (Changes to Setup, step 4 and its IMPORTANT note): every card but those matching an
    inventor in play and, without Pets, those with a paw."""
    inventors = [i for i in inventors if i.strip()]
    deck, removed = [], []
    for card in cards:
        who = next((i for i in inventors if matches(card, i)), None)
        if who is not None:
            removed.append(Removed(card.id, f"{card.name}: the inventor {who.strip()} is in play (no duplicate "
                                            "abilities)", RULE_SETUP))
        elif card.paw and not pets:
            removed.append(Removed(card.id, f"{card.name}: it shows a paw and the game is played without Pets",
                                   RULE_PAW))
        else:
            deck.append(card.id)
    return Built(tuple(deck), tuple(removed))


# ---- the public deck and the reducer ------------------------------------------------------------------

@dataclass(frozen=True)
class Drew:
    """A draw as the whole table sees it: how many cards came from the deck, whether the discard pile was
    then shuffled into a new deck, and how many came from that."""
    seat: int
    from_deck: int
    reshuffled: bool = False
    after_reshuffle: int = 0

    @property
    def count(self) -> int:
        return self.from_deck + self.after_reshuffle


@dataclass(frozen=True)
class Kept:
    seat: int
    card: str


Event = Drew | Kept


@dataclass(frozen=True)
class Deck:
    """The deck as the whole table knows it. `cards`: the deck built at setup; `deck`, `discard`: how many
    cards lie in each pile; `pending`: per seat, cards drawn and not chosen yet; `kept`: per seat, the cards
    kept (public); `log`: every draw and keep, in order (what a viewer's odds are worked out from)."""
    cards: tuple[str, ...] = ()
    deck: int = 0
    discard: int = 0
    pending: Mapping[int, int] = field(default_factory=dict)
    kept: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    log: tuple[Event, ...] = ()
    reshuffles: int = 0

    @staticmethod
    def of(built: Built) -> Deck:
        return Deck(cards=built.cards, deck=len(built.cards))

    def pending_of(self, seat: int) -> int:
        return self.pending.get(seat, 0)

    def kept_by(self, seat: int) -> tuple[str, ...]:
        return tuple(self.kept.get(seat, ()))

    def all_kept(self) -> set[str]:
        return {c for cards in self.kept.values() for c in cards}

    def plan_draw(self, count: int) -> Drew:
        """How a draw of `count` cards goes from here (for seat -1): from the deck, then, if the deck runs
        out, from the discard pile shuffled into a new deck (Completion Rewards)."""
        a = min(count, self.deck)
        reshuffled = a < count and self.discard > 0
        return Drew(-1, a, reshuffled, min(count - a, self.discard) if reshuffled else 0)


@dataclass(frozen=True)
class Seen:
    """One seat's secret: the cards of each of its own draws, in the order drawn (the j-th entry belongs to
    the seat's j-th draw in the log). The last one, while the public deck says the seat has cards pending, is
    the choice it has not made yet."""
    draws: tuple[tuple[str, ...], ...] = ()

    def pending(self, deck: Deck, seat: int) -> tuple[str, ...]:
        if not deck.pending_of(seat) or not self.draws:
            return ()
        if len(self.draws) != sum(1 for e in deck.log if isinstance(e, Drew) and e.seat == seat):
            return ()  # a draw another phone entered for the seat (no phone held it): not in this record
        last = self.draws[-1]
        return last if len(last) == deck.pending_of(seat) else ()


def _check_seat(seat: int) -> None:
    if not 0 <= seat < MAX_SEATS:
        raise InputError("seat", f"a seat is 0 to {MAX_SEATS - 1}")


def _apply_drew(deck: Deck, event: Drew) -> Deck:
    """A draw's public effect (what every phone sees): the deck, the discard pile, the reshuffle."""
    new_deck = deck.deck - event.from_deck
    discard = deck.discard
    if event.reshuffled:
        new_deck, discard = discard - event.after_reshuffle, 0
    return replace(deck, deck=new_deck, discard=discard, pending={**deck.pending, event.seat: event.count},
                   log=(*deck.log, event), reshuffles=deck.reshuffles + event.reshuffled)


def _apply_kept(deck: Deck, event: Kept) -> Deck:
    """A keep's public effect: the card lies beside the seat's Inventor Card, the rest go to the discard."""
    return replace(deck, discard=deck.discard + deck.pending_of(event.seat) - 1,
                   pending={s: n for s, n in deck.pending.items() if s != event.seat},
                   kept={**deck.kept, event.seat: (*deck.kept_by(event.seat), event.card)}, log=(*deck.log, event))


def replayed(cards: Sequence[str], events: Iterable[Event]) -> tuple[Deck, int]:
    """The deck after a stored log, and how many of its events fit the rules: a stored log is read only up
    to its first event that cannot have happened (a hand-edited state), so a page never breaks on one."""
    deck = Deck(cards=tuple(cards), deck=len(cards))
    applied = 0
    for event in events:
        if not 0 <= event.seat < MAX_SEATS:
            break
        if isinstance(event, Drew):
            plan = deck.plan_draw(event.count)
            if deck.pending_of(event.seat) or event.count == 0 or (
                    plan.from_deck, plan.reshuffled, plan.after_reshuffle) != (
                    event.from_deck, event.reshuffled, event.after_reshuffle):
                break
            deck = _apply_drew(deck, event)
        else:
            if not deck.pending_of(event.seat) or event.card not in deck.cards or event.card in deck.all_kept():
                break
            deck = _apply_kept(deck, event)
        applied += 1
    return deck, applied


def draw(deck: Deck, seat: int, count: int, cards: Sequence[str] | None, seen: Seen, held: int = 0
         ) -> tuple[Deck, Seen]:
    """A seat draws `count` Friendship Cards (Completion Rewards) and enters what it drew, in the order
    drawn; `cards=None`: it names none of them (only the one it keeps, later). `held`: Friendship Cards the
    seat holds by the table's record (kept before the deck was followed, say)."""
    _check_seat(seat)
    if count not in DRAWS:
        raise InputError("count", "a reward draws 3 (A side) or 2 (B side) Friendship Cards")
    if deck.pending_of(seat):
        raise InputError("seat", "keep one of the cards this seat drew first")
    holds = max(held, len(deck.kept_by(seat)))
    if holds >= FRIENDSHIP_CAP:
        raise InputError("seat", f"this seat holds {holds} Friendship Cards, the most allowed: take a VP reward "
                                 "instead (Friendships)")
    plan = deck.plan_draw(count)
    total = plan.count
    if total == 0:
        raise InputError("count", "the deck and the discard pile are both empty: there is no card to draw")
    event = Drew(seat, plan.from_deck, plan.reshuffled, plan.after_reshuffle)
    if cards is None:
        return _apply_drew(deck, event), Seen(draws=(*seen.draws, ()))
    cards = [c.strip() for c in cards]
    if len(cards) != total:
        more = "" if total == count else (f" (the deck has {deck.deck} and the discard pile {deck.discard}: "
                                          f"only {total} can be drawn)")
        raise InputError("cards", f"enter the {total} cards drawn{more}")
    for j, c in enumerate(cards):
        if c not in deck.cards:
            raise InputError(f"cards[{j}]", "not a card of this deck")
        if c in cards[:j]:
            raise InputError(f"cards[{j}]", "entered twice")
    _check_possible(deck, seat, seen, cards, plan)
    return _apply_drew(deck, event), Seen(draws=(*seen.draws, tuple(cards)))


def _check_possible(deck: Deck, seat: int, seen: Seen, cards: Sequence[str], plan: Drew) -> None:
    """The cards entered must be possible as far as the drawer knows: not kept, not taken out at setup, and
    not a card it knows lies in the discard pile while no reshuffle comes first (a 400 names the card)."""
    kept = deck.all_kept()
    for j, c in enumerate(cards):
        if c in kept:
            raise InputError(f"cards[{j}]", "this card was kept by a player: it is not in the deck")
    belief = Belief.of(deck, seat, seen)
    for j, c in enumerate(cards):
        in_deck, in_discard, _ = belief.where(c)
        if j < plan.from_deck and not in_deck:
            raise InputError(f"cards[{j}]", "you saw this card go to the discard pile, and the deck was not "
                                            "reshuffled since: it cannot be in the deck. Check the card"
                             if in_discard else "this card is not in the deck: check the card")
        if j >= plan.from_deck and not in_discard:
            raise InputError(f"cards[{j}]", "after the reshuffle the new deck is the old discard pile, and this "
                                            "card was not in it (as far as you know): check the card and the "
                                            "order drawn")
    if not belief.draw_possible(plan, cards):
        raise InputError("cards", "these cards cannot all come in this draw from what you saw: check them")


def keep(deck: Deck, seat: int, card: str, seen: Seen | None) -> tuple[Deck, Seen | None]:
    """The seat keeps one card it drew (public from now on: it lies beside the Inventor Card); the others go
    to the discard pile (Completion Rewards). `seen` None: whoever enters the keep saw none of the seat's
    cards (another phone, for a seat no phone holds), so only the public record checks the card; the seat's
    own draws must not decide the answer, or trying cards one by one would tell which it holds."""
    _check_seat(seat)
    if not deck.pending_of(seat):
        raise InputError("seat", "this seat has no cards drawn to keep from")
    drawn = seen.pending(deck, seat) if seen is not None else ()
    if drawn and card not in drawn:
        raise InputError("card", "keep one of the cards you drew")
    if not drawn:  # a draw whose cards were not named: the card must be one that can have come
        if card not in deck.cards:
            raise InputError("card", "not a card of this deck")
        if card in deck.all_kept():
            raise InputError("card", "this card was kept by a player already")
        if not Belief.of(deck, seat if seen is not None else None, seen).in_zone(card, _pending_zone(seat)):
            raise InputError("card", "as far as this seat saw, the card cannot have come in this draw: check it")
    return _apply_kept(deck, Kept(seat, card)), seen


# ---- what a viewer knows ------------------------------------------------------------------------------

DECK_ZONE, DISCARD_ZONE = 0, 1
ZONES = 2 + MAX_SEATS  # the deck, the discard pile, each seat's pending cards
Counts = tuple[tuple[int, ...], ...]  # per group, how many of its cards lie in each zone


def _pending_zone(seat: int) -> int:
    return 2 + seat


class Inconsistent(Exception):
    """What the viewer saw cannot have happened (a card entered by mistake somewhere)."""


@dataclass(frozen=True)
class Belief:
    """A viewer's knowledge: groups of cards alike to it, and a distribution over how many of each group lie
    in each zone (weights sum to 1)."""
    groups: tuple[tuple[str, ...], ...]
    mix: tuple[tuple[Counts, Fraction], ...]
    consistent: bool = True  # False: the viewer's own draws contradict the public log; public knowledge used

    @staticmethod
    def of(deck: Deck, viewer: int | None, seen: Seen | None = None) -> Belief:
        """The belief of seat `viewer` (with its own draws `seen`), or of someone who saw no card (None)."""
        try:
            return _replay(deck, viewer, seen or Seen())
        except Inconsistent:
            if viewer is None:
                raise
            return replace(_replay(deck, None, Seen()), consistent=False)

    def _group_of(self, card: str) -> int | None:
        return next((i for i, g in enumerate(self.groups) if card in g), None)

    def where(self, card: str) -> tuple[Fraction, Fraction, Fraction]:
        """P(the card lies in the deck), P(in the discard pile), P(among a seat's drawn, not-kept cards)."""
        i = self._group_of(card)
        if i is None:
            return Fraction(0), Fraction(0), Fraction(0)
        m = len(self.groups[i])
        d = sum(w * Fraction(c[i][DECK_ZONE], m) for c, w in self.mix)
        x = sum(w * Fraction(c[i][DISCARD_ZONE], m) for c, w in self.mix)
        return d, x, 1 - d - x

    def in_zone(self, card: str, zone: int) -> Fraction:
        """P(the card lies in `zone`)."""
        i = self._group_of(card)
        if i is None:
            return Fraction(0)
        return sum((w * Fraction(c[i][zone], len(self.groups[i])) for c, w in self.mix), Fraction(0))

    def draw_possible(self, plan: Drew, cards: Sequence[str]) -> bool:
        try:
            _own_draw(list(self.groups), dict(self.mix), plan, cards, 0)
        except Inconsistent:
            return False
        return True


def _normalise(mix: Mapping[Counts, Fraction]) -> dict[Counts, Fraction]:
    total = sum(mix.values())
    if total == 0:
        raise Inconsistent
    return {c: w / total for c, w in mix.items() if w}


def _add(mix: dict[Counts, Fraction], counts: Counts, w: Fraction) -> None:
    mix[counts] = mix.get(counts, Fraction(0)) + w


def _set(counts: Counts, i: int, zone: int, value: int) -> Counts:
    row = list(counts[i])
    row[zone] = value
    return (*counts[:i], tuple(row), *counts[i + 1:])


def _compositions(caps: Sequence[int], total: int) -> Iterable[tuple[int, ...]]:
    """Every way to take `total` cards with at most caps[i] from group i."""
    if not caps:
        if total == 0:
            yield ()
        return
    for x in range(min(caps[0], total) + 1):
        for rest in _compositions(caps[1:], total - x):
            yield (x, *rest)


def _random_draw(mix: Mapping[Counts, Fraction], a: int, to: int) -> dict[Counts, Fraction]:
    """`a` cards leave the deck at random for zone `to` (a multivariate hypergeometric split by group)."""
    if a == 0:
        return dict(mix)
    out: dict[Counts, Fraction] = {}
    for counts, w in mix.items():
        caps = [row[DECK_ZONE] for row in counts]
        n = sum(caps)
        for xs in _compositions(caps, a):
            p = Fraction(1, comb(n, a))
            new = counts
            for i, x in enumerate(xs):
                p *= comb(caps[i], x)
                new = _set(_set(new, i, DECK_ZONE, new[i][DECK_ZONE] - x), i, to, new[i][to] + x)
            _add(out, new, w * p)
    return out


def _move(mix: Mapping[Counts, Fraction], src: int, dst: int) -> dict[Counts, Fraction]:
    out: dict[Counts, Fraction] = {}
    for counts, w in mix.items():
        new = tuple(tuple(0 if z == src else (row[z] + row[src] if z == dst else row[z]) for z in range(ZONES))
                    for row in counts)
        _add(out, new, w)
    return out


def _take(groups: list[tuple[str, ...]], mix: Mapping[Counts, Fraction], cards: Sequence[str], zone: int
          ) -> tuple[list[tuple[str, ...]], dict[Counts, Fraction]]:
    """Condition on these specific cards lying in `zone` and take them out of their groups (they become
    known to the viewer). Within a group, every placement with the given counts is equally likely, so the
    chance that t named cards of a group of m all lie among the c of it in the zone is C(m-t, c-t)/C(m, c)."""
    by_group: dict[int, list[str]] = {}
    for card in cards:
        i = next((k for k, g in enumerate(groups) if card in g), None)
        if i is None:
            raise Inconsistent
        by_group.setdefault(i, []).append(card)
    out: dict[Counts, Fraction] = {}
    for counts, w in mix.items():
        p = Fraction(w)
        new = counts
        for i, named in by_group.items():
            m, c, t = len(groups[i]), counts[i][zone], len(named)
            if c < t:
                p = Fraction(0)
                break
            p *= Fraction(comb(m - t, c - t), comb(m, c))
            new = _set(new, i, zone, c - t)
        if p:
            _add(out, new, p)
    groups = [tuple(c for c in g if c not in cards) for g in groups]
    return groups, _normalise(out)


def _new_group(groups: list[tuple[str, ...]], mix: Mapping[Counts, Fraction], cards: Sequence[str], zone: int
               ) -> tuple[list[tuple[str, ...]], dict[Counts, Fraction]]:
    row = tuple(len(cards) if z == zone else 0 for z in range(ZONES))
    return [*groups, tuple(cards)], {(*c, row): w for c, w in mix.items()}


def _prune(groups: list[tuple[str, ...]], mix: Mapping[Counts, Fraction]
           ) -> tuple[list[tuple[str, ...]], dict[Counts, Fraction]]:
    keep = [i for i, g in enumerate(groups) if g]
    out: dict[Counts, Fraction] = {}
    for c, w in mix.items():
        _add(out, tuple(c[i] for i in keep), w)
    return [groups[i] for i in keep], out


def _own_draw(groups: list[tuple[str, ...]], mix: dict[Counts, Fraction], plan: Drew, cards: Sequence[str],
              seat: int) -> tuple[list[tuple[str, ...]], dict[Counts, Fraction]]:
    first, rest = list(cards[:plan.from_deck]), list(cards[plan.from_deck:])
    groups, mix = _take(groups, mix, first, DECK_ZONE)
    if plan.reshuffled:
        mix = _move(mix, DISCARD_ZONE, DECK_ZONE)
        groups, mix = _take(groups, mix, rest, DECK_ZONE)
    return _new_group(groups, mix, cards, _pending_zone(seat))


def _replay(deck: Deck, viewer: int | None, seen: Seen) -> Belief:
    groups: list[tuple[str, ...]] = [tuple(deck.cards)]
    mix: dict[Counts, Fraction] = {((len(deck.cards),) + (0,) * (ZONES - 1),): Fraction(1)}
    own = iter(seen.draws)
    own_draws = sum(1 for e in deck.log if isinstance(e, Drew) and e.seat == viewer)
    use_own = viewer is not None and len(seen.draws) == own_draws
    for event in deck.log:
        if isinstance(event, Drew):
            cards = next(own, None) if event.seat == viewer else None
            if use_own and cards and len(cards) == event.count:
                groups, mix = _own_draw(groups, mix, event, cards, event.seat)
            else:
                mix = _random_draw(mix, event.from_deck, _pending_zone(event.seat))
                if event.reshuffled:
                    mix = _move(mix, DISCARD_ZONE, DECK_ZONE)
                    mix = _random_draw(mix, event.after_reshuffle, _pending_zone(event.seat))
        else:
            zone = _pending_zone(event.seat)
            groups, mix = _take(groups, mix, [event.card], zone)
            mix = _move(mix, zone, DISCARD_ZONE)
        groups, mix = _prune(groups, mix)
    return Belief(tuple(groups), tuple(mix.items()))


# ---- the odds of a draw -------------------------------------------------------------------------------

def _hypergeometric(total: int, special: int, drawn: int) -> dict[int, Fraction]:
    """How many special cards a random `drawn` of `total` cards holds."""
    return _hg(total, special, drawn)


@cache
def _hg(total: int, special: int, drawn: int) -> dict[int, Fraction]:
    if drawn == 0 or special == 0:
        return {0: Fraction(1)}
    return {x: Fraction(comb(special, x) * comb(total - special, drawn - x), comb(total, drawn))
            for x in range(max(0, drawn - (total - special)), min(special, drawn) + 1)}


def _convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


@dataclass(frozen=True)
class Odds:
    """A draw of `count` from the deck as the viewer knows it."""
    count: int
    plan: Drew  # how many from the deck, whether a reshuffle comes, how many after it
    cards: Distribution  # each card of the deck built at setup: P(this draw shows it)
    chosen: tuple[str, ...]
    shown: Distribution  # P(the draw shows exactly n of the chosen cards), n = 0..
    p_any: Fraction  # P(at least one chosen card shows)
    where: dict[str, tuple[Fraction, Fraction, Fraction]]  # card -> P(deck), P(discard), P(another's hand)
    consistent: bool
    why: str
    notes: tuple[str, ...]


def odds(deck: Deck, count: int, chosen: Iterable[str] = (), viewer: int | None = None,
         seen: Seen | None = None) -> Odds:
    """The exact chance that the next draw of `count` cards shows each card, and how many of the `chosen`
    cards it shows, for `viewer` (its own draws `seen` count; None: only what the whole table knows)."""
    if count not in DRAWS:
        raise InputError("count", "a reward draws 3 (A side) or 2 (B side) Friendship Cards")
    chosen = tuple(dict.fromkeys(chosen))
    for j, c in enumerate(chosen):
        if c not in deck.cards:
            raise InputError(f"cards[{j}]", "not a card of this deck")
    belief = Belief.of(deck, viewer, seen)
    plan = deck.plan_draw(count)
    n, d = deck.deck, deck.discard
    a, b = plan.from_deck, plan.after_reshuffle

    def shown_if(counts_row: tuple[int, ...], m: int) -> Fraction:
        p = Fraction(counts_row[DECK_ZONE], m) * (Fraction(a, n) if n else 0)
        if plan.reshuffled:
            p += Fraction(counts_row[DISCARD_ZONE], m) * Fraction(b, d)
        return p

    per_card: Distribution = []
    where: dict[str, tuple[Fraction, Fraction, Fraction]] = {}
    for card in deck.cards:
        i = belief._group_of(card)
        if i is None:
            per_card.append((card, Fraction(0)))
            continue
        m = len(belief.groups[i])
        per_card.append((card, sum((w * shown_if(c[i], m) for c, w in belief.mix), Fraction(0))))
        where[card] = belief.where(card)
    dist: dict[int, Fraction] = {}
    for counts, w in belief.mix:
        # per group: how many chosen cards lie in the deck, then (given that) in the discard pile
        joint: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
        for i, g in enumerate(belief.groups):
            s = sum(1 for c in chosen if c in g)
            if not s:
                continue
            m, cd, cx = len(g), counts[i][DECK_ZONE], counts[i][DISCARD_ZONE]
            group: dict[tuple[int, int], Fraction] = {}
            for x, p in _hypergeometric(m, s, cd).items():
                for y, q in _hypergeometric(m - cd, s - x, cx).items():
                    group[(x, y)] = group.get((x, y), Fraction(0)) + p * q
            new: dict[tuple[int, int], Fraction] = {}
            for (x0, y0), p in joint.items():
                for (x1, y1), q in group.items():
                    key = (x0 + x1, y0 + y1)
                    new[key] = new.get(key, Fraction(0)) + p * q
            joint = new
        for (x, y), p in joint.items():
            if plan.reshuffled:
                shown = {x + z: q for z, q in _hypergeometric(d, y, b).items()}
            else:
                shown = _hypergeometric(n, x, a)
            for z, q in shown.items():
                dist[z] = dist.get(z, Fraction(0)) + w * p * q
    shown_dist: Distribution = sorted(dist.items())
    p_any = 1 - dist.get(0, Fraction(0))
    why = _why(deck, plan, count)
    notes = [NOT_TAKEN]
    if not belief.consistent:
        notes.insert(0, "A card another player kept does not fit what you entered for your own draws, so these "
                        "odds use only what the whole table knows. Check your entries.")
    return Odds(count, plan, per_card, chosen, shown_dist, p_any, where, belief.consistent, why, tuple(notes))


def _why(deck: Deck, plan: Drew, count: int) -> str:
    if plan.count == 0:
        return "the deck and the discard pile are both empty: a draw shows nothing"
    if not plan.reshuffled:
        if plan.from_deck < count:
            return (f"the deck holds {deck.deck} card(s) and the discard pile is empty: the draw shows only "
                    f"{plan.from_deck}")
        return f"{count} of the {deck.deck} cards in the deck, at random"
    return (f"the deck holds {deck.deck}: all of them, then the {deck.discard} card(s) of the discard pile are "
            f"shuffled into a new deck and {plan.after_reshuffle} more come from it")
