"""The players' questions of assistant/data/rules/asks/ ("asks", document expansion): their weights chosen by
leave-one-part-out over the six parts of tests/rules/data/eval that are tuned on (never round 6's).

Each setting of the grid (OFF is the asks switched off, ASKS_ON False; ANSWERED, the score from which a result answers,
is chosen again with them, as the asks raise what the entries hold of a question) is measured on every part in the three ways of
asking of bench_rules_eval.py. For each part left out, the setting with the best sum over the other five parts
(top-1 + top-3 - wrong sides of "not covered", over the three ways) is chosen and measured on the part left out,
beside the asks switched off. Then the setting chosen most often, on every part.

With --guard, only settings that keep the guard of tests/rules/test_rules_answers.py on the older player sets
(top-1 90%, "not covered" said for 80% of their questions no book answers) are chosen from.

Run: .venv/bin/python bench/bench_rules_asks.py [--jobs 2] [--quick] [--guard] [--save FILE | --load FILE]
"""
from __future__ import annotations

import argparse
import itertools
import pickle
import sys
import tomllib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_rules_eval import MODES, TUNED, evaluate, load  # noqa: E402

from assistant.rules import GAME_FILES, RulesIndex, load_books  # noqa: E402

PLAYER_SETS = {g.game: ROOT / "tests" / "rules" / "data" / f"player_questions_{g.filename}" for g in GAME_FILES}

KNOBS = ("ASKS_WEIGHT", "ASK_CREDIT", "ASK_ABOUT", "ASK_PHRASE_CREDIT", "ANSWERED", "ASK_RARITY")
OFF = (0.0, 0.0, 0.0, 0.0, 0.43, 1.0)   # the asks switched off, "not covered" where it was chosen without them


def grid(quick: bool) -> list[tuple[float, ...]]:
    if quick:
        return [OFF, *itertools.product((1.0,), (0.4,), (0.0, 0.5), (0.1,), (0.43,), (0.0, 1.0))]
    # (a first grid of 145 settings, ASKS_WEIGHT 0.5, 1, 2, ASK_CREDIT 0.3 to 0.9, ASK_ABOUT 0, 0.5, 1, chose
    # ASKS_WEIGHT 1 or 2, ASK_CREDIT 0.5 and ASK_ABOUT 0.5 or 1 in every fold)
    # ... and a second, with ASK_RARITY, chose ASKS_WEIGHT 2, ASK_CREDIT 0.4, ANSWERED 0.43 in most folds; a variant
    # where what the asks add only ordered the results and left the confidence to the entries' own words was chosen
    # in no fold (and left out)
    return [OFF, *itertools.product((1.0, 2.0), (0.4, 0.5), (0.0, 0.5), (0.1,), (0.43,), (0.0, 1.0))]


def measure(setting: tuple[float, ...]) -> tuple[tuple[float, ...], dict]:
    """{(part, mode): (top1, top3, covered, silent_said, silent, false_silent)} for one setting."""
    module = sys.modules["assistant.rules.index"]
    module.ASKS_ON = setting != OFF
    for k, v in zip(KNOBS, setting):
        setattr(module, k, v)
    index = RulesIndex(load_books())
    out = {}
    for part in TUNED:
        questions = load(part)
        for mode in MODES:
            s = evaluate(index, questions, mode)
            out[(part, mode)] = (s.top1, s.top3, s.covered, s.silent_said, s.silent, s.false_silent)
    # the older player sets (tests/rules/test_rules_answers.py guards them): not chosen on, shown beside
    top1 = covered = said = here = silent = 0
    for game, file in PLAYER_SETS.items():
        for q in tomllib.loads(file.read_text(encoding="utf-8"))["question"]:
            reply = index.ask(q["q"], game=game, limit=3)
            if q.get("answered", True):
                covered += 1
                top1 += bool(reply.hits) and reply.hits[0].entry.section in q["sections"]
            else:
                silent += 1
                said += not reply.answered
                here += not any(h.answers and h.entry.game == game for h in index.ask(q["q"], prefer=game).hits)
    out["player sets"] = f"older player sets: top-1 {top1}/{covered}, not covered said {said}/{silent} ({here} page first)"
    # the guard of tests/rules/test_rules_answers.py: 90% top-1, 80% of the questions no book answers said so
    out["guard"] = top1 >= 0.9 * covered and min(said, here) >= 0.8 * silent
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
    ap.add_argument("--save", help="keep the grid's figures in this file")
    ap.add_argument("--load", help="read the grid's figures from this file (of the same grid) instead of measuring")
    ap.add_argument("--guard", action="store_true", help="choose only among settings that keep the older sets' guard")
    args = ap.parse_args()
    settings = grid(args.quick)
    if args.load:
        results = pickle.loads(Path(args.load).read_bytes())
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = dict(pool.map(measure, settings))
    if args.save:
        Path(args.save).write_bytes(pickle.dumps(results))
    if args.guard:
        settings = [OFF] + [s for s in settings[1:] if results[s]["guard"]]
    print(f"{len(settings)} settings of {', '.join(KNOBS)}" + (" (those keeping the older sets' guard)" if args.guard else ""))
    totals = {m: [[0] * 6, [0] * 6] for m in MODES}
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
        print(f"== left out {left}: chosen {dict(zip(KNOBS, best))}  (score on it {value(off)} -> {value(on)}; "
              f"{results[best]['player sets']})")
        for m, a, b in zip(MODES, off, on):
            print(f"  {m:16} off  {line(a)}\n  {'':16} on   {line(b)}")
            for i, cells in enumerate((a, b)):
                totals[m][i] = [x + y for x, y in zip(totals[m][i], cells)]
    print(f"left-out parts better {better}, worse {worse}, of {len(TUNED)}; summed over the {len(TUNED)} left-out parts:")
    for m in MODES:
        print(f"  {m:16} off  {line(tuple(totals[m][0]))}\n  {'':16} on   {line(tuple(totals[m][1]))}")
    top = max(chosen_count, key=lambda s: (chosen_count[s], -settings.index(s)))
    print(f"== chosen most often ({chosen_count[top]} of {len(TUNED)} folds): {dict(zip(KNOBS, top))}\n"
          f"  off: {results[OFF]['player sets']}; on: {results[top]['player sets']}")
    for part in TUNED:
        for m in MODES:
            print(f"  {part:8} {m:16} off {line(results[OFF][(part, m)])}\n  {'':25} on  {line(results[top][(part, m)])}")


if __name__ == "__main__":
    main()
