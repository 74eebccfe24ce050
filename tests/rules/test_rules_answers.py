"""The rules assistant knows when it does not know, ranks the specific rule first, and uses the game of
the page: measured on the player question sets (tests/rules/data/player_questions_*.toml, written from
the rulebooks before the ranking was tuned), plus the mechanisms one by one."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from assistant import rules
from assistant.rules.index import READING_BELOW

DATA = Path(__file__).resolve().parent / "data"
PLAYER_SETS = {g.game: DATA / f"player_questions_{g.filename}" for g in rules.GAME_FILES}
OFF_TOPIC = ["what is the meaning of life", "banana", "monkey", "weather tomorrow", "best pizza recipe",
             "who won the world cup", "asdfgh qwerty"]


def _questions(game: str) -> list[dict]:
    return tomllib.loads(PLAYER_SETS[game].read_text(encoding="utf-8"))["question"]


def _answerable() -> list[tuple[str, dict]]:
    return [(g, q) for g in PLAYER_SETS for q in _questions(g) if q.get("answered", True)]


def _top1(hits: list[rules.Hit], sections: list[str]) -> bool:
    """The first result cites an expected section and is a rule, not one of Tablebot's readings."""
    return bool(hits) and hits[0].entry.section in sections and hits[0].entry.kind != "reading"


def _top3(hits: list[rules.Hit], sections: list[str]) -> bool:
    return any(h.entry.section in sections for h in hits[:3])


# ---- the player question sets -------------------------------------------------------------------

def test_the_sets_hold_40_questions_per_game_and_10_the_books_do_not_answer():
    silent = 0
    for game in PLAYER_SETS:
        qs = _questions(game)
        assert sum(q.get("answered", True) for q in qs) >= 40, game
        silent += sum(not q.get("answered", True) for q in qs)
        names = set(rules.books()[game].section_names())
        for q in qs:
            assert q["q"].strip()
            if q.get("answered", True):
                assert q["sections"] and set(q["sections"]) <= names, q
            else:
                assert "sections" not in q, q
    assert silent >= 10


@pytest.mark.parametrize("mode", ["game filter", "page game first"])
def test_top1_is_at_least_90_and_top3_at_least_97_percent(mode):
    top1, top3, misses = 0, 0, []
    questions = _answerable()
    for game, q in questions:
        if mode == "game filter":
            hits = rules.ask(q["q"], game=game, limit=3).hits
        else:
            hits = rules.ask(q["q"], prefer=game, limit=3).hits
        top1 += _top1(hits, q["sections"])
        top3 += _top3(hits, q["sections"])
        if not _top1(hits, q["sections"]):
            misses.append(f"{q['q']!r} -> {[h.entry.id for h in hits]} (wanted {q['sections']})")
    n = len(questions)
    assert top1 / n >= 0.90 and top3 / n >= 0.97, f"top-1 {top1}/{n}, top-3 {top3}/{n}\n" + "\n".join(misses)


def test_questions_the_books_answer_are_answered():
    questions = _answerable()
    said = [q["q"] for g, q in questions if not rules.ask(q["q"], prefer=g).answered]
    assert len(said) <= 0.05 * len(questions), said


def test_questions_the_books_do_not_answer_say_so():
    silent = [(g, q["q"]) for g in PLAYER_SETS for q in _questions(g) if not q.get("answered", True)]
    flagged = [q for g, q in silent if not rules.ask(q, game=g).answered]
    # (9 of these 12 since round 8's third set of asks: three are now answered at the threshold by an entry that
    # is near, the Sabotage activation for a discarded Sabotage card, say; "not covered" is measured on the eval parts)
    assert len(flagged) >= 0.75 * len(silent), set(q for _, q in silent) - set(flagged)
    # on that game's page too: no entry of its book is offered as an answer (another game's may be)
    here = [q for g, q in silent if not any(h.answers and h.entry.game == g for h in rules.ask(q, prefer=g).hits)]
    assert len(here) >= 0.75 * len(silent), set(q for _, q in silent) - set(here)


@pytest.mark.parametrize("q", OFF_TOPIC)
def test_off_topic_questions_are_not_answered(q):
    for game in (None, *rules.GAMES):
        assert not rules.ask(q, prefer=game).answered, (q, game)


# ---- confidence ---------------------------------------------------------------------------------

def test_every_score_is_between_0_and_1_and_answers_means_above_the_threshold():
    for q in ["search", "cop fine", "can i trade cards", "yo-yo", "how many ppl can play robotariat"]:
        reply = rules.ask(q, limit=20)
        for h in reply.hits:
            assert 0.0 <= h.score <= 1.0
            assert h.answers == (h.score >= rules.ANSWERED)
        assert reply.answered == any(h.answers for h in reply.hits)


def test_english_words_are_never_spelled_into_a_rules_word():
    # "banana" is not the Samurai's katana, "monkey" not Robotariat money
    # (a whole English word as the last word is the word itself, and its completions as a guess)
    groups = {w: rules.index().groups(w) for w in ("banana", "monkey", "meaning", "violin")}
    assert groups["banana"] == [("banana", "banana*")] and groups["monkey"] == [("monkey", "monkey*")]
    assert groups["violin"] == [("violin", "violin*")]
    assert rules.ask("banana").hits == [] and rules.ask("monkey").hits == []


def test_a_misspelled_word_is_still_corrected_within_a_small_distance():
    assert ("hybrid",) == rules.index().groups("hybird is")[0][:1]
    assert rules.ask("reputaion zero", game="robotariat").hits[0].entry.game == "robotariat"
    assert rules.index().speller.corrections("xqzvwk") == ()


# ---- ranking ------------------------------------------------------------------------------------

@pytest.mark.parametrize("typed", ["yo-yo", "Yo-Yo", "yo yo", "yoyo", "YO YO friendship"])
def test_hyphenated_names_are_found_however_they_are_typed(typed):
    assert rules.ask(typed).hits[0].entry.id == "rr-friendship-example"


@pytest.mark.parametrize("typed, entry_ids", [("mt rho reroll", {"rb-mt", "rb-reading-mt-rho"}), ("MT-ρ", {"rb-mt"}),
                                              ("a1 5", {"rb-a1-5"}), ("wally st", {"rb-wally-st"}),
                                              ("wallyst", {"rb-wally-st"})])
def test_character_names_with_signs_are_found_typed_plainly(typed, entry_ids):
    # (her re-roll is her rule's and Tablebot's reading of it, both about MT-ρ: either may lead)
    assert rules.ask(typed, game="robotariat").hits[0].entry.id in entry_ids


def test_readings_come_below_the_rule_they_read_unless_the_question_is_about_the_app(own_words_index):
    # the reading scores higher, the rule close to it (at least READING_BELOW of it): the book's rule first
    # (shown on the entries' own words: the asks of the reading answer this question outright)
    hits = own_words_index.ask("can i do the power AND the robot card in one event", game="two-robots").hits
    assert [h.entry.id for h in hits[:2]] == ["tr-the-event-phase", "tr-reading-event-outcomes"]
    assert hits[1].score > hits[0].score >= READING_BELOW * hits[1].score
    # a reading leads only where no rule comes near it (the books are silent on when a new NPC meets its
    # space): the rules it reads follow among the first three
    hits = rules.ask("new npc placed on the board, does it encounter that space right away", game="robotariat").hits
    assert hits[0].entry.id == "rb-reading-round-start-entry"
    assert all(h.score < READING_BELOW * hits[0].score for h in hits[1:] if h.entry.kind != "reading")
    assert "rb-check-for-and-resolve-encounters" in [h.entry.id for h in hits[:3]]
    about_app = rules.ask("how does tablebot work out the search odds", game="raising-robots").hits
    assert about_app[0].entry.kind == "reading"


def test_the_specific_entry_comes_before_the_overview_that_holds_it():
    assert rules.ask("can i use the upgraded energy for search", game="raising-robots").hits[0].entry.id == \
        "rr-search-basic-action-only"
    ids = [h.entry.id for h in rules.ask("mech masters 13 batteries", game="raising-robots").hits]
    assert ids[0] == "rr-card-mech-13-batteries" and ids.index("rr-mech-masters") > 0


@pytest.mark.parametrize("q, section", [
    # the examples that missed
    ("how many ppl can play robotariat", "Overview"),
    ("rewards once the comp tile is flipped", "Competition Card and Tile Overview"),
    ("cop on my space, can i still use it", "Types of Space Activations"),
    ("destroy 1 part instead of 2", "Attack Cards"),
])
def test_players_words_find_the_books_words(q, section):
    assert section in [h.entry.section for h in rules.ask(q).hits[:3]]


def test_a_game_named_in_the_question_comes_first():
    reply = rules.ask("how many ppl can play robotariat", prefer="raising-robots")
    assert reply.prefer == "robotariat" and reply.named_game == "robotariat"
    assert reply.hits[0].entry.game == "robotariat"


def test_the_page_game_comes_first_and_other_games_answers_follow():
    # the Friends book has no frozen stacks: not answered there, Two Robots' follow
    reply = rules.ask("frozen stack", prefer="raising-robots")
    assert not any(h.answers for h in reply.hits if h.entry.game == "raising-robots")
    assert reply.answered and reply.hits[0].entry.id == "tr-frozen-stacks"
    # a hand limit: the base game's fact (hand size has no limit) first, Two Robots' limit of 7 below
    hand = [h.entry.id for h in rules.ask("hand limit", prefer="raising-robots").hits if h.answers]
    assert hand[0] == "rr-fact-resources" and "tr-cleanup-phase" in hand
    setup = rules.ask("setup", prefer="two-robots", limit=30).hits
    games = [h.entry.game for h in setup if h.answers]
    assert games[0] == "two-robots" and games == sorted(games, key=lambda g: g != "two-robots")


def test_a_game_filter_keeps_to_that_game():
    assert {h.entry.game for h in rules.ask("setup", game="robotariat", limit=30).hits} == {"robotariat"}


# ---- the API and the pages ----------------------------------------------------------------------

def test_the_api_reply_carries_score_answers_and_answered(client):
    body = client.get("/api/rules/search", query_string={"q": "frozen stack", "prefer": "two-robots"}).get_json()
    assert body["answered"] is True and body["prefer"] == "two-robots"
    assert all(0 <= r["score"] <= 1 and isinstance(r["answers"], bool) for r in body["results"])
    assert body["results"][0]["game"] == "two-robots" and body["results"][0]["answers"]
    off = client.get("/api/rules/search", query_string={"q": "what is the meaning of life"}).get_json()
    assert off["answered"] is False


def test_a_question_about_no_point_of_play_is_not_sent_to_agree_at_the_table(client):
    # the box's price is in no rulebook, and no table decides it: the page says the books are about play
    html = client.get("/rules", query_string={"q": "how much does the game cost",
                                              "game": "two-robots"}).get_data(as_text=True)
    assert "Not in the rulebooks." in html and "The three rulebooks say how to play" in html
    assert "agree on it" not in html and "Related sections" not in html
    body = client.get("/api/rules/search", query_string={"q": "how much does the game cost", "game": "two-robots"}).get_json()
    assert body["answered"] is False and body["off_the_board"] is True
    # a point of play the books leave open is still the table's to agree on
    body = client.get("/api/rules/search", query_string={"q": "can i trade cards with another player",
                                                         "game": "two-robots"}).get_json()
    assert body["answered"] is False and body["off_the_board"] is False


def test_a_bad_prefer_is_a_400_naming_the_field(client):
    res = client.get("/api/rules/search", query_string={"q": "x", "prefer": "chess"})
    assert res.status_code == 400 and res.get_json()["error"]["fields"][0]["path"] == "prefer"


def test_the_page_says_plainly_when_the_rulebooks_do_not_cover_it(client):
    html = client.get("/rules", query_string={"q": "can i trade cards with another player",
                                              "game": "two-robots"}).get_data(as_text=True)
    assert "Not in the rulebooks." in html and "None of the three rulebooks answers" in html
    assert "where the books are silent" in html
    assert "Related sections (not an answer)" in html
    assert '<li class="rule-hit">' not in html  # nothing shown as an answer


def test_the_page_shows_answers_from_another_game_labelled(client):
    html = client.get("/rules", query_string={"q": "frozen stack", "game": "raising-robots"}).get_data(as_text=True)
    assert "Not in the Raising Robots: Friends rulebook." in html and "Another game's rulebook covers" in html
    assert 'href="/rules/tr-frozen-stacks"' in html and "Two Robots · § Frozen Stacks" in html


@pytest.mark.parametrize("path, game", [
    ("/raising-robots/search", "raising-robots"), ("/robotariat/", "robotariat"), ("/two-robots/factory", "two-robots"),
    ("/games/robotariat", "robotariat"), ("/rules/tr-frozen-stacks", "two-robots"), ("/rules/raising-robots", "raising-robots"),
    ("/", ""), ("/rules", ""),
])
def test_the_header_box_passes_the_game_of_the_page(client, path, game):
    html = client.get(path).get_data(as_text=True)
    form = re.search(r'<form class="search"[^>]*>(.*?)</form>', html, re.S)
    assert form
    if game:
        assert f'data-game="{game}"' in form.group(0)
        assert f'<input type="hidden" name="game" value="{game}">' in form.group(1)
    else:
        assert "data-game" not in form.group(0) and 'name="game"' not in form.group(1)


def test_a_table_page_passes_its_game(client):
    res = client.post("/api/tables", json={"game": "two-robots", "players": 2})
    table_id = res.get_json()["id"]
    html = client.get(f"/t/{table_id}").get_data(as_text=True)
    assert 'data-game="two-robots"' in html
