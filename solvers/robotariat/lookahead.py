"""Where the NPCs can be in the next k NPC turns: a Markov chain on the path graph (rulebook "NPC Turn").

Each NPC turn the black die moves all oppressors together (yellow arrow, blue arrow, or an X: no
move), and the red die all civilians together, so each group is one chain on the tuple of its
positions; the two groups are independent. The Entry token moves on X faces (black die first).
Exact: whole-number weights over 6**t.

Scope (stated in the readings): the dice are rolled every turn (Alice Smith's choices and MT-ρ's
re-rolls are not modelled here), no NPC enters, and Move the Masses is not used.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from solvers.exact import exact

from .board import Board
from .model import Dice, TableState, face_colour, is_arrow

MAX_TURNS = 12


def _group_moves(board: Board, dice: Dice, die: str) -> list[tuple[tuple[int, ...] | None, int]]:
    """(path or None for no move, how many faces) for one die."""
    counts = dice.counts(die)
    moves: dict[str, int] = {}
    for face, c in counts.items():
        key = face_colour(face) if is_arrow(face) else "stay"
        moves[key] = moves.get(key, 0) + c
    return [(board.path(k) if k != "stay" else None, c) for k, c in moves.items()]


@dataclass(frozen=True)
class GroupChain:
    """One group's (oppressors' or civilians') k-turn chain."""
    present: tuple[tuple[Fraction, ...], ...]  # present[t][s]: P(at least one of them on s after t+1 turns)
    expected: tuple[tuple[Fraction, ...], ...]  # expected[t][s]: expected number of them on s after t+1 turns
    reach: tuple[Fraction, ...]  # P(one of them moves onto s at some turn 1..k)
    each: tuple[tuple[Fraction, ...], ...]  # each[i][s]: where NPC i is after k turns


def group_chain(board: Board, dice: Dice, die: str, start: tuple[int, ...], turns: int) -> GroupChain:
    n = board.n
    moves = _group_moves(board, dice, die)
    # state: (positions, bitmask of spaces landed on so far) -> weight over 6**t
    dist: dict[tuple[tuple[int, ...], int], int] = {(start, 0): 1}
    present, expected = [], []
    for t in range(1, turns + 1):
        new: dict[tuple[tuple[int, ...], int], int] = {}
        for (pos, mask), m in dist.items():
            for path, c in moves:
                if path is None:
                    key = (pos, mask)
                else:
                    moved = tuple(path[p] for p in pos)
                    hit = mask
                    for p in moved:
                        hit |= 1 << p
                    key = (moved, hit)
                new[key] = new.get(key, 0) + m * c
        dist = new
        denom = 6 ** t
        on = [0] * n
        count = [0] * n
        for (pos, _), m in dist.items():
            for s in set(pos):
                on[s] += m
            for p in pos:
                count[p] += m
        present.append(tuple(Fraction(x, denom) for x in on))
        expected.append(tuple(Fraction(x, denom) for x in count))
    denom = 6 ** turns
    reach = [0] * n
    each = [[0] * n for _ in start]
    for (pos, mask), m in dist.items():
        for s in range(n):
            if mask >> s & 1:
                reach[s] += m
        for i, p in enumerate(pos):
            each[i][p] += m
    return GroupChain(tuple(present), tuple(expected), tuple(Fraction(x, denom) for x in reach),
                      tuple(tuple(Fraction(x, denom) for x in row) for row in each))


def entry_chain(board: Board, dice: Dice, entry: int, turns: int) -> tuple[tuple[Fraction, ...], ...]:
    """P(Entry token on each space) after each of the k turns."""
    steps = []
    for die in ("black", "red"):
        step: dict[str, int] = {}
        for face, c in dice.counts(die).items():
            key = "stay" if is_arrow(face) else face_colour(face)
            step[key] = step.get(key, 0) + c
        steps.append(step)
    dist = {entry: 1}
    out = []
    for t in range(1, turns + 1):
        for step in steps:
            new: dict[int, int] = {}
            for s, m in dist.items():
                for key, c in step.items():
                    there = s if key == "stay" else board.path(key)[s]
                    new[there] = new.get(there, 0) + m * c
            dist = new
        denom = 36 ** t
        out.append(tuple(Fraction(dist.get(s, 0), denom) for s in range(board.n)))
    return tuple(out)


@dataclass(frozen=True)
class Lookahead:
    turns: int
    oppressors: GroupChain
    civilians: GroupChain
    entry: tuple[tuple[Fraction, ...], ...]
    start: TableState

    def as_json(self, board: Board) -> dict:
        ids, k = board.ids, self.turns - 1
        spaces = {}
        for s, sid in enumerate(ids):
            spaces[sid] = {"oppressor_reach": exact(self.oppressors.reach[s]),
                           "civilian_reach": exact(self.civilians.reach[s]),
                           "oppressor_present": exact(self.oppressors.present[k][s]),
                           "civilian_present": exact(self.civilians.present[k][s]),
                           "oppressors_expected": exact(self.oppressors.expected[k][s]),
                           "civilians_expected": exact(self.civilians.expected[k][s]),
                           "entry": exact(self.entry[k][s])}

        def nonzero(row: tuple[Fraction, ...]) -> dict:
            return {ids[s]: exact(p) for s, p in enumerate(row) if p}

        steps = [{"turn": t + 1, "oppressor_present": nonzero(self.oppressors.present[t]),
                  "civilian_present": nonzero(self.civilians.present[t]), "entry": nonzero(self.entry[t])}
                 for t in range(self.turns)]
        npcs = ([{"npc": "oppressor", "index": i, "from": ids[x], "at": nonzero(self.oppressors.each[i])}
                 for i, x in enumerate(self.start.oppressors)]
                + [{"npc": "civilian", "index": i, "from": ids[x], "at": nonzero(self.civilians.each[i])}
                   for i, x in enumerate(self.start.civilians)])
        return {"turns": self.turns, "spaces": spaces, "steps": steps, "npcs": npcs,
                "heat": {sid: round(float(self.oppressors.reach[s]), 4) for s, sid in enumerate(ids)}}


def lookahead(board: Board, dice: Dice, s: TableState, turns: int) -> Lookahead:
    if not 1 <= turns <= MAX_TURNS:
        raise ValueError(f"turns must be 1..{MAX_TURNS}")
    return Lookahead(turns, group_chain(board, dice, "black", s.oppressors, turns),
                     group_chain(board, dice, "red", s.civilians, turns), entry_chain(board, dice, s.entry, turns), s)
