"""Friendship deck odds speed: how long a phone's odds take (the belief replayed from the log, then every
card's chance and a three-card set), from a fresh deck to a six-seat game that has drawn everything it may
(each seat twice, the cap; the deck reshuffled on the way), for a seat's own view and for the table's.

Run: .venv/bin/python bench/bench_friendship.py
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's code, not an installed copy

from solvers.raising_robots import friendship as fr  # noqa: E402


def game(seed: int, seats: int = 6) -> list[tuple[fr.Deck, dict[int, fr.Seen]]]:
    """One game's decks after each action: every seat draws 3 and keeps 1 until it holds 2 (the cards come
    from a shuffled true deck; a reshuffle when it runs out)."""
    rng = random.Random(seed)
    deck = fr.Deck.of(fr.build(fr.DEFAULT_CARDS, [], pets=True))
    true = list(deck.cards)
    rng.shuffle(true)
    discard: list[str] = []
    seen = {s: fr.Seen() for s in range(seats)}
    out = [(deck, dict(seen))]
    for _ in range(2):
        for s in range(seats):
            plan = deck.plan_draw(3)
            got, true = true[:plan.from_deck], true[plan.from_deck:]
            if plan.reshuffled:
                rng.shuffle(discard)
                true, discard = discard, []
                got, true = got + true[:plan.after_reshuffle], true[plan.after_reshuffle:]
            deck, seen[s] = fr.draw(deck, s, 3, got, seen[s])
            kept = rng.choice(got)
            deck, seen[s] = fr.keep(deck, s, kept, seen[s])
            discard += [c for c in got if c != kept]
            out.append((deck, dict(seen)))
    return out


def main() -> None:
    times: dict[str, list[float]] = {"own seat": [], "whole table": []}
    reshuffled = 0
    for seed in range(5):
        for deck, seen in game(seed):
            reshuffled += deck.reshuffles > 0
            chosen = list(deck.cards[:3])
            t = time.perf_counter()
            fr.odds(deck, 3, chosen, viewer=0, seen=seen[0])
            times["own seat"].append(time.perf_counter() - t)
            t = time.perf_counter()
            fr.odds(deck, 3, chosen)
            times["whole table"].append(time.perf_counter() - t)
    print(f"decks measured: {len(times['own seat'])} (after a reshuffle: {reshuffled})")
    for name, ts in times.items():
        ts.sort()
        print(f"{name:12s} p50 {statistics.median(ts) * 1000:7.2f} ms   p95 {ts[int(len(ts) * .95)] * 1000:7.2f} ms"
              f"   max {ts[-1] * 1000:7.2f} ms")


if __name__ == "__main__":
    main()
