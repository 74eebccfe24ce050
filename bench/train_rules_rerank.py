"""Learn the weights of the rules search's second look (assistant/rules/rerank.py) and show what it changes.

The first pass's results of every covered question of the parts tuned on (tests/rules/data/eval, game filter),
those of its first rerank.DEPTH results that answer each described by rerank.FEATURES; softmax regression (one weight per feature, a
small L2 penalty, full-batch gradient descent from zero: deterministic) learns to put a right entry first.

Run: .venv/bin/python bench/train_rules_rerank.py [--check PART] [--write]
`--check PART` learns without PART and measures PART before and after (the part plays the unseen one: whether
the second look carries over to questions it did not learn from). `--write` learns on every part tuned on and
writes assistant/data/rules/rerank.toml. Both print top-1 per part with and without the second look.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import bench_rules_eval as evaluation  # noqa: E402

from assistant.rules import RulesIndex, load_books, rerank  # noqa: E402

L2 = 0.01
STEPS = 4000
RATE = 0.002


def _first_pass(index: RulesIndex, parts: tuple[str, ...]) -> tuple[list, list]:
    xs, ys = [], []
    for part in parts:
        # (its own questions out of the questions asked before: the second look weighs how near a question comes to
        # one asked before, and a question finds itself)
        index._asked.left_out = part
        for q in evaluation.load(part):
            if not q.get("covered", True):
                continue
            head, rows = index.second_look_examples(q["q"], q["game"])
            if len(head) < 2:
                continue  # not answered, or nothing to order
            # a question some ask says word for word (after stemming) would teach the nearest ask more weight than
            # it has on questions nobody wrote down: such a question is left out
            said = frozenset(index._stems(q["q"]))
            if any(said == ask for h in head for ask in index._words[index._row[h.entry.id]].asks):
                continue
            right = [float(h.entry.id in q["ids"]) for h in head]
            if not any(right):
                continue  # nothing to learn where no result is right
            xs.append(rows)
            ys.append(right)
    index._asked.left_out = None
    return xs, ys


def examples(index: RulesIndex, parts: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features (questions x DEPTH x features), right-entry labels and a mask of the results there are."""
    xs, ys = _first_pass(index, parts)
    n, d = len(xs), len(rerank.FEATURES)
    x = np.zeros((n, rerank.DEPTH, d))
    y = np.zeros((n, rerank.DEPTH))
    mask = np.zeros((n, rerank.DEPTH), dtype=bool)
    for i, (rows, right) in enumerate(zip(xs, ys)):
        x[i, :len(rows)] = rows
        y[i, :len(right)] = np.array(right) / sum(right)
        mask[i, :len(rows)] = True
    return x, y, mask


def learn(x: np.ndarray, y: np.ndarray, mask: np.ndarray) -> np.ndarray:
    w = np.zeros(x.shape[2])
    for _ in range(STEPS):
        s = np.where(mask, x @ w, -np.inf)
        s -= s.max(axis=1, keepdims=True)
        p = np.exp(s)
        p /= p.sum(axis=1, keepdims=True)
        grad = np.einsum("nk,nkd->d", p - y, x) + 2 * L2 * w
        w -= RATE * grad
    return w


def top1(index: RulesIndex, parts: tuple[str, ...], mode: str) -> tuple[int, int]:
    right = total = 0
    for part in parts:
        index._asked.left_out = part  # (measured as bench_rules_eval.py does)
        for q in evaluation.load(part):
            if q.get("covered", True):
                got = evaluation.ask(index, q, mode, limit=1).hits
                total += 1
                right += bool(got) and got[0].entry.id in q["ids"]
    index._asked.left_out = None
    return right, total


def report(index: RulesIndex, parts: tuple[str, ...], weights: dict[str, float]) -> None:
    for part in parts:
        line = []
        for mode in ("game filter", "no game"):
            index._rerank = {}
            before = top1(index, (part,), mode)
            index._rerank = weights
            after = top1(index, (part,), mode)
            line.append(f"{mode}: {before[0]}/{before[1]} -> {after[0]}/{after[1]} "
                        f"({before[0] / before[1]:.1%} -> {after[0] / after[1]:.1%})")
        print(f"  {part:8} top-1  " + "   ".join(line))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", choices=evaluation.TUNED, help="learn without this part, then measure it")
    ap.add_argument("--write", action="store_true", help="learn on every part tuned on and write the weights")
    args = ap.parse_args()
    index = RulesIndex(load_books())
    parts = tuple(p for p in evaluation.TUNED if p != args.check)
    x, y, mask = examples(index, parts)
    w = learn(x, y, mask)
    weights = dict(zip(rerank.FEATURES, (round(float(v), 4) for v in w)))
    print(f"learned on {len(x)} answered questions of {', '.join(parts)}")
    print("  " + ", ".join(f"{k} {v:+.2f}" for k, v in weights.items()))
    if args.check:
        print(f"measured on {args.check} (not learned from):")
        report(index, (args.check,), weights)
    print("on the parts learned from:")
    report(index, parts, weights)
    if args.write:
        text = ("# The rules search's second look (assistant/rules/rerank.py): one weight per feature, learned by\n"
                "# bench/train_rules_rerank.py --write; do not edit by hand.\n"
                "learned_on = [" + ", ".join(f'"{p}"' for p in parts) + "]\n"
                + f"questions = {len(x)}\n"
                + "features = [" + ", ".join(f'"{f}"' for f in rerank.FEATURES) + "]\n"
                + "weights = [" + ", ".join(repr(weights[f]) for f in rerank.FEATURES) + "]\n")
        rerank.WEIGHTS_FILE.write_text(text, encoding="utf-8")
        print(f"wrote {rerank.WEIGHTS_FILE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
