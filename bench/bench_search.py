"""Benchmark: Search odds on a 90-card pool (target: `best` under 20 ms in-process).

Run from the project root:  .venv/bin/python bench/bench_search.py
Prints p50/p95 of: best_criteria (all 84 criteria), one search_odds, and the two JSON endpoints
through Flask's test client (validation + solver + JSON)."""
from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solvers.raising_robots.search_odds import (
    CARD_ROWS,
    Card,
    CardGroup,
    Criteria,
    Deck,
    best_criteria,
    search_odds,
)

RUNS = 300


def ninety_card_deck(seed: int = 7) -> Deck:
    """90 unseen cards spread over all 28 cells, 60 of them in the deck, 6 known at the bottom."""
    rng = random.Random(seed)
    counts = {(row, e): 0 for row in CARD_ROWS for e in range(1, 8)}
    for _ in range(90):
        counts[rng.choice(list(counts))] += 1
    wanted = {("design", 5), ("any", 6), ("recycle", 2)}
    pool = tuple(CardGroup(row, e, n, wanted=(row, e) in wanted) for (row, e), n in counts.items())
    known = tuple(Card(rng.choice(CARD_ROWS), rng.randint(1, 7)) for _ in range(6))
    return Deck(pool, 60, known)


def timed(fn, runs: int = RUNS) -> tuple[float, float]:
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))]


def report(name: str, p50: float, p95: float) -> None:
    print(f"{name:<44} p50 {p50:7.3f} ms   p95 {p95:7.3f} ms")


def main() -> None:
    deck = ninety_card_deck()
    criteria = Criteria("design", 4, 6)
    best_criteria(deck)  # warm up
    report("best_criteria (84 criteria, 90-card pool)", *timed(lambda: best_criteria(deck)))
    report("search_odds (one criteria, 90-card pool)", *timed(lambda: search_odds(deck, criteria)))

    from assistant import create_app

    tmp = tempfile.mkdtemp()
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3"})
    client = app.test_client()
    body = {"pool": [{"row": g.row, "energy": g.energy, "count": g.count, "wanted": g.wanted} for g in deck.pool],
            "deck_size": deck.deck_size,
            "known_bottom": [{"row": c.row, "energy": c.energy} for c in deck.known_bottom]}
    odds_body = {**body, "criteria": criteria.as_dict()}
    assert client.post("/api/raising-robots/search/best", json=body).status_code == 200
    report("POST /api/raising-robots/search/best", *timed(
        lambda: client.post("/api/raising-robots/search/best", json=body), runs=100))
    report("POST /api/raising-robots/search/odds", *timed(
        lambda: client.post("/api/raising-robots/search/odds", json=odds_body), runs=100))


if __name__ == "__main__":
    main()
