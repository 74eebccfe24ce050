"""Issue 12 item 6: a page's problems stand next to their field and speak the players' words. Every field
of every Raising Robots page is posted with junk; no page fails, each problem under a field names a field
of that form and is not repeated at the top, and no message holds a raw path ("seats.0.", "players[0]", "_new.", "vp_by_grade")."""
from __future__ import annotations

import html
import re

import pytest
from rr_helpers import form_of

from assistant.raising_robots.schemas import STATE_KEY

PAGES = ["/raising-robots/competitions", "/raising-robots/competitions/setup", "/raising-robots/score",
         "/raising-robots/round-end", "/raising-robots/search", "/raising-robots/activations"]
RAW = re.compile(r"\b(seats|players?|competitions|search|robots|class_cards|inventory|round_end|body)\.[\w@]"
                 r"|\[\d+\]|\b_\w+\.|\bvp_by_grade\b|\bcost_energy\b|\bcost_resources\b|\bfriendship_count\b")
UNDER_FIELD = re.compile(r'<p class="field-problem"[^>]*data-for="([^"]*)">(.*?)</p>', re.S)
AT_TOP = re.compile(r'id="rr-problems".*?<ul>(.*?)</ul>', re.S)
JUNK = ("abc", "-5", "999999")


def words(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


@pytest.mark.parametrize("page", PAGES)
def test_every_problem_is_under_its_field_in_words(client, page):
    t = client.post("/api/tables", json={"game": "raising-robots", "players": 2}).get_json()
    robot = {"id": "aaaa1111", "row": "design", "cost_energy": [2], "cost_resources": [3], "basic_energy": 2,
             "vp": 3, "column": 1}
    part = {"competitions": {"cards": {"mech_masters": "mech-13-batteries"}}, "seats": [{"robots": [robot]}]}
    assert client.put(f"/api/tables/{t['id']}", json={"version": 1, "state": {STATE_KEY: part}}).status_code == 200
    url = f"{page}?table={t['id']}"
    drawn = client.get(url).get_data(as_text=True)
    names = set(form_of(drawn).keys())
    checked = 0
    for k, name in enumerate(sorted(names - {"table", "version", "do"})):
        data = form_of(drawn)
        data.setlist(name, [JUNK[k % len(JUNK)]])
        r = client.post(url, data=data)
        assert r.status_code < 500, (name, r.status_code)
        out = r.get_data(as_text=True)
        for path, message in UNDER_FIELD.findall(out):
            # next to a field of this form (or a group of them, like a robot's two cost columns)
            assert path.startswith("_") or any(n == path or n.startswith(path + ".") for n in names), (name, path)
            assert not RAW.search(words(message)), (name, words(message))
            checked += 1
        under = {words(m) for _, m in UNDER_FIELD.findall(out)}
        top = AT_TOP.search(out)
        for item in re.findall(r"<li>(.*?)</li>", top.group(1), re.S) if top else []:
            assert not RAW.search(words(item)), (name, words(item))
            assert not any(words(item).endswith(": " + m) for m in under), (name, words(item))  # said once
    assert checked > 0  # the junk was refused somewhere, under a field
