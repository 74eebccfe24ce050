"""The Friendship deck (solvers/raising_robots/friendship.py): setup, the reducer and the exact odds of a
draw, each test naming the rulebook section it encodes ("Competitions & Friendships"), and the odds checked
against a brute-force oracle that enumerates every deck order and every reshuffle."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.errors import InputError
from solvers.raising_robots import friendship as fr

CARDS = tuple(fr.Card(id=c, name=c.capitalize(), source="unverified", paw=c in ("rex", "yo_yo"))
              for c in ("ada", "albert", "charles", "rex", "yo_yo", "temple", "john", "nikola"))


# ---- Changes to Setup, step 4 and its IMPORTANT note --------------------------------------------------

def test_shipped_deck_holds_the_26_cards_of_components_and_the_named_ones_from_the_rulebook():
    # Components: 26 Friendship Cards; Friendship Ability Clarifications and Friendship Example name ten
    assert fr.DECK_SIZE == 26 and len(fr.DEFAULT_CARDS) == 26
    named = {c.id for c in fr.DEFAULT_CARDS if c.source == "rulebook"}
    assert named == {"ada", "albert", "charles", "confucius", "johannes", "john", "nikola", "stephen", "temple",
                     "yo_yo"}
    assert not any(c.paw for c in fr.DEFAULT_CARDS)  # no source says which cards carry the paw


def test_setup_removes_the_cards_of_inventors_in_play_changes_to_setup_step_4():
    built = fr.build(CARDS, ["Ada", " temple ", ""], pets=True)
    assert "ada" not in built.cards and "temple" not in built.cards
    assert {r.card for r in built.removed} == {"ada", "temple"}
    assert all(r.rule == fr.RULE_SETUP for r in built.removed)
    assert len(built.cards) == len(CARDS) - 2


def test_setup_without_pets_removes_the_paw_cards_important_note():
    without = fr.build(CARDS, [], pets=False)
    assert {r.card for r in without.removed} == {"rex", "yo_yo"}
    assert all(r.rule == fr.RULE_PAW for r in without.removed)
    with_pets = fr.build(CARDS, [], pets=True)
    assert with_pets.cards == tuple(c.id for c in CARDS) and not with_pets.removed


def test_inventor_match_ignores_spelling_yo_yo():
    built = fr.build(CARDS, ["YoYo"], pets=True)
    assert [r.card for r in built.removed] == ["yo_yo"]


# ---- Completion Rewards: draw, keep 1, discard the rest, reshuffle when the deck is empty ---------------

def _deck(n: int = 5) -> fr.Deck:
    return fr.Deck.of(fr.build(CARDS[:n], [], pets=True))


def test_draw_three_keep_one_discards_two_completion_rewards():
    deck = _deck()
    deck, seen = fr.draw(deck, 0, 3, ["ada", "albert", "charles"], fr.Seen())
    assert (deck.deck, deck.discard, deck.pending_of(0)) == (2, 0, 3)
    deck, seen = fr.keep(deck, 0, "albert", seen)
    assert (deck.deck, deck.discard, deck.pending_of(0)) == (2, 2, 0)
    assert deck.kept_by(0) == ("albert",)
    assert seen.draws == (("ada", "albert", "charles"),)


def test_reshuffle_only_when_the_deck_runs_out_mid_draw_completion_rewards():
    deck = _deck()
    deck, s0 = fr.draw(deck, 0, 3, ["ada", "albert", "charles"], fr.Seen())
    deck, s0 = fr.keep(deck, 0, "ada", s0)  # deck 2, discard 2 (albert, charles)
    # B side: draw 2 from a deck of 2: the deck is empty afterwards but nothing is reshuffled yet
    deck, s1 = fr.draw(deck, 1, 2, ["rex", "yo_yo"], fr.Seen())
    assert (deck.deck, deck.discard, deck.reshuffles) == (0, 2, 0)
    deck, s1 = fr.keep(deck, 1, "rex", s1)  # discard: albert, charles, yo_yo
    plan = deck.plan_draw(3)
    assert (plan.from_deck, plan.reshuffled, plan.after_reshuffle) == (0, True, 3)
    deck, s2 = fr.draw(deck, 2, 3, ["charles", "yo_yo", "albert"], fr.Seen())
    assert (deck.deck, deck.discard, deck.reshuffles) == (0, 0, 1)


def test_reshuffle_mid_draw_keeps_the_cards_already_drawn_out_of_the_new_deck():
    deck = _deck()
    deck, s0 = fr.draw(deck, 0, 3, ["ada", "albert", "charles"], fr.Seen())
    deck, s0 = fr.keep(deck, 0, "ada", s0)  # deck: rex, yo_yo; discard: albert, charles
    plan = deck.plan_draw(3)
    assert (plan.from_deck, plan.reshuffled, plan.after_reshuffle) == (2, True, 1)
    # the third card comes from the old discard pile only
    odds = fr.odds(deck, 3, ["albert"], viewer=0, seen=s0)
    assert dict(odds.cards)["rex"] == 1 and dict(odds.cards)["albert"] == Fraction(1, 2)
    # seat 1 saw none of them: each of the four is in the deck (shown) or the discard (1 of 2 shown) alike
    assert dict(fr.odds(deck, 3, viewer=1).cards)["rex"] == Fraction(3, 4)
    with pytest.raises(InputError) as err:
        fr.draw(deck, 0, 3, ["rex", "albert", "yo_yo"], s0)
    assert err.value.path == "cards[1]"


def test_a_short_draw_when_deck_and_discard_run_out():
    deck = _deck(4)
    deck, s0 = fr.draw(deck, 0, 3, ["ada", "albert", "charles"], fr.Seen())
    deck, s0 = fr.keep(deck, 0, "ada", s0)
    deck, s1 = fr.draw(deck, 1, 3, ["rex", "albert", "charles"], fr.Seen())
    deck, s1 = fr.keep(deck, 1, "rex", s1)
    deck, s2 = fr.draw(deck, 2, 3, ["albert", "charles"], fr.Seen())
    deck, s2 = fr.keep(deck, 2, "albert", s2)
    assert (deck.deck, deck.discard) == (0, 1)
    deck, s0 = fr.draw(deck, 0, 2, ["charles"], s0)
    deck, s0 = fr.keep(deck, 0, "charles", s0)
    with pytest.raises(InputError) as err:
        fr.draw(deck, 1, 2, [], s1)
    assert err.value.path == "count"


def test_at_most_two_friendship_cards_friendships_important():
    deck = fr.Deck.of(fr.build(CARDS, [], pets=True))
    seen = fr.Seen()
    for cards in (["ada", "albert", "charles"], ["rex", "yo_yo", "temple"]):
        deck, seen = fr.draw(deck, 0, 3, cards, seen)
        deck, seen = fr.keep(deck, 0, cards[0], seen)
    with pytest.raises(InputError) as err:
        fr.draw(deck, 0, 3, ["john", "nikola", "charles"], seen)
    assert err.value.path == "seat" and "2" in err.value.message
    with pytest.raises(InputError):  # held by the table's record, kept before the deck was followed
        fr.draw(deck, 1, 2, ["john", "nikola"], fr.Seen(), held=2)


def test_reducer_refuses_what_cannot_be():
    deck = _deck()
    with pytest.raises(InputError) as err:
        fr.draw(deck, 0, 4, ["ada"], fr.Seen())
    assert err.value.path == "count"
    with pytest.raises(InputError) as err:
        fr.draw(deck, 0, 3, ["ada", "ada", "rex"], fr.Seen())
    assert err.value.path == "cards[1]"
    with pytest.raises(InputError) as err:
        fr.draw(deck, 0, 3, ["ada", "zed", "rex"], fr.Seen())
    assert err.value.path == "cards[1]"
    with pytest.raises(InputError) as err:
        fr.keep(deck, 0, "ada", fr.Seen())
    assert err.value.path == "seat"
    deck, seen = fr.draw(deck, 0, 3, ["ada", "albert", "charles"], fr.Seen())
    with pytest.raises(InputError) as err:
        fr.draw(deck, 0, 3, ["rex", "yo_yo", "ada"], seen)
    assert err.value.path == "seat"
    with pytest.raises(InputError) as err:
        fr.keep(deck, 0, "rex", seen)
    assert err.value.path == "card"
    deck, seen = fr.keep(deck, 0, "ada", seen)
    with pytest.raises(InputError) as err:  # kept cards are public: never in the deck again
        fr.draw(deck, 1, 2, ["ada", "rex"], fr.Seen())
    assert err.value.path == "cards[0]"


# ---- the odds: worked cases -----------------------------------------------------------------------------

def test_odds_of_a_fresh_deck_are_three_in_n():
    deck = fr.Deck.of(fr.build(fr.DEFAULT_CARDS, ["Johannes"], pets=False))  # 25 cards
    odds = fr.odds(deck, 3, ["temple"])
    assert dict(odds.cards)["temple"] == Fraction(3, 25) and "johannes" not in dict(odds.cards)
    assert odds.p_any == Fraction(3, 25)
    assert odds.shown == [(0, Fraction(22, 25)), (1, Fraction(3, 25))]
    two = fr.odds(deck, 3, ["temple", "ada"])
    assert two.p_any == 1 - Fraction(comb_(23, 3), comb_(25, 3))


def comb_(n: int, k: int) -> int:
    from math import comb
    return comb(n, k)


def test_the_drawer_knows_its_discards_are_not_in_the_deck_but_others_do_not():
    deck = _deck()
    deck, s0 = fr.draw(deck, 0, 3, ["ada", "albert", "charles"], fr.Seen())
    deck, s0 = fr.keep(deck, 0, "ada", s0)
    mine = fr.odds(deck, 2, ["albert"], viewer=0, seen=s0)
    theirs = fr.odds(deck, 2, ["albert"], viewer=1)
    assert mine.p_any == 0 and dict(mine.cards)["rex"] == 1
    # seat 1 knows only that 2 of the 4 cards it never saw lie in the deck
    assert theirs.p_any == Fraction(1, 2) and theirs.where["albert"] == (Fraction(1, 2), Fraction(1, 2), 0)


# ---- the oracle ----------------------------------------------------------------------------------------

def _oracle(ids: tuple[str, ...], script: list[tuple], viewer: int | None, count: int,
            chosen: tuple[str, ...]) -> tuple[dict[str, Fraction], dict[int, Fraction]]:
    """Every initial order of the deck and every order of each reshuffle, weighted alike; histories that
    contradict a public keep or the viewer's own draws are dropped; then the next draw of `count`."""
    per_card = {c: Fraction(0) for c in ids}
    dist: dict[int, Fraction] = {}
    total = Fraction(0)

    def run(deck: list[str], discard: list[str], pending: dict[int, list[str]], k: int, w: Fraction) -> None:
        nonlocal total
        if k == len(script):
            total += w
            a = min(count, len(deck))
            if a == count or not discard:
                shows = [(deck[:a], w)]
            else:
                b = min(count - a, len(discard))
                perms = list(itertools.permutations(discard))
                shows = [(deck + list(p[:b]), w / len(perms)) for p in perms]
            for shown, q in shows:
                for c in shown:
                    per_card[c] += q
                z = sum(1 for c in shown if c in chosen)
                dist[z] = dist.get(z, Fraction(0)) + q
            return
        step = script[k]
        if step[0] == "draw":
            _, seat, n, seen_cards, from_deck, reshuffled, named = step
            got, rest = deck[:from_deck], deck[from_deck:]
            if named and seat == viewer and set(got) != set(seen_cards[:from_deck]):
                return
            if not reshuffled:
                run(rest, discard, {**pending, seat: got}, k + 1, w)
                return
            perms = list(itertools.permutations(discard))
            for p in perms:
                b = len(seen_cards) - from_deck
                more, new = list(p[:b]), list(p[b:])
                if named and seat == viewer and set(more) != set(seen_cards[from_deck:]):
                    continue
                run(new, [], {**pending, seat: got + more}, k + 1, w / len(perms))
        else:
            _, seat, card = step
            if card not in pending.get(seat, []):
                return
            run(deck, discard + [c for c in pending[seat] if c != card],
                {s: p for s, p in pending.items() if s != seat}, k + 1, w)

    perms = list(itertools.permutations(ids))
    for p in perms:
        run(list(p), [], {}, 0, Fraction(1, len(perms)))
    return {c: v / total for c, v in per_card.items()}, {z: v / total for z, v in dist.items()}


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_odds_match_the_brute_force_oracle_completion_rewards(data):
    n = data.draw(st.integers(3, 6), label="cards")
    ids = tuple(c.id for c in CARDS[:n])
    order = list(data.draw(st.permutations(ids), label="true order"))
    deck = fr.Deck.of(fr.build(CARDS[:n], [], pets=True))
    seens = {s: fr.Seen() for s in range(3)}
    true_deck, true_discard = order, []
    script: list[tuple] = []
    for _ in range(data.draw(st.integers(1, 6), label="actions")):
        seat = data.draw(st.integers(0, 2), label="seat")
        if deck.pending_of(seat) or len(deck.kept_by(seat)) >= 2:
            continue
        count = data.draw(st.sampled_from(fr.DRAWS), label="count")
        plan = deck.plan_draw(count)
        if plan.count == 0:
            break
        got, true_deck = true_deck[:plan.from_deck], true_deck[plan.from_deck:]
        if plan.reshuffled:
            true_deck = list(data.draw(st.permutations(true_discard), label="reshuffle"))
            true_discard = []
            got, true_deck = got + true_deck[:plan.after_reshuffle], true_deck[plan.after_reshuffle:]
        named = data.draw(st.integers(0, 4), label="named") > 0  # now and then only the kept card is named
        deck, seens[seat] = fr.draw(deck, seat, count, got if named else None, seens[seat])
        script.append(("draw", seat, count, tuple(got), plan.from_deck, plan.reshuffled, named))
        if data.draw(st.booleans(), label="keep now") or len(script) < 2:
            kept = data.draw(st.sampled_from(got), label="kept")
            deck, seens[seat] = fr.keep(deck, seat, kept, seens[seat])
            true_discard += [c for c in got if c != kept]
            script.append(("keep", seat, kept))
    viewer = data.draw(st.sampled_from([0, 1, None]), label="viewer")
    count = data.draw(st.sampled_from(fr.DRAWS), label="odds count")
    chosen = tuple(data.draw(st.sets(st.sampled_from(ids), max_size=3), label="chosen"))
    odds = fr.odds(deck, count, chosen, viewer=viewer, seen=seens.get(viewer) if viewer is not None else None)
    want_cards, want_dist = _oracle(ids, script, viewer, count, chosen)
    assert odds.consistent
    assert dict(odds.cards) == want_cards
    assert {z: p for z, p in odds.shown if p} == {z: p for z, p in want_dist.items() if p}
    assert sum(p for _, p in odds.shown) == 1
    assert odds.p_any == 1 - want_dist.get(0, Fraction(0))


def test_a_stored_log_is_read_up_to_its_first_impossible_event():
    deck = _deck()
    deck, s0 = fr.draw(deck, 0, 3, ["ada", "albert", "charles"], fr.Seen())
    deck, s0 = fr.keep(deck, 0, "ada", s0)
    again, applied = fr.replayed(deck.cards, deck.log)
    assert applied == 2 and (again.deck, again.discard, dict(again.kept)) == (2, 2, {0: ("ada",)})
    bad = (*deck.log, fr.Kept(1, "rex"), fr.Drew(1, 2))  # seat 1 keeps without drawing
    again, applied = fr.replayed(deck.cards, bad)
    assert applied == 2 and again.log == deck.log


def test_a_draw_named_only_by_its_kept_card():
    deck = _deck()
    deck, s1 = fr.draw(deck, 1, 3, None, fr.Seen())
    assert s1.draws == ((),) and deck.pending_of(1) == 3
    deck, s1 = fr.keep(deck, 1, "rex", s1)
    assert deck.kept_by(1) == ("rex",) and deck.discard == 2
    # the seat saw nothing it entered: its odds are the table's
    assert fr.odds(deck, 2, ["ada"], viewer=1, seen=s1).p_any == fr.odds(deck, 2, ["ada"]).p_any


def test_a_keep_entered_without_the_seats_draws_is_checked_on_the_public_record_only():
    """Completion Rewards: the seat's drawn cards are its own. Another phone keeping for it (`seen` None)
    gets the same answer whatever the seat saw: a card it discarded earlier is refused only by the seat's
    own record, never by None."""
    deck = fr.Deck.of(fr.build(fr.DEFAULT_CARDS, [], pets=True))
    deck, seen = fr.draw(deck, 0, 3, ["albert", "charles", "temple"], fr.Seen())
    deck, seen = fr.keep(deck, 0, "temple", seen)
    deck, _ = fr.draw(deck, 0, 3, None, fr.Seen())  # entered by another phone: the seat's record is not touched
    with pytest.raises(InputError):
        fr.keep(deck, 0, "albert", fr.Seen(draws=(*seen.draws, ())))  # the seat itself knows albert was discarded
    kept, out = fr.keep(deck, 0, "albert", None)
    assert out is None and kept.kept_by(0) == ("temple", "albert")
    # the seat's record, one draw short of the log, names no pending card (its last draw was kept already)
    assert seen.pending(deck, 0) == ()
