"""Advice that looks past the coming NPC turn (value.Ahead; rulebook "Round Order", "NPC Turn", "Rolling
for Human Oppressor/Civilian Robot Movement", "Encounter Quick-Reference Table").

1. The look-past term against a plain oracle that rolls every sequence of both dice, moves every NPC and
   the Entry token, and places the entry track's NPC on the token at the round start.
2. Nine positions with a known trap, each checked exactly with the NPC-turn and round-start solvers:
   the last turn before a round start whose entering Human Oppressor lands on the players (Round Order
   1: the NPC enters on the Entry token's space and meets it; a Human fines each player there), and
   Oppressors whose dice lead onto the active player's space before the round is over. The advice that
   weighs the coming NPC turn alone took every one of these traps; the advice that looks past it steps
   around each one, and says so.
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from test_robotariat_solver_oracle import tables, to_solver

from assistant.robotariat.api import suggest_json
from solvers.robotariat.game import GameRules
from solvers.robotariat.gamedata import DEFAULTS
from solvers.robotariat.model import TableState, face_colour, is_arrow
from solvers.robotariat.npc_turn import OPPRESSOR, enter_npc, npc_turn
from solvers.robotariat.report import state_json
from solvers.robotariat.suggest import suggest
from solvers.robotariat.value import Ahead, Valuer

TRACK = ("civilian", "oppressor", "civilian", "oppressor", "oppressor", "civilian")  # Set Up 6


def oracle_ahead(board, dice, s: TableState, next_seat: int, track=TRACK, max_rounds: int = 6) -> Fraction:
    """Civilian arrivals (+1) and Oppressor arrivals (-2) on each seat's space until that seat moves
    again (seat `next_seat` moves next), every face of both dice rolled each NPC turn."""
    n = len(s.players)
    last = s.round is not None and s.round >= max_rounds
    before = n - next_seat
    windows = [i - next_seat if i >= next_seat else before if last else before + i for i in range(n)]
    kind = None
    if not last and s.entered < len(track):
        kind = track[s.entered]
        if (len(s.oppressors) if kind == "oppressor" else len(s.civilians)) >= 3:
            kind = None
    turns = max(windows)
    total = Fraction(0)
    for faces in product(product(dice.black, dice.red), repeat=turns):
        opp, civ, token, score = list(s.oppressors), list(s.civilians), s.entry, 0
        for t in range(turns + 1):
            if t == before and kind is not None:
                (opp if kind == "oppressor" else civ).append(token)
                for i, x in enumerate(s.players):
                    if i < next_seat and token == x:
                        score += -2 if kind == "oppressor" else 1
            if t == turns:
                break
            black, red = faces[t]
            watching = [i for i in range(n) if t < windows[i]]
            if is_arrow(black):
                opp = [board.path(face_colour(black))[o] for o in opp]
                score -= 2 * sum(1 for i in watching for o in opp if o == s.players[i])
            else:
                token = board.path(face_colour(black))[token]
            if is_arrow(red):
                civ = [board.path(face_colour(red))[c] for c in civ]
                score += sum(1 for i in watching for c in civ if c == s.players[i])
            else:
                token = board.path(face_colour(red))[token]
        total += score
    return total / 36 ** turns


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(characters=(None,)), hs.one_of(hs.none(), hs.integers(1, 6)), hs.integers(0, 3))
def test_look_past_term_equals_every_dice_sequence(table, rnd, next_seat):
    """Round Order, NPC Turn: the expected encounters on each seat's space until it moves again (the round
    start's NPC placed on the Entry token, wherever the X faces took it) equal the plain enumeration."""
    game, state = table
    state["players"] = state["players"][:3]
    state["active"] = 0
    board, rules, dice, s, plain = to_solver(game, state)
    s = replace(s, round=rnd)
    v = Valuer(board, rules, dice, plain.weights, plain.horizon, Ahead(seats=3, entry_track=TRACK))
    got = Fraction(v.ahead_scaled(s.oppressors, s.civilians, s.players, s.entry, s.entered, s.round, next_seat), v.e)
    assert got == oracle_ahead(board, dice, s, next_seat)


def test_npc_walks_equal_every_face_sequence_in_any_order_asked():
    """NPC Turn (an arrow face moves the NPC along its colour, an X leaves it): one NPC's expected arrivals
    on each space over 1 to 4 NPC turns equal rolling every face sequence, whether a longer walk from that
    space was worked out first (the arrivals of each turn are kept per start space) or a shorter one."""
    board, dice = DEFAULTS.board, DEFAULTS.dice
    v = Valuer(board, DEFAULTS.rules(3), dice, DEFAULTS.weights, 3, Ahead(seats=3, entry_track=TRACK))
    for die in ("black", "red"):
        faces = [f for f, c in dice.counts(die).items() for _ in range(c)]
        for start in (0, 5, board.n - 1):
            for turns in (4, 1, 3, 2):
                want = [Fraction(0)] * board.n
                for seq in product(faces, repeat=turns):
                    x = start
                    for f in seq:
                        if is_arrow(f):
                            x = board.path(face_colour(f))[x]
                            want[x] += Fraction(1, 6 ** turns)
                assert [Fraction(a, v.e) for a in v._walk(die, start, turns)] == want


# ---- the trap positions (example board, 3 players, no abilities) ---------------------------------

BOARD, RULES, DICE = DEFAULTS.board, DEFAULTS.rules(3), DEFAULTS.dice
IX = BOARD.index
NEW = GameRules(board=BOARD, rules=RULES, dice=DICE, weights=DEFAULTS.weights, entry_track=DEFAULTS.entry_track)
TODAY = replace(NEW, look_past=False)


def position(opp, civ, players, posters, funds, rep, office, entry, active, rnd) -> TableState:
    return TableState(oppressors=tuple(IX[x] for x in opp), civilians=tuple(IX[x] for x in civ),
                      players=tuple(IX[x] for x in players), characters=(None,) * len(players),
                      posters=tuple(posters.get(x, 0) for x in BOARD.ids), junk=0, funds=funds, reputation=rep,
                      office=office, entry=IX[entry], active=active, round=rnd)


# The last seat's turn, the entry track's next NPC a Human Oppressor (rows 2, 4, 5), the Entry token where
# players stand. The first is the table: all three on Move the Masses, a Civilian on Upgrade 2.
ROUND_START_TRAPS = {
    "all three on Move the Masses (row 2)": position([], ["up2"], ["mm", "mm", "mm"], {"up1": 1, "up2": 1},
                                                     10, 4, 4, "mm", 2, 1),
    "two on Move the Masses, round 3": position(["sb1"], ["up1", "p3"], ["up2", "mm", "mm"],
                                                {"mm": 1, "p1": 1, "p3": 1}, 26, 3, 0, "mm", 2, 3),
    "all three on Move the Masses, round 4": position(["p1", "up2"], ["sb2", "p1"], ["mm", "mm", "mm"],
                                                      {"mm": 1, "ro": 1, "p2": 1, "up2": 1}, 6, 5, 3, "mm", 2, 4),
    "the token on Sabotage 2": position(["p3", "mm"], ["ro", "sb1"], ["sb2", "sb1", "sb2"], {"up1": 1},
                                        11, 4, 0, "sb2", 2, 4),
    "the token on the Recruitment Office": position([], ["up2"], ["up2", "up2", "ro"],
                                                    {"mm": 1, "sb1": 1, "ro": 1, "up2": 1}, 25, 5, 3, "ro", 2, 1),
}
# The first seat's turn: two more NPC turns come before the round ends, and Oppressors are a step or two
# up their path from where the advice of the coming NPC turn alone would leave the player.
WALK_TRAPS = {
    "Oppressors on Upgrade 1 and Upgrade 2": position(["up1", "up2", "up2"], ["mm", "sb2"], ["up1", "p2", "p1"],
                                                      {"sb1": 1}, 26, 5, 0, "up1", 0, 5),
    "Oppressors on the Office and Move the Masses": position(["ro", "mm"], ["p2", "sb1"], ["p2", "sy", "sy"],
                                                             {"sb2": 2}, 30, 3, 4, "p2", 0, 4),
    "Oppressors on Poster 1 and Sabotage 2": position(["p1", "sb2"], ["mm", "p2"], ["up1", "up1", "mm"],
                                                      {"mm": 1, "ro": 1, "sy": 1, "sb2": 1}, 5, 4, 1, "mm", 0, 4),
    "Oppressors on Upgrade 1 and the Scrap Yard": position(["up1", "sy"], ["up1", "p1"], ["p2", "p2", "sb1"],
                                                           {"sb1": 1}, 10, 4, 0, "up1", 0, 4),
}


def best(g: GameRules, s: TableState):
    return suggest(BOARD, RULES, DICE, s, g.valuer(s)).options[0]


def round_start_losses(pre: TableState) -> tuple[Fraction, Fraction]:
    """Exactly: E[funds, Reputation] the round start's entry takes, after the NPC turn from `pre`."""
    f = npc_turn(BOARD, RULES, DICE, pre, TODAY.valuer(pre))
    funds = rep = Fraction(0)
    for o in f.outcomes:
        st = o.result.state
        if st.ended is None:
            e = enter_npc(BOARD, RULES, st, DEFAULTS.entry_track[st.entered], st.entered + 1)
            funds += o.p * (st.funds - e.state.funds)
            rep += o.p * (st.reputation - e.state.reputation)
    return funds, rep


def oppressor_visits(pre: TableState, seat: int) -> Fraction:
    """Exactly: E[Oppressor encounters on `seat`'s space] over the NPC turns left in the round, from `pre`
    (the players after `pre.active` stay put and activate nothing)."""
    x, dist, total = pre.players[seat], {pre: Fraction(1)}, Fraction(0)
    for a in range(pre.active, len(pre.players)):
        nxt: dict[TableState, Fraction] = {}
        for st, p in dist.items():
            st = replace(st, active=a)
            for o in npc_turn(BOARD, RULES, DICE, st, TODAY.valuer(st)).outcomes:
                total += p * o.p * sum(1 for e in o.result.encounters if e.npc == OPPRESSOR and e.space == x)
                if o.result.state.ended is None:
                    nxt[o.result.state] = nxt.get(o.result.state, Fraction(0)) + p * o.p
        dist = nxt
    return total


def steered(s: TableState) -> dict:
    st = state_json(BOARD, s)
    st.pop("ended")
    return suggest_json({"players": 3, "state": st, "limit": 3})["looked_past"]


@pytest.mark.parametrize("name", sorted(ROUND_START_TRAPS))
def test_round_start_traps_are_avoided(name):
    """Round Order 1, Encounter Quick-Reference Table: the entering Oppressor fines every player on the
    Entry token's space. Today's best turn leaves the active player there; the new one does not, and the
    round start then takes less, exactly; the answer names the turn it steered away from."""
    s = ROUND_START_TRAPS[name]
    today, new = best(TODAY, s), best(NEW, s)
    assert today.after.players[s.active] == s.entry != new.after.players[s.active]
    (funds_today, rep_today), (funds_new, rep_new) = round_start_losses(today.after), round_start_losses(new.after)
    assert funds_new < funds_today and rep_new <= rep_today
    said = steered(s)
    assert said["changed"] and said["entering"] == "oppressor"
    assert said["why"].startswith("Steered around what is known to come: “") and "round start" in said["why"]


@pytest.mark.parametrize("name", sorted(WALK_TRAPS))
def test_oppressor_walk_traps_are_avoided(name):
    """NPC Turn: every black-die arrow moves every Oppressor one step; over the NPC turns left in the
    round they land on where today's best turn leaves the active player more often than on where the new
    one does, exactly; the answer says it steered."""
    s = WALK_TRAPS[name]
    today, new = best(TODAY, s), best(NEW, s)
    assert today.move_to != new.move_to
    assert oppressor_visits(new.after, s.active) < oppressor_visits(today.after, s.active)
    assert steered(s)["changed"]


def test_no_steer_when_nothing_known_changes_the_best_turn():
    """The last turn of the game (round 6, the last seat): nothing comes after its NPC turn, so the
    answer says looking past it changed nothing."""
    s = replace(ROUND_START_TRAPS["all three on Move the Masses (row 2)"], round=6,
                civilians=(IX["up2"], IX["sy"], IX["p1"]), oppressors=(IX["sb2"], IX["sy"], IX["up2"]))
    said = steered(s)
    assert said is None or not said["changed"]


def _ring(n: int):
    from solvers.robotariat.board import KINDS, Board

    ids = [f"s{i}" for i in range(n)]
    return Board.from_json({"spaces": [{"id": x, "kind": KINDS[i % len(KINDS)]} for i, x in enumerate(ids)],
                            "links": [[ids[i], ids[(i + 1) % n]] for i in range(n)],
                            "yellow_next": {ids[i]: ids[(i + 1) % n] for i in range(n)},
                            "blue_next": {ids[i]: ids[(i - 1) % n] for i in range(n)}})


def test_large_boards_try_the_posters_that_can_matter_and_the_best_other_space(monkeypatch):
    """Types of Space Activations (Poster): on a board of more than 16 spaces, a poster is tried where an
    NPC can move next or enter, and on the best other space; that one scores exactly as well as the best
    of all the other spaces tried one by one (elsewhere a poster only adds its future donations)."""
    from solvers.robotariat import suggest as sg

    board = _ring(24)
    poster = board.kinds.index("poster")
    s = TableState(oppressors=(10,), civilians=(14, 3), players=(poster, 20, 21), characters=(None,) * 3,
                   posters=(0,) * 24, junk=0, funds=5, reputation=4, office=2, entry=5, active=0, round=3)
    g = replace(NEW, board=board)
    v = g.valuer(s)
    pruned = suggest(board, RULES, DICE, s, v)
    placed = {o.activation.place_on: o.score for o in pruned.options
              if o.activation is not None and o.activation.kind == "poster" and o.activation.when == "here"}
    assert all("poster placed on the" in o.search for o in pruned.options
               if o.activation is not None and o.activation.kind == "poster")
    monkeypatch.setattr(sg, "POSTER_EXHAUSTIVE", 100)
    full = suggest(board, RULES, DICE, s, g.valuer(s))
    every = {o.activation.place_on: o.score for o in full.options
             if o.activation is not None and o.activation.kind == "poster" and o.activation.when == "here"}
    assert len(every) == 24 and len(placed) < 24
    assert all(placed[x] == every[x] for x in placed)
    others = [x for x in every if x not in placed]
    assert max(placed.values()) == max(every.values())
    assert max(every[x] for x in others) <= max(placed[x] for x in placed if x not in others)
