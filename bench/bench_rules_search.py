"""Rules search speed and quality: index build time, p50/p95 per question, top-3 hit rate per game.

Run: .venv/bin/python bench/bench_rules_search.py
"""
from __future__ import annotations

import statistics
import time
import tomllib
from pathlib import Path

from assistant.rules import GAME_FILES, RulesIndex, load_books

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    t0 = time.perf_counter()
    books = load_books()
    t1 = time.perf_counter()
    index = RulesIndex(books)
    t2 = time.perf_counter()
    print(f"load + validate {(t1 - t0) * 1000:.1f} ms, index build {(t2 - t1) * 1000:.1f} ms, "
          f"{len(index.entries)} entries")
    times: list[float] = []
    for gf in GAME_FILES:
        path = ROOT / "tests" / "data" / f"rules_questions_{gf.filename.removesuffix('.toml')}.toml"
        if not path.exists():
            continue
        questions = tomllib.loads(path.read_text(encoding="utf-8"))["question"]
        for game_filter in (gf.game, None):
            hits = 0
            for q in questions:
                start = time.perf_counter()
                found = index.search(q["q"], game_filter, 3)
                times.append(time.perf_counter() - start)
                hits += any(h.entry.section in q["sections"] for h in found)
            label = "game filter" if game_filter else "all games  "
            print(f"{gf.game:15} {label}: top-3 {hits}/{len(questions)} = {hits / len(questions):.1%}")
    ms = sorted(t * 1000 for t in times)
    p95 = ms[int(len(ms) * 0.95) - 1]
    print(f"search: {len(ms)} questions, p50 {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms, max {ms[-1]:.2f} ms")


if __name__ == "__main__":
    main()
