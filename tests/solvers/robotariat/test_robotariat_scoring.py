"""The suggestions' fast scorer (solvers/robotariat/scoring.py) against the full NPC turn (rulebook "Player
Turn", "NPC Turn"): for every turn a player can take on random small tables, E[...] after the NPC turn is
the same exact number whether it is summed from npc_turn()'s outcomes (held to the 36-roll enumeration
by test_robotariat_solver_oracle.py) or by the scorer's shortcut."""
from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from test_robotariat_solver_oracle import tables, to_solver

from solvers.robotariat.model import FAILURE, SUCCESS
from solvers.robotariat.npc_turn import npc_turn
from solvers.robotariat.scoring import Expectation, TurnScorer
from solvers.robotariat.suggest import _Planner
from solvers.robotariat.value import Ahead, Valuer

TRACK = ("civilian", "oppressor", "civilian", "oppressor", "oppressor", "civilian")  # Set Up 6


def from_outcomes(board, rules, dice, pre, start, valuer, immediate) -> Expectation:
    """The expectation summed plainly over npc_turn()'s outcomes."""
    pre_junked = immediate.posters_junked if immediate else 0
    pre_fine = bool(immediate and immediate.fined_players)
    if pre.ended is not None:
        finals, denom = [(1, pre, 0, False)], 1
    else:
        f = npc_turn(board, rules, dice, pre, valuer)
        finals = [(o.weight, o.result.state, o.result.posters_junked, o.result.fines > 0) for o in f.outcomes]
        denom = f.denominator
    sums = dict(value=0, funds=0, reputation=0, office=0, posters_junked=0, reputation_loss=0, fine=0, success=0,
                failure=0, future=0, ahead=0)
    for w, st, junked, fine in finals:
        after = valuer.after_scaled(st) if st is not pre else valuer.state_scaled(st)
        sums["value"] += w * after
        sums["ahead"] += w * (after - valuer.scaled(st.funds, st.reputation, st.office, st.posters, st.civilians,
                                                   st.ended))
        sums["funds"] += w * st.funds
        sums["reputation"] += w * st.reputation
        sums["office"] += w * st.office
        sums["posters_junked"] += w * (pre_junked + junked)
        sums["reputation_loss"] += w * (st.reputation < start.reputation)
        sums["fine"] += w * (fine or pre_fine)
        sums["success"] += w * (st.ended == SUCCESS)
        sums["failure"] += w * (st.ended == FAILURE)
        if st.ended is None:
            sums["future"] += w * sum(valuer.future_scaled(st.civilians, st.posters, st.office))
    return Expectation(denominator=denom, **sums)


def same(a: Expectation, b: Expectation) -> bool:
    """Equal as expectations (the two may use different denominators)."""
    names = [f for f in Expectation.__slots__ if f != "denominator"]
    return all(getattr(a, f) * b.denominator == getattr(b, f) * a.denominator for f in names)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(characters=("arcitech", "uberbot", "mt_rho", "alice_smith", "mr_postman", "wally_st", None)))
def test_scorer_equals_the_full_npc_turn_for_every_turn(table):
    """Player Turn + NPC Turn: every legal turn (moves, activations, Move the Masses' encounter, the
    extra poster moves), scored the fast way and the plain way, gives the same exact expectation;
    Überbot's doubling, ArciTech's re-post, MT-ρ's re-roll and Alice Smith's path included."""
    game, state = table
    board, rules, dice, s, valuer = to_solver(game, state)
    if s.funds >= rules.target:
        return
    planner = _Planner(board, rules, dice, s, valuer)
    scorer = TurnScorer(board, rules, dice, valuer)
    for option in planner.run().options:
        fast = scorer.expected(option.after, s, option.immediate)
        plain = from_outcomes(board, rules, dice, option.after, s, valuer, option.immediate)
        assert same(fast, plain), option


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(characters=("arcitech", "uberbot", "mt_rho", "alice_smith", "mr_postman", "wally_st", None)),
       hs.one_of(hs.none(), hs.integers(1, 6)))
def test_scorer_equals_the_full_npc_turn_looking_past_it(table, rnd):
    """The same, with the look-past term (value.Ahead): the arrivals until each seat moves again, and the
    last seat's NPC turn valued after the round start's entry (Round Order 1), in every round."""
    game, state = table
    board, rules, dice, s, plain = to_solver(game, state)
    if s.funds >= rules.target:
        return
    s = replace(s, round=rnd)
    valuer = Valuer(board, rules, dice, plain.weights, plain.horizon, Ahead(seats=len(s.players), entry_track=TRACK))
    planner = _Planner(board, rules, dice, s, valuer)
    scorer = TurnScorer(board, rules, dice, valuer)
    for option in planner.run().options:
        fast = scorer.expected(option.after, s, option.immediate)
        plain_sum = from_outcomes(board, rules, dice, option.after, s, valuer, option.immediate)
        assert same(fast, plain_sum), option


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(characters=("arcitech", "uberbot", "mt_rho", "alice_smith", None)), hs.integers(1, 6))
def test_a_roll_reused_for_posters_away_from_its_npcs_is_still_exact(table, rnd):
    """Encounters read only the spaces the NPCs move onto (NPC Turn, Encounter Quick-Reference Table), so
    the scorer reuses a roll's encounters for tables whose posters differ elsewhere and shifts V by those
    posters' future donations: one scorer kept across a poster on each space, in turn, gives the plain
    sum every time (the round start's entry, the game's end and ArciTech's re-post included)."""
    game, state = table
    board, rules, dice, s, plain = to_solver(game, state)
    if s.funds >= rules.target:
        return
    s = replace(s, round=rnd)
    valuer = Valuer(board, rules, dice, plain.weights, plain.horizon, Ahead(seats=len(s.players), entry_track=TRACK))
    scorer = TurnScorer(board, rules, dice, valuer)
    for extra in (1, 2):
        for space in range(board.n):
            if s.poster_supply_left(rules) < extra:
                break
            pre = s.with_poster(space, extra)
            assert same(scorer.expected(pre, s), from_outcomes(board, rules, dice, pre, s, valuer, None)), space
