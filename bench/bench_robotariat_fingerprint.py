"""Fingerprint of the forecast's rollout decisions (issue 25): a speed change to solvers/robotariat/rollout.py
or forecast.py must leave every choice and every sampled game the same.

Run from the project root:  .venv/bin/python bench/bench_robotariat_fingerprint.py [games]
Plays `games` games (default 30) from each of the early-forecast bench's 12 new games (bench_robotariat.py
early_forecast) and bench_robotariat_rollout.py's four positions, with seeds 1 and 7, sampling only, and
prints how many decisions RolloutPolicy.choose made and one SHA-256 over every (table, choice) in order and
every game's ending. A second line does the same for 4- and 5-player tables (`games` // 3 games from each
of 40 random mid-game tables, as the page's first view builds them through the game-forecast API: random
NPCs, posters, tracks and characters, rounds 1 to 5). Compare the lines printed by the old code
(TABLEBOT_ROOT=<old checkout>) and the new.
"""
from __future__ import annotations

import hashlib
import os
import random
import sys
from pathlib import Path

# TABLEBOT_ROOT: fingerprint another checkout's code with this script (the "before" of a change)
sys.path.insert(0, os.environ.get("TABLEBOT_ROOT") or str(Path(__file__).resolve().parent.parent))
sys.path.insert(1, str(Path(__file__).resolve().parent))

from bench_robotariat_strength import setup

from solvers.robotariat.forecast import Forecaster
from solvers.robotariat.game import GameRules
from solvers.robotariat.gamedata import DEFAULTS
from solvers.robotariat.model import CHARACTERS
from solvers.robotariat.rollout import RolloutPolicy


def starts(board) -> list:
    import bench_robotariat_rollout  # here: it puts its own checkout first on sys.path (after ours is loaded)

    rng = random.Random(25)  # bench_robotariat.early_forecast's positions
    out = []
    for _ in range(12):
        chars = tuple(rng.sample(list(CHARACTERS) + [None] * 3, 3))
        chars = tuple(c if c not in chars[:i] else None for i, c in enumerate(chars))
        out.append(setup(board, 3, chars))
    return out + [s for _, s in bench_robotariat_rollout.positions(board)]


def larger_tables() -> list[dict]:
    """40 game-forecast bodies of 4 and 5 players (random tables of bench_robotariat.scenario cut to the
    round: at most 8 SPARK a round, as many NPCs as have entered)."""
    import bench_robotariat as br

    from solvers.robotariat.report import state_json

    out = []
    for seed in (77, 91):  # 77: the tables the speed work profiled; 91: others
        rng = random.Random(seed)
        for k in range(30):
            players, rnd = (3, 4, 5)[k % 3], 1 + (k // 3) % 5
            st = state_json(br.BOARD, br.scenario(rng, rng.choice(CHARACTERS)))
            if players == 3:  # (drawn all the same, so that the 4- and 5-player tables are the script's)
                continue
            st.pop("ended")
            st["players"], st["round"], st["funds"] = st["players"][:players], rnd, min(st["funds"], 8 * rnd)
            st["oppressors"], st["civilians"] = st["oppressors"][:min(3, rnd)], st["civilians"][:min(3, rnd)]
            out.append({"players": players, "state": st, "seed": k})
    return out


def larger(games: int, digest) -> int:
    """Plays `games` games from each of larger_tables() (the ones the API accepts), sampling only; how
    many were played from."""
    from assistant.robotariat import api

    played = 0
    for body in larger_tables():
        try:
            req = api.parse(api.GameForecastIn, body)
            f = api._forecaster(req, api.context(req))[0]
        except Exception:  # a table the API turns down (the game over)
            continue
        f.exact_tried = True
        f.run(None, until_runs=games)
        digest.update(repr(f.games).encode())
        played += 1
    return played


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    board = DEFAULTS.board
    game = GameRules(board=board, rules=DEFAULTS.rules(3), dice=DEFAULTS.dice, weights=DEFAULTS.weights,
                     entry_track=DEFAULTS.entry_track)
    digest, count = hashlib.sha256(), [0]
    plain = RolloutPolicy.choose

    def choose(self, s):
        after = plain(self, s)
        digest.update(repr((s, after)).encode())
        count[0] += 1
        return after

    RolloutPolicy.choose = choose
    for seed in (1, 7):
        for s in starts(board):
            f = Forecaster(game, s, RolloutPolicy(game), seed=seed)
            f.exact_tried = True  # sampling only, as a new position's first views do
            f.run(None, until_runs=games)
            digest.update(repr(f.games).encode())
    print(f"{count[0]} decisions, {games} games x 16 positions x 2 seeds: {digest.hexdigest()}")
    digest, count[0] = hashlib.sha256(), 0
    tables = larger(games // 3, digest)
    print(f"4-5 players: {count[0]} decisions, {games // 3} games x {tables} tables: {digest.hexdigest()}")


if __name__ == "__main__":
    main()
