"""Read the rules TOML files and refuse to start on any broken link in them.

Checks (rules_format.md): the file's game matches its name, ids are unique across all files and
carry the game prefix, every entry's section is a [[section]] of its file, related ids exist,
every section has its main entry under the fixed id, kinds and sources are known, public facts
carry a URL. A game file that does not exist yet is skipped; one that exists is checked fully.
A game's asks file (asks/<same name>: questions players ask that an entry answers, search words only) is
optional; when present, every block names an entry of its game once and gives a list of questions.
"""
from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path
from typing import Any

from .model import GAME_FILES, KINDS, SOURCES, Book, Entry, GameFile, Section, slugify

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "rules"

_TOP_KEYS = {"game", "book", "section", "entry"}
_SECTION_KEYS = {"name", "parent"}
_ENTRY_KEYS = {"id", "section", "title", "text", "example", "related", "kind", "source", "url", "keywords"}
_ASK_KEYS = {"id", "q"}
ASKS_DIR = "asks"
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class RulesDataError(ValueError):
    """A rules data file breaks the format; the message lists every problem found."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        shown = "\n  ".join(problems[:40])
        more = f"\n  ... and {len(problems) - 40} more" if len(problems) > 40 else ""
        super().__init__(f"{len(problems)} problem(s) in the rules data:\n  {shown}{more}")


def load_books(data_dir: Path | None = None) -> dict[str, Book]:
    """Every game file present under data_dir, validated; raises RulesDataError listing all problems."""
    data_dir = data_dir or DATA_DIR
    problems: list[str] = []
    books: dict[str, Book] = {}
    for gf in GAME_FILES:
        path = data_dir / gf.filename
        if not path.exists():
            continue
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
            problems.append(f"{gf.filename}: not valid TOML ({err})")
            continue
        book = _read_book(gf, raw, problems)
        if book is not None:
            _read_asks(gf, data_dir / ASKS_DIR / gf.filename, book, problems)
            books[gf.game] = book
    _check_links(books, problems)
    if problems:
        raise RulesDataError(problems)
    return books


def _read_book(gf: GameFile, raw: dict[str, Any], problems: list[str]) -> Book | None:
    where = gf.filename
    for key in sorted(set(raw) - _TOP_KEYS):
        problems.append(f"{where}: unknown top-level key {key!r}")
    if raw.get("game") != gf.game:
        problems.append(f"{where}: game must be {gf.game!r}, found {raw.get('game')!r}")
        return None
    title = raw.get("book")
    if not isinstance(title, str) or not title.strip():
        problems.append(f"{where}: 'book' must name the rulebook")
        title = gf.name
    book = Book(game=gf.game, title=title)
    book.sections = _read_sections(gf, raw.get("section"), problems)
    book.entries = _read_entries(gf, raw.get("entry"), book.sections, problems)
    return book


def _read_sections(gf: GameFile, raw: Any, problems: list[str]) -> list[Section]:
    where = gf.filename
    if not isinstance(raw, list) or not raw:
        problems.append(f"{where}: needs at least one [[section]]")
        return []
    names: list[str] = []
    parents: list[str | None] = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict):
            problems.append(f"{where}: section #{i + 1} is not a table")
            continue
        for key in sorted(set(item) - _SECTION_KEYS):
            problems.append(f"{where}: section #{i + 1} has unknown key {key!r}")
        name, parent = item.get("name"), item.get("parent")
        if not isinstance(name, str) or not slugify(name):
            problems.append(f"{where}: section #{i + 1} needs a name")
            continue
        if parent is not None and (not isinstance(parent, str) or parent not in names):
            problems.append(f"{where}: section {name!r} has parent {parent!r}, "
                            "which is not a section declared before it")
            parent = None
        names.append(name)
        parents.append(parent)
    sections = []
    for order, (name, parent) in enumerate(zip(names, parents)):
        if names.count(name) > 1:
            if parent is None:
                problems.append(f"{where}: section {name!r} occurs twice, so each needs a parent")
            main_id = gf.prefix + slugify(parent or "") + "-" + slugify(name)
        else:
            main_id = gf.prefix + slugify(name)
        sections.append(Section(gf.game, name, parent, main_id, order))
    seen: dict[str, str] = {}
    for s in sections:
        if s.main_id in seen:
            problems.append(f"{where}: sections {seen[s.main_id]!r} and {s.name!r} share the id {s.main_id}")
        seen[s.main_id] = s.name
    return sections


def _str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _read_entries(gf: GameFile, raw: Any, sections: list[Section], problems: list[str]) -> list[Entry]:
    where = gf.filename
    if not isinstance(raw, list):
        problems.append(f"{where}: needs [[entry]] tables")
        return []
    by_name: dict[str, list[Section]] = {}
    for s in sections:
        by_name.setdefault(s.name, []).append(s)
    main_ids = {s.main_id for s in sections}
    entries: list[Entry] = []
    last_main_seen: dict[str, Section] = {}
    for i, item in enumerate(raw):
        label = f"{where}: entry #{i + 1}"
        if not isinstance(item, dict):
            problems.append(f"{label} is not a table")
            continue
        eid = item.get("id")
        if isinstance(eid, str):
            label = f"{where}: entry {eid!r}"
        for key in sorted(set(item) - _ENTRY_KEYS):
            problems.append(f"{label} has unknown key {key!r}")
        bad = False
        for key in ("id", "section", "title", "text"):
            if not isinstance(item.get(key), str) or not item[key].strip():
                problems.append(f"{label} needs a non-empty {key!r}")
                bad = True
        for key in ("example", "url", "kind", "source"):
            if key in item and not isinstance(item[key], str):
                problems.append(f"{label}: {key!r} must be a string")
                bad = True
        for key in ("related", "keywords"):
            if key in item and not _str_list(item[key]):
                problems.append(f"{label}: {key!r} must be a list of strings")
                bad = True
        if bad:
            continue
        if not eid.startswith(gf.prefix) or not _ID.match(eid):
            problems.append(f"{label}: id must be kebab-case and start with {gf.prefix!r}")
        kind, source, url = item.get("kind", "rule"), item.get("source", "rulebook"), item.get("url", "")
        if kind not in KINDS:
            problems.append(f"{label}: kind {kind!r} is not one of {', '.join(KINDS)}")
        if source not in SOURCES:
            problems.append(f"{label}: source {source!r} is not one of {', '.join(SOURCES)}")
        if source == "public" and not re.match(r"^https?://\S+$", url):
            problems.append(f"{label}: a public fact needs the source url")
        candidates = by_name.get(item["section"], [])
        if not candidates:
            problems.append(f"{label}: section {item['section']!r} is not a [[section]] of {where}")
            continue
        if eid in main_ids:
            owner = next(s for s in sections if s.main_id == eid)
            if owner.name != item["section"]:
                problems.append(f"{label}: is the main entry of {owner.name!r} but sits in {item['section']!r}")
            last_main_seen[owner.name] = owner
        section = _pick_section(eid, candidates, last_main_seen)
        related = tuple(item.get("related", []))
        if eid in related:
            problems.append(f"{label}: lists itself as related")
        entries.append(Entry(
            id=eid, game=gf.game, section=item["section"], title=item["title"].strip(),
            text=item["text"].strip(), example=item.get("example", "").strip(), related=related,
            kind=kind, source=source, url=url.strip(), keywords=tuple(item.get("keywords", [])),
            section_id=section.main_id, order=i,
        ))
    have = {e.id for e in entries}
    for s in sections:
        if s.main_id not in have:
            problems.append(f"{where}: section {s.name!r} has no main entry with id {s.main_id!r}")
    return entries


def _read_asks(gf: GameFile, path: Path, book: Book, problems: list[str]) -> None:
    """The players' questions of the game's asks file, if there is one, put on their entries."""
    if not path.exists():
        return
    where = f"{ASKS_DIR}/{gf.filename}"
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        problems.append(f"{where}: not valid TOML ({err})")
        return
    for key in sorted(set(raw) - {"asks"}):
        problems.append(f"{where}: unknown top-level key {key!r}")
    blocks = raw.get("asks", [])
    if not isinstance(blocks, list):
        problems.append(f"{where}: needs [[asks]] tables")
        return
    ids = {e.id for e in book.entries}
    asks: dict[str, tuple[str, ...]] = {}
    for i, item in enumerate(blocks):
        label = f"{where}: asks #{i + 1}"
        if not isinstance(item, dict):
            problems.append(f"{label} is not a table")
            continue
        eid, q = item.get("id"), item.get("q")
        if isinstance(eid, str):
            label = f"{where}: asks of {eid!r}"
        for key in sorted(set(item) - _ASK_KEYS):
            problems.append(f"{label} has unknown key {key!r}")
        if eid not in ids:
            problems.append(f"{label}: id {eid!r} is no entry of {gf.filename}")
        elif eid in asks:
            problems.append(f"{label}: the entry is listed twice")
        elif not _str_list(q) or not q or not all(a.strip() for a in q):
            problems.append(f"{label}: 'q' must be a list of non-empty strings")
        else:
            asks[eid] = tuple(a.strip() for a in q)
    book.entries = [dataclasses.replace(e, asks=asks[e.id]) if e.id in asks else e for e in book.entries]


def _pick_section(eid: str, candidates: list[Section], last_main_seen: dict[str, Section]) -> Section:
    """The section an entry belongs to when its section name occurs twice in the book.

    Its own id (or an id built on a section's main id) decides; otherwise the heading of that name
    whose main entry came last before it in the file, as entries are written in book order."""
    if len(candidates) == 1:
        return candidates[0]
    for s in candidates:
        if eid == s.main_id or eid.startswith(s.main_id + "-"):
            return s
    return last_main_seen.get(candidates[0].name, candidates[0])


def _check_links(books: dict[str, Book], problems: list[str]) -> None:
    owner: dict[str, str] = {}
    for book in books.values():
        for e in book.entries:
            if e.id in owner:
                problems.append(f"id {e.id!r} is used twice ({owner[e.id]} and {book.game})")
            owner[e.id] = book.game
    for book in books.values():
        for e in book.entries:
            for rid in e.related:
                if rid not in owner:
                    problems.append(f"{book.game}: entry {e.id!r} lists related id {rid!r}, which does not exist")
