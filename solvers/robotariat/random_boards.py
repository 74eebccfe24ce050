"""Random valid boards for property tests and benches: the printed board is unknown (gamedata: unverified), so
the solvers are checked on many boards of every shape the board editor accepts."""
from __future__ import annotations

import random

from .board import Board


def random_board(rng: random.Random, kinds: list[str], *, chords: int = 0, links: int = 0,
                 along_ring: float | None = None) -> Board:
    """A board with spaces s0, s1, ... of these kinds: a ring of black lines, then `chords` random chords drawn
    (a repeat adds nothing) and more until there are `links` lines. Each space's yellow and blue next space is
    one of its neighbours at random; with `along_ring`, that part of them runs along the ring instead, yellow
    one way and blue the other, as a printed board's paths would."""
    n = len(kinds)
    ids = [f"s{i}" for i in range(n)]
    lines = {tuple(sorted((ids[i], ids[(i + 1) % n]))) for i in range(n)}
    for _ in range(chords):
        a, b = rng.sample(ids, 2)
        lines.add(tuple(sorted((a, b))))
    while len(lines) < links:
        a, b = rng.sample(ids, 2)
        lines.add(tuple(sorted((a, b))))
    nbrs = {i: sorted({b for a, b in lines if a == i} | {a for a, b in lines if b == i}) for i in ids}
    if along_ring is None:
        yellow = {i: rng.choice(nbrs[i]) for i in ids}
        blue = {i: rng.choice(nbrs[i]) for i in ids}
    else:
        yellow = {ids[i]: ids[(i + 1) % n] if rng.random() < along_ring else rng.choice(nbrs[ids[i]])
                  for i in range(n)}
        blue = {ids[i]: ids[(i - 1) % n] if rng.random() < along_ring else rng.choice(nbrs[ids[i]])
                for i in range(n)}
    return Board.from_json({"spaces": [{"id": i, "kind": k} for i, k in zip(ids, kinds)],
                            "links": [list(x) for x in sorted(lines)], "yellow_next": yellow, "blue_next": blue})
