"""Write assistant/data/rules/vectors.npz: the sentence vectors (assistant/rules/semantic.py) of every rule entry's text
of every player question in assistant/data/rules/asks/ and of every question asked before (assistant/data/rules/asked.toml), kept so that the index need not encode them each time it
is built. Run after editing the entries or the asks (a stale file is still right, only slower to load):

    .venv/bin/python bench/build_rules_vectors.py
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.rules import load_books, semantic  # noqa: E402
from assistant.rules.asked import load_asked  # noqa: E402


def main() -> None:
    entries = [e for book in load_books().values() for e in book.entries]
    texts = [semantic.entry_text(e.title, e.keywords, e.text) for e in entries] + [a for e in entries for a in e.asks]
    texts += [a.q for a in load_asked()]
    start = time.perf_counter()
    n = semantic.write_vectors(texts)
    print(f"wrote {semantic.VECTORS_FILE.relative_to(ROOT)}: {n} vectors ({len(entries)} entries, their asks and the "
          "questions asked before) "
          f"in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
