"""Benchmark: the Two Robots turn planner with a hand of 10 (target: under 50 ms in-process).

Run from the project root:  .venv/bin/python bench/bench_two_robots.py
Mid-game factories (8 parts placed at random, legally) and hands of 10 drawn from the default deck;
each scenario is planned once (a fresh planner each time, as a request would). Prints p50/p95 over
the scenarios for each Event choice, for hands of 10 part cards only (the worst case), for the
15-card API limit, and for the plan endpoint through Flask's test client.
"""
from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solvers.two_robots.cards import HandCard
from solvers.two_robots.factory import Factory, placements
from solvers.two_robots.game_data import DATA
from solvers.two_robots.odds import Deck, Sighting, unseen_pool
from solvers.two_robots.planner import Turn, plan_turn

SCENARIOS = 120
PN = DATA.part_ids


def deck_cards() -> list[HandCard]:
    cards = [HandCard("part", p) for p, n in DATA.default_deck(PN) for _ in range(n)]
    cards += [HandCard("attack", None, f"Attack {i}", 1 + i % 4, play=i % 3 == 0) for i in range(DATA.deck_attack)]
    cards += [HandCard("defense", None, f"Defense {i}", 1 + i % 3) for i in range(DATA.deck_defense)]
    return cards


def scenario(rng: random.Random, hand_size: int, parts_only: bool, event: str) -> Turn:
    deck = deck_cards()
    rng.shuffle(deck)
    f = Factory(())
    placed = 0
    while placed < 8:
        card = deck.pop()
        if card.part is None:
            continue
        options = placements(f, card.part, PN)
        if options:
            grow = [p for p in options if p.stack is not None and not p.duplicate]
            choice = rng.choice(grow) if grow and rng.random() < 0.7 else rng.choice(options)
            f = f.add(card.part, choice.stack)
            placed += 1
    pool = [c for c in deck if c.part is not None] if parts_only else deck
    hand = tuple(pool[:hand_size])
    deck = Deck(parts=tuple(DATA.default_deck(PN)), attack=DATA.deck_attack, defense=DATA.deck_defense)
    sights = [Sighting(place="your_factory", parts=tuple(c for s in f.stacks for c in s.cards)),
              Sighting(place="your_hand", parts=tuple(c.part for c in hand if c.part is not None),
                       attack=sum(c.kind == "attack" for c in hand), defense=sum(c.kind == "defense" for c in hand))]
    return Turn(f, hand, PN, unseen_pool(deck, sights).cards, event=event)


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    samples = sorted(samples)
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))], samples[-1]


def timed(turns: list[Turn]) -> tuple[tuple[float, float, float], tuple[float, float, float], int]:
    """Wall-clock and CPU milliseconds per plan (CPU time is steadier on a shared machine)."""
    wall, cpu, explored = [], [], []
    for t in turns:
        w0, c0 = time.perf_counter(), time.process_time()
        plan = plan_turn(t)
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
        explored.append(plan.explored)
    return percentiles(wall), percentiles(cpu), int(statistics.median(explored))


def main() -> None:
    print(f"Two Robots planner, {SCENARIOS} scenarios each (ms; end states = median distinct plays explored)")
    for label, size, parts_only in (("hand of 10", 10, False), ("hand of 10, all parts", 10, True),
                                    ("hand of 15, all parts", 15, True)):
        for event in ("none", "power", "active_robot"):
            rng = random.Random(2024)
            turns = [scenario(rng, size, parts_only, event) for _ in range(SCENARIOS)]
            (p50, p95, worst), (c50, c95, _), states = timed(turns)
            print(f"  {label:<22} event={event:<12} wall p50 {p50:6.1f} p95 {p95:6.1f} max {worst:6.1f} | "
                  f"cpu p50 {c50:6.1f} p95 {c95:6.1f}  ({states} end states)")

    from solvers.two_robots.as_json import hand_card_json, part_json

    from assistant import create_app

    tmp = tempfile.mkdtemp()
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3"})
    client = app.test_client()
    rng = random.Random(99)
    bodies = []
    for _ in range(60):
        t = scenario(rng, 10, False, "power")
        bodies.append({"stacks": [{"cards": [part_json(c) for c in s.cards]} for s in t.factory.stacks],
                       "hand": [hand_card_json(c) for c in t.hand], "event": "power"})
    samples = []
    for body in bodies:
        t0 = time.perf_counter()
        r = client.post("/api/two-robots/plan", json=body)
        samples.append((time.perf_counter() - t0) * 1000)
        assert r.status_code == 200, r.get_json()
    samples.sort()
    print(f"  POST /api/two-robots/plan (hand of 10, power)  p50 {statistics.median(samples):6.1f}  "
          f"p95 {samples[int(0.95 * (len(samples) - 1))]:6.1f}")


if __name__ == "__main__":
    main()
