"""Small pieces of English the answers of every game share."""
from __future__ import annotations


def article(word: str) -> str:
    """"a" or "an" before `word` (by its first letter: the game words here have no silent h or long u)."""
    return "an" if word[:1].lower() in "aeiou" else "a"
