"""Benchmark: does the forecast's rollout policy (solvers/robotariat/rollout.py) change the forecast's
answer? (issue 25: a cheaper rollout must stand for the suggestions it replaces.)

Run from the project root:  .venv/bin/python bench/bench_robotariat_rollout.py [games]
For a few positions on the example board (three players: two new games, a round-3 and a round-5 table),
plays `games` games (default 400) twice with the same seed: each player taking the suggestions' best
turn (the forecast before the rollout policy: the same games, roll for roll) and taking the rollout
policy's turn. Game k uses the same random stream in both, so the difference in success is paired game
by game. Prints each success rate with its 95 % Wilson interval, the paired difference with its 95 %
interval, how many games ended the same way, and the CPU time per game.
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


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    board = DEFAULTS.board
    g = GameRules(board=board, rules=DEFAULTS.rules(3), dice=DEFAULTS.dice, weights=DEFAULTS.weights,
                  entry_track=DEFAULTS.entry_track)
    print(f"Forecast with the suggestions' turns vs the rollout policy's, {n} paired games per position, seed 0")
    for name, s in positions(board):
        old, t_old = games(g, s, n, False)
        new, t_new = games(g, s, n, True)
        diffs = [b - a for a, b in zip(old, new)]
        mean = sum(diffs) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
        half = Z95 * sd / math.sqrt(n)
        (lo_a, hi_a), (lo_b, hi_b) = wilson(sum(old), n), wilson(sum(new), n)
        print(f"{name:<32} suggestions {sum(old) / n:6.1%} [{lo_a:6.1%}, {hi_a:6.1%}] {t_old * 1000:5.1f} ms/game | "
              f"rollout {sum(new) / n:6.1%} [{lo_b:6.1%}, {hi_b:6.1%}] {t_new * 1000:5.1f} ms/game | "
              f"difference {mean:+6.1%} [{mean - half:+6.1%}, {mean + half:+6.1%}], same ending in "
              f"{sum(a == b for a, b in zip(old, new))} of {n}", flush=True)


if __name__ == "__main__":
    main()
