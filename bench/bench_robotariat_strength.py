"""Benchmark: how often the Revolution succeeds when the table follows each policy (issue: "how strong is
the advice?").

Run from the project root:  .venv/bin/python bench/bench_robotariat_strength.py [games] [players]
Plays `games` whole games (default 200) from the set-up position (rulebook "Set Up": every character on
its start space, the Entry token on Move the Masses, starting Reputation, round 1's NPC to enter) with
(a) the suggestions' best turn, (b) a uniformly random turn among the same options, (c) the greedy turn
(most SPARK expected after its NPC turn), on the example board and on random valid boards (a new board
per game, the same boards for every policy). Characters are drawn at random per game, the same for
every policy. Prints each policy's success rate with its 95 % Wilson interval, how the games ended, and
the CPU time per game.

Comparing two versions of the code game by game: TABLEBOT_ROOT=<checkout> measures that checkout's code
(the "before"), TABLEBOT_STRENGTH_DUMP=<file.json> keeps every game's ending per row, and
`bench_robotariat_strength.py compare before.json after.json` prints the paired difference of each row
the two files share (the same tables and dice, so game k is the same game in both).
"""
from __future__ import annotations

import json
import math
import os
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

# TABLEBOT_ROOT: measure another checkout's code with this script (the "before" of a change)
sys.path.insert(0, os.environ.get("TABLEBOT_ROOT") or str(Path(__file__).resolve().parent.parent))

from solvers.robotariat.board import KINDS, Board
from solvers.robotariat.forecast import _Game, _sample_game, wilson
from solvers.robotariat.game import GameRules
from solvers.robotariat.gamedata import DEFAULTS
from solvers.robotariat.model import CHARACTERS, TableState
from solvers.robotariat.policies import GreedyPolicy, RandomPolicy, SuggestionPolicy
from solvers.robotariat.random_boards import random_board
from solvers.robotariat.rollout import RolloutPolicy


def ring_board(rng: random.Random) -> Board:
    """A valid board: 8-14 spaces of every kind, a ring of black lines plus a few chords, and for every
    space a yellow and a blue next space along its black lines, mostly along the ring."""
    n = rng.randint(8, 14)
    kinds = list(KINDS) + [rng.choice(KINDS) for _ in range(n - len(KINDS))]
    rng.shuffle(kinds)
    return random_board(rng, kinds, chords=rng.randint(1, n // 3), along_ring=0.8)


def setup(board: Board, players: int, characters: tuple) -> TableState:
    starts = tuple(board.start_space(DEFAULTS.character_starts[c]) if c else 0 for c in characters)
    entry = board.start_space("move_the_masses")
    return TableState(oppressors=(), civilians=(), players=tuple(x if x is not None else 0 for x in starts),
                      characters=characters, posters=(0,) * board.n, junk=0, funds=0,
                      reputation=DEFAULTS.starting_reputation[players], office=0,
                      entry=entry if entry is not None else 0, active=0, round=1)


POLICIES = ("suggestions", "rollout", "rollout (exact within 20)", "this turn only", "greedy", "random")
# the forecast's rollout policy stands for the suggestions: their paired difference (and the rollout's against its
# earlier way of scoring near the end)
PAIRS = (("suggestions", "rollout"), ("rollout (exact within 20)", "rollout"))


def play(policy_name: str, g: GameRules, s: TableState, seed: int) -> tuple[str, int, int]:
    rng = random.Random(seed)
    if policy_name == "this turn only":  # the suggestions before they looked past the coming NPC turn
        g = replace(g, look_past=False)
    policy = {"suggestions": lambda: SuggestionPolicy(g), "rollout": lambda: RolloutPolicy(g),
              # the rollout scoring its 3 best exactly whenever the funds are within 20 SPARK of the target (or
              # Reputation at 2 or less), as it did before it asked whether the NPC turn can end the game
              "rollout (exact within 20)": lambda: RolloutPolicy(g, near_end=20),
              "this turn only": lambda: SuggestionPolicy(g),
              "random": lambda: RandomPolicy(g, rng), "greedy": lambda: GreedyPolicy(g)}[policy_name]()
    return _sample_game(g, _Game(g, policy), s, random.Random(f"dice:{seed}"), False)


def paired(a: list[bool], b: list[bool]) -> tuple[float, float]:
    """The mean of b - a game by game and the half width of its 95 % interval."""
    n = len(a)
    diffs = [y - x for x, y in zip(a, b)]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    return mean, 1.959963984540054 * sd / math.sqrt(n)


def compare(before: str, after: str) -> None:
    with open(before) as f:
        old = json.load(f)
    with open(after) as f:
        new = json.load(f)
    for key in old:
        if key in new and len(new[key]) == len(old[key]):
            a, b = old[key], new[key]
            n = len(a)
            mean, half = paired(a, b)
            (lo_a, hi_a), (lo_b, hi_b) = wilson(sum(a), n), wilson(sum(b), n)
            print(f"{key.replace('|', '  '):<50} before {sum(a) / n:6.1%} [{lo_a:6.1%}, {hi_a:6.1%}]  after "
                  f"{sum(b) / n:6.1%} [{lo_b:6.1%}, {hi_b:6.1%}]  after - before {mean:+6.1%} "
                  f"[{mean - half:+6.1%}, {mean + half:+6.1%}]  (same ending in {sum(x == y for x, y in zip(a, b))} of {n})")


def main() -> None:
    if sys.argv[1:2] == ["compare"]:
        compare(sys.argv[2], sys.argv[3])
        return
    dump = os.environ.get("TABLEBOT_STRENGTH_DUMP")
    kept: dict[str, list[bool]] = {}
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    names = sys.argv[3].split(",") if len(sys.argv) > 3 else list(POLICIES)
    rules = DEFAULTS.rules(players)
    print(f"Robotariat strength: {games} games per row, {players} players, target {rules.target} SPARK, "
          f"Reputation {DEFAULTS.starting_reputation[players]}, unverified default dice and Office Rewards")
    # "tuned": the tables the look-past term was developed on; "held out": tables drawn after that, never
    # looked at while changing the advice
    for part, table_seed in (("tuned", 11), ("held out", 2027)):
        for label in ("example board", "random boards"):
            rng = random.Random(table_seed)
            tables = []
            for _ in range(games):
                board = DEFAULTS.board if label == "example board" else ring_board(rng)
                chars = tuple(rng.sample(list(CHARACTERS) + [None] * players, players))
                chars = tuple(c if c not in chars[:i] else None for i, c in enumerate(chars))
                tables.append((board, chars, rng.randrange(2**31)))
            won: dict[str, list[int]] = {}
            for name in names:
                t0 = time.process_time()
                ends = {"success": 0, "reputation": 0, "time": 0}
                won[name] = []
                for board, chars, seed in tables:
                    g = GameRules(board=board, rules=rules, dice=DEFAULTS.dice, weights=DEFAULTS.weights,
                                  entry_track=DEFAULTS.entry_track)
                    kind, _, _ = play(name, g, setup(board, players, chars), seed)
                    ends[kind] += 1
                    won[name].append(kind == "success")
                lo, hi = wilson(ends["success"], games)
                cpu = (time.process_time() - t0) / games
                kept[f"{part}|{label}|{name}"] = won[name]
                print(f"{part:<9} {label:<14} {name:<15} success {ends['success'] / games:6.1%}  "
                      f"95% [{lo:6.1%}, {hi:6.1%}]  fail: Reputation {ends['reputation']:4d}, after round 6 "
                      f"{ends['time']:4d}  cpu {cpu * 1000:7.1f} ms/game", flush=True)
            for a, b in PAIRS:
                if a in won and b in won:  # the same tables and dice seeds: the difference game by game
                    mean, half = paired(won[a], won[b])
                    same = sum(x == y for x, y in zip(won[a], won[b]))
                    print(f"{part:<9} {label:<14} {b} - {a}: {mean:+6.1%}  95% [{mean - half:+6.1%}, "
                          f"{mean + half:+6.1%}]  (same ending in {same} of {games} games)", flush=True)
    if dump:
        with open(dump, "w") as f:
            json.dump(kept, f)


if __name__ == "__main__":
    main()
