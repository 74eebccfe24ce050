"""Search odds (Raising Robots: Friends, rulebook "New Actions > Search" and "Search Example").

The oracle is brute force: every order of the individual pool cards (the first `deck_size` are the
deck, top first; the rest are elsewhere), each equally likely, and the search played out card by card
exactly as the rulebook's Search section describes it."""
from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.raising_robots.search_odds import (
    ALL_CRITERIA,
    DECK,
    KNOWN_BOTTOM,
    NO_MATCH,
    Card,
    CardGroup,
    Criteria,
    Deck,
    SearchInputError,
    best_criteria,
    record_draw,
    record_search,
    search_odds,
)

F = Fraction


# ---------------------------------------------------------------- brute force (the rule, played out)

def pool_cards(deck: Deck) -> list[tuple[int, Card]]:
    """The pool as individual cards, each tagged with its group index."""
    return [(i, g.card()) for i, g in enumerate(deck.pool) for _ in range(g.count)]


def fits(card: Card, criteria: Criteria) -> bool:
    """Search section, written out again apart from the solver: the chosen row or an any-row card,
    and the basic action's energy inside the range."""
    return card.row in (criteria.row, "any") and criteria.energy_min <= card.energy <= criteria.energy_max


def play_search(sequence: list, criteria: Criteria, deck_size: int):
    """Search Section, literally: reveal from the top until a card fits both criteria; take it.
    No match anywhere: take the last revealed card. Returns (index taken, cards revealed, matched)."""
    for j, (_tag, card) in enumerate(sequence):
        if fits(card, criteria):
            return j, j + 1, True
    return len(sequence) - 1, len(sequence), False


def outcome_key(j: int, tag, matched: bool, deck_size: int, kb_len: int):
    if matched:
        return (DECK, tag) if j < deck_size else (KNOWN_BOTTOM, j - deck_size)
    return (NO_MATCH, tag) if kb_len == 0 else (NO_MATCH, kb_len - 1)


def brute_force(deck: Deck, criteria: Criteria):
    cards = pool_cards(deck)
    kb = [(None, c) for c in deck.known_bottom]
    perms = list(itertools.permutations(cards))
    w = F(1, len(perms))
    outcomes: dict = defaultdict(F)
    revealed: dict = defaultdict(F)
    p_match = p_wanted = expected = F(0)
    for perm in perms:
        seq = list(perm[:deck.deck_size]) + kb
        j, r, matched = play_search(seq, criteria, deck.deck_size)
        tag, card = seq[j]
        outcomes[outcome_key(j, tag, matched, deck.deck_size, len(kb))] += w
        revealed[r] += w
        expected += w * r
        p_match += w * matched
        p_wanted += w * card.wanted
    return dict(outcomes), dict(revealed), p_match, p_wanted, expected


def solver_keys(odds):
    return {(o.source, o.group if o.source == DECK or (o.source == NO_MATCH and o.position is None)
             else o.position): o.p for o in odds.outcomes}


# ---------------------------------------------------------------- strategies

card_rows = st.sampled_from(["design", "fabricate", "recycle", "any"])
small_energy = st.integers(1, 3)  # few energies, so that matches and misses both happen often
groups = st.builds(CardGroup, row=card_rows, energy=small_energy, count=st.integers(1, 2),
                   wanted=st.booleans())
known_cards = st.builds(Card, row=card_rows, energy=small_energy, wanted=st.booleans())
criteria_st = st.builds(lambda row, a, b: Criteria(row, min(a, b), max(a, b)),
                        st.sampled_from(["design", "fabricate", "recycle"]), small_energy, small_energy)


@st.composite
def decks(draw, max_cards: int = 5, max_known: int = 2):
    pool = draw(st.lists(groups, max_size=3).filter(lambda gs: sum(g.count for g in gs) <= max_cards))
    total = sum(g.count for g in pool)
    kb = draw(st.lists(known_cards, max_size=max_known))
    lowest = 0 if kb else min(1, total)
    if total == 0 and not kb:
        kb = [draw(known_cards)]
    deck_size = draw(st.integers(lowest, total))
    return Deck(tuple(pool), deck_size, tuple(kb))


SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# ---------------------------------------------------------------- rulebook: Search Example

EXAMPLE = Criteria("design", 4, 5)  # Search Example: Phase Row Design, basic action energy 4-5


def test_search_example_three_cards_only_the_any_row_card_matches():
    """Search Example: a Design card whose basic action is outside 4-5 (its upgraded action would fit,
    but only the basic action counts) does not match; a card with basic energy 4 in another row does
    not match; an any-row card with basic energy in range matches. The printed energies are shown
    only in pictures: 3, 4 and 5 stand in for them."""
    assert not EXAMPLE.matches("design", 3)
    assert not EXAMPLE.matches("fabricate", 4)
    assert EXAMPLE.matches("any", 5)


def test_search_example_as_a_deck_the_any_row_card_is_always_taken():
    """Search Example as a whole deck of those three cards in random order: the any-row card is the
    only match, so it is taken every time; it sits at position 1, 2 or 3 with chance 1/3 each."""
    deck = Deck((CardGroup("design", 3, 1), CardGroup("fabricate", 4, 1), CardGroup("any", 5, 1, wanted=True)), 3)
    odds = search_odds(deck, EXAMPLE)
    assert [(o.source, o.row, o.energy, o.p) for o in odds.outcomes] == [(DECK, "any", 5, F(1))]
    assert odds.p_match == 1 and odds.p_wanted == 1
    assert odds.revealed == (F(1, 3), F(1, 3), F(1, 3))
    assert odds.expected_revealed == 2
    assert odds.match_within == (F(1, 3), F(2, 3), F(1))


def test_search_example_revealed_in_the_pictured_order_goes_to_the_bottom_in_order():
    """Search Example in the order pictured (Design, Fabricate, any-row): the any-row card is taken;
    the two misses go to the bottom of the deck without changing their order (Search section)."""
    deck = Deck((CardGroup("design", 3, 1), CardGroup("fabricate", 4, 1), CardGroup("any", 5, 1),
                 CardGroup("recycle", 6, 4)), 5)
    record = record_search(deck, EXAMPLE, [Card("design", 3), Card("fabricate", 4), Card("any", 5)])
    assert record.matched and record.taken == Card("any", 5)
    assert record.deck.deck_size == 2
    assert record.deck.known_bottom == (Card("design", 3), Card("fabricate", 4))
    assert {(g.row, g.energy): g.count for g in record.deck.pool} == {
        ("design", 3): 0, ("fabricate", 4): 0, ("any", 5): 0, ("recycle", 6): 4}
    # the next search reaches the known Design 3 card only after the 2 unknown Recycle cards
    nxt = search_odds(record.deck, Criteria("design", 3, 3))
    assert [(o.source, o.position, o.p) for o in nxt.outcomes] == [(KNOWN_BOTTOM, 0, F(1))]
    assert nxt.expected_revealed == 3


# ---------------------------------------------------------------- rulebook: Search section, edge cases

def test_search_no_match_anywhere_takes_the_bottom_card_of_the_deck():
    """Search section, the rare case: nothing left matches, so the last revealed card is taken.
    With no known bottom that card is a uniform one of the pool's cards (all miss)."""
    deck = Deck((CardGroup("fabricate", 2, 3), CardGroup("recycle", 5, 1, wanted=True)), 2)
    odds = search_odds(deck, Criteria("design", 1, 7))
    assert odds.p_match == 0
    assert {(o.source, o.group): o.p for o in odds.outcomes} == {(NO_MATCH, 0): F(3, 4), (NO_MATCH, 1): F(1, 4)}
    assert odds.p_wanted == F(1, 4)
    assert odds.revealed == (F(0), F(1)) and odds.expected_revealed == 2
    assert odds.match_within == (F(0), F(0))


def test_search_no_match_with_known_bottom_takes_the_last_known_card():
    """Search section, no match: the deck's bottom card is the last known-bottom card, taken for sure."""
    deck = Deck((CardGroup("fabricate", 2, 3),), 2, (Card("recycle", 1), Card("recycle", 7, wanted=True)))
    odds = search_odds(deck, Criteria("design", 1, 7))
    assert [(o.source, o.position, o.p) for o in odds.outcomes] == [(NO_MATCH, 1, F(1))]
    assert odds.p_wanted == 1 and odds.expected_revealed == 4 and odds.p_match == 0


def test_search_deck_of_one_card():
    """Search section with a one-card deck: that card is revealed and taken, match or not."""
    deck = Deck((CardGroup("design", 4, 1), CardGroup("recycle", 4, 2)), 1)
    odds = search_odds(deck, Criteria("design", 4, 4))
    assert {(o.source, o.group): o.p for o in odds.outcomes} == {(DECK, 0): F(1, 3), (NO_MATCH, 1): F(2, 3)}
    assert odds.p_match == F(1, 3) and odds.expected_revealed == 1 and odds.revealed == (F(1),)


def test_search_every_card_matches_takes_the_top_card():
    """Search section: when every card fits the criteria the first card revealed is taken."""
    deck = Deck((CardGroup("design", 4, 5), CardGroup("any", 5, 3, wanted=True)), 6, (Card("recycle", 2),))
    odds = search_odds(deck, EXAMPLE)
    assert {(o.source, o.group): o.p for o in odds.outcomes} == {(DECK, 0): F(5, 8), (DECK, 1): F(3, 8)}
    assert odds.expected_revealed == 1 and odds.p_match == 1 and odds.p_wanted == F(3, 8)


def test_search_all_cards_wanted_means_a_wanted_card_for_sure():
    """Search section: whatever is taken (match or the last card) is wanted when all cards are."""
    deck = Deck((CardGroup("design", 1, 2, wanted=True), CardGroup("fabricate", 6, 4, wanted=True)), 4,
                (Card("recycle", 3, wanted=True),))
    for criteria in ALL_CRITERIA:
        assert search_odds(deck, criteria).p_wanted == 1
    assert all(r.p_wanted == 1 for r in best_criteria(deck))


def test_search_empty_known_bottom_and_match_only_in_the_pool_part():
    """Search section: 2 matching of 6 pool cards, deck of 4: the chance that none of the 4 matches is
    C(2,2)/C(6,2) = 1/15, so the no-match branch takes one of the 4 misses."""
    deck = Deck((CardGroup("design", 5, 2, wanted=True), CardGroup("recycle", 1, 4)), 4)
    odds = search_odds(deck, EXAMPLE)
    assert odds.p_match == F(14, 15) and odds.p_wanted == F(14, 15)
    assert sum(o.p for o in odds.outcomes) == 1


def test_search_deck_size_zero_with_a_known_bottom_is_certain():
    """Search section, after earlier searches put every card under the known bottom: the search
    walks the known cards in order, so the result is certain."""
    deck = Deck((CardGroup("design", 5, 3),), 0, (Card("fabricate", 4), Card("any", 4, "Bolt"), Card("design", 5)))
    odds = search_odds(deck, EXAMPLE)
    assert [(o.source, o.position, o.label, o.p) for o in odds.outcomes] == [(KNOWN_BOTTOM, 1, "Bolt", F(1))]
    assert odds.expected_revealed == 2 and odds.revealed == (F(0), F(1), F(0))


def test_search_any_row_cards_match_every_row():
    """Robots & Inventors, the section on cards for any Phase Row: such a card counts as every row
    for Search (and the Search Example's third card)."""
    deck = Deck((CardGroup("any", 3, 2),), 2)
    for row in ("design", "fabricate", "recycle"):
        assert search_odds(deck, Criteria(row, 3, 3)).p_match == 1


def test_search_empty_deck_is_refused():
    """Search section: a search needs a card to reveal."""
    with pytest.raises(SearchInputError) as err:
        search_odds(Deck((CardGroup("design", 5, 3),), 0), EXAMPLE)
    assert err.value.field == "deck_size"


@pytest.mark.parametrize("kwargs, field", [
    ({"row": "any", "energy_min": 1, "energy_max": 2}, "criteria.row"),
    ({"row": "design", "energy_min": 0, "energy_max": 2}, "criteria.energy_min"),
    ({"row": "design", "energy_min": 5, "energy_max": 4}, "criteria.energy_max"),
])
def test_search_criteria_are_one_phase_row_and_an_energy_range(kwargs, field):
    """Search section: the criteria name Design, Fabricate or Recycle and an energy range within 1-7."""
    with pytest.raises(SearchInputError) as err:
        Criteria(**kwargs)
    assert err.value.field == field


def test_search_deck_cannot_exceed_the_unseen_pool():
    """The model: the deck is drawn from the unseen pool, so it cannot hold more cards than it."""
    with pytest.raises(SearchInputError) as err:
        Deck((CardGroup("design", 5, 3),), 4)
    assert err.value.field == "deck_size"


def test_search_there_are_84_criteria():
    """Search section: 3 Phase Rows x 28 energy ranges (single numbers included)."""
    assert len(ALL_CRITERIA) == 84 == len(set(ALL_CRITERIA))


# ---------------------------------------------------------------- best criteria

def test_best_criteria_prefers_the_wanted_card_then_fewer_reveals():
    """Search section, choosing criteria: the wanted card is a Recycle 6; naming exactly Recycle 6
    (or a range that adds no other card) gets it for sure; ties share a rank."""
    deck = Deck((CardGroup("recycle", 6, 1, wanted=True), CardGroup("recycle", 2, 3),
                 CardGroup("design", 6, 2)), 6)
    ranking = best_criteria(deck)
    assert len(ranking) == 84
    top = [r for r in ranking if r.rank == 1]
    assert {(r.criteria.row, r.criteria.energy_min, r.criteria.energy_max) for r in top} == {
        ("recycle", lo, hi) for lo in (3, 4, 5, 6) for hi in (6, 7)}
    assert all(r.p_wanted == 1 and r.expected_revealed == F(7, 2) for r in top)
    ranks = [r.rank for r in ranking]
    assert ranks == sorted(ranks)


@SETTINGS
@given(decks())
def test_best_criteria_agrees_with_search_odds_for_every_criteria(deck):
    """The fast ranking gives the same exact numbers as the per-criteria odds (Search section)."""
    ranking = best_criteria(deck)
    assert len(ranking) == 84 and {r.criteria for r in ranking} == set(ALL_CRITERIA)
    for r in ranking:
        odds = search_odds(deck, r.criteria)
        assert (r.p_wanted, r.p_match, r.expected_revealed) == (odds.p_wanted, odds.p_match, odds.expected_revealed)
    keys = [(-r.p_wanted, r.expected_revealed) for r in ranking]
    assert keys == sorted(keys)


# ---------------------------------------------------------------- against brute force

@SETTINGS
@given(decks(), criteria_st)
def test_search_odds_equal_brute_force_over_every_deck_order(deck, criteria):
    """Search section played out over every order of the pool cards: the exact same numbers."""
    outcomes, revealed, p_match, p_wanted, expected = brute_force(deck, criteria)
    odds = search_odds(deck, criteria)
    assert solver_keys(odds) == {k: v for k, v in outcomes.items() if v}
    assert sum(o.p for o in odds.outcomes) == 1
    assert odds.p_match == p_match and odds.p_wanted == p_wanted and odds.expected_revealed == expected
    assert odds.revealed == tuple(revealed.get(n, F(0)) for n in range(1, deck.cards_in_deck + 1))
    assert odds.expected_revealed == sum(n * p for n, p in enumerate(odds.revealed, start=1))
    assert odds.match_within[-1] == odds.p_match
    assert all(a <= b for a, b in zip(odds.match_within, odds.match_within[1:]))


def physical_after(seq: list, j: int, matched: bool) -> list[list]:
    """The deck's real orders after the search (each equally likely): misses to the bottom in order;
    with no match, the rest shuffled (every order)."""
    if matched:
        return [seq[j + 1:] + seq[:j]]
    rest = seq[:-1]
    return [list(p) for p in itertools.permutations(rest)]


def taken_and_count(sequences: list[list], criteria: Criteria) -> Counter:
    dist: Counter = Counter()
    for seq in sequences:
        j, r, _ = play_search(seq, criteria, 0)
        card = seq[j][1]
        dist[(card.row, card.energy, card.label, r)] += F(1, len(sequences))
    return dist


def tracked_distribution(deck: Deck, criteria: Criteria) -> Counter:
    """(taken card, cards revealed) of the next search in the tracked model, by brute force."""
    cards = pool_cards(deck)
    kb = [(None, c) for c in deck.known_bottom]
    dist: Counter = Counter()
    perms = list(itertools.permutations(cards))
    for perm in perms:
        seq = list(perm[:deck.deck_size]) + kb
        j, r, _ = play_search(seq, criteria, deck.deck_size)
        card = seq[j][1]
        dist[(card.row, card.energy, card.label, r)] += F(1, len(perms))
    return dist


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(decks(max_cards=4, max_known=2), criteria_st, criteria_st)
def test_deck_tracking_after_a_search_predicts_the_next_search_exactly(deck, first, second):
    """Search section: after the table records what a search revealed, the tracked deck (pool,
    deck size, known bottom) gives the next search the same odds as the real deck does, conditioned
    on what was seen, for every possible observation."""
    cards = pool_cards(deck)
    kb = [(None, c) for c in deck.known_bottom]
    by_observation: dict[tuple, list] = defaultdict(list)
    for perm in itertools.permutations(cards):
        seq = list(perm[:deck.deck_size]) + kb
        j, r, matched = play_search(seq, first, deck.deck_size)
        seen = tuple((c.row, c.energy, c.label) for _t, c in seq[:r])
        by_observation[seen].append(physical_after(seq, j, matched))
    for seen, worlds in by_observation.items():
        record = record_search(deck, first, [Card(row, e, label) for row, e, label in seen])
        after = record.deck
        if after.cards_in_deck == 0:
            assert all(w == [[]] for w in worlds)
            continue
        real: Counter = Counter()
        for sequences in worlds:
            for key, p in taken_and_count(sequences, second).items():
                real[key] += p / len(worlds)
        assert tracked_distribution(after, second) == real


def test_deck_tracking_no_match_makes_the_revealed_cards_the_new_deck():
    """Search section, no match: the last card is taken and the rest form a new shuffled deck."""
    deck = Deck((CardGroup("fabricate", 2, 3), CardGroup("recycle", 5, 2)), 2, (Card("recycle", 1),))
    record = record_search(deck, EXAMPLE, [Card("fabricate", 2), Card("recycle", 5), Card("recycle", 1)])
    assert not record.matched and record.taken == Card("recycle", 1)
    assert record.deck.deck_size == 2 and record.deck.known_bottom == ()
    assert {(g.row, g.energy, g.count) for g in record.deck.pool} == {("fabricate", 2, 1), ("recycle", 5, 1)}
    assert {(g.row, g.energy, g.count) for g in record.set_aside} == {("fabricate", 2, 2), ("recycle", 5, 1)}


def test_deck_tracking_match_in_the_known_bottom_rotates_the_deck():
    """Search section: the unknown cards and the known cards above the match go to the bottom in
    the order revealed; the known cards below the match end up on top."""
    deck = Deck((CardGroup("recycle", 2, 3),), 1, (Card("fabricate", 1), Card("design", 4), Card("recycle", 7)))
    record = record_search(deck, EXAMPLE, [Card("recycle", 2), Card("fabricate", 1), Card("design", 4)])
    assert record.matched and record.taken == Card("design", 4)
    assert record.deck.deck_size == 0
    assert record.deck.known_bottom == (Card("recycle", 7), Card("recycle", 2), Card("fabricate", 1))
    assert record.deck.pool_cards == 2


@pytest.mark.parametrize("revealed, field", [
    ([], "revealed"),
    ([Card("design", 4), Card("design", 5)], "revealed[0]"),          # the first already matched
    ([Card("recycle", 3)], "revealed[0]"),                            # not in the pool
    ([Card("fabricate", 2)], "revealed[0]"),                          # a miss, but the deck goes on
    ([Card("fabricate", 2)] * 3, "revealed[2]"),                      # a third Fabricate 2 isn't there
])
def test_deck_tracking_refuses_a_search_that_cannot_have_happened(revealed, field):
    """Search section: revealing stops at the first match; cards come from the pool or known bottom."""
    deck = Deck((CardGroup("design", 4, 1), CardGroup("design", 5, 1), CardGroup("fabricate", 2, 2)), 4,
                (Card("recycle", 6),))
    with pytest.raises(SearchInputError) as err:
        record_search(deck, EXAMPLE, revealed)
    assert err.value.field == field


def test_deck_tracking_draws():
    """A normal draw takes the top card: an unknown one while the deck has them (it stays unseen if
    another player drew it), then the known bottom in order."""
    deck = Deck((CardGroup("design", 4, 2), CardGroup("recycle", 1, 1)), 1, (Card("fabricate", 3),))
    other = record_draw(deck)
    assert other.deck_size == 0 and other.pool_cards == 3 and other.known_bottom == deck.known_bottom
    mine = record_draw(deck, Card("design", 4))
    assert mine.deck_size == 0 and mine.pool_cards == 2
    last = record_draw(other)
    assert last.known_bottom == () and last.cards_in_deck == 0
    with pytest.raises(SearchInputError):
        record_draw(other, Card("design", 4))
    with pytest.raises(SearchInputError):
        record_draw(last)


# ---- without a known deck: the estimate from the cards seen ---------------------------------------------

def test_estimate_from_seen_cards_search_example_criteria():
    """Search (rulebook "New Actions > Search", criteria of the Search Example: Design, energy 4-5), with no
    pool known: 2 cards seen, both Design 4. Each unknown card fits with chance (2 + 2 + 2) / (2 + 28): the two
    seen, the imagined Design 4 and 5 and any-row 4 and 5 cards... counted exactly; one card deep the match
    chance is that share, two deep 1 - (1 - p)^2, and the outcomes sum to 1."""
    from solvers.raising_robots.search_odds import Estimate, estimate_best, estimate_odds

    crit = Criteria("design", 4, 5)
    seen = (Card("design", 4), Card("design", 4))
    p = Fraction(2 + 4, 2 + 28)  # seen Design 4 twice; one imagined Design 4, Design 5, Any 4, Any 5
    one = estimate_odds(Estimate(seen=seen, deck_size=1), crit)
    assert one.p_match == p and sum(o.p for o in one.outcomes) == 1
    two = estimate_odds(Estimate(seen=seen, deck_size=2), crit)
    assert two.p_match == 1 - (1 - p) ** 2 and two.expected_revealed == 1 + (1 - p)
    design4 = next(o for o in two.outcomes if (o.row, o.energy, o.source) == ("design", 4, "deck"))
    assert design4.p == two.p_match * Fraction(3, 6)  # 3 of the 6 matching weights are Design 4
    # a known bottom card that fits ends the search there when the unknown cards miss
    kb = estimate_odds(Estimate(seen=seen, deck_size=2, known_bottom=(Card("any", 5),)), crit)
    assert kb.p_match == 1 and sum(o.p for o in kb.outcomes) == 1
    # nothing seen: the page still has numbers (every kind equally likely), and the ranking agrees with them
    est = Estimate(seen=(), deck_size=20, wanted=frozenset({("fabricate", 6)}))
    ranking = estimate_best(est)
    assert len(ranking) == 84 and ranking[0].criteria.row == "fabricate"
    for r in ranking:
        odds = estimate_odds(est, r.criteria)
        assert (odds.p_wanted, odds.expected_revealed, odds.p_match) == (r.p_wanted, r.expected_revealed, r.p_match)
    assert "An estimate" in est.assumes() and "no card seen yet" in est.assumes()
