"""The whole-game forecast (solvers/robotariat/forecast.py) against a plain oracle that plays every roll
of every NPC turn to the end of the game (rulebook "Round Order", "Game End", "Revolution Table",
"Set Up" 6), on small random boards late in the game.

The oracle shares the game order with nothing in solvers/robotariat: dict states, its own round
starts (the entry track's NPC placed on the Entry token and meeting the space), its own NPC turn (the
36-roll enumeration of test_robotariat_solver_oracle.py), its own turn order and game end. Only the
choice of each player's turn comes from the policy under test, converted to and from dicts.
"""
from __future__ import annotations

import copy
from dataclasses import replace
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from test_robotariat_solver_oracle import _after_encounters, oracle_distribution, tables, to_solver

from solvers.robotariat.forecast import Forecaster, game_forecast, runs_for, wilson
from solvers.robotariat.game import GameRules
from solvers.robotariat.gamedata import DEFAULTS
from solvers.robotariat.model import TableState
from solvers.robotariat.policies import GreedyPolicy, SuggestionPolicy
from solvers.robotariat.rollout import RolloutPolicy
from solvers.robotariat.suggest import _Planner
from solvers.robotariat.value import Weights

TRACK = ("civilian", "oppressor", "civilian", "oppressor", "oppressor", "civilian")  # Set Up 6


def to_dict(board, s: TableState, base: dict) -> dict:
    ids = board.ids
    out = copy.deepcopy(base)
    out.update(oppressors=[ids[x] for x in s.oppressors], civilians=[ids[x] for x in s.civilians],
               posters={ids[i]: n for i, n in enumerate(s.posters) if n}, junk=s.junk, funds=s.funds,
               reputation=s.reputation, office=s.office, entry=ids[s.entry], active=s.active, round=s.round)
    for p, at in zip(out["players"], s.players):
        p["at"] = ids[at]
    return out


def to_state(board, st: dict) -> TableState:
    ix = board.index
    return TableState(oppressors=tuple(ix[x] for x in st["oppressors"]), civilians=tuple(ix[x] for x in st["civilians"]),
                      players=tuple(ix[p["at"]] for p in st["players"]),
                      characters=tuple(p.get("character") for p in st["players"]),
                      posters=tuple(st["posters"].get(i, 0) for i in board.ids), junk=st["junk"], funds=st["funds"],
                      reputation=st["reputation"], office=st["office"], entry=ix[st["entry"]], active=st["active"],
                      round=st["round"])


def oracle_entry(game: dict, st: dict) -> dict:
    """Round Order 1: the next NPC of the track is placed on the Entry token's space and meets it."""
    st = copy.deepcopy(st)
    kind = TRACK[len(st["oppressors"]) + len(st["civilians"])]
    st[kind + "s"].append(st["entry"])
    st.update(ended=None, fines=0, junked=0, rep_lost=False, reposted=None)
    return _after_encounters(game, st, [(kind, st["entry"])], False)[0]


def oracle_game(game: dict, board, st: dict, policy, memo: dict) -> dict:
    """{(ending, round): P} and E[final funds] from `st` (the active player about to play), every roll
    of every NPC turn enumerated."""
    key = repr(sorted(st.items()))
    if key in memo:
        return memo[key]
    n = len(st["players"])
    left = (6 - st["round"]) * n + (n - 1 - st["active"])
    g = {**game, "horizon": max(0, min(n, left))}  # the suggestions' horizon for this turn
    pre = to_dict(board, policy.choose(to_state(board, st)), st)
    out: dict = {}
    funds = Fraction(0)

    def end(kind: str, s: dict, p: Fraction) -> None:
        nonlocal funds
        out[(kind, s["round"])] = out.get((kind, s["round"]), Fraction(0)) + p
        funds += p * s["funds"]

    if pre["reputation"] <= 0:
        end("reputation", pre, Fraction(1))
    elif pre["funds"] >= game["target"]:
        end("success", pre, Fraction(1))
    else:
        for p, after in oracle_distribution(g, pre).values():
            after = {k: after[k] for k in st}
            after["round"] = pre["round"]
            if after["reputation"] <= 0:
                end("reputation", after, p)
                continue
            if after["funds"] >= game["target"]:
                end("success", after, p)
                continue
            if after["active"] + 1 < n:
                nxt = {**after, "active": after["active"] + 1}
            elif after["round"] == 6:
                end("time", after, p)
                continue
            else:
                nxt = {**after, "active": 0, "round": after["round"] + 1}
                entered = oracle_entry(g, nxt)
                nxt = {k: entered[k] for k in st}
                if nxt["reputation"] <= 0:
                    end("reputation", nxt, p)
                    continue
                if nxt["funds"] >= game["target"]:
                    end("success", nxt, p)
                    continue
            sub = oracle_game(game, board, nxt, policy, memo)
            for k, q in sub["endings"].items():
                out[k] = out.get(k, Fraction(0)) + p * q
            funds += p * sub["funds"]
    memo[key] = {"endings": out, "funds": funds}
    return memo[key]


def _game_rules(game: dict, board, rules, dice) -> GameRules:
    # the oracle's NPC turn makes Alice Smith's, MT-ρ's and ArciTech's choices with the score of the coming NPC
    # turn alone, so the forecast is held to it with that score (the look-past term has its own oracle)
    return GameRules(board=board, rules=rules, dice=dice, weights=Weights(**game["weights"]), entry_track=TRACK,
                     look_past=False)


@hs.composite
def late_games(draw):
    """A small random table at most four player turns from the end (round 6, or the last seat of round 5,
    so that one round start comes too), with the NPCs the track has brought in by then."""
    game, state = draw(tables(characters=("uberbot", "mt_rho", "alice_smith", None), horizon=hs.just(0)))
    rnd = draw(hs.integers(5, 6))
    opp = TRACK[:rnd].count("oppressor")
    civ = rnd - opp
    space = hs.sampled_from([s["id"] for s in game["board"]["spaces"]])
    state["oppressors"] = draw(hs.lists(space, min_size=opp, max_size=opp))
    state["civilians"] = draw(hs.lists(space, min_size=civ, max_size=civ))
    state["round"] = rnd
    state["players"] = state["players"][:3]
    state["active"] = 2 if rnd == 5 else draw(hs.integers(0, 2))
    state["funds"] = draw(hs.integers(max(0, game["target"] - 12), game["target"] - 1))
    state["reputation"] = draw(hs.integers(1, 3))
    return game, state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(late_games())
def test_exact_forecast_equals_every_roll_to_the_end(table):
    """Game End + Revolution Table: P(success), P(failure by Reputation), P(failure after round 6), each
    by round, and the expected final funds equal the oracle's enumeration of every roll to the end."""
    game, state = table
    board, rules, dice, s, _ = to_solver(game, state)
    s = replace(s, round=state["round"])
    g = _game_rules(game, board, rules, dice)
    policy = SuggestionPolicy(g)  # one policy for both: its choices are not what is tested here
    f = game_forecast(g, s, policy, exact_limit=5000)
    assert f.method == "exact"
    want = oracle_game(game, board, {**state, "round": state["round"]}, policy, {})
    got = {}
    for r in f.by_round:
        for kind, est in (("success", r.p_success), ("reputation", r.p_fail_reputation), ("time", r.p_fail_time)):
            if est.exact:
                got[(kind, r.round)] = est.exact
    assert got == {k: v for k, v in want["endings"].items() if v}
    assert f.expected_funds.exact == want["funds"]
    assert f.p_success.exact + f.p_fail_reputation.exact + f.p_fail_time.exact == 1


def _example(round_: int, active: int = 0, **kw) -> tuple[GameRules, TableState]:
    b = DEFAULTS.board
    g = GameRules(board=b, rules=DEFAULTS.rules(3), dice=DEFAULTS.dice, weights=DEFAULTS.weights,
                  entry_track=DEFAULTS.entry_track)
    base = dict(oppressors=(), civilians=(), players=(b.index["sy"], b.index["up1"], b.index["mm"]),
                characters=(None, None, None), posters=(0,) * b.n, junk=0, funds=0, reputation=5, office=0,
                entry=b.index["mm"], active=active, round=round_)
    base.update(kw)
    return g, TableState(**base)


def test_reputation_at_one_on_a_crowded_space_fails_by_reputation():
    """Game End: at 0 Reputation the Revolution fails at once. One Reputation left, every oppressor next to
    a space with 4 posters on both paths: the round's end never comes for most rolls."""
    g, s = _example(6, active=2, reputation=1, funds=10)
    b = g.board
    ring = b.index["p1"]
    posters = [0] * b.n
    posters[ring] = 4
    posters[b.index["p3"]] = 4
    s = replace(s, oppressors=(b.index["mm"],), civilians=(b.index["ro"],), posters=tuple(posters))
    f = game_forecast(g, replace(s, entry=b.index["sy"]), SuggestionPolicy(g))
    assert f.method == "exact"
    # the last turn of the game: the oppressor on mm moves onto p1 (yellow) or p3 (blue) on an arrow,
    # 5 of 6 black faces; the suggestion cannot clear both spaces
    assert f.p_fail_reputation.exact > 0
    assert f.p_fail_reputation.exact + f.p_fail_time.exact == 1
    assert [r.round for r in f.by_round] == [6]


def test_round_six_ends_the_game_by_time():
    """Game End: after 6 rounds without the SPARK the Revolution fails. The last player of round 6, far
    from the target: every outcome is a failure after round 6, in round 6."""
    g, s = _example(6, active=2, funds=5)
    f = game_forecast(g, s, SuggestionPolicy(g))
    assert f.method == "exact"
    assert f.p_fail_time.exact == 1 and f.p_success.exact == 0 and f.p_fail_reputation.exact == 0
    assert [(r.round, r.p_fail_time.exact) for r in f.by_round] == [(6, 1)]
    assert f.runs is None


def test_monte_carlo_is_seeded_and_gives_wilson_intervals():
    """A new game on the example board is too big to enumerate: the forecast samples whole games with a
    seed (the same seed, the same answer) and gives each probability with its 95 % interval."""
    g, s = _example(1)
    a = game_forecast(g, s, GreedyPolicy(g), seed=3, max_runs=20, exact_limit=0)
    b = game_forecast(g, s, GreedyPolicy(g), seed=3, max_runs=20, exact_limit=0)
    assert a.method == "monte_carlo" and a.runs == 20 and a.stopped == "max_runs"
    assert (a.p_success, a.p_fail_time, a.expected_funds) == (b.p_success, b.p_fail_time, b.expected_funds)
    for est in (a.p_success, a.p_fail_reputation, a.p_fail_time):
        lo, hi = est.interval
        assert lo <= est.approx <= hi
    assert sum(r.p_success.approx + r.p_fail_reputation.approx + r.p_fail_time.approx for r in a.by_round) == \
        __import__("pytest").approx(1)


def test_interval_arithmetic():
    """+-2 points at 95 % needs 2401 games at p = 1/2; the Wilson interval of 0 of 100 starts at 0."""
    assert runs_for(0.02) == 2401
    lo, hi = wilson(0, 100)
    assert lo == 0 and 0.03 < hi < 0.04


def test_rollout_games_are_seeded_and_do_not_depend_on_how_the_runs_were_split():
    """Round Order: the forecast's sampled games, played with the rollout policy, are game k = random stream
    k: one run of 12 games and runs of 5 then 7 play the same games, and the same seed gives the same
    answer; a new game on the example board is sampled, with intervals."""
    g, s = _example(1, characters=("uberbot", "mt_rho", "alice_smith"))
    one = Forecaster(g, s, SuggestionPolicy(g), seed=5, rollout=RolloutPolicy(g))
    one.run(None, until_runs=12)
    split = Forecaster(g, s, SuggestionPolicy(g), seed=5, rollout=RolloutPolicy(g))
    split.run(None, until_runs=5)
    f = split.run(None, until_runs=12)
    assert one.games == split.games and len(one.games) == 12
    assert f.method == "monte_carlo" and f.p_success.interval[0] <= f.p_success.approx <= f.p_success.interval[1]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(characters=("arcitech", "uberbot", "mt_rho", "alice_smith", "mr_postman", "wally_st", None)),
       hs.integers(1, 6))
def test_the_rollout_plays_a_turn_the_suggestions_consider(table, rnd):
    """Player Turn: the rollout policy's turn is one of the turns the suggestions generate (a move, an
    activation, Move the Masses' encounter), or one of them with the player's own extra poster move (on
    these small boards every scrap-yard placement is generated, so no greedy placement differs)."""
    game, state = table
    board, rules, dice, s, plain = to_solver(game, state)
    if s.funds >= rules.target:
        return
    s = replace(s, round=rnd)
    g = GameRules(board=board, rules=rules, dice=dice, weights=plain.weights, entry_track=TRACK)
    chosen = RolloutPolicy(g).choose(s)
    planner = _Planner(board, rules, dice, s, g.valuer(s))
    plans = [p[2] for p in planner.plans()]
    with_extras = {planner.with_extra(p, e) for p in plans for e in planner.extras(s)}
    assert chosen in plans or chosen in with_extras
