"""Benchmark: Raising Robots final score, round end and activation chains (target: p95 under 20 ms each,
through the API).

Run from the project root:  .venv/bin/python bench/bench_scoring.py
Prints p50/p95 of: score() on random full play areas (15 robots, 3 class cards, Game End icons);
round_end.run() with six ability parts (the worst case: it also tries all 720 orders for a better one);
activations.check() on a 200-step chain; and the same three through the JSON endpoints (Flask test
client), plus a six-player comparison.
"""
from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solvers.raising_robots import activations, round_end, scoring
from solvers.raising_robots.model import ROWS, Inventory, Robot

RUNS = 200
KINDS = ["a_grade", "microchip_robots", "resource_pairs", "vp56_robots", "full_columns", None]


def random_player(rng: random.Random) -> dict:
    robots = []
    for row in ROWS:
        for col in range(1, rng.randint(1, 5) + 1):
            kind = rng.choice(KINDS)
            ge = None if kind is None else ({"kind": kind, "resource": "gear"} if kind == "resource_pairs"
                                            else {"kind": kind})
            robots.append({"row": row, "column": col, "vp": rng.randint(3, 6), "needs_microchip": rng.random() < .4,
                           "upgraded": rng.random() < .5, "game_end": ge})
    cards = [{"grade": rng.choice(["none", "D", "C", "B", "A"]), "extra_credit": rng.random() < .5,
              "vp_by_grade": {"D": 2, "C": 4, "B": 6, "A": 9}} for _ in range(3)]
    inv = {k: rng.randint(0, 12) for k in ("sensor", "gear", "microchip", "program", "duct_tape", "battery",
                                            "vp", "robot_cards")}
    return {"inventory": inv, "robots": robots, "class_cards": cards}


def solver_args(p: dict):
    robots = [Robot(row=r["row"], column=r["column"], vp=r["vp"], needs_microchip=r["needs_microchip"],
                    upgraded=r["upgraded"], game_end=r["game_end"]) for r in p["robots"]]
    cards = [scoring.ClassCard(c["grade"], c["vp_by_grade"], c["extra_credit"]) for c in p["class_cards"]]
    return Inventory(**p["inventory"]), robots, cards


ROUND_BODY = {
    "inventory": {"battery": 10, "microchip": 7, "sensor": 5, "gear": 6, "robot_cards": 2},
    "robots": [{"row": r, "column": c} for r in ROWS for c in (1, 2)] + [{"row": "design", "column": 3}],
    "abilities": [{"id": "johannes", "upgraded": True}, {"id": "charlotte", "upgraded": True, "action": "unlock",
                                                         "pay_wilds": {"gear": 2}, "gain_wild": "program"},
                  {"id": "sacagawea", "upgraded": True, "reward": "vp"}],
}


def chain(n: int) -> list:
    # a long flat phase with nested activations: every 10th robot sets off a row run of 8 steps
    steps = []
    while sum(1 for _ in _count(steps)) < n - 10:
        i = len(steps)
        steps.append({"robot": f"R{i}", "then": [{"run": "fabricate", "energy": 5, "steps": [
            {"robot": f"R{i}-{k}"} for k in range(8)]}]})
    return steps


def _count(steps):
    for s in steps:
        yield s
        yield from _count(s.get("then", []) + s.get("steps", []))


def timed(fn, runs: int = RUNS) -> tuple[float, float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    out.sort()
    return statistics.median(out), out[int(len(out) * .95) - 1]


def show(name: str, p50_p95: tuple[float, float]) -> None:
    print(f"{name:<48} p50 {p50_p95[0]:7.2f} ms   p95 {p50_p95[1]:7.2f} ms")


def main() -> None:
    rng = random.Random(6)
    players = [random_player(rng) for _ in range(RUNS)]
    args = [solver_args(p) for p in players]
    it = iter(range(10**9))
    show("score() full play area", timed(lambda: scoring.score(*args[next(it) % RUNS])))

    abilities = [round_end.Ability("johannes", upgraded=True),
                 round_end.Ability("charlotte", upgraded=True, action="unlock", pay_wilds={"gear": 2},
                                   gain_wild="program"),
                 round_end.Ability("sacagawea", upgraded=True, reward="vp")]
    robots = [Robot(row=r["row"], column=r["column"]) for r in ROUND_BODY["robots"]]
    inv = Inventory(**ROUND_BODY["inventory"])
    show("round_end.run() 6 parts (+720 orders tried)", timed(lambda: round_end.run(inv, robots, abilities)))

    long_chain = chain(activations.MAX_NODES)
    nodes = activations.parse_steps(long_chain, "steps")
    show(f"activations.check() {sum(1 for _ in _count(long_chain))} steps", timed(lambda: activations.check(nodes)))

    from assistant import create_app

    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"})
    client = app.test_client()
    it2 = iter(range(10**9))
    show("POST /api/raising-robots/score",
         timed(lambda: client.post("/api/raising-robots/score", json=players[next(it2) % RUNS])))
    six = {"players": [dict(p, name=f"P{i}") for i, p in enumerate(players[:6])]}
    show("POST /api/raising-robots/score/compare (6 players)",
         timed(lambda: client.post("/api/raising-robots/score/compare", json=six)))
    show("POST /api/raising-robots/round-end (6 parts)",
         timed(lambda: client.post("/api/raising-robots/round-end", json=ROUND_BODY)))
    show("POST /api/raising-robots/activations/check",
         timed(lambda: client.post("/api/raising-robots/activations/check", json={"steps": long_chain}), 100))


if __name__ == "__main__":
    main()
