"""The players' questions of assistant/data/rules/asks/ ("asks", document expansion): their weights chosen by
leave-one-part-out over the six parts of tests/rules/data/eval that are tuned on (never round 6's).

Each setting of the grid (ASKS_WEIGHT 0 is the asks switched off) is measured on every part in the three ways of
asking of bench_rules_eval.py. For each part left out, the setting with the best sum over the other five parts
(top-1 + top-3 - wrong sides of "not covered", over the three ways) is chosen and measured on the part left out,
beside the asks switched off. Then the setting chosen most often, on every part.

Run: .venv/bin/python bench/bench_rules_asks.py [--jobs 2] [--quick]
"""
from __future__ import annotations

import argparse
import itertools
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_rules_eval import MODES, TUNED, evaluate, load  # noqa: E402

from assistant.rules import RulesIndex, load_books  # noqa: E402

KNOBS = ("ASKS_WEIGHT", "ASK_CREDIT", "ASK_ABOUT", "ASK_PHRASE_CREDIT")
OFF = (0.0, 0.0, 0.0, 0.0)


def grid(quick: bool) -> list[tuple[float, ...]]:
    if quick:
        return [OFF, *itertools.product((1.0,), (0.5, 0.7), (0.0, 0.5), (0.0,))]
    return [OFF, *itertools.product((0.5, 1.0, 2.0), (0.3, 0.5, 0.7, 0.9), (0.0, 0.5, 1.0), (0.0, 0.1))]


def measure(setting: tuple[float, ...]) -> tuple[tuple[float, ...], dict]:
    """{(part, mode): (top1, top3, covered, silent_said, silent, false_silent)} for one setting."""
    module = sys.modules["assistant.rules.index"]
    for k, v in zip(KNOBS, setting):
        setattr(module, k, v)
    index = RulesIndex(load_books())
    out = {}
    for part in TUNED:
        questions = load(part)
        for mode in MODES:
            s = evaluate(index, questions, mode)
            out[(part, mode)] = (s.top1, s.top3, s.covered, s.silent_said, s.silent, s.false_silent)
    return setting, out


def value(cells: list[tuple[int, ...]]) -> int:
    return sum(t1 + t3 - (silent - said) - false for t1, t3, _, said, silent, false in cells)


def line(c: tuple[int, ...]) -> str:
    t1, t3, cov, said, silent, false = c
    flagged = said + false
    return (f"top-1 {t1}/{cov}  top-3 {t3}/{cov}  not covered: precision "
            f"{(said / flagged if flagged else 1):.1%} recall {said / silent:.1%} ({said}/{silent}, {false} covered)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    settings = grid(args.quick)
    with ProcessPoolExecutor(args.jobs) as pool:
        results = dict(pool.map(measure, settings))
    print(f"{len(settings)} settings of {', '.join(KNOBS)}")
    chosen_count: dict[tuple[float, ...], int] = {}
    better = worse = 0
    for left in TUNED:
        others = [p for p in TUNED if p != left]
        best = max(settings[1:], key=lambda s: (value([results[s][(p, m)] for p in others for m in MODES]),
                                                 -settings.index(s)))
        chosen_count[best] = chosen_count.get(best, 0) + 1
        off, on = ([results[s][(left, m)] for m in MODES] for s in (OFF, best))
        gain = value(on) - value(off)
        better += gain > 0
        worse += gain < 0
        print(f"== left out {left}: chosen {dict(zip(KNOBS, best))}  (score on it {value(off)} -> {value(on)})")
        for m, a, b in zip(MODES, off, on):
            print(f"  {m:16} off  {line(a)}\n  {'':16} on   {line(b)}")
    print(f"left-out parts better {better}, worse {worse}, of {len(TUNED)}")
    top = max(chosen_count, key=lambda s: (chosen_count[s], -settings.index(s)))
    print(f"== chosen most often ({chosen_count[top]} of {len(TUNED)} folds): {dict(zip(KNOBS, top))}")
    for part in TUNED:
        for m in MODES:
            print(f"  {part:8} {m:16} off {line(results[OFF][(part, m)])}\n  {'':25} on  {line(results[top][(part, m)])}")


if __name__ == "__main__":
    main()
