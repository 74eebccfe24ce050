"""The rule entry files: the loader refuses every broken link (rules_format.md), every rulebook
section has entries, and the Raising Robots file covers the whole Friends rulebook."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from assistant.rules import GAME_FILES, RulesDataError, load_books, slugify

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
RR_SEED = SEEDS / "000_4c812be1ed18c319.txt"


@pytest.fixture(scope="module")
def books():
    return load_books()


def rr(books):
    return books["raising-robots"]


# ---- the real files -----------------------------------------------------------------------------

def test_every_present_file_loads_and_raising_robots_is_there(books):
    assert "raising-robots" in books
    for game, book in books.items():
        assert book.entries, game


@pytest.mark.parametrize("gf", GAME_FILES, ids=lambda g: g.game)
def test_every_rulebook_section_has_its_main_entry_and_entries(books, gf):
    book = books[gf.game]  # every game has its file: a missing one fails here
    ids = {e.id for e in book.entries}
    for s in book.sections:
        assert s.main_id in ids, s.name
        assert book.entries_in(s), f"section {s.name!r} has no entry"


def test_fixed_ids_follow_the_format_examples():
    assert slugify("Search") == "search"
    assert slugify("Solo / 2P Gameplay Changes") == "solo-2p-gameplay-changes"
    assert slugify("Charlotte (Complexity: Medium)") == "charlotte-complexity-medium"


def test_raising_robots_two_changes_to_setup_take_their_parents_ids(books):
    mains = {s.main_id: s for s in rr(books).sections if s.name == "Changes to Setup"}
    assert set(mains) == {"rr-robots-inventors-changes-to-setup", "rr-competitions-friendships-changes-to-setup"}
    by_section = {e.id: e.section_id for e in rr(books).entries}
    # the notes of the module's setup sit under the module's heading, not the first one of that name
    assert by_section["rr-setup-paw-friendship-cards"] == "rr-competitions-friendships-changes-to-setup"


SHORTENED_HEADING = "Robot Cards for Any Phase Row"


def _toc(seed: str) -> list[str]:
    """The bullet headings of the Friends rulebook's table of contents, in order."""
    block = seed.split("Table of Contents", 2)[2].split("\nIntroduction\n", 1)[0]
    return [line.strip().lstrip("•").strip() for line in block.splitlines() if line.strip().startswith("•")]


@pytest.mark.skipif(not RR_SEED.exists(), reason="the rulebook text is not next to the repository")
def test_raising_robots_sections_are_the_table_of_contents_in_order(books):
    toc = _toc(RR_SEED.read_text(encoding="utf-8"))
    assert len(toc) == 33
    names = [s.name for s in rr(books).sections]
    at = -1
    for heading in toc:  # every heading is a section, spelled as in the book, in the book's order
        # but one: the ten-word heading on any-row robot cards is cited shortened (own words only)
        cited = SHORTENED_HEADING if heading.startswith("Robot Cards That") else heading
        at = names.index(cited, at + 1)


@pytest.mark.skipif(not RR_SEED.exists(), reason="the rulebook text is not next to the repository")
def test_raising_robots_has_an_entry_for_every_important_note(books):
    seed = RR_SEED.read_text(encoding="utf-8")
    # one IMPORTANT heading carries four bullets (How to Complete Competitions): 15 + 4 notes
    notes = seed.count("IMPORTANT") - 1 + 4
    assert sum(e.kind == "important" for e in rr(books).entries) == notes == 19


def test_raising_robots_covers_cards_inventors_icons_clarifications_examples(books):
    by_kind: dict[str, list] = {}
    for e in rr(books).entries:
        by_kind.setdefault(e.kind, []).append(e)
    assert len(by_kind["card"]) == 16  # Completion Criteria: 3 + 3 + 4 + 6
    per_type = {s: sum(e.section == s for e in by_kind["card"])
                for s in ("Engineering Expo", "Mech Masters", "Think Tank", "Robo Race")}
    assert per_type == {"Engineering Expo": 3, "Mech Masters": 3, "Think Tank": 4, "Robo Race": 6}
    assert {e.section.split(" (")[0] for e in by_kind["inventor"]} == {
        "Charlotte", "Confucius", "Johannes", "Sacagawea", "Susan", "William"}
    assert len(by_kind["icon"]) == 5  # Game End Icons
    assert {e.title.split(" (")[0] for e in by_kind["clarification"]} == {
        "Ada", "Albert", "Charles", "Confucius", "Johannes", "John", "Nikola", "Stephen", "Temple"}
    assert {e.section for e in by_kind["example"]} == {
        "Finite Loops Example", "Search Example", "Competition Example", "Friendship Example"}


def test_raising_robots_readings_and_facts_carry_their_source(books):
    entries = rr(books).entries
    readings = [e for e in entries if e.kind == "reading"]
    assert len(readings) >= 10 and all(e.source == "tablebot" for e in readings)
    facts = [e for e in entries if e.kind == "fact"]
    assert all(e.source in ("public", "unverified") for e in facts)
    assert all(e.url.startswith("https://") for e in facts if e.source == "public")
    assert any(e.source == "unverified" for e in facts)


# ---- the loader on broken files -----------------------------------------------------------------

GOOD = """
game = "raising-robots"
book = "Test book"

[[section]]
name = "Search"

[[section]]
name = "Search Example"
parent = "Search"

[[entry]]
id = "rr-search"
section = "Search"
title = "Search"
text = "Look through the deck."
related = ["rr-search-example"]

[[entry]]
id = "rr-search-example"
section = "Search Example"
title = "Example"
text = "An example."
kind = "example"
"""


def _write(tmp_path: Path, text: str, name: str = "raising_robots.toml") -> Path:
    (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return tmp_path


def _problems(tmp_path: Path) -> str:
    with pytest.raises(RulesDataError) as err:
        load_books(tmp_path)
    return "\n".join(err.value.problems)


def test_loader_accepts_a_good_file_and_skips_missing_ones(tmp_path):
    books = load_books(_write(tmp_path, GOOD))
    assert set(books) == {"raising-robots"}
    assert [e.section_id for e in books["raising-robots"].entries] == ["rr-search", "rr-search-example"]
    assert load_books(tmp_path / "nothing-here") == {}


@pytest.mark.parametrize("change, expected", [
    (lambda t: t.replace('section = "Search Example"', 'section = "Serch Example"'), "is not a [[section]]"),
    (lambda t: t.replace('related = ["rr-search-example"]', 'related = ["rr-nope"]'), "'rr-nope', which does not exist"),
    (lambda t: t.replace('id = "rr-search-example"', 'id = "rr-search"'), "has no main entry"),
    (lambda t: t.replace('id = "rr-search-example"', 'id = "rr-search"'), "used twice"),
    (lambda t: t.replace('kind = "example"', 'kind = "story"'), "kind 'story'"),
    (lambda t: t.replace('kind = "example"', 'source = "public"'), "needs the source url"),
    (lambda t: t.replace('game = "raising-robots"', 'game = "robotariat"'), "game must be 'raising-robots'"),
    (lambda t: t.replace('parent = "Search"', 'parent = "Nowhere"'), "not a section declared before it"),
    (lambda t: t.replace('title = "Example"', 'titel = "Example"'), "unknown key 'titel'"),
    (lambda t: t.replace('id = "rr-search-example"', 'id = "tr-search-example"'), "must be kebab-case and start with 'rr-'"),
    (lambda t: t.replace('text = "An example."', 'text = "  "'), "needs a non-empty 'text'"),
    (lambda t: t.replace('related = ["rr-search-example"]', 'related = "rr-search-example"'), "must be a list"),
    (lambda t: t + "\n[[entry]]\nid = \"rr-x\"\nsection = \"Search\"\ntitle = \"x\"\ntext = \"y\"\nrelated = [\"rr-x\"]\n",
     "lists itself"),
    (lambda t: t + "\n[[section]]\nname = \"Search\"\n", "occurs twice, so each needs a parent"),
    (lambda t: t.replace("[[entry]]", "[entry]", 1), "not valid TOML"),
])
def test_loader_names_each_broken_link(tmp_path, change, expected):
    problems = _problems(_write(tmp_path, change(GOOD)))
    assert expected in problems


def test_loader_checks_related_ids_across_files(tmp_path):
    other = """
    game = "two-robots"
    book = "Other"
    [[section]]
    name = "Objective"
    [[entry]]
    id = "tr-objective"
    section = "Objective"
    title = "Win"
    text = "Build two robots."
    related = ["rr-search", "rb-missing"]
    """
    _write(tmp_path, GOOD)
    _write(tmp_path, other, "two_robots.toml")
    problems = _problems(tmp_path)
    assert "'rb-missing', which does not exist" in problems
    assert "rr-search'" not in problems  # an id of another game's file is a valid link


def test_duplicate_section_names_get_parent_ids_and_entries_follow_their_heading(tmp_path):
    text = """
    game = "raising-robots"
    book = "Test"
    [[section]]
    name = "Robots"
    [[section]]
    name = "Changes to Setup"
    parent = "Robots"
    [[section]]
    name = "Competitions"
    [[section]]
    name = "Changes to Setup"
    parent = "Competitions"
    [[entry]]
    id = "rr-robots"
    section = "Robots"
    title = "a"
    text = "a"
    [[entry]]
    id = "rr-robots-changes-to-setup"
    section = "Changes to Setup"
    title = "b"
    text = "b"
    [[entry]]
    id = "rr-competitions"
    section = "Competitions"
    title = "c"
    text = "c"
    [[entry]]
    id = "rr-competitions-changes-to-setup"
    section = "Changes to Setup"
    title = "d"
    text = "d"
    [[entry]]
    id = "rr-a-note"
    section = "Changes to Setup"
    title = "e"
    text = "e"
    """
    book = load_books(_write(tmp_path, text))["raising-robots"]
    assert {e.id: e.section_id for e in book.entries}["rr-a-note"] == "rr-competitions-changes-to-setup"

