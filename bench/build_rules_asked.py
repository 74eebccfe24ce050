"""Write assistant/data/rules/asked.toml: the questions of the evaluation parts the rules search is tuned on
(bench/bench_rules_eval.py's TUNED), each with its game, whether a rulebook answers it (and which entries do), and its
part; never a question of the unseen part (UNSEEN). The search tells a question "not covered" when it is nearer in
meaning to one of these that no book answers than to anything a book answers, and its second look weighs how near it
comes to one an entry answered (assistant/rules/asked.py). Run after a part joins TUNED, then
bench/build_rules_vectors.py:

    .venv/bin/python bench/build_rules_asked.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import bench_rules_eval as evaluation  # noqa: E402

from assistant.rules.asked import ASKED_FILE  # noqa: E402


def main() -> None:
    unseen = {(q["game"], q["q"]) for part in evaluation.UNSEEN if evaluation.path(part).exists()
              for q in evaluation.load(part)}
    lines = ["# Questions asked before (assistant/rules/asked.py): the evaluation parts the rules search is tuned on,",
             "# written by bench/build_rules_asked.py; never edited by hand, never a question of the unseen part.", ""]
    n = 0
    for part in evaluation.TUNED:
        for q in evaluation.load(part):
            if (q["game"], q["q"]) in unseen:
                continue
            covered = "true" if q.get("covered", True) else "false"
            lines += ["[[question]]", f"q = {json.dumps(q['q'], ensure_ascii=False)}", f'game = "{q["game"]}"',
                      f"covered = {covered}", f'part = "{part}"']
            if q.get("covered", True):
                lines.append(f"ids = {json.dumps(q['ids'])}")  # the entries that answer it (the second look's)
            lines.append("")
            n += 1
    ASKED_FILE.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {ASKED_FILE.relative_to(ROOT)}: {n} questions of {len(evaluation.TUNED)} parts")


if __name__ == "__main__":
    main()
