"""Issue 24: the rules search on its own evaluation set (tests/rules/data/eval, written as players type and
split before tuning), the mechanisms that ranking and "not covered" rest on, and the fragments the
search boxes swap in. The ranking is tuned on all twenty-seven parts (tune, heldout, fresh, both halves of round 4's new
writer: round4a, and round4, reported at the end of round 4; round5, round6 and round7, each reported at the end of
its round; round8 to round26, each reported and then tuned on), each guarded here; its last
figures are measured on eval_round27.toml, which bench/bench_rules_eval.py prints as "round 27 (never tuned)": here
it is only checked to be well formed, never measured (a test on it would make it a tuning set).
"""
from __future__ import annotations

import ast
import gzip
import importlib
import re
import tomllib
from pathlib import Path

import pytest

from assistant import rules
from assistant.rules import RulesIndex
from assistant.rules.index import ANSWERED

index_module = importlib.import_module("assistant.rules.index")  # (assistant.rules.index is also a function)

EVAL = Path(__file__).resolve().parent / "data" / "eval"


def _part(name: str) -> list[dict]:
    return tomllib.loads((EVAL / f"eval_{name}.toml").read_text(encoding="utf-8"))["question"]


# ---- the set itself -----------------------------------------------------------------------------

def test_the_set_is_large_split_and_names_only_entries_that_exist():
    tune, held, fresh = _part("tune"), _part("heldout"), _part("fresh")
    assert len(tune) + len(held) >= 500 and min(len(tune), len(held)) >= 200 and len(fresh) >= 150
    asked = [{(q["game"], q["q"]) for q in part} for part in (tune, held, fresh)]
    assert not (asked[0] & asked[1] or asked[0] & asked[2] or asked[1] & asked[2])
    ids = {e.id for e in rules.index().entries}
    for q in tune + held + fresh:
        assert q["game"] in rules.GAMES and q["q"].strip()
        assert ("ids" in q) != (q.get("covered", True) is False), q
        for key in ("ids", "near", "both"):
            assert set(q.get(key, [])) <= ids, q
    for part in (tune, held, fresh):  # every game, and questions no rulebook answers, in each part
        assert {q["game"] for q in part} == set(rules.GAMES)
        assert sum(not q.get("covered", True) for q in part) >= 30
        assert sum(bool(q.get("off_topic")) for q in part) >= 10


def test_round_four_tuning_half_names_only_entries_that_exist():
    # (8 of its short questions are word for word ones of the earlier parts: the new writer wrote them too)
    half = _part("round4a")
    ids = {e.id for e in rules.index().entries}
    assert len(half) >= 150 and {q["game"] for q in half} == set(rules.GAMES)
    for q in half:
        assert q["game"] in rules.GAMES and q["q"].strip(), q
        assert ("ids" in q) != (q.get("covered", True) is False), q
        for key in ("ids", "near", "both"):
            assert set(q.get(key, [])) <= ids, q


ORDER = ("tune", "heldout", "fresh", "round4a", "round4", "round5", "round6", "round7", "round8", "round9", "round10",
         "round11", "round12", "round13", "round14", "round15", "round16", "round17", "round18", "round19", "round20",
         "round21", "round22", "round23", "round24", "round25", "round26", "round27")


def _well_formed(part: str) -> list[dict]:
    questions = _part(part)
    ids = {e.id for e in rules.index().entries}
    for q in questions:
        assert q["game"] in rules.GAMES and q["q"].strip(), q
        assert ("ids" in q) != (q.get("covered", True) is False), q
        for key in ("ids", "near", "both"):
            assert set(q.get(key, [])) <= ids, q
    return questions


@pytest.mark.parametrize("part, size", [("round4", 150), ("round5", 250), ("round6", 300), ("round7", 280),
                                        ("round8", 330), ("round9", 330), ("round10", 320),
                                        ("round11", 320), ("round12", 300), ("round13", 340),
                                        ("round14", 350), ("round15", 340), ("round16", 340), ("round17", 340), ("round18", 340),
                                        ("round19", 400), ("round20", 400), ("round21", 400),
                                        ("round22", 400), ("round23", 400), ("round24", 400), ("round25", 400), ("round26", 400)])
def test_each_later_part_is_well_formed_every_game_and_new(part, size):
    questions = _well_formed(part)
    earlier = {(q["game"], q["q"]) for name in ORDER[:ORDER.index(part)] for q in _part(name)}
    assert len(questions) >= size and {q["game"] for q in questions} == set(rules.GAMES)
    assert not [q["q"] for q in questions if (q["game"], q["q"]) in earlier], "asked in an earlier part"


def test_the_unseen_part_is_well_formed():
    # (its questions are not compared with the tuned parts' here: the repeats were taken out when it was added,
    # and reading them in a test would be looking at the unseen part)
    assert len(_well_formed("round27")) >= 400


def test_the_unseen_part_is_no_part_tuned_on_and_every_tuned_part_is_guarded():
    tree = ast.parse((Path(__file__).resolve().parents[2] / "bench" / "bench_rules_eval.py").read_text(encoding="utf-8"))
    said = {t.id: ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
            for t in node.targets if isinstance(t, ast.Name) and t.id in ("TUNED", "UNSEEN")}
    guarded = {args[0] for args in test_the_parts_tuned_on_stay_where_they_were_tuned.pytestmark[0].args[1]}
    assert said["UNSEEN"] == ORDER[-1:] and not set(said["UNSEEN"]) & (set(said["TUNED"]) | guarded)
    assert set(said["TUNED"]) == set(ORDER[:-1]) == guarded


@pytest.mark.parametrize("part, top1_min, top3_min, silent_min, answered_min", [
    # regression guards on the parts the ranking was tuned on, a little under their figures at the end of round 12's
    # session (round 11 tuned on; the talk of the table dropped, the shapes no book answers: a peek at hidden cards,
    # playing time, a deck run out, another game's rule, the player's phone, a piece's printed words; readings below a
    # rule only within 0.95 of it; game filter): tune 94.2 % / 99.1 %, not covered 37 of 39, answered 222 of 223;
    # heldout 93.8 % / 99.6 %, 39 of 41, 226 of 226; fresh 90.3 % / 98.7 %, 30 of 32, 154 of 155; round 4's tuning
    # half 92.6 % / 98.5 %, 25 of 32, 136 of 136; round 4's held-out half 89.7 % / 99.3 %, 17 of 21, 135 of 136;
    # round 5's part 94.1 % / 97.5 %, 29 of 36, 234 of 236 (covered questions told "not covered" are guarded too:
    # that was the round-4 writer's commonest miss); round 6's 92.5 % / 97.2 %, 53 of 62, 249 of 252; round 7's
    # 93.1 % / 97.8 %, 56 of 60, 228 of 231; round 8's 88.3 % / 94.7 %, 57 of 71, 258 of 266; round 9's 87.2 % /
    # 96.2 %, 49 of 69, 257 of 265; round 10's 90.2 % / 97.0 %, 51 of 63, 254 of 264; round 11's (unseen at the
    # session's start: 85.8 % / 95.3 %, 61 of 72, 239 of 253) 86.6 % / 96.8 %, 64 of 72, 242 of 253
    ("tune", 0.92, 0.98, 0.92, 0.99),  # (94.2 -> 92.8 % with the sentence model in the second look; most parts rose)
    ("heldout", 0.93, 0.99, 0.94, 0.99),
    ("fresh", 0.89, 0.98, 0.93, 0.99),
    ("round4a", 0.92, 0.98, 0.77, 0.99),
    ("round4", 0.88, 0.98, 0.80, 0.97),  # (122 -> 121 of 136 with the second look learned with round 12; answered
    # 134 -> 133 of 136 with the questions asked before, round 23's session)
    ("round5", 0.93, 0.97, 0.80, 0.99),
    ("round6", 0.92, 0.96, 0.85, 0.98),
    ("round7", 0.92, 0.97, 0.92, 0.98),
    ("round8", 0.87, 0.94, 0.79, 0.96),
    ("round9", 0.86, 0.95, 0.70, 0.96),
    ("round10", 0.89, 0.96, 0.80, 0.95),
    ("round11", 0.86, 0.96, 0.88, 0.95),
    # round 12's, measured unseen twice (after round 11's tuning: 90.0 % / 96.5 %, 48 of 61, 247 of 259; after a
    # review's fixes: 89.6 % / 96.5 %, 48 of 61, 247 of 259), then tuned on
    ("round12", 0.88, 0.96, 0.77, 0.94),
    # round 13's, measured unseen once (84.4 % / 96.4 %, 55 of 68, 272 of 275), then tuned on: 87.3 % / 97.5 %,
    # 58 of 68, 273 of 275
    ("round13", 0.86, 0.97, 0.83, 0.98),
    # round 14's, measured unseen once (89.1 % / 94.6 %, 50 of 76, 284 of 294), then tuned on
    ("round14", 0.88, 0.94, 0.65, 0.96),
    # round 15's, measured unseen at the end of its session (91.4 % / 96.4 %, 57 of 72, 272 of 279), then tuned on
    ("round15", 0.90, 0.96, 0.78, 0.96),
    # rounds 16 and 17, measured unseen at the end of round 17's session (93.1 % / 96.9 %, 91 of 107 said, 250 of
    # 259; 92.7 % / 97.7 %, 89 of 106 said, 256 of 262: "said" counts a first answer printed nowhere, this test
    # the answered flag alone), then tuned on
    ("round16", 0.92, 0.96, 0.86, 0.95),
    ("round17", 0.91, 0.97, 0.73, 0.96),
    # round 18's, measured unseen at the start of round 19's session (91.9 % / 98.1 %, 73 of 96 said, 61 on the
    # answered flag alone, 253 of 258), then tuned on
    ("round18", 0.91, 0.97, 0.62, 0.97),
    # round 19's, measured unseen at the end of its session (89.5 % / 95.7 %, 82 of 131 said, 83 on the answered
    # flag alone, 288 of 304), then tuned on
    ("round19", 0.89, 0.95, 0.63, 0.94),
    # round 20's, measured unseen at the start of round 21's session (88.2 % / 95.8 %, 111 of 135 said, 110 on the
    # answered flag alone, 276 of 287), then tuned on
    ("round20", 0.87, 0.95, 0.80, 0.95),
    # round 21's, measured unseen at the end of its session (92.4 % / 97.8 %, 118 of 137 said, 116 on the answered
    # flag alone, 266 of 275), then tuned on
    ("round21", 0.91, 0.97, 0.83, 0.96),
    # round 22's, measured unseen at the end of its session (92.0 % / 98.3 %, 112 of 135 said, 107 on the answered
    # flag alone, 283 of 289), then tuned on
    ("round22", 0.91, 0.97, 0.78, 0.96),
    # round 23's, measured unseen at the end of its session (93.1 % / 97.6 %, 104 of 128 said, 97 on the answered
    # flag alone, 283 of 288), then tuned on
    ("round23", 0.92, 0.97, 0.75, 0.97),
    # round 24's, measured unseen at the end of its session (92.5 % / 97.3 %, 130 of 144 said, 129 on the answered
    # flag alone, 282 of 293), then tuned on
    ("round24", 0.92, 0.97, 0.89, 0.94),
    # round 25's, measured unseen at the start and the end of its session (93.9 % / 97.4 %, 131 of 149 said, 131 on
    # the answered flag alone, 292 of 311), then tuned on
    ("round25", 0.93, 0.97, 0.87, 0.93),
    # round 26's, measured unseen twice in round 25's session (95.2 % / 98.4 %, 133 of 145 said, 133 on the answered
    # flag alone, 293 of 312), then tuned on
    ("round26", 0.95, 0.98, 0.91, 0.93),
])
def test_the_parts_tuned_on_stay_where_they_were_tuned(part, top1_min, top3_min, silent_min, answered_min, monkeypatch):
    # (the part's own questions left out of the questions asked before, asked.py: it is measured as the bench does)
    monkeypatch.setattr(rules.index()._asked, "left_out", part)
    top1 = top3 = answered = silent_ok = 0
    covered = [q for q in _part(part) if q.get("covered", True)]
    silent = [q for q in _part(part) if not q.get("covered", True)]
    for q in covered:
        reply = rules.ask(q["q"], game=q["game"], limit=3)
        got = [h.entry.id for h in reply.hits]
        top1 += bool(got) and got[0] in q["ids"]
        top3 += any(i in q["ids"] for i in got)
        answered += reply.answered
    for q in silent:
        silent_ok += not rules.ask(q["q"], game=q["game"]).answered
    assert top1 / len(covered) >= top1_min and top3 / len(covered) >= top3_min
    assert silent_ok / len(silent) >= silent_min and answered / len(covered) >= answered_min


# ---- honest "not covered" -----------------------------------------------------------------------

@pytest.mark.parametrize("q, game, honest", [
    # what a card does, where the only entry about it says its text is not printed (Gambler names the card)
    ("what does sliding scale do", "robotariat", "rb-unverified-cards"),
    ("what does weapons jammed do", "two-robots", "tr-unverified-event-effects"),
    # the honest entry names the card only in its text, but holds the whole question
    ("what does precision strike do", "two-robots", "tr-unverified-event-effects"),
    # a name and "effect" alone asks for its printed words too
    ("weapons jammed effect", "two-robots", "tr-unverified-event-effects"),
])
def test_a_card_text_no_source_prints_is_not_covered_with_the_honest_entry_first(q, game, honest):
    reply = rules.ask(q, game=game)
    assert not reply.answered
    assert reply.hits[0].entry.id == honest


def test_a_value_an_entry_says_is_not_printed_is_an_honest_answer():
    reply = rules.ask("how many x faces does the black die have", game="robotariat")
    assert reply.answered and reply.unprinted and reply.hits[0].entry.id == "rb-unverified-die-faces"
    assert not rules.ask("what does a cop do when it meets posters", game="robotariat").unprinted


@pytest.mark.parametrize("q, game", [
    ("which inventor is the strongest", "raising-robots"),
    ("is it better to take the 7 vp or the friendship draw", "raising-robots"),
    ("best character to pick", "robotariat"),
    # what usually happens, an opening: the table's experience, which no book gives
    ("which salvager usually wins", "two-robots"),
    ("typically how many vp does the winner get", "raising-robots"),
    ("what should my opener be as bursar", "robotariat"),
])
def test_strategy_opinions_are_not_covered(q, game):
    assert not rules.ask(q, game=game).answered


def test_advice_the_book_or_tablebot_gives_still_answers_a_strategy_question():
    # the book's own tip (go for competitions early) and Tablebot's reading of how it ranks moves
    assert rules.ask("should we go for competitions early", game="raising-robots").hits[0].entry.id == \
        "rr-friendships-only-from-competitions"
    assert rules.ask("should i reroll with mt-rho", game="robotariat").answered


def test_a_value_of_a_thing_only_a_worked_example_names_is_not_covered():
    # Zeus and Hallyu are robots the Finite Loops example names in passing: their printed VP is in no entry
    for q in ("how many vp is zeus worth", "what's the vp on the hallyu robot"):
        assert not rules.ask(q, game="raising-robots").answered, q
    # ... but how they play in that example is what the example answers
    reply = rules.ask("bingo wants to activate hallyu again, legal?", game="raising-robots")
    assert reply.answered and {"rr-finite-loops-example", "rr-important-one-activation-per-robot"} & {
        h.entry.id for h in reply.hits[:1]}


@pytest.mark.parametrize("q", ["what time is it", "what is 2 plus 2", "is it going to rain", "how old are you"])
def test_frame_words_and_sums_answer_nothing(q):
    for game in (None, *rules.GAMES):
        assert not rules.ask(q, prefer=game).answered, (q, game)


def test_a_named_game_is_searched_alone():
    reply = rules.ask("is there an expansion for robotariat", prefer="raising-robots")
    assert not reply.answered and {h.entry.game for h in reply.hits} <= {"robotariat"}


# ---- ranking -------------------------------------------------------------------------------------

def ids(q: str, game: str, n: int = 3) -> list[str]:
    return [h.entry.id for h in rules.ask(q, game=game, limit=n).hits]


def test_a_specific_entry_leads_only_when_the_question_names_what_it_is_about():
    # the inventor's own section names Confucius; the overview of the six only lists him
    assert ids("can confucius be upgraded", "raising-robots")[0] == "rr-important-confucius-no-upgrade"
    # nothing in the question is what the "basic action only" note is about: the Search rule itself
    assert ids("how does the search action work", "raising-robots")[0] in ("rr-search", "rr-new-actions")
    assert ids("how does the search action work", "raising-robots", 2).count("rr-search") == 1


def test_the_name_of_a_card_character_or_inventor_leads_to_its_own_entry():
    # the Defense Cards section holds "out of turn"; the question names the card
    assert ids("homing missiles out of turn", "two-robots")[0] == "tr-card-homing-missiles"


def test_a_longer_run_of_the_question_in_a_specific_entry_leads_its_overview():
    # "one per row" is the note's keyword; its overview's title has only "per row"
    assert ids("susan tokens one per row", "raising-robots")[0] == "rr-important-susan-one-token-per-row"


def test_a_letter_of_a_series_is_a_name_not_a_dropped_word():
    idx = rules.index()
    assert ("option b",) in idx.groups("option b what do i need")
    assert ids("option b what do i need", "two-robots")[0] == "tr-event-b-active-robot-card"
    assert ("a grade",) in idx.groups("how much is each A grade worth at the end")
    # lowercase "a" before a word is the article; and "a robot" is no series
    assert all("a grade" not in g for g in idx.groups("do i get a grade for it"))
    assert all("a robot" not in g for g in idx.groups("can A robot move twice"))


def test_the_second_rule_is_about_what_the_first_result_is_not(own_words_index, monkeypatch):
    # on the entries' own words the first result is the Expo card; what the question adds (paying drops the count)
    # is the IMPORTANT note, shown beside it (with the asks, the note comes first: it is what is asked; so it does
    # where questions asked before that the note answered come near)
    monkeypatch.setattr(index_module, "ASKED_RANK_ON", False)
    q = "paid for expo and now i have less than 9 gears, still ok"
    got = [h.entry.id for h in own_words_index.ask(q, game="raising-robots", limit=3).hits]
    assert got[0] == "rr-card-expo-9-of-one" and "rr-important-criteria-met-when-claiming" in got
    assert set(ids(q, "raising-robots")[:2]) == {"rr-card-expo-9-of-one", "rr-important-criteria-met-when-claiming"}


def test_a_question_for_the_whole_list_gets_the_overview():
    assert ids("what are the mech masters cards", "raising-robots")[0] == "rr-mech-masters"
    assert ids("mech masters 13 batteries", "raising-robots")[0] == "rr-card-mech-13-batteries"


@pytest.mark.parametrize("q, game, entry_id", [
    ("can i use a power twice", "two-robots", "tr-event-a-power-card"),         # twice: once per game
    ("clockwise or counterclockwise turns", "robotariat", "rb-set-up-first-player"),
    ("can funds go below zero", "robotariat", "rb-reading-game-end-moment"),     # zero: 0
    ("why turn dupes sideways", "two-robots", "tr-duplicate-parts"),
    ("friendship rejects where do they go", "raising-robots", "rr-friendship-deck-discard"),
    ("eor abilities which first", "raising-robots", "rr-important-round-end-order"),
    ("where does the triangle start", "robotariat", "rb-set-up-npc-entry"),
    ("what happens to the friendship cards i didnt pick", "raising-robots", "rr-friendship-deck-discard"),
])
def test_the_lexicon_and_phrases_find_the_rule(q, game, entry_id):
    assert ids(q, game)[0] == entry_id


def test_a_question_of_two_rules_shows_both():
    got = ids("uberbot's doubled posters and a cop arrives, does it get suspicious", "robotariat")
    assert "rb-uberbot" in got and {"rb-encounter-row-four-or-more", "rb-reading-encounters",
                                    "rb-human-oppressors"} & set(got)


# ---- the fragments the search boxes swap in ------------------------------------------------------

def test_the_answer_fragment_is_the_pages_answer(client):
    query = {"q": "can i use the upgraded energy for search", "game": "raising-robots"}
    page = client.get("/rules", query_string=query).get_data(as_text=True)
    res = client.get("/rules/answer", query_string=query)
    part = res.get_data(as_text=True)
    assert res.status_code == 200 and "<html" not in part and "<body" not in part
    assert 'id="rules-status"' in part and 'href="/rules/rr-search-basic-action-only"' in part
    inner = page.split('<div id="rules-answer" aria-live="polite">', 1)[1].split("\n</div>\n<h2>", 1)[0]
    assert inner.strip() == part.strip()


def test_the_answer_fragment_says_not_covered_and_not_printed(client):
    silent = client.get("/rules/answer", query_string={"q": "can i trade cards with another player",
                                                       "game": "two-robots"}).get_data(as_text=True)
    assert "Not in the rulebooks." in silent and "Related sections (not an answer)" in silent
    unprinted = client.get("/rules/answer", query_string={"q": "how many x faces does the black die have",
                                                          "game": "robotariat"}).get_data(as_text=True)
    assert "Not printed in the rulebook." in unprinted and 'href="/rules/rb-unverified-die-faces"' in unprinted
    # not covered, the nearest entry saying the text asked for is printed in no source: said so, not left to the table
    text = client.get("/rules/answer", query_string={"q": "what do susans tokens say on the b side",
                                                     "game": "raising-robots"}).get_data(as_text=True)
    assert "Not printed in the rulebooks." in text and "agree on it" not in text
    assert text.index('href="/rules/rr-unverified-inventor-pieces"') < text.index('href="/rules/rr-susan-complexity-hard"')
    suggest = client.get("/rules/suggest", query_string={"q": "what do susans tokens say on the b side",
                                                         "game": "raising-robots"}).get_data(as_text=True)
    assert "Not printed in the rulebooks; what is known:" in suggest


def test_the_suggest_fragment_lists_the_page_games_answers_or_says_not_covered(client):
    html = client.get("/rules/suggest", query_string={"q": "frozen stak", "game": "raising-robots"}).get_data(as_text=True)
    assert "Not in the Raising Robots: Friends rulebook; another game" in html
    assert html.count("<li><a ") == 5 and "Two Robots · § Frozen Stacks" in html
    silent = client.get("/rules/suggest", query_string={"q": "can players trade cards with each other",
                                                        "game": "robotariat"}).get_data(as_text=True)
    assert "Not in the rulebooks. Related sections:" in silent
    assert client.get("/rules/suggest", query_string={"q": ""}).get_data(as_text=True).strip() == ""


def test_no_script_renders_results_or_keeps_the_kinds_map():
    script = (Path(__file__).resolve().parents[2] / "static" / "js" / "rules.js").read_text(encoding="utf-8")
    assert "Worked example" not in script and "Raising Robots: Friends" not in script
    assert "/rules/answer" in script and "/rules/suggest" in script


@pytest.mark.parametrize("url", ["/rules/raising-robots", "/rules/robotariat", "/rules/two-robots", "/rules?q=juice",
                                 "/rules/rr-competition-example"])
def test_every_rules_page_with_its_files_fits_the_page_budget(client, url):
    # the budget of tests/serving/test_page_budget.py (150 KB raw with its files, 50 KB as sent)
    r = client.get(url, headers={"Accept-Encoding": "gzip"})
    sent = r.get_data()
    html = gzip.decompress(sent) if r.headers.get("Content-Encoding") == "gzip" else sent
    raw, gz = len(html), len(sent)
    for file in set(re.findall(rb'(?:src|href)="(/static/[^"]+)"', html)):
        f = client.get(file.decode(), headers={"Accept-Encoding": "gzip"})
        body = f.get_data()
        raw += len(gzip.decompress(body)) if f.headers.get("Content-Encoding") == "gzip" else len(body)
        gz += len(body)
    assert raw <= 150 * 1024 and gz <= 50 * 1024, (url, raw // 1024, gz // 1024)


def test_a_four_letter_word_is_corrected_only_for_a_dropped_letter():
    speller = rules.index().speller
    assert "stack" in speller.corrections("stak")
    assert speller.corrections("lego") == ()  # not "legs": a name, not a slip
    assert not rules.ask("lego robot instructions").answered


def test_a_public_fact_saying_card_texts_are_unknown_is_the_honest_entry_for_one():
    reply = rules.ask("what does the intruder landing card do", game="two-robots")
    assert not reply.answered and reply.hits[0].entry.id == "tr-fact-component-counts"


# ---- round 4's tuning half: the new writer's voice ------------------------------------------------

@pytest.mark.parametrize("q, game", [
    ("is william too strong?", "raising-robots"),          # a verdict on balance is an opinion
    ("alice smith is broken right?", "robotariat"),
    ("is the samurai op", "two-robots"),
])
def test_a_verdict_on_balance_is_not_covered(q, game):
    assert not rules.ask(q, game=game).answered


def test_co_op_is_no_verdict():
    assert rules.ask("is robotariat co-op", game="robotariat").answered


@pytest.mark.parametrize("q, game, honest", [
    ("adjust traffic reports card effect?", "robotariat", "rb-unverified-cards"),
    ("samurai katana ability text", "two-robots", "tr-unverified-salvager-abilities"),
])
def test_a_card_effect_or_ability_text_asked_by_name_is_not_covered(q, game, honest):
    reply = rules.ask(q, game=game)
    assert not reply.answered and reply.hits[0].entry.id == honest


def test_a_value_of_a_name_no_entry_has_is_not_covered():
    assert not rules.ask("how many VP is the Oz robot worth", game="raising-robots").answered
    # a name said beside what a robot card prints is a robot card's: the entry saying no source lists them leads
    for q in ("how much does zeus cost to build", "the robot selfie, what does it do", "how many vp is the oz robot worth"):
        reply = rules.ask(q, game="raising-robots")
        assert not reply.answered and reply.hits[0].entry.id == "rr-unverified-robot-cards", q
    # ... not a word no entry holds said elsewhere (slang, "diff")
    assert rules.ask("whats the diff between criteria and cost on a competition",
                     game="raising-robots").hits[0].entry.id != "rr-unverified-robot-cards"
    # a name the entries have still answers
    assert rules.ask("how many vp is a grade worth", game="raising-robots").answered


def test_a_slip_in_an_inflected_word_is_mended_from_its_stem():
    speller = rules.index().speller
    assert speller.corrections("serching") == ("search",)
    assert ids("serching - does the upgraded action energy count toward my number",
               "raising-robots")[0] == "rr-search-basic-action-only"


def test_the_frame_of_what_a_player_heard_or_feels_weighs_nothing():
    assert all("swears" not in g and "bother" not in g
               for g in rules.index().groups("my friend swears there was an office drone objective, why bother"))
    reply = rules.ask("my friend swears there was an office drone objective", game="robotariat")
    assert reply.answered and reply.hits[0].entry.id == "rb-fact-dropped-objectives"


def test_the_particle_of_a_phrasal_verb_costs_nothing_to_an_entry_without_it():
    reply = rules.ask("is there a way to earn reputation back once its gone", game="robotariat")
    assert reply.answered and reply.hits[0].entry.id == "rb-reputation"
    # "runs out" is the topic, not a particle: no rule says what happens when the action deck runs out
    assert not rules.ask("what happens when the action deck runs out", game="two-robots").answered


@pytest.mark.parametrize("q, game, answered", [
    ("what happens when the robot deck runs out on a normal draw", "raising-robots", False),
    ("what if the upgrade deck runs out of cards", "robotariat", False),
    ("friendship deck ran out", "raising-robots", True),   # the one deck the book says what to do for
])
def test_a_named_deck_running_out_is_answered_only_by_an_entry_about_that_deck(q, game, answered):
    assert rules.ask(q, game=game).answered is answered


@pytest.mark.parametrize("q, game, entry_id", [
    ("dt as a wild?", "raising-robots", "rr-fact-wild"),                                   # dt: duct tape
    ("scattershot can i aim it at just one person", "two-robots", "tr-clarification-canceled-multiplayer"),
])
def test_round_four_slang_finds_and_answers(q, game, entry_id):
    reply = rules.ask(q, game=game)
    assert reply.answered and reply.hits[0].entry.id == entry_id


def test_a_long_situation_two_rules_are_about_is_answered_by_both(own_words_index):
    q = "both cops move onto my spot on one roll - do we pay twice?"
    reply = own_words_index.ask(q, game="robotariat")
    assert reply.answered and all(h.answers for h in reply.hits[:2])
    assert {h.entry.game for h in reply.hits[:2]} == {"robotariat"}
    # a short question that no entry is about stays not covered, whatever two entries hold its words
    assert not rules.ask("can i give a battery to a friend at the table", game="raising-robots").answered


@pytest.mark.parametrize("said, means", [
    ("civvy", "civilian"), ("eog", "end of game"), ("dups", "duplicate"), ("atk", "attack"), ("salvs", "salvager"),
    ("upg", "upgrade"),
])
def test_shortened_table_words_mean_the_books_words(said, means):
    assert any(means in g for g in rules.index().groups(f"{said} rules"))


# ---- round 5: the new writer's words, and "not covered" by what the result is about -----------------------

@pytest.mark.parametrize("said, means", [("drew", "draw"), ("took", "take"), ("paid", "pay"), ("chosen", "choose")])
def test_a_past_tense_stemming_does_not_reach_is_the_books_verb(said, means):
    assert any(means in g and said in g for g in rules.index().groups(f"i {said} it"))


@pytest.mark.parametrize("q, game, entry_id", [
    ("comps, how do they work in a nutshell", "raising-robots", "rr-competitions-friendships"),  # the answer's form
    ("setup checklist for robotariat", "robotariat", "rb-set-up"),
    ("just took a friendship card, when does it kick in", "raising-robots", "rr-friendship-timing"),
])
def test_the_frame_of_the_answer_and_kick_in_find_and_answer(q, game, entry_id, own_words_index):
    # (on the entries' own words: the frame words are dropped and the rest finds the entry first; with the asks,
    # the second look may put a sibling first, as it does the Completion Criteria for "comps")
    reply = own_words_index.ask(q, game=game)
    assert reply.answered and reply.hits[0].entry.id == entry_id
    reply = rules.ask(q, game=game)
    assert reply.answered and entry_id in [h.entry.id for h in reply.hits[:3]]


def test_a_result_about_most_of_the_question_answers_a_little_below_the_threshold(own_words_index):
    idx = own_words_index
    q = "why bother keeping dupes"
    parsed = idx.parse(q)
    scored = idx.score(q, parsed, "two-robots")
    top = max(scored.score, key=scored.score.get)
    assert scored.score[top] < ANSWERED  # its score alone says "not covered"
    reply = idx.ask(q, game="two-robots")
    assert reply.answered and reply.hits[0].entry.id == "tr-duplicate-parts"
    # ... never for an opinion, nor by the completion of a word no entry uses ("rain": "rainbow")
    assert not rules.ask("best character for beginners", game="robotariat").answered
    assert not rules.ask("is it going to rain").answered


@pytest.mark.parametrize("q, game", [
    ("can i give a battery to a friend at the table", "raising-robots"),
    ("can i give a part to my teammate", "two-robots"),
    ("can i lend robot cards to my partner", "raising-robots"),
])
def test_a_thing_passed_between_players_is_not_covered(q, game):
    assert not rules.ask(q, game=game).answered


def test_a_named_ones_own_ability_asks_its_printed_text():
    reply = rules.ask("scavenger's special ability?", game="two-robots")
    assert not reply.answered and reply.hits[0].entry.id == "tr-unverified-salvager-abilities"
    # "special ability" alone is the rule of when abilities are used
    assert rules.ask("salvager special ability when can i use it", game="two-robots").answered


# ---- round 6: question shapes no entry answers ---------------------------------------------------------------

@pytest.mark.parametrize("q, game", [
    ("which robot is the easiest to build", "raising-robots"),
    ("is the saboteur the hardest objective", "robotariat"),
    ("most powerful salvager", "two-robots"),
])
def test_a_verdict_on_the_pieces_is_not_covered_even_beside_advice(q, game):
    # (Tablebot's advice entries rank a player's moves; none ranks the pieces by strength or difficulty)
    assert not rules.ask(q, game=game).answered


def test_one_piece_weighed_against_another_is_a_verdict_but_a_stronger_option_is_a_rule():
    assert not rules.ask("is uberbot stronger than alice smith", game="robotariat").answered
    assert not rules.ask("samurai or katana, which one is stronger", game="two-robots").answered
    # the Sabotage space's own stronger option, paid with Reputation ("Space Activations: Sabotage")
    reply = rules.ask("can i pay rep for the stronger sabotage option", game="robotariat")
    assert reply.answered and reply.hits[0].entry.id == "rb-activation-sabotage"


def test_a_printed_text_asked_as_words_is_not_covered():
    assert rules.index().parse("what does the sliding scale card actually say").asks_text
    assert rules.index().parse("exact wording of weapons jammed").asks_text
    # ... but what the rulebook says is a rule
    assert not rules.index().parse("what does the rulebook say about ties").asks_text


def test_the_honest_entry_is_found_by_the_thing_whose_text_is_asked():
    # the words after "do" are no part of the card's name: the honest entry holds the name, which is enough
    reply = rules.ask("what does precision strike do to the other player", game="two-robots")
    assert not reply.answered and reply.hits[0].entry.id == "tr-unverified-event-effects"


def test_a_named_characters_story_is_not_covered_but_the_bios_entry_is_shown():
    for q in ("the story behind uberbot", "alice smith's backstory"):
        reply = rules.ask(q, game="robotariat")
        assert not reply.answered and reply.hits[0].entry.id == "rb-character-bios", q
    reply = rules.ask("character bios", game="robotariat")  # what the bios are is answered
    assert reply.answered and reply.hits[0].entry.id == "rb-character-bios"


def test_handing_a_card_to_a_buddy_is_a_thing_passed_between_players():
    assert rules.index().parse("can i hand my gear to my mate").asks_transfer
    assert not rules.index().parse("how many cards can i have in hand to start").asks_transfer
    # the one it goes to first ("hand my partner a card"), or a relative
    assert rules.index().parse("can i give my teammate a card from my hand").asks_transfer
    assert rules.index().parse("can i lend my brother a battery").asks_transfer
    # a Friend card is no friend handed something
    assert not rules.index().parse("what does giving my friend card a token do").asks_transfer


@pytest.mark.parametrize("q", ["in 2v2 can i hand my partner a part card he needs",
                               "can i give my teammate an attack card in a team game"])
def test_passing_cards_to_a_partner_is_not_in_the_teams_variant(q):
    # Two Robots, Variations: four players may play two teams of two, and the book says nothing more of them
    reply = rules.ask(q, game="two-robots")
    assert not reply.answered and {"tr-variation-teams", "tr-reading-teams"} & {h.entry.id for h in reply.hits[:3]}


@pytest.mark.parametrize("q", ["2v2: can i protect my teammates factory with my defense card",
                               "in teams can my partner put a part into my factory",
                               "playing 2v2, can partners look at each others hands",
                               "in 2v2 can we trade each other cards",
                               "can partners give each other power cards"])
def test_partners_helping_each_other_is_not_in_the_teams_variant(q):
    assert not rules.ask(q, game="two-robots").answered


def test_what_an_attack_does_to_a_partner_is_tablebots_reading_and_a_partner_elsewhere_is_any_player():
    # tr-reading-teams: an Attack card hits a partner's parts only when it has nothing else to hit
    reply = rules.ask("2v2 does my attack hit my partner", game="two-robots")
    assert reply.answered and reply.hits[0].entry.id == "tr-reading-teams"
    # Robotariat has no teams: showing one's Secret Objective to a "partner" asks what is secret
    reply = rules.ask("can i show my objective card to my partner", game="robotariat")
    assert reply.answered and reply.hits[0].entry.id in {"rb-secret-objectives", "rb-set-up-secret-objectives"}


@pytest.mark.parametrize("q, game, first", [
    # the shapes no book answers share words with rules that do: each stays its rule (a review's probe)
    ("do i have to leave the game when im out of health", "two-robots", "tr-reading-damage-power-card"),
    ("does the civilian have to leave the space when it meets the cop", "robotariat", "rb-encounter-row-human-oppressor"),
    ("is it too hard for a 6 year old? whats the simpler variant", "two-robots", "tr-variation-simpler-game"),
    ("do i have to discard even tho im under 7 cards at cleanup", "two-robots", "tr-cleanup-phase"),
    ("kickstarter version had 4 starting rep right?", "robotariat", "rb-fact-starting-reputation-older"),
    ("how many robots with microchips do i need for the icon", "raising-robots", "rr-icon-microchip-robots"),
    ("is the activation phase optional, can i just move", "robotariat", "rb-player-turn"),
    ("can i look at my partner's discard pile", "two-robots", "tr-clarification-public-info"),
    ("move the masses lets me move a civilian to another spot right", "robotariat", "rb-activation-move-the-masses"),
    ("sabotage card bigger effect, do we lose rep cubes or can we use spark", "robotariat", "rb-activation-sabotage"),
    ("does every competition give a friend", "raising-robots", "rr-friendships-only-from-competitions"),
    ("with mt rho do i redo both dice or just one", "robotariat", "rb-mt"),
    ("if a cop and civilian meet which one is stronger", "robotariat", "rb-encounter-row-human-oppressor"),
    ("can i move an upgrade token to another slot after placing it", "raising-robots", "rr-fact-upgrade-tokens"),
    # round 22's session: "how much does it cost" and "how much is the game end bonus" are the games' values, another
    # expansion's cards a module of setup; a forfeit of a thing and a longer game's own setting are rules too (an
    # answered reply is never off the board)
    ("how much does it cost to unlock a green token", "raising-robots", "rr-fact-upgrade-tokens"),
    ("how much is the game end bonus for a full column", "raising-robots", "rr-icon-full-columns"),
    ("how much does the game need in spark for 3 players", "robotariat", "rb-fact-spark-target"),
    ("can i mix the friends modules with another expansion", "raising-robots", "rr-introduction"),
    ("do i forfeit my draw if my hand is at 7", "two-robots", "tr-cleanup-phase"),
    ("how many spark do we need for a longer game with 3 players", "robotariat", "rb-fact-spark-target"),
])
def test_the_games_own_leaving_losing_skipping_and_moving_are_still_the_rule_asked(q, game, first, monkeypatch):
    # (the shapes' counter-cases: the questions asked before, asked.py, are tested on their own)
    monkeypatch.setattr(index_module, "ASKED_ON", False)
    reply = rules.ask(q, game=game)
    assert reply.answered and reply.hits[0].entry.id == first, q


@pytest.mark.parametrize("q, game", [
    ("can two players pick the same salvager", "two-robots"),          # Setup: each player picks a Salvager
    ("can 2 of us be the same character", "robotariat"),              # Set Up: each person selects a character
    ("can two of us play as the same inventor", "raising-robots"),
    ("we are only 2, can one player run two characters", "robotariat"),   # Overview: 3 to 5 players
    ("we own 2 copies of the game, can 8 people play", "two-robots"),
    ("can we combine two boxes for 7 players", "two-robots"),
])
def test_two_players_in_one_role_is_in_no_book(q, game):
    _not_answered_on_its_page(q, game)


def _not_answered_on_its_page(q: str, game: str) -> None:
    """Not answered with the game's filter nor with its game first."""
    for way in ({"game": game}, {"prefer": game}):
        assert not rules.ask(q, **way).answered, (q, way)


@pytest.mark.parametrize("q, game", [
    ("can we negotiate, i leave expo to you and you leave think tank to me", "raising-robots"),
    ("can i bribe another player with a part so he doesnt attack me", "two-robots"),
    ("can i mulligan my opening hand", "two-robots"),
    ("my first three cards are junk, can i redraw them", "two-robots"),
])
def test_deals_between_players_and_a_first_hand_drawn_again_are_in_no_book(q, game):
    _not_answered_on_its_page(q, game)


@pytest.mark.parametrize("q, game", [
    ("is raising robots balanced for 2 players", "raising-robots"),   # a verdict on the game at a player count
    ("are the salvagers balanced", "two-robots"),
    ("can i show everyone my hand of robot cards", "raising-robots"),  # one's own hand shown at will
    ("can i look at somebody elses robot cards", "raising-robots"),  # round 22's session: another's hand
])
def test_the_games_balance_and_a_hand_shown_at_will_are_in_no_book(q, game):
    assert not rules.ask(q, game=game).answered, q


def test_what_a_book_says_of_anothers_hand_still_answers_a_peek_at_it():
    # Two Robots, Clarifications: the size of a hand is public (and so, not the cards in it)
    reply = rules.ask("can i peek at anyone elses hand", game="two-robots")
    assert reply.answered and reply.hits[0].entry.id == "tr-clarification-public-info"


def test_a_cards_own_balance_and_showing_an_objective_are_still_answered():
    assert rules.ask("cold fusion balance, what happens on a tie", game="two-robots").hits[0].entry.id == \
        "tr-clarification-cold-fusion-balance"
    reply = rules.ask("am i allowed to show my objective card to the others", game="robotariat")
    assert reply.answered and reply.hits[0].entry.id in {"rb-secret-objectives", "rb-set-up-secret-objectives"}


def test_a_card_dealt_is_still_the_rule_asked():
    # "deal" is also the cards dealt at setup, and "what's the deal with" a question's frame
    assert rules.ask("do we deal out a starting hand", game="two-robots").answered
    assert rules.ask("whats the deal with the b side of the tiles", game="raising-robots").answered


@pytest.mark.parametrize("q", ["can i just discard cards whenever i want",
                               "can i toss a card at cleanup even though im under 7",
                               "can i discard junk mid turn to dig for a head"])
def test_a_discard_of_ones_own_will_is_in_no_book(q):
    # Two Robots discards down to the hand limit at Cleanup, or as a card's cost: of a free discard it says nothing
    assert not rules.ask(q, game="two-robots").answered


@pytest.mark.parametrize("q, game", [
    ("can i shift a part from my solar stack over to another stack", "two-robots"),   # Stacking Part Cards
    ("can a built robot slide to a different slot later", "raising-robots"),
    ("can i move a part from one of my piles to another one", "two-robots"),
])
def test_moving_what_is_laid_out_is_in_no_book(q, game):
    for way in ({"game": game}, {"prefer": game}, {}):
        assert not rules.ask(q, **way).answered, (q, way)


def test_a_robot_of_any_row_or_a_placed_token_moved_is_still_the_rule_asked():
    for q, first in (("can i move my wild row robot to another row later", "rr-robot-cards-for-any-phase-row"),
                     ("once an upgrade token is placed can i move it to another robot", "rr-fact-upgrade-tokens")):
        reply = rules.ask(q, game="raising-robots")
        assert reply.answered and reply.hits[0].entry.id == first, q


@pytest.mark.parametrize("q, game", [
    ("can we skip the npc turn this round", "robotariat"),       # Round Order: the NPC turn follows every round
    ("can i skip the draw phase, my hand is fine", "two-robots"),  # Turn Overview: draw, play, event, cleanup
    ("can i hold my turn and go after bob", "robotariat"),
])
def test_leaving_out_a_step_of_the_turn_is_in_no_book(q, game):
    assert not rules.ask(q, game=game).answered


def test_a_step_left_out_as_a_condition_is_still_the_rule_asked():
    # Play Phase: three actions, whatever the Event phase does
    reply = rules.ask("can i play 4 cards if i skip my event", game="two-robots")
    assert reply.answered and reply.hits[0].entry.id == "tr-play-phase"


def test_discarding_down_to_the_hand_limit_is_still_the_rule_asked():
    reply = rules.ask("how many cards do i discard at cleanup", game="two-robots")
    assert reply.answered and "tr-cleanup-phase" in [h.entry.id for h in reply.hits[:3]]


@pytest.mark.parametrize("q, game, scope", [
    ("what did the propaganda deck do in the prototype", "robotariat", "rb-scope-table"),
    ("we have a kickstarter promo robot, how does it work", "two-robots", "tr-scope-table"),
    ("is there a promo inventor", "raising-robots", "rr-scope-other-boxes"),
])
def test_a_prototype_or_a_promo_piece_is_not_covered_with_the_books_scope_entry_first(q, game, scope):
    # no rulebook speaks of playtest prototypes or promotional pieces; each scope entry says so
    _not_covered_with_first(q, game, scope)


def test_the_value_of_a_robot_only_a_worked_example_is_about_is_not_covered():
    # Hallyu and Zeus are robots of the Finite Loops Example: their VP and costs are printed in no entry
    for q in ("how many vp is hallyu worth", "what does zeus cost"):
        assert not rules.ask(q, game="raising-robots").answered, q
    # ... what they do in the example is answered, and so is a value of a thing entries are about
    assert rules.ask("hallyu activates bingo, can bingo activate hallyu back", game="raising-robots").answered
    assert rules.ask("how much does a gear cost", game="raising-robots").answered


def test_table_spellings_a_slip_from_a_plural_a_word_without_vowels_initials_and_texting_stop_words():
    idx = rules.index()
    speller = idx.speller
    assert speller.corrections("missle") == ("missile",)   # one slip from the singular of "Homing Missiles"
    assert speller.corrections("srch") == ("search",)      # typed without its vowels
    assert speller.corrections("pzzl") == ()                # ... but only what an entry's word reads so
    assert any("move the masses" in g for g in idx.groups("mtm space"))  # Move the Masses' initials
    assert idx.groups("thru") == []                         # "through", a stop word
    reply = rules.ask("can i use homing missle vs an attack", game="two-robots")
    assert reply.answered and reply.hits[0].entry.id == "tr-card-homing-missiles"
    reply = rules.ask("what does the mtm space let me move", game="robotariat")
    assert reply.answered and reply.hits[0].entry.id == "rb-activation-move-the-masses"


def test_another_copy_of_a_part_is_a_duplicate():
    assert any("duplicate" in g for g in rules.index().groups("drew another head"))
    assert not any("duplicate" in g for g in rules.index().groups("drew another card"))


def test_total_at_the_end_of_a_count_is_its_frame():
    assert rules.index().groups("how many sabotage cards altogether") == rules.index().groups("how many sabotage cards")
    assert any("total" in g for g in rules.index().groups("how much total energy"))  # a term of Raising Robots
    reply = rules.ask("how many posters are there total", game="robotariat")
    # the box's 8 posters (the red cubes), or the Poster space's "only 8 can be out", not the encounters' "total 4"
    assert reply.hits[0].entry.id in ("rb-tools-of-the-revolution", "rb-activation-poster")


def test_a_title_the_question_asks_whole_beats_its_overview_that_has_more():
    # "Defense cards", not "Playing Attack and Defense cards", though both titles have the phrase
    for q in ("defense cards", "defense cards explained"):
        reply = rules.ask(q, game="two-robots")
        assert reply.answered and reply.hits[0].entry.id == "tr-defense-cards", q


@pytest.mark.parametrize("frame", ["quick question: {}", "sorry if this is obvious, {}", "{} thanks!",
                                   "settle a debate: {}", "{} i think", "excuse the newbie question, {}", "hi! {}"])
def test_the_talk_around_a_question_does_not_move_its_answer(frame):
    q, game, entry_id = "defense cards explained", "two-robots", "tr-defense-cards"
    reply = rules.ask(frame.format(q), game=game)
    assert reply.answered and reply.hits[0].entry.id == entry_id


def test_a_clause_of_words_no_entry_uses_is_talk_only_beside_a_question_and_when_it_asks_nothing():
    idx = rules.index()
    assert idx._frame_clauses("excuse the newbie question, can i block an attack") == {"excuse"}
    assert idx._frame_clauses("is it going to rain") == set()           # the whole question: what it asks
    assert idx._frame_clauses("hello, is it going to rain?") == set()   # nothing beside it the entries know
    assert idx._frame_clauses("took a friendship card, when does it kick in") == set()  # a clause that asks
    assert not rules.ask("hello, is it going to rain?").answered


@pytest.mark.parametrize("game", ["raising-robots", "robotariat", "two-robots"])
def test_a_greeting_alone_asks_nothing(game):
    # round 19: "hi" was "his" stemmed, a word of Friendship and inventor texts, and the greeting got an answer
    assert not rules.ask("lol hi", game=game).answered


@pytest.mark.parametrize("q, game, entry_id", [
    ("homing misiles out of turn", "two-robots", "tr-card-homing-missiles"),   # a slip inside a card's name
    ("how do we know its the fianl round", "robotariat", "rb-round-order-last-round"),  # ... inside a title's phrase
])
def test_a_slip_is_mended_before_the_words_are_read_together(q, game, entry_id):
    reply = rules.ask(q, game=game)
    assert reply.answered and reply.hits[0].entry.id == entry_id


def test_worth_doing_asks_an_opinion_and_written_on_a_card_its_text():
    assert rules.index().parse("is it worth taking the sabotage space").asks_opinion
    assert not rules.index().parse("how much is each a grade worth").asks_opinion
    reply = rules.ask("what's written on the scattershot card", game="two-robots")
    assert not reply.answered and reply.hits[0].entry.id == "tr-unverified-event-effects"


# ---- the players' questions (asks/) -------------------------------------------------------------------

def _verbatim(idx: RulesIndex) -> tuple[float, float]:
    """Each ask asked as it is written (game filter): how often its entry is first, and among the first three."""
    top1 = top3 = n = 0
    for e in idx.entries:
        for a in e.asks:
            got = [h.entry.id for h in idx.ask(a, game=e.game, limit=3).hits]
            n += 1
            top1 += bool(got) and got[0] == e.id
            top3 += e.id in got
    return top1 / n, top3 / n


def test_switched_on_an_ask_asked_as_written_finds_its_entry(own_words_index, monkeypatch):
    off = _verbatim(own_words_index)
    monkeypatch.setattr(index_module, "ASKS_ON", True)
    on = _verbatim(RulesIndex(rules.books()))
    # (measured: off 71 % / 89 %, on 88 % / 98 %)
    assert on[0] >= 0.85 and on[1] >= 0.95 and on[0] >= off[0] + 0.1, (off, on)


# ---- round 7: what a book leaves to other books or to the table -----------------------------------------------

@pytest.mark.parametrize("q, game, scope", [
    # the base game's and the Pets box's own content (Friends rulebook, Robots & Inventors)
    ("what robots come in the pets expansion", "raising-robots", "rr-scope-other-boxes"),
    ("how do the base game inventors work", "raising-robots", "rr-scope-other-boxes"),
    # a house rule, a prototype, another box: the Robotariat rulebook has none
    ("can we use a house rule from a prototype", "robotariat", "rb-scope-table"),
    ("is there an expansion for robotariat", "robotariat", "rb-scope-table"),
])
def test_a_question_about_what_a_book_leaves_out_is_not_covered_with_that_entry_first(q, game, scope):
    for reply in (rules.ask(q, game=game), rules.ask(q, prefer=game), rules.ask(q)):
        assert not reply.answered and reply.hits[0].entry.id == scope


def test_a_scope_entry_is_never_an_answer_nor_found_by_a_word_of_its_list_alone():
    # behind a rule that answers, a scope entry is shown as near, not as an answer
    reply = rules.ask("we dont own pets, which friendship cards come out", game="raising-robots")
    assert reply.answered and reply.hits[0].entry.id == "rr-setup-paw-friendship-cards"
    assert all(not h.answers for h in reply.hits if h.entry.kind == "scope")
    # "off" is a word of its list ("rolls off the table"), not what it is about
    reply = rules.ask("whats our chance of actually pulling this off", game="robotariat")
    assert all(h.entry.kind != "scope" for h in reply.hits)


# ---- round 8: putting a slip right (no rulebook says how) ------------------------------------------------------

@pytest.mark.parametrize("q, game, scope", [
    ("i forgot to take my batteries during the phase, can i grab them now", "raising-robots", "rr-scope-mistakes"),
    ("played the wrong card by mistake, is there a take-back", "two-robots", "tr-scope-mistakes"),
    ("we misplayed the last npc turn, do we redo it", "robotariat", "rb-scope-mistakes"),
    # nor what becomes of a leaving player's pieces: the same entries say so
    ("one player has to leave halfway, what do we do with their robot", "robotariat", "rb-scope-mistakes"),
    ("my friend needs to go home mid game, do we remove his cards", "two-robots", "tr-scope-mistakes"),
    ("someone dropped out early, what happens to their robots and energy", "raising-robots", "rr-scope-mistakes"),
    # nor what may stand in for a piece lost from the box
    ("we cant find one of the poster cubes, can we use a coin instead", "robotariat", "rb-scope-mistakes"),
    ("missing a token, ok to use a button", "raising-robots", "rr-scope-mistakes"),
    ("we drew one card too many, should we redo the turn", "two-robots", "tr-scope-mistakes"),
    # (round 20's writers) a die that bounced away or landed crooked, a step the table forgot and would go back to
    ("our die bounced off the table onto the rug, reroll or keep it", "robotariat", "rb-scope-mistakes"),
    ("the die landed crooked against a card, does it count", "robotariat", "rb-scope-mistakes"),
    ("we skipped the npc phase last round, can we go back and do it", "robotariat", "rb-scope-mistakes"),
    ("i forgot the round end step, can we do it now", "raising-robots", "rr-scope-mistakes"),
])
def test_mending_a_slip_is_not_covered_with_the_books_entry_on_mistakes_first(q, game, scope):
    _not_covered_with_first(q, game, scope)


def _not_covered_with_first(q: str, game: str, first: str) -> None:
    """Not covered, on the game's page and with its game filter, the entry saying the book is silent first."""
    for reply in (rules.ask(q, game=game), rules.ask(q, prefer=game)):
        assert not reply.answered and reply.hits[0].entry.id == first, q


def test_a_card_lost_in_play_is_still_the_rule_asked():
    # Two Robots, "Power cards": each damage costs a Power card, which is the Salvager's health
    reply = rules.ask("i lost 2 power cards, what do i use to track health", game="two-robots")
    assert reply.answered and reply.hits[0].entry.kind != "scope"


@pytest.mark.parametrize("q, game, first", [
    # "take back" is also the rules' word for a return, and "undo" a card's effect: those are the rules asked
    ("round end: do we take back our phase cards before or after scoring", "raising-robots", "rr-fact-round-end-steps"),
    ("does arcitech let me take back a poster that was ripped down", "robotariat", "rb-arcitech"),
    # forgetting a rule is asking it: "forgot" and "remind" are the frame, not a slip to mend
    ("i forgot how search works", "raising-robots", "rr-search"),
    ("remind me what happens in an npc turn", "robotariat", "rb-npc-turn"),
])
def test_a_rule_forgotten_or_a_piece_taken_back_is_still_the_rule_asked(q, game, first):
    reply = rules.ask(q, game=game)
    assert reply.answered and reply.hits[0].entry.id == first


@pytest.mark.parametrize("q, game, scope", [
    # Raising Robots and Robotariat suggest no house rules: their scope entries say the table decides
    ("house rule: we play with a fourth friendship card each, fine?", "raising-robots", "rr-scope-mistakes"),
    ("can we homebrew an eighth round", "robotariat", "rb-scope-table"),
    # round 22's session: a change made for a longer or a quicker game is the table's own rule
    ("could we play 8 rounds to make it a longer game", "raising-robots", "rr-scope-mistakes"),
    ("we prefer quicker games, can we start with 25 spark", "robotariat", "rb-scope-table"),
])
def test_a_house_rule_where_the_book_suggests_none_is_not_covered_with_its_scope_entry_first(q, game, scope):
    _not_covered_with_first(q, game, scope)


@pytest.mark.parametrize("q, game", [
    ("what age is this game for", "raising-robots"),
    ("is two robots ok for my 7 year old", "two-robots"),
    ("minimum age for robotariat?", "robotariat"),
])
def test_the_players_age_is_in_no_book(q, game):
    # the age a game suits is printed on its box, in none of the three rulebooks nor the facts
    for way in ({"game": game}, {"prefer": game}, {}):
        assert not rules.ask(q, **way).answered, (q, way)


@pytest.mark.parametrize("q, game", [
    ("is two robots still in print", "two-robots"),
    ("where can i buy the friends expansion", "raising-robots"),
    ("how much did the two robots kickstarter raise", "two-robots"),
    ("who illustrated the cards", "two-robots"),
    ("is there a box insert or organizer for this", "raising-robots"),
    # round 22's session: its price, its year and a next expansion, and a shop asked for "still"
    ("how much is the base game in shops", "raising-robots"),
    ("what is the retail price of the game", "two-robots"),
    ("when was the game released", "robotariat"),
    ("any news on a new expansion for this", "raising-robots"),
    ("where could we still get a copy of the game", "two-robots"),
    ("how much does robotariat cost", "robotariat"),
    ("do the upgrade cards need sleeves", "robotariat"),
])
def test_the_box_as_a_product_is_in_no_book(q, game):
    # round 19's session: its art, print run, shops and storage are in none of the books nor the facts; the page says
    # the question is about no point of play
    for way in ({"game": game}, {"prefer": game}, {}):
        reply = rules.ask(q, **way)
        assert not reply.answered and reply.off_the_board, (q, way)


def test_the_designers_are_still_the_fact_that_names_them():
    reply = rules.ask("who designed robotariat", game="robotariat")
    assert reply.answered and reply.hits[0].entry.id == "rb-fact-credits"


@pytest.mark.parametrize("q, game, scope", [
    # a piece spoiled, or where things stood forgotten, is mended by the table: the books never say how
    ("my nephew had to leave after round 3, what about his robots", "raising-robots", "rr-scope-mistakes"),
    ("spilled coffee on a power card, it sticks out now", "two-robots", "tr-scope-mistakes"),
    ("the table got bumped and we cant remember where the oppressor stood", "robotariat", "rb-scope-mistakes"),
    # round 22's session: a player conceding leaves the game as one who goes home does
    ("i want to forfeit, what happens to my robots", "raising-robots", "rr-scope-mistakes"),
    ("can one of us surrender and let the rest finish", "two-robots", "tr-scope-mistakes"),
    # ... and a round-end ability forgotten, taken late
    ("forgot my charlotte round end in round 4, can i claim it now", "raising-robots", "rr-scope-mistakes"),
])
def test_a_spoiled_piece_or_a_leaver_is_not_covered_with_the_books_entry_on_mistakes_first(q, game, scope):
    _not_covered_with_first(q, game, scope)


def test_posters_torn_and_a_player_leaving_a_space_are_still_the_rules_asked():
    # "torn", "ripped" are what an Oppressor does to posters; leaving a space is a move
    reply = rules.ask("oppressor walks in and posters get torn, where do they go", game="robotariat")
    assert reply.answered and reply.hits[0].entry.kind != "scope"
    assert rules.ask("when i leave a space with a civilian on it does anything happen", game="robotariat").answered


@pytest.mark.parametrize("q, game, first", [
    # the copies of one card in the deck: only the deck's totals are published (Components; the card list entry)
    ("how many ice blast cards r there in the deck", "two-robots", "tr-unverified-card-contents"),
    ("how many solar heads are in the deck", "two-robots", "tr-unverified-card-contents"),
    ("number of nuclear explosions in the deck", "two-robots", "tr-unverified-card-contents"),
])
def test_the_copies_of_one_card_lead_with_the_entry_saying_no_source_lists_them(q, game, first):
    reply = rules.ask(q, game=game)
    assert reply.hits[0].entry.id == first and (not reply.answered or reply.unprinted), q


def test_the_decks_published_totals_are_still_the_fact_that_counts_them():
    reply = rules.ask("how many attack cards are in the deck", game="two-robots")
    assert reply.answered and reply.hits[0].entry.id == "tr-fact-component-counts"


def test_leaving_a_space_and_playing_with_a_child_are_still_the_rules_asked():
    # "leave" is a move of the books (an NPC or a robot leaving a space), and an easier way to play with a child
    # is the learning variant, not the age on the box
    assert rules.ask("what happens when an oppressor leaves a space with posters", game="robotariat").answered
    assert rules.ask("playing with my 8 year old, is there an easier way to play", game="two-robots").answered


def test_another_books_house_rules_do_not_answer_on_a_page_whose_book_suggests_none():
    # Two Robots' Variations suggest house rules; on a Raising Robots page a house rule is still its book's silence
    reply = rules.ask("house rule?", prefer="raising-robots")
    assert not [h for h in reply.hits if h.answers and h.entry.game == "raising-robots"]
    assert reply.hits[0].entry.id == "rr-scope-mistakes"


def test_a_house_rule_the_book_suggests_is_answered():
    # Two Robots, Variations: the book itself suggests the five-Stacks house rule
    reply = rules.ask("house rule for getting all five stacks", game="two-robots")
    assert reply.answered and reply.hits[0].entry.id in {"tr-variation-five-stacks", "tr-reading-house-rules"}


# ---- round 12's session: the talk of the table around a question ----------------------------------------------

@pytest.mark.parametrize("q, game, dropped, kept", [
    # who said it is the frame of a claim to check; a friend is a Friendship card only when no one says anything
    ("my friend says attack cards cant touch your own parts", "two-robots", {"friend"}, {"attack", "parts"}),
    ("my brother swears you can only finish one competition per round", "raising-robots", {"brother"}, {"competition"}),
    ("can i keep my friend card", "raising-robots", set(), {"friend"}),
    # the age of a child at the table, a remind-me "again", a stop word typed with two letters swapped
    ("playing w my 7yo can we skip the powers", "two-robots", {"7yo"}, {"powers"}),
    ("what are the steps of a turn again", "two-robots", {"again"}, {"steps", "turn"}),
    ("when do we shuffle the active robot deck again", "two-robots", set(), {"again"}),
    ("cna i throw homing missles when its not my turn", "two-robots", {"cna"}, {"homing"}),
])
def test_the_talk_of_the_table_is_no_part_of_what_is_asked(q, game, dropped, kept):
    said = {g.said for g in rules.index().parse(q).groups}
    assert not dropped & said and kept <= said


@pytest.mark.parametrize("q, game, entry_id", [
    ("my friend says attack cards cant touch your own parts", "two-robots", "tr-attack-cards"),
    ("what are the steps of a turn again", "two-robots", "tr-turn-overview"),
    ("playing with my 8yo, any easier way to play", "two-robots", "tr-variation-simpler-game"),
    ("can i homing missile when its not my turn", "two-robots", "tr-card-homing-missiles"),
])
def test_with_the_talk_dropped_the_rule_is_found_and_answers(q, game, entry_id):
    reply = rules.ask(q, game=game)
    assert reply.answered and reply.hits[0].entry.id == entry_id


@pytest.mark.parametrize("q, game", [
    # looking at what another player holds or a deck hides, where no entry about what is secret or public is near
    ("can i peek at another players robot hand", "raising-robots"),
    ("can i look at the top card of the deck before drawing", "two-robots"),
    # how long a game takes: no book prints a playing time
    ("how long does a 4 player game take with all three modules", "raising-robots"),
    # a deck running out, where the nearest entry only is about that deck or names none
    ("what happens if the sabotage deck runs out", "robotariat"),
    ("what if the deck runs out", "two-robots"),
])
def test_questions_of_a_shape_no_book_answers_are_not_covered(q, game):
    assert not rules.ask(q, game=game).answered


@pytest.mark.parametrize("q, game, entry_id", [
    ("can i peek at the objective cards nobody drew", "robotariat", "rb-set-up-secret-objectives"),
    ("do i have to say how many cards im holding", "two-robots", "tr-clarification-public-info"),
    ("friendship deck ran out, now what", "raising-robots", "rr-friendship-deck-discard"),
])
def test_the_entries_that_say_what_is_secret_or_what_an_empty_deck_does_still_answer(q, game, entry_id):
    reply = rules.ask(q, game=game)
    assert reply.answered and entry_id in [h.entry.id for h in reply.hits[:3]]


@pytest.mark.parametrize("q, game", [
    ("is there a search action like in raising robots", "robotariat"),
    ("in robotariat is there a search action like raising robots has", "robotariat"),
    ("can the competitions be used in rise of the robotariat too", "raising-robots"),
])
def test_another_games_rule_is_not_covered_under_the_game_filter(q, game):
    assert not rules.ask(q, game=game).answered


def test_the_game_a_question_names_is_searched_without_the_filter_and_its_own_name_is_no_other_game():
    # ("search action": the Raising Robots book answers it when no page game filters the search)
    reply = rules.ask("is there a search action like in raising robots")
    assert reply.answered and reply.hits[0].entry.game == "raising-robots"
    assert rules.ask("setup for two robots", game="two-robots").answered


@pytest.mark.parametrize("q", ["how do i make my phone screen stay on", "my phone battery keeps dying so fast",
                               "whats the wifi password here"])
def test_the_players_own_phone_is_no_question_of_any_book_in_any_way_of_asking(q):
    for kwargs in ({"game": "raising-robots"}, {"prefer": "robotariat"}, {}):
        assert not rules.ask(q, **kwargs).answered


def test_a_phone_that_holds_a_secret_objective_is_still_asked_about_the_app():
    reply = rules.ask("if i type my objective on my phone can the others see it", game="robotariat")
    assert reply.answered and reply.hits[0].entry.id == "rb-reading-objective-advice"


@pytest.mark.parametrize("q, game", [
    ("what do susans tokens say on the b side", "raising-robots"),
    ("what are the actual goals printed on confucius's scroll board", "raising-robots"),
    ("whats the text on shogun", "two-robots"),
])
def test_a_pieces_printed_words_asked_for_are_not_covered(q, game):
    reply = rules.ask(q, game=game)
    assert not reply.answered and reply.hits


def test_what_a_card_does_and_what_a_tile_shows_are_still_answered():
    assert rules.ask("what does homing missiles do", game="two-robots").answered
    assert rules.ask("what's printed on a competition tile", game="raising-robots").answered


@pytest.mark.parametrize("q", ["where do the parts i sacrifice go", "parts that get destroyed, discard pile or out of the game",
                               "when someone gets knocked out what happens to the parts in their factory"])
def test_where_removed_parts_go_is_said_to_be_left_to_the_table(q):
    # (the Two Robots rulebook sends played Attack and Defense cards to the discard pile and lost Powers out of the
    # game, and says nothing of destroyed or sacrificed Parts: its scope entry says so, first)
    reply = rules.ask(q, game="two-robots")
    assert not reply.answered and reply.hits[0].entry.id == "tr-scope-table"


# ---- the shapes no book answers, kept narrow (a review's plain questions) ---------------------------------------

@pytest.mark.parametrize("q, game, entry_id", [
    # "what does X say" asks what X does: the entry about X answers it (only the printed words asked for as words,
    # "exact wording", "word for word", are not covered)
    ("what does albert say he does", "raising-robots", "rr-friendship-albert"),
    ("what does the search action say", "raising-robots", "rr-search"),
    # the rules' own looks at a deck: Search turns up cards; the Event phase's card drawn is a rule about one's own card
    ("can i look at the top card first during search", "raising-robots", "rr-search"),
    ("look at the top card first when i search", "raising-robots", "rr-search"),
    ("do i reveal the active robot card i drew", "two-robots", "tr-event-b-active-robot-card"),
    # "how long does a game last" is its rounds, which a book gives; "how many turns are left" is what remains
    ("how long does a game last", "robotariat", "rb-game-end"),
    ("how many turns are left in the round", "robotariat", "rb-round-order"),
    # "two robots" as a count of robots under another game's filter; Raising Robots' batteries are no phone's
    ("can i play with two robots in one slot", "raising-robots", "rr-fact-play-area"),
    ("do batteries count as energy", "raising-robots", "rr-important-william-no-batteries"),
    # what an inventor does is her entry's, not the one saying her tokens' faces are printed nowhere; when to use an
    # ability is a rule; a child's age in three words is table talk
    ("what does upgrading susan do", "raising-robots", "rr-susan-complexity-hard"),
    ("when can i use my salvager's ability", "two-robots", "tr-special-abilities"),
    ("teaching my 8 yr old is there an easier way to play", "two-robots", "tr-variation-simpler-game"),
    # "what do you do on X" asks what the rules have a player do there, not X's printed text
    ("what do you do on the sabotage space", "robotariat", "rb-activation-sabotage"),
])
def test_plain_rule_questions_are_not_taken_for_a_shape_no_book_answers(q, game, entry_id, monkeypatch):
    # (the shapes' counter-cases: the questions asked before, asked.py, are tested on their own)
    monkeypatch.setattr(index_module, "ASKED_ON", False)
    reply = rules.ask(q, game=game)
    assert reply.answered and entry_id in [h.entry.id for h in reply.hits[:3]]


@pytest.mark.parametrize("q, game", [
    ("how many minutes does a game take", "raising-robots"),
    ("do i have to show everyone what i drew", "two-robots"),
    ("am i allowed to peek at the cards i tucked under the deck later", "raising-robots"),
    ("is this like in two robots where you build parts", "raising-robots"),
    ("what is the exact wording of the yo-yo friendship card", "raising-robots"),
])
def test_the_narrowed_shapes_still_say_not_covered(q, game):
    assert not rules.ask(q, game=game).answered


def test_how_many_one_may_have_asks_the_limit():
    # (Friends rulebook, "Friendships": a player holds at most two Friendship cards)
    reply = rules.ask("how many friendship cards can i have", game="raising-robots")
    assert reply.answered and reply.hits[0].entry.id == "rr-important-max-two-friendships"


@pytest.mark.parametrize("q, game", [("best strategy for two robots", "two-robots"),
                                     ("best strategy for robotariat", "robotariat")])
@pytest.mark.parametrize("mode", ["game", "prefer", None])
def test_advice_on_the_whole_game_is_not_covered(q, game, mode):
    # no rulebook gives a strategy for the whole game; Tablebot's notes on how it ranks moves are no such advice
    reply = rules.ask(q, **({mode: game} if mode else {}))
    assert not reply.answered and reply.hits


@pytest.mark.parametrize("q", ["what do susans tokens say on the b side",
                               "which objectives are printed on confucius's scroll board",
                               "what objectives are printed on confucius scroll board"])
def test_an_inventors_printed_pieces_get_the_entry_saying_the_book_does_not_list_them(q):
    # (rulebook "Friends Inventor Explanations": how Confucius's Scroll Board and Susan's tokens are used, not what
    # they show)
    reply = rules.ask(q, game="raising-robots")
    assert not reply.answered and reply.hits[0].entry.id == "rr-unverified-inventor-pieces"


@pytest.mark.parametrize("q", ["should i open a third stack or keep finishing my robot",
                               "is it better to open a new stack or add to an old one"])
def test_advice_an_entry_only_brushes_is_not_covered(q):
    # Two Robots' book weighs no choice between a new Stack and a robot half built; the note that a lone Hybrid
    # counts as a Stack shares the words "stack" and "robot", not what the question weighs
    reply = rules.ask(q, game="two-robots")
    assert not reply.answered


@pytest.mark.parametrize("q", ["leftover resources worth anything at the end",
                               "at the end are my leftover batteries and stuff worth anything"])
def test_worth_anything_asks_a_value_not_an_opinion(q):
    # Raising Robots, "End of Game": what is still held at the end scores nothing; "worth anything" asks that
    reply = rules.ask(q, game="raising-robots")
    assert reply.answered and reply.hits[0].entry.id == "rr-fact-end-scoring"


@pytest.mark.parametrize("q", ["theres an oppressor piece sitting on the poster space, can i still use it",
                               "black oppressor is sitting on the sabotage spot, can i still draw"])
def test_a_space_an_oppressor_stands_on_gets_the_rule_on_using_spaces(q):
    # Robotariat, "Types of Space Activations": no space may be used while a Human Oppressor stands on it
    reply = rules.ask(q, game="robotariat")
    assert reply.answered and reply.hits[0].entry.id == "rb-types-of-space-activations"


@pytest.mark.parametrize("q", ["i opened a stack with a hybrid, what colour is it",
                               "put down a elec/mech hybrid on its own, what colour is that stack now"])
def test_the_energy_of_a_stack_begun_with_a_hybrid(q):
    # Two Robots, "Stacking Part Cards": a Stack begun with a Hybrid has no Energy until a second Part settles it
    reply = rules.ask(q, game="two-robots")
    assert reply.answered and reply.hits[0].entry.id in {"tr-stacking-part-cards", "tr-reading-locked-unlocked"}


@pytest.mark.parametrize("q, game", [
    ("we put the entry triangle on the wrong space at setup and just noticed in round 2, how do we fix that",
     "robotariat"),
    ("i put my robot in the wrong row last round, how do we fix that", "raising-robots"),
])
def test_a_piece_put_in_the_wrong_place_is_a_slip_no_book_mends(q, game):
    # no rulebook says how to put a slip right: not covered, with the book's scope entry on mishaps first
    reply = rules.ask(q, game=game)
    assert not reply.answered and reply.hits[0].entry.kind == "scope"


@pytest.mark.parametrize("q", ["which of the pets robots have the rainbow bar",
                               "whats the name of the robot with the microchip icon",
                               "how many robot cards are in the friends box",
                               "how many of the pets robots have a microchip"])
def test_a_robot_card_asked_by_its_icon_or_its_name_is_printed_in_no_source(q):
    # "Robots & Inventors": the modules add robot cards the book does not list; the entry saying so leads
    for way in ({"game": "raising-robots"}, {"prefer": "raising-robots"}, {}):
        reply = rules.ask(q, **way)
        assert reply.hits[0].entry.id == "rr-unverified-robot-cards", (q, way)
        assert reply.unprinted or reply.unprinted_nearest, (q, way)  # the page says it is printed nowhere


@pytest.mark.parametrize("q", ["what can character number 11 do", "the ninth character, whats its power",
                               "our copy has a character with no standee, what does it do"])
def test_a_character_beyond_the_eight_the_rules_describe_leads_with_the_entry_saying_none_are_known(q):
    # Components: eleven character cards and sheets, eight standees and eight characters described (rb-unverified-characters)
    reply = rules.ask(q, game="robotariat")
    assert reply.hits[0].entry.id == "rb-unverified-characters" and (reply.unprinted or reply.unprinted_nearest), q


def test_what_the_robots_of_a_row_or_a_card_may_do_is_still_the_rule_asked():
    assert rules.ask("which robots can albert activate", game="raising-robots").answered
    reply = rules.ask("how many robot cards in hand for the mech masters hand card", game="raising-robots")
    assert reply.answered and reply.hits[0].entry.id == "rr-card-mech-10-robot-cards"
    assert rules.ask("how many robots have to be in fabricate for the race card", game="raising-robots").answered
    # Robotariat's players are robots: its characters are in its book
    reply = rules.ask("which robot has the ability to move an oppressor", game="robotariat")
    assert reply.hits[0].entry.id != "rr-unverified-robot-cards"


def test_the_robot_cards_one_by_one_are_printed_in_no_source():
    # Raising Robots, "Robots & Inventors": the modules add robot cards the book does not list (shared/facts: no
    # public card list); the entry saying so leads, as an honest answer that the value is not printed
    reply = rules.ask("list of the pets robots", game="raising-robots")
    assert reply.hits[0].entry.id == "rr-unverified-robot-cards" and (reply.unprinted or reply.unprinted_nearest)


@pytest.mark.parametrize("q", ["how does the base game albert inventor work", "what is adas inventor ability exactly",
                               "temple inventor base ability text"])
def test_a_base_game_inventors_power_is_in_another_book(q):
    # the Friends rulebook explains its six new inventors only (Friends Inventor Explanations); Ada, Albert, Temple
    # and the others come with the base game or Pets, whose books hold their powers: the scope entry says so
    reply = rules.ask(q, game="raising-robots")
    assert not reply.answered and reply.hits[0].entry.id == "rr-scope-other-boxes"


@pytest.mark.parametrize("game", ["raising-robots", "robotariat", "two-robots"])
def test_no_book_sets_a_time_limit(game):
    # none of the three rulebooks times a turn or a choice: not covered, with the book's scope entry that says so
    reply = rules.ask("is there a time limit per turn", game=game)
    assert not reply.answered and reply.hits[0].entry.kind == "scope"


@pytest.mark.parametrize("q", ["npc is at a dead end with no arrow out, where does it go",
                               "what happens when an oppressor reaches the edge of the board"])
def test_a_path_with_no_way_out_is_one_the_book_never_shows(q):
    # "Rolling for Human Oppressor/Civilian Robot Movement": NPCs follow the black line where the arrows point; the book
    # shows no dead end, so where one would go is not covered (Tablebot's board asks both next spaces of each space)
    reply = rules.ask(q, game="robotariat")
    assert not reply.answered and reply.hits[0].entry.id == "rb-scope-table"


@pytest.mark.parametrize("q", ["how do i tell the app what my sabotage card did",
                               "how do i type in what my upgrade does so the app uses it"])
def test_entering_a_cards_effect_gets_tablebots_reading_of_cards_in_play(q):
    # the card texts are printed nowhere Tablebot could read; how the players enter what one does is Tablebot's
    # reading (rb-reading-card-effects), which a question about telling the app asks for
    reply = rules.ask(q, game="robotariat")
    assert reply.answered and reply.hits[0].entry.id == "rb-reading-card-effects"


@pytest.mark.parametrize("q, game", [
    ("in uno can you stack a +4 on a +2", "two-robots"),          # round 15, tuned on
    ("how many cards in a standard deck of playing cards", "two-robots"),
    ("in chess can you castle out of check", "robotariat"),
    ("settlers of catan: can i build two roads in one turn", "raising-robots"),
    ("how many players are on a basketball team", "two-robots"),   # a sport: "players" and "team" are the books' too
    ("whats the score of the football game", "robotariat"),
])
def test_another_games_rules_are_not_covered_with_any_way_of_asking(q, game):
    for way in ({"game": game}, {"prefer": game}, {}):
        assert not rules.ask(q, **way).answered, (q, way)


def test_the_other_games_named_are_no_words_of_the_entries():
    """A name of OTHER_GAME_PATTERN an entry or a player's question it answers used would make that entry's own
    questions "not covered"."""
    from assistant.rules.synonyms import OTHER_GAME_PATTERN

    data = Path(rules.__file__).resolve().parents[1] / "data" / "rules"
    # (not asked.toml: the questions asked before hold off-topic questions by design)
    for path in [*(p for p in data.glob("*.toml") if p.name != "asked.toml"), *(data / "asks").glob("*.toml")]:
        said = re.search(OTHER_GAME_PATTERN, path.read_text(encoding="utf-8").lower())
        assert said is None, (path.name, said and said.group())
    assert rules.ask("how do i build a robot", game="two-robots").answered


@pytest.mark.parametrize("q, game, first", [
    # round 19's session: "goal" is no synonym of "objective" (in Robotariat the objectives are the secret cards; the
    # goal of the game is the Overview's), and the aim of the game is what it is won by
    ("what is the goal of rise of the robotariat", "robotariat", "rb-overview"),
    ("whats my secret goal again", "robotariat", "rb-secret-objectives"),
    ("what is the aim of the game", "two-robots", "tr-objective"),
])
def test_the_games_goal_is_its_overview_and_a_secret_goal_its_objective(q, game, first):
    reply = rules.ask(q, game=game)
    assert reply.answered and reply.hits[0].entry.id == first


@pytest.mark.parametrize("q, first", [
    # round 19's session: the readings on values printed on the pieces that no source gives are unverified, so a reply
    # they lead says the value is printed nowhere Tablebot knows (Completion Cost and Rewards Layout; Competition Card
    # and Tile Overview)
    ("how many batteries does the engineering expo tile cost on side a", "rr-reading-tile-costs"),
    ("what are the orange and blue upgrade tokens called", "rr-reading-upgrade-token-types"),
])
def test_a_value_only_the_pieces_print_is_said_to_be_printed_nowhere_known(q, first):
    reply = rules.ask(q, game="raising-robots")
    assert reply.hits[0].entry.id == first and reply.unprinted


@pytest.mark.parametrize("q, game, first", [
    # what a named piece holds, where an entry says no source prints it (Friends Inventor Explanations)
    ("which goals r on the scroll board of confucius", "raising-robots", "rr-unverified-inventor-pieces"),
])
def test_what_a_piece_holds_where_no_source_prints_it_leads_with_the_entry_saying_so(q, game, first):
    reply = rules.ask(q, game=game)
    assert reply.hits[0].entry.id == first and (reply.unprinted or not reply.answered)


def test_what_a_piece_holds_where_an_entry_gives_it_is_still_answered():
    # Raising Robots facts: the Energy cards' values are published
    reply = rules.ask("what numbers are on the energy cards", game="raising-robots")
    assert reply.answered and reply.hits[0].entry.id == "rr-fact-energy-cards"


@pytest.mark.parametrize("q", ["after electric eye looks, can she tell the table which cards she saw",
                               "electric eye peeked, may she rearrange the top cards",
                               "can electric eye put the cards back in another order"])
def test_telling_or_reordering_what_a_look_showed_is_in_no_book(q):
    # Electric Eye (Character Abilities) looks at the Sabotage deck's top; no book says she may share or reorder it
    assert not rules.ask(q, game="robotariat").answered


def test_the_halfway_point_of_the_game_is_the_break():
    # "halfway" alone is the middle of an action ("halfway thru a robot action"); "the halfway point" is the game's,
    # the break at round 5 (a public fact of the base game)
    reply = rules.ask("what happens at the halfway point", game="raising-robots")
    assert reply.answered and reply.hits[0].entry.id == "rr-fact-break-period"


def test_telling_the_table_a_secret_is_still_the_entry_on_secrets():
    reply = rules.ask("can i tell the other players what my secret objective is", game="robotariat")
    assert reply.answered and "rb-secret-objectives" in [h.entry.id for h in reply.hits[:3]]


@pytest.mark.parametrize("q, answered", [
    # how the solo AIs play is in the base game's book, not held here; how many there are is a published fact
    ("what do the ai players do in their turns in solo", False),
    ("does the automa score vp at the end", False),
    ("how many AIs do i play against in solo", True),
])
def test_how_the_solo_ais_play_is_in_no_book_held_here(q, answered):
    reply = rules.ask(q, game="raising-robots")
    assert reply.answered == answered and (not answered or reply.hits[0].entry.id == "rr-fact-player-count")


@pytest.mark.parametrize("q, first", [
    # "ducktape": Duct Tape typed as one word (base game facts: Duct Tape; the setup's starting markers)
    ("ducktape counts as a wild?", {"rr-fact-duct-tape", "rr-fact-wild"}),
    ("how much ducktape do i start with", {"rr-fact-setup"}),
])
def test_duct_tape_typed_as_one_word_is_duct_tape(q, first):
    reply = rules.ask(q, game="raising-robots")
    assert reply.answered and reply.hits[0].entry.id in first


def test_which_way_the_npcs_usually_go_is_the_rule_that_picks_the_path():
    # Rolling for Human Oppressor & Civilian Robot Movement: the die picks the path ("usually" is no opinion here)
    reply = rules.ask("which direction do oppressors usually take, yellow arrows or blue", game="robotariat")
    assert reply.answered and reply.hits[0].entry.id == "rb-rolling-for-human-oppressor-civilian-robot-movement"
    # ... but what usually happens at a table is its experience, in no book
    assert not rules.ask("is the yellow path usually the longer one", game="robotariat").answered


# ---- round 19's session: a review's questions sharing the words of the new shapes ----------------------------------

@pytest.mark.parametrize("q, game, ids", [
    # the books' and the games' own senses of the words the new shapes read
    ("in the illustrated search example which cards fit", "raising-robots", {"rr-search-example"}),
    ("is arcitech an artist who puts posters back", "robotariat", {"rb-arcitech"}),
    ("where can i buy upgrade cards", "robotariat", {"rb-activation-upgrade"}),
    ("when was the two robots kickstarter funded", "two-robots", {"tr-fact-setting"}),
    ("how many rounds are left after round 5", "robotariat", {"rb-round-order-last-round"}),
    ("do i have to leave the space after i activate it", "robotariat", {"rb-player-turn", "rb-movement"}),
    ("leftover energy in upgrade phase, does it spill into assemble", "raising-robots", {"rr-fact-phase-row-threshold"}),
    ("i cant remember where i am in a long chain of robot activations", "raising-robots", {"rr-finite-loops-tip"}),
    ("i dont remember how many cards you draw each turn", "two-robots", {"tr-draw-phase"}),
    ("how many robot parts are in the deck", "two-robots", {"tr-fact-component-counts"}),
    ("how many sabotage cards are in the deck", "robotariat", {"rb-tools-of-the-revolution"}),
    ("can the spy say to everyone which objectives the others have", "robotariat", {"rb-spy"}),
    ("after a search can i rearrange the top of the robot deck", "raising-robots", {"rr-search"}),
    ("how does the ai choose alice smith's path", "robotariat", {"rb-reading-alice-smith"}),
    ("where do the cops usually go", "robotariat", {"rb-rolling-for-human-oppressor-civilian-robot-movement"}),
])
def test_the_words_of_the_new_shapes_in_the_games_own_sense_are_still_answered(q, game, ids, monkeypatch):
    # (the shapes' counter-cases: the questions asked before, asked.py, are tested on their own, their "not covered"
    # and the entries that answered them alike: with those, "how many robot parts are in the deck" has the entry
    # saying the part mix is printed nowhere first, the card counts second, as round 4's "how many of each part are
    # in the deck" was answered by it)
    monkeypatch.setattr(index_module, "ASKED_ON", False)
    monkeypatch.setattr(index_module, "ASKED_RANK_ON", False)
    monkeypatch.setattr(rules.index()._asked, "nearest_asking", lambda vector, game: {})
    reply = rules.ask(q, game=game)
    assert reply.answered and not reply.unprinted and ids & {h.entry.id for h in reply.hits[:3]}, q


@pytest.mark.parametrize("q, game", [
    ("who drew the robots on the cards", "raising-robots"),
    ("how much money did the robotariat kickstarter make", "robotariat"),
    ("one of our players had to go after round 3, what happens to her robots", "raising-robots"),
    ("nobody remembers which space the civilian was on", "robotariat"),
    ("the gold number on my attack card is smudged and i cant read it", "two-robots"),
    ("how many sentry gunships does the action deck have", "two-robots"),
    ("can electric eye show the table the top sabotage cards", "robotariat"),
    ("do the two ai players use energy cards", "raising-robots"),
    ("which path do experienced players usually take with alice smith", "robotariat"),
])
def test_the_new_shapes_said_otherwise_are_still_not_covered(q, game):
    reply = rules.ask(q, game=game)
    assert not reply.answered or reply.unprinted, q


# ---- round 22's session: a worked example named after its player ------------------------------------------------

def test_an_example_named_after_its_player_does_not_lead_a_question_that_names_neither():
    # Two Robots, Stacking Part Cards: Liz's example shows the rule, which answers first (she led before)
    hits = rules.ask("started a stack with just a chem/solar hybrid, which energy is it", game="two-robots").hits
    assert [h.entry.id for h in hits[:2]] == ["tr-stacking-part-cards", "tr-liz-example"]


def test_a_named_example_gives_way_only_to_the_rule_it_shows():
    # the answer below it is of another section (a Space Pod's stolen hybrid): Liz's example stays first
    assert rules.ask("my new hybrid stack, which energy does it take", game="two-robots").hits[0].entry.id == \
        "tr-liz-example"


@pytest.mark.parametrize("q, example", [
    ("alyssa, frozen stack, attacked?", "tr-alyssa-example"),
    ("liz chem solar hybrid second stack", "tr-liz-example"),
    ("the example where the second chem/solar stack turns solar", "tr-liz-example"),
])
def test_an_example_asked_by_its_players_name_or_as_the_example_still_leads(q, example):
    assert rules.ask(q, game="two-robots").hits[0].entry.id == example, q


def test_the_chats_exclamations_are_talk_not_topic():
    # "wtf" beside a question of Tablebot's reading weighed as a word no entry has and sank it below answered
    reply = rules.ask("app marks my stack unlocked, wtf does that mean", game="two-robots")
    assert reply.answered and reply.hits[0].entry.id == "tr-reading-locked-unlocked"


def test_what_is_printed_on_a_piece_no_source_lists_is_not_answered():
    # what a piece shows, asked as "what's printed on": no source gives the reference card's words, nor Confucius's
    # scroll board objectives (the entry saying so leads)
    reply = rules.ask("what is printed on the reference cards", game="two-robots")
    assert not reply.answered and reply.hits[0].entry.id == "tr-fact-component-counts"
    reply = rules.ask("whats printed on confucius scroll board", game="raising-robots")
    assert reply.hits[0].entry.id == "rr-unverified-inventor-pieces" and (not reply.answered or reply.unprinted)


def test_what_is_printed_on_a_piece_an_entry_lays_out_is_answered():
    # Raising Robots, Competition Card and Tile: the tile's layout (name, criteria, cost, rewards)
    reply = rules.ask("what is printed on a comp tile", game="raising-robots")
    assert reply.answered and reply.hits[0].entry.id == "rr-competition-card-and-tile-overview"


def test_a_deck_only_another_book_has_running_out_is_answered_by_that_book_on_any_page():
    # the Friendship deck is Raising Robots' (Friendship Deck and Discards): on a Two Robots page its rule still answers
    reply = rules.ask("the friendship deck ran out, what now", prefer="two-robots")
    assert reply.answered and reply.hits[0].entry.id == "rr-friendship-deck-discard"


def test_another_books_deck_running_out_does_not_answer_on_a_page_whose_book_is_silent():
    # Two Robots never says what happens when its Action deck is used up; Raising Robots' Search and Friendship deck
    # entries say so of their own decks, which is no answer on a Two Robots page
    for q in ("what if the action deck is empty", "action deck ran out, now what"):
        reply = rules.ask(q, prefer="two-robots")
        assert not any(h.answers and h.entry.game == "two-robots" for h in reply.hits), q


# ---- round 23's session: shapes read off round 22's misses once it was tuned on -----------------------------------

@pytest.mark.parametrize("q, game", [
    ("am i allowed to let the player next to me see my cards", "two-robots"),
    ("can i show my whole hand to the table", "raising-robots"),
    ("do i need to keep my robot cards hidden", "raising-robots"),
    ("should i show everyone which upgrade i took", "robotariat"),
])
def test_ones_own_hand_shown_or_kept_hidden_is_in_no_book(q, game):
    # each book says what is secret (a Robotariat objective) or public (Two Robots' hand sizes and discards), never
    # whether a player may show, or must hide, the cards in their own hand
    assert not rules.ask(q, game=game).answered, q


@pytest.mark.parametrize("q, game, first", [
    ("can i show my objective card to my partner", "robotariat", "rb-secret-objectives"),
    ("do i have to tell people how many cards im holding", "two-robots", "tr-clarification-public-info"),
])
def test_a_secret_objective_and_a_hand_size_are_still_the_books(q, game, first):
    reply = rules.ask(q, game=game)
    assert reply.answered and first in [h.entry.id for h in reply.hits[:2]], q


@pytest.mark.parametrize("q, game", [
    ("can 2 ppl both play samurai", "two-robots"),
    ("two of us want wallyst, who gets him", "robotariat"),
    ("both want to be susan, allowed?", "raising-robots"),
    # ... nor which of two players acting at the same moment goes first
    ("we both finished the expo at once, who goes first", "raising-robots"),
])
def test_two_players_in_one_named_role_or_at_once_are_in_no_book(q, game):
    assert not rules.ask(q, game=game).answered, q


def test_two_pieces_at_once_and_two_characters_played_are_still_the_books():
    # two NPCs meeting a player, and two characters both in play, are rules of the book
    reply = rules.ask("a cop and a civ both move onto my space on the same roll, who resolves first", game="robotariat")
    assert reply.answered and reply.hits[0].entry.kind != "scope"
    reply = rules.ask("alice smith and mt-rho both playing, who controls the dice", game="robotariat")
    assert reply.answered and {"rb-alice-smith", "rb-mt"} & {h.entry.id for h in reply.hits[:2]}


@pytest.mark.parametrize("q, game, scope", [
    ("my cousin arrived late, can he join after round 2", "robotariat", "rb-scope-mistakes"),
    ("my buddy got here late, can he join the game halfway", "two-robots", "tr-scope-mistakes"),
])
def test_a_player_joining_late_is_not_covered_with_the_books_entry_on_mistakes_first(q, game, scope):
    _not_covered_with_first(q, game, scope)


@pytest.mark.parametrize("q, game", [
    ("is there a second printing with changed cards", "raising-robots"),
    ("is there an official errata", "robotariat"),
    ("is the kickstarter edition different", "two-robots"),
])
def test_later_printings_and_errata_are_in_no_book(q, game):
    for way in ({"game": game}, {"prefer": game}, {}):
        reply = rules.ask(q, **way)
        assert not reply.answered and reply.off_the_board, (q, way)


@pytest.mark.parametrize("q, game, first", [
    ("we have the first edition board, where do the stickers go", "raising-robots", "rr-before-playing"),
    ("my box has yellow poster tokens instead of cubes, older printing?", "robotariat", "rb-fact-components-older"),
    ("is there a faq part at the back of the rules", "two-robots", "tr-clarifications"),
])
def test_the_first_edition_the_older_pieces_and_the_books_own_faq_are_still_answered(q, game, first):
    reply = rules.ask(q, game=game)
    assert reply.answered and reply.hits[0].entry.id == first, q


def test_a_story_about_someone_no_entry_names_is_not_covered_but_a_characters_bio_is():
    # Two Robots tells its setting, not a Salvager's life; the Robotariat book has bios for its characters
    assert not rules.ask("whats guardians backstory", game="two-robots").answered
    assert not rules.ask("tell me the lore of the apocalypse salvager", game="two-robots").answered
    for q, game, first in (("whats the backstory of this game", "two-robots", "tr-fact-setting"),
                           ("is there backstory for uberbot", "robotariat", "rb-character-bios")):
        reply = rules.ask(q, game=game)
        assert reply.answered and reply.hits[0].entry.id == first, q


def test_a_limit_on_upgrade_cards_is_not_covered_but_the_upgrade_space_is_answered():
    # the Robotariat book names no limit on the Upgrade cards a player keeps: its scope entry says so
    _not_covered_with_first("is there a limit on how many upgrade cards i can hold", "robotariat", "rb-scope-table")
    # what the Upgrade space does is its own entry, not the one saying the cards' texts are printed nowhere
    reply = rules.ask("what does the upgrade space do", game="robotariat")
    assert reply.answered and reply.hits[0].entry.id == "rb-activation-upgrade"
