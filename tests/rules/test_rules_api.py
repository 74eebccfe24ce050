"""GET /api/rules/search and GET /api/rules/<id> (api.md, "Rules"), and the rules pages without JS."""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant import rules

CONTRACT = {"id", "game", "section", "title", "text", "related"}


def test_search_returns_the_contract_fields_best_first(client):
    res = client.get("/api/rules/search", query_string={"q": "can i use the upgraded energy for search",
                                                         "game": "raising-robots", "limit": 3})
    assert res.status_code == 200
    results = res.get_json()["results"]
    assert len(results) == 3
    assert all(CONTRACT <= set(r) for r in results)
    assert results[0]["id"] == "rr-search-basic-action-only"
    assert results[0]["section"] == "Search" and results[0]["game"] == "raising-robots"
    assert all(isinstance(r["related"], list) for r in results)


def test_search_limit_and_default(client):
    many = client.get("/api/rules/search?q=card").get_json()["results"]
    assert len(many) == 10
    assert len(client.get("/api/rules/search?q=card&limit=2").get_json()["results"]) == 2


def test_blank_question_gives_no_results(client):
    assert client.get("/api/rules/search?q=").get_json()["results"] == []
    assert client.get("/api/rules/search").get_json()["results"] == []


@pytest.mark.parametrize("query, field", [
    ({"q": "x", "game": "chess"}, "game"),
    ({"q": "x", "limit": "0"}, "limit"),
    ({"q": "x", "limit": "51"}, "limit"),
    ({"q": "x", "limit": "ten"}, "limit"),
    ({"q": "x", "limit": "2.5"}, "limit"),
    ({"q": "x" * 201}, "q"),
])
def test_bad_parameters_are_a_400_naming_the_field(client, query, field):
    res = client.get("/api/rules/search", query_string=query)
    assert res.status_code == 400
    err = res.get_json()["error"]
    assert err["code"] == "bad_request" and err["message"]
    assert [f["path"] for f in err["fields"]] == [field]


def test_one_entry_by_id(client):
    res = client.get("/api/rules/rr-friendship-example")
    assert res.status_code == 200
    body = res.get_json()
    assert CONTRACT <= set(body)
    assert body["section"] == "Friendship Example" and "Yo-Yo" in body["example"]
    assert body["section_path"] == ["Competitions & Friendships", "Friendship Example"]
    assert {r["id"] for r in body["related_entries"]} == set(body["related"])


def test_unknown_id_is_a_404_with_the_error_body(client):
    res = client.get("/api/rules/rr-no-such-rule")
    assert res.status_code == 404
    assert res.get_json()["error"]["code"] == "not_found"


def test_every_entry_is_served_and_its_related_ids_resolve(client):
    for e in rules.index().entries:
        body = client.get(f"/api/rules/{e.id}").get_json()
        assert body["id"] == e.id
        assert len(body["related_entries"]) == len(e.related)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(q=st.text(max_size=250), game=st.sampled_from(["", "raising-robots", "robotariat", "two-robots", "x", "ALL"]),
       limit=st.one_of(st.none(), st.text(max_size=4), st.integers(-5, 80).map(str)))
def test_no_query_string_produces_a_5xx(client, q, game, limit):
    query = {"q": q, "game": game}
    if limit is not None:
        query["limit"] = limit
    res = client.get("/api/rules/search", query_string=query)
    assert res.status_code in (200, 400)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="/?#%"), min_size=1, max_size=60))
def test_no_id_produces_a_5xx(client, entry_id):
    assert client.get(f"/api/rules/{entry_id}").status_code in (200, 404)


# ---- pages without JavaScript -------------------------------------------------------------------

def test_search_page_answers_on_submit_without_js(client):
    html = client.get("/rules", query_string={"q": "can i use the upgraded energy for search",
                                              "game": "raising-robots"}).get_data(as_text=True)
    assert 'href="/rules/rr-search-basic-action-only"' in html
    first = html.index('class="rule-hit')
    assert html.index('href="/rules/', first) == html.index('href="/rules/rr-search-basic-action-only"')
    assert 'value="raising-robots" selected' in html


def test_search_page_with_a_bad_game_searches_all_games(client):
    res = client.get("/rules?q=setup&game=chess")
    html = res.get_data(as_text=True)
    assert res.status_code == 200
    # an unknown game filters nothing: the setup entries of all three games are found
    for prefix in ("rr-", "rb-", "tr-"):
        assert f'href="/rules/{prefix}' in html, prefix


def test_entry_page_cites_its_section_and_shows_example_related_and_permalink(client):
    html = client.get("/rules/rr-competition-example").get_data(as_text=True)
    cite = html.split('class="small cite"', 1)[1].split("</p>", 1)[0]
    assert re.search(r'#rr-competitions-friendships"><strong>Competitions &amp; Friendships</strong></a> › '
                     r'<a href="/rules/raising-robots#rr-competition-example"><strong>Competition Example', cite)
    assert "Example</h2>" in html and "Efficiency" in html
    assert 'href="/rules/rr-card-mech-10-robot-cards"' in html  # related
    assert re.search(r'value="http://localhost/rules/rr-competition-example"', html)  # permalink
    assert "<script>" not in html  # CSP: scripts only from files


def test_reading_and_unverified_entries_say_so(client):
    assert "how Tablebot" in client.get("/rules/rr-reading-search-model").get_data(as_text=True)
    assert "badge unverified" in client.get("/rules/rr-fact-slot-surcharges").get_data(as_text=True)
    # a reading about values printed on the pieces and known to no source says both
    tile_costs = client.get("/rules/rr-reading-tile-costs").get_data(as_text=True)
    assert "How Tablebot reads this" in tile_costs and "badge unverified" in tile_costs


@pytest.mark.parametrize("game", ["raising-robots", "robotariat", "two-robots"])
def test_contents_page_lists_every_section_and_entry(client, game):
    book = rules.books()[game]
    html = client.get(f"/rules/{game}").get_data(as_text=True)
    for s in book.sections:
        assert f'id="{s.main_id}"' in html
    for e in book.entries:
        assert f'href="/rules/{e.id}"' in html


def test_unknown_rule_page_is_a_404(client):
    assert client.get("/rules/rr-nope").status_code == 404


def test_search_says_when_the_nearest_entry_is_one_that_says_it_is_printed_nowhere(client):
    body = client.get("/api/rules/search", query_string={"q": "what do susans tokens say on the b side",
                                                         "game": "raising-robots"}).get_json()
    assert body["answered"] is False and body["unprinted_nearest"] is True
    assert body["results"][0]["id"] == "rr-unverified-inventor-pieces"
    plain = client.get("/api/rules/search", query_string={"q": "can i trade cards with another player",
                                                          "game": "two-robots"}).get_json()
    assert plain["answered"] is False and plain["unprinted_nearest"] is False
