"""Rules search speed and quality: index build time, p50/p95 per question, top-1 and top-3 per game
on the original question sets (tests/rules/data/rules_questions_*.toml) and the player question sets
(tests/rules/data/player_questions_*.toml), and the `answered` flag on questions the books do not
answer and on off-topic ones.

A top-1 hit: the first result cites one of the question's sections and is not one of Tablebot's
readings (readings rank below the rules unless the question is about the app). A top-3 hit: one of
the first three cites one of the sections.

Run: .venv/bin/python bench/bench_rules_search.py
"""
from __future__ import annotations

import os
import statistics
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's code, not an installed copy

from assistant.rules import GAME_FILES, RulesIndex, load_books  # noqa: E402

DATA = ROOT / "tests" / "rules" / "data"
OFF_TOPIC = ["what is the meaning of life", "banana", "monkey", "weather tomorrow", "best pizza recipe",
             "who won the world cup"]


def _questions(path: Path) -> list[dict]:
    return tomllib.loads(path.read_text(encoding="utf-8"))["question"] if path.exists() else []


REPEAT = 5  # each question is timed 5 times; its median counts (the machine is shared: one slow run is noise)


def _ask(index: RulesIndex, q: str, game: str | None, limit: int, prefer: str | None = None):
    """(hits, answered or None when this version of the index has no answered flag)."""
    if hasattr(index, "ask"):
        reply = index.ask(q, game=game, prefer=prefer, limit=limit)
        return reply.hits, reply.answered
    return index.search(q, game, limit), None


def _timed(index: RulesIndex, q: str, game: str | None, limit: int, prefer: str | None = None):
    """_ask, and its median time over REPEAT cold runs (the cache of looked-up words emptied first)."""
    runs = []
    for _ in range(REPEAT):
        if hasattr(index, "_cache"):
            index._cache.clear()
        start = time.perf_counter()
        out = _ask(index, q, game, limit, prefer)
        runs.append(time.perf_counter() - start)
    return out, statistics.median(runs)


def main() -> None:
    t0 = time.perf_counter()
    books = load_books()
    t1 = time.perf_counter()
    index = RulesIndex(books)
    t2 = time.perf_counter()
    print(f"load + validate {(t1 - t0) * 1000:.1f} ms, index build {(t2 - t1) * 1000:.1f} ms, "
          f"{len(index.entries)} entries")
    times: list[float] = []
    for kind in ("rules_questions", "player_questions"):
        print(f"-- {kind}_*.toml")
        for gf in GAME_FILES:
            questions = _questions(DATA / f"{kind}_{gf.filename}")
            answerable = [q for q in questions if q.get("answered", True)]
            silent = [q for q in questions if not q.get("answered", True)]
            modes = [("game filter    ", gf.game, None), ("all games      ", None, None)]
            if hasattr(index, "ask"):
                modes.insert(1, ("its game first ", None, gf.game))
            for label, game_filter, prefer in modes:
                top1 = top3 = said = 0
                for q in answerable:
                    (found, answered), took = _timed(index, q["q"], game_filter, 3, prefer)
                    times.append(took)
                    top1 += bool(found) and found[0].entry.section in q["sections"] and found[0].entry.kind != "reading"
                    top3 += any(h.entry.section in q["sections"] for h in found)
                    said += bool(answered)
                n = len(answerable)
                flag = "" if not hasattr(index, "ask") else f", answered {said}/{n}"
                print(f"{gf.game:15} {label}: top-1 {top1}/{n} = {top1 / n:.1%}, top-3 {top3}/{n} = {top3 / n:.1%}{flag}")
            if silent:
                flags = [_ask(index, q["q"], gf.game, 3)[1] for q in silent]
                shown = "no flag" if flags[0] is None else f"{sum(f is False for f in flags)}/{len(flags)}"
                print(f"{gf.game:15} not in the book: answered=false {shown}")
    flags = [_ask(index, q, None, 3)[1] for q in OFF_TOPIC]
    shown = "no flag" if flags[0] is None else f"{sum(f is False for f in flags)}/{len(flags)}"
    print(f"off-topic ({', '.join(OFF_TOPIC)}): answered=false {shown}")
    ms = sorted(t * 1000 for t in times)
    p95 = ms[int(len(ms) * 0.95) - 1]
    load = os.getloadavg()[0]
    print(f"search: {len(ms)} questions (cold, median of {REPEAT} runs each; load average {load:.1f}), p50 {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms, "
          f"max {ms[-1]:.2f} ms")


if __name__ == "__main__":
    main()
