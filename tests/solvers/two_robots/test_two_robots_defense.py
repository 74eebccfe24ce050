"""Two Robots Defense chains (solvers/two_robots/defense.py): each case names the rulebook passage it
encodes ("Defense Cards", "The Event Phase", "Clarifications"), and the Homing Missiles chain is checked
against a brute-force game search."""
from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.two_robots.defense import GUNSHIP, HOMING, Holder, attack_chain, attack_threshold, event_chain


def test_homing_missiles_stops_an_attack_on_your_parts():
    """Defense Cards: Homing Missiles is played when an enemy's Attack card goes for your Parts, out of turn."""
    chain = attack_chain(Holder("you"), [Holder("Ben", homing_missiles=1)], actions_left=2, card="Nuclear Explosion")
    assert not chain.goes_through
    assert [(link.by, link.card, link.cancels, link.action) for link in chain.links] == [
        ("Ben", HOMING, "your Nuclear Explosion", False)]
    assert chain.actions_used == 0


def test_each_homing_missiles_cancels_the_one_before_and_only_the_turn_player_spends_actions():
    """Defense Cards: the attacker cancels the defender's Homing Missiles with their own, and so on; it
    counts as an action only for the player taking their turn."""
    chain = attack_chain(Holder("you", homing_missiles=2), [Holder("Ben", homing_missiles=2)], actions_left=2)
    assert chain.goes_through
    assert [link.by for link in chain.links] == ["Ben", "you", "Ben", "you"]
    assert [link.action for link in chain.links] == [False, True, False, True]
    assert chain.actions_used == 2 and chain.links[2].cancels == "your Homing Missiles"


def test_the_turn_player_s_actions_left_end_their_side_of_the_chain():
    """Defense Cards (an action for the turn player) with Turn Overview (three actions): two Homing
    Missiles in hand but one action left after the Attack card answer only one."""
    chain = attack_chain(Holder("you", homing_missiles=2), [Holder("Ben", homing_missiles=2)], actions_left=1)
    assert not chain.goes_through and chain.actions_used == 1
    assert "each costs an action; 1 left" in chain.why
    assert attack_threshold(2, 1) == ("It goes through unless the players it hits hold more than 1 Homing Missiles "
                                      "between them: you can answer 1 with your own (1 action).")
    assert attack_threshold(1, 0).endswith("(your 1 Homing Missiles would need actions you do not have).")


def test_an_attack_on_two_players_cancelled_by_one_affects_neither():
    """Clarifications: a cancelled card that affects several players affects none of them."""
    chain = attack_chain(Holder("you"), [Holder("Ben"), Holder("Cy", homing_missiles=1)], actions_left=2)
    assert not chain.goes_through and "affects none of them" in chain.why


def test_sentry_gunship_cancels_an_event_and_nothing_interrupts_it():
    """Defense Cards: Sentry Gunship cancels a Power or Active Robot card in an opponent's Event Phase and
    cannot be interrupted; The Event Phase: a cancelled Power card is used up and flipped anyway."""
    chain = event_chain("you", "power", [Holder("Ben", homing_missiles=3), Holder("Cy", sentry_gunships=1)])
    assert not chain.goes_through and chain.links[0].by == "Cy" and chain.links[0].card == GUNSHIP
    assert "used up" in chain.why and any("cannot counter" in n for n in chain.notes)
    assert event_chain("you", "active_robot", [Holder("Ben", homing_missiles=3)]).goes_through  # Homing Missiles: no


@cache
def _oracle(standing: bool, defence: int, attack: int) -> bool:
    """Brute force: the side to move plays a Homing Missiles or passes; the defence wants the Attack card
    cancelled, the attacker wants it through; whoever passes ends the chain."""
    if standing:  # the defence to move
        return min([True] + ([_oracle(False, defence - 1, attack)] if defence else []))
    return max([False] + ([_oracle(True, defence, attack - 1)] if attack else []))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=3), st.integers(0, 4), st.integers(0, 3))
def test_the_chain_agrees_with_a_brute_force_search(defenders, held, actions_left):
    """Defense Cards, every small case: the chain ends as best play by both sides ends it."""
    hit = [Holder(f"P{k}", homing_missiles=n) for k, n in enumerate(defenders)]
    chain = attack_chain(Holder("you", homing_missiles=held), hit, actions_left)
    assert chain.goes_through == _oracle(True, sum(defenders), min(held, actions_left))
    assert chain.actions_used <= actions_left and chain.actions_used <= held
    assert len(chain.links) == sum(1 for link in chain.links if not link.action) + chain.actions_used
