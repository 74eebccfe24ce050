"""Fix a misspelled question word by the closest word the rule entries use (edit distance).

Only a word that is not English is corrected: "banana" is a word, so it never becomes the Samurai's
"katana", nor "monkey" the "money" of Robotariat. The English words are SCOWL's common list
(english_words.txt, its licence in english_words.COPYING).
"""
from __future__ import annotations

from collections import defaultdict
from functools import cache
from pathlib import Path

INFLECTIONS = ("ing", "ed", "es", "s")
ENGLISH_FILE = Path(__file__).resolve().parent / "english_words.txt"


@cache
def english_words() -> frozenset[str]:
    """Lower-case English words of 4 letters or more (shorter words are never corrected anyway)."""
    text = ENGLISH_FILE.read_text(encoding="utf-8")
    return frozenset(w for w in text.split("\n") if w and not w.startswith("#"))


def osa_distance(a: str, b: str, limit: int) -> int:
    """Edit distance counting a swap of two neighbours as one edit (optimal string alignment).

    Stops early and returns limit + 1 once every alignment is over the limit."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


def max_edits(word: str) -> int:
    """Words up to 6 letters tolerate one slip, longer ones two; tiny words none (too many false friends).
    A 4-letter word tolerates only a dropped letter (see Speller.corrections)."""
    if len(word) <= 3:
        return 0
    return 1 if len(word) <= 6 else 2


def skeleton(word: str) -> str:
    """The word without its vowels but its first letter: "search" -> "srch", "upgrade" -> "upgrd"."""
    return word[:1] + "".join(c for c in word[1:] if c not in "aeiouy")


class Speller:
    """The vocabulary of the entries with how many entries use each word."""

    def __init__(self, counts: dict[str, int], english: frozenset[str] = frozenset()):
        self.counts = dict(counts)
        self.english = english
        self.by_length: dict[int, list[str]] = defaultdict(list)
        # the candidates: the entries' words, and the singular of a plural they only use in the plural ("missile"
        # of "Homing Missiles": "missle" is one slip from it, two from "missiles")
        self._candidates = dict(self.counts)
        for word, n in self.counts.items():
            if len(word) > 4 and word.endswith("s") and not word.endswith("ss"):
                self._candidates.setdefault(word[:-1], n)
        for word in self._candidates:
            if word.isalpha():
                self.by_length[len(word)].append(word)
        # a word written without its vowels ("srch", "cmpltn"): its first letter and consonants, in order
        self._skeletons: dict[str, list[str]] = defaultdict(list)
        for word in self.counts:
            if len(word) >= 5 and word.isalpha():
                self._skeletons[skeleton(word)].append(word)
        self._cache: dict[str, tuple[str, ...]] = {}

    def __contains__(self, word: str) -> bool:
        return word in self.counts

    def corrections(self, word: str) -> tuple[str, ...]:
        """The vocabulary words nearest to `word` (at most 3, most used first); () if none is close
        or if `word` is itself an English word (then it means what it says).

        A slip in an inflected word is looked for in its stem too ("serching": "serch", one letter from
        "search"): the entries use the plain form of a word more often than its -ing or -ed, and a whole
        word two edits from another entry word ("reaching") is a worse guess than its stem one edit away."""
        if word in self._cache:
            return self._cache[word]
        distance, result = self._nearest(word)
        for suffix in INFLECTIONS:
            base = word.removesuffix(suffix)
            if base != word and len(base) >= 4 and word not in self.english:
                d, found = self._nearest(base)
                if found and d < distance:
                    distance, result = d, found
        if not result and len(word) >= 3 and word.isalpha() and word == skeleton(word) and word not in self.english:
            # no vowel but maybe the first letter: a word typed without its vowels, when only one of the entries'
            # words (or their plural) reads so
            found = sorted(self._skeletons.get(word, ()), key=lambda w: -self.counts[w])
            if found and all(w.startswith(found[0].removesuffix("s")) for w in found):
                result = (found[0],)
        if len(self._cache) < 5000:
            self._cache[word] = result
        return result

    def _nearest(self, word: str) -> tuple[int, tuple[str, ...]]:
        limit = 0 if word in self.english else max_edits(word)
        best: list[tuple[int, int, str]] = []
        if limit and word.isalpha():
            # a 4-letter word may have lost a letter ("stak": stack), but another letter in it makes a
            # false friend too often ("lego" is not "legs"), and a short non-English word is more often a
            # name or slang than a slip
            lengths = [5] if len(word) == 4 else range(len(word) - limit, len(word) + limit + 1)
            for length in lengths:
                for cand in self.by_length.get(length, ()):
                    # a first letter typo is rare on a phone keyboard next to the rest; keep the
                    # search cheap by asking the first or second letter to agree
                    if cand[0] != word[0] and cand[:2] != word[1:3] and cand[1:2] != word[1:2]:
                        continue
                    d = osa_distance(word, cand, limit)
                    if d <= limit:
                        best.append((d, -self._candidates[cand], cand))
        if not best:
            return limit + 1, ()
        best.sort()
        top = best[0][0]
        return top, tuple(w for d, _, w in best if d == top)[:3]
