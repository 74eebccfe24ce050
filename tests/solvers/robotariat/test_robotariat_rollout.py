"""The forecast's rollout policy (solvers/robotariat/rollout.py) against the plain way of making the same
choice: every turn suggest._Planner.plans generates (rulebook "Player Turn", "Movement", "Types of Space
Activations"), each table built and estimated on its own by RolloutPolicy.estimate, the best first (ties:
generation order), the exact score (scoring.TurnScorer through the suggestions' _Scorer) among the three
best where the NPC turn after one of them can end the game ("Game End"), and Mr. Postman's or WallyST's
extra poster move ("Character Abilities") tried on the turn chosen.

The policy makes that choice without a table per candidate; these tests hold it to the plain way,
candidate by candidate (the same turns in the same order, the same estimates to the last bit) and turn by
turn over whole seeded games, on the example board, on small random boards and on a board past the size
where the suggestions stop trying every poster space and Move the Masses move.
"""
from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

from solvers.robotariat.board import KINDS, Board
from solvers.robotariat.forecast import _Game, _sample_game, rolled, tears
from solvers.robotariat.game import TIME_UP, GameRules, next_turn
from solvers.robotariat.gamedata import DEFAULTS
from solvers.robotariat.model import CHARACTERS, Dice, TableState
from solvers.robotariat.npc_turn import CIVILIAN, OPPRESSOR, move_npc, npc_turn, resolve_roll
from solvers.robotariat.policies import SuggestionPolicy
from solvers.robotariat.random_boards import random_board
from solvers.robotariat.rollout import NEAR_END, NEAR_END_SHORTLIST, RolloutPolicy, _Turn
from solvers.robotariat.suggest import _Planner
from solvers.robotariat.turn import moved


def _board(rng: random.Random, n: int) -> Board:
    """A valid board of n spaces: every kind, a ring of black lines and a few chords, yellow and blue
    next spaces along the lines."""
    kinds = list(KINDS) + [rng.choice(KINDS) for _ in range(n - len(KINDS))]
    rng.shuffle(kinds)
    return random_board(rng, kinds, chords=rng.randint(1, n // 2))


def _game(board: Board, players: int) -> GameRules:
    return GameRules(board=board, rules=DEFAULTS.rules(players), dice=DEFAULTS.dice, weights=DEFAULTS.weights,
                     entry_track=DEFAULTS.entry_track)


def _table(rng: random.Random, board: Board, players: int) -> TableState:
    """A table mid-game: NPCs, players, posters, junk and tracks at random; the round at least the NPCs'."""
    n = board.n
    chars = list(rng.sample(list(CHARACTERS) + [None] * players, players))
    chars[0] = rng.choice((chars[0], "mr_postman", "wally_st", "uberbot", "arcitech"))
    chars = [c if c not in chars[:i] else None for i, c in enumerate(chars)]
    posters = [0] * n
    for _ in range(rng.randint(0, 6)):
        posters[rng.randrange(n)] += 1
    opp = tuple(rng.randrange(n) for _ in range(rng.randint(0, 3)))
    civ = tuple(rng.randrange(n) for _ in range(rng.randint(0, 3)))
    return TableState(oppressors=opp, civilians=civ, players=tuple(rng.randrange(n) for _ in range(players)),
                      characters=tuple(chars), posters=tuple(posters), junk=rng.randint(0, 8 - sum(posters)),
                      funds=rng.randint(0, 44), reputation=rng.randint(1, 6), office=rng.randint(0, 10),
                      entry=rng.randrange(n), active=rng.choice((0, rng.randrange(players))),
                      round=max(len(opp) + len(civ), rng.randint(1, 6)))


def _tables(count: int, seed: int):
    rng = random.Random(seed)
    for k in range(count):
        players = rng.randint(3, 5)
        board = DEFAULTS.board if k % 3 == 0 else _board(rng, rng.randint(8, 14) if k % 3 == 1 else 20)
        yield _game(board, players), _table(rng, board, players)


def _plain_planner(policy: RolloutPolicy, s: TableState):
    """The suggestions' planner of the turn from `s`, its greedy scrap-yard placement by the estimate (as the
    rollout has it), and the estimate's inputs."""
    g = policy.game
    v, t = policy.scorers.for_state(s)
    entering = v.entry_now(s)
    base = policy.arrivals(s, t, v, entering)
    planner = _Planner(g.board, g.rules, g.dice, s, v, t, lean=True)
    planner.placement_score = lambda pre: policy.estimate(pre, v, t, entering, s, base)
    return planner, v, t, entering, base


def _plain_choice(policy: RolloutPolicy, s: TableState) -> TableState:
    """The rollout's choice made the plain way (see the module docstring)."""
    g = policy.game
    planner, v, t, entering, base = _plain_planner(policy, s)
    plans = planner.plans()
    est = [policy.estimate(p[2], v, t, entering, s, base) for p in plans]
    ranked = sorted(range(len(plans)), key=lambda i: (-est[i], i))
    if policy.near_end is None:
        near_end = any(policy.may_end(plans[i][2]) for i in ranked[:NEAR_END_SHORTLIST])
    else:
        near_end = s.funds + policy.near_end >= g.rules.target or s.reputation <= 2
    picked = sorted(ranked[:NEAR_END_SHORTLIST if near_end else 1])
    best_i, best = picked[0], None
    if len(picked) > 1:
        for i in picked:
            _, a, pre, enc, _ = plans[i]
            score = planner.scorer.score(pre, enc, a)[0]
            if best is None or score > best:
                best_i, best = i, score
    _, a, pre, enc, _ = plans[best_i]
    choice = pre
    extras = planner.extras(s)
    if extras and choice.ended is None:
        tried = [(policy.estimate(w, v, t, entering, s, base), k, w) for k, e in enumerate(extras)
                 if (w := planner.with_extra(pre, e)) is not None]
        if tried:
            top, _, with_e = max(tried, key=lambda x: (x[0], -x[1]))
            if best is None:
                if top > est[best_i]:
                    choice = with_e
            elif planner.scorer.score(with_e, enc, a)[0] > best:
                choice = with_e
    return choice


def test_candidates_are_the_planners_turns_in_its_order_with_the_same_estimates():
    """Player Turn, Movement, Types of Space Activations: the rollout's candidates are the turns the
    suggestions generate (stay or move along a black line; no activation, the space left or reached;
    every poster space, contribution, Move the Masses NPC move with its encounter, scrap-yard placement),
    in the same order, each table the same, each estimate the number estimate() gives its table; and on
    each, Mr. Postman's or WallyST's best extra poster move by the estimate, as the plain way finds it."""
    extra_turns = 0
    for g, s in _tables(150, seed=25):
        policy = RolloutPolicy(g)
        planner, v, t, entering, base = _plain_planner(policy, s)
        turn = _Turn(policy, s, v, t, entering, base)
        cands, est = turn.candidates()
        plans = planner.plans()
        assert [turn.build(c) for c in cands] == [p[:4] for p in plans]
        assert est == [policy.estimate(p[2], v, t, entering, s, base) for p in plans]
        extras = planner.extras(s)
        for i, (_, _, pre, _, _) in enumerate(plans):
            if pre.ended is None and s.active_character in ("mr_postman", "wally_st"):
                tried = [(policy.estimate(w, v, t, entering, s, base), k, e) for k, e in enumerate(extras)
                         if (w := planner.with_extra(pre, e)) is not None]
                top = max(tried, key=lambda x: (x[0], -x[1])) if tried else None
                assert turn.best_extra(i, pre) == (None if top is None else (top[0], top[2]))
                extra_turns += 1
    assert extra_turns > 500


def test_every_turn_of_seeded_games_is_the_plain_choice():
    """Round Order, Player Turn, Character Abilities: over whole games (the forecast's sampled games,
    seeded), at every turn the rollout plays what the plain way picks, near the game's end and with the
    extra poster moves too; and the games end as they did."""
    checked = 0
    for k, (g, s) in enumerate(_tables(36, seed=7)):
        if k % 3 == 2:
            s = replace(s, funds=min(s.funds, 20))
        near_end = None if k % 2 else NEAR_END  # the exact score where the game can end / within 20 SPARK
        policy = RolloutPolicy(g, near_end=near_end)
        plain = RolloutPolicy(g, near_end=near_end)
        play = _Game(g, policy)
        seen = []
        original = policy.choose

        def choose(st: TableState, original=original, seen=seen) -> TableState:
            seen.append(st)
            return original(st)

        policy.choose = choose
        for game in range(3):
            _sample_game(g, play, s, random.Random(f"{k}:{game}"), False)
        for j, st in enumerate(seen):
            assert policy.cache[st] == _plain_choice(plain, st)
            if j % 4 == 0:  # what the policy keeps from earlier turns does not change a choice
                assert policy.cache[st] == RolloutPolicy(g, near_end=near_end).choose(st)
        checked += len(seen)
    assert checked > 300


def test_move_the_masses_encounter_is_npc_turns():
    """Types of Space Activations (Move the Masses), Check for and Resolve Encounters: the rollout's own
    working of the moved NPC's encounter (fines, suspicion, torn posters, the office's fine, donations, a
    Civilian stopped by an Oppressor, the game's end) gives the table npc_turn.move_npc gives, for every
    NPC move, the active player on their space or on a neighbour."""
    tried = 0
    for g, s in _tables(200, seed=3):
        policy = RolloutPolicy(g)
        v, t = policy.scorers.for_state(s)
        entering = v.entry_now(s)
        turn = _Turn(policy, s, v, t, entering, policy.arrivals(s, t, v, entering))
        here = s.players[s.active]
        for q in (here,) + g.board.neighbours[here]:
            at_q = moved(s, q)
            for npc, group in ((OPPRESSOR, s.oppressors), (CIVILIAN, s.civilians)):
                for i, x in enumerate(group):
                    for to in g.board.neighbours[x]:
                        after = move_npc(g.board, g.rules, at_q, npc, i, to)[1]
                        assert turn.masses_after(npc, i, to, q) == (after.oppressors, after.civilians, after.posters,
                                                                    after.funds, after.reputation, after.office,
                                                                    after.ended)
                        tried += 1
    assert tried > 2000


def test_a_turn_that_cannot_end_the_game_is_one_the_bound_says_so():
    """Game End, NPC Turn, Round Order: where RolloutPolicy.may_end says the NPC turn after a table cannot
    end the game, no roll of it does (every roll with its chance, Alice Smith's and MT-ρ's choices,
    ArciTech's re-post), nor the round start after it when one comes next."""
    quiet = 0
    for k, (g, s) in enumerate(_tables(300, seed=11)):
        policy = RolloutPolicy(g)
        last = len(s.players) - 1
        # close to the target, the round's last seat (a round start next) or not
        for funds, active, rep in ((g.rules.target - 1 - k % 12, last, s.reputation), (s.funds, last, 1 + k % 4),
                                   (g.rules.target - 1 - k % 7, s.active, s.reputation)):
            st = replace(s, funds=min(funds, g.rules.target - 1), active=active, reputation=rep)
            v = g.valuer(st)
            if policy.may_end(st):
                continue
            quiet += 1
            for o in npc_turn(g.board, g.rules, g.dice, st, v).outcomes:
                after = o.result.state
                nxt = next_turn(g, after) if after.ended is None else after
                assert after.ended is None and (nxt == TIME_UP or nxt.ended is None), (st, o.black, o.red)
    assert quiet > 200


def test_a_sampled_roll_is_npc_turns():
    """NPC Turn, Check for and Resolve Encounters, Game End: the forecast's sampled NPC turn (forecast.rolled,
    at tables without ArciTech) leaves the table npc_turn.resolve_roll leaves, for every roll: the moves,
    the Entry token, fines, suspicion, torn posters, the office, donations, a Civilian stopped by an
    Oppressor, the game's end."""
    tried = 0
    for g, s in _tables(300, seed=5):
        if s.seat_of("arcitech") is not None:
            continue
        for funds in (s.funds, g.rules.target - 2):
            st = replace(s, funds=funds)
            v = g.valuer(st)
            for b in g.dice.counts("black"):
                for r in g.dice.counts("red"):
                    assert rolled(g, st, b, r) == resolve_roll(g.board, g.rules, st, b, r, v, valued=False)[0].state
                    tried += 1
    assert tried > 2000


def test_a_sampled_roll_at_arcitechs_table_is_npc_turns():
    """Character Abilities (ArciTech puts a torn-down poster back up, once per NPC turn), NPC Turn: at a
    table with ArciTech, the forecast's sampled roll (_Game.roll_table) leaves the table
    npc_turn.resolve_roll leaves, for every roll: forecast.rolled where no moving Oppressor lands on a
    space with posters (forecast.tears False: no re-post to weigh), else rolled replaying the re-post
    scoring.TurnScorer chooses (the same choice as npc_turn's: declining, or the space and the encounter)."""
    quiet = torn = reposted = 0
    for g, s in _tables(600, seed=11):
        if s.seat_of("arcitech") is None:
            continue
        play = _Game(g, RolloutPolicy(g))
        for funds in (s.funds, g.rules.target - 2):
            st = replace(s, funds=funds)
            v = g.valuer(st)
            for b in g.dice.counts("black"):
                lands = [g.board.path(b.split("_", 1)[0])[x] for x in st.oppressors] if b.endswith("_arrow") else []
                assert tears(g, st, b) == any(st.posters[x] for x in lands)
                for r in g.dice.counts("red"):
                    after = resolve_roll(g.board, g.rules, st, b, r, v, valued=False)[0].state
                    assert play.roll_table(st, b, r, g.dice) == after
                    if tears(g, st, b):
                        torn += 1
                        reposted += rolled(g, st, b, r) != after
                    else:
                        assert rolled(g, st, b, r) == after
                        quiet += 1
    assert quiet > 500 and torn > 100 and reposted > 20  # (the re-post put a poster back up there)


def test_a_sampled_roll_after_the_policys_turn_is_npc_turns():
    """The same after the rollout policy's turn at ArciTech's table (the sampled roll reads the rolls its
    exact score worked out, where it scored that table) and with a policy of its own scorer (the
    suggestions'): every roll's table is npc_turn.resolve_roll's."""
    tried = torn = reused = 0
    for g, s in _tables(300, seed=12):
        if s.seat_of("arcitech") is None:
            continue
        policy = RolloutPolicy(g)
        for play in (_Game(g, policy), _Game(g, SuggestionPolicy(g))):
            pre = play.choose(s)
            if pre.ended is not None:
                continue
            reused += play.policy is policy and pre in policy.scored
            v = g.valuer(pre)
            for b in g.dice.counts("black"):
                torn += tears(g, pre, b)
                for r in g.dice.counts("red"):
                    assert play.roll_table(pre, b, r, g.dice) == resolve_roll(g.board, g.rules, pre, b, r, v,
                                                                              valued=False)[0].state
                    tried += 1
    assert tried > 500 and torn > 20 and reused > 5  # (some turns were chosen by the exact score)


def test_arrival_tables_are_the_rolls_expectations():
    """NPC Turn (Rolling for movement, Check for and Resolve Encounters): the rollout's arrival table of an
    NPC placement is, roll by roll over the 36 plain rolls, where the dice take the Oppressors, the
    Civilians (those not stopped by an Oppressor arriving there), the Civilians an arriving Oppressor finds,
    where the round start's NPC enters (X faces moving the Entry token) and the posters' future donations."""
    for g, s in _tables(120, seed=8):
        policy = RolloutPolicy(g)
        v, t = policy.scorers.for_state(s)
        board, n = g.board, g.board.n
        for entering in (None, "civilian"):
            opp, civ, crowd, entry, row = [0] * n, [0] * n, [0] * n, [0] * n, [0] * n
            office = 0
            for b, cb in g.dice.counts("black").items():
                for r, cr in g.dice.counts("red").items():
                    w = cb * cr
                    opp_to = [board.path(b.split("_")[0])[x] for x in s.oppressors] if b.endswith("arrow") else []
                    moved_civ = [board.path(r.split("_")[0])[x] for x in s.civilians] if r.endswith("arrow") else []
                    at = s.entry if b.endswith("arrow") else board.path(b.split("_")[0])[s.entry]
                    at = at if r.endswith("arrow") else board.path(r.split("_")[0])[at]
                    for x in opp_to:
                        opp[x] += w
                        crowd[x] += w * moved_civ.count(x)
                    for x in moved_civ:
                        civ[x] += w * (x not in opp_to)
                    if entering:
                        entry[at] += w
                    after = moved_civ if r.endswith("arrow") else list(s.civilians)
                    if v.horizon:
                        for c in after:
                            for y, a in enumerate(v.arrivals(c)):
                                row[y] += w * a
                            office += w * sum(v.arrivals(c)[o] for o in board.offices)
            got = policy.arrivals_of(s.oppressors, s.civilians, s.entry, t, v, entering)
            touched = tuple(x for x in range(n) if opp[x] or civ[x] or entry[x])
            assert got == (tuple(opp), tuple(civ), tuple(crowd), tuple(entry), tuple(row), office, touched)


def test_arcitechs_re_post_is_in_the_bound():
    """Character Abilities (ArciTech), Civilian Robots: one torn poster put back up where two Civilians arrive
    donates twice. Example board: an Oppressor on sb1, two Civilians on up1, 44 of 45 SPARK: the NPC turn
    ends the game in success with chance 5/9, so the bound must not say it cannot end (a review found it
    did, counting ArciTech's re-post as at most 2 and only where the Civilians already gained)."""
    g = _game(DEFAULTS.board, 3)
    s = TableState(oppressors=(2,), civilians=(4, 4), players=(2, 4, 4), characters=("arcitech", None, None),
                   posters=(0, 1, 0, 0, 0, 0, 1, 1, 0, 1), junk=0, funds=44, reputation=6, office=0, entry=8,
                   active=0, round=2)
    ended = [o for o in npc_turn(g.board, g.rules, g.dice, s, g.valuer(s)).outcomes if o.result.state.ended]
    assert sum(Fraction(o.p) for o in ended) == Fraction(5, 9)
    assert RolloutPolicy(g).may_end(s)


def test_a_sampled_roll_with_a_die_a_card_fixes_is_npc_turns():
    """Sabotage and Upgrade cards that set a die for the NPC turn (Types of Space Activations): at ArciTech's
    table the sampled roll with those dice (the re-post then chosen by a scorer of the card's dice, not the
    policy's rolls) leaves the table npc_turn.resolve_roll leaves."""
    fixed = (Dice(black=("yellow_arrow",) * 6, red=DEFAULTS.dice.red),
             Dice(black=DEFAULTS.dice.black, red=("blue_arrow",) * 6))
    torn = 0
    for g, s in _tables(300, seed=13):
        if s.seat_of("arcitech") is None:
            continue
        play = _Game(g, RolloutPolicy(g))
        v = g.valuer(s)
        for dice in fixed:
            for b in dice.counts("black"):
                torn += tears(g, s, b)
                for r in dice.counts("red"):
                    assert play.roll_table(s, b, r, dice) == resolve_roll(g.board, g.rules, s, b, r, v,
                                                                          valued=False)[0].state
    assert torn > 20
