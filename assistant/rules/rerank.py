"""The second look at the first results: a learned order of those of the first DEPTH results of an answered question
that answer it.

The first pass (index.py) scores each entry on its own. This pass compares the first few side by side on what
the first pass does not weigh together: how close the question is to one single question players ask that the
entry answers (its asks: one near ask says more than words spread over many) or that it answered before (the
questions asked before), how much of the question the entry's title, keywords and text hold, and what kind of entry
it is. A linear score over those features
(softmax regression, one weight per feature) picks the order; the weights are learned by
bench/train_rules_rerank.py on the question parts tuned on and stored in assistant/data/rules/rerank.toml, with
what they were learned on. Each result keeps its own confidence: only the order among the answering ones changes
(the first pass's order is not always by confidence: a reading stands below the rule it reads, say).
"""
from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

DEPTH = 5
KINDS = ("card", "character", "clarification", "example", "fact", "icon", "important", "inventor", "objective",
         "reading", "rule", "scope")
FEATURES = (
    *(f"rank_{i}" for i in range(DEPTH)),
    "score",                        # the first pass's confidence (its gap to the first is the same to a softmax)
    "ask_jaccard", "ask_cover",     # the nearest single ask: words shared over words in either, over the question's
    "title_cover", "title_share",   # the question's words in the title and keywords, and the title's in the question
    "text_cover", "text_length",    # the question's words in the text; log of the text's length
    "holds", "about", "relevance",  # the first pass's: the part of the question held, and in the title, keywords or
                                    # section; bm25 against the best of these results
    "semantic",                     # how near the question comes in meaning to the entry's text or one of its asks
                                    # (semantic.py: the cosine of their sentence vectors)
    "asked",                        # ... and to the nearest question asked before that the entry answered (asked.py),
                                    # above ASKED_FLOOR
    *(f"kind_{k}" for k in KINDS),
)
# (a question only as near as most questions of a game are to each other tells nothing of the entry: on the parts tuned
# on, learning on four fifths and measuring the fifth left, top-1 3,820 with the cosine itself, 3,831 above 0.8,
# 3,828 above 0.75, 3,821 above 0.85)
ASKED_FLOOR = 0.8
WEIGHTS_FILE = Path(__file__).resolve().parents[1] / "data" / "rules" / "rerank.toml"


@dataclass(frozen=True)
class Found:
    """What the first pass found of an entry for the question (index.Scored, as parts of the question's weight)."""
    holds: float
    about: float
    relevance: float
    semantic: float = 0.0
    asked: float = 0.0


@dataclass(frozen=True)
class EntryWords:
    """An entry's stemmed words, worked out once when the index is built."""
    title: frozenset[str]           # title and keywords
    text: frozenset[str]
    asks: tuple[frozenset[str], ...]
    text_length: float


def load_weights(path: Path = WEIGHTS_FILE) -> dict[str, float]:
    """The learned weights by feature; none (no second look) when the file is absent or was learned for other
    features (a test holds the shipped file to FEATURES, so that the trainer can run after a change of them)."""
    if not path.exists():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    names, values = data.get("features", []), data.get("weights", [])
    if list(names) != list(FEATURES) or len(values) != len(FEATURES):
        return {}
    return dict(zip(names, map(float, values)))


def features(question: frozenset[str], scores: list[float], kinds: list[str],
             entries: list[EntryWords], found: list[Found]) -> list[list[float]]:
    """One row of FEATURES per result, in the first pass's order."""
    rows = []
    n = max(1, len(question))
    for i, (score, kind, w, f) in enumerate(zip(scores, kinds, entries, found)):
        jaccard = cover = 0.0
        for ask in w.asks:
            shared = len(question & ask)
            if shared:
                jaccard = max(jaccard, shared / len(question | ask))
                cover = max(cover, shared / n)
        rows.append([
            *(float(i == j) for j in range(DEPTH)),
            score, jaccard, cover,
            len(question & w.title) / n, len(question & w.title) / max(1, len(w.title)),
            len(question & w.text) / n, w.text_length,
            f.holds, f.about, f.relevance, f.semantic, max(0.0, f.asked - ASKED_FLOOR),
            *(float(kind == k) for k in KINDS),
        ])
    return rows


def order(rows: list[list[float]], weights: dict[str, float]) -> list[int]:
    """The results' places, best first (a tie keeps the first pass's order)."""
    w = [weights[f] for f in FEATURES]
    value = [sum(a * b for a, b in zip(row, w)) for row in rows]
    return sorted(range(len(rows)), key=lambda i: (-value[i], i))


def text_length(text: str) -> float:
    return math.log1p(len(text))
