"""What a rules entry and a rulebook section are, and the fixed ids that link them."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

KINDS = ("rule", "important", "example", "clarification", "card", "inventor", "character",
         "objective", "icon", "reading", "fact", "scope")
SOURCES = ("rulebook", "public", "tablebot", "unverified")


@dataclass(frozen=True)
class GameFile:
    game: str
    prefix: str
    filename: str
    name: str


GAME_FILES: tuple[GameFile, ...] = (
    GameFile("raising-robots", "rr-", "raising_robots.toml", "Raising Robots: Friends"),
    GameFile("robotariat", "rb-", "robotariat.toml", "Rise of the Robotariat"),
    GameFile("two-robots", "tr-", "two_robots.toml", "Two Robots"),
)
GAMES: dict[str, GameFile] = {g.game: g for g in GAME_FILES}


def slugify(text: str) -> str:
    """Accents folded first ("Überbot" -> "uberbot"), lowercase, every run of non-alphanumerics becomes
    '-', trimmed (assistant/data/rules/FORMAT.md). NFD, not NFKD: NFKD would also spell symbols out
    ("Mr. Postman™" -> "mr-postmantm"); with NFD they drop like other punctuation."""
    folded = unicodedata.normalize("NFD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")


@dataclass(frozen=True)
class Section:
    game: str
    name: str
    parent: str | None
    main_id: str          # the fixed id of the section's main entry
    order: int            # position in the book


@dataclass(frozen=True)
class Entry:
    id: str
    game: str
    section: str
    title: str
    text: str
    example: str = ""
    related: tuple[str, ...] = ()
    kind: str = "rule"
    source: str = "rulebook"
    url: str = ""
    keywords: tuple[str, ...] = ()
    asks: tuple[str, ...] = ()   # questions players ask that it answers (assistant/data/rules/asks/): search words only
    section_id: str = ""  # main entry id of the section this entry sits in
    order: int = 0        # position in its file

    @property
    def is_main(self) -> bool:
        return self.id == self.section_id

    def to_json(self) -> dict:
        return {
            "id": self.id, "game": self.game, "section": self.section, "title": self.title,
            "text": self.text, "related": list(self.related), "example": self.example,
            "kind": self.kind, "source": self.source, "url": self.url,
            "section_id": self.section_id, "page": f"/rules/{self.id}",
        }


@dataclass
class Book:
    game: str
    title: str
    sections: list[Section] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)

    def section_names(self) -> list[str]:
        return [s.name for s in self.sections]

    def children(self, parent: Section | None) -> list[Section]:
        """Sections directly under `parent` (None: the top-level headings), in book order."""
        want = parent.name if parent else None
        out = []
        for s in self.sections:
            if s.parent != want:
                continue
            # a duplicated parent name cannot happen in practice; keep the nearest preceding parent
            if parent is not None and not _nearest_parent_is(self.sections, s, parent):
                continue
            out.append(s)
        return out

    def entries_in(self, section: Section) -> list[Entry]:
        return [e for e in self.entries if e.section_id == section.main_id]


def _nearest_parent_is(sections: list[Section], child: Section, parent: Section) -> bool:
    candidates = [s for s in sections if s.name == child.parent and s.order < child.order]
    return bool(candidates) and candidates[-1] is parent
