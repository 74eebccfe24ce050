"""Benchmark: does the forecast's rollout policy (solvers/robotariat/rollout.py) change the forecast's
answer? (issue 25: a cheaper rollout must stand for the suggestions it replaces.)

Run from the project root:  .venv/bin/python bench/bench_robotariat_rollout.py [games]
                            .venv/bin/python bench/bench_robotariat_rollout.py cards [games] [seed]
                            .venv/bin/python bench/bench_robotariat_rollout.py die-card [games] [seed]
For a few positions on the example board (three players: two new games, a round-3 and a round-5 table),
plays `games` games (default 400) twice with the same seed: each player taking the suggestions' best
turn (the forecast before the rollout policy: the same games, roll for roll) and taking the rollout
policy's turn. Game k uses the same random stream in both, so the difference in success is paired game
by game. Prints each success rate with its 95 % Wilson interval, the paired difference with its 95 %
interval, how many games ended the same way, and the CPU time per game.

`cards`: the same positions, each with one card in play (a Sabotage card's 3 SPARK donation at the next round
start, an Upgrade's 2 SPARK fine at every round start, an Upgrade's Reputation +1 at every round start, an
Upgrade setting the black die to the blue arrow at each of its holder's NPC turns), played with the cards'
suggestions (card_effects.EffectPolicy, the forecast with cards before issue 25's quick policy came to them)
and with card_effects.EffectRollout; also how often the two pick another turn (the turns of the rollout's
first 30 games), and how often without the card (RolloutPolicy against the suggestions, the same way).
"""
from __future__ import annotations

import math
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(1, str(Path(__file__).resolve().parent))

from bench_robotariat_strength import setup

from solvers.robotariat.forecast import Z95, Forecaster, wilson
from solvers.robotariat.game import GameRules
from solvers.robotariat.gamedata import DEFAULTS
from solvers.robotariat.policies import SuggestionPolicy
from solvers.robotariat.rollout import RolloutPolicy


def positions(board):
    s1 = setup(board, 3, ("uberbot", None, "arcitech"))
    s2 = setup(board, 3, ("mt_rho", "wally_st", None))
    posters = [0] * board.n
    posters[1], posters[5] = 2, 1
    s3 = replace(s1, oppressors=(3,), civilians=(0, 6), players=(2, 4, 7), posters=tuple(posters), funds=14,
                 reputation=4, round=3, active=1)
    s4 = replace(s2, oppressors=(3, 8), civilians=(0, 6, 5), players=(2, 4, 9), posters=tuple(posters), funds=30,
                 reputation=3, office=2, round=5, active=0)
    return (("new game, Überbot and ArciTech", s1), ("new game, MT-ρ and WallyST", s2), ("round 3", s3),
            ("round 5", s4))


def games(g: GameRules, s, n: int, rollout: bool) -> tuple[list[bool], float]:
    f = Forecaster(g, s, SuggestionPolicy(g), seed=0, max_runs=n, rollout=RolloutPolicy(g) if rollout else None)
    f.exact_tried = True  # sampling only, as a new position's first views do
    c0 = time.process_time()
    f.run(None, until_runs=n)
    return [k == "success" for k, _, _ in f.games], (time.process_time() - c0) / n


CARDS = (("a Sabotage card: 3 SPARK at the next round start", "sabotage", 0,
          dict(kind="donation", when="round_start", amount=3)),
         ("an Upgrade: a 2 SPARK fine at each round start", "upgrade", 0,
          dict(kind="fine", when="round_start", amount=2)),
         ("an Upgrade: Reputation +1 at each round start", "upgrade", 1,
          dict(kind="reputation", when="round_start", amount=1)),
         ("an Upgrade: the black die set at its holder's NPC turns", "upgrade", 0,
          dict(kind="roll", when="next_npc_turn", die="black", face="blue_arrow")))


def paired(name: str, old: list[bool], new: list[bool], t_old: float, t_new: float, labels=("suggestions", "rollout")):
    n = len(old)
    diffs = [b - a for a, b in zip(old, new)]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    (lo_a, hi_a), (lo_b, hi_b) = wilson(sum(old), n), wilson(sum(new), n)
    print(f"{name:<32} {labels[0]} {sum(old) / n:6.1%} [{lo_a:6.1%}, {hi_a:6.1%}] {t_old * 1000:5.1f} ms/game | "
          f"{labels[1]} {sum(new) / n:6.1%} [{lo_b:6.1%}, {hi_b:6.1%}] {t_new * 1000:5.1f} ms/game | "
          f"difference {mean:+6.1%} [{mean - half:+6.1%}, {mean + half:+6.1%}], same ending in "
          f"{sum(a == b for a, b in zip(old, new))} of {n}", flush=True)


def card_games(g: GameRules, s, n: int, quick: bool, seed: int = 0) -> tuple[list[bool], float, object]:
    from solvers.robotariat import card_effects as ce

    e = g.effects
    f = Forecaster(g, s, ce.EffectPolicy(g, e), seed=seed, max_runs=n,
                   rollout=ce.EffectRollout(g, e) if quick else None)
    f.exact_tried = True
    c0 = time.process_time()
    f.run(None, until_runs=n)
    return [k == "success" for k, _, _ in f.games], (time.process_time() - c0) / n, f


def other_turns(g: GameRules, s) -> tuple[int, int, int]:
    """(turns, turns where EffectRollout and EffectPolicy pick another table, turns before an NPC turn a card acts
    at, where EffectRollout does not take the estimate's best: the exact choice, or where the card only sets a die
    the shortlist scored exactly on it) over the turns of the rollout's first 30 games from `s`."""
    import random

    from solvers.robotariat import card_effects as ce
    from solvers.robotariat.forecast import _Game, _sample_game

    quick, exact = ce.EffectRollout(g, g.effects), ce.EffectPolicy(g, g.effects)
    seen: list = []
    choose = quick.choose
    quick.choose = lambda st: seen.append(st) or choose(st)
    play = _Game(g, quick, keep=False)
    for k in range(30):
        _sample_game(g, play, s, random.Random(f"0:{k}"), False)
    quick.choose = choose
    other = sum(quick.choose(st) != exact.choose(st) for st in seen)
    to_exact = sum(quick.sees_past_estimate(g.effects.at_turn_start(g.board, g.rules, st)) for st in seen)
    return len(seen), other, to_exact


def cards_main(n: int, seed: int = 0) -> None:
    from solvers.robotariat import card_effects as ce

    board = DEFAULTS.board
    g0 = GameRules(board=board, rules=DEFAULTS.rules(3), dice=DEFAULTS.dice, weights=DEFAULTS.weights,
                   entry_track=DEFAULTS.entry_track)
    print(f"Forecast with a card in play: the cards' suggestions (EffectPolicy) vs EffectRollout, {n} paired games "
          f"per position, seed {seed}")
    turns = others = exact = turns0 = others0 = 0
    for (name, s), (card, deck, seat, effect) in zip(positions(board), CARDS):
        e = ce.Effects.of([ce.InPlay(seat=seat, deck=deck, name="card", effect=ce.Effect(**effect),
                                     once=deck == "sabotage")], s)
        g = replace(g0, effects=e)
        old, t_old, _ = card_games(g, s, n, False, seed)
        new, t_new, _ = card_games(g, s, n, True, seed)
        print(f"{name}, {card}")
        paired("", old, new, t_old, t_new, ("EffectPolicy", "EffectRollout"))
        t, o, x = other_turns(g, s)
        t0, o0, _ = other_turns(replace(g0, effects=ce.Effects((), ())), s)  # the same position without the card
        turns, others, exact, turns0, others0 = turns + t, others + o, exact + x, turns0 + t0, others0 + o0
        print(f"{'':<32} another turn than EffectPolicy in {o} of {t} turns ({x} before an NPC turn a card acts at); "
              f"without the card {o0} of {t0}", flush=True)
    print(f"all four: another turn in {others} of {turns} turns ({others / max(1, turns):.1%}); {exact} before an "
          f"NPC turn a card acts at; without the cards {others0} of {turns0} ({others0 / max(1, turns0):.1%})")


def die_card_main(n: int, seed: int = 0) -> None:
    """`die-card`: the four positions, each with the black die set at its holder's NPC turns, played by
    EffectRollout twice: with the exact turn at those NPC turns (ROLL_SHORTLIST = 0) and with the estimate's
    ROLL_SHORTLIST best turns scored exactly on the set die (the forecast's), paired game by game."""
    from solvers.robotariat import card_effects as ce

    board = DEFAULTS.board
    g0 = GameRules(board=board, rules=DEFAULTS.rules(3), dice=DEFAULTS.dice, weights=DEFAULTS.weights,
                   entry_track=DEFAULTS.entry_track)
    _, deck, seat, effect = next(c for c in CARDS if c[3]["kind"] == "roll")
    shortlist = ce.ROLL_SHORTLIST
    print(f"A card setting the black die: the exact turn vs a shortlist of {shortlist} at its NPC turns, {n} paired "
          f"games per position, seed {seed}")
    try:
        for name, s in positions(board):
            e = ce.Effects.of([ce.InPlay(seat=seat, deck=deck, name="card", effect=ce.Effect(**effect),
                                         once=deck == "sabotage")], s)
            g = replace(g0, effects=e)
            ce.ROLL_SHORTLIST = 0
            old, t_old, _ = card_games(g, s, n, True, seed)
            ce.ROLL_SHORTLIST = shortlist
            new, t_new, _ = card_games(g, s, n, True, seed)
            paired(name, old, new, t_old, t_new, ("exact turn", f"shortlist {shortlist}"))
    finally:
        ce.ROLL_SHORTLIST = shortlist


def main() -> None:
    if sys.argv[1:2] == ["die-card"]:
        die_card_main(int(sys.argv[2]) if len(sys.argv) > 2 else 2000, int(sys.argv[3]) if len(sys.argv) > 3 else 0)
        return
    if sys.argv[1:2] == ["cards"]:
        cards_main(int(sys.argv[2]) if len(sys.argv) > 2 else 400, int(sys.argv[3]) if len(sys.argv) > 3 else 0)
        return
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    board = DEFAULTS.board
    g = GameRules(board=board, rules=DEFAULTS.rules(3), dice=DEFAULTS.dice, weights=DEFAULTS.weights,
                  entry_track=DEFAULTS.entry_track)
    print(f"Forecast with the suggestions' turns vs the rollout policy's, {n} paired games per position, seed 0")
    for name, s in positions(board):
        old, t_old = games(g, s, n, False)
        new, t_new = games(g, s, n, True)
        paired(name, old, new, t_old, t_new)


if __name__ == "__main__":
    main()
