"""The rules knowledge base: entries loaded and validated from assistant/data/rules, and their search.

`books()` and `index()` build once per process, on first use (the rules blueprint calls them when
the app is created, so a broken data file stops the app at start-up rather than on a request).
"""
from __future__ import annotations

import threading

from .index import ANSWERED, Hit, Reply, RulesIndex
from .loader import DATA_DIR, RulesDataError, load_books
from .model import GAME_FILES, GAMES, Book, Entry, Section, slugify

__all__ = [
    "ANSWERED",
    "DATA_DIR",
    "GAMES",
    "GAME_FILES",
    "Book",
    "Entry",
    "Hit",
    "Reply",
    "RulesDataError",
    "RulesIndex",
    "Section",
    "books",
    "entry",
    "ask",
    "index",
    "load_books",
    "search",
    "slugify",
]

_lock = threading.Lock()
_books: dict[str, Book] | None = None
_index: RulesIndex | None = None


def books() -> dict[str, Book]:
    """Every rulebook present, validated (RulesDataError if any file is broken)."""
    global _books
    with _lock:
        if _books is None:
            _books = load_books()
        return _books


def index() -> RulesIndex:
    global _index
    loaded = books()
    with _lock:
        if _index is None:
            _index = RulesIndex(loaded)
        return _index


def entry(entry_id: str) -> Entry | None:
    return index().by_id.get(entry_id)


def search(question: str, game: str | None = None, limit: int = 10) -> list[Entry]:
    return [h.entry for h in index().search(question, game, limit)]


def ask(question: str, *, game: str | None = None, prefer: str | None = None, limit: int = 10) -> Reply:
    """The reply to a question: results with their confidence, and whether the rulebooks answer it."""
    return index().ask(question, game=game, prefer=prefer, limit=limit)


def section_path(e: Entry) -> list[Section]:
    """The headings above the entry's section and the section itself, outermost first."""
    book = books()[e.game]
    by_id = {s.main_id: s for s in book.sections}
    section = by_id[e.section_id]
    path = [section]
    while section.parent:
        section = next(s for s in reversed(book.sections[:section.order]) if s.name == section.parent)
        path.insert(0, section)
    return path
